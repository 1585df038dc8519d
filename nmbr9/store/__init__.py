"""The player's files: the autosave, settings, and the database of tournaments and puzzles.

`Store` is the one object the menus need:

    store = Store()                      # the data folder (NMBR9_DATA in tests)
    found = store.continue_game()        # Resume(match or None, message or None)
    match = store.new_match(seats, seed=None, practice=False)
    t = store.new_tournament(seats, games=5, best=4, seed=1)
    match = store.tournament_match(t)    # the game in progress or the next one
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

from ..i18n import _
from ..match import Match, fresh_seed
from ..paths import data_dir
from ..rules import Ruleset, Seat
from ..rumbugz.game import is_rumbugz
from .autosave import Autosave, Resume
from .later import Later
from .db import FILENAME, StoreError, one_look, open_db, sqlite_reason
from .files import (SaveError, folder_problem, free_path, hold_folder, let_go, lock_held, set_aside,
                    sweep_leftovers, write_atomic)
from .puzzles import (PuzzleResult, add_puzzle_result, last_puzzle_player, puzzle_results, result_game,
                      store_puzzle_game)
from .records import Best, Results, record_score
from .settings import Settings, load_settings, read_settings, save_settings
from .tournaments import (WINDOW, GameEntry, Standing, Summary, Tournament, TournamentSaver, lock_name,
                          played_by_command, progress, tournaments)


class Store:
    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder or data_dir())
        self.folder.mkdir(parents=True, exist_ok=True)
        self.autosave = Autosave(self.folder)
        self.scores = Results(self)     # a saver too: a finished game's scores and puzzle results
        self._db: sqlite3.Connection | None = None
        self.db_message: str | None = None   # set when a broken database was set aside
        self.settings_message: str | None = None   # set when the settings file could not be read
        self._lock = None                      # the data folder's lock file while this window holds it
        self._playing = None                   # (tournament id, its lock file) while this window plays it
        self.later: Later | None = None        # the window's: writes waiting while another program holds the database

    # ----- settings ---------------------------------------------------------------
    def settings(self) -> Settings:
        settings, self.settings_message = read_settings(self.folder)
        return settings

    def save_settings(self, settings: Settings) -> None:
        save_settings(settings, self.folder)

    # ----- games --------------------------------------------------------------------
    def new_match(self, seats: list[Seat], seed: int | None = None, ruleset: Ruleset = Ruleset(),
                  practice: bool = False, **match_kw) -> Match:
        """A new game, autosaved from the start (it replaces the previous autosave)."""
        match = Match.new(seats, fresh_seed() if seed is None else seed, ruleset, practice=practice,
                          savers=[self.autosave, self.scores, *match_kw.pop("savers", [])], **match_kw)
        match.save()
        return match

    def new_rumbugz(self, seats: list[dict], seed: int | None = None, rounds: int = 3):
        """A new RumBugz game, autosaved from the start (it replaces the previous autosave)."""
        from ..match import check_seed
        from ..rumbugz.game import RumbugzGame
        if seed is not None:
            check_seed(seed)
        return RumbugzGame.new(seats, seed, rounds, savers=[self.autosave])

    def continue_game(self, **match_kw) -> Resume:
        """The autosaved game (a tournament game gets its tournament back), or why there is none."""
        extra = match_kw.pop("savers", [])
        found = self.autosave.load(savers=[self.scores, *extra], **match_kw)
        if found.finished is not None:   # ended by its last placement: its scores kept, if a crash came first
            try:
                self.scores.save(found.finished)
            except SaveError as e:
                found.message = e.message
        m, last = found.match, found.match or found.finished
        if last is not None and last.tournament and not is_rumbugz(last):   # RumBugz's: store.rumbugz.window_game
            try:
                self.db
            except StoreError:
                # no database to play it into: played as a game of its own, its rounds never reached its
                # tournament. Kept as it is (the tournament holds it too) until the database can be used; why
                # the database can't be used is said where it is opened (the menu's other line)
                found.match = None
                found.message = _("Your tournament game can't be continued while the tournament database can't "
                                  "be used: it is kept, and Continue offers it again once it can.")
                return found
            try:
                t = self.tournament(last.tournament["id"])
                stored = next((e for e in t.entries() if e.number == last.tournament["game"]), None)
                same = ("created", "players", "deck")
                if stored is None or stored.record is not None and \
                        [stored.record.get(k) for k in same] != [last.record()[k] for k in same]:
                    # another tournament under its number (the database was set aside or deleted since, and
                    # `nmbr9 tournament` made one): the saved game was not offered, or its saves overwrote
                    # that tournament's game
                    raise StoreError(_("The saved game's tournament is no longer in the database: the game goes "
                                       "on as a game of its own."))
                if m is not None and stored is not None and \
                        len((stored.record or {}).get("moves", ())) > len(m.game.moves):
                    # the autosave fell behind (its folder refused it, the database did not): the
                    # database's copy is the last confirmed placement; a finished game is not offered
                    found.match = None if stored.finished else self.tournament_match(t, savers=extra, **match_kw)
                else:
                    if m is not None:
                        t.attach(m)
                    if stored is not None and not stored.finished and \
                            len((stored.record or {}).get("moves", ())) < len(last.game.moves):
                        # the database fell behind (another program held it, and the game was closed or killed
                        # before the write landed): the autosave's tiles are stored now, never played again
                        TournamentSaver(t).save(last)
                if found.match is None and not t.over:   # its game is over: Continue plays the next one
                    found.tournament = t
            except SaveError as e:   # kept in the autosave: tried again at the next start
                found.message = e.message
            except StoreError as e:   # the tournament is gone: the game still continues
                if m is not None:
                    found.message = e.message
                    m.tournament = None
            except (sqlite3.Error, ValueError, KeyError, TypeError) as e:   # a damaged or locked row: the same
                if m is not None:
                    found.message = _("Can't use the tournament database {path}: {reason}").format(
                        path=self.folder / FILENAME, reason=sqlite_reason(e, self.folder) if isinstance(
                            e, sqlite3.Error) else _("a value in it is damaged"))   # (Python's words: "'id'")
                    m.tournament = None
        return found

    # ----- tournaments ---------------------------------------------------------------
    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db, self.db_message = open_db(self.folder, wait=0 if self.later else 10)
        return self._db

    def never_wait(self) -> None:
        """For the window: no use of the database waits while another program holds it (SQLite waited 10 s a
        statement, the frames with it); a write it refuses waits in `later`, done again by `store_later`."""
        self.later = self.later or Later()
        if self._db is not None:
            self._db.execute("PRAGMA busy_timeout = 0")

    def store_later(self) -> bool:
        """The writes waiting for the database tried again, none waiting for it; True when some landed."""
        if self.later is None or not self.later.writes:
            return False
        return self.later.retry()

    def new_tournament(self, seats: list[Seat], games: int, best: int | None = None, seed: int | None = None,
                       name: str | None = None, ruleset: Ruleset = Ruleset()) -> Tournament:
        try:
            return self._own(Tournament.create(self.db, seats, games, best, seed, name, ruleset))
        except sqlite3.Error as e:   # a read-only or full database: a sentence, not SQLite's words alone
            raise _not_stored(e, self.folder) from e

    def tournament(self, tournament_id: int) -> Tournament:
        return self._own(Tournament(self.db, tournament_id))

    def _own(self, t: Tournament) -> Tournament:
        t.later = self.later   # its games' writes wait with this store's
        return t

    def tournaments(self) -> list[Summary]:
        return tournaments(self.db)

    @contextmanager
    def one_look(self):
        """The tournaments read inside as they stood at one moment (db.one_look); a database that can't be
        opened is left to the reads inside, which say so."""
        try:
            db = self.db
        except Exception:   # StoreError
            yield
            return
        with one_look(db):
            yield

    def progress(self) -> tuple[int, int, int, int]:
        return progress(self.db)

    def tournament_match(self, t: Tournament, **match_kw) -> Match | None:
        """The tournament's game in progress or its next game, autosaved too; None when it is over. StoreError
        while a game of it waits to be stored (another program holds the database): the database's copy is
        behind it (Next game resumed the last game from its last stored round)."""
        self.store_later()
        if self.later is not None and any(key[:2] == ("tournament", t.id) for key in self.later.writes):
            raise StoreError(_("The tournament's last game waits to be stored while another program uses the "
                               "database: its next game starts once it lets go. Nothing is lost."))
        try:
            return t.next_match(savers=[self.autosave, self.scores, *match_kw.pop("savers", [])], **match_kw)
        except sqlite3.Error as e:
            raise _not_stored(e, self.folder) from e

    def play_tournament(self, t: Tournament, **match_kw) -> Match | None:
        """For the window: the tournament's game to play now, the tournament held (hold_tournament): the
        autosave's copy of its game in progress (or the database's, when that is further on), else its next
        game; None when it is over. StoreError while `nmbr9 tournament` plays it."""
        self.hold_tournament(t)
        saved = self.continue_game(**match_kw).match
        if saved is not None and saved.tournament and saved.tournament["id"] == t.id:
            return saved
        return self.tournament_match(t, **match_kw)

    def hold_tournament(self, t: Tournament) -> None:
        """Claim tournament `t` for this window, with the lock `nmbr9 tournament --resume` takes (both
        wrote its games at once); another tournament held is let go. StoreError while a command has it."""
        if self._playing is not None and self._playing[0] == t.id:
            return
        self.let_go_tournament()
        try:
            held, lock = hold_folder(self.folder, wait=0, name=lock_name(t.id), who=WINDOW)
        except OSError:   # its lock can't be opened: perhaps held, never played twice at once
            held = False
        if not held:
            raise StoreError(played_by_command(t.name))
        if lock is not None:
            self._playing = (t.id, lock)

    def held_elsewhere(self, tournament_id: int) -> bool:
        """Whether `nmbr9 tournament` plays the tournament now: its lock, held by another process, is only
        looked at (never taken, never made when missing)."""
        if self._playing is not None and self._playing[0] == tournament_id:
            return False
        return lock_held(self.folder, lock_name(tournament_id))

    def let_go_tournament(self) -> None:
        """This window no longer plays a tournament (back at the menu): `nmbr9 tournament` may."""
        if self._playing is not None:
            let_go(self._playing[1])
            self._playing = None

    def hold(self) -> bool:
        """Claim the data folder for this window; False while another copy of the game has it. OSError when
        its lock file can't be opened (another user's): whether a copy has it can't be told."""
        if self._lock is not None:
            return True
        held, lock = hold_folder(self.folder)
        if lock is not None:
            self._lock = lock
        if held:
            sweep_leftovers(self.folder)
        return held

    def close(self) -> None:
        self.store_later()   # once more; what still waits is in the autosave (continue_game writes it)
        self.let_go_tournament()
        if self._lock is not None:
            self._lock.close()
            self._lock = None
        if self._db is not None:
            self._db.close()
            self._db = None


def _not_stored(e: sqlite3.Error, folder: Path) -> StoreError:
    return StoreError(_("Could not store the tournament: {reason}").format(reason=sqlite_reason(e, folder)))


__all__ = ["Store", "Autosave", "Resume", "SaveError", "StoreError", "Settings", "load_settings",
           "save_settings", "Tournament", "TournamentSaver", "Standing", "GameEntry", "Summary", "tournaments",
           "PuzzleResult", "add_puzzle_result", "store_puzzle_game", "last_puzzle_player", "puzzle_results",
           "result_game",
           "Best", "Results", "record_score",
           "open_db", "write_atomic", "set_aside", "free_path", "folder_problem"]
