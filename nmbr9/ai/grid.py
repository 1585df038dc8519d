"""A fast table for search: a height map instead of the rules' voxel grid.

Every square of a legal table is a full stack (no overhang, no holes under a
tile), so one height per square says which levels are filled, and the id of
the top tile of each square says what a new tile would rest on. A tile lands
at level L exactly where every square under it has height L; it touches its
level where a neighbouring square is higher than L; it rests on two tiles
where the top ids under it differ. All placements of one orientation are
found at once with sliding windows. Only the classic number tiles are
handled; the rules' Board stays the judge (bots check their choice with it).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..rules import Board, Placement, tile_points
from ..rules.tiles import distinct_orientations

MARGIN = 6  # empty squares kept around the build (more than a piece's side)


@dataclass(frozen=True)
class Shape:
    """One orientation of a digit, with its squares and the squares around it
    as offsets inside an (h + 2) x (w + 2) window whose corner is one square
    up and left of the piece."""
    digit: int
    rotation: int
    h: int
    w: int
    ys: np.ndarray
    xs: np.ndarray
    ring_ys: np.ndarray
    ring_xs: np.ndarray


def _shapes(digit: int) -> tuple[Shape, ...]:
    out = []
    for o in distinct_orientations(digit):
        m = np.zeros((o.height + 2, o.width + 2), bool)
        m[1:-1, 1:-1] = o.mask
        ring = np.zeros_like(m)
        ring[1:] |= m[:-1]
        ring[:-1] |= m[1:]
        ring[:, 1:] |= m[:, :-1]
        ring[:, :-1] |= m[:, 1:]
        ring &= ~m
        ys, xs = np.nonzero(m)
        rys, rxs = np.nonzero(ring)
        out.append(Shape(digit, o.rotation, o.height, o.width, ys, xs, rys, rxs))
    return tuple(out)


SHAPES = {d: _shapes(d) for d in range(10)}


class Grid:
    """Heights and top tile ids of a table, origin-shifted so it fits a square array."""

    __slots__ = ("H", "T", "ox", "oy", "count", "score", "levels")

    def __init__(self, size: int = 32):
        self.H = np.zeros((size, size), np.int8)
        self.T = np.full((size, size), -1, np.int16)
        self.ox = self.oy = -(size // 2)   # world (x, y) of H[0, 0]
        self.count = 0                     # tiles placed
        self.score = 0
        self.levels = 0                    # levels holding a tile

    @classmethod
    def from_board(cls, board: Board) -> "Grid":
        if not board.tiles:
            return cls()
        x0, y0, x1, y1 = board.bounds()
        size = max(x1 - x0, y1 - y0) + 1 + 2 * MARGIN
        g = cls(max(size, 32))
        g.ox = x0 - MARGIN
        g.oy = y0 - MARGIN
        for p in board.tiles:
            o = p.orientation()
            ys = np.array([dy for dx, dy in o.cells]) + p.y - g.oy
            xs = np.array([dx for dx, dy in o.cells]) + p.x - g.ox
            g._stamp(ys, xs, p.level, tile_points(p) // max(p.level, 1))
        return g

    def copy(self) -> "Grid":
        g = Grid.__new__(Grid)
        g.H, g.T = self.H.copy(), self.T.copy()
        g.ox, g.oy, g.count, g.score, g.levels = self.ox, self.oy, self.count, self.score, self.levels
        return g

    def _stamp(self, ys, xs, level: int, digit: int) -> None:
        """`digit` is what the tile scores per level (0 for NMBR 9 ++ start tiles, fillers, flipped)."""
        self.H[ys, xs] = level + 1
        self.T[ys, xs] = self.count
        self.count += 1
        self.score += digit * level
        self.levels = max(self.levels, level + 1)

    def near_build(self) -> tuple[slice, slice]:
        """Rows and columns of the build plus a tile's reach around it (squares a new tile
        may cover, and the ring it touches); the whole grid while it is empty."""
        ys, xs = np.nonzero(self.H)
        if not len(ys):
            return slice(0, self.H.shape[0]), slice(0, self.H.shape[1])
        return (slice(max(ys.min() - 5, 0), ys.max() + 6), slice(max(xs.min() - 5, 0), xs.max() + 6))

    def candidates(self, digit: int, max_level: int | None = None):
        """Every legal placement of `digit`: arrays (shape index, row, col, level)."""
        shapes = SHAPES[digit]
        if self.count == 0:
            n = self.H.shape[0] // 2 - 2
            k = len(shapes)
            return np.arange(k), np.full(k, n), np.full(k, n), np.zeros(k, np.int64)
        # only windows near the build can hold a tile
        rows, cols = self.near_build()
        r0, c0 = rows.start, cols.start
        Hp = np.pad(self.H[rows, cols], 1)
        Tp = np.pad(self.T[rows, cols], 1, constant_values=-1)
        top = int(self.levels)  # level `top` is empty: any tile there needs no contact
        out_s, out_r, out_c, out_l = [], [], [], []
        for si, s in enumerate(shapes):
            W = sliding_window_view(Hp, (s.h + 2, s.w + 2))
            cells = W[..., s.ys, s.xs]
            lo = cells.min(-1)
            ok = lo == cells.max(-1)
            ok &= (W[..., s.ring_ys, s.ring_xs].max(-1) > lo) | (lo >= top)
            if max_level is not None:
                ok &= lo <= max_level
            rows, cols = np.nonzero(ok)
            if not len(rows):
                continue
            lv = lo[rows, cols]
            up = lv > 0
            if up.any():
                WT = sliding_window_view(Tp, (s.h + 2, s.w + 2))
                t = WT[rows, cols][:, s.ys, s.xs]
                two = t.min(-1) != t.max(-1)
                keep = ~up | two
                rows, cols, lv = rows[keep], cols[keep], lv[keep]
            out_s.append(np.full(len(rows), si))
            out_r.append(rows + r0)
            out_c.append(cols + c0)
            out_l.append(lv.astype(np.int64))
        if not out_s:
            e = np.zeros(0, np.int64)
            return e, e, e, e
        return (np.concatenate(out_s), np.concatenate(out_r), np.concatenate(out_c),
                np.concatenate(out_l))

    def place(self, digit: int, si: int, r: int, c: int, level: int) -> None:
        """Lay a candidate (window corner r, c) and keep a margin around the build."""
        s = SHAPES[digit][si]
        # the window's corner is one square up-left of the piece: window (1, 1) is piece (0, 0)
        self._stamp(s.ys - 1 + r, s.xs - 1 + c, level, digit)
        n = self.H.shape[0]
        if r < MARGIN or c < MARGIN or r + s.h + MARGIN > n or c + s.w + MARGIN > n:
            self._grow()

    def _grow(self) -> None:
        n = self.H.shape[0]
        pad = n // 2
        self.H = np.pad(self.H, pad)
        self.T = np.pad(self.T, pad, constant_values=-1)
        self.ox -= pad
        self.oy -= pad

    def placement(self, digit: int, si: int, r: int, c: int, level: int) -> Placement:
        s = SHAPES[digit][si]
        return Placement(digit, s.rotation, int(c) + self.ox, int(r) + self.oy, int(level))
