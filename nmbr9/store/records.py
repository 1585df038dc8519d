"""Personal bests: every human's score in every finished game (not practice, not puzzles, which
have their own leaderboards), so the results can say "new personal best" or what the best is."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..match import utc_now
from .db import transaction


@dataclass(frozen=True)
class Best:
    score: int
    played: str      # ISO 8601, UTC


def record_score(db: sqlite3.Connection, player: str, ruleset: dict, score: int, game: str, seat: int,
                 played: str | None = None) -> Best | None:
    """Keep this game's score (once per game and seat) and return the player's best before it under
    the same rules (None: their first game under them)."""
    rules = json.dumps(ruleset, sort_keys=True)
    with transaction(db):
        # a damaged score (not a number) is no best: compared with this game's it would crash the results
        row = db.execute("SELECT score, played FROM personal_scores WHERE player = ? AND ruleset = ? AND game != ? "
                         "AND typeof(score) = 'integer' ORDER BY score DESC, played LIMIT 1",
                         (player, rules, game)).fetchone()
        db.execute("INSERT OR IGNORE INTO personal_scores (player, ruleset, score, game, seat, played) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (player, rules, score, game, seat, played or utc_now()))
    return Best(row["score"], row["played"]) if row else None
