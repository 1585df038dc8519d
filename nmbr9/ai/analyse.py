"""Best found for a known deck: a beam search that knows the whole card order.

After a game the order is public, so the search may plan for it: it keeps
the `width` most promising tables after each card (judged by the same board
evaluation the bots use, with the exact cards still to come), widening the
beam while time allows, and returns the layout with the highest score.
"""
from __future__ import annotations

import time
from collections import Counter

import numpy as np

from ..rules import Board, Placement
from .evaluate import values
from .weights import WEIGHTS
from .grid import Grid


def beam(deck: list[int], width: int, weights=None, deadline: float | None = None,
         progress=None, done: float = 0.0, share: float = 1.0):
    """One beam search pass: (score, placements) of the best final table, or None if out of time."""
    weights = np.array(WEIGHTS) if weights is None else weights
    states = [(Grid(), ())]
    left = Counter(deck)
    for i, digit in enumerate(deck):
        left[digit] -= 1
        remaining = {d: n for d, n in left.items() if n > 0}
        pool = []  # (value, state index, candidate arrays, k)
        for s, (g, _) in enumerate(states):
            cand = g.candidates(digit)
            v = values(g, digit, cand, remaining, weights)
            top = np.argsort(-v, kind="stable")[:width]
            pool.extend((float(v[k]), s, cand, int(k)) for k in top)
        pool.sort(key=lambda e: -e[0])
        nxt, seen = [], set()
        for value, s, cand, k in pool:
            g, moves = states[s]
            move = tuple(int(a[k]) for a in cand)
            g2 = g.copy()
            g2.place(digit, *move)
            key = (g2.H.tobytes(), g2.score, g2.ox, g2.oy)
            if key in seen:
                continue  # the same table reached another way
            seen.add(key)
            nxt.append((g2, moves + (g.placement(digit, *move),)))
            if len(nxt) >= width:
                break
        states = nxt
        if progress:
            progress(done + share * (i + 1) / len(deck))
        if deadline is not None and time.perf_counter() > deadline:
            return None
    g, moves = max(states, key=lambda st: st[0].score)
    return g.score, list(moves)


def analyse(deck: list[int], progress=None, time_limit: float = 30.0,
            weights=None) -> list[Placement]:
    """The best layout found for this card order within `time_limit` seconds.

    Runs beams of doubling width until time runs out; progress(fraction) is
    called as it goes (from this thread; the caller hands it to its own).
    """
    start = time.perf_counter()
    deadline = start + time_limit
    best = None
    width = 4
    while True:
        # progress: the share of the time budget this pass is expected to end at
        spent = time.perf_counter() - start
        done = min(spent / time_limit, 0.99)
        found = beam(deck, width, weights, deadline if best else None, progress, done,
                     share=min(1.0 - done, max(spent, 0.05) / time_limit))
        if found is None:
            break
        if best is None or found[0] > best[0]:
            best = found
        if time.perf_counter() + 2.2 * (time.perf_counter() - start - spent) > deadline:
            break  # the next, twice as wide, would not finish
        width *= 2
    if progress:
        progress(1.0)
    return _as_played(best[1])


def _as_played(moves: list[Placement]) -> list[Placement]:
    """The placements checked through the rules, levels filled in, first tile at (0, 0)."""
    board = Board()
    if moves:
        dx, dy = moves[0].x, moves[0].y
        moves = [Placement(p.piece, p.rotation, p.x - dx, p.y - dy, p.level) for p in moves]
    return [board.place(p) for p in moves]
