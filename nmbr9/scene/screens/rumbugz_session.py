"""Playing a RumBugz game at the table: the turn (draw, lay, change, discard), bids, bots, pass-and-play.

Each frame the screen asks the game what it waits for: a move the game makes itself (replacement draws), the
bids after a discard (bots think off the window's thread, ai/worker.py; humans answer a prompt that shows no
hand), a bot's move, or a human's. A human's rack is shown only to them: between two humans the hand-off screen
(screens/handoff.py, NMBR 9's too) hides it. The player picks bugs in the rack (click, or 1-9 and 0) and lays
them (Enter; a PLYT whose number is open asks which, offering only the numbers that make a sequence), drags a bug
onto a sequence's end or onto a PLYT, or off a sequence's end into the rack, and discards (X, or a drop on the
pile). The rules judge every proposal; a refusal's sentence is shown.
"""
from __future__ import annotations

import json

import numpy as np
from direct.gui.DirectGui import DirectFrame
from panda3d.core import Point3, TextNode

from ...ai import worker
from ...bug_assets import bug_colour, ink_colour
from ...i18n import _, ngettext
from ...rumbugz.game import BIDS, MOVE
from ...rumbugz.rack import BY_KIND, BY_NUMBER, dropped_on, plyt_numbers, rack_order, sequences_of, taken_off
from ...rumbugz.rules.bugs import KIND_NAMES, KINDS, PLYT
from ...rumbugz.rules.round import DRAW, PLAY
from ..camera import WHOLE_SCREEN
from ..hud import build_anew, number_card, rgba, take_off, text_rows
from ..play import HANDOFF_PAUSE, over_gui, pointer_in, view_keys
from ..rumbugz_table import BAG_X, MIDDLE_Y, PILE_X, RACK_Y, BugTable
from .handoff import HANDOFF_BACK, HANDOFF_LINE, HandOff
from .widgets import ACCENT, DIM, GO, INK, PANEL, WARN, Screen, keep_together

BOT_PAUSE = 0.5       # seconds between two bots' moves at normal animation speed: the table can be followed
PICK_REACH = 0.07     # how near (screen units, the window's height 2) a click must come to a bug's middle
DRAG_START = 0.03     # how far the pointer moves, pressed, before it drags rather than clicks
ROOM_GAP = 0.03       # between the table's room and a panel (normalised window units)
TABLE_PITCH = 52.0    # steeper than NMBR 9's: the rack's numbers read large (framed at the fit, no nearer)
KEYS_BACK = (0.08, 0.09, 0.1, 0.75)
STATUS_X = 0.3
PILE_ROW = 12         # bugs a row when the pile is looked through


def bug_name(bug: str) -> str:
    return "PLYT" if bug == PLYT else bug


class RumbugzScreen(Screen):
    name = "rumbugz"

    def __init__(self, app, game, context: dict | None = None):
        super().__init__(app)
        self.game = game
        self.context = context or {}     # {"tournament": its id} for a tournament's game
        humans = game.humans
        self.viewer = game.mover() if game.mover() in humans else (humans or [0])[0]
        self.revealed = self.viewer if len(humans) < 2 else None   # the human the rack was last shown to
        self.picked: list[int] = []      # places in the rack
        self.sort_by = BY_NUMBER
        self.rack: list[str] = []
        self.overlay = None              # "handoff", "bids", "choose"
        self.overlay_frame = None
        self.thinking = None             # {"key", "result"} while a bot works out its move
        self.bots_asked: set = set()     # the bots asked to bid for the discard in hand
        self.wait_until = 0.0
        self.shown = None                # what the table shows (redrawn when it changes)
        self.press = None                # {"at", "placed", "place"}: a left button pressed on the table
        self.turning = None              # the right button's last point while it turns the view
        self.verdict = ""
        self.keys_shown = None           # the key help: None, until the player's first move (as NMBR 9's legend)
        self.turn_key = None             # the human's move last traced

    # ----- building --------------------------------------------------------------------------------------
    def enter(self) -> None:
        from ..camera import OrbitCamera
        self.table = BugTable(self.base)
        self.camera = OrbitCamera(self.base.camera, self.base.camLens, self.base.render, around=0.2)
        self.camera.pitch = TABLE_PITCH
        self.anchors = {n: getattr(self.base, n).attachNewNode(f"rumbugz_{n}")
                        for n in ("a2dTopCenter", "a2dTopLeft", "a2dBottomRight", "a2dBottomLeft")}
        self.rooms = None                # the parts of the window the table was last framed in
        super().enter()
        self.redraw()
        self.base.taskMgr.add(self._task, "rumbugz")
        self.app.trace("rumbugz", f"round={self.game.round_number}", f"moves={len(self.game.round.moves)}")

    def build(self) -> None:
        tc, tl, br, bl = (self.anchors[n] for n in ("a2dTopCenter", "a2dTopLeft", "a2dBottomRight",
                                                     "a2dBottomLeft"))
        # right of the middle: clear of the players' panel at the top left, in a 4:3 window too
        self.status = self._panel(self.label("", (STATUS_X, -0.1), scale=0.042, parent=tc, wrap=30), PANEL)
        self.said = self._panel(self.label("", (STATUS_X, -0.3), scale=0.04, parent=tc, fg=WARN, wrap=31), PANEL)
        self.players = self._panel(self.label("", (0.05, -0.1), scale=0.034, parent=tl, align=TextNode.ALeft),
                                   PANEL)
        self.keys = self._panel(self.label("", (0.05, 0.08), scale=0.03, parent=bl, align=TextNode.ALeft, fg=DIM),
                                KEYS_BACK)
        x, w, k = -0.32, 0.56, 0.038
        items = [("menu", _("Menu (M)"), self.to_menu), ("undo", _("Undo (U)"), self.undo),
                 ("sort", "", self.sort), ("look", _("Look through the pile (V)"), self.look_through_pile),
                 ("discard", _("Discard (X)"), self.discard),
                 ("lay", _("Lay (Enter)"), self.lay), ("pile", _("Take the discard (P)"), self.take_discard),
                 ("bag", _("Draw from the bag (B)"), self.draw_bag), ("let", "", self.let_bidder)]
        self.buttons = {key: self.button(text, command, (x, 0.1 + 0.105 * i), width=w, scale=k, parent=br)
                        for i, (key, text, command) in enumerate(items)}
        for key, command in (("b", self.draw_bag), ("p", self.take_discard), ("enter", self.lay),
                             ("x", self.discard), ("r", self.sort), ("u", self.undo), ("m", self.to_menu),
                             ("l", self.let_bidder), ("h", self.toggle_keys), ("escape", self.escape),
                             ("f1", self.show_rules), ("v", self.look_through_pile),
                             ("backspace", self.unpick)):
            self.accept(key, command)
        for n in range(10):
            self.accept(str(n), self.pick_key, [(n - 1) % 10])
        for key, turn in view_keys(self.camera, self.app.settings.camera_sensitivity).items():
            self.accept(key, turn)
        self.accept("mouse1", self._pressed)
        self.accept("mouse1-up", self._released)
        self.accept("mouse3", self._turn_start)
        self.accept("mouse3-up", self._turn_end)
        self.accept("wheel_up", self.camera.zoom_by, [0.88])
        self.accept("wheel_down", self.camera.zoom_by, [1 / 0.88])
        self.letters_with_shift()
        self.shown = None
        self.refresh()

    @staticmethod
    def _panel(label, colour):
        label["frameColor"], label["pad"] = colour, (0.3, 0.2)   # readable over the bugs too
        label.hide()   # until it has something to say
        return label

    def relabel(self) -> None:
        self._close_overlay()
        self.ignoreAll()
        build_anew([self.root, *self.anchors.values()], self.build)

    def exit(self) -> None:
        self.base.taskMgr.remove("rumbugz")
        self._close_overlay()
        super().exit()
        for node in self.anchors.values():
            take_off(node)
        self.camera.frame_in(WHOLE_SCREEN)
        self.table.remove()

    # ----- what is shown ----------------------------------------------------------------------------------
    def view(self):
        return self.game.view(self.viewer)

    def redraw(self) -> None:
        """The table from the viewer's view, the rack in its order with the picks raised; framed whole."""
        view = self.view()
        hand = view.hand(self.viewer)
        if sorted(self.rack) != sorted(hand.elements()):
            self.rack = rack_order(hand, set(KINDS) - view.kinds[self.viewer], self.sort_by)
            self.picked = []
        names = [self.game.told(i) for i in range(len(self.game.seats))]
        self.table.show(view, names, self.rack, self.picked)
        self.table.frame(self.camera)
        self.shown = self._shown_key()

    def _shown_key(self):
        return self.viewer, len(self.game.round.moves), self.game.round_number, tuple(self.rack), tuple(self.picked)

    def refresh(self) -> None:
        """The status, the players' panel, the buttons and the keys, as the game stands."""
        g, r = self.game, self.game.round
        mine = self._my_move()
        drawing = mine and r.step == DRAW
        playing = mine and r.step == PLAY
        bid = r.bids and r.winning_bidder()
        for key, on in (("bag", drawing and not r.bids), ("pile", drawing), ("lay", playing),
                        ("discard", playing), ("undo", g.can_undo(self.viewer)), ("let", drawing and bool(r.bids)),
                        ("sort", True), ("look", True), ("menu", True)):
            b = self.buttons[key]
            b["state"] = "normal" if on else "disabled"
            b["text_fg"] = INK if on else DIM
            b.show() if on or key not in ("let",) else b.hide()
        self.buttons["sort"]["text"] = (_("Sort: by kind (R)") if self.sort_by == BY_NUMBER
                                        else _("Sort: by number (R)"))
        if drawing and r.bids:
            self.buttons["let"]["text"] = _("Let {name} have it (L)").format(name=g.told(bid))
        if self._text(self.status, keep_together(self._status_text())):   # the refusal just under it
            self.said.setZ(-0.1 - 0.042 * 1.25 * max(text_rows(self.status), 1) - 0.08)
        self._text(self.said, keep_together(self.verdict))
        self._text(self.players, self._players_text())
        if self._text(self.keys, self._keys_text() if self._keys_open() else _("H: show the keys")):
            rows = self.keys.component("text0").textNode.getNumRows()   # growing upwards from the window's foot
            self.keys.setZ(0.08 + (rows - 1) * 0.03 * self.keys.component("text0").textNode.getLineHeight())

    def table_rooms(self) -> list[tuple[float, float, float, float]]:
        """The parts of the window the table may be framed in, clear of the panels (normalised: left, right,
        bottom, top): left of the buttons; under the players' panel and the status, or beside the players'
        panel; above the key help, or beside it down to the window's foot. The camera takes the biggest."""
        def box(widget):
            left, right, bottom, top = widget.guiItem.getFrame()
            a, b = (self.base.render2d.getRelativePoint(widget, Point3(x, 0, z)) for x, z in ((left, bottom),
                                                                                              (right, top)))
            return min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z)
        shown = lambda w: not w.isHidden()
        right = min((box(b)[0] for b in self.buttons.values() if shown(b)), default=1.0) - ROOM_GAP
        panel = box(self.players) if shown(self.players) else (-1.0, -1.0, 1.0, 1.0)
        status = min((box(w)[2] for w in (self.status, self.said) if shown(w)), default=1.0) - ROOM_GAP
        keys = box(self.keys) if shown(self.keys) else (-1.0, -1.0, -1.0, -1.0)
        under = min(status, panel[2] - ROOM_GAP)
        return [(-1.0, right, keys[3] + ROOM_GAP, under), (panel[1] + ROOM_GAP, right, keys[3] + ROOM_GAP, status),
                (keys[1] + ROOM_GAP, right, -1.0, under)]

    def _frame_in_free_room(self) -> None:
        """The panels changed size (a longer status, the keys shown, a window of another shape): the table is
        framed anew in what they leave free."""
        rooms = [tuple(round(v, 3) for v in room) for room in self.table_rooms()]
        if rooms != self.rooms:
            self.camera.frame_in(*rooms, glide=self.rooms is not None)
            self.rooms = rooms

    @staticmethod
    def _text(label, text: str) -> bool:
        """A label's new text, its panel fitted to it (hidden when empty); whether it changed."""
        if label["text"] == text:
            return False
        label["text"] = text
        label.resetFrameSize()
        label.show() if text else label.hide()
        return True

    def _my_move(self) -> bool:
        g = self.game
        return self.overlay is None and g.waiting() == MOVE and not g.is_bot(g.mover()) and \
            g.mover() == self.viewer and self.thinking is None and not g.forced()

    def _status_text(self) -> str:
        g, r = self.game, self.game.round
        mover = g.told(g.mover())
        if g.save_error:
            return g.save_error
        if g.waiting() != MOVE or self.overlay is not None:
            return ""
        if g.is_bot(g.mover()) or self.thinking is not None:
            return _("{name} is thinking\u2026").format(name=mover)
        if r.step == DRAW and r.bids:
            return _("{bidder} bids for the {bug}: take it yourself (P), or let {bidder} have it (L).").format(
                bidder=g.told(r.winning_bidder()), bug=bug_name(r.pile[-1]))
        if r.step == DRAW:
            if r.can_take_discard():
                return _("{name}: draw a bug: click the bag (B) or the discard pile (P).").format(name=mover)
            return _("{name}: draw a bug: click the bag (B).").format(name=mover)
        return _("{name}: lay a sequence (pick its bugs, Enter), add to the table (drag a bug onto a sequence), "
                 "then discard a bug (pick it, X).").format(name=mover)

    def _players_text(self) -> str:
        g, r = self.game, self.game.round
        totals = g.totals()
        lines = [_("Round {round} of {rounds}").format(round=g.round_number, rounds=g.rounds)]
        for p in range(r.players):
            laid = [_(KIND_NAMES[k]) for k in KINDS if k in r.kinds[p]]
            marker = "\u25b6 " if p == g.mover() else "   "
            lines.append(marker + ngettext("{name}: {bugs} bug, {total} points", "{name}: {bugs} bugs, {total} points",
                                           r.hand_sizes[p]).format(name=g.told(p), bugs=r.hand_sizes[p],
                                                                   total=totals[p]))
            lines.append("     " + (_("laid: {kinds}").format(kinds=", ".join(laid)) if laid else _("laid: none yet"))
                         + " (" + _("{count} of 4").format(count=len(laid)) + ")")
        return "\n".join(lines)

    def _keys_text(self) -> str:
        return "\n".join([_("Click or 1-9, 0: pick a bug in your rack; Backspace: pick none"),
                          _("Enter: lay the picked bugs; X: discard the picked bug"),
                          _("Drag a bug onto a sequence's end or a PLYT; off an end: back to the rack"),
                          _("B: draw from the bag; P: take the discard; L: let the bidder have it"),
                          _("R: sort the rack; U: undo a lay or change; M: menu; F1: rules"),
                          _("V: look through the discard pile"),
                          _("A D W S, wheel, right drag: turn and zoom; H: hide these keys")])

    def say(self, text: str) -> None:
        """A refusal (or a word on what to do), under the status line until the next action."""
        self.verdict = text
        self._text(self.said, keep_together(text))
        if text:
            self.app.sounds.play("illegal")

    # ----- each frame -------------------------------------------------------------------------------------
    def _task(self, task):
        self.camera.follow_window()
        if self.turning is not None:
            self._turn_step()
        if self.overlay == "handoff":
            self.handoff.ready(HANDOFF_PAUSE)
            return task.cont
        if self.overlay is not None:
            return task.cont
        if self.thinking is not None:
            if not self.thinking["answer"]:
                return task.cont
            self._bot_answered()
        g = self.game
        clock = self.base.taskMgr.globalClock.getFrameTime()
        if clock < self.wait_until:
            return task.cont
        waiting = g.waiting()
        if waiting not in (MOVE, BIDS):
            self.finish()
            return task.done
        forced = g.forced()
        if forced is not None:
            self._made(forced, g.act(forced))
        elif waiting == BIDS:
            self._bids()
        else:
            self.bots_asked = set()
            mover = g.mover()
            if g.is_bot(mover):
                self._think(mover)
            elif len(g.humans) > 1 and mover != self.revealed:
                self.show_handoff(mover)
            elif mover != self.viewer:
                self.viewer = mover
        if self._shown_key() != self.shown:
            self.redraw()
        self.refresh()
        self._frame_in_free_room()
        self._trace_turn()
        return task.cont

    def _trace_turn(self) -> None:
        """A human's move is up: whose, which step, the rack's order (the e2e tests press its places' keys)."""
        key = (self.viewer, len(self.game.round.moves), self.game.round_number) if self._my_move() else None
        if key is not None and key != self.turn_key:
            self.app.trace("rb-turn", f"seat={self.viewer}", f"step={self.game.round.step}", f"moves={key[1]}",
                           "rack=" + ",".join(self.rack))
        self.turn_key = key

    def _pause(self) -> None:
        speed = self.app.settings.animation_speed
        self.wait_until = self.base.taskMgr.globalClock.getFrameTime() + (BOT_PAUSE / speed if speed else 0)

    def _think(self, seat: int, bidding: bool = False) -> None:
        """A bot's move (or bid, or None: no bid, the discard left to the bidder), worked out in the bots'
        processes, watched by a thread: the window draws on meanwhile."""
        _thread, answer = worker.in_background(self.game.bot_work(seat))
        self.thinking = {"seat": seat, "bidding": bidding, "moves": len(self.game.round.moves), "answer": answer}

    def _bot_answered(self) -> None:
        thinking, self.thinking = self.thinking, None
        g, result = self.game, thinking["answer"].get("result", thinking["answer"].get("error"))
        if thinking["moves"] != len(g.round.moves):
            return   # (an undo or a resume meanwhile: asked again)
        if isinstance(result, Exception):
            self.say(_("A bot failed: {error}").format(error=result))
            return
        if thinking["bidding"]:
            self.bots_asked.add(thinking["seat"])
            if result is not None:
                self._made(result, g.act(result))
            return
        if result is None:   # the discard left to the bidder
            result = {"player": g.round.winning_bidder(), "draw": "discard"}
        verdict = g.act(result)
        if not verdict:
            self.say(_("A bot's move was refused: {reason}").format(reason=verdict.text(_)))
            return
        self._made(result, verdict)
        self._pause()

    def _made(self, move: dict, verdict) -> bool:
        """After a proposal: a refusal said, a move traced and the table redrawn."""
        if not verdict:
            self.say(verdict.text(_))   # (the picks stay: the player mends them)
            return False
        self.verdict = ""
        self.app.trace("rb-move", json.dumps(move, separators=(",", ":")), f"round={self.game.round_number}",
                       f"moves={len(self.game.round.moves)}")
        if move.get("player") == self.viewer and "discard" in move:
            self.app.sounds.play("confirm")
        return True

    # ----- bids ------------------------------------------------------------------------------------------
    def _bids(self) -> None:
        g = self.game
        bidders = g.bidders()
        bots = [p for p in bidders if g.is_bot(p) and p not in self.bots_asked]
        if bots:
            self._think(bots[0], bidding=True)
            return
        humans = [p for p in bidders if not g.is_bot(p)]
        if humans:
            self.show_bids(humans)
        else:
            g.bids_done()

    def show_bids(self, humans: list[int]) -> None:
        """Who bids for the discard: each human who may, by name, and No bids. Between two or more humans it
        covers the table (no hand shown); a lone human sees their rack while they choose."""
        g, r = self.game, self.game.round
        self.overlay = "bids"
        hidden = len(g.humans) > 1
        if hidden:
            self.table.root.hide()
            self.hud_shown(False)
        frame = self.overlay_frame = DirectFrame(parent=self.root, frameColor=HANDOFF_BACK if hidden else PANEL,
                                                 frameSize=(-10, 10, -10, 10) if hidden else (-1.0, 1.0, -0.2, 0.62),
                                                 state="normal")
        discarder = g.told((r.turn - 1) % r.players)
        self.label(_("Who bids for the {bug}?").format(bug=bug_name(r.pile[-1])), (0, 0.45), scale=0.07, bold=True,
                   parent=frame, fg=ACCENT, wrap=HANDOFF_LINE / 0.07)
        self.label(_("{name} discarded it. {next} may take it first; if not, the first bidder after {next} gets it "
                     "and a bug from the bag.").format(name=discarder, next=g.told(r.turn)), (0, 0.33), scale=0.04,
                   parent=frame, fg=DIM, wrap=HANDOFF_LINE / 0.04)
        for i, p in enumerate(humans):
            self.button(_("{name} bids ({key})").format(name=g.told(p), key=i + 1), self.bid, (0, 0.18 - 0.12 * i),
                        width=1.2, scale=0.05, parent=frame, args=(p,))
            self.accept(str(i + 1), self.bid, [p])
        self.button(_("No bids (Enter)"), self.no_bids, (0, 0.18 - 0.12 * len(humans)), width=1.2, scale=0.05,
                    parent=frame, colour=GO)
        self.accept("enter", self.no_bids)
        self.app.trace("rb-bids", "humans=" + ",".join(map(str, humans)), f"bug={r.pile[-1]}")

    def bid(self, seat: int) -> None:
        if self.overlay != "bids":
            return
        self._made({"player": seat, "bid": True}, self.game.act({"player": seat, "bid": True}))
        self._close_overlay()

    def no_bids(self) -> None:
        if self.overlay != "bids":
            return
        self.game.bids_done()
        self.app.trace("rb-no-bids")
        self._close_overlay()

    # ----- hand-off --------------------------------------------------------------------------------------
    def show_handoff(self, seat: int) -> None:
        g = self.game
        self._close_overlay()
        self.overlay = "handoff"
        self.table.root.hide()
        self.hud_shown(False)
        name = g.told(seat)
        self.handoff = HandOff(self, name, _("RumBugz, round {round} of {rounds}").format(
            round=g.round_number, rounds=g.rounds), _("I am {name}: show my rack").format(name=name),
            lambda: self.hand_over(seat), self.to_menu, g.save_error,
            _("The rack stays hidden until {name} clicks or presses Enter.").format(name=name))
        self.overlay_frame = self.handoff.frame
        self.app.trace("handoff", f"seat={seat}", f"round={g.round_number}")

    def show_rules(self) -> None:
        """F1: RumBugz's rules over the table (the table's keys off until Back)."""
        from .rules import build_rules
        if self.overlay is not None:
            return
        self.overlay = "rules"
        self.ignoreAll()
        self.table.root.hide()   # (its labels showed through the page's backdrop)
        self.hud_shown(False)
        self.overlay_frame = self.root.attachNewNode("rules")
        build_rules(self, self.overlay_frame, self._close_overlay, game="rumbugz")

    def look_through_pile(self) -> None:
        """The discard pile, every bug in it, the top first (the table shows its top three). No secret: each bug
        was discarded in front of everyone. V, Esc, Enter or Back close it."""
        if self.overlay is not None:
            return
        pile = self.view().pile[::-1]
        self.overlay = "pile"
        self.ignoreAll()
        rows = max(1, -(-len(pile) // PILE_ROW))
        step = min(0.12, 0.8 / rows)   # a long pile: smaller cards, all of them in the panel
        bottom = 0.36 - rows * step - 0.08
        # opaque: the table's labels (drawn over the bugs) showed through a see-through panel
        frame = self.overlay_frame = DirectFrame(parent=self.root, frameColor=HANDOFF_BACK, state="normal",
                                                 frameSize=(-0.85, 0.85, bottom - 0.08, 0.62))
        title = (ngettext("The discard pile: {n} bug, the top first", "The discard pile: {n} bugs, the top first",
                          len(pile)).format(n=len(pile)) if pile else _("The discard pile is empty."))
        self.label(title, (0, 0.5), scale=0.05, parent=frame, fg=ACCENT, wrap=1.6 / 0.05)
        cards = frame.attachNewNode("pile")
        for i, bug in enumerate(pile):
            x = (i % PILE_ROW - (min(len(pile), PILE_ROW) - 1) / 2) * step
            z = 0.36 - (i // PILE_ROW) * step
            w, colour = step * 0.42, rgba(bug_colour(bug))
            number_card(cards, self.app.bold, "P" if bug == PLYT else bug, (x - w, x + w, z - step * 0.9, z),
                        step * 0.5, colour=colour, ink=(*ink_colour(np.array(colour[:3])), 1))
        self.button(_("Back (Esc)"), self._close_overlay, (0, bottom), width=0.6, scale=0.042, parent=frame)
        for key in ("v", "escape", "enter"):
            self.accept(key, self._close_overlay)
        self.app.trace("rb-pile", ",".join(pile))

    def hand_over(self, seat: int) -> None:
        if self.overlay != "handoff":
            return
        self.revealed = self.viewer = seat
        self._close_overlay()

    def _close_overlay(self) -> None:
        if self.overlay is not None:
            take_off(self.overlay_frame)
            self.overlay = self.overlay_frame = None
            self.table.root.show()
            self.hud_shown(True)
            self.ignoreAll()
            self.build_keys_again()

    def build_keys_again(self) -> None:
        """The table's keys back (an overlay took Enter and the digits)."""
        if self.root is not None:
            build_anew([*self.anchors.values()], self.build)

    def hud_shown(self, shown: bool) -> None:
        for node in self.anchors.values():
            node.show() if shown else node.hide()

    # ----- the player's actions ----------------------------------------------------------------------------
    def _act(self, move: dict) -> bool:
        if not self._my_move():
            return False
        made = self._made(move, self.game.act(move))
        if made:
            self.picked = []
        return made

    def draw_bag(self) -> None:
        self._act({"player": self.viewer, "draw": "bag"})

    def take_discard(self) -> None:
        self._act({"player": self.viewer, "draw": "discard"})

    def let_bidder(self) -> None:
        r = self.game.round
        if self._my_move() and r.step == DRAW and r.bids:
            self._act({"player": r.winning_bidder(), "draw": "discard"})

    def picked_bugs(self) -> list[str]:
        return [self.rack[i] for i in sorted(self.picked)]

    def lay(self) -> None:
        if not self._my_move() or self.game.round.step != PLAY:
            return
        bugs = self.picked_bugs()
        if not bugs:
            self.say(_("Pick the bugs of a sequence in your rack first (click them, or 1-9 and 0)."))
            return
        ways = sequences_of(bugs)
        if not ways:   # the rules say what is wrong with them
            numbers = sorted((b for b in bugs if b != PLYT), key=int)
            self._act({"player": self.viewer, "lay": numbers + [PLYT] * (len(bugs) - len(numbers))})
            return
        legal = [w for w in ways if self.game.check({"player": self.viewer, "lay": w})]
        if len(legal) == 1:
            self._act({"player": self.viewer, "lay": legal[0]})
        elif not legal:
            self._act({"player": self.viewer, "lay": ways[0]})   # refused: its sentence said
        else:
            self.choose_plyt(legal)

    def choose_plyt(self, ways: list[list[str]]) -> None:
        """A PLYT whose number is open: the numbers it can stand for, each as a button (1, 2, ... too)."""
        self.overlay = "choose"
        frame = self.overlay_frame = DirectFrame(parent=self.root, frameColor=PANEL, state="normal",
                                                 frameSize=(-0.9, 0.9, 0.42 - 0.11 * len(ways) - 0.2, 0.62))
        self.label(_("Which number does the PLYT stand for?"), (0, 0.5), scale=0.05, parent=frame, fg=ACCENT,
                   wrap=1.7 / 0.05)
        for i, way in enumerate(ways):
            numbers = ", ".join(map(str, plyt_numbers(way)))
            run = " ".join(t.replace(PLYT, "P") if t.startswith(PLYT) else t for t in way)
            self.button(_("PLYT = {numbers}: {run} ({key})").format(numbers=numbers, run=run, key=i + 1),
                        self.chosen, (0, 0.38 - 0.11 * i), width=1.6, scale=0.042, parent=frame, args=(way,))
            self.accept(str(i + 1), self.chosen, [way])
        self.button(_("Back (Esc)"), self._close_overlay, (0, 0.38 - 0.11 * len(ways)), width=0.6, scale=0.042,
                    parent=frame)
        self.accept("escape", self._close_overlay)
        self.app.trace("rb-choose", ";".join(",".join(w) for w in ways))

    def chosen(self, way: list[str]) -> None:
        self._close_overlay()
        self._act({"player": self.viewer, "lay": way})

    def discard(self) -> None:
        if not self._my_move() or self.game.round.step != PLAY:
            return
        bugs = self.picked_bugs()
        if len(bugs) != 1:
            self.say(_("Pick one bug to discard (click it, or 1-9 and 0), then X."))
            return
        self._act({"player": self.viewer, "discard": bugs[0]})

    def change(self, sequence: int, to: list[str] | None) -> None:
        if to is None:
            self.say(_("That bug can't go onto this sequence."))
            return
        self._act({"player": self.viewer, "change": sequence, "to": to})

    def undo(self) -> None:
        if self.overlay is None and self.game.undo(self.viewer):
            self.verdict = ""
            self.app.trace("rb-undo", f"moves={len(self.game.round.moves)}")

    def sort(self) -> None:
        if self.overlay is not None:
            return
        self.sort_by = BY_KIND if self.sort_by == BY_NUMBER else BY_NUMBER
        view = self.view()
        self.rack, self.picked = rack_order(view.hand(self.viewer), set(KINDS) - view.kinds[self.viewer],
                                            self.sort_by), []

    def pick(self, place: int) -> None:
        if self.overlay is not None or not 0 <= place < len(self.rack):
            return
        self.picked = [p for p in self.picked if p != place] if place in self.picked else self.picked + [place]
        self.verdict = ""

    def pick_key(self, place: int) -> None:
        if self.overlay is None:
            self.pick(place)

    def unpick(self) -> None:
        self.picked = []

    def _keys_open(self) -> bool:
        """The key help shown: as H last left it, else until the player has made a move this round (it lies
        over the rack's left end in a wide window)."""
        if self.keys_shown is not None:
            return self.keys_shown
        return not any(m.get("player") == self.viewer for m in self.game.round.moves)

    def toggle_keys(self) -> None:
        self.keys_shown = not self._keys_open()

    def escape(self) -> None:
        if self.picked:
            self.unpick()
        else:
            self.to_menu()

    # ----- the pointer on the table ---------------------------------------------------------------------------
    def _screen(self, point) -> tuple[float, float] | None:
        world = self.base.render.getRelativePoint(self.table.root, point)
        spot = self.camera.screen_point(world)
        if spot is None:
            return None
        return spot[0] * self.base.getAspectRatio(), spot[1]   # (aspect2d units: distances the same both ways)

    def thing_at(self, mx: float, my: float):
        """What lies under a point of the window (-1..1 each way): a Placed bug, "bag" or "pile", or None."""
        at = (mx * self.base.getAspectRatio(), my)
        best, reach = None, PICK_REACH * 1.6
        spots = [(p, self._screen(p.top)) for p in self.table.placed if p.place in ("rack", "table")]
        spots += [("bag", self._screen(Point3(BAG_X, MIDDLE_Y, 0.4))), ("pile", self._screen(Point3(PILE_X, MIDDLE_Y,
                                                                                                     0.1)))]
        for thing, spot in spots:
            if spot is None:
                continue
            d = ((spot[0] - at[0]) ** 2 + (spot[1] - at[1]) ** 2) ** 0.5
            limit = PICK_REACH * (2.0 if isinstance(thing, str) else 1.0)
            if d < min(reach, limit):
                best, reach = thing, d
        return best

    def rack_spot(self, place: int) -> tuple[float, float] | None:
        """Where a bug of the rack shows in the window (-1..1 each way): for tests and the pointer."""
        for p in self.table.placed:
            if p.place == "rack" and p.index == place:
                spot = self._screen(p.top)
                return None if spot is None else (spot[0] / self.base.getAspectRatio(), spot[1])
        return None

    def _pressed(self) -> None:
        m = pointer_in(self.base)
        if m is not None and not over_gui(self.base):
            self.press_at(*m)

    def _released(self) -> None:
        m = pointer_in(self.base)
        if m is not None:
            self.release_at(*m)

    def press_at(self, mx: float, my: float) -> None:
        self.press = {"at": (mx, my), "thing": self.thing_at(mx, my)}

    def release_at(self, mx: float, my: float) -> None:
        """A click picks (a rack bug), draws (the bag, the pile; the pile is looked through outside one's draw);
        a drag from the rack drops a bug onto a sequence or the pile, from a sequence's end back into the rack."""
        press, self.press = self.press, None
        if press is None or self.overlay is not None:
            return
        thing, (px, py) = press["thing"], press["at"]
        dragged = abs(mx - px) + abs(my - py) > DRAG_START
        if not dragged:
            if thing == "bag":
                self.draw_bag()
            elif thing == "pile":   # drawn from at one's draw; else looked through
                self.take_discard() if self._my_move() and self.game.round.step == DRAW else self.look_through_pile()
            elif thing is not None and thing.place == "rack":
                self.pick(thing.index)
            return
        target = self.thing_at(mx, my)
        table = self.view().table
        if thing is not None and not isinstance(thing, str) and thing.place == "rack":
            bug = self.rack[thing.index]
            if target == "pile":
                self.picked = [thing.index]
                self.discard()
            elif target is not None and not isinstance(target, str) and target.place == "table":
                self.change(target.sequence, dropped_on(table[target.sequence], target.index, bug))
        elif thing is not None and not isinstance(thing, str) and thing.place == "table":
            rack_y = self._screen(Point3(0, RACK_Y, 0.5))
            if rack_y is not None and my < rack_y[1] + 0.12:
                self.change(thing.sequence, taken_off(table[thing.sequence], thing.index))

    def _turn_start(self) -> None:
        self.turning = pointer_in(self.base)

    def _turn_end(self) -> None:
        self.turning = None

    def _turn_step(self) -> None:
        m = pointer_in(self.base)
        if m is not None and self.turning is not None:
            self.camera.turn_by_drag(self.turning, m, 180 * self.app.settings.camera_sensitivity)
            self.turning = m

    # ----- leaving --------------------------------------------------------------------------------------------
    def to_menu(self) -> None:
        self.app.menu()   # the game is saved after every move: Continue comes back to it

    def finish(self) -> None:
        from .rumbugz_results import RumbugzResultsScreen
        self.app.goto(RumbugzResultsScreen, game=self.game, context=self.context)
