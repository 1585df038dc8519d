"""RumBugz on the table: the laid sequences, the racks, the bag and the discard pile, as one player sees them.

`BugTable.show(view, names)` draws a rules View (nmbr9.rumbugz.rules.View): the sequences in rows in the middle
(a PLYT with a badge saying the number it stands for), the viewer's rack in front of them with its bugs standing
up to face them, every other rack round the table as backs with a count, the bag and the discard pile between. It
draws what it is given and decides nothing. The cloth, the lights and the camera are NMBR 9's.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from panda3d.core import (Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat, GeomVertexWriter,
                          NodePath, Point3, TextNode)

from ..bug_assets import BUG_THICKNESS, bug_model_path
from ..i18n import _, ngettext
from ..paths import FONT, FONT_BOLD
from ..rumbugz.rack import rack_order
from ..rumbugz.rules.bugs import PLYT, laid_value
from .table import Table, _badge, art_model

BUG_STEP = 1.2          # from one bug to the next in a row
SEQUENCE_GAP = 0.9      # between two sequences in a row
ROW_STEP = 1.9          # from one row of sequences to the next
ROW_WIDTH = 18.0        # sequences wrap to a new row beyond this
TABLE_FRONT = 0.5       # the first row's y: the sequences grow away from the viewer
MIDDLE_Y = -2.2         # the bag and the pile
BAG_X, PILE_X = -3.0, 3.0
RACK_Y = -4.9           # the viewer's rack
RACK_STAND = 62.0       # degrees the viewer's bugs lean up towards them
RACK_STEP = 1.1
RACK_LIFT = 0.5         # a standing bug's middle: its tail clear of the cloth
PICKED_UP, PICKED_OUT = 0.45, 0.5   # a picked bug rises out of the rack, towards the player
SEATS_X, SEATS_Y, SEATS_MIDDLE = 11.5, 7.0, 2.0   # the ellipse the other racks stand on
SEATS_CLEAR = 2.2       # from the farthest row of sequences to the rack beyond it
BACK_STEP = 0.75        # bugs in another rack lie closer: only their count matters
BACKS_SHOWN = 12        # backs drawn in another rack at most; the count says the rest
PILE_SHOWN = 3          # the top bugs of the pile, each a little offset
WOOD = (0.45, 0.3, 0.18, 1)
BAG_CLOTH = (0.42, 0.2, 0.48, 1)
LABEL_INK = (0.97, 0.96, 0.92, 1)
LABEL_CARD = (0.06, 0.07, 0.08, 0.72)   # behind a label: light letters read over the cloth and the bugs
LABEL_SIZE = 0.55
LABEL_WRAP = 8.0        # labels wrap (ems) rather than run into each other (a table of six) and widen the frame


@dataclass(frozen=True)
class Placed:
    """A bug drawn: where (table, rack, other, pile), what it is ("7", "P", None for a back), the model shown,
    the number it stands for on the table, and the world point on the middle of its top (for tests, picking);
    `sequence` and `index`: which laid sequence and which of its bugs, or which place in the rack."""
    place: str
    bug: str | None
    model: str
    stands_for: int | None
    top: Point3
    sequence: int | None = None
    index: int | None = None


def bug_model(loader, kind: str) -> NodePath:
    return art_model(loader, bug_model_path(kind))


def sequence_rows(lengths, width: float = ROW_WIDTH) -> list[tuple[float, float]]:
    """Where each sequence's first bug lies (x, y), sequences left to right, wrapping into rows away from the
    viewer; each row centred."""
    rows, row, x = [], [], 0.0
    for i, n in enumerate(lengths):
        span = n * BUG_STEP
        if row and x + span > width:
            rows.append((row, x - SEQUENCE_GAP))
            row, x = [], 0.0
        row.append((i, x))
        x += span + SEQUENCE_GAP
    if row:
        rows.append((row, x - SEQUENCE_GAP))
    out = [(0.0, 0.0)] * len(lengths)
    for r, (members, used) in enumerate(rows):
        for i, x in members:
            out[i] = (x - used / 2 + BUG_STEP / 2, TABLE_FRONT + r * ROW_STEP)
    return out


def seat_places(players: int, me: int, laid_top: float = 0.0) -> dict[int, tuple[float, float, float]]:
    """(x, y, heading) of each other player's rack: round the table clockwise from the viewer, who sits south,
    beyond the rows of sequences (`laid_top`: the y of the farthest); heading turns the rack's front towards the
    middle."""
    out = {}
    reach_y = max(SEATS_Y, laid_top + SEATS_CLEAR - SEATS_MIDDLE)
    for k in range(1, players):
        a = math.radians(-90 - 360 * k / players)
        x, y = SEATS_X * math.cos(a), SEATS_MIDDLE + reach_y * math.sin(a)
        out[(me + k) % players] = (x, y, math.degrees(math.atan2(-x, y - SEATS_MIDDLE)) + 180)
    return out


class BugTable:
    """The RumBugz table on NMBR 9's cloth and lights; `show` redraws it from a view."""

    def __init__(self, base, parent=None):
        self.base = base
        self.table = Table(base, parent)
        self.table.grid.hide()   # no grid: bugs are not laid on squares
        self.root = self.table.root.attachNewNode("rumbugz")
        self.pieces = self.root.attachNewNode("bugs")
        self.labels = self.root.attachNewNode("labels")
        self.placed: list[Placed] = []
        self.label_spots: list[tuple[float, float]] = []
        self.font = base.loader.loadFont(FONT.as_posix())
        self.bold = base.loader.loadFont(FONT_BOLD.as_posix())
        self.bounds = (0.0, 0.0, 1.0, 1.0)   # (min x, min y, max x, max y) of what is drawn, world units
        self.spots: list[tuple[float, float]] = [(0.0, 0.0)]   # the points framed: the bugs, the labels' ends

    def remove(self) -> None:
        self.table.remove()

    # ----- drawing ------------------------------------------------------------------------------------------
    def show(self, view, names: list[str], rack: list[str] | None = None, lifted=(), hands=None) -> None:
        """Draw `view` (a rules View: the viewer's hand, the table, the pile, the sizes of the rest); `rack`: the
        hand in the order the player sorted it (by number if not given), the places `lifted` raised (picked).
        `hands`: every seat's hand, the others' shown face up too (a round over, looked back at: none is secret,
        nor is anyone "you")."""
        for node in (self.pieces, self.labels):
            node.removeNode()
        self.pieces = self.root.attachNewNode("bugs")
        self.labels = self.root.attachNewNode("labels")
        self.placed = []
        self.label_spots = []   # how far the labels reach across: framed with the bugs
        laid_top = self._sequences(view.table)
        self._middle(view.pile, view.bag_size)
        if rack is None:
            rack = rack_order(view.hand(view.me), ())
        self._own_rack(rack, names[view.me], set(lifted), told=hands is None)
        seats = seat_places(view.players, view.me, laid_top)
        for seat, (x, y, heading) in seats.items():
            self._other_rack(x, y, heading, view.hand_sizes[seat], names[seat],
                             None if hands is None else rack_order(Counter(hands[seat]), ()))
        self.pieces.flattenStrong()   # static: one batch per kind of bug
        self.labels.setLightOff(1)
        self.spots = [(p.top.x, p.top.y) for p in self.placed] + [(BAG_X, MIDDLE_Y)] + self.label_spots
        xs, ys = [x for x, _y in self.spots], [y for _x, y in self.spots]
        self.bounds = (min(xs) - 0.5, min(ys) - 0.5, max(xs) + 0.5, max(ys) + 0.5)

    def frame(self, camera, glide: bool = False) -> None:
        """Aim an OrbitCamera at what is drawn: each bug and each label's ends, a square round it (not the box
        round them all: its near corners, empty, are the widest part of the picture and left the bugs small)."""
        x0, y0, x1, y1 = self.bounds   # (the camera frames squares: rows down, a square wide)
        camera.frame((x0, -y1, x1 - 1, -y0 - 1), glide=glide,
                     squares=sorted({(round(x - 0.5, 2), round(-y - 0.5, 2)) for x, y in self.spots}))

    def _bug(self, place: str, bug: str | None, x: float, y: float, z: float = 0.0, heading: float = 0.0,
             stand: float = 0.0, stands_for: int | None = None, sequence: int | None = None,
             index: int | None = None) -> NodePath:
        model = "back" if bug is None else bug
        node = bug_model(self.base.loader, model).copyTo(self.pieces)
        node.setPosHpr(x, y, z, heading, stand, 0)
        top = self.root.getRelativePoint(node, Point3(0, 0, BUG_THICKNESS))
        self.placed.append(Placed(place, bug, model, stands_for, top, sequence, index))
        return node

    def _sequences(self, table) -> float:
        """The laid sequences in rows; returns the farthest row's y."""
        rows = sequence_rows([len(s.bugs) for s in table])
        for s, (laid, (x, y)) in enumerate(zip(table, rows)):
            for i, token in enumerate(laid.bugs):
                bug, number = laid_value(token)
                bx = x + i * BUG_STEP
                self._bug("table", bug, bx, y, stands_for=number, sequence=s, index=i)
                if bug == PLYT:   # the number it stands for, on a badge in front of it
                    badge = _badge(str(number), self.bold)
                    badge.reparentTo(self.labels)
                    badge.setPos(bx, y - 0.62, 0.02)
                    badge.setP(-90)   # lying on the cloth, read from the viewer's side
                    badge.setScale(0.9)
        return max((y for _x, y in rows), default=TABLE_FRONT)

    def _middle(self, pile: list[str], bag: int) -> None:
        self.pieces.attachNewNode(_dome("bag", 0.95, 0.75, BAG_CLOTH)).setPos(BAG_X, MIDDLE_Y, 0)
        self._label(ngettext("Bag: {n} bug", "Bag: {n} bugs", bag).format(n=bag), BAG_X - 1.2, MIDDLE_Y, 0.3,
                    TextNode.ARight, count=bag)
        shown = pile[-PILE_SHOWN:]
        for i, bug in enumerate(shown):   # the top bug last: highest and nearest the viewer, read whole
            back = len(shown) - 1 - i
            self._bug("pile", bug, PILE_X + 0.3 * back, MIDDLE_Y + 0.45 * back, z=0.005 + 0.03 * i,
                      heading=-12 * back)
        text = ngettext("Discard pile: {n} bug", "Discard pile: {n} bugs", len(pile)).format(n=len(pile))
        self._label(text, PILE_X + 1.2, MIDDLE_Y, 0.3, TextNode.ALeft, count=len(pile))

    def _own_rack(self, hand: list[str], name: str, lifted=frozenset(), told: bool = True) -> None:
        width = max(1, len(hand)) * RACK_STEP
        self._rack(RACK_Y + 0.45, width)   # behind the bugs: they lean on it, their numbers clear
        for i, bug in enumerate(hand):
            self._bug("rack", bug, (i - (len(hand) - 1) / 2) * RACK_STEP, RACK_Y - PICKED_OUT * (i in lifted),
                      z=RACK_LIFT + PICKED_UP * (i in lifted), stand=RACK_STAND, index=i)
        self._label(_("{name} (you): {n}").format(name=name, n=len(hand)) if told else
                    ngettext("{name}: {n} bug", "{name}: {n} bugs", len(hand)).format(name=name, n=len(hand)),
                    0.0, RACK_Y - 1.3, 0.3, count=None if told else len(hand))

    def _other_rack(self, x: float, y: float, heading: float, count: int, name: str, bugs=None) -> None:
        """Another player's rack: `count` backs, or their `bugs` face up (a round looked back at)."""
        shown = min(count, BACKS_SHOWN)
        rack = self.pieces.attachNewNode("rack")
        rack.setPosHpr(x, y, 0, heading, 0, 0)
        self._rack(-0.6, max(1, shown) * BACK_STEP, parent=rack)
        for i in range(shown):
            spot = self.root.getRelativePoint(rack, Point3((i - (shown - 1) / 2) * BACK_STEP, 0, 0))
            self._bug("other", None if bugs is None else bugs[i], spot.x, spot.y, heading=heading + 180)
        # behind the rack, on its owner's side: over it, the name covered the backs seen from the side
        spot = self.root.getRelativePoint(rack, Point3(0, -1.6, 0))
        self._label(ngettext("{name}: {n} bug", "{name}: {n} bugs", count).format(name=name, n=count),
                    spot.x, spot.y, 0.3, count=count)

    def _rack(self, y: float, width: float, parent=None) -> None:
        """A low wooden bar the bugs lean on, across x = 0 of its parent."""
        (parent or self.pieces).attachNewNode(_box("rack", width + 0.5, 0.3, 0.28, WOOD)).setY(y)

    def _label(self, text: str, x: float, y: float, z: float, align=TextNode.ACenter, count=None) -> NodePath:
        """Text standing over the table on a dark card, turned to the camera (read from any side) and drawn over
        the bugs (a label's shadow in the depth of the table drew over its letters: dark and blurred). Its reach
        is framed with the bugs. A `count` in it stays with the word after it when the label wraps."""
        node = TextNode("label")
        node.setWordwrap(LABEL_WRAP)
        node.setFont(self.font)
        node.setText(text if count is None else text.replace(f"{count} ", f"{count}\u00a0"))
        node.setAlign(align)
        node.setTextColor(*LABEL_INK)
        node.setCardColor(*LABEL_CARD)
        node.setCardAsMargin(0.35, 0.35, 0.2, 0.15)
        node.setCardDecal(True)
        left, right, bottom, top = node.getCardActual()
        self.label_spots += [(x + left * LABEL_SIZE, y), (x + right * LABEL_SIZE, y)]
        label = self.labels.attachNewNode(node)
        label.setPos(x, y, z)
        label.setScale(LABEL_SIZE)
        label.setBillboardPointEye()
        label.setBin("fixed", 0)
        label.setDepthTest(False)
        label.setDepthWrite(False)
        return label


def _writer(name: str):
    vdata = GeomVertexData(name, GeomVertexFormat.getV3n3c4(), Geom.UHStatic)
    return vdata, (GeomVertexWriter(vdata, c) for c in ("vertex", "normal", "color"))


def _node(name: str, vdata, tris) -> GeomNode:
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode(name)
    node.addGeom(geom)
    return node


def _box(name: str, sx: float, sy: float, sz: float, colour) -> GeomNode:
    """A box centred on x and y, standing on z = 0: its top and four sides."""
    vdata, (pos, nrm, col) = _writer(name)
    tris = GeomTriangles(Geom.UHStatic)
    hx, hy = sx / 2, sy / 2
    faces = [((0, 0, 1), [(-hx, -hy, sz), (hx, -hy, sz), (hx, hy, sz), (-hx, hy, sz)]),
             ((0, -1, 0), [(-hx, -hy, 0), (hx, -hy, 0), (hx, -hy, sz), (-hx, -hy, sz)]),
             ((0, 1, 0), [(hx, hy, 0), (-hx, hy, 0), (-hx, hy, sz), (hx, hy, sz)]),
             ((1, 0, 0), [(hx, -hy, 0), (hx, hy, 0), (hx, hy, sz), (hx, -hy, sz)]),
             ((-1, 0, 0), [(-hx, hy, 0), (-hx, -hy, 0), (-hx, -hy, sz), (-hx, hy, sz)])]
    for i, (normal, corners) in enumerate(faces):
        for c in corners:
            pos.addData3(*c)
            nrm.addData3(*normal)
            col.addData4(*colour)
        tris.addVertices(4 * i, 4 * i + 1, 4 * i + 2)
        tris.addVertices(4 * i, 4 * i + 2, 4 * i + 3)
    return _node(name, vdata, tris)


def _dome(name: str, radius: float, height: float, colour, steps: int = 16, rings: int = 5) -> GeomNode:
    """A squashed half sphere (the bag), gathered a little at the top."""
    vdata, (pos, nrm, col) = _writer(name)
    tris = GeomTriangles(Geom.UHStatic)
    for r in range(rings + 1):
        t = r / rings * math.pi / 2
        ring_r, z = radius * math.cos(t) * (1 - 0.25 * (r / rings) ** 3), height * math.sin(t)
        shade = 0.8 + 0.2 * r / rings
        for s in range(steps):
            a = 2 * math.pi * s / steps
            pos.addData3(ring_r * math.cos(a), ring_r * math.sin(a), z)
            nrm.addData3(math.cos(t) * math.cos(a), math.cos(t) * math.sin(a), math.sin(t))
            col.addData4(*(c * shade for c in colour[:3]), 1)
    for r in range(rings):
        for s in range(steps):
            a, b = r * steps + s, r * steps + (s + 1) % steps
            tris.addVertices(a, b, b + steps)
            tris.addVertices(a, b + steps, a + steps)
    return _node(name, vdata, tris)


class BugPicture:
    """A RumBugz table and NMBR 9's camera on the process's offscreen base, to photograph a view."""

    def __init__(self, base):
        from .camera import OrbitCamera
        self.base = base
        self.table = BugTable(base)
        self.camera = OrbitCamera(base.camera, base.camLens, base.render, around=0.2)

    def shoot(self, view, names: list[str], angle: str = "default"):
        """Draw `view` framed whole from a named angle (render.ANGLES); the frame as a PNMImage."""
        from .render import photograph
        self.table.show(view, names)
        self.frame()
        return photograph(self.base, self.camera, angle, zoom=1.0)   # (its framing has no room to spare)

    def frame(self) -> None:
        self.table.frame(self.camera)
