"""Expectimax over the cards to come, for the hard bot.

A chance node is the table before the next card: every number left is tried,
weighted by how many of it are left (the composition, never the order). A
number is answered by its best placements by the board evaluation; at the
last depth the best placement's value is the answer. The root's placements
are pruned progressively: all of the `width` best get one card of lookahead,
the best few of those are looked at further ahead, as a fixed budget of
evaluations allows.
"""
from __future__ import annotations

import numpy as np

from .evaluate import answers, values


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
    __slots__ = ("grid", "remaining", "answers", "shortlists")

    def __init__(self, grid, remaining, shortlists):
        self.grid, self.remaining = grid, remaining
        self.shortlists = shortlists  # footings measured: answering a card, at the last depth
        self.answers = {}  # number -> (candidates, their values)

    def _answer_all(self, w, leaf: bool) -> None:
        """Value the answers to every number not answered yet, in one batch: at the last
        depth (`leaf`) only the best placement counts, so fewer footings are measured."""
        cards = [(d, self.grid.candidates(d), _left(self.remaining, d))
                 for d in sorted(self.remaining) if d not in self.answers]
        if cards:
            shortlist = self.shortlists[1] if leaf else self.shortlists[0]
            for (d, cand, _), v in zip(cards, answers(self.grid, cards, w, shortlist)):
                self.answers[d] = cand, v

    def one_card(self, w) -> float:
        """Expected value of the best answer to the next card (the answers kept for deepening)."""
        self._answer_all(w, leaf=False)
        total = sum(self.remaining.values())
        return sum(n * float(self.answers[d][1].max()) for d, n in sorted(self.remaining.items())) / total

    def ahead(self, w, cards: int, replies: int) -> float:
        """Expected value `cards` cards ahead, each card answered by whichever of its
        `replies` best placements looks best for the cards after it."""
        total = sum(self.remaining.values())
        self._answer_all(w, leaf=cards == 1)
        out = 0.0
        for d, n in sorted(self.remaining.items()):
            rest = _left(self.remaining, d)
            cand, v = self.answers[d]
            if cards == 1 or not rest:
                out += n * float(v.max())
                continue
            best = [k for k in np.argsort(-v, kind="stable")[:replies] if np.isfinite(v[k])]
            after = (Node(_after(self.grid, d, cand, k), rest, self.shortlists) for k in best)
            out += n * max(node.ahead(w, cards - 1, replies) for node in after)
        return out / total


def expectimax(grid, digit, cand, remaining, w, width: int, deep: int, replies: int, budget: int,
               max_cards: int, shortlists: tuple[int, int]) -> int:
    """Index of the candidate to play: the `width` best by value get one card of
    lookahead; then the `deep` best of those are compared as many cards ahead (at
    most `max_cards`) as `budget` evaluations allow: more late in the game, when
    fewer numbers are left. The work is counted, never timed, so the choice is
    deterministic."""
    v = values(grid, digit, cand, remaining, w)
    order = [int(k) for k in np.argsort(-v, kind="stable")[:width] if np.isfinite(v[k])]
    if not remaining or len(order) == 1:
        return order[0]
    nodes = {k: Node(_after(grid, digit, cand, k), remaining, shortlists) for k in order}
    one = {k: nodes[k].one_card(w) for k in order}
    ranked = sorted(order, key=lambda k: -one[k])  # stable: ties keep the value order
    # the cards to look ahead and how many placements to compare, as the budget allows
    kinds, cards = len(remaining), 1
    while cards < min(max_cards, sum(remaining.values())):
        work = kinds * (replies * kinds) ** cards  # evaluations per placement compared
        if min(deep, len(ranked)) * work > budget:
            break
        cards += 1
        deep = min(deep, len(ranked), budget // work)
    if cards == 1:
        return ranked[0]
    far = {k: nodes[k].ahead(w, cards, replies) for k in ranked[:deep]}
    return max(ranked[:deep], key=lambda k: far[k])
