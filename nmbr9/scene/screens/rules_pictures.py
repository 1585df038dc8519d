"""The rules page's pictures: the ten tiles as they lie on the table, and a 7 laid where the rules allow it and
where they refuse it.

The tiles are the table's own models (their shapes, colours and numerals), seen from straight above, lower levels
a little darker as on the table and a tile above casting a shadow. The examples are judged by the rules
(Board.verdict) each time the page is built, and captioned with what the table says of them, so they can't drift
from the rules.
"""
from __future__ import annotations

from panda3d.core import CardMaker, LineSegs, NodePath, TransparencyAttrib, Vec3

from ...i18n import N_, _
from ...rules import Board, Placement
from ..play import fault_square, verdict_text
from ..table import AT_FAULT, CLOTH, GRID_ALPHA, GRID_INK, LEGAL, REFUSED, level_tint, tile_model, \
    placement_transform

ALLOWED = N_("Allowed: {verdict}")
NOT_ALLOWED = N_("Not allowed: {verdict}")

# a 9 and a 5 side by side on level 0 (the 9's notch at its lower right), and a 7 laid on them or beside them
BASE = (Placement(9, 0, 0, 0), Placement(5, 0, 3, 0))
EXAMPLES = (   # the 7, and the verdict's code it is meant to show (tests/test_screens.py checks them)
    (Placement(7, 270, 1, 0), None),              # on level 1, resting on both
    (Placement(7, 0, 0, 0), "single_support"),    # on the 9 alone
    (Placement(7, 0, 2, 0), "not_supported"),     # over the 9's notch: nothing under two squares
    (Placement(7, 0, 7, 0), "not_adjacent"),      # on level 0, a column away from the others
)
TILES = tuple(Placement(digit, 0, 4 * digit, 0, level=0) for digit in range(10))   # 0 to 9 in a row, a square apart
SHADOW = (0.0, 0.0, 0.0, 0.45)   # under a tile above level 0, down and to the right
SHADOW_RUN = 0.15                # squares
TINT = 0.3                       # how strongly the tile in hand is tinted green or red
OUTLINE = 3                      # pixels: the tile in hand's outline
MARGIN = 0.5                     # squares of table around what a picture shows
SPACE = 0.02                     # between a picture's line on the page and its table


# RumBugz's page: a sequence of each kind, and one with a PLYT standing for the 5 it lacks
SEQUENCES = (("2", "3", "4", "5"), ("2", "4", "6", "8"), ("3", "6", "9", "12"), ("8", "8", "8", "8"),
             ("3", "4", "P5", "6"))
BUG_STEP = 1.2    # bug widths from one bug of a row to the next, as on the table (rumbugz_table)


def sequence_caption(tokens) -> str:
    """What the rules read a sequence as ("A single sequence: 3 4 5 6"): the pictures can't drift from them."""
    from ...rumbugz.rules import read_sequence
    from ...rumbugz.rules.bugs import KIND_NAMES, PLYT, laid_value
    kind, values, _verdict = read_sequence(tokens)
    said = _("A {kind} sequence: {values}").format(kind=_(KIND_NAMES[kind]), values=" ".join(map(str, values)))
    wild = [number for bug, number in map(laid_value, tokens) if bug == PLYT]
    return _("{sequence} (the PLYT stands for {number})").format(sequence=said, number=wild[0]) if wild else said


def examples() -> list[tuple[Board, Placement, object]]:
    """Each example's table, its 7 (laid at the level it lands on) and the rules' verdict on it."""
    board = Board(list(BASE))
    out = []
    for tile, _code in EXAMPLES:
        verdict = board.verdict(tile)
        out.append((board, tile.at(verdict.level), verdict))
    return out


def caption(verdict, tile: Placement) -> str:
    return _(ALLOWED if verdict.ok else NOT_ALLOWED).format(verdict=verdict_text(verdict, tile))


def span(placements) -> tuple[int, int, int, int]:
    """The squares the placements cover: first column, first row, last column, last row."""
    squares = [s for p in placements for s in p.squares()]
    return (min(x for x, _y in squares), min(y for _x, y in squares),
            max(x for x, _y in squares), max(y for _x, y in squares))


class Pictures:
    """Draws tables in the page's units, with the table's tile models."""

    def __init__(self, loader):
        self.loader = loader

    def model(self, piece) -> NodePath:
        return tile_model(self.loader, piece)

    def table(self, parent, left: float, top: float, square: float, placements, squares,
              candidate: tuple[Placement, object] | None = None) -> NodePath:
        """`placements` (levels filled in) on a piece of table showing `squares` (span()) with a margin, its top
        left corner at (left, top), `square` page units a square; `candidate`: a tile in hand and its verdict,
        tinted as the table tints it (green allowed, red refused, the square at fault dark)."""
        x0, y0, x1, y1 = squares
        holder = parent.attachNewNode("rules-picture")
        holder.setPos(left + (MARGIN - x0) * square, 0, top - (MARGIN - y0) * square)
        holder.setScale(square)   # inside: x the column, z minus the row
        cloth = CardMaker("cloth")
        cloth.setFrame(x0 - MARGIN, x1 + 1 + MARGIN, -(y1 + 1 + MARGIN), -(y0 - MARGIN))
        cloth.setColor(*CLOTH, 1)
        holder.attachNewNode(cloth.generate())
        tiles = holder.attachNewNode("tiles")
        tiles.setP(90)            # the table's (x, -row, up) to the page's (x, minus the row, towards the reader)
        tiles.setTwoSided(False)  # the tiles' dark backs face away (the page draws both sides of what it shows)
        laid = sorted([*placements, *([candidate[0]] if candidate else [])], key=lambda p: p.level)
        for p in laid:
            if p.level > 0:
                shadow = self.model(p.piece).copyTo(tiles)
                shadow.setTransform(placement_transform(p, p.level))
                shadow.setPos(shadow.getPos() + Vec3(SHADOW_RUN, -SHADOW_RUN, 0))
                shadow.setColorScale(*SHADOW)
                shadow.setTransparency(TransparencyAttrib.MAlpha)
            node = self.model(p.piece).copyTo(tiles)
            node.setTransform(placement_transform(p, p.level))
            t = level_tint(p.level)
            node.setColorScale(t, t, t, 1)
        if candidate:   # tinted lightly (the tile's own colour and numeral still show), outlined in that colour
            tile, verdict = candidate
            colour, fault, own = LEGAL if verdict.ok else REFUSED, fault_square(verdict), set(tile.squares())
            edge = LineSegs("outline")
            edge.setColor(*colour[:3], 1)
            edge.setThickness(OUTLINE)
            for x, y in own:
                self._square(holder, x, y, AT_FAULT if (x, y) == fault else (*colour[:3], TINT))
                for (dx, dy), (a, b) in (((0, -1), ((0, 0), (1, 0))), ((1, 0), ((1, 0), (1, 1))),
                                         ((0, 1), ((0, 1), (1, 1))), ((-1, 0), ((0, 0), (0, 1)))):
                    if (x + dx, y + dy) not in own:
                        edge.moveTo(x + a[0], 0, -(y + a[1]))
                        edge.drawTo(x + b[0], 0, -(y + b[1]))
            outline = edge.create()
        else:
            outline = None
        grid = LineSegs("grid")   # every square's edges, faintly, as on the table: a tile is made of squares
        grid.setColor(*GRID_INK, GRID_ALPHA)
        for x in range(x0, x1 + 2):
            grid.moveTo(x, 0, -(y0 - MARGIN))
            grid.drawTo(x, 0, -(y1 + 1 + MARGIN))
        for y in range(y0, y1 + 2):
            grid.moveTo(x0 - MARGIN, 0, -y)
            grid.drawTo(x1 + 1 + MARGIN, 0, -y)
        holder.attachNewNode(grid.create())
        if outline:
            holder.attachNewNode(outline)
        holder.setTransparency(TransparencyAttrib.MAlpha)
        return holder

    def sequence(self, parent, left: float, top: float, size: float, tokens, font) -> float:
        """A laid sequence's bugs in a row on a strip of cloth, seen from above, `size` page units a bug step,
        its top left corner at (left, top); a PLYT with the badge of the number it stands for, as on the table.
        Returns its height."""
        from ...rumbugz.rules.bugs import PLYT, laid_value
        from ..rumbugz_table import bug_model
        from ..table import _badge
        holder = parent.attachNewNode("rules-sequence")
        holder.setPos(left + size * (MARGIN + 0.5), 0, top - size * (MARGIN + 0.5))
        holder.setScale(size)
        rows = 1.4 if any(laid_value(t)[0] == PLYT for t in tokens) else 1.0   # room for a badge under it
        cloth = CardMaker("cloth")
        cloth.setFrame(-0.5 - MARGIN, len(tokens) * BUG_STEP - 0.7 + MARGIN, -(rows - 0.5 + MARGIN), 0.5 + MARGIN)
        cloth.setColor(*CLOTH, 1)
        holder.attachNewNode(cloth.generate())
        bugs = holder.attachNewNode("bugs")
        bugs.setP(90)   # the table's (x, away, up) to the page's (x, up, towards the reader), as the tiles
        bugs.setTwoSided(False)
        for i, token in enumerate(tokens):
            bug, number = laid_value(token)
            bug_model(self.loader, bug).copyTo(bugs).setPos(i * BUG_STEP, 0, 0)
            if bug == PLYT:
                badge = _badge(str(number), font)
                badge.reparentTo(holder)
                badge.setPos(i * BUG_STEP, -0.2, -0.62)
                badge.setScale(0.9)
        return size * (rows + 2 * MARGIN)

    @staticmethod
    def _square(holder, x: int, y: int, colour) -> None:
        card = CardMaker("tint")
        card.setFrame(x, x + 1, -(y + 1), -y)
        card.setColor(*colour)
        holder.attachNewNode(card.generate())
