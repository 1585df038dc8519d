"""The four bot strengths. Each sees a View (its board, the card, the cards
seen so far) and answers a Placement; each is deterministic given its seed."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np

from ..rules import Placement
from .evaluate import NBASE, values
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
    """A beginner: stacks the tile as high as it will go, anywhere it fits; only
    now and then (`plan` of the time) does it think the move through."""
    name = "easy"
    plan = 0.4

    def pick(self, grid, digit, cand, remaining, rng):
        if rng.random() < self.plan:
            return _best(values(grid, digit, cand, remaining, np.array(WEIGHTS)), rng)
        lv = cand[3]
        idx = np.flatnonzero(lv == lv.max())
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


class Lookahead(Medium):
    """Plays the `width` best placements forward against the cards that may come.

    The cards to come are drawn from the remaining deck's composition (never
    its order): with depth 1 every number left is tried, weighted by how many
    are left (expectimax); deeper, `samples` sequences of `depth` cards are
    drawn with the bot's seeded generator, the same sequences for every
    placement compared. Each sequence is answered greedily; the value of the
    table after its last card (with the footing per number) is averaged.
    """
    width = 4
    depth = 1
    samples = 0
    leaf_footing = True  # judge the last table with the footing per number too

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.cheap = self.weights.copy()
        self.cheap[NBASE:] = 0.0  # no footing per number on the way: it is the costly part

    def pick(self, grid, digit, cand, remaining, rng):
        v = values(grid, digit, cand, remaining, self.weights)
        if not remaining:
            return _best(v, rng)
        order = np.argsort(-v, kind="stable")[:self.width]
        futures = self.futures(remaining, rng)
        best, best_k = -np.inf, int(order[0])
        for k in order:
            after = grid.copy()
            after.place(digit, *(int(a[k]) for a in cand))
            e = sum(weight * self.follow(after, cards, remaining) for weight, cards in futures)
            if e > best + 1e-9:
                best, best_k = e, int(k)
        return best_k

    def futures(self, remaining, rng):
        """[(weight, cards)]: the card sequences to play forward."""
        total = sum(remaining.values())
        if self.depth == 1:
            return [(n / total, (d,)) for d, n in sorted(remaining.items())]
        bag = sorted(d for d, n in remaining.items() for _ in range(n))
        depth = min(self.depth, len(bag))
        return [(1.0 / self.samples, tuple(rng.sample(bag, depth))) for _ in range(self.samples)]

    def follow(self, grid, cards, remaining) -> float:
        left = dict(remaining)
        for i, d in enumerate(cards):
            left[d] -= 1
            rest = {k: n for k, n in left.items() if n}
            cand = grid.candidates(d)
            last = i == len(cards) - 1
            v = values(grid, d, cand, rest, self.weights if last and self.leaf_footing else self.cheap)
            k = int(np.argmax(v))
            if last:
                return float(v[k])
            grid = grid.copy()
            grid.place(d, *(int(a[k]) for a in cand))
        raise AssertionError("no cards to follow")


class Hard(Lookahead):
    """Two moves ahead: expectimax over the next card."""
    name = "hard"
    width = 4
    depth = 1


class Expert(Lookahead):
    """Four moves ahead: sampled sequences of the next three cards."""
    name = "expert"
    width = 6
    depth = 3
    samples = 40


BOTS = {"easy": Easy, "medium": Medium, "hard": Hard, "expert": Expert}


def hint(view) -> Placement:
    """The expert's choice for this view (callable from a worker thread: pure numpy/Python)."""
    return Expert(seed=0).choose(view)
