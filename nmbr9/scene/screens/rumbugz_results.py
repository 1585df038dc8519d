"""A RumBugz round's results (who went out, what each hand held, the points, the totals), then the next round;
after the last round the final standings and a rematch. A tournament's finished game is looked back at here too,
a round at a time (`rounds`)."""
from __future__ import annotations

from panda3d.core import Point3, TextNode

from ...i18n import _
from ...match import places
from ...rumbugz.rules.bugs import bug_points
from ...rumbugz.play import TURN_LIMIT, stopped
from .results import tournament_lines
from .widgets import ACCENT, DIM, GO, INK, Screen, keep_together

COLUMNS = (-0.95, 0.05, 0.45, 0.85)   # name, hand, round, total (right edges but the name's)
ROOM_GAP = 0.04   # between the table reviewed and the words above it and the buttons under it (root units)


class RumbugzResultsScreen(Screen):
    name = "rumbugz-results"

    def __init__(self, app, game, context: dict | None = None, rounds: list | None = None):
        super().__init__(app)
        self.game = game
        # {"tournament": its id} for a tournament's game; with "review": True and "game": its number, looked back at
        self.context = context or {}
        self.rounds = rounds   # a game reviewed: all its rounds (finished), `game` as it stood after one of them
        self.best_lines: list[str] = []
        if game.over and rounds is None:
            self.best_lines = self._record_finished()

    def _record_finished(self) -> list[str]:
        """The finished game into the humans' personal bests: the lines to show (a new best, or why it was not
        stored)."""
        from ...store.rumbugz import record_finished
        stored = record_finished(self.app.store, self.game.round_records(), self.game.created)
        return [*stored.lines, *([stored.message] if stored.message else [])]

    def enter(self) -> None:
        if self.rounds is not None:   # the table as each round ended, under the round's points
            from ..camera import OrbitCamera
            from ..rumbugz_table import BugTable
            from .rumbugz_session import TABLE_PITCH
            self.table = BugTable(self.base)
            self.camera = OrbitCamera(self.base.camera, self.base.camLens, self.base.render, around=0.2)
            self.camera.pitch = TABLE_PITCH
        super().enter()

    def exit(self) -> None:
        super().exit()
        if self.rounds is not None:
            from ..camera import WHOLE_SCREEN
            self.camera.frame_in(WHOLE_SCREEN)
            self.table.remove()

    def build(self) -> None:
        g, r = self.game, self.game.round
        backdrop = self.backdrop()
        top = min(self.room[1], 1.0) - 0.14
        review = self.rounds is not None
        final = g.over and not review   # (a game reviewed keeps its seats' order from round to round)
        if review:   # "Game 2 · Round 1 of 3"
            title = _("Game {game} \u00b7 {round}").format(game=self.context["game"], round=_(
                "Round {round} of {rounds}").format(round=g.round_number, rounds=g.rounds))
        else:
            title = (_("Final standings") if g.over else
                     _("Round {round} of {rounds}: results").format(round=g.round_number, rounds=g.rounds))
        self.label(title, (0, top), scale=0.08, bold=True, fg=ACCENT)
        if r.winner is not None:
            went = _("{name} went out and scores what the other hands hold.").format(name=g.told(r.winner))
        elif stopped(r):
            went = _("No one went out in {turns} turns: the round ends without a winner, no points.").format(
                turns=TURN_LIMIT)
        else:
            went = _("No one could draw any more: the round ends without a winner, no points.")
        self.label(went, (0, top - 0.11), scale=0.042, fg=DIM, wrap=1.9 / 0.042)
        y = top - 0.26
        heads = (_("Player"), _("Hand"), _("Round"), _("Total"))
        for x, text in zip(COLUMNS, heads):
            self.label(text, (x, y), scale=0.042, fg=DIM, align=TextNode.ALeft if x == COLUMNS[0] else
                       TextNode.ARight)
        scores, totals = r.scores(), g.totals()
        order = sorted(range(r.players), key=lambda p: -totals[p]) if final else range(r.players)
        ranks = places(totals)
        for p in order:
            y -= 0.085
            hand = sorted(r.hand(p).elements(), key=bug_points)
            held = sum(bug_points(b) for b in hand)
            name = g.told(p)
            if final:
                name = f"{ranks[p]}. {name}"
            fg = ACCENT if (p == r.winner and not final) or (final and p in g.winners()) else INK
            self.label(name, (COLUMNS[0], y), scale=0.045, fg=fg, align=TextNode.ALeft)
            self.label(_("went out") if p == r.winner else str(held), (COLUMNS[1], y), scale=0.045, fg=fg,
                       align=TextNode.ARight)
            self.label(f"+{scores[p]}" if scores[p] else "0", (COLUMNS[2], y), scale=0.045, fg=fg,
                       align=TextNode.ARight)
            self.label(str(totals[p]), (COLUMNS[3], y), scale=0.045, fg=fg, align=TextNode.ARight)
        y -= 0.12
        if g.over:
            winners = g.winners()
            line = (_("{name} wins the game!").format(name=g.told(winners[0])) if len(winners) == 1 else
                    _("Shared win: {names}").format(names=", ".join(g.told(w) for w in winners)))
            self.label(line, (0, y), scale=0.055, bold=True, fg=ACCENT, wrap=1.9 / 0.055)
            t = None if review else self._tournament()   # (reviewed: the standings are on the tournament's page)
            for line in [*self.best_lines, *(tournament_lines(t) if t is not None else [])]:
                y -= 0.07
                self.label(keep_together(line), (0, y), scale=0.04, fg=DIM, wrap=1.9 / 0.04)
        bottom = -min(self.room[1], 1.0) + 0.15
        if review:
            self.show_table(backdrop, y - 0.06, bottom + 0.06)   # (its backdrop under the buttons)
            self.review_buttons(bottom)
        else:
            self.button(_("Menu (Esc)"), self.to_menu, (-0.5, bottom), width=0.6, scale=0.05)
            if g.over and self.context.get("tournament"):   # its next game, as NMBR 9's tournament results offer
                t = self._tournament()
                if t is not None and not t.over:
                    self.button(_("Next game (Enter)"), self.next, (0.5, bottom), width=0.6, scale=0.05, colour=GO)
            elif g.over:
                self.button(_("Rematch (Enter)"), self.next, (0.5, bottom), width=0.6, scale=0.05, colour=GO)
            else:
                self.button(_("Next round (Enter)"), self.next, (0.5, bottom), width=0.6, scale=0.05, colour=GO)
            self.accept("enter", self.next)
            self.accept("escape", self.to_menu)
        self.app.trace("rb-results", f"round={g.round_number}", f"over={int(g.over)}",
                       "totals=" + ",".join(map(str, totals)))

    def review_buttons(self, bottom: float) -> None:
        """A game reviewed: the round before and after (the arrow keys, Page Up and Down), back to the tournament; the
        table's view keys."""
        g = self.game
        self.button(_("Previous round (\u2190)"), self.step_round, (-0.65, bottom), width=0.6, scale=0.045,
                    args=(-1,), enabled=g.round_number > 1)
        self.button(_("Back to the tournament"), self.back_to_tournament, (0, bottom), width=0.6, scale=0.045)
        self.button(_("Next round (\u2192)"), self.step_round, (0.65, bottom), width=0.6, scale=0.045,
                    args=(1,), enabled=g.round_number < g.rounds)
        for key, step in (("arrow_left", -1), ("page_up", -1), ("arrow_right", 1), ("page_down", 1)):
            self.accept(key, self.step_round, [step])
        # the table looked at as at the table (A D W S, + / -, the wheel): but Page Up/Down step the rounds here
        from ..play import accept_view_keys
        accept_view_keys(self, self.camera, self.app.settings.camera_sensitivity, kept=("page_up", "page_down"))
        self.accept("escape", self.back_to_tournament)
        self.accept("enter", self.back_to_tournament)

    def show_table(self, backdrop, top: float, bottom: float) -> None:
        """The round reviewed as it ended, every hand face up, framed between the words above (`top`) and the
        buttons (`bottom`): the backdrop kept to those two strips."""
        g, r = self.game, self.game.round
        backdrop["frameSize"] = (-10, 10, top, 10)
        self.backdrop().setZ(bottom - 10)   # its top at the buttons' top
        low, high = (self.base.render2d.getRelativePoint(self.root, Point3(0, 0, z)).z
                     for z in (bottom + ROOM_GAP, top - ROOM_GAP))
        self.table.show(r.view(0), [g.told(p) for p in range(r.players)],
                        hands=[list(r.hand(p).elements()) for p in range(r.players)])
        self.camera.frame_in((-1.0, 1.0, low, high))
        self.table.frame(self.camera)

    def step_round(self, step: int) -> None:
        """The round before (-1) or after (1) of the game reviewed; none past either end."""
        from ...rumbugz.game import RumbugzGame
        number = min(max(1, self.game.round_number + step), len(self.rounds))
        if number != self.game.round_number:
            self.game = RumbugzGame.looked_back(self.game.seats, self.rounds, number)
            self.relabel()

    def back_to_tournament(self) -> None:
        """The tournament's page as it was left: the page of games holding this one."""
        from .tournament import TournamentScreen
        self.app.goto(TournamentScreen, chosen=self.context["tournament"], game=self.context["game"])

    def _tournament(self):
        """The tournament this game is of, as stored now; None for a game of its own (or a database gone)."""
        if not self.context.get("tournament"):
            return None
        try:
            return self.app.store.tournament(self.context["tournament"])
        except Exception:   # StoreError, sqlite3.Error: the game's results still show
            return None

    def next(self) -> None:
        g = self.game
        if g.over and self.context.get("tournament"):
            from .tournament import play_tournament
            why = play_tournament(self.app, self.context["tournament"])
            if why:   # said here, the results stay
                self.app.say(lambda: _("The next game can't be started: {reason}").format(reason=why))
            return
        if g.over:
            try:
                game = g.rematch()
            except ValueError as e:
                reason = str(e)   # (said in a lambda called later, after `e` is gone)
                self.app.say(lambda: reason)
                return
        else:
            g.next_round()
            game = g
        self.app.play(game, self.context if game is g else None)

    def to_menu(self) -> None:
        if not self.game.over:
            self.game.next_round()   # Continue starts the next round
        self.app.menu()

