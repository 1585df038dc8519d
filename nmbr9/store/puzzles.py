"""Puzzle results (issue 8): every player's score and record per puzzle code, in the database."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..match import utc_now
from ..rules.record import RecordError, parse_record, record_game
from .db import stored_record, transaction


@dataclass(frozen=True)
class PuzzleResult:
    id: int
    code: str
    player: str
    kind: str        # "human" or "bot:<strength>"
    score: int
    record: dict | None   # None: the database's copy is damaged (the score stands)
    played: str      # ISO 8601, UTC


def add_puzzle_result(db: sqlite3.Connection, code: str, player: str, score: int, record: dict,
                      kind: str = "human", played: str | None = None) -> int:
    with transaction(db):
        return _insert(db, code, player, score, record, kind, played)


def _insert(db, code, player, score, record, kind, played) -> int:
    return db.execute("INSERT INTO puzzle_results (code, player, kind, score, record, played) VALUES (?, ?, ?, ?, ?, ?)",
                      (code, player, kind, score, json.dumps(record), played or utc_now())).lastrowid


def store_puzzle_game(db: sqlite3.Connection, code: str, match) -> list[int]:
    """Put a finished puzzle game on the puzzle's leaderboard, once (its last placement, the results
    screen and a Continue all ask): every human's result, and a bot strength's only the first time it
    plays the puzzle. Returns the rows of the game's humans."""
    def humans_if_stored(rows) -> list[int] | None:   # all of a game's rows or none: a game with a row is stored
        mine = [r for r in rows if r.record and r.record.get("created") == match.created]
        return [r.id for r in mine if r.kind == "human"] if mine else None

    # looked for first without the write lock: while another program holds the database, a game stored
    # already is no write waiting for it
    if (stored := humans_if_stored(puzzle_results(db, code))) is not None:
        return stored
    with transaction(db):
        rows = puzzle_results(db, code)
        if (stored := humans_if_stored(rows)) is not None:
            return stored
        known, record, played = {r.kind for r in rows}, match.record(), utc_now()
        ids = []
        for r in match.results():
            if r.kind == "human" or r.kind not in known:
                row = _insert(db, code, r.name, r.score, record, r.kind, played)
                if r.kind == "human":
                    ids.append(row)
        return ids


def puzzle_results(db: sqlite3.Connection, code: str) -> list[PuzzleResult]:
    """The leaderboard of one puzzle: best score first, earlier first among equals."""
    return [PuzzleResult(r["id"], r["code"], r["player"], r["kind"], r["score"], stored_record(r["record"]),
                         r["played"])
            for r in db.execute("SELECT * FROM puzzle_results WHERE code = ? ORDER BY score DESC, played, id",
                                (code,))]


def result_game(r: PuzzleResult):
    """The game a leaderboard row was played in (its record) and the row's seat in it; None: the record is damaged."""
    if r.record is None:
        return None
    try:
        game = record_game(parse_record(r.record))
    except RecordError:
        return None
    return game, next((i for i, s in enumerate(game.seats) if s.name == r.player), 0)


def last_puzzle_player(db: sqlite3.Connection) -> str | None:
    """The name of the human who finished a puzzle last (the Puzzles screen offers it again)."""
    row = db.execute("SELECT player FROM puzzle_results WHERE kind = 'human' ORDER BY played DESC, id DESC "
                     "LIMIT 1").fetchone()
    return row["player"] if row else None
