"""Tournaments: the history on the left, the chosen one's standings and games on the right.

New tournament opens the seat editor with games and best-N; Continue plays
the tournament's game in progress or its next game.
"""
from __future__ import annotations

from panda3d.core import TextNode

from ...i18n import _
from .widgets import ACCENT, DIM, GO, INK, WARN, Screen

LIST_TOP = 0.58
LIST_STEP = 0.1
SHOWN = 10


class TournamentScreen(Screen):
    name = "tournament"

    def __init__(self, app, chosen: int | None = None):
        super().__init__(app)
        self.chosen = chosen
        self.message = ""

    def build(self) -> None:
        self.backdrop()
        self.label(_("Tournaments"), (0, 0.8), scale=0.09, bold=True)
        try:
            history = self.app.store.tournaments()
        except Exception as e:   # StoreError: the database can't be used
            history = []
            self.message = getattr(e, "message", str(e))
        if self.chosen is None and history:
            self.chosen = next((t.id for t in history if not t.finished), history[0].id)
        self.button(_("New tournament"), self.new, (-1.05, 0.68), width=0.9, scale=0.05, colour=GO)
        if not history:
            self.label(_("No tournaments yet."), (-1.05, LIST_TOP - 0.05), scale=0.045, fg=DIM)
        for i, t in enumerate(history[:SHOWN]):
            state = _("finished") if t.finished else _("{played} of {games} played").format(played=t.played,
                                                                                          games=t.games)
            b = self.button(f"{t.name}  ({state})", self.choose, (-1.05, LIST_TOP - i * LIST_STEP), width=0.9,
                            scale=0.036, args=(t.id,))
            if t.id == self.chosen:
                b["text_fg"] = ACCENT
        if self.chosen is not None:
            self.details(self.chosen)
        if self.message:
            self.label(self.message, (0, -0.72), scale=0.04, fg=WARN, wrap=50)
        self.button(_("Back (Esc)"), self.app.menu, (-1.05, -0.87), width=0.5, scale=0.05)
        self.accept("escape", self.app.menu)

    def details(self, tid: int) -> None:
        try:
            t = self.app.store.tournament(tid)
        except Exception as e:
            self.message = getattr(e, "message", str(e))
            return
        x = -0.45
        self.label(t.name, (x, 0.66), scale=0.06, bold=True, align=TextNode.ALeft)
        self.label(_("{games} games, the best {best} count; seed {seed}").format(games=t.games, best=t.best,
                                                                                  seed=t.seed),
                   (x, 0.58), scale=0.036, align=TextNode.ALeft, fg=DIM)
        heads = [_("Place"), _("Player"), _("Best {n}").format(n=t.best), _("Total"), _("Wins"), _("Games")]
        cols = [x, x + 0.2, x + 0.95, x + 1.2, x + 1.45, x + 1.68]
        for head, cx in zip(heads, cols):
            self.label(head, (cx, 0.47), scale=0.036, align=TextNode.ALeft, fg=DIM)
        standings = t.standings()
        for i, s in enumerate(standings):
            y = 0.39 - i * 0.075
            who = s.name if s.kind == "human" else f"{s.name} ({_('bot')})"
            for value, cx in zip([s.place, who, s.best, s.total, s.wins, s.played], cols):
                self.label(str(value), (cx, y), scale=0.04, align=TextNode.ALeft, fg=INK)
        y = 0.39 - len(standings) * 0.075 - 0.06
        entries = t.entries()
        if entries:
            self.label(_("Games (click a finished one to see its boards):"), (x, y), scale=0.034,
                       align=TextNode.ALeft, fg=DIM)
        for i, g in enumerate(entries[-7:]):
            gy = y - 0.075 - i * 0.072
            if g.finished:
                scores = ", ".join(f"{s.name} {n}" for s, n in zip(t.seats, g.scores))
                self.button(_("Game {number}: {scores}").format(number=g.number, scores=scores), self.review,
                            (x + 0.9, gy), width=1.8, scale=0.034, args=(t.id, g.number))
            else:
                self.label(_("Game {number}: in progress").format(number=g.number), (x + 0.02, gy - 0.01),
                           scale=0.034, align=TextNode.ALeft, fg=DIM)
        if not t.over:
            self.button(_("Continue the tournament") if t.entries() else _("Play the first game"), self.play,
                        (0.55, -0.87), width=0.9, scale=0.05, colour=GO, args=(t.id,))
        else:
            self.label(_("This tournament is over."), (0.55, -0.87), scale=0.045, fg=ACCENT)

    def review(self, tid: int, number: int) -> None:
        """A finished game's results and boards, from its stored record."""
        from ...match import Match
        from ...rules.record import RecordError
        from .results import ResultsScreen
        entry = next(g for g in self.app.store.tournament(tid).entries() if g.number == number)
        try:
            match = Match.from_record(entry.record)
        except RecordError as e:
            self.message = _("Game {number} can't be shown: {reason}").format(number=number, reason=e)
            self.relabel()
            return
        self.app.goto(ResultsScreen, match=match, context={"tournament": tid, "review": True})

    def choose(self, tid: int) -> None:
        self.chosen = tid
        self.relabel()

    def new(self) -> None:
        from .setup import SetupScreen
        self.app.goto(SetupScreen, tournament=True)

    def play(self, tid: int) -> None:
        try:
            t = self.app.store.tournament(tid)
            match = self.app.store.tournament_match(t)
        except Exception as e:   # StoreError: a game that can't be resumed
            self.message = getattr(e, "message", str(e))
            self.relabel()
            return
        if match is not None:
            self.app.play(match, {"tournament": tid})
