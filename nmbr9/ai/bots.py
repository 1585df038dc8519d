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
from .search import Node, _after, _left, expectimax


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


class Hard(Medium):
    """Two moves ahead: expectimax over the next card for its best placements
    (ai/search.py); three moves ahead late in the game, when that is cheap."""
    name = "hard"
    width = 4
    deep = 2
    replies = 2
    budget = 64     # evaluations for looking further ahead (late in the game)
    max_cards = 3

    def pick(self, grid, digit, cand, remaining, rng):
        if grid.count == 0:  # the first tile: every placement is the same table turned
            return _best(values(grid, digit, cand, remaining, self.weights), rng)
        return expectimax(grid, digit, cand, remaining, self.weights, self.width, self.deep, self.replies,
                          self.budget, self.max_cards)


class Expert(Medium):
    """Three cards ahead: its `width` best placements, each played forward against
    `samples` draws of the next two cards from the remaining deck's composition (the
    bot's seeded generator; the same draws for every placement), answered greedily,
    then the exact expectation over the card after those (ai/search.py: every number
    left, answered by its best placement). (The former expert, sampled three-card
    sequences all answered greedily, needed 4.2 s a move; cut to 1.8 s it scored 91.9
    where this one scores 92.4 in 0.9 s, training decks 10000..10009.)"""
    name = "expert"
    width = 4
    samples = 6
    depth = 2

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.cheap = self.weights.copy()
        self.cheap[NBASE:] = 0.0  # no footing per number on the way: it is the costly part

    def pick(self, grid, digit, cand, remaining, rng):
        v = values(grid, digit, cand, remaining, self.weights)
        if not remaining or grid.count == 0:
            return _best(v, rng)
        order = [int(k) for k in np.argsort(-v, kind="stable")[:self.width] if np.isfinite(v[k])]
        bag = sorted(d for d, n in remaining.items() for _ in range(n))
        depth = min(self.depth, len(bag) - 1)
        draws = [tuple(rng.sample(bag, depth)) for _ in range(self.samples)]
        best, best_k = -np.inf, order[0]
        for k in order:
            after = _after(grid, digit, cand, k)
            seen = {cards: self.follow(after, cards, remaining) for cards in set(draws)}
            e = sum(seen[cards] for cards in draws) / len(draws)
            if e > best + 1e-9:
                best, best_k = e, k
        return best_k

    def follow(self, grid, cards, remaining) -> float:
        """Expected value one card after `cards`, each answered greedily."""
        for d in cards:
            remaining = _left(remaining, d)
            cand = grid.candidates(d)
            grid = _after(grid, d, cand, int(np.argmax(values(grid, d, cand, remaining, self.cheap))))
        return Node(grid, remaining).one_card(self.weights)


BOTS = {"easy": Easy, "medium": Medium, "hard": Hard, "expert": Expert}


def hint(view) -> Placement:
    """The expert's choice for this view (callable from a worker thread: pure numpy/Python)."""
    return Expert(seed=0).choose(view)
