"""The server's SQLite database: every table, seat and confirmed move, written before it is acknowledged.

WAL journal with synchronous=NORMAL: a commit is in the operating system's
hands when `commit()` returns, so killing the server (kill -9) loses nothing
committed; only a power cut may lose the last moments (docs/serving.md).
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ..rules import Ruleset
from .table import Chair, Table, ruleset_from_json

FILENAME = "server.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       INTEGER PRIMARY KEY,
    code     TEXT NOT NULL UNIQUE,
    created  TEXT NOT NULL,
    rules    TEXT NOT NULL,          -- the ruleset chosen in the lobby (JSON)
    setup    TEXT,                   -- once started: {"seed", "ruleset", "deck", "start_tiles"}
    rematch  TEXT                    -- the next game's code
);
CREATE TABLE IF NOT EXISTS chairs (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL,
    token    TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    id       INTEGER PRIMARY KEY,    -- the order the moves were made in
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat     INTEGER NOT NULL,
    move     TEXT NOT NULL           -- as the record writes it (spec/game-record.md)
);
CREATE INDEX IF NOT EXISTS moves_by_table ON moves (table_id, id);
"""


class Store:
    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(folder / FILENAME, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)
        self.ids: dict[str, int] = {}     # table code -> row id
        self.staged: list[tuple] = []      # the moves' INSERTs waiting for commit()
        self.commits = self.committed = 0  # commit()s and the moves they stored, since the start (logged)

    def close(self) -> None:
        self.conn.close()

    def _write(self, *statements) -> None:
        """Several statements in one transaction: all of them or none."""
        c = self.conn
        c.execute("BEGIN")
        try:
            for sql, args in statements:
                c.execute(sql, args)
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise

    def add_table(self, t: Table) -> None:
        cur = self.conn.execute("INSERT INTO tables (code, created, rules) VALUES (?, ?, ?)",
                                (t.code, t.created, json.dumps(t.rules.to_json())))
        self.ids[t.code] = cur.lastrowid

    def set_rules(self, t: Table) -> None:
        self.conn.execute("UPDATE tables SET rules = ? WHERE id = ?", (json.dumps(t.rules.to_json()), self.ids[t.code]))

    def add_chair(self, t: Table, seat: int) -> None:
        c = t.chairs[seat]
        self.conn.execute("INSERT INTO chairs VALUES (?, ?, ?, ?, ?)", (self.ids[t.code], seat, c.name, c.kind, c.token))

    def started(self, t: Table) -> None:
        g = t.games[0]
        setup = {"seed": t.seed, "ruleset": g.ruleset.to_json(), "deck": g.deck,
                 "start_tiles": t.record().get("start_tiles")}
        self.conn.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setup), self.ids[t.code]))

    def set_rematch(self, t: Table) -> None:
        self.conn.execute("UPDATE tables SET rematch = ? WHERE id = ?", (t.rematch, self.ids[t.code]))

    def add_moves(self, t: Table, seat: int, moves: list[dict]) -> None:
        """The moves one action made, for the next commit()."""
        self.staged += [("INSERT INTO moves (table_id, seat, move) VALUES (?, ?, ?)",
                         (self.ids[t.code], seat, json.dumps(m))) for m in moves]

    def commit(self) -> None:
        """Write the moves added since the last commit in one transaction: all of them, or none and an error.
        (A commit a move cost 35-44 us of CPU, grouped by ten 6-7 us a move.)"""
        rows, self.staged = self.staged, []
        if rows:
            self._write(*rows)
            self.commits, self.committed = self.commits + 1, self.committed + len(rows)

    def load(self) -> list[Table]:
        """Every table as it was at the last commit; its moves are made again through the rules when it is first
        used (Table.ready)."""
        tables = {}
        for tid, code, created, rules, setup, rematch in self.conn.execute(
                "SELECT id, code, created, rules, setup, rematch FROM tables ORDER BY id"):
            t = Table(code, ruleset_from_json(json.loads(rules)), created)
            t.rematch = rematch
            self.ids[code] = tid
            tables[tid] = (t, setup)
        for tid, seat, name, kind, token in self.conn.execute("SELECT * FROM chairs ORDER BY table_id, seat"):
            tables[tid][0].chairs.append(Chair(name, kind, token))
        for t, setup in tables.values():
            if setup:
                s = json.loads(setup)
                rs = s["ruleset"]
                t.setup(s["seed"], Ruleset(rs["variant"], tuple(rs["modules"]), tuple(rs.get("powers", ()))),
                        s["deck"], s["start_tiles"])
        for tid, seat, move in self.conn.execute("SELECT table_id, seat, move FROM moves ORDER BY id"):
            tables[tid][0].stored.append((seat, json.loads(move)))
        return [t for t, _ in tables.values()]
