"""The three bot strengths. Each sees a View (its board, the card, the cards
seen so far) and answers a Placement; each is deterministic given its seed."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np

from ..rules import Placement
from .evaluate import values
from .weights import WEIGHTS
from .grid import Grid
from .search import expectimax


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


def _best(v, rng, near: float = 1e-9) -> int:
    """One of the placements valued within `near` points of the best, chosen by the seed."""
    best = np.flatnonzero(v >= v.max() - near)
    return int(best[rng.randrange(len(best))])


class Medium(Bot):
    """One move ahead: the placement leaving the best-valued table, or one valued within
    `near` points of it (the evaluation can't tell them apart; two medium bots on the same
    deck then lay different tables, as two players would)."""
    name = "medium"
    near = 0.05

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.weights = np.array(WEIGHTS)

    def pick(self, grid, digit, cand, remaining, rng):
        return _best(values(grid, digit, cand, remaining, self.weights), rng, self.near)


class Hard(Medium):
    """Two moves ahead: expectimax over the next card for its best placements
    (ai/search.py); three moves ahead late in the game, when that is cheap."""
    name = "hard"
    width = 4
    deep = 2
    replies = 2
    budget = 64     # evaluations for looking further ahead (late in the game)
    max_cards = 3
    # footings measured per number answering a card, and at the last depth (where only
    # the best placement counts, so fewer)
    shortlists = (8, 4)

    def pick(self, grid, digit, cand, remaining, rng):
        if grid.count == 0:  # the first tile: every placement is the same table turned
            return _best(values(grid, digit, cand, remaining, self.weights), rng)
        return expectimax(grid, digit, cand, remaining, self.weights, self.width, self.deep, self.replies,
                          self.budget, self.max_cards, self.shortlists)


BOTS = {"easy": Easy, "medium": Medium, "hard": Hard}
