"""Personal bests: every human's score in every finished game (not practice, not puzzles, which
have their own leaderboards), so the results can say "new personal best" or what the best is."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..i18n import _
from ..match import utc_now
from .db import StoreError, sqlite_reason, transaction
from .files import SaveError
from .later import busy


@dataclass(frozen=True)
class Best:
    score: int
    played: str      # ISO 8601, UTC


def best_before(db: sqlite3.Connection, player: str, ruleset: dict, game: str) -> Best | None:
    """The player's best under the same rules in a game other than `game` (None: their first game under them)."""
    # a damaged score (not a number) is no best: compared with this game's it would crash the results
    row = db.execute("SELECT score, played FROM personal_scores WHERE player = ? AND ruleset = ? AND game != ? "
                     "AND typeof(score) = 'integer' ORDER BY score DESC, played LIMIT 1",
                     (player, json.dumps(ruleset, sort_keys=True), game)).fetchone()
    return Best(row["score"], row["played"]) if row else None


def record_score(db: sqlite3.Connection, player: str, ruleset: dict, score: int, game: str, seat: int,
                 played: str | None = None) -> None:
    """Keep this game's score (once per game and seat; `best_before` reads the best without it)."""
    with transaction(db):
        db.execute("INSERT OR IGNORE INTO personal_scores (player, ruleset, score, game, seat, played) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (player, json.dumps(ruleset, sort_keys=True), score, game, seat,
                                                 played or utc_now()))


class Results:
    """A Match saver: when the last placement ends a game, its results are kept at once, not when the
    results screen opens (a crash in between lost them): every human's score for personal bests, or a
    puzzle's results on its leaderboard. The database keeps a game once, so saving again (the results
    screen, a Continue) never counts it twice. Not practice (tiles can be taken back)."""

    def __init__(self, store):
        self.store = store   # its database is opened only when a game ends

    def save(self, match) -> None:
        from ..puzzle import is_puzzle_of
        from .puzzles import store_puzzle_game
        code = match.extra.get("puzzle")
        if not match.over or (match.practice and not code) or (code and not is_puzzle_of(code, match)):
            return
        try:
            db = self.store.db
            if code:
                store_puzzle_game(db, code, match)
                return
            kept = {row[0] for row in db.execute("SELECT seat FROM personal_scores WHERE game = ?",
                                                  (match.created,))}
            for r in match.results():
                if r.kind == "human" and r.seat not in kept:
                    record_score(db, r.name, match.game.ruleset.to_json(), r.score, match.created, r.seat)
        except (sqlite3.Error, StoreError) as e:
            if self.store.later is not None and busy(e):   # the window: stored once the other program lets go
                self.store.later.keep(("scores", match.created), lambda: self.save(match))
                return
            raise SaveError(not_stored(e, self.store.folder, puzzle=bool(code))) from e


def not_stored(e: Exception, folder, puzzle: bool) -> str:
    """Why a finished game's results were not kept (in the data folder `folder`), naming what was being stored."""
    reason = sqlite_reason(e, folder)
    if puzzle:
        return _("The puzzle's result could not be stored: {reason}").format(reason=reason)
    return _("The game's scores could not be stored for personal bests: {reason}").format(reason=reason)
