"""A RumBugz round's results (who went out, what each hand held, the points, the totals), then the next round;
after the last round the final standings and a rematch."""
from __future__ import annotations

from panda3d.core import TextNode

from ...i18n import _
from ...match import places
from ...rumbugz.rules.bugs import bug_points
from ...rumbugz.play import TURN_LIMIT, stopped
from .results import tournament_lines
from .widgets import ACCENT, DIM, GO, INK, Screen, keep_together

COLUMNS = (-0.95, 0.05, 0.45, 0.85)   # name, hand, round, total (right edges but the name's)


class RumbugzResultsScreen(Screen):
    name = "rumbugz-results"

    def __init__(self, app, game, context: dict | None = None):
        super().__init__(app)
        self.game = game
        self.context = context or {}   # {"tournament": its id} for a tournament's game
        self.best_lines: list[str] = []
        if game.over:
            self.best_lines = self._record_finished()

    def _record_finished(self) -> list[str]:
        """The finished game into the humans' personal bests: the lines to show (a new best, or why it was not
        stored)."""
        from ...store.rumbugz import record_finished
        stored = record_finished(self.app.store, self.game.round_records(), self.game.created)
        return [*stored.lines, *([stored.message] if stored.message else [])]

    def build(self) -> None:
        g, r = self.game, self.game.round
        self.backdrop()
        top = min(self.room[1], 1.0) - 0.14
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
        order = sorted(range(r.players), key=lambda p: -totals[p]) if g.over else range(r.players)
        ranks = places(totals)
        for p in order:
            y -= 0.085
            hand = sorted(r.hand(p).elements(), key=bug_points)
            held = sum(bug_points(b) for b in hand)
            name = g.told(p)
            if g.over:
                name = f"{ranks[p]}. {name}"
            fg = ACCENT if (p == r.winner and not g.over) or (g.over and p in g.winners()) else INK
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
            t = self._tournament()
            for line in [*self.best_lines, *(tournament_lines(t) if t is not None else [])]:
                y -= 0.07
                self.label(keep_together(line), (0, y), scale=0.04, fg=DIM, wrap=1.9 / 0.04)
        bottom = -min(self.room[1], 1.0) + 0.15
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

