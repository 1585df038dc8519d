"""A player's table as a voxel level grid, with verdicts and legal placements.

The grid is `ids[level, row, col]`: the index of the tile filling that
square on that level, or -1. It spans only the build (`origin` is the world
square of its corner) and grows as needed so no legal game reaches an edge;
`MARGIN` empty squares are always kept around level 0 so every placement
that touches the build fits inside the grid.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import NamedTuple

import numpy as np

from .tiles import ROTATIONS, Orientation, canonical_rotation, distinct_orientations, is_filler, orientation

MARGIN = 5  # more than the longest side of any piece

# Placement-rule relaxations granted by NMBR 9 ++ powers and pieces.
ALLOW_SINGLE_SUPPORT = "single_support"  # may rest on one tile
ALLOW_LONER = "loner"                    # level >= 1 need not touch its level
ALLOW_BRIDGE = "bridge"                  # may span a closed hole it covers
HIGHEST_LEVEL = 4  # "Level to Level": nobody builds on level 5


def piece_allows(piece) -> frozenset:
    """Relaxations a piece always has: a gap filler need not rest on two tiles."""
    return frozenset({ALLOW_SINGLE_SUPPORT}) if is_filler(piece) else frozenset()


class Placement(NamedTuple):
    """A piece laid at (x, y) turned `rotation`; `level` None means 'where it lands'.

    A named tuple: legal move generation makes hundreds of these per call."""
    piece: int | str
    rotation: int
    x: int
    y: int
    level: int | None = None
    flipped: bool = False

    @property
    def digit(self):
        return self.piece

    def orientation(self) -> Orientation:
        return orientation(self.piece, self.rotation, self.flipped)

    def squares(self) -> list[tuple[int, int]]:
        return self.orientation().squares(self.x, self.y)

    def at(self, level: int) -> "Placement":
        return self._replace(level=level)

    def to_json(self) -> dict:
        out = {"digit": self.piece, "rotation": self.rotation, "x": self.x, "y": self.y, "level": self.level}
        if self.flipped:
            out["flipped"] = True
        return out


def N_(template: str) -> str:
    """Marks a sentence for translation; the i18n layer translates it when shown."""
    return template


@dataclass(frozen=True)
class Verdict:
    """Legal, or refused with a code (spec/game-record.md) and a sentence.

    `template` is the English sentence with {fields} from `params`; the scene
    shows `text(translate)`, records and tests use `code`.
    """
    code: str | None
    template: str = ""
    params: tuple = ()
    level: int | None = None

    @property
    def ok(self) -> bool:
        return self.code is None

    @property
    def message(self) -> str:
        return self.text(lambda s: s)

    def text(self, translate) -> str:
        return _say(translate, self.template, self.params)

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True)
class Reason:
    """What is wrong (with a record, a ruleset): like a Verdict's sentence, an English `template`
    marked with N_ and its {fields}; `text(translate)` says it in the player's language, str() in
    English (the JSON output, logs)."""
    template: str
    params: tuple = ()

    @classmethod
    def of(cls, template: str, **params) -> "Reason":
        return cls(template, tuple(sorted(params.items())))

    def text(self, translate) -> str:
        return _say(translate, self.template, self.params)

    def __str__(self) -> str:
        return self.text(lambda s: s)


def _say(translate, template: str, params: tuple) -> str:
    """`template` translated, its {fields} filled; a field that is itself a sentence (a Reason, a
    refusal) is said in the same language."""
    return translate(template).format(**{k: v.text(translate) if isinstance(v, (Reason, Verdict)) else v
                                         for k, v in params})


def refuse(code: str, template: str, level: int | None = None, **params) -> Verdict:
    return Verdict(code, template, tuple(sorted({"level": level, **params}.items())), level)


# Refusals that name a square; the window says them without it, marking the square on the tile
# (scene/play.py ON_THE_TABLE).
TAKEN = N_("Square ({x}, {y}) on level {level} is already taken.")
UNDER_HIGHER = N_("Square ({x}, {y}) lies under a tile of a higher level.")
OVERHANG = N_("The tile overhangs or covers a hole: square ({x}, {y}) has nothing under it on level {below}.")
OVERHANG_FILLER = N_("The gap filler overhangs or covers a hole: square ({x}, {y}) has nothing under it on level "
                     "{below}.")
BRIDGE_OPEN = N_("With Bridge only a closed hole may lie under the tile: square ({x}, {y}) has nothing under it "
                 "and is open to the outside.")
BRIDGE_PART = N_("With Bridge the tile must cover the whole hole under square ({x}, {y}), not just part of it.")

# The base game's codes (spec/game-record.md), then the NMBR 9 ++ ones (docs/record-plus.md).
REFUSAL_CODES = ("overlap", "not_supported", "single_support", "not_adjacent",
                 "wrong_digit", "wrong_turn", "bad_rotation",
                 "covered", "level_cap")


@dataclass
class Board:
    """One player's table. `tiles` holds committed placements (level filled in)."""
    tiles: list[Placement] = field(default_factory=list)

    def __post_init__(self):
        placed, self.tiles = self.tiles, []
        self.ids = np.full((1, 2 * MARGIN, 2 * MARGIN), -1, dtype=np.int16)
        self.origin = (-MARGIN, -MARGIN)  # world (x, y) of ids[:, 0, 0]
        for p in placed:
            self.place(p)

    # ----- geometry -------------------------------------------------------
    @property
    def levels(self) -> int:
        """Number of levels holding at least one tile."""
        return int(np.count_nonzero((self.ids >= 0).any(axis=(1, 2))))

    def top_level(self) -> int:
        return self.levels - 1

    def tile_at(self, x: int, y: int, level: int) -> int:
        """Index into `tiles` of the tile on that square and level, or -1."""
        r, c = y - self.origin[1], x - self.origin[0]
        if 0 <= level < self.ids.shape[0] and 0 <= r < self.ids.shape[1] and 0 <= c < self.ids.shape[2]:
            return int(self.ids[level, r, c])
        return -1

    def height_at(self, x: int, y: int) -> int:
        """The level a tile dropped on this square lands on: one above its highest tile
        (0: bare table). A bridge may leave empty squares under it; the drop still rests on top."""
        r, c = y - self.origin[1], x - self.origin[0]
        if not (0 <= r < self.ids.shape[1] and 0 <= c < self.ids.shape[2]):
            return 0
        stack = self.ids[:, r, c].tolist()   # (a few levels: a plain loop is 5 times numpy's speed here)
        for level in range(len(stack) - 1, -1, -1):
            if stack[level] >= 0:
                return level + 1
        return 0

    def resting_level(self, piece, rotation: int, x: int, y: int, flipped: bool = False) -> int:
        """The level a piece dropped here lands on: the highest stack under it."""
        return max(self.height_at(sx, sy) for sx, sy in orientation(piece, rotation, flipped).squares(x, y))

    def is_empty(self) -> bool:
        return not self.tiles

    def bounds(self) -> tuple[int, int, int, int]:
        """(min x, min y, max x, max y) of all squares, or zeros when empty."""
        if not self.tiles:
            return (0, 0, 0, 0)
        ys, xs = np.nonzero((self.ids >= 0).any(axis=0))
        ox, oy = self.origin
        return (int(xs.min()) + ox, int(ys.min()) + oy, int(xs.max()) + ox, int(ys.max()) + oy)

    def _ensure(self, x0: int, y0: int, x1: int, y1: int, level: int) -> None:
        """Grow the grid so squares x0..x1, y0..y1 plus MARGIN and `level` fit."""
        if not (self.ids >= 0).any():
            # an empty grid moves to the tile: grown out from (0, 0), it would cost memory
            # in proportion to how far from (0, 0) the game is played
            self.origin = (x0 - MARGIN, y0 - MARGIN)
        ox, oy = self.origin
        L, H, W = self.ids.shape
        left = max(0, ox - (x0 - MARGIN))
        top = max(0, oy - (y0 - MARGIN))
        right = max(0, (x1 + MARGIN) - (ox + W - 1))
        bottom = max(0, (y1 + MARGIN) - (oy + H - 1))
        more = max(0, level + 2 - L)  # always one empty level above the top
        if left or top or right or bottom or more:
            # grow in chunks so repeated placements rarely reallocate
            pad = lambda n: n + 4 if n else 0
            self.ids = np.pad(self.ids, ((0, more), (pad(top), pad(bottom)), (pad(left), pad(right))),
                              constant_values=-1)
            self.origin = (ox - pad(left), oy - pad(top))

    # ----- verdicts -------------------------------------------------------
    def verdict(self, p: Placement, allow: frozenset = frozenset(), max_level: int | None = None) -> Verdict:
        """Whether `p` may be laid on this table now, and at which level.

        `allow` holds the relaxations of NMBR 9 ++ powers; `max_level` is the
        highest level the tile may reach ("Level to Level")."""
        if p.rotation not in ROTATIONS:
            return refuse("bad_rotation", N_("A tile can only be turned by 0, 90, 180 or 270 degrees."))
        allow = allow | piece_allows(p.piece)
        filler = is_filler(p.piece)   # its refusals name it: "the tile" read as the turn's number tile
        squares = p.squares()
        heights = [self.height_at(sx, sy) for sx, sy in squares]
        level = max(heights) if p.level is None else p.level
        if level < 0:
            return refuse("not_supported", N_("There is no level below the table."), level)
        if max_level is not None and level > max_level:
            if max_level >= HIGHEST_LEVEL:
                return refuse("level_cap", N_("Nobody builds on level 5."), level)
            if max_level == 0:
                return refuse("level_cap", N_("A tile from under marker 0 may only be built on level 0."), level)
            return refuse("level_cap", N_("This tile may only be built on levels 0 to {cap}."), level, cap=max_level)
        taken = [s for s in squares if self.tile_at(s[0], s[1], level) >= 0]
        if taken:
            return refuse("overlap", TAKEN, level, x=taken[0][0], y=taken[0][1])
        covered = [s for s, h in zip(squares, heights) if h > level]
        if covered:  # only a bridge leaves an empty square with a tile above it
            return refuse("covered", UNDER_HIGHER, level, x=covered[0][0], y=covered[0][1])
        if level > 0:
            under = [self.tile_at(sx, sy, level - 1) for sx, sy in squares]
            bare = [s for s, t in zip(squares, under) if t < 0]
            support = {t for t in under if t >= 0}
            if bare and not (support and ALLOW_BRIDGE in allow):
                return refuse("not_supported", OVERHANG_FILLER if filler else OVERHANG, level,
                              x=bare[0][0], y=bare[0][1], below=level - 1)
            if bare:
                gap = self._bridge_gap(bare, level)
                if gap:   # (x, y) names the square at fault, not just the first bare one: that may be bridged
                    template, (x, y) = gap
                    return refuse("not_supported", template, level, x=x, y=y, below=level - 1)
            if len(support) < 2 and ALLOW_SINGLE_SUPPORT not in allow:
                return refuse("single_support", N_(
                    "The tile rests on only one tile; on level {level} it must rest on at least two."), level)
        if not (ALLOW_LONER in allow and level > 0) and self._level_has_tiles(level):
            if not any(self.tile_at(sx + dx, sy + dy, level) >= 0
                       for sx, sy in squares for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                if ALLOW_LONER in allow:   # armed, yet it frees a tile only from level 1 up: said, not just refused
                    return refuse("not_adjacent", N_(
                        "The tile must touch a tile of level 0 along a square's side: Loner applies only from "
                        "level 1 up."), level)
                return refuse("not_adjacent", N_(
                    "The gap filler must touch a tile of level {level} along a square's side.") if filler else N_(
                    "The tile must touch a tile of level {level} along a square's side."), level)
        return Verdict(None, level=level)

    def _level_has_tiles(self, level: int) -> bool:
        return level < self.ids.shape[0] and bool((self.ids[level] >= 0).any())

    def _bridge_gap(self, bare, level):
        """Bridge power: None if every bare square lies in a closed hole the tile covers completely,
        else (BRIDGE_OPEN, a bare square open to the outside) or (BRIDGE_PART, a bare square over a
        hole the tile covers only in part)."""
        (r0, c0), labels, sizes = self._holes(level - 1)
        ox, oy = self.origin
        holes = []
        for x, y in bare:
            r, c = y - oy - r0, x - ox - c0
            if not (0 <= r < labels.shape[0] and 0 <= c < labels.shape[1]) or labels[r, c] == 0:
                return BRIDGE_OPEN, (x, y)  # the gap reaches the outside: not a hole
            holes.append(int(labels[r, c]))
        for (x, y), k in zip(bare, holes):
            if holes.count(k) < sizes[k - 1]:
                return BRIDGE_PART, (x, y)
        return None

    def _holes(self, level: int):
        """The closed holes of a level: ((row, col) of its bounding box in the grid,
        labels over that box (0: a tile or open to the outside, k: hole k), sizes).

        A hole is a connected set of empty squares that does not reach the outside;
        an empty square on the edge of the level's bounding box reaches it."""
        filled = self.ids[level] >= 0
        rows, cols = np.nonzero(filled.any(1))[0], np.nonzero(filled.any(0))[0]
        if not len(rows):
            return (0, 0), np.zeros((0, 0), dtype=np.int16), []
        box = filled[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
        h, w = box.shape
        labels = np.zeros((h, w), dtype=np.int16)
        outside = np.zeros((h, w), dtype=bool)

        def flood(start, mark):
            todo = [start]
            mark(start)
            while todo:
                r, c = todo.pop()
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= n[0] < h and 0 <= n[1] < w and not box[n] and not outside[n] and not labels[n]:
                        mark(n)
                        todo.append(n)

        for r in range(h):
            for c in range(w):
                if (r in (0, h - 1) or c in (0, w - 1)) and not box[r, c] and not outside[r, c]:
                    flood((r, c), lambda n: outside.__setitem__(n, True))
        sizes = []
        for r in range(h):
            for c in range(w):
                if not box[r, c] and not outside[r, c] and not labels[r, c]:
                    k = len(sizes) + 1
                    flood((r, c), lambda n: labels.__setitem__(n, k))
                    sizes.append(int((labels == k).sum()))
        return (int(rows[0]), int(cols[0])), labels, sizes

    # ----- changes --------------------------------------------------------
    def place(self, p: Placement, allow: frozenset = frozenset(), max_level: int | None = None) -> Placement:
        """Commit a legal placement; returns it with its level. Raises IllegalPlacement."""
        v = self.verdict(p, allow, max_level)
        if not v:
            raise IllegalPlacement(v)
        return self.lay(p.at(v.level))

    def lay(self, p: Placement) -> Placement:
        """Commit a placement already judged legal at its level (Game.play judges it once)."""
        self._write(p, len(self.tiles))
        self.tiles.append(p)
        return p

    def _write(self, p: Placement, index: int) -> None:
        xs = [s[0] for s in p.squares()]
        ys = [s[1] for s in p.squares()]
        self._ensure(min(xs), min(ys), max(xs), max(ys), p.level)
        ox, oy = self.origin
        o = p.orientation()
        self.ids[p.level, p.y - oy:p.y - oy + o.height, p.x - ox:p.x - ox + o.width][o.mask] = index

    def free(self, index: int) -> bool:
        """Nothing lies on any square of tile `index` (it could be lifted)."""
        p = self.tiles[index]
        return all(self.height_at(sx, sy) == p.level + 1 for sx, sy in p.squares())

    def lifted(self, index: int) -> "Board":
        """A copy with tile `index` taken off the table (its entry in `tiles` stays,
        so indexes keep their meaning): the table a relocation is judged on."""
        b = self.copy()
        b.ids[b.ids == index] = -1
        return b

    def move_tile(self, index: int, p: Placement, allow: frozenset = frozenset()) -> Placement:
        """Relocate tile `index` to `p` (judged without the tile); it keeps its index."""
        v = self.lifted(index).verdict(p, allow)
        if not v:
            raise IllegalPlacement(v)
        p = p.at(v.level)
        self.ids[self.ids == index] = -1
        self._write(p, index)
        self.tiles[index] = p
        return p

    def undo(self) -> Placement:
        """Take back the last placement (not a relocation: replay the game for that)."""
        p = self.tiles.pop()
        self.ids[self.ids == len(self.tiles)] = -1
        return p

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.tiles = list(self.tiles)
        b.ids = self.ids.copy()
        b.origin = self.origin
        return b

    def shifted(self, dx: int, dy: int) -> "Board":
        """A copy moved dx, dy squares across the table: the same build, scored the same."""
        b = self.copy()
        b.tiles = [p._replace(x=p.x + dx, y=p.y + dy) for p in self.tiles]
        b.origin = (self.origin[0] + dx, self.origin[1] + dy)
        return b

    # ----- scoring --------------------------------------------------------
    def score(self) -> int:
        return sum(tile_points(p) for p in self.tiles)

    def score_by_level(self) -> dict[int, int]:
        """Points per level (level 0 included, always 0)."""
        out: dict[int, int] = {}
        for p in self.tiles:
            out[p.level] = out.get(p.level, 0) + tile_points(p)
        return dict(sorted(out.items()))

    # ----- legal placements -----------------------------------------------
    def legal_placements(self, piece, flipped: bool = False, allow: frozenset = frozenset(),
                         max_level: int | None = None) -> list[Placement]:
        """Every legal placement of `piece`, each distinct set of squares and level once.

        On an empty table every position is legal; the table has no edge, so
        one placement per orientation at (0, 0) stands for all of them.

        Order: by level, then orientation (as `distinct_orientations`), then row
        and column. Each level is judged for every orientation and position at
        once: the level's window (padded so a piece reaching past it is refused)
        is read through precomputed square offsets, `_window_squares`, and the
        rules become minimum / maximum / any over each piece's squares.
        """
        orients = distinct_orientations(piece, flipped)
        allow = allow | piece_allows(piece)
        filled = self.ids >= 0
        on_level = filled.any(axis=(1, 2))
        if not self.tiles or not on_level.any():  # (a lifted table may hold no square)
            return [Placement(piece, o.rotation, 0, 0, 0, flipped) for o in orients]
        found = []  # (level, orientation indexes, rows, cols) in output order
        ox, oy = self.origin
        L, H, W = filled.shape
        top = int(np.count_nonzero(on_level))  # a new level may start right above the top
        last = top if max_level is None else min(top, max_level)
        single = ALLOW_SINGLE_SUPPORT in allow
        loner = ALLOW_LONER in allow
        bridged = bool((filled[1:] & ~filled[:-1]).any())  # some square lies empty under a tile
        row_any, col_any = filled.any(2), filled.any(1)
        ph, pw = max(o.height for o in orients), max(o.width for o in orients) - 1
        for level in range(0, last + 1):
            # Only look where a tile could go: around level 0, or on top of the level below.
            b = level - 1 if level else 0
            rows, cols = row_any[b].nonzero()[0], col_any[b].nonzero()[0]
            if not len(rows):
                break
            reach = MARGIN - 1 if level == 0 else 0
            r0, c0 = max(int(rows[0]) - reach, 0), max(int(cols[0]) - reach, 0)
            r1, c1 = min(int(rows[-1]) + reach + 1, H), min(int(cols[-1]) + reach + 1, W)
            hw, ww = r1 - r0, c1 - c0
            # padded: a piece reaching past the window reads empty padding; rounded up so that
            # boards of nearby widths share `_window_squares` tables
            stride = -(-(ww + pw) // 8) * 8
            occ = filled[level, r0:r1, c0:c1] if level < L else np.zeros((hw, ww), dtype=bool)
            blocked = occ
            if bridged and level + 1 < L:
                # a square under a bridge is empty but covered: nothing goes there
                blocked = occ | filled[level + 1:, r0:r1, c0:c1].any(0)
            holes = self._holes(level - 1)[1:] if level > 0 and ALLOW_BRIDGE in allow else None
            if holes is not None and not holes[1]:
                holes = None
            near = None
            if not (loner and level > 0) and occ.any():
                near = np.zeros((hw + ph, stride), dtype=bool)
                n = near[:hw, :ww]
                n[1:] |= occ[:-1]
                n[:-1] |= occ[1:]
                n[:, 1:] |= occ[:, :-1]
                n[:, :-1] |= occ[:, 1:]
                n &= ~occ
            idx = _window_squares(piece, flipped, stride, -(-hw // 16) * 16)[:hw]  # (row, square, orientation, column)
            if level == 0:
                # 2: free, 3: free and beside a tile of the level, 0 or 1: taken or outside
                val = np.zeros((hw + ph, stride), dtype=np.int8)
                val[:hw, :ww] = ~blocked
                val <<= 1
                if near is not None:
                    val |= near
                got = val.ravel().take(idx)
                ok = np.minimum.reduce(got, axis=1) >= 2
                if near is not None:
                    ok &= np.maximum.reduce(got, axis=1) == 3
            else:
                # the tile under each square where it is free, -1 where not (or outside)
                under = np.full((hw + ph, stride), -1, dtype=self.ids.dtype)
                under[:hw, :ww] = np.where(blocked, -1, self.ids[level - 1, r0:r1, c0:c1])
                got = under.ravel().take(idx)
                if holes is None:
                    low = np.minimum.reduce(got, axis=1)
                    ok = low >= 0
                    if not single:
                        ok &= np.maximum.reduce(got, axis=1) != low
                else:
                    labels, sizes = holes
                    lab = np.zeros((hw + ph, stride), dtype=labels.dtype)
                    lab[:hw, :ww] = np.where(blocked, 0, labels)
                    ok = self._bridge_ok(got, lab.ravel().take(idx), sizes, single)
                if near is not None:
                    ok &= np.logical_or.reduce(near.ravel().take(idx), axis=1)
            o, r, c = ok.transpose(1, 0, 2).nonzero()  # orientation-major, then row, column
            if len(o):
                found.append((level, o, r + (r0 + oy), c + (c0 + ox)))
        if not found:
            return []
        rots = np.array([o.rotation for o in orients])
        new = tuple.__new__
        out = []
        for level, o, y, x in found:
            out.extend(map(new, repeat(Placement), zip(repeat(piece), rots[o].tolist(), x.tolist(), y.tolist(),
                                                       repeat(level), repeat(flipped))))
        return out

    @staticmethod
    def _bridge_ok(under, lab, sizes, single) -> np.ndarray:
        """Support test under the bridge power, for every window at once (squares on
        axis 1; `under` -1 and `lab` 0 where a square is taken): each square rests on
        a tile or lies in a closed hole, every hole touched is covered whole, and the
        tile rests on two tiles (one with single support)."""
        ok = np.logical_and.reduce((under >= 0) | (lab > 0), axis=1)
        for k, size in enumerate(sizes, 1):
            n = np.add.reduce(lab == k, axis=1)
            ok &= (n == 0) | (n == size)
        high = np.maximum.reduce(under, axis=1)
        ok &= high >= 0
        if not single:
            ok &= np.minimum.reduce(np.where(under >= 0, under, np.iinfo(under.dtype).max), axis=1) != high
        return ok


@lru_cache(maxsize=128)
def _window_squares(piece, flipped: bool, stride: int, rows: int) -> np.ndarray:
    """Flat indexes, into a level's window padded to `stride` squares wide (the
    piece's width - 1 empty columns) and below (its height), of each square of the
    piece laid at each position: shape (rows, squares, orientations, stride), indexed
    [row, square, orientation, column]; a window takes its first rows. A position in
    the padding columns, or reaching past the window, reads a padding square (a piece's
    first column holds a square), so the rules refuse it."""
    orients = distinct_orientations(piece, flipped)
    offsets = np.array([[dy * stride + dx for dx, dy in o.cells] for o in orients]).T  # (squares, orientations)
    idx = np.arange(rows * stride).reshape(rows, 1, 1, stride) + offsets[None, :, :, None]
    idx.setflags(write=False)
    return idx


class IllegalPlacement(ValueError):
    def __init__(self, verdict: Verdict):
        super().__init__(verdict.message)
        self.verdict = verdict


def tile_points(p: Placement) -> int:
    """Number x level; pieces without a number and flipped tiles score nothing."""
    if p.flipped or not isinstance(p.piece, int):
        return 0
    return p.piece * p.level


def canonical(p: Placement) -> Placement:
    return p._replace(rotation=canonical_rotation(p.piece, p.rotation, p.flipped))
