"""Puzzle results (issue 8): every player's score and record per puzzle code, in the database."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..match import utc_now
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
        cur = db.execute("INSERT INTO puzzle_results (code, player, kind, score, record, played) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (code, player, kind, score, json.dumps(record), played or utc_now()))
    return cur.lastrowid


def puzzle_results(db: sqlite3.Connection, code: str) -> list[PuzzleResult]:
    """The leaderboard of one puzzle: best score first, earlier first among equals."""
    return [PuzzleResult(r["id"], r["code"], r["player"], r["kind"], r["score"], stored_record(r["record"]),
                         r["played"])
            for r in db.execute("SELECT * FROM puzzle_results WHERE code = ? ORDER BY score DESC, played, id",
                                (code,))]


def last_puzzle_player(db: sqlite3.Connection) -> str | None:
    """The name of the human who finished a puzzle last (the Puzzles screen offers it again)."""
    row = db.execute("SELECT player FROM puzzle_results WHERE kind = 'human' ORDER BY played DESC, id DESC "
                     "LIMIT 1").fetchone()
    return row["player"] if row else None
