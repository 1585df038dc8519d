"""Puzzles: pick one of two offered puzzles, the daily puzzle, or type a friend's code.

A puzzle is played by the named player against three bots (their scores
join the leaderboard once per puzzle). Earlier players of the same puzzle
appear in the play screen's score list, and their boards show as they stood
at the same round as the player's own.
"""
from __future__ import annotations

import datetime as dt
import random

from panda3d.core import TextNode

from ...i18n import _
from ...match import Match, default_name, derive_seed, fresh_seed, seat_name, stored_name
from ...puzzle import BOT_NAMES, Puzzle, PuzzleCodeError, daily_puzzle, decode, offered_puzzles, random_puzzle
from ...rules import Seat
from .widgets import DIM, NARROW, SMALL, WARN, WIDE, KeyMenu, Screen

BOT_SEATS = ("easy", "medium", "hard")


def puzzle_seats(player: str) -> list[Seat]:
    """The player and the three bots, named in English: shown in the language of the moment (player_name)."""
    return [Seat(player, "human")] + [Seat(BOT_NAMES[f"bot:{s}"], f"bot:{s}") for s in BOT_SEATS]


def start_puzzle(app, puzzle: Puzzle, seats: list[Seat]):
    """A new game of the puzzle (its first tile laid), autosaved, on the table."""
    code = puzzle.code
    match = Match(puzzle.new_game(seats), derive_seed("puzzle", code), extra={"puzzle": code},
                  savers=[app.store.autosave, app.store.scores])   # its results kept with its last tile
    match.save()
    return app.play(match, {"puzzle": code})


class PuzzleScreen(Screen):
    name = "puzzles"
    layouts = (WIDE, NARROW)

    def __init__(self, app):
        super().__init__(app)
        # the two puzzles offered stay until one is played, also after a restart (the online edition: "you
        # always have 2 random puzzles"): opening the page again drew two new ones, so a player could re-roll
        kept = app.settings.puzzles or {}
        self.offered = (tuple(decode(code) for code in kept["offered"]) if kept
                        else offered_puzzles(random.Random(fresh_seed())))
        self.daily = daily_puzzle(dt.date.today())
        self.player = kept.get("player") or self._last_player()   # a name typed here and not played yet
        self.code_text = ""
        self.message = ""
        self.keys = None    # the keyboard's place on the page, kept when a sentence rebuilds it
        from .menu import game_it_ends
        self.replaces = game_it_ends(app)
        self.remember()   # two new ones kept at once: closing the window must not draw others either

    def build(self) -> None:
        """The name, the three puzzles (what each is beside it, or under it in a tall window), a friend's code."""
        self.backdrop()
        narrow = self.narrow
        line, top, bottom = (1.8 if narrow else 2.5), self.room[1] - 0.16, -self.room[1]
        self.label(_("Puzzles"), (0, top), scale=0.08, bold=True)
        self.label(_("Everyone gets the same cards in the same order, and the first tile is already laid."),
                   (0, top - 0.11), scale=0.04, fg=DIM, wrap=line / 0.04)
        field = -0.2 if narrow else -0.4   # the fields' left edge; their names end just left of it
        y = top - (0.34 if narrow else 0.29)
        self.label(_("Your name:"), (field - 0.05, y), scale=0.05, align=TextNode.ARight)
        self.name_entry = self.name_field(seat_name(self.player, "human"), self._default, (field, y),
                                          width=(1.1 if narrow else 0.9), scale=0.05)
        walk = [self.name_entry]   # in the order the keyboard walks them
        rows = [(_("Puzzle A"), self.offered[0]), (_("Puzzle B"), self.offered[1]),
                (_("Daily puzzle, {date}").format(date=dt.date.today().isoformat()), self.daily)]
        y -= 0.2
        for title, puzzle in rows:
            # plain buttons, as on every page: the keyboard's highlight is the one green one (two green
            # puzzles, one a lighter green, left the player guessing which was lit)
            if narrow:   # the button, and what it is under it
                walk.append(self.button(title, self.play, (0, y), width=1.3, scale=0.05, args=(puzzle,)))
                self.label(self._about(puzzle), (0, y - 0.1), scale=SMALL, fg=DIM, wrap=line / SMALL)
                y -= 0.27
            else:
                walk.append(self.button(title, self.play, (-0.75, y), width=0.95, scale=0.05, args=(puzzle,)))
                self.label(self._about(puzzle), (-0.2, y), scale=0.038, align=TextNode.ALeft, fg=DIM,
                           wrap=1.45 / 0.038)
                y -= 0.17
        y -= 0.03
        self.label(_("A friend's code:"), (field - 0.05, y), scale=0.05, align=TextNode.ARight)
        self.code_entry = self.entry(self.code_text, (field, y), width=(1.1 if narrow else 0.7), scale=0.05,
                                     command=self.play_code)
        if narrow:
            y -= 0.13
        walk += [self.code_entry, self.button(_("Play this code"), self.play_code, (0 if narrow else 0.65, y + 0.015),
                                              width=0.7 if narrow else 0.55, scale=0.045)]
        y -= 0.17
        if self.message:
            self.label(self.message, (0, y), scale=0.042, fg=WARN, wrap=line / 0.042)
            y -= 0.15
        self.label(_("Tell friends the code: they play the same puzzle and compare boards round by round."),
                   (0, y), scale=SMALL, fg=DIM, wrap=line / SMALL)
        if self.replaces is not None:
            from .menu import ends_saved_game
            self.label(ends_saved_game(self.replaces, puzzle=True), (0, y - 0.12), scale=SMALL, fg=WARN, wrap=line / SMALL)
        walk.append(self.button(_("Back (Esc)"), self.back, (0, bottom + 0.15), width=0.5, scale=0.05))
        self.label(_("Tab or arrow keys walk the page, Space presses"), (0, bottom + 0.04), scale=SMALL, fg=DIM,
                   wrap=line / SMALL)
        # at first on Puzzle A; after a sentence where it was (the code's field: Enter there plays the code,
        # and the same Enter must not press a button once the page is built again)
        self.keys = KeyMenu(self, walk, self.keys.index if self.keys else 1)
        self.accept("escape", self.back)

    def keep(self) -> None:
        self.player, self.code_text = self._name(), self.code_entry.get().strip()

    def remember(self, played: Puzzle | None = None) -> None:
        """Keep the puzzles offered (a played one replaced by a new one, the other still offered) and a name
        typed here (none for the default "Player 1": the last puzzle's player is offered then) in the settings."""
        if played in self.offered:
            rng, new = random.Random(fresh_seed()), played
            while new in self.offered:
                new = random_puzzle(rng)
            self.offered = tuple(new if p == played else p for p in self.offered)
        typed = "" if self.player == stored_name(self._default()) else self.player
        kept = {"offered": [p.code for p in self.offered], "player": typed}
        if kept != self.app.settings.puzzles:
            self.app.save_settings(self.app.settings.changed(puzzles=kept))   # kept, if the disk allows

    def back(self) -> None:
        self.keep()
        self.remember()
        self.app.menu()

    def _last_player(self) -> str:
        """Who played the last puzzle here, so a player need not type their name every time; before any puzzle,
        the first human named in New game (a first puzzle went on its leaderboard as "Player 1")."""
        from ...store import last_puzzle_player
        try:
            name = last_puzzle_player(self.app.store.db)
        except Exception:   # StoreError, sqlite3.Error: the name is typed then
            name = None
        seats = (self.app.settings.new_game or {}).get("seats", [])
        return name or next((s["name"] for s in seats if s["kind"] == "human" and s["name"].strip()), "")

    def _about(self, puzzle: Puzzle) -> str:
        from ...store import puzzle_results
        text = _("code {code}, first tile {digit}").format(code=puzzle.code, digit=puzzle.deck[0])
        try:
            results = [r for r in puzzle_results(self.app.store.db, puzzle.code) if r.kind == "human"]
        except Exception:
            results = []
        if results:
            text += "  \u00b7  " + _("best so far {score} ({name})").format(score=results[0].score,
                                                                          name=seat_name(results[0].player, "human"))
        return text

    @staticmethod
    def _default() -> str:
        """The name a puzzle is played under when none is typed: New game's first seat's."""
        return default_name(0, "human")

    def _name(self) -> str:
        """The name typed, or the default, as kept (a default in English: one player in every language)."""
        return stored_name(self.name_entry.get().strip() or self._default())

    def play(self, puzzle: Puzzle) -> None:
        self.keep()
        self.remember(played=puzzle)
        start_puzzle(self.app, puzzle, puzzle_seats(self.player))

    def play_code(self, *_args) -> None:
        self.keep()
        try:
            puzzle = decode(self.code_text)
        except PuzzleCodeError as e:
            self.message = str(e)   # each reason a whole sentence ("That code doesn't work: That is not a puzzle code.")
            if _args:   # Enter in the code's field (it gives its text): the page is built again on the
                # field, to correct it, also when it was clicked with the keyboard's highlight elsewhere
                # (the same Enter would press that button)
                self.keys.index = self.keys.buttons.index(self.code_entry)
            self.relabel()
            return
        self.play(puzzle)

