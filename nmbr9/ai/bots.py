"""The four bot strengths. Each sees a View (its board, the card, the cards
seen so far) and answers a Placement; each is deterministic given its seed."""
from __future__ import annotations

import random
import time
from collections import Counter

import numpy as np

from ..rules import Placement
from .evaluate import values
from .weights import WEIGHTS
from .grid import Grid


def remaining_cards(view) -> dict[int, int]:
    """Cards still to come after this one: the deck's composition minus what was seen.
    (Only the composition: a bot never learns the order.)"""
    per = max(view.deck_size // 10, 1)
    left = Counter({d: per for d in range(10)})
    left.subtract(Counter(view.seen))
    return {d: n for d, n in left.items() if n > 0}


class Bot:
    """Base: turn the View into the fast grid, pick a candidate, check it with the rules."""
    name = "bot"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, view) -> Placement:
        grid = Grid.from_board(view.board)
        remaining = remaining_cards(view)
        # a fresh generator per decision, from the seed and what is on the table, so the
        # same View always gets the same answer however the bot was used before
        rng = random.Random(hash((self.seed, len(view.board.tiles), tuple(view.seen))) & 0xFFFFFFFF)
        cand = grid.candidates(view.card)
        if not len(cand[0]):
            raise ValueError("no legal placement")  # cannot happen on an unbounded table
        k = self.pick(grid, view.card, cand, remaining, rng)
        p = grid.placement(view.card, *(int(a[k]) for a in cand))
        if not view.board.tiles:
            p = Placement(p.piece, p.rotation, 0, 0, 0)
        return p

    def pick(self, grid, digit, cand, remaining, rng) -> int:
        raise NotImplementedError


class Easy(Bot):
    """A beginner: stacks as high as the tile will go, anywhere it fits; now and then
    lays it anywhere at all. Never plans for the cards to come."""
    name = "easy"

    def pick(self, grid, digit, cand, remaining, rng):
        lv = cand[3]
        idx = np.flatnonzero(lv == lv.max()) if rng.random() < 0.8 else np.arange(len(lv))
        return int(idx[rng.randrange(len(idx))])


def _best(v, rng) -> int:
    best = np.flatnonzero(v >= v.max() - 1e-9)
    return int(best[rng.randrange(len(best))])


class Medium(Bot):
    """One move ahead: the placement leaving the best-valued table."""
    name = "medium"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.weights = np.array(WEIGHTS)

    def pick(self, grid, digit, cand, remaining, rng):
        return _best(values(grid, digit, cand, remaining, self.weights), rng)


class Hard(Medium):
    """Two moves ahead (expectimax): for each of the `width` best placements, the
    next card is each number still in the deck, weighted by how many are left,
    answered by its best placement; the placement with the best expected value wins."""
    name = "hard"
    width = 4
    budget = 0.25  # seconds: stop looking at more placements after this

    def pick(self, grid, digit, cand, remaining, rng):
        v = values(grid, digit, cand, remaining, self.weights)
        if not remaining:
            return _best(v, rng)
        order = np.argsort(-v, kind="stable")[:self.width]
        start = time.perf_counter()
        best, best_k = -np.inf, int(order[0])
        for k in order:
            after = grid.copy()
            after.place(digit, *(int(a[k]) for a in cand))
            e = self.expect(after, remaining)
            if e > best:
                best, best_k = e, int(k)
            if time.perf_counter() - start > self.budget:
                break
        return best_k

    def expect(self, grid, remaining) -> float:
        """Mean over the next card (by the deck's composition) of its best placement's value."""
        total = sum(remaining.values())
        e = 0.0
        for d, n in sorted(remaining.items()):
            rest = dict(remaining)
            rest[d] -= 1
            cand = grid.candidates(d)
            e += n / total * values(grid, d, cand, {k: m for k, m in rest.items() if m}, self.weights).max()
        return e


class Expert(Hard):
    """Hard's search, wider."""
    name = "expert"
    width = 10
    budget = 1.6


BOTS = {"easy": Easy, "medium": Medium, "hard": Hard, "expert": Expert}


def hint(view) -> Placement:
    """The expert's choice for this view (callable from a worker thread: pure numpy/Python)."""
    return Expert(seed=0).choose(view)
