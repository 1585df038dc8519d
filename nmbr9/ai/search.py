"""Expectimax over the cards to come, for the hard and expert bots.

A chance node is the table before the next card: every number left is tried,
weighted by how many of it are left (the composition, never the order). A
number is answered by its best placements by the board evaluation; at the
last depth the best placement's value is the answer. The root's placements
are pruned progressively: all of the `width` best get one card of lookahead,
the best few of those (as many as a fixed budget of evaluations allows) the second.
"""
from __future__ import annotations

import numpy as np

from .evaluate import values

LEAF_SHORTLIST = 4  # at the last depth only the best placement counts: measure fewer footings


def _after(grid, digit, cand, k):
    g = grid.copy()
    g.place(digit, *(int(a[k]) for a in cand))
    return g


def _left(remaining, d):
    rest = dict(remaining)
    rest[d] -= 1
    return {k: n for k, n in rest.items() if n}


class Node:
    """A table before the next card, its per-number answers kept for deepening."""
    __slots__ = ("grid", "remaining", "answers")

    def __init__(self, grid, remaining):
        self.grid, self.remaining = grid, remaining
        self.answers = {}  # number -> (candidates, their values)

    def answer(self, d, w):
        if d not in self.answers:
            cand = self.grid.candidates(d)
            self.answers[d] = cand, values(self.grid, d, cand, _left(self.remaining, d), w)
        return self.answers[d]

    def one_card(self, w) -> float:
        """Expected value of the best answer to the next card."""
        total = sum(self.remaining.values())
        return sum(n * float(self.answer(d, w)[1].max())
                   for d, n in sorted(self.remaining.items())) / total

    def two_cards(self, w, replies: int) -> float:
        """Expected value with the next card answered by whichever of its `replies`
        best placements has the best one-card lookahead after it."""
        total = sum(self.remaining.values())
        out = 0.0
        for d, n in sorted(self.remaining.items()):
            cand, v = self.answer(d, w)
            rest = _left(self.remaining, d)
            if not rest:
                out += n * float(v.max())
                continue
            best = -np.inf
            for k in np.argsort(-v, kind="stable")[:replies]:
                if not np.isfinite(v[k]):
                    break
                child = Node(_after(self.grid, d, cand, k), rest)
                best = max(best, child.leaf_one_card(w))
            out += n * best
        return out / total

    def leaf_one_card(self, w) -> float:
        total = sum(self.remaining.values())
        out = 0.0
        for d, n in sorted(self.remaining.items()):
            cand = self.grid.candidates(d)
            v = values(self.grid, d, cand, _left(self.remaining, d), w, shortlist=LEAF_SHORTLIST)
            out += n * float(v.max())
        return out / total


def expectimax(grid, digit, cand, remaining, w, width: int, deep: int, replies: int, budget: int) -> int:
    """Index of the candidate to play: the `width` best by value get one card of
    lookahead; then as many of the best of those as `budget` evaluations allow
    (at most `deep`; fewer numbers left, more of them) are compared two cards ahead.
    The work is counted, never timed, so the choice is deterministic."""
    v = values(grid, digit, cand, remaining, w)
    order = [int(k) for k in np.argsort(-v, kind="stable")[:width] if np.isfinite(v[k])]
    if not remaining or len(order) == 1:
        return order[0]
    nodes = {k: Node(_after(grid, digit, cand, k), remaining) for k in order}
    one = {k: nodes[k].one_card(w) for k in order}
    ranked = sorted(order, key=lambda k: -one[k])  # stable: ties keep the value order
    deep = min(deep, len(ranked), budget // (replies * len(remaining) ** 2))
    if deep < 2 or sum(remaining.values()) < 2:
        return ranked[0]
    two = {k: nodes[k].two_cards(w, replies) for k in ranked[:deep]}
    return max(ranked[:deep], key=lambda k: two[k])
