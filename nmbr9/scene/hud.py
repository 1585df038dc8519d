"""The heads-up display: round, card, supply, live score, verdict, confirm button, legend.

Everything hangs off the aspect2d corner anchors (a2dTopLeft, ...), so it
stays in its corner whatever the window's shape; `fit_window` scales it up
in small windows so text never gets too small to read.
"""
from __future__ import annotations

import itertools
import re

import numpy as np

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton, DirectFrame, DirectLabel
from direct.gui.DirectGuiBase import DirectGuiWidget
from panda3d.core import CardMaker, Point3, SamplerState, TextNode

from ..i18n import _
from ..paths import FONT, FONT_BOLD
from ..rules.tiles import COLOURS

# the text colours of the table and of every screen
INK = (0.95, 0.94, 0.9, 1)
DIM = (0.7, 0.7, 0.68, 1)
ACCENT = (0.98, 0.78, 0.35, 1)
WARN = (1.0, 0.6, 0.5, 1)
PANEL = (0.08, 0.09, 0.1, 0.62)
OK_GREEN = (0.55, 0.95, 0.6, 1)
REFUSED_RED = (1.0, 0.55, 0.5, 1)
MIN_TEXT_PX = 11   # scale the HUD up rather than show text smaller than this
GLYPH_PADDING = 8  # empty texels about each glyph on its font page: even small text's mipmaps keep to their own
SMALL_TEXT = 0.032  # the smallest text (legend, hint), in aspect2d units
VERDICT_ROOM = 0.12   # below the verdict's first line: room for a second one
MIDDLE_DEPTH = 0.5    # how far the verdict's lines and the status' under them reach down
NARROWEST = 0.4       # the verdict's narrowest room in the top row (9 letters a line): narrower, it stands lower
TOP_ROW = -0.1        # the verdict's place beside the round and the score (HUD units below the top)
LEAST_ROOM = 0.35     # the table's room reaches at least this far each way from the middle (of the half-size)
BARE_NUMBER = re.compile(r"\d+\W*(\s|$)")   # a line beginning with a number alone, its word on the line above
LEGEND_BETWEEN = "  \u00b7  "   # between two controls on a line of the controls' help
CELLS = 48            # free_rooms looks between the widgets on a grid of this many cells a side of the window


def take_off(node, children_only: bool = False) -> None:
    """Remove `node` (or only its children) and destroy the widgets under it: DirectGui keeps every widget
    in its guiDict until it is destroyed, so a widget only removed stayed there, with its text and geometry,
    for as long as the game ran (each visit to the menu left its buttons behind)."""
    for item in [node, *node.findAllMatches("**/+PGItem")]:
        widget = DirectGuiWidget.guiDict.get(item.getName().rsplit("-", 1)[-1])
        if widget is not None:   # (a widget destroys its own widgets first: those are gone from guiDict)
            widget.destroy()
    if children_only:
        for child in node.getChildren():
            child.removeNode()
    elif not node.isEmpty():
        node.removeNode()


def measure(font, text: str, scale: float = 1.0, wrap: float | None = None) -> tuple[float, int]:
    """How wide `text` is in `font` at `scale` (in the units `scale` is in) and in how many lines, wrapped at
    `wrap` wide (the same units); before it is shown, to make room for it."""
    if not text:   # Panda3D lays out no empty text: its width and lines were left from whatever it measured last
        return 0.0, 0
    node = TextNode("measure")
    node.setFont(font)
    if wrap:
        node.setWordwrap(wrap / scale)
    node.setText(text)
    return node.getWidth() * scale, node.getNumRows()


def text_rows(label) -> int:
    """The lines a label's text takes: 0 for none (Panda3D's count for an empty text is left from another)."""
    node = label.component("text0").textNode
    return node.getNumRows() if node.getText() else 0


def even_wrap(label, wrap: float) -> None:
    """Wrap a label's text at most `wrap` wide, in as few lines as that takes but as even as they come: a last
    word no longer stands alone on its line ("yet." under "No tile of yours to take back"). A line no longer
    begins with a number torn from its word ("level marker / 0 may") where a little wider keeps them together.
    Its frame fits the lines."""
    node = label.component("text0").textNode
    key = (node.getFont(), node.getText(), wrap)
    if key not in _WRAPS and not node.getText():
        _WRAPS[key] = wrap
    if key not in _WRAPS:   # laying the text out a dozen times took 2 to 5 ms: once for each text and room
        node.setWordwrap(wrap)
        rows = node.getNumRows()
        low, high = 0.0, wrap   # the narrowest wrap giving as many lines, found within 0.1 em
        while rows > 1 and high - low > 0.1:
            node.setWordwrap((low + high) / 2)
            low, high = (low, (low + high) / 2) if node.getNumRows() == rows else ((low + high) / 2, high)

        def numbers_first(text: str) -> int:   # its lines beginning with a bare number ("0 may", not "5\u00d72")
            return sum(bool(BARE_NUMBER.match(line)) for line in text.split("\n"))
        node.setWordwrap(high)
        while high < wrap and numbers_first(node.getWordwrappedText()) > numbers_first(node.getText()):
            high = min(wrap, high + 0.2)   # (as many lines still: no more than at `wrap`)
            node.setWordwrap(high)
        _WRAPS[key] = high if rows > 1 else wrap
    label["text_wordwrap"] = _WRAPS[key]
    label.resetFrameSize()   # (a label made without this wrap had the frame of its unwrapped line)


_WRAPS: dict = {}   # (font, text, widest wrap) -> the wrap even_wrap found


def build_anew(nodes, build) -> None:
    """Build again what stands under `nodes`: the old widgets are taken off the screen at once, but destroyed
    only after `build`, which may read them (the keyboard's highlight kept on the same button)."""
    old = [child for node in nodes for child in node.getChildren()]
    for child in old:
        child.detachNode()
    build()
    for child in old:
        take_off(child)


def tile_rgba(piece) -> tuple:
    return rgba(COLOURS.get(piece, "#b9b2a2") if isinstance(piece, int) else "#b9b2a2")


def rgba(colour: str) -> tuple:
    """"#rrggbb" as Panda3D's colour (0-1 each, opaque)."""
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)) + (1,)


def number_card(parent, font, digit, frame, size: float, colour=None, ink=(1, 1, 1, 1)):
    """A tile as the HUD shows tiles (a bug too, given its `colour`): a card in its colour, its number (or
    letter) centred at `size`."""
    left, right, bottom, top = frame
    cm = CardMaker("number-card")
    cm.setFrame(left, right, bottom, top)
    cm.setColor(*(colour or tile_rgba(digit)))
    card = parent.attachNewNode("number-card")
    card.attachNewNode(cm.generate())   # the number is drawn after (over) its card: a sibling, not a child
    text = TextNode("number-card-digit")
    text.setFont(font)
    text.setText(str(digit))
    text.setAlign(TextNode.ACenter)
    text.setTextColor(*ink)
    text.setShadow(0.05, 0.05)
    text.setShadowColor(0, 0, 0, 0.5)
    label = card.attachNewNode(text.generate())
    label.setScale(size)
    label.setPos((left + right) / 2, 0, (bottom + top) / 2 - size * 0.36)
    return card


def text_scale_for(width: int, height: int) -> float:
    """The HUD's scale for a window: aspect2d spans the shorter side, so text shrinks with it."""
    return max(1.0, MIN_TEXT_PX / (SMALL_TEXT * min(width, height) / 2))


def load_fonts(base):
    font = base.loader.loadFont(FONT.as_posix())
    bold = base.loader.loadFont(FONT_BOLD.as_posix())
    for f in (font, bold):
        if f.getNumPages() == 0:  # the loader shares fonts; set the size before first use only
            f.setPixelsPerUnit(60)
            # small text is drawn much smaller than the glyphs are made: mipmaps keep it clean
            f.setMinfilter(SamplerState.FT_linear_mipmap_linear)
            # but a font page's small mipmaps blend each glyph with its neighbours on the page (faint bars beside
            # small letters): an invisible outline pads every glyph with empty texels there, and the drawn quad
            # shrinks by as much, so glyphs show, and measure, as before (Panda pads so in the scaled path,
            # which its default scale factor of 2 takes)
            f.setOutline(f.getBg(), (GLYPH_PADDING - 0.5) * f.getPointsPerUnit() / f.getPixelsPerUnit(), 0)
            f.setPolyMargin(-GLYPH_PADDING)
    DGG.setDefaultFont(font)
    TextNode.setDefaultFont(font)
    return font, bold


class Hud:
    def __init__(self, base, on_confirm):
        self.base = base
        self._shown: dict = {}
        self.font, self.bold = load_fonts(base)
        self.anchors = {name: getattr(base, name).attachNewNode(f"hud_{name}")
                        for name in ("a2dTopLeft", "a2dTopRight", "a2dBottomLeft", "a2dBottomRight",
                                     "a2dBottomCenter", "a2dTopCenter")}
        tl, tr = self.anchors["a2dTopLeft"], self.anchors["a2dTopRight"]
        bl, br = self.anchors["a2dBottomLeft"], self.anchors["a2dBottomRight"]
        self.round = self._label(tl, (0.05, -0.085), 0.06, TextNode.ALeft, bold=True)
        self.tournament_game = None   # a tournament's game and its number of games, said with the round (show_round_text)
        self.card_caption = self._label(tl, (0.05, -0.15), 0.04, TextNode.ALeft)
        self.card = DirectFrame(parent=tl, frameSize=(0, 0.2, -0.27, 0), pos=(0.05, 0, -0.18),
                                relief=DGG.FLAT, text="", text_font=self.bold, text_scale=0.2,
                                text_pos=(0.1, -0.205), text_fg=(1, 1, 1, 1), text_shadow=(0, 0, 0, 0.45))
        self.supply_caption = self._label(tl, (0.05, -0.525), 0.04, TextNode.ALeft)
        self.supply = tl.attachNewNode("supply")
        self.supply.setPos(0.05, 0, -0.56)
        self.supply_text = ""
        self.in_hand = False   # a tile in hand: the score box keeps room for its lines wherever it goes
        self.score = DirectButton(parent=tr, frameColor=PANEL, relief=DGG.FLAT, command=on_confirm,
                                  text="", text_align=TextNode.ARight, text_scale=0.045, text_fg=INK,
                                  pad=(0.03, 0.02), pos=(-0.05, 0, -0.1), pressEffect=0)
        self.verdict = self._label(self.anchors["a2dTopCenter"], (0, TOP_ROW), 0.045, TextNode.ACenter, wrap=26)
        self.verdict["frameColor"] = PANEL
        self.verdict["pad"] = (0.5, 0.3)
        self.verdict_wrap = 26   # how wide (ems) the verdict's lines may be: its room (arrange)
        self.confirm = DirectButton(parent=br, text="", text_font=self.bold, text_scale=0.055,
                                    frameColor=(0.2, 0.55, 0.3, 1), relief=DGG.FLAT, pad=(0.04, 0.025),
                                    text_fg=(1, 1, 1, 1), pos=(-0.3, 0, 0.1), command=on_confirm)
        self.legend = self._label(bl, (0.05, 0.3), SMALL_TEXT, TextNode.ALeft)
        self.legend["frameColor"] = PANEL
        self.legend["pad"] = (0.5, 0.4)
        self.hint = self._label(bl, (0.05, 0.05), SMALL_TEXT, TextNode.ALeft)
        self.hint.hide()
        self.folded = False    # the controls' help folded into the hint (by the game, or H)
        self.asked = False     # shown with H: then even where it reaches the other parts
        self.cramped = False   # it would reach the other parts (a small window): folded unless asked
        self.fit_window()

    def _label(self, parent, pos, scale, align, bold=False, wrap=None):
        return DirectLabel(parent=parent, pos=(pos[0], 0, pos[1]), scale=scale, text="", text_align=align,
                           text_fg=INK, text_font=self.bold if bold else self.font, frameColor=(0, 0, 0, 0),
                           text_shadow=(0, 0, 0, 0.6), text_wordwrap=wrap)

    # ----- contents -----------------------------------------------------------
    def _changed(self, key, *value) -> bool:
        """Rebuilding text and frames is slow in software GL: skip it when nothing changed."""
        if self._shown.get(key) == value:
            return False
        self._shown[key] = value
        return True

    def relabel(self) -> None:
        """In a new language: the controls' help now, the rest at its next show_* (which skips nothing)."""
        self._shown.clear()
        self.show_legend()
        self._show_legend()

    def show_round(self, round_: int, rounds: int, card, supply: list) -> None:
        if not self._changed("round", round_, rounds, card, tuple(supply)):
            return
        self.show_round_text(_("Round {round} of {rounds}").format(round=round_, rounds=rounds))
        self.card_caption["text"] = _("This round's card")
        for node in (self.card, self.card_caption):
            node.show() if card is not None else node.hide()
        # "Level to Level" before a choice shows no single card, but the cards to come still need their caption
        self.supply_caption.show() if card is not None or supply else self.supply_caption.hide()
        self.card["frameColor"] = tile_rgba(card) if card is not None else PANEL
        self.card["text"] = "" if card is None else str(card)
        self.supply_caption["text"] = _("Still to come:") if supply else _("This is the last card.")
        for label in (self.round, self.card_caption, self.supply_caption):
            label.resetFrameSize()   # their frames are how far the top-left column reaches (Hud.middle)
        take_off(self.supply, children_only=True)
        chips = self.supply.attachNewNode("chips")   # flattened alone: flattening supply would bake its place away
        self.supply_text = " ".join(map(str, supply))
        # plain cards and text flattened into a few batches: 19 DirectFrames cost 57 draw calls
        for i, n in enumerate(supply):
            x, z = (i % 10) * 0.064, -(i // 10) * 0.08
            number_card(chips, self.bold, n, (x, x + 0.056, z - 0.07, z), 0.05)
        chips.flattenStrong()

    def show_round_text(self, text: str) -> None:
        """The round, and in a tournament which game it is (short: the line keeps clear of the score box
        in a small window)."""
        if self.tournament_game is not None:
            game, games = self.tournament_game
            text = _("Game {game} of {games} \u00b7 {round}").format(game=game, games=games, round=text)
        self.round["text"] = text
        self.round.resetFrameSize()

    def show_score(self, by_level: dict, total: int, gain: int | None, blank: bool = False,
                   in_hand: bool | None = None) -> None:
        """The score by level; `gain`: what the tile in hand would add where it is (None: nothing to confirm).
        `in_hand` (by default: a gain to confirm): a tile in hand, maybe where it can't go. While one is, the
        box keeps the room of its lines ("+N here", "(click to confirm)") wherever it goes, so that the names
        under the box stay put. `blank` (another board is shown): the box as it was, without those lines."""
        if in_hand is None:
            in_hand = gain is not None
        if not self._changed("score", tuple(by_level.items()), total, gain, blank, in_hand):
            return
        if not blank:
            self.in_hand = in_hand
        lines = [_("Score {score}").format(score=total)]
        for level, points in sorted(by_level.items()):
            if level > 0:
                lines.append(_("Level {level}: {numbers} \u00d7 {level} = {points}").format(
                    level=level, numbers=points // level, points=points))
        room = lines + [_("+{points} here").format(points=99), _("(click to confirm)")] if self.in_hand else lines
        if gain and not blank:
            lines.append(_("+{points} here").format(points=gain))
        if gain is not None and not blank:
            lines.append(_("(click to confirm)"))
        self.score["frameSize"] = None   # measured from the text
        self.score["text"] = "\n".join(room)
        self.score.resetFrameSize()
        if room is not lines:   # the frame as measured with the tile's lines, the text as it is
            self.score["frameSize"] = self.score.guiItem.getFrame()
            self.score["text"] = "\n".join(lines)

    def show_verdict(self, ok: bool, text: str) -> None:
        if not self._changed("verdict", ok, text):
            return
        self.verdict["text"] = text
        even_wrap(self.verdict, self.verdict_wrap)
        self.verdict["text_fg"] = OK_GREEN if ok else REFUSED_RED
        self.verdict.show() if text else self.verdict.hide()
        if not self._changed("confirm", ok, _("Confirm (Enter)")):
            return   # (measured again at each square the tile in hand moved to: a third of the frame's own work)
        self.confirm["text"] = _("Confirm (Enter)")
        self.confirm["state"] = DGG.NORMAL if ok else DGG.DISABLED
        self.confirm["frameColor"] = (0.2, 0.55, 0.3, 1) if ok else (0.3, 0.3, 0.3, 0.8)
        self.confirm["text_fg"] = (1, 1, 1, 1) if ok else (0.65, 0.65, 0.65, 1)
        self.confirm.resetFrameSize()
        self.confirm.setX(-0.05 - self.confirm.guiItem.getFrame()[1])  # keep longer translations on screen

    def show_legend(self, width: float | None = None) -> None:
        """The controls' help, a line of controls a row; `width` (ems): its controls packed into rows that wide
        instead (beside the buttons at the bottom right in a small window)."""
        lines = [
            _("Mouse: the tile follows; click to put it down or pick it up"),
            # the wheel turns the tile only while it follows the pointer (PlayScreen.wheel): put down, it zooms
            _("Right click, Q / E: turn the tile  \u00b7  Wheel: turns it while it follows, else zooms"),
            _("Arrow keys: move one square  \u00b7  Enter or Space: confirm"),
            _("Right drag, A D W S: turn and tilt the view"),
            _("Middle drag, Shift+arrows: move the view  \u00b7  L: each tile's level"),
            _("Shift+wheel, + / -, Page Up / Down: zoom  \u00b7  Home or double click: reset view"),
            _("H: hide or show this help  \u00b7  F12: screenshot"),
        ]
        if width is not None:
            fits = self.legend.component("text0").textNode.calcWidth
            rows = []
            for control in (part for line in lines for part in line.split(LEGEND_BETWEEN)):
                if rows and fits(rows[-1] + LEGEND_BETWEEN + control) <= width:
                    rows[-1] += LEGEND_BETWEEN + control
                else:
                    rows.append(control)
            lines = rows
        self.legend["text"] = "\n".join(lines)
        self.legend["text_wordwrap"] = width   # (a control too long for a row of its own)
        self.legend.resetFrameSize()

    def toggle_legend(self) -> None:
        self.collapse_legend(not self.legend.isHidden())

    def collapse_legend(self, collapsed: bool = True) -> None:
        """Fold the controls into a one-line hint (after the first tile: it covers the table); unfolded
        only by the player (H)."""
        self.folded, self.asked = collapsed, not collapsed
        self._show_legend()

    def legend_for(self, laid: bool) -> None:
        """The controls' help at the start of a human's turn: folded once they have laid a tile, else shown
        (where it has room) as at the start of a game."""
        self.folded, self.asked = laid, False
        self._show_legend()

    def _show_legend(self) -> None:
        shown = not self.folded and (self.asked or not self.cramped)
        self.hint["text"] = _("H: show the controls")
        self.legend.show() if shown else self.legend.hide()
        self.hint.hide() if shown else self.hint.show()

    def _reaches_the_rest(self) -> bool:
        """Whether the controls' help would reach the HUD's other parts at the top (in a small window)."""
        a2d, gap = self.base.aspect2d, 0.02
        left, right, bottom, top = self.legend.guiItem.getFrame()
        low, high = (a2d.getRelativePoint(self.legend, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        boxes = []
        for corner in ("a2dTopLeft", "a2dTopCenter", "a2dTopRight"):
            x0, x1, z0, z1 = self.extent(corner)
            if (x0, x1, z0, z1) != (0, 0, 0, 0):
                ends = [a2d.getRelativePoint(self.anchors[corner], Point3(x, 0, z)) for x, z in ((x0, z0), (x1, z1))]
                boxes.append((ends[0], ends[1]))
        chips = self.supply.getTightBounds(a2d)   # the cards still to come: drawn cards, not widgets
        if chips and not self.supply.isHidden():
            boxes.append(chips)
        return any(lo.x < high.x + gap and low.x < hi.x + gap and lo.z < high.z + gap for lo, hi in boxes)

    # ----- room in the window ---------------------------------------------------
    def room(self) -> tuple[float, float]:
        """The window's width and height in HUD units (the anchors' scale)."""
        k = self.anchors["a2dTopLeft"].getScale().x
        return 2 * self.base.a2dRight / k, 2 * self.base.a2dTop / k

    def buttons_at_right(self) -> tuple[float, float]:
        """The width and the top (HUD units, from the bottom right corner) of all that stands at the bottom
        right: Confirm, and the session's Hint and Menu above it."""
        left, _right, _bottom, top = self.extent("a2dBottomRight")
        return -left, top

    def extent(self, corner: str, above: float = -1e9, below: float = 1e9) -> tuple[float, float, float, float]:
        """Left, right, bottom, top (HUD units from that corner) of the widgets shown at a corner of the window
        (the HUD's, the session's, the ++ panels'); `above`, `below`: only those reaching above (below) that
        height."""
        anchor = self.anchors[corner]
        xs, zs = [0.0], [0.0]
        for item in getattr(self.base, corner).findAllMatches("**/+PGItem"):   # widgets: their frames
            if not any(n.isHidden() for n in (item, *item.getAncestors())):
                left, right, bottom, top = item.node().getFrame()
                corners = [anchor.getRelativePoint(item, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top))]
                if max(p.z for p in corners) > above and min(p.z for p in corners) < below:
                    xs += [p.x for p in corners]
                    zs += [p.z for p in corners]
        if corner == "a2dTopLeft" and not self.supply.isHidden() and self.supply.getTightBounds(anchor):
            low, high = self.supply.getTightBounds(anchor)   # the cards still to come: no widgets
            if high.z > above and low.z < below:
                xs += [low.x, high.x]
                zs += [low.z, high.z]
        return min(xs), max(xs), min(zs), max(zs)

    def free_rooms(self, clear_of=()) -> list[tuple[float, float, float, float]]:
        """The parts of the window the table may be framed in, clear of the widgets (normalised coordinates:
        left, right, bottom, top): under the verdict, above the bottom middle, and beside or else below (above)
        what stands at each corner; and above, below or beside each box of `clear_of` (a question in the
        middle). In a small window, where none of these reaches LEAST_ROOM each way, the parts between the
        widgets themselves; where there are none either, they are stretched to it: the table better under the
        widgets' edges than not seen."""
        w, h = self.room()
        tl, tr, bl, br = (self.extent(c) for c in ("a2dTopLeft", "a2dTopRight", "a2dBottomLeft", "a2dBottomRight"))
        under = self.middle()[0] - VERDICT_ROOM   # (HUD units below the top)
        above = self.extent("a2dBottomCenter")[3]
        rooms = set()
        for tl_beside, tr_beside, bl_beside, br_beside in itertools.product((True, False), repeat=4):
            # HUD units in from each edge of the window
            top = -min(under, 0 if tl_beside else tl[2], 0 if tr_beside else tr[2])
            bottom = max(above, 0 if bl_beside else bl[3], 0 if br_beside else br[3])
            # beside a corner, of what stands there only what reaches the room's height (Confirm stands below
            # the room beside "Level to Level"'s piles above it: it kept the room that much narrower)
            at_top, at_bottom = {"above": bottom - h, "below": -top}, {"above": bottom, "below": h - top}
            left = max(self.extent("a2dTopLeft", **at_top)[1] if tl_beside else 0,
                       self.extent("a2dBottomLeft", **at_bottom)[1] if bl_beside else 0)
            right = -min(self.extent("a2dTopRight", **at_top)[0] if tr_beside else 0,
                         self.extent("a2dBottomRight", **at_bottom)[0] if br_beside else 0)
            rooms.add((-1 + 2 * left / w, 1 - 2 * right / w, -1 + 2 * bottom / h, 1 - 2 * top / h))
        for box in clear_of:
            rooms = {part for room in rooms for part in (
                [room] if not (room[0] < box[1] and box[0] < room[1] and room[2] < box[3] and box[2] < room[3])
                else [(room[0], room[1], room[2], box[2]), (room[0], room[1], box[3], room[3]),
                      (room[0], box[0], room[2], room[3]), (box[1], room[1], room[2], room[3])])
                     if part[1] > part[0] and part[3] > part[2]} or rooms   # (it covers them all: no help)
        if not any(min(r[1] - r[0], r[3] - r[2]) >= 2 * LEAST_ROOM for r in rooms):
            rooms = self._between_widgets() or {
                (min(left, -LEAST_ROOM), max(right, LEAST_ROOM), min(bottom, -LEAST_ROOM), max(top, LEAST_ROOM))
                for left, right, bottom, top in rooms}
        rooms = {r for r in rooms if min(r[1] - r[0], r[3] - r[2]) > 0.1}   # not a sliver between two widgets
        return sorted(r for r in rooms if not any(o != r and o[0] <= r[0] and o[1] >= r[1] and o[2] <= r[2]
                                                  and o[3] >= r[3] for o in rooms))   # none inside another

    def _between_widgets(self, best: int = 6) -> set[tuple[float, float, float, float]]:
        """The biggest parts of the window clear of every widget shown and the cards still to come (normalised
        coordinates), at least a fifth of the window each way; the `best` few, by their shorter side. Where the
        corners' panels, taken whole, leave no room (a small window, NMBR 9 ++ panels) there is often some
        between their widgets: beside a caption, above the cards still to come."""
        r2d, blocked = self.base.render2d, np.zeros((CELLS, CELLS), bool)   # [row from the top, column]
        boxes = [(item, item.node().getFrame()) for item in self.base.aspect2d.findAllMatches("**/+PGItem")
                 if not any(n.isHidden() for n in (item, *item.getAncestors()))]
        chips = self.supply.getTightBounds(self.anchors["a2dTopLeft"])
        if chips and not self.supply.isHidden():
            boxes.append((self.anchors["a2dTopLeft"], (chips[0].x, chips[1].x, chips[0].z, chips[1].z)))
        for node, (left, right, bottom, top) in boxes:
            widget = DirectGuiWidget.guiDict.get(node.getName().rsplit("-", 1)[-1])
            if widget is not None:   # an invisible frame with no words (a slot's highlight) covers nothing
                colour = widget["frameColor"]
                colour = colour[0] if isinstance(colour[0], tuple) else colour
                if colour[3] == 0 and not (widget.hascomponent("text0") and widget["text"]):
                    continue
            if right <= left or top <= bottom:
                continue
            a, b = (r2d.getRelativePoint(node, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
            c0, c1 = (int(np.clip(np.floor((v + 1) / 2 * CELLS), 0, CELLS)) for v in (a.x, b.x))
            r0, r1 = (int(np.clip(np.floor((1 - v) / 2 * CELLS), 0, CELLS)) for v in (b.z, a.z))
            blocked[r0:r1 + 1, c0:c1 + 1] = True
        least = CELLS // 5
        found, free = set(), np.zeros(CELLS, int)   # free: the free cells above each column, down to this row
        for row in range(CELLS):
            free = np.where(blocked[row], 0, free + 1)
            stack = []   # the largest rectangle under each run of columns: the classic histogram walk
            for col in range(CELLS + 1):
                height = int(free[col]) if col < CELLS else 0
                start = col
                while stack and stack[-1][1] >= height:
                    start, tall = stack.pop()
                    if tall >= least and col - start >= least:
                        found.add((-1 + 2 * start / CELLS, -1 + 2 * col / CELLS,
                                   1 - 2 * (row + 1) / CELLS, 1 - 2 * (row + 1 - tall) / CELLS))
                stack.append((start, height))
        w, h = self.room()

        def side(r):   # its shorter side, in HUD units: how big the table can show in it
            return min((r[1] - r[0]) * w, (r[3] - r[2]) * h)
        found = {r for r in found if not any(o != r and o[0] <= r[0] and o[1] >= r[1] and o[2] <= r[2]
                                             and o[3] >= r[3] for o in found)}
        return set(sorted(found, key=side, reverse=True)[:best])

    def middle(self) -> tuple[float, float, float]:
        """Where the verdict and the status stand (HUD units below the top), how wide they may be and where
        their middle is (HUD units right of the window's): between the round and card (left) and the score
        (right); in a narrow window under all that."""
        width = self.room()[0]
        beside = max(self.extent("a2dTopLeft", -0.3)[1], -self.extent("a2dTopRight", -0.3)[0])   # the top row
        if width - 2 * beside - 0.1 >= 0.6:   # (13 letters a line)
            return TOP_ROW, width - 2 * beside - 0.1, 0.0
        # under the top row, between the cards still to come and the scores: under all the top left, it stood
        # under the key help ("2 of 3" at 1024x768), and the table had only a strip above it
        top = min(self.extent("a2dTopLeft", -0.3)[2], self.extent("a2dTopRight", -0.3)[2]) - 0.08
        band = (top - 0.08 - VERDICT_ROOM, top + 0.08)   # its lines (two), with their panel
        beside = max(self.extent("a2dTopLeft", *band)[1], -self.extent("a2dTopRight", *band)[0])
        if width - 2 * beside - 0.1 >= 0.6:
            return top, width - 2 * beside - 0.1, 0.0
        # under it all (a small window): beside what stands that low at the bottom corners (the Hint and Menu
        # buttons at the right: the verdict's and the status' lines ran under them at 640x480)
        top = min(self.extent("a2dTopLeft")[2], self.extent("a2dTopRight")[2]) - 0.08
        low = self.room()[1] + top - MIDDLE_DEPTH   # (HUD units above the bottom)
        left, right = self.extent("a2dBottomLeft", above=low)[1], -self.extent("a2dBottomRight", above=low)[0]
        reached = self.extent("a2dBottomCenter")[3] > self.room()[1] + top - 0.08
        under = (top, width - left - right - 0.1, (left - right) / 2)
        if under[1] >= 0.6 and not reached:
            return under
        # what stands in the bottom middle reaches up there ("Level to Level"'s piles at 640x480: the verdict lay
        # over them), or the bottom corners leave it no room (their piles in a column above Hint and Menu at
        # 640x480: it stood under all the top left, across the window): in the top row after all, between the
        # round's card and the score box; there too, however narrow, while the controls' help asked for (H) fills
        # the room under it all (there it covered the verdict)
        left, right = self.extent("a2dTopLeft", -0.3)[1], -self.extent("a2dTopRight", -0.3)[0]
        row = width - left - right - 0.1
        if row >= 0.6 or (reached or not self.legend.isHidden()) and row >= NARROWEST:
            return TOP_ROW, row, (left - right) / 2
        # no room in the top row at all ("2 of 3" at 640x480: its card slots and reject markers reach the score
        # box; in German a refusal's note in the bottom middle reached up): the verdict, unwrapped there, ran
        # over the score box and off the window's edge
        return under if under[1] >= 0.6 else (top, width - 0.1, 0.0)

    def bottom_left_z(self, width: float) -> float:
        """How high something `width` wide stands at the bottom left (HUD units): at the bottom when it
        fits beside the buttons at the bottom right, else above them (a narrow window)."""
        right, top = self.buttons_at_right()
        return 0.0 if width + right + 0.1 <= self.room()[0] else top + 0.04

    def arrange(self) -> None:
        """The controls' help (bottom left) beside the buttons at the bottom right, or above them; the
        verdict in the room left in the middle at the top."""
        self.show_legend()
        left, right, bottom, _top = self.legend.guiItem.getFrame()
        lift = self.bottom_left_z(0.05 + (right - left) * SMALL_TEXT)
        room = (self.room()[0] - self.buttons_at_right()[0] - 0.15) / SMALL_TEXT - 2 * self.legend["pad"][0]
        if lift and room > 10:
            # above those buttons it covered the cards still to come and the verdict (640x480): its controls
            # packed into rows as wide as the room beside them, its bottom edge where it was
            self.show_legend(room)
            self.legend.setZ(0.3 + (bottom - self.legend.guiItem.getFrame()[2]) * SMALL_TEXT)
        else:
            self.legend.setZ(0.3 + lift)
        self.cramped = self._reaches_the_rest()
        self._show_legend()
        top, width, x = self.middle()
        self.verdict.setPos(x, 0, top)
        self.verdict_wrap = width / 0.045 - 1
        even_wrap(self.verdict, self.verdict_wrap)

    def verdict_bottom(self) -> float:
        """The verdict's lowest edge (HUD units below the top; its top when there is none)."""
        if self.verdict.isHidden() or not self.verdict["text"]:
            return self.verdict.getZ()
        return self.verdict.getZ() + self.verdict.guiItem.getFrame()[2] * self.verdict.getScale().z

    def fit_window(self, size=None) -> float:
        """Keep the smallest text at least MIN_TEXT_PX high in small windows; returns the scale."""
        win = self.base.win
        if size is None:
            size = (win.getXSize(), win.getYSize()) if win and win.hasSize() else (1280, 720)
        k = text_scale_for(*size)
        for node in self.anchors.values():
            node.setScale(k)
        return k

    def destroy(self) -> None:
        for node in self.anchors.values():
            take_off(node)
