"""Playing a Match at the table: pass-and-play, bots, looking at boards, hints, undo, take back.

Each frame the session lets the match commit the bots' tiles (they think in
processes beside the window's, ai/worker.py), then shows what the match waits for: the hand-off screen
between two humans (it hides the table), or a PlayScreen for the human whose
turn it is. The players' panel on the right lists everyone's score; a click
on a name shows that board as it stood at the current round (a puzzle's
earlier players too), and a click on one's own name, Tab or Escape comes
back. I (or the Hint button) asks the strongest bot for a hint (worked out in a thinking process,
watched by a thread) and shows its choice as a blue ghost; Backspace or Escape puts the unconfirmed tile back
in hand; T takes back the last tile in solo practice.
"""
from __future__ import annotations

import functools

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton
from panda3d.core import TextNode

from ...ai import worker
from ...i18n import _
from ...match import BOTS, HANDOFF, PLACE, derive_seed, seat_name
from ...rules.tiles import is_filler
from ..camera import WHOLE_SCREEN
from ..hud import TOP_ROW, build_anew, take_off
from ..play import HANDOFF_PAUSE
from .handoff import HandOff
from .rules import build_rules, reading_place
from .widgets import ACCENT, BUTTON_HOT, DIM, INK, PANEL, WARN, Screen, even_wrap, keep_together

HINT_TINT = ((0.25, 0.45, 1.6, 0.45), (0.35, 0.7, 2.6, 0.9))   # the ghost pulses between the two
HINT_STILL = (0.35, 0.7, 2.6, 0.6)   # with animations off (speed 0): a steady see-through blue


def round_only(match) -> str:
    """"Round 7 of 20" ("Round 7" where the rounds depend on play)."""
    if match.rounds is None:
        return _("Round {round}").format(round=match.round)
    return _("Round {round} of {rounds}").format(round=match.round, rounds=match.rounds)


def round_text(match) -> str:
    """The round (and which tournament game or puzzle), for the hand-off screen and the menu's Continue."""
    text = round_only(match)
    if match.tournament:
        text = _("Tournament game {game} of {games} \u00b7 {round}").format(
            game=match.tournament["game"], games=match.tournament_games, round=text)
    elif isinstance(match.extra.get("puzzle"), str):
        text = _("Puzzle {code} \u00b7 {round}").format(code=match.extra["puzzle"], round=text)
    return text


KEYS_BACK = (0.1, 0.11, 0.12, 0.65)   # behind the key help, which may lie over the table
KEYS_LEAST_WRAP = 12                  # the key help's narrowest lines (in its letters' heights)
KEYS_BETWEEN = "  \u00b7  "           # between two keys on a line of the key help


def on_the_spot_words(piece) -> str:
    """The piece in hand lies on the hint's spot: a gap filler is not "your tile"."""
    if is_filler(piece):
        return _("The gap filler is on the hint's spot: Enter lays it.")
    return _("Your tile is on the hint's spot: Enter lays it.")


class SessionScreen(Screen):
    name = "play"
    status_wrap = 34   # how wide (ems) the status' lines may be: the room at the top middle (_refresh_panel)

    def __init__(self, app, match, context: dict):
        super().__init__(app)
        self.match = match
        self.context = context          # {"tournament": id} or {"puzzle": code}
        self.viewer = match.current_human if match.current_human is not None else (match.humans or [0])[0]
        self.looking = None             # the seat (or ("past", i)) whose board is shown instead of one's own
        self.ps = None                  # the PlayScreen of the human placing now
        self.overlay = None             # "handoff" or "rules" while one covers the table
        self.hint = None                # {"key", "thread", "result", "ghost"}
        self.hint_spot = None           # the spot_taken() of a hint taken, while the tile is there
        self.hint_early = None          # the round whose bots' turn I was pressed in (said with that turn)
        self.was_held = None
        self.panel_key = None
        self.turn_key = None
        self._saved_hand = None         # the unconfirmed tile's spot while another board is shown
        self.status_beside = True       # the status beside the round and the score (else under the verdict)
        self.key_items = []             # the keys the key help lists (laid out in lines by _lay_out_keys)
        self.past = self._past_players()

    # ----- building --------------------------------------------------------------
    def enter(self) -> None:
        from ..camera import OrbitCamera
        from ..hud import Hud
        from ..table import Table
        self.table = Table(self.base)
        self.table.levels_shown = self.app.levels_shown   # L holds from one game and screen to the next
        self.camera = OrbitCamera(self.base.camera, self.base.camLens, self.base.render)
        self.hud = Hud(self.base, on_confirm=self.confirm)
        if self.match.tournament:
            self.hud.tournament_game = (self.match.tournament["game"], self.match.tournament_games)
        self.anchors = {n: getattr(self.base, n).attachNewNode(f"session_{n}")
                        for n in ("a2dTopCenter", "a2dTopRight", "a2dTopLeft", "a2dBottomRight")}
        super().enter()
        self.table.show(self.match.board(self.viewer))
        self.camera.frame_board(self.match.board(self.viewer))
        self.hud.fit_window()
        self._legend_for(self.viewer)
        if not self.match.humans:   # no turn of one's own: no Confirm, verdict, Hint or turn's keys
            self._hud_turn_shown(False)
        self.base.taskMgr.add(self._task, "session")
        self.app.trace("session", f"round={self.match.round}", f"moves={len(self.match.game.moves)}",
                       f"tiles={len(self.match.board(self.viewer).tiles)}")

    def build(self) -> None:
        tc, br = self.anchors["a2dTopCenter"], self.anchors["a2dBottomRight"]
        self.status = self.label("", (0, self.status_y()), scale=0.042, parent=tc, wrap=34)
        self.status_colour = INK
        self.panel = self.anchors["a2dTopRight"].attachNewNode("players")
        self.keys = self.label("", (0.05, -0.82), scale=0.03, parent=self.anchors["a2dTopLeft"],
                               align=TextNode.ALeft, fg=DIM)
        self.keys["frameColor"], self.keys["pad"] = KEYS_BACK, (0.3, 0.2)   # readable over the tiles too
        self.keys.resetFrameSize()
        self.window_changed()
        self.menu_button = self.button(_("Menu (M)"), self.to_menu, (-0.3, 0.26), width=0.5, scale=0.04, parent=br)
        self.hint_button = self.button(_("Hint (I)"), self.ask_hint, (-0.3, 0.37), width=0.5, scale=0.04,
                                       parent=br)
        self.take_back_button = self.button(_("Take back (T)"), self.take_back, (-0.3, 0.48), width=0.5,
                                            scale=0.04, parent=br) if self.match.practice else None
        self.accept("i", self.ask_hint)
        self.accept("backspace", self.put_back)
        self.accept("escape", self.escape)
        self.accept("tab", self.next_board)
        self.accept("f1", self.show_rules)
        self.accept("t", self.take_back)
        self.accept("m", self.to_menu)   # Esc puts the tile back: the keyboard's way out of the table
        self.accept("enter", self.confirm_key)
        self.accept("space", self.confirm_key)
        self.letters_with_shift()
        self.panel_key = None
        self._hud_turn_shown(self.looking is None)   # built again (a new language) while looking

    def relabel(self) -> None:
        """Rebuild every widget (a new language); the hand-off screen comes back by itself next frame."""
        if self.overlay == "rules":
            return
        self._close_overlay()
        self.ignoreAll()
        build_anew([self.root, *self.anchors.values()], self.build)
        self.hud.relabel()
        if self.ps is not None:
            in_hand = self.hud.in_hand
            self.ps.redraw_hud()
            if self.looking is not None:   # (the tile put away meanwhile: redrawn, the box lost the room for it)
                self.hud.in_hand = in_hand
                self._own_score_while_looking()

    def _keys(self) -> list[str]:
        """The key help's keys, laid out in lines by _lay_out_keys."""
        waiting = self.match.phase == BOTS   # one's tile laid, the next not dealt: I and Backspace do nothing
        return [*([] if waiting else [self._hint_help()]),
                *([_("Backspace: put the tile back in hand")] if self.holding() and not waiting else []),
                *([_("T: take back the last tile")] if self.match.practice else []),
                *([_("Tab or a name on the right: look at another board")] if self.others() else []), _("F1: rules")]

    def _hint_help(self) -> str:
        return _("I: hint (again: take it)")

    def holding(self) -> bool:
        """Whether Backspace has something to put back (in the classic game the turn's tile is always in hand)."""
        return True

    def others(self) -> bool:
        """Whether there are boards to look at besides one's own."""
        return len(self.match.seats) > 1 or bool(self.past)

    def exit(self) -> None:
        self.app.levels_shown = self.table.levels_shown
        self.base.taskMgr.remove("session")
        self.stop_player()
        self.clear_hint()
        self._close_overlay()
        super().exit()
        for node in self.anchors.values():
            take_off(node)
        self.hud.destroy()
        self.camera.frame_in(WHOLE_SCREEN)   # other screens frame the whole screen
        self.table.remove()

    # ----- each frame ------------------------------------------------------------------
    def _task(self, task):
        if self.overlay == "rules":
            return task.cont
        self.camera.follow_window()
        m = self.match
        try:
            committed = m.update()
        except RuntimeError as e:   # a bot failed: say so rather than freeze or crash
            self.set_status(str(e), WARN)
            return task.cont
        if committed:
            self.app.trace("bots-placed", f"round={m.round}")
        if m.over:
            self.finish()
            return task.done
        phase = m.phase
        if phase == HANDOFF:
            if self.overlay != "handoff":
                self.show_handoff()
            else:
                self.handoff.ready(HANDOFF_PAUSE)
        elif phase == PLACE:
            if self.overlay == "handoff":
                self._close_overlay()
            h = m.current_human
            if self.ps is None or self.ps.seat != h:
                self.start_player(h)
            elif self.ps.ghost is None and not self.ps.settling and self.looking is None:
                self.ps.start_turn()
                if self.hint is None:   # a hint in words (NMBR 9 ++: no tile yet) stays up
                    self.set_status("")
        elif phase == BOTS:
            if self.ps is None:   # bots alone, or a game continued in the bots' turn: no turn of one's own yet
                self._bots_alone(committed)
            if self.ps is None or self.ps.ghost is None:
                self.set_status(self._bots_text())
        # nothing to hint at in the bots' turn: the Hint button greyed, as Confirm is
        waiting = phase == BOTS
        if (self.hint_button["state"] == DGG.DISABLED) != waiting:
            self.hint_button["state"] = DGG.DISABLED if waiting else DGG.NORMAL
            self.hint_button["text_fg"] = DIM if waiting else INK
            if self.looking is None:   # the key help too: no I or Backspace while nothing is in hand
                self.key_items, self.panel_key = self._keys(), None
        self._trace_turn()
        self._sound_of_hand()
        self._poll_hint()
        self._refresh_panel()
        self._place_status()
        if m.save_error:
            self.set_status(m.save_error, WARN)
        return task.cont

    def _bots_alone(self, committed: bool) -> None:
        """The bots' turn with no PlayScreen (bots playing alone: a tournament of `nmbr9 tournament --bots`
        continued here; or a game continued in the bots' turn): the round, its card, the cards to come and the
        score of the board shown, which no one's turn shows (the table of the first bot was without them; a
        game continued there showed an empty card, an empty score box and a Confirm button without a word
        until the bots were done), and Confirm greyed, as after one's tile is laid."""
        m = self.match
        if committed and self.looking is None:   # the board shown grows: framed whole
            self.table.show(m.board(self.viewer))
            self.camera.frame_board(m.board(self.viewer))
        if m.rounds is None:   # "Level to Level": the rounds depend on play (min() with None stopped the window)
            self.hud.show_round(m.round, 0, m.game.card, m.supply())
            self.hud.show_round_text(round_only(m))
        else:
            self.hud.show_round(min(m.round, m.rounds), m.rounds, m.game.card, m.supply())
        self.hud.show_verdict(False, "")
        if self.looking is None:
            board = m.board(self.viewer)
            self.hud.show_score(board.score_by_level(), board.score(), None)

    def _bots_text(self) -> str:
        """The bots' turn, with how many have chosen (five hard bots late in a game take a few seconds)."""
        done, count = self.match.bots_ready
        text = _("The bots are placing their tiles\u2026") if count < 2 else \
            _("The bots are placing their tiles\u2026 {done} of {count} done").format(done=done, count=count)
        if self.hint_early == self.match.round:
            text += "\n" + _("A hint is for your next tile: press I once it is dealt.")
        return text

    def _trace_turn(self) -> None:
        ps = self.ps
        key = (ps.seat, self.match.round) if ps is not None and ps.ghost is not None else None
        if key is not None and key != self.turn_key:
            self.app.trace("turn", f"seat={ps.seat}", f"round={self.match.round}",
                           f"tiles={len(self.match.board(ps.seat).tiles)}")
        self.turn_key = key

    def status_y(self) -> float:
        """Where the status line hangs below the top of the window (HUD units)."""
        return -0.3

    def set_status(self, text: str, colour=INK) -> None:
        text = keep_together(text)   # it wraps
        if self.status["text"] != text:
            self.status["text"] = text
            self.status["text_fg"] = self.status_colour = colour
            self.status["frameColor"] = PANEL if text else (0, 0, 0, 0)
            self.status["pad"] = (0.4, 0.25)
            even_wrap(self.status, self.status_wrap)   # (its frame fitted to the lines too)

    # ----- whose turn -------------------------------------------------------------------
    def start_player(self, seat: int) -> None:
        from ..play import PlayScreen
        self.stop_player()
        self.clear_hint()
        self.viewer, self.looking = seat, None
        self._hud_turn_shown(True)
        self._legend_for(seat)
        self.ps = PlayScreen(self.base, self.match, seat, self.table, self.camera, self.hud, self.committed)
        self.ps.sensitivity = self.app.settings.camera_sensitivity
        self.ps.speed = self.app.settings.animation_speed
        self.ps.bind()
        self.was_held = self.ps.held
        name = self.match.names[seat]
        self.set_status(_("{name} places the tile").format(name=name) if len(self.match.humans) > 1 else "")
        self.panel_key = None

    def _legend_for(self, seat: int) -> None:
        """The controls' help for this human: shown until they have laid a tile (not until anyone has), in a
        game continued too; a puzzle's first tile was laid for them."""
        opening = 1 if self.context.get("puzzle") else 0
        self.hud.legend_for(sum(1 for move in self.match.game.moves if move.player == seat) > opening)

    def stop_player(self) -> None:
        if self.ps is not None:
            self.ps.unbind()
            if self.ps.ghost is not None:
                self.ps.ghost.destroy()
                self.ps.ghost = None
            self.ps = None

    def committed(self, placement) -> None:
        m = self.match
        self.app.sounds.play("confirm")
        self.clear_hint()
        self.set_status("")   # whatever it said was about the tile just laid
        last = m.game.moves[-1]
        self.app.trace("placed", f"seat={self.ps.seat}", f"round={last.round}",   # (online: the server's seat)
                       f"piece={placement.piece}", f"x={placement.x}", f"y={placement.y}",
                       f"level={placement.level}", f"moves={len(m.game.moves)}")

    def confirm(self) -> None:
        """The Confirm button (and the HUD's score box)."""
        if self.ps is not None and self.looking is None:
            self.confirm_key()
            self.ps.confirm()

    def confirm_key(self) -> None:
        ps = self.ps
        if ps is not None and ps.ghost is not None and not ps.settling and ps.verdict is not None \
                and not ps.verdict.ok and self.looking is None:
            self.app.sounds.play("illegal")

    def put_back(self) -> None:
        """Undo of the unconfirmed tile: back in hand, where a new turn starts."""
        ps = self.ps
        if ps is not None and ps.ghost is not None and not ps.settling and self.looking is None:
            ps.start_turn()
            self.was_held = ps.held
            self.app.sounds.play("pickup")

    def escape(self) -> None:
        if self.overlay == "handoff":   # the hidden table's one other button
            self.to_menu()
        elif self.looking is not None:
            self.look(None)
        else:
            self.put_back()

    def take_back(self) -> None:
        m = self.match
        if self.overlay or self.looking is not None:   # another board shown: only looking and the rules work
            return
        if not m.can_take_back:   # said, not ignored: the button is there (practice) or T was pressed anyway
            self.set_status(_("No tile of yours to take back yet.") if m.practice else
                            _("Tiles can be taken back only in practice games with one human player "
                              "(Practice, in New game)."), WARN)
            return
        if self.ps is not None and self.ps.settling:
            return
        seat = self.ps.seat if self.ps else m.humans[0]
        self.stop_player()
        m.take_back()   # the game is replayed: every Board object is new
        self.table.show(m.board(seat))
        self.app.trace("take-back", f"round={m.round}", f"moves={len(m.game.moves)}")
        if m.current_human is not None:
            self.start_player(m.current_human)

    def _sound_of_hand(self) -> None:
        ps = self.ps
        if ps is None or ps.ghost is None:
            self.was_held = None
            return
        if self.was_held is not None and ps.held != self.was_held:
            self.app.sounds.play("pickup" if ps.held else "drop")
        self.was_held = ps.held

    # ----- hand-off ------------------------------------------------------------------------
    def show_handoff(self) -> None:
        m = self.match
        self.stop_player()
        self.clear_hint()
        self._close_overlay()
        self.looking = None
        self.overlay = "handoff"
        name = m.names[m.current_human]
        self.table.root.hide()
        self.hud_shown(False)
        self.handoff = HandOff(self, name, round_text(m), _("I am {name}: show my table").format(name=name),
                               self.hand_over, self.to_menu, m.save_error)
        self.overlay_frame = self.handoff.frame
        self.app.place_note()   # a screenshot's note from the table: clear of the hand-off's buttons
        self.app.trace("handoff", f"seat={m.current_human}", f"round={m.round}")

    def hand_over(self) -> None:
        if self.overlay != "handoff":
            return
        self.match.hand_over()
        self._close_overlay()
        self.accept("enter", self.confirm_key)
        self.start_player(self.match.current_human)

    def _close_overlay(self) -> None:
        if self.overlay is not None:
            take_off(self.overlay_frame)
            self.overlay = None
            self.table.root.show()
            self.hud_shown(True)
            self.app.place_note()

    def hud_shown(self, shown: bool) -> None:
        for node in (*self.hud.anchors.values(), *self.anchors.values()):
            node.show() if shown else node.hide()

    # ----- rules over the table --------------------------------------------------------------
    def show_rules(self) -> None:
        if self.overlay is not None:
            return
        if self.ps is not None:
            self.ps.unbind()
        self.ignoreAll()
        self.overlay = "rules"
        self.overlay_frame = self.root.attachNewNode("rules")
        self.hud_shown(False)
        self.rules_page = build_rules(self, self.overlay_frame, self.close_rules)
        self.app.place_note()   # a screenshot's note from the table: clear of the rules' Back

    def close_rules(self) -> None:
        said = self.status["text"], self.status_colour
        self._close_overlay()
        self.relabel()
        # the status is built anew empty: what it said (a hint's words beside its ghost) still holds
        self.set_status(*said)
        if self.ps is not None:
            self.ps.bind(view_only=self.looking is not None)

    # ----- looking at other boards ---------------------------------------------------------------
    def _own_score_while_looking(self) -> None:
        """The score box: one's own score, with nothing in hand to confirm, its size kept (the names under it
        stay where they were clicked)."""
        own = self.match.board(self.viewer)
        self.hud.show_score(own.score_by_level(), own.score(), None, blank=True)

    def _past_players(self) -> list:
        """A puzzle's earlier players (from the database): name, game and seat."""
        code = self.context.get("puzzle")
        if not code:
            return []
        from ...store import puzzle_results, result_game
        try:
            results = puzzle_results(self.app.store.db, code)
        except Exception:
            return []
        out = []
        for r in results:
            found = result_game(r) if r.kind == "human" else None
            if found is not None:
                out.append((r.player, *found))
                if len(out) == 3:
                    break
        return out

    def past_name(self, i: int) -> str:
        """An earlier player's name as shown: "Player 1", kept in English, in the language of the moment."""
        return seat_name(self.past[i][0], "human")

    def board_of(self, who):
        m = self.match
        if isinstance(who, tuple):
            _name, game, seat = self.past[who[1]]
            return game.board_at_round(seat, m.round)
        return m.board_view(who, self.viewer)

    def look(self, who) -> None:
        """Show `who`'s board as it stood at this round (None or oneself: back to one's own)."""
        m = self.match
        if self.overlay is not None:
            return
        if who is None or who == self.viewer:
            if self.looking is None:
                return
            self.looking = None
            self._hud_turn_shown(True)
            self.table.show(m.board(self.viewer))
            self.camera.frame_board(m.board(self.viewer))
            self.set_status("")
            if self.ps is not None:
                saved = self._saved_hand
                self.ps.unbind()
                self.ps.bind()
                self.ps.start_turn()
                if saved:
                    self.ps.rotation, self.ps.x, self.ps.y, self.ps.held = saved
                    self.ps.update()
            self.panel_key = None
            return
        if self.ps is not None and self.looking is None:
            self._saved_hand = None
            if self.ps.ghost is not None and not self.ps.settling:
                self._saved_hand = (self.ps.rotation, self.ps.x, self.ps.y, self.ps.held)
            if self.ps.settling:
                return
            self.ps.unbind()
            self.ps.bind(view_only=True)   # the board looked at can be turned and zoomed too
            if self.ps.ghost is not None:
                self.ps.ghost.destroy()
                self.ps.ghost = None
        self.clear_hint()
        self.looking = who
        self._hud_turn_shown(False)
        self._own_score_while_looking()
        board = self.board_of(who)
        self.table.show(board)
        self.camera.frame_board(board)
        # Tab leads back to one's own table only from the last board in the round of them (three seats or more)
        if self._board_after(who) != self.viewer:
            text = (_("{name}'s earlier game: the board as it stood at the start of round {round} (score {score}). "
                      "Tab: the next board; Esc or your own name: back to your table") if isinstance(who, tuple) else
                    _("{name}'s board as it stood at the start of round {round} (score {score}). "
                      "Tab: the next board; Esc or your own name: back to your table"))
        elif isinstance(who, tuple):   # a puzzle's earlier player: maybe this very player, another time
            text = _("{name}'s earlier game: the board as it stood at the start of round {round} (score {score}). "
                     "Esc, Tab or your own name: back to your table")
        else:
            text = _("{name}'s board as it stood at the start of round {round} (score {score}). "
                     "Esc, Tab or your own name: back to your table")
        name = self.past_name(who[1]) if isinstance(who, tuple) else m.names[who]
        self.set_status(text.format(name=name, round=m.round, score=board.score()), ACCENT)
        self.panel_key = None
        self.app.trace("look", f"who={who}", f"tiles={len(board.tiles)}")

    def reflow(self) -> None:
        """The rules page over the table is laid out again for the window's new shape, where the reader was
        (built for the old one, it ran past a narrower window's edges, its scroll bar outside); the hand-off
        fits any window (scaled with it); the table's widgets scale with the HUD (window_changed)."""
        if self.overlay == "rules":
            place = reading_place(self.rules_page)
            self.ignoreAll()
            take_off(self.overlay_frame, children_only=True)
            self.rules_page = build_rules(self, self.overlay_frame, self.close_rules, place)

    def window_changed(self) -> None:
        """Scale with the HUD, which keeps its text readable in small windows."""
        super().window_changed()
        if not hasattr(self, "hud"):
            return
        self.hud.fit_window()
        k = self.hud.anchors["a2dTopLeft"].getScale().x
        for node in self.anchors.values():
            node.setScale(k)
        self.panel_key = None

    def _hud_turn_shown(self, shown: bool) -> None:
        """The verdict and Confirm, the Hint button, the turn's keys and the controls of one's tile (and H)
        belong to one's own turn: hidden while another board is shown, where only looking and the rules work."""
        for node in (*(self.hud.anchors[c] for c in ("a2dTopCenter", "a2dBottomRight", "a2dBottomLeft")),
                     self.hint_button, self.take_back_button):
            if node is not None:
                node.show() if shown else node.hide()
        self.key_items = self._keys() if shown else \
            [_("Tab or a name on the right: look at another board"), _("F1: rules")]
        self.panel_key = None   # laid out again there

    def next_board(self) -> None:
        self.look(self._board_after(self.viewer if self.looking is None else self.looking))

    def _board_after(self, current):
        """The board Tab shows after this one: the seats in turn, then a puzzle's earlier players, round again."""
        order = list(range(len(self.match.seats))) + [("past", i) for i in range(len(self.past))]
        return order[(order.index(current) + 1) % len(order)]

    def _place_status(self) -> None:
        """The status under the verdict, which grows a line or two with a longer refusal as the tile moves
        (in a small window it would run over the status)."""
        below = self.hud.verdict_bottom() - 0.08
        z = min(self.status_y(), below) if self.status_beside else below
        if abs(self.status.getZ() - z) > 1e-6:
            self.status.setZ(z)

    def _refresh_panel(self) -> None:
        m = self.match
        score_box = self.hud.score.guiItem.getFrame()
        key = (len(m.game.moves), self.viewer, self.looking, m.round, score_box[2], len(m.supply()),
               self.hud.legend.isHidden())
        if key == self.panel_key:
            return
        self.panel_key = key
        take_off(self.panel, children_only=True)   # (first: the key help keeps clear of the scores)
        rows = [(i, name, self.board_of(i).score(), s.is_bot) for i, (s, name) in enumerate(zip(m.seats, m.names))]
        rows += [(("past", i), self.past_name(i), self.board_of(("past", i)).score(), False)
                 for i in range(len(self.past))]   # at this round, as the others'
        top = self.hud.score.getZ() + score_box[2] - 0.16   # below the HUD's score box
        if self.others():   # (alone: no other board to click for)
            self.label(_("Scores (click to look)"), (-0.05, top + 0.07), scale=0.034, align=TextNode.ARight,
                       parent=self.panel, fg=DIM)
        # many players in a small window: the rows draw closer, then stand in columns, above the Hint button
        hint_top = self.scores_floor()
        step = max(0.068, min(0.085, (top - hint_top) / max(len(rows), 1)))   # text no smaller than SMALL_TEXT
        size = 0.04 * step / 0.085
        per_column = max(1, int((top - hint_top) / step) + 1)
        for n, (who, name, score, bot) in enumerate(rows):
            column, row = divmod(n, per_column)
            if isinstance(who, tuple):
                text = _("{name} (earlier): {score}").format(name=name, score=score)
            else:
                text = self.score_row(who, name, score)
                if who == self.viewer:
                    text = "\u25b6 " + text
            active = who == self.looking or (self.looking is None and who == self.viewer)
            DirectButton(parent=self.panel, text=text, command=self.look, extraArgs=[who], scale=size,
                         text_align=TextNode.ARight, text_font=self.app.bold if active else self.app.font,
                         text_fg=ACCENT if active else INK, relief=DGG.FLAT, pad=(0.3, 0.15),
                         frameColor=(PANEL, BUTTON_HOT, BUTTON_HOT, PANEL), pressEffect=0,
                         pos=(-0.05 - 0.45 * column, 0, top - row * step))
        supply = self.hud.supply.getTightBounds(self.hud.anchors["a2dTopLeft"])
        self.keys.setZ((supply[0].z if supply else -0.72) - 0.08)   # just under the cards still to come
        self._lay_out_keys()
        self.hud.arrange()
        top, width, x = self.hud.middle()   # the status in the room at the top middle, or under the verdict
        self.status_beside = top == TOP_ROW
        self.status.setX(x)
        self.status_wrap = min(34, width / 0.042 - 1)
        even_wrap(self.status, self.status_wrap)
        self._place_status()
        self.fit_table()
        # arrange may have folded the controls' help (it reaches the rest): H showing it again lays out again
        self.panel_key = key[:-1] + (self.hud.legend.isHidden(),)

    def score_row(self, who, name: str, score: int) -> str:
        """A player's line in the scores at the right."""
        return f"{name}: {score}"

    def scores_floor(self) -> float:
        """How low the scores may reach (in their panel's units): to the Hint button."""
        return self.panel.getRelativePoint(self.hint_button.getParent(), self.hint_button.getPos()).z + 0.06

    def _lay_out_keys(self) -> None:
        """As many keys a line as fit a width: that of the round, the card and the cards to come above the
        key help where the table stands beside them (wider, the key help would push the table's room further
        in: a 4:3 window has little width to spare), or a little wider where it would then run down into what
        stands at the bottom left."""
        k, x = self.keys.getScale().x, self.keys.getX()
        top = self.keys.getZ() + self.keys.guiItem.getFrame()[3] * k
        # clear of the scores at the right (five long names at 800x600: the key help ran under them)
        widest = self.hud.room()[0] - 2 * x + self.hud.extent("a2dTopRight", below=top)[0]
        # (all that stands above the key help; where the verdict stands under it too: at 640x480 one line as wide as
        # the window left the table only a strip between the round's card and the score box)
        width = self.hud.extent("a2dTopLeft", above=top + 0.01)[1] - x
        floor = self.keys_floor()
        while True:
            self._wrap_keys(max(KEYS_LEAST_WRAP, width / k - 2 * self.keys["pad"][0]))
            if width >= widest or self.keys.getZ() + self.keys.guiItem.getFrame()[2] * k > floor + 0.04:
                return
            width += 0.2

    def keys_floor(self) -> float:
        """How far down the key help may reach before it runs into what stands below it (HUD units
        below the top): the bottom left's panels."""
        return self.hud.extent("a2dBottomLeft")[3] - self.hud.room()[1]

    def _wrap_keys(self, width: float) -> None:
        """The key help in lines `width` wide (in its letters' heights)."""
        measure = self.keys.component("text0").textNode.calcWidth
        lines = []
        for key in self.key_items:
            if lines and measure(lines[-1] + KEYS_BETWEEN + key) <= width:
                lines[-1] += KEYS_BETWEEN + key
            else:
                lines.append(key)
        self.keys["text"] = "\n".join(lines)
        self.keys["text_wordwrap"] = width   # a key too long for a line of its own
        self.keys.resetFrameSize()

    def fit_table(self) -> None:
        """Frame the table in the room the HUD leaves (again: the HUD changed), gliding there in a human's
        turn (the player's PlayScreen steps the glide): a question going away moved the board at once."""
        self.camera.frame_in(*self.hud.free_rooms(), glide=self.ps is not None)

    # ----- hints ----------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """The strongest bot's choice for this tile, worked out off the main thread."""
        ps, m = self.ps, self.match
        if self.bots_turn_hint() or ps is None or ps.ghost is None or self.looking is not None:
            return
        # the tile in hand: in "Level to Level" the chosen one (the game shows several cards)
        card = ps.piece if ps.piece is not None else m.card   # a gap filler in hand has its own hint
        if card is None:
            return
        key = self.hint_key()
        if self.hint is not None and self.hint["key"] == key:
            self._take_hint()
            return
        self.clear_hint()
        seed = derive_seed(m.seed, "hint", ps.seat, m.round)
        self.think(key, "placement", self.hint_work(card, seed))
        self.app.trace("hint-asked", f"round={m.round}")

    def bots_turn_hint(self) -> bool:
        """I in the bots' turn, one's tile laid and the next not yet dealt: said (it did nothing, the Hint
        button looking ready); True if so."""
        if self.match.phase != BOTS or self.overlay is not None or not self.match.humans:   # (bots alone: no tile)
            return False
        self.hint_early = self.match.round
        self.set_status(self._bots_text())
        return True

    def hint_key(self):
        """What a hint on the table answers: it is dropped once this changes."""
        return self.match.round, self.ps.seat, len(self.match.game.moves)

    def hint_work(self, card: int, seed: int):
        """The work of a hint for the tile in hand, to run off the main thread (on copies)."""
        from ...ai import STRONGEST, View, make_bot
        m = self.match
        view = View(self.ps.board.copy(), card, tuple(m.seen()), m.game.ruleset, len(m.game.deck))
        return functools.partial(make_bot(STRONGEST, seed).choose, view)

    def think(self, key, name: str, work) -> None:
        """Work out the hint for `key` off the main thread: result[name] = work(), or result["error"]."""
        thread, result = worker.in_background(work, worker.HINTS, name)   # never behind the bots' moves
        self.hint = {"key": key, "thread": thread, "result": result, "ghost": None}
        self.set_status(_("Looking for a good place\u2026"))

    def _poll_hint(self) -> None:
        h, ps = self.hint, self.ps
        if self.hint_spot is not None and (ps is None or self.hint_spot != self.spot_taken()):
            if self.status["text"] == on_the_spot_words(self.hint_spot[0]):
                self.set_status("")
            self.hint_spot = None   # the tile left the hint's spot: "Enter lays it" no longer holds
        if h is not None and h["ghost"] is not None and (ps is None or self.hint_key() != h["key"]):
            self.clear_hint()   # e.g. a power armed since: the hint answered another question
            return
        if h is None or h["ghost"] is not None or h["thread"].is_alive():
            return
        if ps is None or self.hint_key() != h["key"] or h["result"].get("placement") is None:
            if "error" in h["result"]:
                self.set_status(_("No hint this time: {reason}").format(reason=h["result"]["error"]), WARN)
            self.clear_hint()
            return
        p = h["result"]["placement"]
        level = p.level if p.level is not None else ps.board.resting_level(p.piece, p.rotation, p.x, p.y)
        ghost = self.table.ghost(p.piece)
        ghost.show(p, level, 0.0, True)
        still = self.app.settings.animation_speed <= 0   # no motion asked for: no breathing either
        if still:
            ghost.tint(HINT_STILL)
        else:
            ghost.pulse(*HINT_TINT)
        h["ghost"] = ghost
        self.app.trace("hint", f"piece={p.piece}", f"rotation={p.rotation}", f"x={p.x}", f"y={p.y}",
                       f"level={level}")
        if h.get("take"):   # I was pressed again while the bot thought
            self._take_hint()
            return
        if set(ps.placement().squares()) == set(p.squares()):
            self._said_on_the_spot()   # the tile in hand is there already (it hides the ghost)
            return
        ps.step_aside(p)   # the tile in hand no longer hides the ghost (the first tile: both at the middle)
        ps.keep_in_view(p, ps.placement())
        where = (_("Hint: the strongest bot would lay it where the see-through blue tile is (level {level}).")
                 if still else
                 _("Hint: the strongest bot would lay it where the pulsing blue tile is (level {level})."))
        self.set_status(where.format(level=level), ACCENT)

    def _take_hint(self) -> None:
        """I again, once the hint is on the table: the tile in hand moves onto it (still to confirm)."""
        h, ps = self.hint, self.ps
        if h["ghost"] is None:
            h["take"] = True   # still thinking: taken once found (said, or Enter meanwhile looked like it laid the hint)
            self.set_status(_("Looking for a good place\u2026 your tile goes there once it is found."))
            return
        p = h["result"]["placement"]
        ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
        ps.update()
        self.clear_hint()
        self._said_on_the_spot()
        self.app.trace("hint-taken", f"round={self.match.round}")

    def _said_on_the_spot(self) -> None:
        """The tile in hand lies on the hint's spot: said until it leaves it."""
        self.hint_spot = self.spot_taken()
        self.set_status(on_the_spot_words(self.ps.piece), ACCENT)

    def spot_taken(self):
        """Where the tile in hand lies and what a hint for it answers: a power armed or dropped there (Flip
        turns the tile over) leaves the hint's spot, as a move does."""
        ps = self.ps
        return ps.piece, ps.rotation, ps.x, ps.y, self.hint_key()

    def clear_hint(self) -> None:
        if self.hint is not None:
            if self.hint["ghost"] is not None:
                self.hint["ghost"].destroy()
                self.set_status("")
            elif self.status["text"] in (_("Looking for a good place\u2026"),
                                         _("Looking for a good place\u2026 your tile goes there once it is found.")):
                self.set_status("")   # still being worked out, for a question no longer asked: it will not come
            if self.hint["thread"].is_alive():   # its process is free at once for the next hint
                worker.abandon(worker.HINTS)
            self.hint = None

    # ----- leaving -------------------------------------------------------------------------------
    def to_menu(self) -> None:
        """The game is saved after every placement: Continue in the menu comes back here (a game whose
        last save failed is kept in memory for it, until the program ends). The menu's highlight is on
        Continue, not on the item the game was started by."""
        from .menu import MenuScreen
        m = self.match
        self.app.unsaved = m if m.save_error and not m.over else None
        self.app.menu_choice = MenuScreen.continue_game.__name__
        self.app.menu()

    def finish(self) -> None:
        from .results import ResultsScreen
        self.app.goto(ResultsScreen, match=self.match, context=self.context)

