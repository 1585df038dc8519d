"""Tournaments: the history on the left (a page at a time), the chosen one's standings and games on the right.

New tournament opens the seat editor with games and best-N; Continue plays
the tournament's game in progress or its next game.
"""
from __future__ import annotations

from panda3d.core import TextNode

from ...i18n import _
from ...match import seat_name, seat_told, with_strength
from ...store.rumbugz import GAME_FORMAT
from ...store.tournaments import DAMAGED_COPY, RUMBUGZ, played_by_command
from ..hud import measure
from .widgets import ACCENT, DIM, GO, INK, NARROW, SHRINK, SMALL, WARN, WIDE, KeyMenu, Screen

LIST_STEP = 0.1
SHOWN = 10          # tournaments on a page of the history (half of them in a tall window); Older/Newer turn it
GAMES_SHOWN = 7     # lines for the chosen tournament's games (5 in a tall window); with more games, one of them
                    # turns their pages (Older/Newer)
WATCH_EVERY = 1.5   # seconds between two looks at whether another process moved the tournaments on


def play_tournament(app, tid: int, unsaved=None) -> str | None:
    """Play the tournament's game in progress (`unsaved`: the window's own copy, newer than any saved), or its
    next one, the tournament held (`nmbr9 tournament` does not play it meanwhile); why not, in a sentence (a
    game that can't be resumed, a database that can't be written, `nmbr9 tournament` playing it now)."""
    try:
        t = app.store.tournament(tid)
        if t.game == RUMBUGZ:
            return app.play_rumbugz_tournament(t, unsaved)
        if unsaved is None:
            match = app.store.play_tournament(t)
        else:
            app.store.hold_tournament(t)
            match = unsaved
    except Exception as e:   # StoreError, sqlite3.Error
        return getattr(e, "message", str(e))
    if match is None:   # over meanwhile (played by the command): its standings
        app.goto(TournamentScreen, chosen=tid)
    else:
        app.play(match, {"tournament": tid})
    return None


def in_progress(entry) -> str:
    """A game in progress as the page lists it: "Game 3 · Round 7 of 20", the round its record was saved at
    (after every round while `nmbr9 tournament` plays it)."""
    from ...match import Match
    from ...rules.record import RecordError
    from .session import round_only
    record = entry.record or {}
    if record.get("format") == GAME_FORMAT:   # RumBugz's: the rounds played so far
        rounds = record.get("rounds")
        return _("Game {game} \u00b7 {round}").format(game=entry.number, round=_("Round {round}").format(
            round=len(rounds) + 1)) if isinstance(rounds, list) else _("Game {number}: in progress").format(
            number=entry.number)
    try:
        if entry.record is None:
            raise RecordError(DAMAGED_COPY)
        match = Match.from_record(entry.record, threaded=False)   # only to name its round: no bot thinks
    except (RecordError, ValueError):   # a damaged copy: said when it is continued
        return _("Game {number}: in progress").format(number=entry.number)
    return _("Game {game} \u00b7 {round}").format(game=entry.number, round=round_only(match))


class TournamentScreen(Screen):
    name = "tournament"
    layouts = (WIDE, NARROW)

    def __init__(self, app, chosen: int | None = None, game: int | None = None):
        super().__init__(app)
        self.chosen = chosen
        self.page = None    # the history's page shown, 0 the newest; at first the one holding the chosen tournament
        self.game = game    # the chosen tournament's game just reviewed, whose page of games is shown
        self.games_page = None   # the page of its games shown, 0 the latest; at first the one holding `game`
        self.message = ""
        self.keys = None    # the keyboard's place on the page, kept when a choice rebuilds it
        self.seen = None    # the page as shown: (the chosen tournament held by `nmbr9 tournament`, all progress)
        from .menu import game_it_ends
        self.replaces = game_it_ends(app)   # a saved game outside the tournaments, which a game here ends

    def enter(self) -> None:
        super().enter()
        self.base.taskMgr.doMethodLater(WATCH_EVERY, self._watch, "tournament-watch")

    def exit(self) -> None:
        self.base.taskMgr.remove("tournament-watch")
        super().exit()

    def _look(self) -> tuple[bool, tuple[int, int, int, int]]:
        """What another process changes on this page: whether `nmbr9 tournament` plays the chosen tournament, and
        how far the tournaments have got (store.progress: quick looks, not the history read)."""
        store = self.app.store
        return self.chosen is not None and store.held_elsewhere(self.chosen), store.progress()

    def _watch(self, task):
        """The page again when another process moved a tournament on (the round, standings, games and history) or
        made one, or took the chosen one or let it go (Continue offered again, without leaving the page)."""
        try:
            seen = self._look()
        except Exception:   # StoreError, sqlite3.Error: the page already says what it can
            return task.again
        if self.seen is not None and seen != self.seen:
            if seen[0] != self.seen[0]:
                self.message = ""   # e.g. "being played by the command", from a Continue pressed as it started
            self.relabel()
        return task.again

    def button(self, *args, **kw):
        b = super().button(*args, **kw)
        if kw.get("enabled", True):   # (KeyMenu leaves a disabled one out: the walk's places are its places)
            self.walk.append(b)       # in the order the keyboard walks them
        return b

    def build(self) -> None:
        """The history beside the chosen tournament (above it in a tall window)."""
        self.walk = []
        self.starts_game = False   # the chosen tournament's button starts (or resumes) a game
        self.note = ""             # why it does not: `nmbr9 tournament` plays it
        self.backdrop()
        narrow = self.narrow
        top, bottom = self.room[1] - 0.16, -self.room[1]
        self.label(_("Tournaments"), (0, top), scale=0.08, bold=True)
        with self.app.store.one_look():   # the history, standings and games as one: a command may save a game
            try:
                self.seen = self._look()   # before the history is read: what moves on meanwhile is shown next time
                history = self.app.store.tournaments()
            except Exception as e:   # StoreError: the database can't be used
                self.seen = None
                history = []
                self.message = getattr(e, "message", str(e))
            if self.chosen is None and history:
                self.chosen = next((t.id for t in history if not t.finished), history[0].id)
            list_x, list_w = (0, 1.8) if narrow else (-0.9, 0.8)
            self.button(_("New tournament"), self.new, (list_x, top - 0.16), width=min(list_w, 1.0), scale=0.05,
                        colour=GO)
            y = top - 0.27
            if not history and self.seen is not None:   # (not when the database could not be read: it may hold some)
                self.label(_("No tournaments yet."), (list_x, y - 0.05), scale=0.045, fg=DIM)
            per_page = SHOWN // 2 if narrow else SHOWN
            if self.page is None:
                self.page = next((i for i, t in enumerate(history) if t.id == self.chosen), 0) // per_page
            self.pages = pages = max(1, -(-len(history) // per_page))
            self.page = min(self.page, pages - 1)   # (a tall window's pages are shorter: more of them)
            shown = history[self.page * per_page:(self.page + 1) * per_page]
            for i, t in enumerate(shown):
                state = _("finished") if t.finished else _("{played} of {games} played").format(played=t.played,
                                                                                              games=t.games)
                state = f"RumBugz, {state}" if t.game == RUMBUGZ else state
                b = self.button(f"{t.name}  ({state})", self.choose, (list_x, y - i * LIST_STEP), width=list_w,
                                scale=SMALL, args=(t.id,))
                # a name too long for the button cut short, never its state: "Club Championship — Autumn  (11 of
                # 12…" hid how far it had got
                self._fit(b, t.name, list_w / SMALL - 0.8, lambda cut, state=state: f"{cut}  ({state})")
                if t.id == self.chosen:
                    b["text_fg"] = ACCENT
            y -= len(shown) * LIST_STEP
            if pages > 1:   # every tournament can be reached, older ones too (an unfinished one to continue)
                self.paging(history, shown, (list_x, y), list_w)
                y -= LIST_STEP
            if self.chosen is not None:   # beside the list, or under it
                self.details(self.chosen, (-0.9, y - 0.05) if narrow else (-0.4, top - 0.18))
        if self.message or self.note:
            self.label(self.message or self.note, (0, bottom + 0.28), scale=0.04, fg=WARN,
                       wrap=(1.8 if narrow else 2.5) / 0.04)
        elif self.replaces is not None and self.starts_game:
            from .menu import ends_saved_game
            self.label(ends_saved_game(self.replaces), (0, bottom + 0.28), scale=SMALL, fg=WARN,
                wrap=(1.8 if narrow else 2.5) / SMALL)
        self.button(_("Back (Esc)"), self.app.menu, (-0.62 if narrow else -0.9, bottom + 0.13), width=0.5,
                    scale=0.05)
        self.label(_("Tab or arrow keys walk the page, Space presses"), (0, bottom + 0.035), scale=SMALL, fg=DIM,
                   wrap=(1.8 if narrow else 2.5) / SMALL)
        # at first on Continue (or New tournament); after a choice on the button just pressed
        doing = self.keys.current() if self.keys else None
        self.keys = KeyMenu(self, self.walk, next((i for i, b in enumerate(self.walk) if b["command"] == self.play), 0))
        if not self.keys.find(doing) and doing is not None and doing[0] in (self.turn, self.turn_games):
            self.keys.find((doing[0], (-doing[1][0],)))   # the last page reached: on the way back
        self.accept("escape", self.app.menu)
        self.accept("page_up", self.turn, [-1])
        self.accept("page_down", self.turn, [1])

    def paging(self, history, shown, at: tuple[float, float], width: float) -> None:
        """Under the list: Newer, which of them are shown ("11–20 of 25"), Older."""
        first = self.page * (SHOWN // 2 if self.narrow else SHOWN) + 1
        last = first + len(shown) - 1
        self.pager(self.turn, (first, last, len(history)), at, width, newer=first > 1, older=last < len(history))

    def pager(self, turn, shown: tuple[int, int, int], at: tuple[float, float], width: float, newer: bool,
              older: bool) -> None:
        """Newer (`turn(-1)`), which are shown (first, last, of how many: "11–20 of 25"), Older (`turn(1)`)."""
        (x, y), side = at, width * 0.32
        self.button(_("Newer"), turn, (x - (width - side) / 2, y), width=side, scale=SMALL, args=(-1,), enabled=newer)
        self.label(_("{first}\u2013{last} of {count}").format(first=shown[0], last=shown[1], count=shown[2]),
                   (x, y - 0.01), scale=SMALL, fg=DIM)
        self.button(_("Older"), turn, (x + (width - side) / 2, y), width=side, scale=SMALL, args=(1,), enabled=older)

    def turn(self, step: int) -> None:
        """The history's next page (1: older tournaments) or the one before (-1: newer); none past either end."""
        page = min(max(0, self.page + step), self.pages - 1)
        if page != self.page:
            self.page = page
            self.relabel()

    def turn_games(self, step: int) -> None:
        """The chosen tournament's earlier games (1) or later ones (-1)."""
        page = max(0, self.games_page + step)   # (past the earliest: details() brings it back)
        if page != self.games_page:
            self.games_page = page
            self.relabel()

    def details(self, tid: int, at: tuple[float, float]) -> None:
        """The tournament's standings and games, from `at` (their top left corner) down."""
        try:
            t = self.app.store.tournament(tid)
        except Exception as e:
            self.message = getattr(e, "message", str(e))
            return
        held = self.seen is not None and self.seen[0]   # (a tournament chosen just now: looked at next time)
        (x, y), narrow = at, self.narrow
        width = 1.8 if narrow else 1.7
        self.label(t.name, (x, y), scale=0.06, bold=True, align=TextNode.ALeft)
        from .menu import rules_text
        about = _("{games}, {best}; seed {seed}").format(games=t.games_told(), best=t.best_told(), seed=t.seed)
        # what the games are played under: NMBR 9 ++'s variant and modules, or RumBugz and its rounds
        rules = t.ruleset.told() if t.game == RUMBUGZ else rules_text(t.ruleset)
        self.label(" \u00b7 ".join([about, rules] if rules else [about]),
                   (x, y - 0.08), scale=SMALL, align=TextNode.ALeft, fg=DIM, wrap=width / SMALL)
        heads = [_("Place"), _("Player"), _("Best {n}").format(n=t.best), _("Total"), _("Wins"), _("Games")]
        cols = [x + dx for dx in ((0, 0.17, 0.95, 1.2, 1.42, 1.62) if narrow else (0, 0.15, 0.85, 1.07, 1.29, 1.48))]
        standings = t.standings()
        rows = [[s.place_told, seat_told(s.name, s.kind), s.best, s.total, s.wins, s.played] for s in standings]
        for c in (0, 2, 3, 4):   # not the players' names: those are cut short to their room (_fit)
            # the next column starts where this one's words end, and a gap ("Miejsce" and "Gracz" ran together)
            words = max([measure(self.app.font, heads[c], SMALL)[0]] +
                        [measure(self.app.font, str(row[c]), 0.04)[0] for row in rows])
            cols[c + 1] = max(cols[c + 1], cols[c] + words + 0.04)
        y -= 0.19
        for head, cx in zip(heads, cols):
            self.label(head, (cx, y), scale=SMALL, align=TextNode.ALeft, fg=DIM)
        for i, (row, s) in enumerate(zip(rows, standings)):
            sy = y - 0.08 - i * 0.075
            who = row[1]
            for value, cx in zip(row, cols):
                label = self.label(str(value), (cx, sy), scale=0.04, align=TextNode.ALeft, fg=INK)
                if value is who:   # a long name smaller or cut short, not over the points; a bot's strength kept
                    self._fit(label, seat_name(s.name, s.kind), (cols[2] - cx - 0.03) / 0.04,
                              lambda cut, kind=s.kind: with_strength(cut, kind))
        y -= 0.08 + len(rows) * 0.075 + 0.06
        entries = t.entries()
        if entries:
            self.label(_("Games (click a finished one to see its rounds):") if t.game == RUMBUGZ else
                       _("Games (click a finished one to see its boards):"), (x, y),
                       scale=SMALL, align=TextNode.ALeft, fg=DIM, wrap=width / SMALL)
        # a page of them, at first the latest (or the one holding the game just reviewed): a twelve-game
        # tournament showed its last seven games only, the first five beyond reach
        room = GAMES_SHOWN - 2 if narrow else GAMES_SHOWN
        per_page = room - 1 if len(entries) > room else room
        if self.games_page is None:
            at = next((i for i, g in enumerate(entries) if g.number == self.game), len(entries) - 1)
            self.games_page = (len(entries) - 1 - at) // per_page
        self.games_page = min(self.games_page, max(0, (len(entries) - 1) // per_page))
        end = len(entries) - self.games_page * per_page
        shown = entries[max(0, end - per_page):end]
        for i, g in enumerate(shown):
            gy = y - 0.075 - i * 0.072
            if g.finished:
                line = self.game_line(g.number, [(seat_name(s.name, s.kind), n) for s, n in zip(t.seats, g.scores)],
                                      width / SMALL - 0.8)   # the room of the button's text (Screen.button)
                self.button(line, self.review, (x + width / 2, gy), width=width, scale=SMALL, args=(t.id, g.number))
            else:
                self.label(in_progress(g), (x + 0.02, gy - 0.01), scale=SMALL, align=TextNode.ALeft, fg=DIM)
        if len(entries) > per_page:
            first = end - len(shown) + 1
            self.pager(self.turn_games, (first, end, len(entries)), (x + width / 2, y - 0.075 - per_page * 0.072),
                       min(width, 1.0), newer=end < len(entries), older=first > 1)
        at = (0.42 if narrow else 0.45, -self.room[1] + 0.13)
        self.starts_game = not t.over and not held
        if self.starts_game:
            self.button(_("Continue the tournament") if t.entries() else _("Play the first game"), self.play,
                        at, width=0.9, scale=0.05, colour=GO, args=(t.id,))
        elif not t.over:   # its standings move on as it plays; once it lets go, Continue
            self.note = played_by_command(t.name)
        else:
            self.label(_("This tournament is over."), at, scale=0.045, fg=ACCENT)

    def game_line(self, number: int, scores: list[tuple[str, int]], room: float) -> str:
        """"Game 1: Ana 97, Ben 104"; where the names are too long for the line even in the smallest text a button
        takes, the longest names cut short ("Maximiliane-Jo… 12"), never the scores: five long names cut the line
        at its end, the last players' scores with it."""
        kept = [len(name) for name, _n in scores]

        def line() -> str:
            told = ", ".join(f"{name[:k].rstrip()}{'' if k == len(name) else '…'} {n}"
                             for (name, n), k in zip(scores, kept))
            return _("Game {number}: {scores}").format(number=number, scores=told)
        while measure(self.app.font, line())[0] * SHRINK > room and max(kept) > 1:
            kept[kept.index(max(kept))] -= 1
        return line()

    def review(self, tid: int, number: int) -> None:
        """A finished game's results and boards (a RumBugz game's rounds, from its first), from its stored record."""
        from ...match import Match
        from ...rules.record import RecordError
        from ...rumbugz.game import RumbugzGame, finished_round
        from .results import ResultsScreen
        from .rumbugz_results import RumbugzResultsScreen
        t = self.app.store.tournament(tid)
        entry = next(g for g in t.entries() if g.number == number)
        context = {"tournament": tid, "review": True, "game": number}
        try:
            if entry.record is None:
                raise RecordError(DAMAGED_COPY)
            if t.game == RUMBUGZ:
                rounds, players = entry.record.get("rounds"), entry.record.get("players")
                if not (isinstance(rounds, list) and rounds and isinstance(players, list)):
                    raise RecordError(DAMAGED_COPY)
                rounds = [finished_round(r) for r in rounds]
                game = RumbugzGame.looked_back(players, rounds, 1)
            else:
                match = Match.from_record(entry.record)
        except RecordError as e:
            self.message = _("Game {number} can't be shown: {reason}").format(number=number, reason=e.text(_))
            self.relabel()
            return
        if t.game == RUMBUGZ:
            self.app.goto(RumbugzResultsScreen, game=game, context=context, rounds=rounds)
        else:
            self.app.goto(ResultsScreen, match=match, context=context)

    def choose(self, tid: int) -> None:
        self.chosen, self.game, self.games_page = tid, None, None
        self.relabel()

    def new(self) -> None:
        from .setup import SetupScreen
        self.app.goto(SetupScreen, tournament=True)

    def play(self, tid: int) -> None:
        self.message = play_tournament(self.app, tid) or ""
        if self.message:
            self.relabel()
