"""The NMBR 9 ++ parts of the heads-up display, beside the classic Hud.

- Breaking Rules (bottom left): every power in play with its icon, a short
  text and whether this player may still use it; one click arms it (or, for
  Relocate, does it); the markers left as filled/empty dots.
- Actions (bottom middle): the gap fillers still in hand, the reserved tile
  (its card, in its colour, on its button; its warning above), End turn.
- "2 of 3" (top left, beside the card): the round's three card slots (built,
  rejected, turned, face down) and every player's reject marker; the
  build-or-reject question in the middle of the screen before placing.
- "Level to Level" (bottom middle): level markers 0..4 as a row of piles,
  the card shown under each active one; the choice of tile in the middle.

It only draws what `Game.options()` and the game's state say, and calls the
handlers it is given; the rules decide everything. `lines` keeps every text
shown, so tests can read what a player would.
"""
from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton, DirectFrame, DirectLabel
from panda3d.core import Point3, TextNode

from ..i18n import _, ngettext
from ..i18n.terms import name as term
from ..match import seat_name
from ..rules.game import (BRIDGE, CHOOSE, DECIDE, EXTRAS, FLIP, LEVEL_MARKERS, LEVEL_TO_LEVEL, LONER, MARKERS,
                          PLACE_TILE, RELOCATE, RESERVE, SINGLE_SUPPORT, TWO_OF_THREE)
from .hud import ACCENT, DIM, INK, PANEL, TOP_ROW, WARN, even_wrap, measure, number_card, take_off, tile_rgba

ARMED = (0.62, 0.42, 0.12, 0.95)       # a power chosen for the next tile
BUTTON = (0.2, 0.26, 0.3, 0.92)
HOT = (0.32, 0.46, 0.4, 1)
OFF = (0.14, 0.15, 0.16, 0.7)
NEUTRAL = (0.73, 0.7, 0.64, 1)          # start tiles and gap fillers: no number, no colour

ICONS = {RELOCATE: "\u21c4", FLIP: "\u25e7", SINGLE_SUPPORT: "\u22a5", BRIDGE: "\u2229", LONER: "\u25ce",
         RESERVE: "\u25a3"}
MARKER_ON, MARKER_OFF = "\u25cf", "\u25cb"
ROW = 0.055   # the baseline of the actions' row: two lines of it stay under the powers panel
PILES_TOP = 0.67   # "Level to Level": the piles' panel top above the bottom edge (with the supply line)
QUESTION_WIDTH = 0.56   # a question's button


def power_name(power: str) -> str:
    return term(power)   # the same name as in setup and the rules page


def power_text(power: str) -> str:
    """The power's rule in a few words (the full rule is in the rules screen)."""
    return {RELOCATE: _("move a free tile of yours, to its level or lower"),
            FLIP: _("black side up, mirrored; scores 0"),
            SINGLE_SUPPORT: _("may rest on just one tile"),
            BRIDGE: _("may span a closed hole, covering it whole"),
            LONER: _("level 1 up: need not touch its level"),
            RESERVE: _("set this tile aside, build it later")}[power]


def filler_name(piece: str) -> str:
    return _("Gap filler, 1 square") if piece == "F1" else _("Gap filler, 2 squares")


class PlusHud:
    """Draws the NMBR 9 ++ panels; `handlers` has power, filler, reserved, end_turn, decide, choose."""

    def __init__(self, base, hud, handlers: dict):
        self.base, self.hud, self.handlers = base, hud, handlers
        self.font, self.bold = hud.font, hud.bold
        self.anchors = {name: getattr(base, name).attachNewNode(f"plus_{name}")
                        for name in ("a2dBottomLeft", "a2dBottomCenter", "a2dBottomRight", "a2dTopLeft", "aspect2d")}
        self.key = None
        self.piles_lift = 0.0          # "Level to Level": the piles raised above the buttons at the right
        self.piles_height = PILES_TOP  # their panel's top above the bottom edge (without the lift)
        self.folded_choice = False     # the shown tiles are the buttons of the choice (no room for the question's)
        self.lines: list[str] = []     # every text on screen now (tests read it)
        self.buttons: dict = {}        # name -> DirectButton (tests press them)
        self.question = None           # the panel of a question with buttons (build or reject; which tile)
        self.piles_frame = None        # "Level to Level": the piles' panel
        self.powers_frame = None       # Breaking Rules: the powers' panel
        self.notes: list = []          # the notes and warnings in the bottom middle (their labels)
        self.hanging: list = []        # those of them hanging at the top (see _hang)
        self.actions_span = None       # the row of actions' left and right (HUD units right of the middle)
        self.piles_column = False      # "Level to Level"'s piles in a column at the right (see _piles_column)
        self.held, self.below = None, 0.0   # the piece in hand, and how low the notes hanging at the top start
        self.fit_window()

    def compact(self) -> bool:
        """A small window (the HUD scaled up): shorter panels, so the card and supply stay in view;
        a narrow one (4:3): the full panel would reach the middle, under the notes beside it."""
        return self.hud.anchors["a2dTopLeft"].getScale().x > 1.3 or self.base.getAspectRatio() < 1.6

    def fit_window(self) -> None:
        k = self.hud.anchors["a2dTopLeft"].getScale().x
        for node in self.anchors.values():
            node.setScale(k)

    def destroy(self) -> None:
        for node in self.anchors.values():
            take_off(node)

    def shown(self, shown: bool) -> None:
        for node in self.anchors.values():
            node.show() if shown else node.hide()

    # ----- drawing -------------------------------------------------------------------
    def show(self, game, seat: int, o, state: dict) -> None:
        """Draw for `seat` with options `o`; `state` is the PlayScreen's: armed powers, mode, message, notes."""
        key = (o, tuple(sorted(state["powers"])), state["mode"], state["piece"], state["message"],
               state.get("note"), game.step, tuple(len(p) for p in game.piles),
               tuple(tuple(st.decisions) for st in game.players),
               self._beside_slots_room(game) if game.variant == TWO_OF_THREE else None,
               # the question keeps under the top left, which changes as the key help shows (Continue)
               self.hud.extent("a2dTopLeft") if o.step in (DECIDE, CHOOSE) else None,
               # the notes above "Level to Level"'s piles keep beside the scores, laid out after the piles
               self.hud.extent("a2dTopRight") if game.variant == LEVEL_TO_LEVEL else None,
               # the notes in the bottom middle keep off the verdict and the status in the middle (a hint's)
               tuple(round(z, 3) for z in self._reach(self.base.a2dTopCenter)) if state["message"] or state.get("note") or o.warnings
               or o.step == EXTRAS or self.folded_choice else None)
        verdict = bool(self.hud.verdict["text"]) and not self.hud.verdict.isHidden()
        # "Level to Level"'s notes may hang under the verdict and the status (_hang): they follow them down as a
        # longer refusal grows them, but not up again while the same piece is in hand and the verdict keeps its
        # place and room (verdict_wrap: even_wrap narrows each text's own wrap, which let them up at every new
        # text), else the board framed under them would glide at each square the tile goes to (and the square
        # under the pointer with it)
        below = round(self._lowest(self.base.a2dTopCenter), 3) if game.variant == LEVEL_TO_LEVEL else 0.0
        held = (game.step, o.step, state["piece"], state["mode"], self.hud.room(), verdict,
                round(self.hud.verdict.getZ(), 3), self.hud.verdict_wrap)
        if held == self.held:
            below = min(below, self.below)
        self.held, self.below = held, below
        if (key, verdict, below) == self.key:
            return
        self.key = key, verdict, below
        for node in self.anchors.values():
            take_off(node, children_only=True)
        self.lines, self.buttons = [], {}
        self.powers_frame = self.piles_frame = None
        self.notes, self.hanging = [], []
        self.question = None
        self.piles_column = False
        self.game = game
        if o.powers:
            self._powers(o, state)
        self._actions(o, state)
        if game.variant == TWO_OF_THREE:
            self._two_of_three(game, o)
        question = self._question(game, o, state)
        at = self._piles(game, o, question) if game.variant == LEVEL_TO_LEVEL else None
        warnings = [(w.text(_), WARN) for w in o.warnings]
        if self.piles_column:
            # the piles in a column at the right: the notes hang at the top (under the verdict, with a piece in
            # hand), and the board has the middle (above the piles they left it a strip at the top; with a piece
            # in hand they stood over it)
            self._hang(o, [(text, ACCENT if i == 0 else INK) for i, text in enumerate(question[0])] + warnings,
                       below)
            return
        self.notes_top = self._stack(o, warnings, self.notes_bottom(o))
        self._prompt(game, o, question, at)
        self._lift_notes()

    def _lift_notes(self) -> None:
        """The notes in the bottom middle above the verdict where, stacked up from the actions, they would reach
        it or the status under it ("2 of 3" at 640x480: "Reserve is off: ..." covered the second line of the hint
        the player asked for): the verdict's and the status' words stay whole, the note reads before them.
        Hanging in the middle, as wide as the room beside the cards still to come and the scores there."""
        if not self.notes or self.hud.middle()[0] == TOP_ROW:   # (at the top: the notes are far below)
            return
        height, (low, high) = self.hud.room()[1], self._reach(self.base.a2dTopCenter)
        bc, mid, scale, gap = self.anchors["a2dBottomCenter"], self.anchors["aspect2d"], 0.032, 0.03
        edges = [bc.getRelativePoint(label, Point3(0, 0, z)).z for label in self.notes
                 for z in tuple(label.guiItem.getFrame())[2:]]
        if max(edges) + gap <= height + low:
            return
        bottom = height + high + gap   # (HUD units above the bottom, as _stack's)
        for label in self.notes:
            # aspect2d's, not the bottom middle's: what stands there as high as the verdict sends it to the top
            # row (hud.middle), and the table is framed clear of what hangs (fit_table)
            label.reparentTo(mid)
            rows = 1
            for _try in range(3):   # its room may narrow as it grows a line
                left, right = self.middle_room(top=bottom + rows * scale * 1.2 + 0.02 - height,
                                               bottom=bottom - height)
                label.setX((left + right) / 2)
                even_wrap(label, (right - left) / scale - 0.6)   # the panel's pad: 0.3 letters a side
                got, rows = rows, label.component("text0").textNode.getNumRows()
                if rows <= got:
                    break
            label.setZ(bottom + (rows - 1) * scale * 1.2 - height / 2)   # (aspect2d's middle: half the height)
            self.hanging.append(label)
            bottom += rows * scale * 1.2 + gap

    def _label(self, parent, text, pos, scale, fg=INK, align=TextNode.ALeft, bold=False, wrap=None, **kw):
        self.lines.append(text)
        kw.setdefault("frameColor", (0, 0, 0, 0))
        return DirectLabel(parent=parent, text=text, pos=(pos[0], 0, pos[1]), scale=scale, text_align=align,
                           text_fg=fg, text_font=self.bold if bold else self.font,
                           text_shadow=(0, 0, 0, 0.6), text_wordwrap=wrap, **kw)

    def _button(self, name, parent, text, command, pos, width, scale=0.036, enabled=True, colour=BUTTON,
                align=TextNode.ACenter, args=(), wrap=None):
        self.lines.append(text)
        w = width / scale
        left = -w / 2 if align == TextNode.ACenter else -0.5
        b = DirectButton(parent=parent, text=text, command=command, extraArgs=list(args), pos=(pos[0], 0, pos[1]),
                         scale=scale, text_font=self.font, text_align=align, text_fg=INK if enabled else DIM,
                         text_wordwrap=wrap, relief=DGG.FLAT, frameSize=(left, left + w, -0.45, 1.05),
                         frameColor=(colour, HOT, HOT, OFF) if enabled else OFF,
                         state=DGG.NORMAL if enabled else DGG.DISABLED, pressEffect=1)
        self.buttons[name] = b
        return b

    def _powers(self, o, state) -> None:
        """Breaking Rules, bottom left: title with the markers left, then one row per power.

        In a small window (HUD scaled up) only icon and name, in two columns, so the card and the
        supply above stay in view; F1 has the full rules."""
        bl = self.anchors["a2dBottomLeft"]
        compact = self.compact()
        step, width, scale = (0.052, 0.46, 0.03) if compact else (0.075, 1.07, 0.03)
        # as many columns (up to three) as fit beside the buttons at the bottom right; else one, above them
        fits = [c for c in (3, 2, 1) if self.hud.bottom_left_z(0.07 + c * (width + 0.02)) == 0]
        columns = min(len(o.powers), fits[0] if compact and fits else 3 if compact else 1)
        lift = self.hud.bottom_left_z(0.07 + columns * (width + 0.02))
        bl = bl.attachNewNode("powers")
        bl.setZ(lift)
        rows = -(-len(o.powers) // columns)
        top = (0.08 if compact else 0.16) + step * rows + (0.035 if compact else 0.06)
        right = 0.06 + columns * (width + 0.02) + 0.01
        self.powers_frame = DirectFrame(parent=bl, frameColor=PANEL, relief=DGG.FLAT,
                                        frameSize=(0.03, right, 0.097 if compact else 0.125, top + 0.055))
        self.powers_top = lift + top + 0.055
        markers = MARKER_ON * o.markers_left + MARKER_OFF * (MARKERS - o.markers_left)
        # both markers spent: a compact column has no room for "(no marker left)" on each power, the title says it
        spent = compact and not o.markers_left
        title = _("Breaking Rules \u00b7 markers left: {markers}").format(markers=markers)
        if spent:
            title += "  ({status})".format(status=_("no marker left"))
        title = self._label(bl, title, (0.06, top), 0.033 if compact else 0.036, fg=ACCENT, bold=True)
        wide = 0.09 + title.component("text0").textNode.getWidth() * title.getScale().x   # the title in the panel
        left_, right_, bottom_, top_ = self.powers_frame["frameSize"]
        self.powers_frame["frameSize"] = (left_, max(right_, wide), bottom_, top_)
        used = self.game.players[o.player].powers_used
        for i, power in enumerate(o.powers):
            row, column = divmod(i, columns)
            y = top - step * (row + 1)
            armed = power in state["powers"] or (power == RELOCATE and state["mode"] in ("pick", "move"))
            usable = power in o.powers_now or armed
            if power in used:
                status = _("used")
            elif power not in o.powers_left:
                status = "" if spent else _("no marker left")
            elif armed:
                status = _("on")
            else:
                status = ""
            text = f"{i + 1} {ICONS[power]}  {power_name(power)}"   # Ctrl and that number: as a click
            if not compact and status in ("", _("on")):   # a power gone for good needs no rule: the row fits
                text += f": {power_text(power)}"
            # in a compact column a long status ran into the next column ("Single support (no marker left)" at
            # 640x480): left out where it does not fit, the button greyed
            if status and (not compact or status == _("on") or
                           measure(self.font, f"{text}  ({status})")[0] <= width / scale - 1):
                text += f"  ({status})"
            self._button(f"power_{power}", bl, text, self.handlers["power"], (0.06 + column * (width + 0.02), y),
                         width, scale=scale, enabled=usable, colour=ARMED if armed else BUTTON,
                         align=TextNode.ALeft, args=(power,))

    def _actions(self, o, state) -> None:
        """Bottom middle: gap fillers in hand, the reserved tile, End turn. The reserved tile is a card
        in its colour on its button (off the table, where it covered the HUD). A text too long for its
        button wraps, and the whole row grows upwards to the tallest button."""
        bc = self.anchors["a2dBottomCenter"]
        items = []
        can_act = o.step in (PLACE_TILE, EXTRAS, DECIDE, CHOOSE)
        for piece in o.fillers:
            holding = state["mode"] == "filler" and state["piece"] == piece
            items.append((f"filler_{piece}", filler_name(piece) + ("  \u2713" if holding else ""),
                          self.handlers["filler"], (piece,), can_act, ARMED if holding else BUTTON, None))
        reserved = o.digit if RESERVE in state["powers"] else o.reserved   # Reserve armed: on its button already
        if reserved is not None:
            holding = state["mode"] == "reserved"
            if o.reserve_ready:
                text = _("Build the reserved {digit}").format(digit=reserved)
            elif o.reserve_lost:
                text = _("Reserved: {digit} (lost at the end of this turn)").format(digit=reserved)
            else:
                text = _("Reserved: {digit} (built from your next turn)").format(digit=reserved)
            items.append(("reserved", text, self.handlers["reserved"], (), o.reserve_ready,
                          ARMED if holding else BUTTON, reserved))
        if o.can_end:   # Enter ends the turn only with nothing in hand: else it confirms (or picks) that
            enter = state["piece"] is None and state["mode"] != "pick"
            items.append(("end_turn", _("End turn (Enter, X)") if enter else _("End turn (X)"), self.handlers["end_turn"], (), True,
                          (0.2, 0.45, 0.55, 1), None))
        width, scale = (0.34, 0.03) if self.compact() else (0.5, 0.03)
        card = 2.4   # the reserved tile's card, in text units, at the left of its button
        half = self.hud.room()[0] / 2
        hint, confirm, powers = self.hud.hint, self.hud.confirm, self.powers_frame
        buttons_width, buttons_top = self.hud.buttons_at_right()
        # where the row may stand (its baseline, left, right; how many lines a button may take), the first
        # that holds it: between "H: show the controls" and Confirm, under the powers panel (two lines);
        # a narrow window: a row of their own above Hint and Menu, right of the powers; else above the
        # powers, left of Hint and Menu, three lines if need be (at 640x480 the row of a reserved tile ran
        # off the right edge)
        places = [(ROW, bc.getRelativePoint(hint, Point3(hint.component("text0").textNode.getWidth(), 0, 0)).x
                   + 0.03, bc.getRelativePoint(confirm, Point3(confirm.guiItem.getFrame()[0], 0, 0)).x - 0.03, 2),
                  (buttons_top + 0.04, bc.getRelativePoint(powers, Point3(powers["frameSize"][1], 0, 0)).x + 0.03
                   if powers else 0.05 - half, half - 0.05, 2)]
        if powers:   # (a button's frame reaches 0.45 of a letter below its baseline)
            places += [(self.powers_top + 0.035, 0.05 - half, half - buttons_width - 0.03, lines) for lines in (2, 3)]
        for row, left, right, lines in places:
            least = [self._least_width(text, card * scale if digit is not None else 0, scale, lines)
                     for _name, text, _command, _args, _enabled, _colour, digit in items]
            if sum(least) + 0.03 * (len(least) - 1) <= right - left:
                break
        while width > 0.1 and sum(max(width, w) + 0.03 for w in least) - 0.03 > right - left:
            width -= 0.02   # all as wide as the room allows, up to the usual width
        widths = [max(width, w) for w in least]
        total = sum(widths) + 0.03 * (len(items) - 1)
        x = max(left, min(-total / 2, right - total))   # centred, unless that runs into Confirm or the hint
        self.actions_span = (x, x + total) if items else None   # (HUD units right of the window's middle)
        made = []
        for (name, text, command, args, enabled, colour, digit), w in zip(items, widths):
            inset = card if digit is not None else 0
            b = self._button(name, bc, text, command, (x + w / 2, row), w, scale=scale,
                             enabled=enabled, colour=colour, args=args, wrap=w / scale - inset - 1)
            made.append((b, inset, digit))
            x += w + 0.03
        rows = max([b.component("text0").textNode.getNumRows() for b, _i, _d in made], default=1)
        line = self.font.getLineHeight()
        bottom = -0.45 - (rows - 1) * line          # every button as tall as the tallest; bottoms stay put
        self.reserved_card = None
        for b, inset, digit in made:
            left, right = b["frameSize"][:2]
            b["frameSize"] = (left, right, bottom, 1.05)
            b.setZ(row + (rows - 1) * line * scale)
            spare = (rows - b.component("text0").textNode.getNumRows()) * line
            b["text_pos"] = (inset / 2, -spare / 2)   # in the middle of what the card leaves
            if digit is not None:   # upright like a card, in the middle of its slot
                w = min(inset - 0.4, (0.9 - bottom - 0.15) * 0.75)
                x = left + 0.2 + inset / 2
                self.reserved_card = self._card(b, digit, (x - w / 2, x + w / 2, bottom + 0.15, 0.9))
        self.actions_top = row + (rows - 1) * line * scale + 1.05 * scale
        powers = self.powers_frame
        if powers is not None and row == ROW:   # the powers panel over a row grown to two lines
            holder = powers.getParent()
            up = max(0.0, self.actions_top + 0.01 - holder.getZ() - powers["frameSize"][2])
            holder.setZ(holder.getZ() + up)
            self.powers_top += up

    def _least_width(self, text: str, inset: float, scale: float, lines: int) -> float:
        """The narrowest an action's button may be (HUD units): its text (`inset` from the left: the reserved
        tile's card) in `lines` lines at most, no word broken ("Lückenfülle" / "r, 1 Feld")."""
        widest = max(measure(self.font, word)[0] for word in text.split())
        w = inset + max(3, widest + 1.05) * scale   # (a wrap of zero or less would not wrap at all)
        while measure(self.font, text, wrap=(w - inset) / scale - 1)[1] > lines:
            w += 0.02
        return w

    def _card(self, parent, digit, frame):
        """The reserved tile as a card on its button (no clicks of its own)."""
        left, right, bottom, top = frame
        self.lines.append(str(digit))
        return number_card(parent, self.bold, digit, frame, min(right - left, top - bottom) * 0.9)

    def _stack(self, o, texts, bottom: float) -> float:
        """Labels on panels in the bottom middle, stacked upwards from `bottom` (the first one lowest);
        returns the height above the last one."""
        bc = self.anchors["a2dBottomCenter"]
        scale, gap = 0.032, 0.03
        for text, ink in texts:
            label = self._label(bc, text, (0, bottom), scale, fg=ink, align=TextNode.ACenter, frameColor=PANEL,
                                pad=(0.3, 0.15))
            rows = self._fit_note(o, label, bottom, scale, up=True)
            self.notes.append(label)
            label.setZ(bottom + (rows - 1) * scale * 1.2)   # the first line's baseline: the rest hang below
            bottom += rows * scale * 1.2 + gap
        return bottom

    def _fit_note(self, o, label, edge: float, scale: float, up: bool) -> int:
        """Wrap a note to the column beside it (notes_column), growing from `edge` upwards or downwards;
        its column may narrow where it grows to, so it is wrapped again to that. Its number of rows."""
        rows = 1
        for _try in range(5):
            far = edge + rows * scale * 1.2 * (1 if up else -1)
            x, wrap = self.notes_column(o, min(edge, far), max(edge, far))
            label.setX(x)
            even_wrap(label, wrap)
            got = label.component("text0").textNode.getNumRows()
            if got <= rows:
                return got
            rows = got
        return rows

    def _hang(self, o, texts, below: float) -> None:
        """Labels on panels at the top middle, from `below` (HUD units under the top: what stands there, the
        verdict and the status) downwards, the first one highest, each as wide as the room beside it
        (notes_column); the session frames the table under them."""
        mid, scale, gap = self.anchors["aspect2d"], 0.032, 0.03
        height = self.hud.room()[1]   # (worked out in the bottom middle's units: HUD units above the bottom)
        top = height + below - 0.04
        for text, ink in texts:
            label = self._label(mid, text, (0, 0), scale, fg=ink, align=TextNode.ACenter, frameColor=PANEL,
                                pad=(0.3, 0.15))
            rows = self._fit_note(o, label, top, scale, up=False)
            label.setZ(top - scale * 1.2 - height / 2)   # the first line's baseline (aspect2d's middle: 0)
            self.notes.append(label)
            self.hanging.append(label)
            top -= rows * scale * 1.2 + gap

    def above_actions(self, o) -> float:
        """Where notes start in the bottom middle: above the actions (small window: above the powers too)."""
        return max(self.actions_top + 0.05, self.powers_top + 0.03 if self.compact() and o.powers else 0)

    def notes_bottom(self, o) -> float:
        """Where the notes and warnings start: above the actions, and above "Level to Level"'s piles (the
        warnings of a reserved tile stood over them)."""
        if self.game.variant != LEVEL_TO_LEVEL:
            return self.above_actions(o)
        return max(self.above_actions(o), self.piles_height + 0.07 + self.piles_lift)

    def notes_column(self, o, bottom: float, top: float) -> tuple[float, int]:
        """(x, wrap) of a note standing from `bottom` to `top`: right of the powers panel when it stands
        beside them; above "Level to Level"'s piles standing at the right (a narrow window) between what stands
        at the top left at its height (the cards still to come; above them a caption or the round's card) and
        the scores, as wide as the room between them at its height: under the scores, to the window's edge (in
        a column as narrow as beside the scores, the notes ran off the top in German, Spanish and Polish at
        640x480; beside the cards still to come, a reserved tile's warning stood on the verdict)."""
        if self.game.variant == LEVEL_TO_LEVEL and self.piles_lift:
            width, height = self.hud.room()
            band = (bottom - height - 0.01, top - height + 0.01)
            left, right = self.middle_room(top=band[1], bottom=band[0])
            # above the cards still to come, to what stands at the top left at its height (not where the key help
            # stands there: it gives way to the notes, 800x600)
            left = min(left, self.hud.extent("a2dTopLeft", *band)[1] + 0.03 - width / 2)
            return (left + right) / 2, (right - left) / 0.032 - 0.6   # the panel's pad: 0.3 letters a side
        x, wrap = (0.3, 32) if o.powers and not self.compact() else (0.0, 46)
        width, buttons_top = self.hud.buttons_at_right()
        if bottom >= buttons_top:   # above Hint, Menu and Confirm at the bottom right
            return x, wrap
        # beside them: in the room left of them (at 800x600 "Your tile is dealt with ..." ran under Hint;
        # kept centred, it stood seven lines tall in Polish); the panel's pad is 0.3 letters a side
        half = self.hud.room()[0] / 2
        right = half - width - 0.03
        if x + wrap * 0.032 / 2 <= right:
            return x, wrap
        left = 0.05 - half
        return (left + right) / 2, min(wrap, (right - left) / 0.032 - 0.6)

    def _two_of_three(self, game, o) -> None:
        """Top left beside the card: the round's three card slots and the reject markers."""
        tl = self.anchors["a2dTopLeft"]
        x0 = 0.34
        self._label(tl, _("This round's cards"), (x0, -0.475), 0.03, fg=DIM)
        me = game.players[o.player].decisions
        for k, card in enumerate(game.round_cards()):
            x = x0 + k * 0.15
            current = k == game.slot
            face = tile_rgba(card) if card is not None else (0.25, 0.27, 0.29, 1)
            DirectFrame(parent=tl, relief=DGG.FLAT, frameColor=ACCENT if current else (0, 0, 0, 0),
                        frameSize=(x - 0.012, x + 0.132, -0.372, -0.168))
            DirectFrame(parent=tl, relief=DGG.FLAT, frameColor=face, frameSize=(x, x + 0.12, -0.36, -0.18),
                        text="?" if card is None else str(card), text_font=self.bold, text_scale=0.09,
                        text_pos=(x + 0.06, -0.3), text_fg=(1, 1, 1, 1), text_shadow=(0, 0, 0, 0.5))
            if k < len(me):
                mark, ink = ("\u2713", (0.55, 0.95, 0.6, 1)) if me[k] else ("\u2717", (1, 0.45, 0.4, 1))
                self._label(tl, mark, (x + 0.06, -0.425), 0.05, fg=ink, align=TextNode.ACenter, bold=True)
        markers = tl.attachNewNode("reject-markers")
        labels = [self._label(markers, _("Reject markers:"), (0, 0), 0.03, fg=DIM)]
        for i, (seat, st) in enumerate(zip(game.seats, game.players)):
            # the others decide about this card at the same time: theirs as they stood before it, and a decision
            # about it hidden ("free" after a reject was false)
            used = False in (st.decisions if i == o.player else st.decisions[:game.slot])
            name = seat_name(seat.name, seat.kind)
            if not used and i != o.player and len(st.decisions) > game.slot:
                text = f"? {name}: " + _("choice hidden")
            else:
                text = f"{MARKER_OFF if used else MARKER_ON} {name}: " + (_("used") if used else _("free"))
            labels.append(self._label(markers, text, (0, -0.05 - 0.045 * i), 0.03, fg=DIM if used else INK))
        # beside the card slots; where that runs under the score (a narrow window, long words): beside
        # the cards still to come, which stop short of the right column
        x = x0 + 0.48
        width = max(label.guiItem.getFrame()[1] * label.getScale().x for label in labels)
        markers.setPos(x, 0, -0.2)
        if x + width + 0.03 > self._beside_slots_room(game):
            markers.setPos(0.75, 0, -0.525)   # right of the supply's ten cards a row, by its caption

    def _beside_slots_room(self, game) -> float:
        """How far right (HUD units from the left edge) the top left may reach beside the "2 of 3" card
        slots before it meets the score box and the scores under it."""
        bottom = -0.25 - 0.045 * len(game.seats)   # the reject markers' lowest line, beside the slots
        return round(self.hud.room()[0] + self.hud.extent("a2dTopRight", bottom)[0], 2)

    def piles_top(self) -> float:
        """The aspect2d y (-1 at the bottom of a wide window) of the "Level to Level" piles' top edge."""
        return -self.base.a2dTop + (self.piles_height + self.piles_lift) * self.anchors["a2dBottomCenter"].getScale().z

    def _piles(self, game, o, question) -> dict | None:
        """Bottom middle, above the actions: level markers 0..4 as piles, the shown card on top. Where they
        stand above the buttons at the right (a narrow window), closer and lower, at the right: centred,
        they covered the cards still to come. There, while a tile is to be chosen, the shown tiles are
        the buttons where the question (`question`: its words and buttons) has no room for its own.
        Returns the question's layout when it was worked out for that (the prompt draws it)."""
        step, tall, y = 0.24, 0.21, 0.3
        margin = 0.07   # the panel's edge below the cards' counts
        half, reach = self.hud.room()[0] / 2, 2.5 * step + 0.02
        right, top = self.hud.buttons_at_right()
        powers, beside, above = self.powers_frame, 0.03, 0.01
        edge = None if powers is None else self.anchors["a2dBottomCenter"].getRelativePoint(
            powers, Point3(powers["frameSize"][1], 0, powers["frameSize"][3]))   # the Breaking Rules' top right

        def clear(x, bottom):   # of the Breaking Rules panel
            return edge is None or edge.x + beside <= x - reach or edge.z + above <= bottom

        # in the bottom middle, left of the buttons at the right; or right of the Breaking Rules panel;
        # else (a narrow window) above those buttons, smaller, at the right; above that panel if need be
        self.piles_lift = 0.0
        x = min(0.0, half - right - 0.05 - reach)
        if x - reach < 0.05 - half or not clear(x, y - margin):
            if edge is not None and edge.x + beside + 2 * reach <= half - right - 0.05:
                x = edge.x + beside + reach
            else:
                self.piles_lift = max(top + 0.04, self.actions_top + 0.01)   # above the actions in a row of their own
                if o.step != CHOOSE:   # the tile taken: a column, closer above them (the scores above it)
                    self.piles_lift = top + 0.02
                    self._piles_column(game, o, edge)
                    return None
                step, tall, y = 0.2, 0.15, 0.08
                reach = 2.5 * step + 0.02
                x = half - 0.05 - reach
                if not clear(x, self.piles_lift + y - margin):
                    y = edge.z + above + margin - self.piles_lift
        self.piles_height = y + tall + (0.16 if o.supply else 0.1)
        at = self._layout(game, *question) if self.piles_lift and o.step == CHOOSE else None
        self.folded_choice = at is not None and not self._fits(at)
        bc = self.anchors["a2dBottomCenter"].attachNewNode("piles")
        bc.setPos(x, 0, self.piles_lift)
        self.piles_frame = DirectFrame(parent=bc, frameColor=(0.08, 0.09, 0.1, 1), relief=DGG.FLAT,
                                       frameSize=(-reach, reach, y - margin, self.piles_height))
        w = step / 3   # half a card's width
        # "not active" never broken mid-word ("nieaktywn/y"): a word wider than the card may reach into the gaps
        # beside it, and only one wider than that too is made smaller
        inactive, empty = _("not active"), _("no card")
        inactive_size = min(0.03, 2.8 * w / max(measure(self.font, word)[0] for word in f"{inactive} {empty}".split()))
        for k in range(LEVEL_MARKERS):
            x = (k - 2) * step
            active = k < game.active
            pile = game.piles[k]
            self._label(bc, _("Level {level}").format(level=k), (x, y + tall + 0.06), 0.032,
                        fg=INK if active else DIM, align=TextNode.ACenter, bold=active)
            under = len(pile) - (1 if k in game.shown else 0)
            for n in range(min(under, 4)):     # the cards underneath, as a little stack
                DirectFrame(parent=bc, relief=DGG.FLAT, frameColor=(0.32, 0.3, 0.28, 1),
                            frameSize=(x - w + 0.012 * n, x + w + 0.012 * n, y - 0.01 + 0.012 * n,
                                       y + tall - 0.01 + 0.012 * n))
            lift = 0.012 * min(under, 4)
            if k in game.shown:
                d = game.shown[k]
                may = k in o.choices or o.marker == k
                if o.marker == k and o.step in (PLACE_TILE, EXTRAS):   # the tile this player took
                    DirectFrame(parent=bc, relief=DGG.FLAT, frameColor=ACCENT,
                                frameSize=(x - w - 0.015 + lift, x + w + 0.015 + lift, y - 0.025 + lift,
                                           y + tall + 0.005 + lift))
                card = dict(parent=bc, relief=DGG.FLAT, frameColor=tile_rgba(d) if may else (0.45, 0.45, 0.45, 1),
                            frameSize=(x - w + lift, x + w + lift, y - 0.01 + lift, y + tall - 0.01 + lift),
                            text=str(d), text_font=self.bold, text_scale=tall * 0.62,
                            text_pos=(x + lift, y + tall * 0.21 + lift), text_fg=(1, 1, 1, 1),
                            text_shadow=(0, 0, 0, 0.5))
                if self.folded_choice and k in o.choices:   # the tile is its own button (key: its level)
                    colour = card["frameColor"]
                    card.update(frameColor=(colour, HOT, HOT, OFF), command=self.handlers["choose"],
                                extraArgs=[k], pressEffect=1)
                    self.buttons[f"choose_{k}"] = DirectButton(**card)
                else:
                    DirectFrame(**card)
                self.lines.append(str(d))
            elif not active:
                DirectFrame(parent=bc, relief=DGG.FLAT, frameColor=(0.2, 0.21, 0.22, 0.6),
                            frameSize=(x - w, x + w, y - 0.01, y + tall - 0.01))
                self._label(bc, inactive, (x, y + tall / 2 + 0.005), inactive_size, fg=DIM,
                            align=TextNode.ACenter, wrap=2.9 * w / inactive_size)
            else:   # the last round: the cards left gave this marker none, it offers nothing (on its pile's top)
                top = 0.012 * max(min(under, 4) - 1, 0)
                self._label(bc, empty, (x + top, y + tall / 2 + 0.005 + top), inactive_size, fg=INK,
                            align=TextNode.ACenter, wrap=2.9 * w / inactive_size)
            self._label(bc, ngettext("{count} card", "{count} cards", len(pile)).format(count=len(pile)),
                        (x, y - 0.05), 0.03, fg=DIM,
                        align=TextNode.ACenter)
        if o.supply is not None:
            left = "  ".join(f"{d}\u00d7{n}" for d, n in sorted(o.supply.items()))
            self._label(bc, _("Your supply: {tiles}").format(tiles=left), (0, y + tall + 0.12), 0.028, fg=DIM,
                        align=TextNode.ACenter)
        return at

    def _piles_column(self, game, o, edge) -> None:
        """The piles where they stand above the buttons at the right (a narrow window) once the tile is taken:
        a column as narrow as its words, a line a level marker (its name, the card shown, the cards left), your
        supply above. The player still reads there the cap of the tile taken and what is left, and the board
        gets the middle of the window: the full row of piles left it a strip 140 px high at 640x480 (in Polish
        90) between the verdict and them. `edge`: the Breaking Rules panel's top right, if any."""
        self.piles_column = True
        br = self.anchors["a2dBottomRight"].attachNewNode("piles")
        row, pad, gap, size = 0.052, 0.025, 0.025, 0.03   # (no smaller words: 10 px at 640x480)
        names = [_("Level {level}").format(level=k) for k in range(LEVEL_MARKERS)]
        counts = [ngettext("{count} card", "{count} cards", len(p)).format(count=len(p)) for p in game.piles]
        inactive, empty = _("not active"), _("no card")
        card = row - 0.012   # a shown card's height (as wide as 0.85 of it)
        name_w = max(measure(self.bold, n, size)[0] for n in names)
        count_w = max(measure(self.font, c, size)[0] for c in counts)
        slot = max(card * 0.85 + 0.03, *(measure(self.font, words, size)[0] for words in (inactive, empty)))
        right = -0.05
        left = right - 2 * pad - name_w - slot - count_w - 2 * gap   # no wider: the board's room is beside it
        bottom, half = self.piles_lift, self.hud.room()[0] / 2
        if self.actions_span is not None and self.actions_span[1] + 0.03 > left + half:
            bottom = max(bottom, self.actions_top + 0.01)   # above the actions in a row of their own under it
        if edge is not None:   # (what stands left of the buttons at the right: the Breaking Rules panel)
            at = br.getRelativePoint(self.anchors["a2dBottomCenter"], edge)
            if at.x + 0.03 > left:
                bottom = max(bottom, at.z + 0.01)
        supply, rows, line = None, 0, self.font.getLineHeight() * size
        if o.supply is not None:
            supply = _("Your supply: {tiles}").format(
                tiles=" ".join(f"{d}\u00d7{n}" for d, n in sorted(o.supply.items())))
            wrap = (right - left - 2 * pad) / size
            rows = measure(self.font, supply, wrap=wrap)[1]
        rows_top = bottom + 0.012 + LEVEL_MARKERS * row   # (close: the scores stand above it)
        top = rows_top + (0.012 + rows * line if rows else 0) + 0.005
        self.piles_frame = DirectFrame(parent=br, frameColor=(0.08, 0.09, 0.1, 1), relief=DGG.FLAT,
                                       frameSize=(left, right, bottom, top))
        if supply is not None:
            even_wrap(self._label(br, supply, ((left + right) / 2, rows_top + 0.012 + (rows - 1) * line), size,
                                  fg=DIM, align=TextNode.ACenter), wrap)   # ("9\u00d73" alone on the last line)
        self.piles_height = top - self.piles_lift
        middle = left + pad + name_w + gap + slot / 2
        for k in range(LEVEL_MARKERS):
            z = rows_top - (k + 1) * row   # the row's bottom
            active, mine = k < game.active, o.marker == k and o.step in (PLACE_TILE, EXTRAS)
            self._label(br, names[k], (left + pad, z + 0.018), size, fg=ACCENT if mine else INK if active else DIM,
                        bold=active)
            if k in game.shown:
                d = game.shown[k]
                w = card * 0.85 / 2
                if mine:   # the tile this player took: its level is the cap
                    DirectFrame(parent=br, relief=DGG.FLAT, frameColor=ACCENT,
                                frameSize=(middle - w - 0.01, middle + w + 0.01, z + 0.002, z + card + 0.012))
                frame = (middle - w, middle + w, z + 0.007, z + card + 0.007)
                ink = tile_rgba(d) if k in o.choices or mine else (0.45, 0.45, 0.45, 1)
                DirectFrame(parent=br, relief=DGG.FLAT, frameColor=ink, frameSize=frame, text=str(d),
                            text_font=self.bold, text_scale=card * 0.75, text_pos=(middle, z + 0.007 + card * 0.22),
                            text_fg=(1, 1, 1, 1), text_shadow=(0, 0, 0, 0.5))
                self.lines.append(str(d))
            elif not active:
                self._label(br, inactive, (middle, z + 0.018), size, fg=DIM, align=TextNode.ACenter)
            else:   # the last round: the cards left gave this marker none
                self._label(br, empty, (middle, z + 0.018), size, fg=INK, align=TextNode.ACenter)
            self._label(br, counts[k], (right - pad, z + 0.018), size, fg=DIM, align=TextNode.ARight)

    def _question(self, game, o, state) -> tuple[list, list]:
        """The words (first: the question or note) and the buttons of what stands in the middle now."""
        lines, buttons = [], []
        if o.step == DECIDE:
            card = game.card
            if o.can_build and o.can_reject:
                lines.append(_("Card {slot} of 3: the {digit}. Build it or reject it?").format(slot=o.slot + 1,
                                                                                               digit=card))
            else:   # no choice: no question, only what must be done ("a {digit}" read "a 8")
                lines.append(_("Card {slot} of 3: the {digit}.").format(slot=o.slot + 1, digit=card))
            if not o.can_reject:
                lines.append(_("You have rejected a card this round: build this one."))
            if not o.can_build:
                lines.append(_("You have built two of this round's cards: reject this one."))
            buttons = [("build", _("Build the {digit} (B)").format(digit=card), self.handlers["decide"], (True,),
                        o.can_build),
                       ("reject", _("Reject it with your marker (R)"), self.handlers["decide"], (False,),
                        o.can_reject)]
        elif o.step == CHOOSE:
            lines.append(_("Choose one of the shown tiles; you may build it up to its marker's level."))
            for k, d in sorted(o.choices.items()):
                buttons.append((f"choose_{k}", _("Take the {digit}: up to level {level} (key {level})").format(
                    digit=d, level=k),
                                self.handlers["choose"], (k,), True))
        elif o.step == EXTRAS and game.variant == TWO_OF_THREE and \
                game.players[o.player].decisions == [True, True, False]:
            lines.append(_("You built two of this round's cards: this one is rejected for you."))
        elif o.step == EXTRAS and state["piece"] is None:   # (with a piece in hand, one of them is being done)
            still = []
            if o.fillers:
                still.append(_("place a gap filler"))
            if o.reserve_ready:
                still.append(_("build your reserved tile"))
            if RELOCATE in o.powers_now:
                still.append(_("move a tile with Relocate"))
            if game.variant == TWO_OF_THREE and o.decisions[o.slot:] == (False,):   # no tile was laid
                lines.append(_("You rejected this card. You may still: {actions}. Or end your turn.").format(
                    actions=", ".join(still)) if still else _("You rejected this card."))
            else:
                lines.append(_("Your tile is dealt with. You may still: {actions}. Or end your turn.").format(
                    actions=", ".join(still)) if still else _("Your tile is dealt with."))
        if state.get("note"):
            lines.append(state["note"])
        if state["message"]:
            lines.append(state["message"])
        return lines, buttons

    def middle_room(self, top: float = 0.0, bottom: float = -1e9) -> tuple[float, float]:
        """Left and right (HUD units from the window's middle) of the room between the round's card and the
        cards still to come (left) and the scores (right), from `bottom` to `top` (HUD units below the
        window's top: the scores' caption above it is no wall; under the scores the room reaches the edge)."""
        half = self.hud.room()[0] / 2
        left = 0.25   # the round's card
        chips = self.hud.supply.getTightBounds(self.hud.anchors["a2dTopLeft"])
        if chips and not self.hud.supply.isHidden():
            left = max(left, chips[1].x)
        return left + 0.03 - half, half + self.hud.extent("a2dTopRight", above=bottom, below=top)[0] - 0.03

    def _layout(self, game, lines, buttons) -> dict:
        """Where a question with buttons stands: its first line's baseline `y` and its middle `x` (aspect2d
        in HUD units), `height`, the words' `wrap`, buttons `per_row`. In a small window, or where in the
        middle it would reach down into the Breaking Rules panel (1024x576: under the key help), in the room
        between the top left and the scores, under the card slots and the status, buttons under each other if
        need be: across the whole width it covered the scores, the buttons and the powers."""
        for compact in ((True,) if self.compact() else (False, True)):
            at = self._layout_in(game, lines, buttons, compact)
            if compact or not self._over_powers(at):
                return at

    def _layout_in(self, game, lines, buttons, compact: bool) -> dict:
        """_layout, in the middle of the window or (`compact`) between the top left and the scores."""
        k = self.hud.anchors["a2dTopLeft"].getScale().x
        left, right = -9.0, 9.0
        if compact:   # under the card slots ("2 of 3") and the verdict and status
            below = min(self._lowest(self.base.a2dTopCenter), self._lowest(self.anchors["a2dTopLeft"]))
            left, right = self.middle_room(top=below - 0.04)
        per_row = max(1, min(3, len(buttons), int((right - left - 0.02) / (QUESTION_WIDTH + 0.04))))
        wrap = min(46.0, (right - left - 0.08) / 0.038)
        line = self.font.getLineHeight() * 0.038
        rows, half = [], per_row * (QUESTION_WIDTH + 0.04) / 2 + 0.03   # half: its buttons, or its widest line
        for text in lines:
            width, count = measure(self.font, text, wrap=wrap)
            rows.append(count)
            half = max(half, width * 0.038 / 2 + 0.04)
        button_rows = -(-len(buttons) // per_row)
        # under the buttons as much room as above the words (more would not fit between the key help
        # and the "Level to Level" piles at 1280x720)
        height = sum(0.06 + (r - 1) * line for r in rows) + 0.135 + 0.08 * (button_rows - 1)
        if compact:
            y = self.base.a2dTop / k + below - 0.04 - 0.07
        else:   # high in the middle, under the verdict and status
            y = (0.42 if game.variant == TWO_OF_THREE else 0.62) / k - 0.07
            tl_left, tl_right, tl_bottom, _top = self.hud.extent("a2dTopLeft")
            if tl_right - self.base.a2dRight / k > -0.65:   # a narrow window: under the card and what is to come
                y = min(y, self.base.a2dTop / k + tl_bottom - 0.1)
        if game.variant == LEVEL_TO_LEVEL:   # above the piles
            y = max(y, -self.base.a2dTop / k + self.piles_height + 0.01 + self.piles_lift + height)
        return {"x": (left + right) / 2 if compact else 0.0, "y": y, "height": height, "wrap": wrap,
                "per_row": per_row, "rows": rows, "line": line, "top": self.base.a2dTop / k, "half": half}

    def _over_powers(self, at: dict) -> bool:
        """Whether a question laid out `at` would reach down into what stands at the bottom left."""
        k = self.hud.anchors["a2dTopLeft"].getScale().x
        _left, right, _bottom, top = self.hud.extent("a2dBottomLeft")
        return at["y"] - at["height"] < top - self.base.a2dTop / k + 0.02 and \
            at["x"] - at["half"] < right - self.base.a2dRight / k

    def _fits(self, at: dict) -> bool:
        """Whether a question laid out `at` (above "Level to Level"'s piles) stays under the top row."""
        return at["y"] + 0.07 <= at["top"] + self._lowest(self.base.a2dTopCenter) - 0.04

    def _lowest(self, node) -> float:
        """The lowest edge (HUD units below the top) of the widgets with words under a node at the top (the
        verdict and status; the card slots)."""
        return self._reach(node)[0]

    def _reach(self, node) -> tuple[float, float]:
        """The lowest and the highest edge (HUD units below the top; 0 without any) of the widgets with words
        under a node at the top."""
        from direct.gui.DirectGuiBase import DirectGuiWidget
        anchor, bottom, top = self.hud.anchors["a2dTopCenter"], 0.0, None
        for item in node.findAllMatches("**/+PGItem"):
            left, right, low, high = item.node().getFrame()
            widget = DirectGuiWidget.guiDict.get(item.getName().rsplit("-", 1)[-1])
            if widget is not None and widget.hascomponent("text0") and widget["text"] and \
                    not any(n.isHidden() for n in (item, *item.getAncestors())):
                bottom = min(bottom, anchor.getRelativePoint(item, Point3(0, 0, low)).z)
                z = anchor.getRelativePoint(item, Point3(0, 0, high)).z
                top = z if top is None else max(top, z)
        return bottom, 0.0 if top is None else top

    def _prompt(self, game, o, question, at) -> None:
        """Middle of the screen: the question before placing ("2 of 3", "Level to Level"), or a note;
        `at`: its layout where the piles already worked it out."""
        mid = self.anchors["aspect2d"]
        lines, buttons = question
        if not lines:
            return
        if self.folded_choice:   # the shown tiles are the buttons: the question is a note above them, saying so
            lines, buttons = [lines[0], _("Click a tile below to take it."), *lines[1:]], []
        if not buttons:   # a note: low in the middle, above the actions (and the piles), off the table
            self._stack(o, [(text, ACCENT if i == 0 else INK) for i, text in enumerate(lines)][::-1], self.notes_top)
            return
        at = at or self._layout(game, lines, buttons)
        x, y, per_row, width = at["x"], at["y"], at["per_row"], QUESTION_WIDTH
        frame = self.question = DirectFrame(parent=mid, frameColor=PANEL, relief=DGG.FLAT)
        labels, z = [], y
        for i, (text, rows) in enumerate(zip(lines, at["rows"])):
            labels.append(self._label(mid, text, (x, z), 0.038, fg=ACCENT if i == 0 else INK, align=TextNode.ACenter))
            even_wrap(labels[-1], at["wrap"])   # in as many lines as _layout counted, as even as they come
            z -= 0.06 + (rows - 1) * at["line"]
        # as wide as its words and buttons, no wider: it must not cover the supply or the powers
        half = min(per_row, len(buttons)) * (width + 0.04) / 2 + 0.03
        for bounds in filter(None, (label.getTightBounds(mid) for label in labels)):   # None: no ink
            half = max(half, bounds[1].x - x + 0.04, x - bounds[0].x + 0.04)
        frame["frameSize"] = (x - half, x + half, y - at["height"] + 0.02, y + 0.07)
        by = z - 0.06
        for i, (name, text, command, args, enabled) in enumerate(buttons):
            row, column = divmod(i, per_row)
            in_row = min(per_row, len(buttons) - row * per_row)
            x0 = x - (in_row - 1) * (width + 0.04) / 2
            self._button(name, mid, text, command, (x0 + column * (width + 0.04), by - 0.08 * row), width,
                         scale=0.034, enabled=enabled, args=args)
