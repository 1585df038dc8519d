"""The player's SQLite database: tournaments, puzzle results and personal bests.

The schema has a version (PRAGMA user_version); `MIGRATIONS[n]` takes a
database from version n to n + 1, inside one transaction, so a crash during
an upgrade leaves the old version. Foreign keys are on for every connection.
"""
from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

from ..i18n import _
from ..paths import data_dir
from ..rules.record import JSON_ERRORS, NOT_A_FILE, special_file
from .files import set_aside

FILENAME = "nmbr9.sqlite3"


def _english_names(conn: sqlite3.Connection) -> None:
    """Personal bests and puzzle results under a name the game gave, stored as the language of the day had it
    ("Spieler 1"), moved to the English name every game since stores (match.stored_name): one player in every
    language."""
    from ..match import stored_name
    for table in ("personal_scores", "puzzle_results"):
        kind = "kind" if table == "puzzle_results" else "'human'"
        for player, of in conn.execute(f"SELECT DISTINCT player, {kind} FROM {table}").fetchall():
            kept = stored_name(player, of) if isinstance(player, str) else player
            if kept != player:
                conn.execute(f"UPDATE {table} SET player = ? WHERE player = ? AND {kind} = ?", (kept, player, of))


MIGRATIONS: list[list] = [   # SQL statements, or functions of the connection
    [  # version 1: tournaments, their games and scores; puzzle results (issue 8)
        """CREATE TABLE tournaments (
            id       INTEGER PRIMARY KEY,
            name     TEXT NOT NULL,
            created  TEXT NOT NULL,              -- ISO 8601, UTC
            seed     INTEGER NOT NULL,           -- each game's deck seed is derived from it
            games    INTEGER NOT NULL CHECK (games >= 1),
            best     INTEGER NOT NULL CHECK (best BETWEEN 1 AND games),  -- standings count the best N
            ruleset  TEXT NOT NULL,              -- JSON, as in a game record
            finished TEXT                        -- NULL while games remain
        )""",
        """CREATE TABLE tournament_seats (
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
            name          TEXT NOT NULL,
            kind          TEXT NOT NULL,         -- "human" or "bot:<strength>"
            PRIMARY KEY (tournament_id, seat)
        )""",
        """CREATE TABLE tournament_games (
            id            INTEGER PRIMARY KEY,
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            number        INTEGER NOT NULL CHECK (number >= 1),
            seed          INTEGER NOT NULL,
            record        TEXT NOT NULL,         -- the game record, rewritten after every placement
            started       TEXT NOT NULL,
            finished      TEXT,                  -- NULL while the game is in progress
            UNIQUE (tournament_id, number)
        )""",
        """CREATE TABLE game_scores (
            game_id       INTEGER NOT NULL REFERENCES tournament_games(id) ON DELETE CASCADE,
            tournament_id INTEGER NOT NULL,
            seat          INTEGER NOT NULL,
            score         INTEGER NOT NULL,
            winner        INTEGER NOT NULL CHECK (winner IN (0, 1)),   -- ties share the win
            PRIMARY KEY (game_id, seat),
            FOREIGN KEY (tournament_id, seat) REFERENCES tournament_seats(tournament_id, seat)
                ON DELETE CASCADE
        )""",
        """CREATE TABLE puzzle_results (
            id      INTEGER PRIMARY KEY,
            code    TEXT NOT NULL,               -- the puzzle's short code
            player  TEXT NOT NULL,
            kind    TEXT NOT NULL DEFAULT 'human',
            score   INTEGER NOT NULL,
            record  TEXT NOT NULL,               -- the game record
            played  TEXT NOT NULL                -- ISO 8601, UTC
        )""",
        "CREATE INDEX puzzle_results_by_code ON puzzle_results (code, score DESC)",
        "CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id, number)",
    ],
    [  # version 2: every human's score in every finished game, for personal bests
        """CREATE TABLE personal_scores (
            id      INTEGER PRIMARY KEY,
            player  TEXT NOT NULL,
            ruleset TEXT NOT NULL,               -- JSON, as in a game record: bests are per ruleset
            score   INTEGER NOT NULL,
            game    TEXT NOT NULL,               -- the game's "created" time: one row per game and seat
            seat    INTEGER NOT NULL,
            played  TEXT NOT NULL,               -- ISO 8601, UTC
            UNIQUE (game, seat)
        )""",
        "CREATE INDEX personal_scores_by_player ON personal_scores (player, ruleset, score DESC)",
    ],
    [_english_names],   # version 3
    [  # version 4: RumBugz (issue 38): its finished games for personal bests; the game a tournament plays
        "ALTER TABLE tournaments ADD COLUMN game TEXT NOT NULL DEFAULT 'nmbr9'",   # "nmbr9" or "rumbugz"
        """CREATE TABLE rumbugz_games (
            id       INTEGER PRIMARY KEY,
            created  TEXT NOT NULL UNIQUE,       -- the game's start, ISO 8601 UTC: a game is stored once
            record   TEXT NOT NULL,              -- JSON: players, every round's record, totals (store/rumbugz.py)
            finished TEXT NOT NULL
        )""",
        """CREATE TABLE rumbugz_scores (
            game_id     INTEGER NOT NULL REFERENCES rumbugz_games(id) ON DELETE CASCADE,
            seat        INTEGER NOT NULL,
            player      TEXT NOT NULL,
            kind        TEXT NOT NULL,           -- "human" or "bot:<strength>": bests are humans'
            players     INTEGER NOT NULL,        -- how many played: bests compare games of as many
            rounds      INTEGER NOT NULL,
            total       INTEGER NOT NULL,
            rounds_won  INTEGER NOT NULL,
            best_round  INTEGER NOT NULL,        -- the most points won in one round
            fastest_out INTEGER,                 -- the fewest own turns to go out; NULL: never went out
            played      TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX rumbugz_scores_by_player ON rumbugz_scores (player, players, rounds)",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database can't be used; `message` is a sentence for the player. The database holds more than
    tournaments (puzzle results, personal bests), so its own sentences don't say "tournament"."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def stored_record(text) -> dict | None:
    """A game record as the database holds it; None if the copy can't be decoded, so one damaged row
    never hides the rest (a tournament's other games, a puzzle's leaderboard)."""
    try:
        data = json.loads(text)
    except (TypeError, *JSON_ERRORS):
        return None
    return data if isinstance(data, dict) else None


def _disk_full(e: Exception) -> bool:
    """Whether SQLite failed for want of room: a full disk stops the -shm file growing (Python 3.11 on)."""
    return getattr(e, "sqlite_errorname", None) in ("SQLITE_IOERR_SHMSIZE", "SQLITE_FULL")


def sqlite_reason(e: Exception, folder: Path) -> str:
    """Why SQLite failed, in words: a full disk that stops the -shm file growing is said as such (SQLite
    says only "disk I/O error", which reads as a failing disk); a database opened read-only (its data folder
    `folder` can't be written) too (SQLite says "attempt to write a readonly database", in English), and a
    database that can't be made there ("unable to open database file")."""
    from .later import busy
    name = str(getattr(e, "sqlite_errorname", ""))
    if busy(e):   # (SQLite says "database is locked", which reads as a fault of the game's)
        return _("another program is using it; try again once it has finished")
    if name == "SQLITE_IOERR_SHMSIZE":
        return _("the disk is full ({error})").format(error=e)
    if name.startswith("SQLITE_READONLY") or name == "SQLITE_CANTOPEN" and not os.access(folder, os.W_OK):
        return _("the data folder {folder} can't be written").format(folder=folder)
    return str(getattr(e, "message", e))


def db_path(conn: sqlite3.Connection) -> str:
    """The file a connection reads (for a sentence naming it)."""
    return conn.execute("PRAGMA database_list").fetchone()[2]


@contextmanager
def transaction(conn: sqlite3.Connection):
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if anything inside raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.execute("COMMIT")


@contextmanager
def one_look(conn: sqlite3.Connection):
    """BEGIN ... COMMIT around reads: all of them see the database as the first did, though another process
    (`nmbr9 tournament`) saves a game between them."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _read_only(path: Path) -> bool:
    """Whether the database is there but can't be written (a read-only disk or folder): SQLite then can't
    even read it as usual, since WAL needs its -wal and -shm files beside it."""
    return path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _connect(path: Path, read_only: bool, wait: float) -> sqlite3.Connection:
    # isolation_level=None: no implicit transactions; `transaction` makes them explicit
    if not read_only:
        return sqlite3.connect(path, timeout=wait, isolation_level=None)
    # a -wal file left by a game that ended abruptly holds committed games: mode=ro reads it (through its
    # -shm); without one the file holds everything, and immutable=1 reads it with no -shm to create
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() and wal.stat().st_size else "immutable=1"
    return sqlite3.connect(f"{path.absolute().as_uri()}?{mode}", uri=True, timeout=wait, isolation_level=None)


def _setup(conn: sqlite3.Connection, read_only: bool = False) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if read_only:
        return
    conn.execute("PRAGMA journal_mode = WAL")   # a crash mid-write never damages committed data
    conn.execute("PRAGMA synchronous = NORMAL")


def migrate(conn: sqlite3.Connection, upto: int | None = None) -> int:
    """Bring the schema up to SCHEMA_VERSION (or `upto`); returns the version found before."""
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    if found > SCHEMA_VERSION:
        raise StoreError(_("The database was written by a newer version of the game "
                           "(schema {found}, this game knows {known}).").format(found=found, known=SCHEMA_VERSION))
    for version in range(found, SCHEMA_VERSION if upto is None else upto):
        with transaction(conn):
            for step in MIGRATIONS[version]:
                if callable(step):
                    step(conn)
                else:
                    conn.execute(step)
            conn.execute(f"PRAGMA user_version = {version + 1}")
    return found


_ROWIDS = (-2 ** 63, 2 ** 63 - 1)   # SQLite's smallest and largest rowid


def _rows_that_read(conn: sqlite3.Connection, table: str) -> list[sqlite3.Row]:
    """Every row of `table` in a damaged database that still reads, in rowid order: a damaged page loses the
    rows on it, not the rest. Read one at a time (reading on, SQLite reaches the next row's page at once, and
    the row before a damaged page was lost with it); past a damaged page the rows it doesn't hold are looked
    up one by one."""
    query = f'SELECT rowid AS "rowid", * FROM "{table}" WHERE rowid {{}} ? ORDER BY rowid LIMIT 1'

    def row(op: str, rowid: int):
        """The first row with a rowid `op` `rowid` (None: none), or False where it can't be read."""
        try:
            return conn.execute(query.format(op), (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            return False

    rows, after = [], _ROWIDS[0]
    while True:
        found = row(">", after)
        if found is None:
            return rows
        if found is not False:
            rows.append(found)
            after = found["rowid"]
            continue
        failed, step = after, 1   # reading on from `failed` fails; from some later rowid it may not
        while row(">", min(failed + step, _ROWIDS[1])) is False:
            if failed + step >= _ROWIDS[1]:
                return rows
            failed, step = failed + step, step * 2
        good = min(failed + step, _ROWIDS[1])
        while good - failed > 1:   # the least rowid reading on from which works
            middle = (failed + good) // 2
            failed, good = (failed, middle) if row(">", middle) is not False else (middle, good)
        if good - after <= 10_000:   # (this game's rowids count up from 1)
            rows += [r for r in map(lambda rowid: row("=", rowid), range(after + 1, good + 1)) if r]
        after = good


def _readable(conn: sqlite3.Connection) -> tuple[int, dict[str, list[sqlite3.Row]]]:
    """What a damaged database of this game still gives: its schema version and each table's rows that read
    (none if even its list of tables can't be read, or a newer game wrote it)."""
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT LIKE 'sqlite_%'")]
    except sqlite3.Error:
        return 0, {}
    if not 1 <= version <= SCHEMA_VERSION:
        return 0, {}
    return version, {t: _rows_that_read(conn, t) for t in tables}


def _readable_cut_off(path: Path) -> tuple[int, dict[str, list[sqlite3.Row]]]:
    """What a database file cut off part way (a copy or a disk that stopped) still gives: SQLite reads nothing
    of a file shorter than its header says, so it is read from a copy made as long with empty pages (a table
    whose pages are gone then fails alone, like a damaged page)."""
    data = path.read_bytes()
    if not data.startswith(b"SQLite format 3\0") or len(data) < 100:
        return 0, {}
    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(data[28:32], "big")   # as many as the header says
    if not page_size or len(data) >= pages * page_size:
        return 0, {}   # (not cut off)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / FILENAME
        try:
            with open(copy, "wb") as f:
                f.write(data)
                f.truncate(pages * page_size)   # (the empty pages take no room on the disk)
        except OSError:   # a header too damaged to say how long the file was
            return 0, {}
        conn = sqlite3.connect(f"{copy.as_uri()}?immutable=1", uri=True, isolation_level=None)
        conn.row_factory = sqlite3.Row
        try:
            return _readable(conn)
        finally:
            conn.close()


def _restore(conn: sqlite3.Connection, tables: dict[str, list[sqlite3.Row]]) -> tuple[int, list[str]]:
    """Put rows `_readable` gave into a new database of their schema version, tables in the order they were
    made (a tournament before its games); a row the schema refuses (its tournament lost, a damaged value) is
    left out. Returns how many were kept, and sentences saying what was rebuilt from the games' records and
    what was lost."""
    kept = 0
    with transaction(conn):
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                     "AND name NOT LIKE 'sqlite_%' ORDER BY rowid").fetchall():
            columns = {r["name"] for r in conn.execute(f'PRAGMA table_info("{table}")')}
            for row in tables.get(table, ()):
                names = ["rowid", *(k for k in row.keys() if k in columns)]
                quoted = ", ".join(f'"{n}"' for n in names)
                try:
                    conn.execute(f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(names))})',
                                 [row[n] for n in names])
                    kept += 1
                except sqlite3.Error:
                    pass
        told = _reseat(conn)   # (before the scores: each score needs its seat)
        _rescore(conn)
        from .rumbugz import refacts
        refacts(conn)
    return kept, told


def _reseat(conn: sqlite3.Connection) -> list[str]:
    """Seats of tournaments lost with a damaged page, read again from a game record of theirs (each names its
    players): such a tournament had no players, its games "scores in progress", and `--resume` failed.
    Returns sentences naming the tournaments seated again, and what was lost: the players no record names,
    games missing before the last one stored (they are played again)."""
    from .tournaments import given_name, shown_name
    told = []
    for t in conn.execute("SELECT id, name FROM tournaments ORDER BY id").fetchall():
        name = shown_name(given_name(t["name"], t["id"]), t["id"])
        games = conn.execute("SELECT number, record FROM tournament_games WHERE tournament_id = ? ORDER BY number",
                             (t["id"],)).fetchall()
        players = None
        for g in games:
            try:
                players = _record_game(stored_record(g["record"]))[0]
                break
            except (ValueError, TypeError, KeyError):   # (RecordError)
                continue
        had = conn.execute("SELECT count(*) FROM tournament_seats WHERE tournament_id = ?", (t["id"],)).fetchone()[0]
        if players is not None and had < len(players):
            conn.executemany("INSERT OR IGNORE INTO tournament_seats (tournament_id, seat, name, kind) "
                             "VALUES (?, ?, ?, ?)", [(t["id"], i, s.name, s.kind) for i, s in enumerate(players)])
            told.append(_("{name}: its players were read again from its games' records.").format(name=name))
        elif players is None and not had:
            told.append(_("{name}: its players were lost, so it can't be continued.").format(name=name))
        numbers = {g["number"] for g in games}
        told += [_("{name}: game {number} was lost; it is played again.").format(name=name, number=n)
                 for n in range(1, max(numbers, default=0)) if n not in numbers]
    return told


def _record_game(record) -> tuple[list, list[int] | None]:
    """A tournament game's players and, once it is over, its scores, from its record: NMBR 9's, or RumBugz's
    game record (store/rumbugz.py). RecordError (ValueError, ...) when it can't be read."""
    from ..rules import Seat
    from ..rules.record import parse_record, record_game
    from .rumbugz import GAME_FORMAT, game_facts
    if isinstance(record, dict) and record.get("format") == GAME_FORMAT:
        seats = [Seat(p["name"], p["kind"]) for p in record["players"]]
        return seats, [s.total for s in game_facts(record["rounds"])[1]] if record["rounds"] else None
    parsed = parse_record(record)
    return parsed.seats, record_game(parsed).scores()


def _rescore(conn: sqlite3.Connection) -> None:
    """Finished tournament games whose scores were lost with a damaged page, scored again from their records:
    the Tournaments page said "scores in progress" of a finished game, and the standings left it out."""
    from ..match import places
    for g in conn.execute("SELECT id, tournament_id, record FROM tournament_games g WHERE finished IS NOT NULL "
                          "AND NOT EXISTS (SELECT 1 FROM game_scores s WHERE s.game_id = g.id)").fetchall():
        try:
            scores = _record_game(stored_record(g["record"]))[1] or []
        except (ValueError, TypeError, KeyError):   # (RecordError)
            continue   # its record lost too: a game without scores
        for seat, (score, place) in enumerate(zip(scores, places(scores))):
            try:
                conn.execute("INSERT INTO game_scores (game_id, tournament_id, seat, score, winner) "
                             "VALUES (?, ?, ?, ?, ?)", (g["id"], g["tournament_id"], seat, score, int(place == 1)))
            except sqlite3.Error:   # its seat lost
                pass


def open_db(folder: Path | None = None, wait: float = 10) -> tuple[sqlite3.Connection, str | None]:
    """The database in the data folder, created or upgraded as needed; `wait`: the seconds a statement waits
    while another program holds the database (the window: none).

    Returns (connection, message): a file that is not a usable database is
    renamed aside and a fresh one started with the rows that still read from it, and the message says so;
    a database that can't be written is opened read-only, and the message says nothing new is stored.
    StoreError when the file belongs to a newer game or can't be opened at all.
    """
    path = Path(folder or data_dir()) / FILENAME
    if special_file(path):   # a pipe or a device: SQLite said "disk I/O error"
        raise StoreError(_("Can't open the database {path}: {reason}").format(path=path, reason=_(NOT_A_FILE)))
    read_only = _read_only(path)
    message = _("The database {path} can't be written: your tournaments and bests are shown, but nothing new "
                "is stored.").format(path=path) if read_only else None
    version, readable = 0, {}   # what a damaged file still gives, for the new one
    full = None   # the error of a disk too full to write the database: it is then read as from a read-only disk
    for attempt in range(2):
        try:
            conn = _connect(path, read_only, wait)
        except sqlite3.Error as e:
            raise StoreError(_("Can't open the database {path}: {reason}").format(path=path,
                                                                                   reason=sqlite_reason(e, path.parent)))
        try:
            _setup(conn, read_only)
            # damage inside the file (a page overwritten) shows only when a query reaches it: looked for
            # at once, so it is set aside like a file that is no database, not met later as "malformed"
            if conn.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
            # (full implies read_only: only then can a database not brought up to date stay as it is)
            behind = read_only and conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION
            if behind and full:
                # a database the full disk left unmade (or an older game's, it can't bring up to date): the full
                # disk is said, not "written by an older version of NMBR 9 3D" (of one this game had just begun)
                raise StoreError(_("Can't use the database {path}: {reason}").format(path=path,
                                                                                   reason=sqlite_reason(full, path.parent)))
            if behind and read_only:
                # an older game's database can't be brought up to date without writing it (SQLite's own words
                # were "attempt to write a readonly database")
                raise StoreError(_("The database {path} was written by an older version of NMBR 9 3D and can't be "
                                   "written, so it can't be brought up to date: your tournaments, puzzle results "
                                   "and bests come back once it can be written. Nothing in it was changed.").format(
                    path=path))
            if readable:   # the new database starts with the damaged one's rows that read, then is upgraded
                migrate(conn, upto=version)
                kept, told = _restore(conn, readable)
                if kept:
                    message = " ".join([_("The database was damaged ({reason}). It was kept as {name}, and a new "
                                          "one was started with everything that could still be read from it.").format(
                        reason=damage, name=moved.name), *told])
            migrate(conn)
            conn.execute("SELECT count(*) FROM tournaments").fetchone()
            return conn, message
        except sqlite3.DatabaseError as e:
            if not attempt and not read_only and _disk_full(e) and path.exists():
                # the history is still there to be read, as from a read-only disk: the Tournaments and Puzzles
                # pages said only "Can't use the database ...: the disk is full"
                conn.close()
                read_only, full = True, e
                message = _("The disk holding the database {path} is full: your tournaments and bests are shown, "
                            "but nothing new is stored: make room on it and start NMBR 9 3D again.").format(path=path)
                continue
            # only a damaged file ("file is not a database", "malformed") is set aside; a locked,
            # read-only or full database, or a failed upgrade, is left as it is
            damaged = not attempt and not read_only and type(e) is sqlite3.DatabaseError
            if damaged:   # one damaged page set the whole history aside: what still reads is kept
                version, readable = _readable(conn)
                if not readable:
                    version, readable = _readable_cut_off(path)
            conn.close()
            if not damaged:   # (from e: a database another program held is tried again, see later.busy)
                raise StoreError(_("Can't use the database {path}: {reason}").format(
                    path=path, reason=sqlite_reason(e, path.parent))) from e
            for extra in ("-wal", "-shm"):
                side = path.with_name(path.name + extra)
                if side.exists():
                    set_aside(side, "corrupt")
            moved, damage = set_aside(path, "corrupt"), e
            message = _("The database could not be read ({reason}). It was kept as {name} "
                        "and a new one was started.").format(reason=e, name=moved.name)
        except StoreError:
            conn.close()
            raise
    raise AssertionError("unreachable")
