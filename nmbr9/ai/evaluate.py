"""How good a table is for the cards still to come, for many candidate moves at once.

value = points so far + w . features, the features scaled by what is left
of the deck (its sum of numbers and its number of cards): with the deck
spent only points count. The features describe what future tiles need:
- room to build upward: the area at each height;
- footing: flat 3 x 4 patches at each height, where any number fits;
- ragged edges: the edge of the area at each height (squares along a
  ragged edge are hard for any tile to use);
- pits: squares lower than all four neighbours, never covered again, so
  everything above them loses footing;
- for the best few candidates, footing per number: where each number still
  to come would find a flat resting place on two tiles, at each level.
The weights are tuned for the greedy policy's final score (tune.py).
"""
from __future__ import annotations

import numpy as np

from .grid import SHAPES, Grid

AREA = 5      # area and its edge at heights >= 1..AREA
FOOT = 4      # footing at heights 1..FOOT
BOARD = 2 * AREA + 1 + FOOT
NBASE = 2 * BOARD + 3
LEVELS = 4    # footing per number at levels 1..LEVELS
NREACH = 3 + 2 * LEVELS
NFEAT = NBASE + NREACH
SHORTLIST = 16  # candidates whose footing per number is measured (the costly part)


def stamp(grid: Grid, digit: int, si, r, c, lv, tops: bool = False):
    """Heights after each candidate, cropped to the build plus a margin: (K, h, w);
    with `tops`, also the top tile ids after each candidate."""
    rows, cols = grid.near_build()
    r0, c0 = rows.start, cols.start
    crop = grid.H[rows, cols]
    K = len(si)
    out = np.broadcast_to(crop, (K,) + crop.shape).copy()
    ids = np.broadcast_to(grid.T[rows, cols], (K,) + crop.shape).copy() if tops else None
    for s_i, s in enumerate(SHAPES[digit]):
        k = np.nonzero(si == s_i)[0]
        if not len(k):
            continue
        ys = r[k, None] + (s.ys - 1 - r0)
        xs = c[k, None] + (s.xs - 1 - c0)
        out[k[:, None], ys, xs] = (lv[k] + 1)[:, None]
        if tops:
            ids[k[:, None], ys, xs] = grid.count
    return (out, ids) if tops else out


def _run(a, op, axis, n):
    """op over each run of n neighbours along an axis (separable window min or max)."""
    size = a.shape[axis]
    cut = lambda i: a[(slice(None),) * axis + (slice(i, size - n + 1 + i),)]
    out = cut(0)
    for i in range(1, n):
        out = op(out, cut(i))
    return out


def _flat(H, h_rows, w_cols):
    """Per table and height, windows of that size whose squares all have that height."""
    lo = _run(_run(H, np.minimum, 1, h_rows), np.minimum, 2, w_cols)
    hi = _run(_run(H, np.maximum, 1, h_rows), np.maximum, 2, w_cols)
    return np.where(lo == hi, lo, -1)


def board_features(H: np.ndarray) -> np.ndarray:
    """(K, BOARD): area at heights >= 1..AREA, the edge of each of those areas
    (a ragged level wastes squares), pits, footing at 1..FOOT."""
    K = H.shape[0]
    f = np.zeros((K, BOARD), np.float64)
    for h in range(min(AREA, int(H.max()))):  # no area above the highest tile
        m = H > h
        f[:, h] = np.count_nonzero(m, axis=(1, 2))
        f[:, AREA + h] = (np.count_nonzero(m[:, 1:] != m[:, :-1], axis=(1, 2))
                          + np.count_nonzero(m[:, :, 1:] != m[:, :, :-1], axis=(1, 2)))
    inner = H[:, 1:-1, 1:-1]
    around = np.minimum(np.minimum(H[:, :-2, 1:-1], H[:, 2:, 1:-1]),
                        np.minimum(H[:, 1:-1, :-2], H[:, 1:-1, 2:]))
    f[:, 2 * AREA] = np.count_nonzero(inner < around, axis=(1, 2))
    tall, wide = _flat(H, 4, 3), _flat(H, 3, 4)
    for h in range(1, FOOT + 1):
        f[:, 2 * AREA + h] = np.sqrt(np.count_nonzero(tall == h, axis=(1, 2))
                                     + np.count_nonzero(wide == h, axis=(1, 2)))
    return f


def deck_scales(remaining: dict[int, int]) -> tuple[float, float]:
    """(sum of the numbers left / 90, cards left / 20)."""
    return sum(d * n for d, n in remaining.items()) / 90.0, sum(remaining.values()) / 20.0


def features(Hs: np.ndarray, remaining: dict[int, int]) -> np.ndarray:
    """(K, NFEAT): the board features scaled by each deck scale, then the scales and 1."""
    return _scaled(board_features(Hs), remaining)


def _scaled(f: np.ndarray, remaining: dict[int, int]) -> np.ndarray:
    ls, lc = deck_scales(remaining)
    K = len(f)
    return np.hstack([f * ls, f * lc, np.tile([ls, lc, 1.0], (K, 1))])


def reach_features(grid: Grid, digit: int, cand, remaining: dict[int, int]) -> np.ndarray:
    """(K, NREACH) for these candidates: `footing_features` of the tables they leave."""
    return footing_features(*stamp(grid, digit, *cand, tops=True), remaining)


def footing_features(Hs: np.ndarray, Ts: np.ndarray, remaining: dict[int, float]) -> np.ndarray:
    """(K, NREACH) from the footing per number: the next card's expected number x level,
    the same summed over all cards left, the mean footing level of the numbers left, and for each
    level 1..LEVELS the numbers left (summed, / 90) that find a place there and the
    squares some number left could cover at that level or higher (/ 10: room for
    several tiles, where one place may serve only one)."""
    return _footing_terms(*footing(Hs, Ts, digits=[d for d, k in remaining.items() if k > 0]),
                          remaining)


def _footing_terms(top, at, cover, remaining: dict[int, float]) -> np.ndarray:
    ml = top.astype(np.float64)
    n = np.zeros(10)
    for d, k in remaining.items():
        n[d] = k
    digits = np.arange(10)
    nxt = n / max(n.sum(), 1.0)
    per_level = np.einsum("kdl,d->kl", at, n * digits) / 90.0
    room = np.stack([(cover >= L).sum(axis=(1, 2)) for L in range(1, LEVELS + 1)], axis=1) / 10.0
    return np.hstack([np.stack([ml @ (nxt * digits), ml @ (n * digits) / 90.0,
                                ml @ (n > 0) / 10.0], axis=1), per_level, room])


def values(grid: Grid, digit: int, cand, remaining: dict[int, int], w: np.ndarray,
           shortlist: int = SHORTLIST) -> np.ndarray:
    """Estimated final score after each candidate placement of `digit`.

    All candidates get the cheap features; the best `shortlist` of them also
    the footing per number, the rest are left at -inf (never chosen)."""
    return answers(grid, [(digit, cand, remaining)], w, shortlist)[0]


def answers(grid: Grid, cards, w: np.ndarray, shortlist: int = SHORTLIST) -> list[np.ndarray]:
    """`values` for several cards on one table, each (number, candidates, cards left after
    it), the footing per number of all their shortlisted candidates measured in one batch
    (for all numbers left after any of them: a little more room than each alone)."""
    Hs = [stamp(grid, digit, *cand) for digit, cand, _ in cards]
    f = board_features(np.concatenate(Hs))
    bases, at = [], 0
    for (digit, cand, remaining), h in zip(cards, Hs):
        bases.append(grid.score + digit * cand[3] + _scaled(f[at:at + len(h)], remaining) @ w[:NBASE])
        at += len(h)
    if not np.any(w[NBASE:]):
        return bases
    tops = [np.argsort(-base, kind="stable")[:shortlist] for base in bases]
    stamped = [stamp(grid, digit, *[a[top] for a in cand], tops=True)
               for (digit, cand, _), top in zip(cards, tops)]
    digits = sorted({d for _, _, remaining in cards for d, k in remaining.items() if k > 0})
    terms = footing(np.concatenate([h for h, _ in stamped]), np.concatenate([t for _, t in stamped]), digits)
    result, at = [], 0
    for base, top, (_, _, remaining) in zip(bases, tops, cards):
        part = slice(at, at + len(top))
        at += len(top)
        v = np.full(len(base), -np.inf)
        v[top] = base[top] + _footing_terms(*(t[part] for t in terms), remaining) @ w[NBASE:]
        result.append(v)
    return result


def hand_weights() -> np.ndarray:
    """A starting point before any tuning: area up high is good, ragged edges and pits bad."""
    w = np.zeros(NFEAT)
    w[NBASE:NBASE + 3] = (1.0, 0.5, 0.0)
    w[:AREA] = (0.2, 0.5, 0.3, 0.4, 1.1)
    w[AREA:2 * AREA] = -1.1
    w[2 * AREA] = -1.8
    return w


def footing(Hs: np.ndarray, Ts: np.ndarray, digits=range(10)):
    """Where each of `digits` could be laid next (flat, on two tiles, touching its level
    unless that level is empty): (K, 10) the highest such level (>= 1, else 0; 0 for the
    other numbers), (K, 10, LEVELS) whether it finds a place at each level 1..LEVELS,
    and (K, h, w) the highest level at which some of them could cover each square."""
    from numpy.lib.stride_tricks import sliding_window_view
    K = Hs.shape[0]
    Hp = np.pad(Hs, ((0, 0), (1, 1), (1, 1)))
    Tp = np.pad(Ts, ((0, 0), (1, 1), (1, 1)), constant_values=-1)
    empty = Hs.reshape(K, -1).max(-1)  # the lowest level holding no tile
    top = np.zeros((K, 10), np.int16)
    at = np.zeros((K, 10, LEVELS + 1), bool)  # column 0: levels above LEVELS, dropped
    cover = np.zeros(Hs.shape, np.int16)
    for d in digits:
        for s in SHAPES[d]:
            W = sliding_window_view(Hp, (s.h + 2, s.w + 2), axis=(1, 2))
            win = W[..., s.ys, s.xs]
            lo = win.min(-1)
            # flat resting places above the table (few): only those are checked further
            k, y, x = np.nonzero((lo == win.max(-1)) & (lo > 0))
            lo = lo[k, y, x]
            tw = sliding_window_view(Tp, (s.h + 2, s.w + 2), axis=(1, 2))[k, y, x][:, s.ys, s.xs]
            ok = tw.min(-1) != tw.max(-1)
            ok &= (W[k, y, x][:, s.ring_ys, s.ring_xs].max(-1) > lo) | (lo >= empty[k])
            k, y, x, lo = k[ok], y[ok], x[ok], lo[ok]
            if not len(k):
                continue
            lv = np.zeros(win.shape[:3], lo.dtype)
            lv[k, y, x] = lo
            P, Q = lv.shape[1:]
            for dy, dx in zip(s.ys - 1, s.xs - 1):
                np.maximum(cover[:, dy:dy + P, dx:dx + Q], lv, out=cover[:, dy:dy + P, dx:dx + Q])
            np.maximum(top[:, d], lv.reshape(K, -1).max(-1), out=top[:, d])
            at[k, d, np.where(lo <= LEVELS, lo, 0)] = True
    return top, at[:, :, 1:], cover
