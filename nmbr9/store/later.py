"""Writes the database refused because another program holds it, done again later: the window never waits on
the database (each write waited SQLite's 10 s, and the frames with it: the last tile 10.8 s, the results 21.5 s).

What waits here is never lost: every such write (a tournament game's record, a finished game's scores) is made
from the game, which the autosave file keeps after every confirmed tile; a game killed before its write landed
is written from the autosave at the next start (Store.continue_game)."""
from __future__ import annotations

import sqlite3
from typing import Callable


def busy(e: BaseException) -> bool:
    """Whether another connection holds the database (SQLITE_BUSY, "database is locked"), or held it while it was
    opened (a StoreError raised from that): nothing is wrong with it, the write is to be done again."""
    while e is not None:
        name = str(getattr(e, "sqlite_errorname", ""))
        if name.startswith("SQLITE_BUSY") or isinstance(e, sqlite3.OperationalError) and str(e) == "database is locked":
            return True
        e = e.__cause__
    return False


class Later:
    """The writes waiting for the database, one per thing written (its latest: a game's record after each tile
    replaces the one before). A write is a function that stores what it stands for now, and keeps itself here
    again (`keep`) while the database is still held."""

    def __init__(self):
        self.writes: dict[object, Callable[[], None]] = {}
        self.untold = False   # kept since the player was last told (tell once; again after they all landed)
        self.told = False
        self.problem: str | None = None   # a write that failed for another reason meanwhile (a full disk)

    def keep(self, key, write: Callable[[], None]) -> None:
        self.writes[key] = write
        if not self.told:
            self.untold = self.told = True

    def retry(self) -> bool:
        """Try each waiting write once, without waiting; True when some landed (what the screens show may have
        changed)."""
        waiting, self.writes = self.writes, {}
        for key, write in waiting.items():
            try:
                write()
            except OSError as e:   # SaveError: said, and not tried again
                self.problem = getattr(e, "message", None) or str(e)
        if not self.writes:
            self.told = False
        return len(self.writes) < len(waiting)
