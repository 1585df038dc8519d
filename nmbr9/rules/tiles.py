"""The number tiles: shapes, colours and every orientation, computed once.

Coordinates as in spec/tiles.md: x is the column (right), y the row (down);
a 90 degree clockwise turn maps (x, y) to (h - 1 - y, x).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

ROTATIONS = (0, 90, 180, 270)

SHAPES: dict[int, tuple[str, ...]] = {
    0: ("###", "#.#", "#.#", "###"),
    1: ("##", ".#", ".#", ".#"),
    2: (".##", ".##", "##.", "###"),
    3: ("###", "..#", ".##", "###"),
    4: (".##", ".#.", "###", ".##"),
    5: ("###", "#..", "###", "###"),
    6: ("##.", "#..", "###", "###"),
    7: ("###", ".#.", "##.", "#.."),
    8: (".##", ".##", "##.", "##."),
    9: ("###", "###", "##.", "##."),
}

COLOURS: dict[int, str] = {
    0: "#9a9486", 1: "#8a6a4f", 2: "#e8834f", 3: "#efc15a", 4: "#7fb069",
    5: "#7fc4c9", 6: "#5b74b8", 7: "#a77cc2", 8: "#ef9aa8", 9: "#d9534f",
}

COLOUR_NAMES: dict[int, str] = {
    0: "grey", 1: "brown", 2: "orange", 3: "yellow", 4: "green",
    5: "light blue", 6: "dark blue", 7: "purple", 8: "pink", 9: "red",
}


def shape_mask(rows: tuple[str, ...]) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in rows], dtype=bool)


def rotate_cw(mask: np.ndarray) -> np.ndarray:
    """Quarter turn clockwise: (x, y) -> (h - 1 - y, x)."""
    return np.ascontiguousarray(np.rot90(mask, k=-1))


@dataclass(frozen=True)
class Orientation:
    """One way a piece can lie: its squares relative to the top-left corner."""
    piece: int | str
    rotation: int
    flipped: bool
    mask: np.ndarray          # rows x cols, True where a square is
    cells: tuple[tuple[int, int], ...]  # (x, y) offsets of the squares

    @property
    def width(self) -> int:
        return self.mask.shape[1]

    @property
    def height(self) -> int:
        return self.mask.shape[0]

    def squares(self, x: int, y: int) -> list[tuple[int, int]]:
        return [(x + dx, y + dy) for dx, dy in self.cells]


# NMBR 9 ++ start tiles. The official shapes are not public, so this game
# defines its own: value 0, 10 to 14 squares, six different footprints (none
# is another turned or mirrored), no enclosed holes.
START_TILES: dict[str, tuple[str, ...]] = {
    "S1": ("##...", "###..", ".###.", "...##"),
    "S2": (".##.", "####", "####", ".#.."),
    "S3": ("##..", "##..", "####", "####"),
    "S4": ("###..", ".####", "...##", "..###"),
    "S5": ("#####", "#...#", "#...#", "##.##"),
    "S6": (".####", "#####", "####.", "#...."),
}

# NMBR 9 ++ gap fillers: one 1-square and one 2-square piece per player.
FILLERS: dict[str, tuple[str, ...]] = {"F1": ("#",), "F2": ("##",)}

# Pieces other than the ten numbers register their shapes here; keys are
# strings so they never clash with digits.
EXTRA_SHAPES: dict[str, tuple[str, ...]] = {**START_TILES, **FILLERS}


def is_filler(piece) -> bool:
    return isinstance(piece, str) and piece in FILLERS


def is_start_tile(piece) -> bool:
    return isinstance(piece, str) and piece in START_TILES


def piece_shape(piece: int | str) -> tuple[str, ...]:
    if isinstance(piece, (int, np.integer)) and int(piece) in SHAPES:
        return SHAPES[int(piece)]
    if isinstance(piece, str) and piece in EXTRA_SHAPES:
        return EXTRA_SHAPES[piece]
    raise KeyError(f"unknown piece {piece!r}")


@lru_cache(maxsize=None)
def _all_orientations(piece, flipped: bool) -> tuple[Orientation, ...]:
    mask = shape_mask(piece_shape(piece))
    if flipped:
        mask = np.ascontiguousarray(mask[:, ::-1])
    out = []
    for rotation in ROTATIONS:
        m = mask.copy()
        m.setflags(write=False)
        ys, xs = np.nonzero(m)
        out.append(Orientation(piece, rotation, flipped, m,
                               tuple(zip(xs.tolist(), ys.tolist()))))
        mask = rotate_cw(mask)
    return tuple(out)


def orientation(piece, rotation: int, flipped: bool = False) -> Orientation:
    """The piece turned by `rotation` degrees clockwise (mirrored first if flipped)."""
    if rotation not in ROTATIONS:
        raise ValueError(f"bad rotation {rotation}")
    return _all_orientations(piece, flipped)[ROTATIONS.index(rotation)]


@lru_cache(maxsize=None)
def distinct_orientations(piece, flipped: bool = False) -> tuple[Orientation, ...]:
    """Each distinct set of squares once, with the smallest rotation giving it."""
    seen, out = set(), []
    for o in _all_orientations(piece, flipped):
        key = (o.mask.shape, o.mask.tobytes())
        if key not in seen:
            seen.add(key)
            out.append(o)
    return tuple(out)


def canonical_rotation(piece, rotation: int, flipped: bool = False) -> int:
    """The smallest rotation that gives the same squares (0 and 8 by 180)."""
    m = orientation(piece, rotation, flipped).mask
    for o in distinct_orientations(piece, flipped):
        if o.mask.shape == m.shape and np.array_equal(o.mask, m):
            return o.rotation
    raise AssertionError("unreachable")


def square_count(piece) -> int:
    return int(shape_mask(piece_shape(piece)).sum())
