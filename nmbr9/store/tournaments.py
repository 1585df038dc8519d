"""Tournaments: a series of games for the same seats, kept in the database.

Every game of a tournament has its own deck (seeded from the tournament's
seed and the game's number) that all its players play. The game in progress
is stored after every confirmed placement, so a tournament resumes after a
quit or a crash; finished games keep their record and scores.
"""
from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..i18n import N_, _, in_every_language, ngettext
from ..match import Match, check_seed, derive_seed, fresh_seed, places, utc_now
from ..rules import Game, Ruleset, Seat
from ..rules.game import MODULES, POWERS, VARIANTS
from ..rules.record import JSON_ERRORS, RecordError, json_detail
from ..rules.text import as_json, clean_name, shown
from ..rumbugz.play import GameRules
from .db import StoreError, db_path, sqlite_reason, stored_record, transaction
from .files import SaveError
from .later import busy

# why a game whose record the database holds can't be shown or resumed, when that copy can't be decoded
# (the record's own errors speak of "the file": this one was never a file)
DAMAGED_COPY = N_("the copy of its record in the database is damaged")


@dataclass(frozen=True)
class Standing:
    """One player's line in a tournament's standings."""
    place: int | None   # players equal on best and wins share a place; None before a game is finished
    seat: int
    name: str
    kind: str
    played: int         # finished games
    total: int          # all points
    wins: int           # games won; a shared win counts for each winner
    best: int           # points of the best N games (the tournament's `best`)
    scores: list[int]   # per finished game, in order

    @property
    def place_told(self) -> str:
        """The place as the standings show it: a dash before a game is finished."""
        return "\u2013" if self.place is None else str(self.place)


@dataclass(frozen=True)
class GameEntry:
    """A game of a tournament as stored."""
    number: int
    seed: int
    record: dict | None         # None: the database's copy is damaged (the scores stand)
    started: str
    finished: str | None
    scores: list[int] | None    # per seat, once finished


DEFAULT_NAME = N_("Tournament {id}")
NMBR9, RUMBUGZ = "nmbr9", GameRules.game   # the games a tournament plays (tournaments.game)
WINDOW, COMMAND = "window", "command"   # who holds a tournament's lock (files.held_by)


def lock_name(tournament_id: int) -> str:
    """The lock held while a tournament is played, by the window or `nmbr9 tournament`: one at a time
    writes its games."""
    return f"nmbr9-tournament-{tournament_id}.lock"


def played_by_command(name: str) -> str:
    """What the window says of tournament `name` while `nmbr9 tournament` plays it."""
    return _("{name} is being played by the command nmbr9 tournament: let it finish, or stop it, then continue "
             "here. No game is lost.").format(name=name)


def given_name(stored: str, tournament_id: int) -> str:
    """The name a player gave a tournament (`nmbr9 tournament --name`), as stored; "" for none. A tournament
    without one is stored with "", its default name written when shown, in the language of then; an older
    database stored that default in the language of its day, which is read as none too."""
    defaults = {text.format(id=tournament_id) for text in in_every_language(DEFAULT_NAME)}
    return "" if stored in defaults else stored


def shown_name(given: str, tournament_id: int) -> str:
    """A tournament's name as shown: the one given it (cut short if long), or "Tournament 3" in the current
    language."""
    return shown(given) or _(DEFAULT_NAME).format(id=tournament_id)


@dataclass(frozen=True)
class Summary:
    """A tournament in the history list."""
    id: int
    given_name: str     # "" for none (see given_name)
    created: str
    games: int
    best: int
    played: int
    finished: str | None
    players: list[Seat]
    game: str = NMBR9   # or RUMBUGZ

    @property
    def name(self) -> str:
        return shown_name(self.given_name, self.id)


class Tournament:
    """A tournament in the database (see nmbr9/store/db.py for the tables)."""

    def __init__(self, db: sqlite3.Connection, tournament_id: int):
        row = db.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
        if row is None:
            raise StoreError(_("There is no tournament {id}.").format(id=tournament_id))
        self.db = db
        self.later = None   # the window's Later: its games' writes wait there while another program holds the database
        self.id = row["id"]
        self.given_name = given_name(row["name"], self.id)
        self.created = row["created"]
        self.seed = row["seed"]
        self.games = row["games"]
        self.best = row["best"]
        self.game = row["game"]   # "nmbr9" or "rumbugz" (store/rumbugz.py plays its games)
        try:
            rs = json.loads(row["ruleset"])
            if self.game == RUMBUGZ:
                self.ruleset, unknown = GameRules.from_json(rs), []   # (from_json: ValueError, said)
            else:
                self.ruleset = Ruleset(rs["variant"], tuple(rs["modules"]), tuple(rs.get("powers", ())))
                unknown = [n for n in (self.ruleset.variant,) if n not in VARIANTS] + \
                    [n for n in (*self.ruleset.modules, *self.ruleset.powers) if n not in (*MODULES, *POWERS)]
            if unknown:   # (Breaking Rules without powers is right here: each game draws its own)
                raise ValueError(_("unknown {name}").format(name=as_json(unknown[0])))
        except (TypeError, KeyError, *JSON_ERRORS) as e:   # a damaged row: a sentence, not a crash
            if isinstance(e, KeyError):   # said in JSON's words, not Python's ("no 'variant' field")
                reason = _("no {field} field").format(field=as_json(e.args[0]))
            elif isinstance(e, json.JSONDecodeError):
                reason = _("not valid JSON ({detail}, line {line})").format(detail=json_detail(e).text(_),
                                                                          line=e.lineno)
            elif isinstance(e, TypeError):
                reason = _("not the rules as the game writes them")
            else:
                reason = e
            raise StoreError(_("The rules of tournament {id} can't be read from {path} ({reason}).").format(
                id=tournament_id, path=db_path(db), reason=reason)) from None
        self.seats = [Seat(r["name"], r["kind"]) for r in
                      db.execute("SELECT name, kind FROM tournament_seats WHERE tournament_id = ? ORDER BY seat",
                                 (self.id,))]

    @property
    def name(self) -> str:
        return shown_name(self.given_name, self.id)

    def games_told(self) -> str:
        """"3 games", in the player's language."""
        return ngettext("{games} game", "{games} games", self.games).format(games=self.games)

    def best_told(self) -> str:
        """"the best 2 count", with a plural of its own: in a sentence with the games' number each
        number needs its own form ("1 games, the best 1 count"; Polish has three forms)."""
        return ngettext("the best {best} counts", "the best {best} count", self.best).format(best=self.best)

    @classmethod
    def create(cls, db: sqlite3.Connection, seats: list[Seat], games: int, best: int | None = None,
               seed: int | None = None, name: str | None = None, ruleset: Ruleset = Ruleset()) -> "Tournament":
        """A new tournament of `games` games; standings count the best `best` (default: all)."""
        best = games if best is None else best
        game = getattr(ruleset, "game", NMBR9)
        if game == RUMBUGZ and not 2 <= len(seats) <= 6:
            raise ValueError(_("A RumBugz tournament has 2 to 6 players."))
        if not 1 <= len(seats) <= 6:
            raise ValueError(_("A tournament has 1 to 6 players."))
        if games < 1:   # (the sentence below said "counts the best 1 to 1" of 0 games)
            raise ValueError(_("A tournament has at least one game."))
        if not 1 <= best <= games:
            raise ValueError(_("A tournament has at least one game, and counts the best 1 to {games}.").format(
                games=games))
        if seed is not None:
            check_seed(seed)
        if game == NMBR9:
            Game.new(list(seats), ruleset, random.Random(0))  # ValueError if these seats can't play these rules
        seed = fresh_seed() if seed is None else seed
        created = utc_now()
        with transaction(db):
            cur = db.execute("INSERT INTO tournaments (name, created, seed, games, best, ruleset, game) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (clean_name(name or ""), created, seed, games, best, json.dumps(ruleset.to_json()),
                              game))
            tid = cur.lastrowid
            db.executemany("INSERT INTO tournament_seats (tournament_id, seat, name, kind) VALUES (?, ?, ?, ?)",
                           [(tid, i, s.name, s.kind) for i, s in enumerate(seats)])
        return cls(db, tid)

    # ----- progress ----------------------------------------------------------
    @property
    def finished(self) -> str | None:
        return self.db.execute("SELECT finished FROM tournaments WHERE id = ?", (self.id,)).fetchone()[0]

    @property
    def played(self) -> int:
        return self.db.execute("SELECT count(*) FROM tournament_games WHERE tournament_id = ? "
                               "AND finished IS NOT NULL", (self.id,)).fetchone()[0]

    @property
    def over(self) -> bool:
        return self.played >= self.games

    def game_seed(self, number: int) -> int:
        return derive_seed(self.seed, "tournament game", number)

    def next_match(self, savers=(), look: bool = False, **match_kw) -> Match | None:
        """The game to play now: the one in progress (as last saved) or the next one; None when over.

        `savers` (e.g. the autosave) are called with this tournament's own saver. `look`: only to name it
        (a next game is not stored).
        """
        row = self.in_progress()
        own = [*savers, TournamentSaver(self)]
        if row is not None:
            record = stored_record(row["record"])
            try:
                if record is None:
                    raise RecordError(DAMAGED_COPY)
                match = self.attach(Match.from_record(record, savers=own, **match_kw))
            except (RecordError, ValueError) as e:
                reason = e.text(_) if isinstance(e, RecordError) else e
                raise StoreError(_("Game {number} of the tournament can't be resumed: {reason}").format(
                    number=row["number"], reason=reason)) from None
            if look or not match.over:
                return match
            # every tile laid but its end not stored (a database edited by hand): `nmbr9 tournament` played it
            # out again and again without end, the window showed its results and never stored them
            if match.save():
                raise StoreError(match.save_error)
            return self.next_match(savers, **match_kw)
        number = self.next_number()
        if number is None:
            return None
        match = self.attach(Match.new(self.seats, self.game_seed(number), self.ruleset,
                                      tournament={"id": self.id, "game": number}, savers=own, **match_kw))
        if look:
            return match
        self.start(number, match.record(), match.created)
        match.save()  # the other savers (the autosave) start from the first card too
        return match

    def in_progress(self) -> sqlite3.Row | None:
        """The game started and not finished (its number and record), if any."""
        return self.db.execute("SELECT number, record FROM tournament_games WHERE tournament_id = ? "
                               "AND finished IS NULL ORDER BY number LIMIT 1", (self.id,)).fetchone()

    def next_number(self) -> int | None:
        """The number of the game to start next (None: all played). StoreError when its players were lost."""
        # the first game not stored: after a damaged database, one lost from the middle is played again
        stored = {r[0] for r in self.db.execute("SELECT number FROM tournament_games WHERE tournament_id = ?",
                                                (self.id,))}
        number = next((n for n in range(1, self.games + 1) if n not in stored), self.games + 1)
        if number > self.games:
            return None
        if not self.seats:   # lost with a damaged database, and no game record named them (db._reseat)
            raise StoreError(_("{name} has no players: they were lost when the database was damaged, so it can't "
                               "be continued.").format(name=self.name))
        return number

    def start(self, number: int, record: dict, created: str) -> None:
        """Store game `number` as started, with its record so far."""
        with transaction(self.db):
            self.db.execute("INSERT INTO tournament_games (tournament_id, number, seed, record, started) "
                            "VALUES (?, ?, ?, ?, ?)", (self.id, number, self.game_seed(number), json.dumps(record),
                                                       created))

    def store_game(self, number: int, record: dict, results: list[tuple[int, int, bool]] | None) -> None:
        """Game `number`'s record as it now stands; `results` (seat, score, won) once it is over, which finish
        it (and the tournament after its last game). A finished game's record and scores never change."""
        db = self.db
        with transaction(db):
            row = db.execute("SELECT id, finished FROM tournament_games WHERE tournament_id = ? AND number = ?",
                             (self.id, number)).fetchone()
            if row is None:
                raise StoreError(_("Game {number} is not part of the tournament.").format(number=number))
            if row["finished"]:
                return
            db.execute("UPDATE tournament_games SET record = ? WHERE id = ?", (json.dumps(record), row["id"]))
            if results is not None:
                now = utc_now()
                db.execute("UPDATE tournament_games SET finished = ? WHERE id = ?", (now, row["id"]))
                # scores of a game not marked finished (a database edited by hand) give way to its record's:
                # `--resume` ended in "UNIQUE constraint failed"
                db.execute("DELETE FROM game_scores WHERE game_id = ?", (row["id"],))
                db.executemany("INSERT INTO game_scores (game_id, tournament_id, seat, score, winner) "
                               "VALUES (?, ?, ?, ?, ?)",
                               [(row["id"], self.id, seat, score, int(won)) for seat, score, won in results])
                if self.played >= self.games:
                    db.execute("UPDATE tournaments SET finished = ? WHERE id = ?", (now, self.id))

    def attach(self, match: Match) -> Match:
        """Give a match of this tournament (e.g. from the autosave) its tournament saver, and the number of
        games, for "Tournament game 2 of 3" (not in the record: the tournament's own row says it)."""
        match.tournament_games = self.games
        if not any(isinstance(s, TournamentSaver) for s in match.savers):
            match.savers.append(TournamentSaver(self))
        return match

    # ----- results -------------------------------------------------------------
    def entries(self) -> list[GameEntry]:
        """Every game started so far, with its record (finished or in progress)."""
        out = []
        for g in self.db.execute("SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY number",
                                 (self.id,)).fetchall():
            scores = [r[0] for r in self.db.execute("SELECT score FROM game_scores WHERE game_id = ? ORDER BY seat",
                                                    (g["id"],))]
            out.append(GameEntry(g["number"], g["seed"], stored_record(g["record"]), g["started"], g["finished"],
                                 scores if g["finished"] else None))
        return out

    def standings(self) -> list[Standing]:
        """Best-N points first, then wins; equal players share a place. Before a game is finished nobody has a
        place (not everyone first with 0 points)."""
        per_seat: list[list[tuple[int, int]]] = [[] for _s in self.seats]
        for seat, score, winner in self.db.execute(
                "SELECT s.seat, s.score, s.winner FROM game_scores s JOIN tournament_games g ON g.id = s.game_id "
                "WHERE s.tournament_id = ? ORDER BY g.number", (self.id,)):
            per_seat[seat].append((score, winner))
        lines = []
        for i, results in enumerate(per_seat):
            scores = [s for s, _w in results]
            lines.append((i, scores, sum(w for _s, w in results), sum(sorted(scores, reverse=True)[:self.best])))
        pl = places([(best, wins) for _i, _sc, wins, best in lines])
        if not any(sc for _i, sc, _w, _b in lines):
            pl = [None] * len(lines)
        out = [Standing(pl[i], i, self.seats[i].name, self.seats[i].kind, len(sc), sum(sc), wins, best, sc)
               for i, sc, wins, best in lines]
        return sorted(out, key=lambda s: (s.place or 0, s.seat))


class TournamentSaver:
    """A Match saver: stores the game's record in the database; at the end, its scores."""

    def __init__(self, tournament: Tournament):
        self.tournament = tournament

    def save(self, match: Match) -> None:
        t, db = self.tournament, self.tournament.db
        if not match.tournament or match.tournament["id"] != t.id:
            return  # e.g. a rematch after a tournament game: not part of the tournament
        number = match.tournament["game"]
        try:
            self._write(match, number)
        except (sqlite3.Error, StoreError) as e:
            if t.later is not None and busy(e):   # the window: stored once the other program lets go
                t.later.keep(("tournament", t.id, number), lambda: self.save(match))
                return
            raise SaveError(_("Could not save the tournament game: {reason}").format(
                reason=sqlite_reason(e, Path(db_path(db)).parent))) from e

    def _write(self, match: Match, number: int) -> None:
        self.tournament.store_game(number, match.record(), [(r.seat, r.score, r.winner) for r in match.results()]
                                   if match.over else None)


def unfinished_alike(db: sqlite3.Connection, seats: list[Seat], games: int, best: int, seed: int,
                     ruleset: Ruleset) -> list[Summary]:
    """Unfinished tournaments of these seats, games, best N, seed and rules: the same games as a new one would
    play (`nmbr9 tournament --seed 1` run again after a kill started another, the first left "2/12 played")."""
    alike = {r["id"] for r in db.execute("SELECT id, ruleset FROM tournaments WHERE finished IS NULL AND seed = ? "
                                         "AND games = ? AND best = ?", (seed, games, best))
             if stored_record(r["ruleset"]) == ruleset.to_json()}
    return [s for s in tournaments(db) if s.id in alike and s.players == seats]


def progress(db: sqlite3.Connection) -> tuple[int, int, int, int]:
    """How many tournaments, games started and games finished the database holds, and how long the records of
    the games in progress are (they grow with every round saved): one look at whether another process
    (`nmbr9 tournament`) moved any of them on."""
    return tuple(db.execute("SELECT (SELECT count(*) FROM tournaments), count(*), count(finished), "
                            "coalesce(sum(length(record)) FILTER (WHERE finished IS NULL), 0) "
                            "FROM tournament_games").fetchone())


def tournaments(db: sqlite3.Connection) -> list[Summary]:
    """The history: every tournament, newest first."""
    out = []
    for r in db.execute("SELECT t.*, (SELECT count(*) FROM tournament_games g WHERE g.tournament_id = t.id "
                        "AND g.finished IS NOT NULL) AS played FROM tournaments t ORDER BY t.id DESC").fetchall():
        players = [Seat(name, kind) for name, kind in db.execute(
            "SELECT name, kind FROM tournament_seats WHERE tournament_id = ? ORDER BY seat", (r["id"],))]
        out.append(Summary(r["id"], given_name(r["name"], r["id"]), r["created"], r["games"], r["best"], r["played"], r["finished"],
                           players, r["game"]))
    return out
