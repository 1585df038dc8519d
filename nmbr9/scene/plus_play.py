"""NMBR 9 ++ at the table: a PlayScreen and a SessionScreen that know the modules and variants.

`PlusPlayScreen` holds one of: the turn's tile (`tile`), a gap filler
(`filler`), the reserved tile (`reserved`), or a tile being relocated
(`move`, after `pick` chose it on the table). Powers are armed with one
click before placing (`toggle_power`); Flip turns the held tile black side
up; Reserve armed puts the turn's tile out of hand, set aside on confirm
(`set_aside`). Every candidate is judged by the rules (`check`, `check_relocate`) and
committed only on confirm, exactly like the classic tile. "2 of 3" asks
build or reject first (`decide`), "Level to Level" which shown tile
(`choose`); `end_turn` ends a turn that still offers optional actions.

`PlusSessionScreen` is the classic session with this play screen, the
++ panels (plus_hud.py, where the reserved tile waits on its button), and a
note when a "Level to Level" round was skipped or a reserved tile lost. game_app uses it for every
game whose ruleset is not the classic one.
"""
from __future__ import annotations

import functools

from panda3d.core import Point3

from ..i18n import _, ngettext
from ..rules.board import Placement, tile_points
from ..rules.game import (BREAKING_RULES, CHOOSE, DECIDE, DONE, EXTRAS, FLIP, GAP_FILLERS, LEVEL_TO_LEVEL, PLACE_TILE,
                          PLACING_POWERS, POWERS, RELOCATE, RESERVE, TWO_OF_THREE, Ruleset)
from .camera import level_height
from .play import HOVER_HELD, PlayScreen, fault_square, gain_words, verdict_words
from .plus_hud import PlusHud, power_name
from .hud import TOP_ROW, measure
from .screens.session import SessionScreen
from .screens.widgets import ACCENT, WARN, box, overlap

TILE, FILLER, RESERVED, PICK, MOVE = "tile", "filler", "reserved", "pick", "move"
CHOSEN = (1.0, 0.8, 0.25, 0.7)   # Relocate: the movable tile the arrow keys chose


def is_plus(ruleset: Ruleset) -> bool:
    """True for a game with any NMBR 9 ++ variant or module (the classic window does the rest)."""
    return ruleset != Ruleset()


class PlusPlayScreen(PlayScreen):
    def __init__(self, base, game, seat: int, table, camera, hud, on_commit=None, plus_hud=None, on_action=None):
        self.g = getattr(game, "game", game)      # the Game under a Match
        self.mode, self.held_piece = TILE, None
        self.powers: set[str] = set()             # placing powers armed for the next tile, or Reserve
        self.moving = None                        # (x, y, level) of the tile being relocated
        self.chosen = 0                           # Relocate: which movable tile the arrow keys chose
        self.lifted = None                        # the board without it
        self.message = ""                         # the last refusal of an action, as a sentence
        self.idle_key = None
        self.plus_hud = plus_hud
        self.on_action = on_action                # told of every ++ action done (the session traces it)
        hud.collapse_legend()   # the ++ panels need the room; H brings the controls back (first: the
        super().__init__(base, game, seat, table, camera, hud, on_commit)   # actions keep clear of its hint)

    # ----- state --------------------------------------------------------------
    @property
    def piece(self):
        return self.held_piece

    def options(self):
        return self.g.options(self.seat)

    @property
    def flipped(self) -> bool:
        if self.mode == MOVE:
            return self.board.tiles[self.board.tile_at(*self.moving)].flipped
        return FLIP in self.powers and self.mode == TILE   # (no power changes the reserved tile)

    def placement(self) -> Placement:
        return Placement(self.piece, self.rotation, self.x, self.y, flipped=self.flipped)

    def surface(self):
        """The board the held piece lands on (without the tile being relocated)."""
        return self.lifted if self.mode == MOVE else self.board

    def placing_powers(self) -> tuple[str, ...]:
        return tuple(sorted(self.powers & set(PLACING_POWERS))) if self.mode == TILE else ()

    @property
    def setting_aside(self) -> bool:
        """Reserve armed: the turn's tile is out of hand until Enter sets it aside (Reserve again, Backspace or
        Esc: back in hand, the marker unspent)."""
        return RESERVE in self.powers

    def start_turn(self) -> None:
        """Back to the turn's default: its tile in hand when it is to be placed, else nothing held.

        The session calls this every frame while nothing is held; then it only redraws when
        the game moved on (so a Relocate being picked, or an armed power, stays)."""
        o = self.options()
        key = (len(self.g.moves), self.g.step, o.step, o.marker)
        if self.ghost is None and not self.settling and key == self.idle_key and \
                (self.mode == PICK or self.setting_aside or o.step != PLACE_TILE):
            return
        self.idle_key = key
        if self.mode == MOVE:
            self.table.show(self.board)
        self.mode, self.moving, self.lifted = TILE, None, None
        self.powers &= set(o.powers_now)
        self._hold(o.digit if o.step == PLACE_TILE and not self.setting_aside else None)

    def _hold(self, piece, at=None) -> None:
        """Take `piece` in hand (None: nothing), next to the build or at the placement `at`."""
        self._clear_marks()
        if self.ghost is not None:
            self.ghost.destroy()
            self.ghost = None
        self.held_piece = piece
        self.settling = False
        if piece is not None:
            self.ghost = self.table.ghost(piece)
            self.rotation, self.held = 0, True
            self.x, self.y = self._start_square()
            if at is not None:
                self.rotation, self.x, self.y = at.rotation, at.x, at.y
            self.drawn_square, self.slide = (self.x, self.y), (0.0, 0.0)   # a new tile in hand: no glide
            self.dealt = (self.rotation, self.x, self.y)
            self.level = self.surface().resting_level(piece, self.rotation, self.x, self.y, self.flipped)
            self.z = level_height(self.level) + HOVER_HELD + 0.6
        self.update()

    # ----- what the player sees -------------------------------------------------
    def redraw_hud(self) -> None:
        self.update()   # with or without a tile in hand

    def update(self) -> None:
        o = self.options()
        self._update_hud(o)
        self._show_plus(o)   # after the verdict: the actions' row keeps clear of Confirm as it now stands

    def _update_hud(self, o) -> None:
        rounds = self.g.rounds
        self.hud.show_round(self.g.round, rounds if rounds is not None else 0,
                            o.digit if o.digit is not None else self.g.card, self.g.supply())
        if rounds is None:   # "Level to Level": the number of rounds depends on play; its last lays out the deck's end
            self.hud.show_round_text((_("Round {round}: the last") if self.g.is_last_step() else
                                      _("Round {round}")).format(round=self.g.round))
        if self.setting_aside and self.ghost is None:   # Confirm (green) sets it aside
            self.verdict = None
            self.hud.show_verdict(True, _("Reserve: your {digit} is set aside once you confirm (Enter); "
                                          "Backspace takes it back in hand.").format(digit=o.digit))
            # a click on the score sets it aside too: it says so, and keeps its size (the names under it stay)
            self.hud.show_score(self.board.score_by_level(), self.board.score(), 0)
            return
        if self.piece is None or self.ghost is None:
            self.verdict = None
            self.hud.show_verdict(False, "")
            self.hud.show_score(self.board.score_by_level(), self.board.score(), None)
            return
        p = self.placement()
        self.level = self.surface().resting_level(p.piece, p.rotation, p.x, p.y, p.flipped)
        if self.mode == MOVE:
            self.verdict = self.game.check_relocate(self.seat, self.moving, p)
        else:
            self.verdict = self.game.check(self.seat, p, self.placing_powers(), self.mode == RESERVED)
        ok = self.verdict.ok
        # the tile glides from where it was drawn to its new square, as the classic one (play.py)
        (dx, dy), self.drawn_square = self.drawn_square, (self.x, self.y)
        self.slide = (self.slide[0] + dx - self.x, self.slide[1] + dy - self.y)
        self.ghost.show(p, self.level, self.z - level_height(self.level), ok, self.slide, fault_square(self.verdict))
        gain = None
        if ok:
            level = self.verdict.level
            text = _("Fits on level {level}").format(level=level)
            gain = tile_points(p.at(level))
            if gain:
                text += "  " + gain_words(gain)
            elif p.flipped:
                text += "  " + _("(black side up: scores 0)")
            cap = o.max_level if self.mode == TILE else None
            if self.mode == RESERVED and self.g.players[self.seat].reserve is not None:
                cap = self.g.players[self.seat].reserve.max_level
            if cap == 0:   # ("may go up to level 0" read as if it might go higher)
                text += "\n" + _("The tile from level marker 0 stays on level 0 (the table).")
            elif cap is not None:
                text += "\n" + _("The tile from level marker {marker} may go up to level {marker}.").format(
                    marker=cap)
            loss = self.g.reserve_loss(self.seat, level)   # said before Confirm, not only after
            if loss is not None:
                text += "\n" + loss.text(_)
            idle = self.unneeded_powers(p)   # armed, but this spot is legal without them: a marker for nothing
            used = [power_name(q) for q in self.placing_powers() if q not in idle]
            if self.mode == MOVE:
                used = [power_name(RELOCATE)]
            if used:
                text += "\n" + _("Using: {powers}").format(powers=", ".join(used))
            if idle:
                text += "\n" + ngettext("Not needed here: {powers} (its marker is spent anyway)",
                                         "Not needed here: {powers} (their markers are spent anyway)",
                                         len(idle)).format(powers=", ".join(power_name(q) for q in idle))
        else:
            text = verdict_words(self.verdict, p.piece)
        self.hud.show_verdict(ok, text)
        self.hud.show_score(self.board.score_by_level(), self.board.score(), gain, in_hand=True)

    def unneeded_powers(self, p: Placement) -> list[str]:
        """The armed powers that only relax a rule (not Flip, which turns the tile) this spot keeps anyway."""
        powers = self.placing_powers()
        return [q for q in powers if q != FLIP and
                self.game.check(self.seat, p, tuple(x for x in powers if x != q), self.mode == RESERVED)]

    def _show_plus(self, o) -> None:
        if self.plus_hud is not None:
            self.plus_hud.show(self.g, self.seat, o, {"powers": self.powers, "mode": self.mode,
                                                    "piece": self.held_piece, "message": self.message,
                                                    "note": getattr(self, "note", None)})

    # ----- the player's actions -------------------------------------------------------
    def act(self, name: str, *args) -> None:
        """A ++ action, from its panel button or its key, then told: clicks and keys are one path."""
        getattr(self, name)(*args)
        if self.on_action is not None:
            self.on_action(name, *args)

    def toggle_power(self, power: str) -> None:
        """One click on a power: arm or drop it (Reserve armed: the tile out of hand); Relocate picks a tile."""
        if self.settling:
            return
        self.message = ""
        o, was_aside = self.options(), self.setting_aside
        if power == RELOCATE:
            if self.mode in (PICK, MOVE):
                self.idle_key = None
                self.start_turn()
                return
            if RELOCATE not in o.powers_now:
                self._say(self.g.power_verdict(self.seat, RELOCATE))
                return
            self.powers.discard(RESERVE)   # the turn's tile comes back to hand once a tile is moved
            self._hold(None)
            self.mode, self.chosen = PICK, 0
            self.message = _("Relocate: click one of your tiles with nothing on it, or choose it with the "
                             "arrow keys and Enter.")
            self._mark_movable()
            self.update()
            return
        if power in self.powers:
            self.powers.discard(power)
        elif power not in o.powers_now:   # only a key reaches here: its button is off
            self._say(self.g.power_verdict(self.seat, power))
            return
        elif power == RESERVE:   # the powers armed for the tile go with it: they change a tile laid now
            self.powers = {RESERVE}
        elif power in PLACING_POWERS:
            if self.setting_aside:   # a power for the tile: it comes back in hand to be laid
                self.powers.clear()
            if len(self.powers) < o.markers_left:
                self.powers.add(power)
            else:   # each power takes a marker: refused, rather than dropping one armed on purpose
                armed = ", ".join(power_name(q) for q in sorted(self.powers))
                self.message = ngettext("You have {count} marker left: turn off {powers} first.",
                                        "You have {count} markers left: turn off one of {powers} first.",
                                        o.markers_left).format(count=o.markers_left, powers=armed)
        # the tile out of hand, or back in it; a power armed for the turn's tile brings it back instead of the
        # reserved tile, which no power changes
        if self.setting_aside != was_aside or (self.mode == RESERVED and power in self.powers):
            self.idle_key = None
            self.start_turn()
            return
        self.update()   # Flip: the held tile turns over where it is

    def set_aside(self) -> None:
        """Reserve confirmed: the turn's tile set aside, its marker spent."""
        v = self.game.reserve(self.seat)
        self.powers.discard(RESERVE)
        if not v:
            self._say(v)
            return
        self.idle_key = None
        self.start_turn()

    def _say(self, verdict) -> None:
        """Say why an action can't be done now (its key pressed while its button is off): the rules' words."""
        self.message = verdict.text(_)
        self.update()

    def hold_filler(self, piece: str) -> None:
        """A gap filler in hand instead of the tile (again: back to the tile)."""
        if self.settling:
            return
        self.message = ""
        if self.mode == FILLER and self.piece == piece:
            self.idle_key = None
            self.start_turn()
            return
        if piece not in self.options().fillers:
            return
        if self.mode == MOVE:
            self.table.show(self.board)
        self.mode, self.moving, self.lifted = FILLER, None, None
        self._hold(piece)

    def hold_reserved(self) -> None:
        """The reserved tile in hand (again: back to the turn's tile)."""
        if self.settling:
            return
        self.message = ""
        o = self.options()
        if self.mode == RESERVED:
            self.idle_key = None
            self.start_turn()
            return
        if not o.reserve_ready:   # V (the button is off): the rules say why
            self._say(self.g.check(self.seat, Placement(o.reserved or 0, 0, 0, 0), reserved=True))
            return
        if self.mode == MOVE:
            self.table.show(self.board)
        self.powers.clear()   # they were for the turn's tile: none changes the reserved one (their markers unspent)
        self.mode, self.moving, self.lifted = RESERVED, None, None
        self._hold(o.reserved)

    def _mark_movable(self) -> None:
        """Relocate: a green wash on the top of every tile that may be moved (gone once one is picked); the
        one the arrow keys chose (`chosen`, Enter takes it up) in gold."""
        from panda3d.core import TransparencyAttrib
        from .table import LEGAL, _quads
        self._clear_marks()
        rects = []
        movable = self.g.movable_tiles(self.seat)
        for i, at in enumerate(movable):
            tile = self.board.tiles[self.board.tile_at(*at)]
            colour = CHOSEN if i == self.chosen % max(len(movable), 1) else LEGAL
            rects += [(sx, -sy - 1, sx + 1, -sy, tile.level, colour) for sx, sy in tile.squares()]
        self.marks = self.table.root.attachNewNode("movable")
        for level in {r[4] for r in rects}:
            for colour in {r[5] for r in rects if r[4] == level}:
                self.marks.attachNewNode(_quads("movable", [r[:4] for r in rects if r[4:] == (level, colour)],
                                                level_height(level + 1) + 0.01, lambda x, y, c=colour: c))
        self.marks.setTransparency(TransparencyAttrib.M_alpha)
        self.marks.setLightOff(1)
        self.marks.setDepthWrite(False)
        self.marks.setBin("fixed", 2)

    def _clear_marks(self) -> None:
        if getattr(self, "marks", None) is not None:
            self.marks.removeNode()
            self.marks = None

    def pick(self, x: int, y: int, level: int) -> bool:
        """Relocate: take up the tile with a square at (x, y, level); False (and why) if it can't move."""
        if self.mode != PICK:
            return False
        index = self.board.tile_at(x, y, level)
        if not self.g.relocation_targets(self.seat, (x, y, level)):
            v = self.game.check_relocate(self.seat, (x, y, level), Placement(
                self.board.tiles[index].piece if index >= 0 else 0, 0, x, y))
            self.message = v.text(_) if not v else _("This tile has nowhere else to go.")
            self.update()
            return False
        tile = self.board.tiles[index]
        self.mode, self.moving, self.message = MOVE, (x, y, level), ""
        self.lifted = self.board.lifted(index)
        shown = self.board.lifted(index)
        shown.tiles = [t for i, t in enumerate(shown.tiles) if i != index]   # draw it without the tile
        self.table.show(shown)
        self._hold(tile.piece, tile)
        return True

    def move(self, dx: int, dy: int) -> None:
        """Relocate picking its tile: the arrow keys choose among the movable tiles (right and down the next
        built, left and up the one before), so a player without a mouse can relocate too."""
        if self.mode != PICK:
            super().move(dx, dy)
            return
        self.chosen += 1 if dx + dy > 0 else -1
        self._mark_movable()

    def pick_at(self, mx: float, my: float) -> bool:
        """Relocate: the topmost tile under the screen point."""
        for level in range(self.board.top_level(), -1, -1):
            square = self.camera.square_at(mx, my, level)
            if square is not None and self.board.tile_at(*square, level) >= 0:
                return self.pick(*square, level)
        return False

    def decide(self, build: bool) -> None:
        """"2 of 3": build this card (then place it) or lay the reject marker on it."""
        v = self.game.decide(self.seat, build)
        self.message = "" if v else v.text(_)
        self.idle_key = None
        self.start_turn()

    def choose(self, marker: int) -> None:
        """"Level to Level": take the tile shown under `marker` (then place it)."""
        v = self.game.choose(self.seat, marker)
        self.message = "" if v else v.text(_)
        self.idle_key = None
        self.start_turn()

    def confirm(self) -> bool:
        """Enter lays the tile in hand; with nothing in hand it ends a turn that only offers
        optional moves, so a player who declines them every round needs no second key. While Relocate
        picks its tile, Enter takes up the one chosen with the arrow keys (rather than end the turn)."""
        if self.mode == PICK:
            movable = self.g.movable_tiles(self.seat)
            return bool(movable) and self.pick(*movable[self.chosen % len(movable)])
        if self.setting_aside and self.ghost is None and not self.settling:   # (not a gap filler in hand)
            self.act("set_aside")
            return True
        if self.ghost is None and not self.settling and self.options().can_end:
            self.act("end_turn")
            return True
        return super().confirm()

    def end_turn(self) -> None:
        if self.settling:
            return
        v = self.game.end_turn(self.seat)
        self.message = "" if v else v.text(_)
        if v:
            if self.mode == MOVE:
                self.table.show(self.board)
            self._hold(None)
            self.mode = TILE
        else:
            self.update()

    # ----- committing -----------------------------------------------------------
    def _commit(self) -> None:
        p = self.placement()
        if self.mode == MOVE:
            v = self.game.relocate(self.seat, self.moving, p)
        else:
            v = self.game.play(self.seat, p, self.placing_powers(), self.mode == RESERVED)
        self.settling = False
        if not v:
            self.message = v.text(_)
            self.update()
            return
        self.ghost.destroy()
        self.ghost = None
        if self.mode in (TILE, RESERVED, MOVE):
            self.powers.clear()
        self.mode, self.moving, self.lifted, self.message = TILE, None, None, ""
        self.table.show(self.board)
        self.frame_camera(glide=True)
        if self.on_commit:
            self.on_commit(self.g.moves[-1].placement or p)
        self.idle_key = None
        if self.seat in self.g.waiting():
            self.start_turn()
        else:
            self.held_piece = None
            self.update()

    def _can_move(self) -> bool:
        return self.ghost is not None and not self.settling and self.piece is not None

    # ----- pointer ------------------------------------------------------------------
    def press(self, button: str, mx: float, my: float, now: float | None = None) -> None:
        if button == "mouse1" and self.mode == PICK and not self.view_only:
            self.pick_at(mx, my)
            return
        super().press(button, mx, my, now)

    def bind(self, view_only: bool = False) -> None:
        """The classic keys, plus B / R (build or reject), 0-4 (take the tile under that marker), X or Enter
        (end turn), Ctrl+1-6 (the power numbered so in the panel), G (a gap filler in hand, the next one,
        back to the tile), V (the reserved tile in hand)."""
        super().bind(view_only)
        if view_only:
            return
        keys = {"b": lambda: self._decide_key(True), "r": lambda: self._decide_key(False), "x": self._end_key,
                "g": self._filler_key, "v": self._reserved_key}
        keys.update({str(k): (lambda k=k: self._choose_key(k)) for k in range(5)})
        keys.update({f"control-{k + 1}": (lambda k=k: self._power_key(k)) for k in range(len(POWERS))})
        for key, fn in keys.items():
            self.base.accept(key, fn)
        self.events += list(keys)
        if self.mode == PICK:   # back from another board while picking
            self._mark_movable()

    def _choose_key(self, marker: int) -> None:
        """0-4 do what the shown tiles' buttons do. Once a tile is taken (its buttons gone) another marker's key
        says why it can't be taken, as the rules word it: it did nothing."""
        o = self.options()
        if o.step == CHOOSE:
            self.act("choose", marker)
        elif self.g.variant == LEVEL_TO_LEVEL and not self.settling and not (o.step == PLACE_TILE and
                                                                           marker == o.marker):
            self._say(self.g.choose(self.seat, marker))   # refused: the tile taken is this turn's, or dealt with

    def _decide_key(self, build: bool) -> None:
        """B and R do what their buttons do: nothing while the button is off (the question says why). Once
        the card is decided (the question gone) they say so: they did nothing."""
        o = self.options()
        if o.step == DECIDE and (o.can_build if build else o.can_reject):
            self.act("decide", build)
        elif self.g.variant == TWO_OF_THREE and o.step in (PLACE_TILE, EXTRAS, DONE) and not self.settling and \
                self.g.players[self.seat].decisions != [True, True, False]:   # (a forced reject: the note says it)
            self._say(self.g.decide(self.seat, build))    # refused: decided already, or the turn over

    def _power_key(self, index: int) -> None:
        """Ctrl+number: the power so numbered in the panel; a number beyond them says so (with two powers drawn,
        Ctrl+5 did nothing at all)."""
        powers = self.options().powers
        if index < len(powers):
            self.act("toggle_power", powers[index])
        elif powers and not self.settling:
            self.message = ngettext("There is no power {number}: the panel numbers the {count} power in play.",
                                    "There is no power {number}: the panel numbers the {count} powers in play.",
                                    len(powers)).format(number=index + 1, count=len(powers))
            self.update()

    def _filler_key(self) -> None:
        """G: the first gap filler left in hand; again, the next one; after the last, the tile again."""
        fillers = list(self.options().fillers)
        if self.mode == FILLER and self.piece in fillers and fillers.index(self.piece) + 1 < len(fillers):
            self.act("hold_filler", fillers[fillers.index(self.piece) + 1])
        elif self.mode == FILLER:
            self.act("hold_filler", self.piece)   # the same one again: back to the tile
        elif fillers:
            self.act("hold_filler", fillers[0])
        elif not self.settling:   # none left (its buttons are gone): the rules say so
            self._say(self.g.check(self.seat, Placement("F1", 0, 0, 0)))

    def _reserved_key(self) -> None:
        """V does what its button does; while the button is off, hold_reserved says why."""
        if self.options().reserve_ready:
            self.act("hold_reserved")
        else:
            self.hold_reserved()

    def _end_key(self) -> None:
        """X does what End turn does; without that button (the turn's tile still to deal with) it says why."""
        if self.options().can_end:
            self.act("end_turn")
        elif not self.settling:
            self._say(self.g.end_turn(self.seat))   # refused: only a turn with its tile dealt with ends

    def unbind(self) -> None:
        super().unbind()
        self._clear_marks()


class PlusSessionScreen(SessionScreen):
    """The session for NMBR 9 ++ games: the ++ play screen and panels on top of the classic table."""
    fitted_key = None   # the panels as they were when the table was last framed clear of them

    def enter(self) -> None:
        super().enter()
        self.plus_hud = PlusHud(self.base, self.hud, {
            "power": self._on_ps("toggle_power"), "filler": self._on_ps("hold_filler"),
            "reserved": self._on_ps("hold_reserved"), "end_turn": self._on_ps("end_turn"),
            "decide": self._on_ps("decide"), "choose": self._on_ps("choose")})
        self.base.taskMgr.add(self._plus_task, "plus-session", sort=1)

    def _fit_keys(self) -> None:
        """In a small window the key help hides rather than run under "Level to Level"'s piles, the question
        (which tile to take; build or reject) or the notes in the bottom middle (the tile dealt with: in
        German at 640x480 no width of the key help clears it), or over a button (the actions in a row of their
        own, Hint: at 640x480 in Polish it lay over them), or push the verdict under it onto the Breaking Rules
        panel: there is no room for all of them."""
        keys, hud = self.keys, self.plus_hud
        widgets = (hud.piles_frame, hud.question, *hud.notes, *hud.buttons.values(), self.hint_button,
                   self.menu_button)
        shown = not self._verdict_under_keys_reaches_powers() and not any(
            overlap(box(keys, self.base.aspect2d), box(w, self.base.aspect2d))
            for w in widgets if w is not None and not w.isEmpty() and not w.isHidden())
        if shown == keys.isHidden():
            keys.show() if shown else keys.hide()
            if self.hud.verdict["text"]:
                self.panel_key = None   # the verdict laid out again under what stays at the top left

    def _verdict_under_keys_reaches_powers(self) -> bool:
        """Whether the verdict, standing under the key help (a small window: under the top row), would reach
        down onto the Breaking Rules panel ("2 of 3" at 640x480 in German, Spanish and Polish, a card built),
        or the status under it would (a hint's two lines, in English too, stood behind the panel):
        there is no room for both, and the verdict says what the tile in hand does."""
        hud, verdict, powers = self.hud, self.hud.verdict, self.plus_hud.powers_frame
        if powers is None or verdict.isHidden() or not verdict["text"] or hud.middle()[0] == TOP_ROW:
            return False
        a2d, k = self.base.aspect2d, hud.anchors["a2dTopLeft"].getScale().z
        low = box(self.keys, a2d)[2] + (-0.08 + verdict.guiItem.getFrame()[2] * verdict.getScale().z) * k
        if self.status["text"] and not self.status_beside:   # the status under it too (a hint: two lines)
            low += (-0.08 + self.status.guiItem.getFrame()[2] * self.status.getScale().z) * k
        return low < box(powers, a2d)[3] + 0.01

    def _pair_buttons(self) -> None:
        """Hint and Menu side by side where "Level to Level"'s piles stand above them (a narrow window): the
        piles, and the notes above them, stand a button lower, and the board above gets that much more room
        (at 640x480 it had a patch beside the round's card). Halves of the column where their words fit, else
        each as wide as its words, up to the width of Confirm under them ("Podpowiedź (I)" in Polish: one above the
        other they left the board 44% of the height, 52% now); not where a word would not fit even so, nor with
        Take back above them (practice)."""
        hud, gap, scale = self.plus_hud, 0.02, 0.04
        buttons = (self.hint_button, self.menu_button)
        need = [measure(self.app.font, b["text"], scale)[0] + 0.8 * scale for b in buttons]
        room = max(0.5, measure(self.app.bold, _("Confirm (Enter)"), 0.055)[0] + 0.08)   # (Confirm's pad: 0.04)
        paired = bool(hud.piles_lift) and self.match.game.variant == LEVEL_TO_LEVEL and not self.match.practice \
            and sum(need) + gap <= room
        if paired == (self.menu_button.getZ() == self.hint_button.getZ()):
            return
        half = (max(0.5, sum(need) + gap) - gap) / 2
        widths = ([half, half] if max(need) <= half else [n + half - sum(need) / 2 for n in need]) if paired \
            else [0.5, 0.5]
        right = -0.05   # (the column's right edge stays)
        for b, w, x, z in zip(buttons, widths, (right - widths[1] - gap - widths[0] / 2, right - widths[1] / 2)
                              if paired else (-0.3, -0.3), (0.26, 0.26) if paired else (0.37, 0.26)):
            left, _right, bottom, top = b["frameSize"]
            b["frameSize"] = (-w / scale / 2, w / scale / 2, bottom, top)
            b.setPos(x, 0, z)
        hud.key = self.panel_key = None   # the panels and the scores laid out again above them

    def fit_table(self) -> None:
        """Also clear of the question in the middle (which tile to take; build or reject) and of the notes
        hanging at the top ("Level to Level"'s piles in a column)."""
        q = self.plus_hud.question
        clear_of = [box(q, self.base.render2d, q["frameSize"])] if q is not None and not q.isHidden() else []
        hanging = [box(n, self.base.render2d) for n in self.plus_hud.hanging if not n.isEmpty() and not n.isHidden()]
        if hanging:   # (as one: the table under them all)
            clear_of.append((min(b[0] for b in hanging), max(b[1] for b in hanging), min(b[2] for b in hanging),
                             max(b[3] for b in hanging)))
        self.camera.frame_in(*self.hud.free_rooms(clear_of), glide=self.ps is not None)

    def keys_floor(self) -> float:
        """Also the notes in the bottom middle (the tile dealt with, a warning) and, in "Level to Level", the
        piles there stand below the key help: it widens rather than run under them (the piles at the right,
        above the buttons there, are no floor to it)."""
        hud, a2d = self.plus_hud, self.base.aspect2d
        tops = [box(note, a2d)[3] for note in hud.notes if not note.isHidden() and note not in hud.hanging]
        if self.match.game.variant == LEVEL_TO_LEVEL and not hud.piles_lift:
            tops.append(hud.piles_top())
        return max([super().keys_floor()] + [self.keys.getParent().getRelativePoint(a2d, Point3(0, 0, z)).z
                                             for z in tops])

    def _keys(self) -> list[str]:
        """The classic key help, and the keys of the powers and gap fillers in play."""
        rules, keys = self.match.game.ruleset, []
        if rules.uses(BREAKING_RULES):
            keys.append(_("Ctrl+number: the power so numbered"))
            o = self.ps.options() if self.ps is not None else None
            if o is not None and o.reserved is not None and not o.reserve_lost:   # V has a tile to take
                keys.append(_("V: the reserved tile"))
        if rules.uses(GAP_FILLERS):
            keys.append(_("G: gap filler"))
        return super()._keys() + keys

    def _hint_help(self) -> str:
        """With nothing in hand (build or reject it, which shown tile to take: a hint in words; the turn's tile
        dealt with, Relocate picking its tile: a hint is for a piece held) I again has nothing to take (the key
        help promised it, and a second I did nothing). Reserve armed, I brings the tile back for its hint."""
        ps = self.ps
        empty = ps is not None and ps.ghost is None and not ps.setting_aside
        return _("I: hint") if empty else super()._hint_help()

    def scores_floor(self) -> float:
        """Also above "Level to Level"'s piles where they stand above the Hint button (a narrow window)."""
        floor = super().scores_floor()
        hud = getattr(self, "plus_hud", None)
        if hud is not None and hud.piles_lift and self.match.game.variant == LEVEL_TO_LEVEL:
            floor = max(floor, self.panel.getRelativePoint(self.base.aspect2d, Point3(0, 0, hud.piles_top())).z + 0.06)
        return floor

    def status_y(self) -> float:
        """In "2 of 3" lower, clear of the reject markers beside the card slots (the question moves down too)."""
        return -0.47 if self.match.game.variant == TWO_OF_THREE else super().status_y()

    def _on_ps(self, name):
        def call(*args):
            if self.ps is not None and self.looking is None and self.overlay is None:
                self.ps.act(name, *args)
        return call

    def _trace_action(self, name: str, *args) -> None:
        self.app.trace("plus", name, *args, f"seat={self.ps.seat}", f"round={self.match.round}",
                       f"moves={len(self.match.game.moves)}")

    def exit(self) -> None:
        self.base.taskMgr.remove("plus-session")
        if getattr(self, "plus_hud", None) is not None:
            self.plus_hud.destroy()
        super().exit()

    def _hud_turn_shown(self, shown: bool) -> None:
        """The ++ panels too, at once (not in the next frame's task): the board looked at, framed first, was
        framed clear of "Level to Level"'s piles still shown, in the top half of the window."""
        super()._hud_turn_shown(shown)
        if getattr(self, "plus_hud", None) is not None:
            self.plus_hud.shown(shown and self.overlay is None)

    def start_player(self, seat: int) -> None:
        self.stop_player()
        self.clear_hint()
        self.viewer, self.looking = seat, None
        self._hud_turn_shown(True)
        self.ps = PlusPlayScreen(self.base, self.match, seat, self.table, self.camera, self.hud, self.committed,
                                 getattr(self, "plus_hud", None), self._trace_action)
        self.ps.note = self._skip_note(seat)
        if self.ps.note and getattr(self, "plus_hud", None) is not None:
            self.plus_hud.key = None   # the panels were drawn when the play screen was made, before the note
        self.ps.sensitivity = self.app.settings.camera_sensitivity
        self.ps.speed = self.app.settings.animation_speed
        self.ps.bind()
        self.was_held = self.ps.held
        name = self.match.names[seat]
        self.set_status(_("{name} plays").format(name=name) if len(self.match.humans) > 1 else "")
        self.panel_key = None

    def _skip_note(self, seat: int) -> str | None:
        """What happened to this player by itself since their last turn: a skipped round, a lost reserve
        (from the game's state, so a game continued from its save says it too)."""
        notes = []
        st = self.match.game.players[seat]
        s = st.skipped
        if s is not None and s[0] == self.match.round - 1:   # said in the turn after the skipped round
            notes.append(_("Round {round}: none of the shown tiles ({tiles}) was left in your supply, so you "
                           "skipped that round.").format(round=s[0], tiles=", ".join(map(str, s[1]))))
        r = st.reserve
        if r is not None and r.state == "lost" and r.lost_step == self.match.game.step - 1:   # said in the next turn
            notes.append(_("Your reserved {digit} is lost: it was not built in time.").format(digit=r.digit))
        return "\n".join(notes) or None

    def _plus_task(self, task):
        """Notes skipped rounds, and keeps the ++ panels to the turn being played."""
        shown = self.ps is not None and self.looking is None and self.overlay is None
        self.plus_hud.shown(shown)
        if shown:
            note = self._skip_note(self.ps.seat)
            # with a piece in hand too: the panels follow the scores laid out meanwhile (at 640x480 the notes,
            # drawn as the reserved tile was taken, stood over the scores the grown score box moved down)
            self.ps.note = note
            self.ps._show_plus(self.ps.options())
            keys = self._keys()   # only the keys that do something now (Backspace: with a piece in hand)
            if keys != self.key_items:
                self.key_items, self.panel_key = keys, None
        self._pair_buttons()
        self._fit_keys()
        if self.plus_hud.key != self.fitted_key:   # the panels were drawn again: maybe another size
            self.fitted_key = self.plus_hud.key
            self.panel_key = None   # the scores and the key help laid out again beside them (then the table)
        return task.cont

    def _advice_key(self):
        """What a hint in words answers: this decision (2 of 3) or choice (Level to Level), or None."""
        ps, m = self.ps, self.match
        if ps is None or self.looking is not None or ps.ghost is not None:
            return None
        o = m.options(ps.seat)
        return ("advice", m.round, ps.seat, o.step, m.game.slot) if o.step in (DECIDE, CHOOSE) else None

    def ask_hint(self) -> None:
        """Before there is a tile to lay (build or reject it; which shown tile to take), the hint
        is the strongest bot's answer in words. Reserve armed: the tile comes back in hand for its hint."""
        if self.bots_turn_hint():
            return
        key = self._advice_key()
        ps = self.ps
        idle = key is None and ps is not None and ps.ghost is None and self.looking is None
        if idle and (ps.options().step == EXTRAS or ps.mode == PICK):   # nothing in hand: said, rather than nothing
            ps.message = _("Relocate: a hint is for the tile you pick up.") if ps.mode == PICK else \
                _("Your tile is dealt with: a hint is for a piece you hold.")
            ps.update()
            return
        if idle and ps.setting_aside:   # a hint is where to lay it: back in hand, as a power for the tile brings it
            ps.toggle_power(RESERVE)
            ps.message = _("Reserve is off: the hint is where to lay your {digit}.").format(digit=ps.piece)
            ps.update()
        if key is None:
            super().ask_hint()
            return
        if self.hint is not None and self.hint["key"] == key:
            return
        self.clear_hint()
        import copy
        from ..ai.plus import advice
        from ..match import derive_seed
        game, seat = copy.deepcopy(self.match.game), self.ps.seat   # the thread plans on its own copy
        seed = derive_seed(self.match.seed, "hint", seat, self.match.round)
        # a partial, not a lambda: it can go to a thinking process, not share the window's interpreter
        self.think(key, "advice", functools.partial(advice, game, seat, seed))

    def _poll_advice(self) -> bool:
        """Show a hint in words once it is worked out, and drop it once the step has passed."""
        h = self.hint
        if h is None or h["key"][0] != "advice":
            return False
        if h["key"] != self._advice_key():
            self.clear_hint()
            self.set_status("")
        elif not h["thread"].is_alive() and not h.get("shown"):
            h["shown"] = True
            if "advice" not in h["result"]:
                self.set_status(_("No hint this time: {reason}").format(reason=h["result"].get("error")), WARN)
                return True
            name, args = h["result"]["advice"]
            if name == "choose":
                text = _("Hint: the strongest bot would take the tile under marker {marker} (key {marker}).").format(
                    marker=args[0])
            elif args[0]:
                text = _("Hint: the strongest bot would build it (B).")
            else:
                text = _("Hint: the strongest bot would reject it (R).")
            self.set_status(text, ACCENT)
            self.app.trace("hint", name, *args)
        return True

    def _poll_hint(self) -> None:
        if not self._poll_advice():
            super()._poll_hint()

    def hint_key(self):
        """A hint answers for the piece in hand (G: the next gap filler is another) and the powers armed for it."""
        return super().hint_key() + (self.ps.piece, self.ps.mode, tuple(sorted(self.ps.powers)))

    def hint_work(self, card: int, seed: int):
        """The strongest bot's placement under the ++ rules in force (a level cap, a start tile, the
        powers armed, the reserved tile) for the piece in hand (a gap filler, a tile being
        relocated: not the turn's tile), planned on a copy of the game."""
        import copy
        from ..ai.plus import hint_placement
        ps = self.ps
        game, seat, powers, reserved = copy.deepcopy(self.match.game), ps.seat, ps.placing_powers(), ps.mode == RESERVED
        filler = ps.piece if ps.mode == FILLER else None
        moving = ps.moving if ps.mode == MOVE else None
        return functools.partial(hint_placement, game, seat, seed, powers, reserved, filler, moving)

    def holding(self) -> bool:
        """A piece in hand, Relocate picking its tile or Reserve armed: not once the turn's tile is dealt with
        (nor before it is built or chosen), where Backspace does nothing."""
        ps = self.ps
        return ps is not None and (ps.ghost is not None or ps.mode == PICK or ps.setting_aside)

    def put_back(self) -> None:
        """Backspace or Escape: also drops a Relocate still picking its tile, and Reserve (the tile back in hand)."""
        ps = self.ps
        if ps is not None and ps.mode == PICK and self.looking is None:
            ps.toggle_power(RELOCATE)
            return
        if ps is not None and ps.setting_aside and ps.ghost is None and self.looking is None:
            ps.toggle_power(RESERVE)
            return
        super().put_back()

    def window_changed(self) -> None:
        super().window_changed()
        if getattr(self, "plus_hud", None) is not None:
            self.plus_hud.fit_window()
            self.plus_hud.key = None   # redrawn next frame (a small window has compact panels)

    def relabel(self) -> None:
        super().relabel()
        if getattr(self, "plus_hud", None) is not None:
            self.plus_hud.key = None   # redrawn next frame in the new language
