"""RumBugz's finished games in the player's database, and their personal bests (issue 38).

A game is stored once (by its start time, `created`) with every round's record as spec/rumbugz.md writes it;
each seat's facts (total, rounds won, biggest round, fastest out) sit beside it for the bests. The play
screen calls `record_finished` at the game's end and shows what it returns.
"""
from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import N_, _
from ..match import derive_seed, local_date, places, stored_name, utc_now
from ..rules.record import RecordError
from ..rumbugz.rules import Round, parse_record
from ..rumbugz.rules.round import DRAW
from .db import StoreError, db_path, sqlite_reason, stored_record, transaction
from .files import SaveError
from .later import busy

GAME_FORMAT = "rumbugz-game"   # the stored game: {"format", "version", "created", "players", "rounds", "totals"}


@dataclass
class Stored:
    """What `record_finished` says: `lines`, one sentence each, for the humans' bests; `message`, a sentence
    when the game was not stored (None: stored, or waiting); `waiting`: another program holds the database,
    the game is stored once it lets go (the window says so once) and `best_lines(store.db, created)` then
    gives the lines."""
    lines: list[str] = field(default_factory=list)
    message: str | None = None
    waiting: bool = False


@dataclass(frozen=True)
class Seat:
    """One seat's facts in a finished game, as the bests compare them."""
    player: str
    kind: str
    total: int
    rounds_won: int
    best_round: int           # the most points won in one round (0: won none)
    fastest_out: int | None   # the fewest of their own turns they took to go out (None: never went out)


def game_facts(rounds: list[dict]) -> tuple[list[dict], list[Seat]]:
    """The players and each seat's facts of a game's round records, each replayed through the rules.
    RecordError (its sentence said with the round's number) when a round is not a legal record or the
    rounds name different players."""
    if not isinstance(rounds, list) or not rounds:
        raise RecordError(N_("a game needs at least one round's record"))
    players, facts = None, []
    for number, data in enumerate(rounds, start=1):
        try:
            record = parse_record(data)
            if players is not None and record.players != players:
                raise RecordError(N_("its players differ from the first round's"))
            game, turns = _replayed(record)
        except RecordError as e:
            raise RecordError(N_("round {round}: {reason}"), round=number, reason=e.reason) from None
        players = players or record.players
        facts = facts or [[0, 0, 0, None] for _p in players]
        for seat, points in enumerate(game.scores()):
            f = facts[seat]
            f[0] += points
            if game.winner == seat:
                f[1] += 1
                f[2] = max(f[2], points)
                f[3] = turns if f[3] is None else min(f[3], turns)
    return players, [Seat(stored_name(p["name"], p["kind"]), p["kind"], *f) for p, f in zip(players, facts)]


def _replayed(record) -> tuple[Round, int]:
    """The round the record's moves reach, and how many turns its winner began (a turn begins with its
    own draw; 0 without a winner). RecordError at the first move the rules refuse."""
    game = Round(len(record.players), record.first, record.bag)
    began = [0] * len(record.players)
    for i, move in enumerate(record.moves):
        starts = "draw" in move and game.step == DRAW and move["player"] == game.turn
        verdict = game.apply(move)
        if not verdict:
            raise RecordError(N_("move {move}: {reason}"), move=i, reason=verdict)
        if starts:
            began[move["player"]] += 1
    return game, began[game.winner] if game.winner is not None else 0


def record_finished(store, rounds: list[dict], created: str) -> Stored:
    """Store a finished RumBugz game and say the humans' personal bests.

        stored = record_finished(store, rounds, created)
        for line in stored.lines: ...          # "Ana: new best game total: 87 (before: 64)."
        if stored.message: ...                 # why the game was not stored, a sentence for the player

    `store`: the window's `nmbr9.store.Store` (its database, and its `later` queue: the window never waits on
    the database). `rounds`: every round's record of the game, as `round_record` writes it (spec/rumbugz.md),
    in the order played, all naming the same players ({"name", "kind": "human" or "bot:<strength>"}).
    `created`: the game's start time (ISO 8601, UTC), its identity: storing the same game again (a Continue
    after a crash) changes nothing and gives the same lines. Every round is replayed; the totals are the
    rounds' points (the highest total wins the game: spec, "Scoring and the game").

    The bests are a human's (bots are stored, never compared), against their other games with as many
    players (more hands give the winner more points):
    - best game total, among games of as many rounds: the number that decides a game;
    - most rounds won in one game, among games of as many rounds: going out first is the whole game;
    - most points won in one round: catching the others with full hands is what a rummy player boasts of;
    - fastest out: the fewest of their own turns from the deal to going out, the skill of the lay.
    A line is given when the player set a new best, and the best game total also when not ("your best game total: 120
    (2026-11-02)"); a player's first game gives one line saying so.

    Never raises for the database: a locked one (another program) waits in `store.later` (`waiting`); a
    damaged one was set aside when opened (`store.db_message` says so); a read-only or full one gives
    `message` naming what was lost. A record the rules refuse gives `message` too, and nothing is stored.
    """
    try:
        players, seats = game_facts(rounds)
    except RecordError as e:
        return Stored(message=_("The game could not be stored: {reason}").format(reason=e.text(_)))
    return _stored(store, players, seats, rounds, created)


def _stored(store, players: list[dict], seats: list[Seat], rounds: list[dict], created: str) -> Stored:
    try:
        _store(store.db, players, seats, rounds, created)
        return Stored(best_lines(store.db, created))
    except (sqlite3.Error, StoreError) as e:
        if store.later is not None and busy(e):   # the window: stored once the other program lets go
            store.later.keep(("rumbugz", created), lambda: _stored_later(store, players, seats, rounds, created))
            return Stored(waiting=True)
        return Stored(message=_("The game and its scores could not be stored for personal bests: {reason}").format(
            reason=sqlite_reason(e, store.folder)))


def _stored_later(store, *game) -> None:
    """The write `later` tries again (it keeps itself while the database is held): what fails otherwise is
    said by the window (Later.problem)."""
    said = _stored(store, *game)
    if said.message:
        raise SaveError(said.message)


def game_record(players: list[dict], rounds: list[dict], created: str, totals: list[int]) -> dict:
    """A RumBugz game as the database keeps it (a finished game, a tournament's game so far)."""
    return {"format": GAME_FORMAT, "version": 1, "created": created, "players": players, "rounds": rounds,
            "totals": totals}


def _store(db: sqlite3.Connection, players: list[dict], seats: list[Seat], rounds: list[dict], created: str) -> None:
    record = game_record(players, rounds, created, [s.total for s in seats])
    now = utc_now()
    with transaction(db):
        game = db.execute("INSERT OR IGNORE INTO rumbugz_games (created, record, finished) VALUES (?, ?, ?)",
                          (created, json.dumps(record), now))
        if game.rowcount:   # (stored before: a game counts once)
            _keep_facts(db, game.lastrowid, seats, len(rounds), now)


def _keep_facts(db: sqlite3.Connection, game_id: int, seats: list[Seat], rounds: int, played: str) -> None:
    db.executemany("INSERT INTO rumbugz_scores (game_id, seat, player, kind, players, rounds, total, rounds_won,"
                   " best_round, fastest_out, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(game_id, i, s.player, s.kind, len(seats), rounds, s.total, s.rounds_won, s.best_round,
                     s.fastest_out, played) for i, s in enumerate(seats)])


def refacts(db: sqlite3.Connection) -> None:
    """Finished games whose bests' facts were lost with a damaged page of the database, worked out again from
    their records (db._restore): their players' bests stand as they did. A game whose record was lost too, or
    whose seats' facts partly survived, is left as it is."""
    for game in db.execute("SELECT id, record, finished FROM rumbugz_games g WHERE NOT EXISTS "
                           "(SELECT 1 FROM rumbugz_scores s WHERE s.game_id = g.id)").fetchall():
        try:
            rounds = stored_record(game["record"])["rounds"]
            _keep_facts(db, game["id"], game_facts(rounds)[1], len(rounds), game["finished"])
        except (ValueError, TypeError, KeyError, sqlite3.Error):   # (RecordError)
            continue


# each best: its column, whether more is better, whether it is compared among games of as many rounds
BESTS = (("total", True, True), ("rounds_won", True, True), ("best_round", True, False),
         ("fastest_out", False, False))


def best_lines(db: sqlite3.Connection, created: str) -> list[str]:
    """The lines `record_finished` gives for the stored game that began at `created` ([] if none is)."""
    lines = []
    rows = db.execute("SELECT s.* FROM rumbugz_scores s JOIN rumbugz_games g ON g.id = s.game_id "
                      "WHERE g.created = ? AND s.kind = 'human' ORDER BY s.seat", (created,)).fetchall()
    for row in rows:
        before = {}
        for column, more, per_rounds in BESTS:
            # a damaged value (not a number) is no best
            best = db.execute(
                f"SELECT s.{column} AS value, s.played FROM rumbugz_scores s JOIN rumbugz_games g ON g.id = s.game_id "
                f"WHERE s.player = ? AND s.kind = 'human' AND s.players = ? AND g.created != ? "
                f"AND typeof(s.{column}) = 'integer' {'AND s.rounds = ?' if per_rounds else ''} "
                f"ORDER BY s.{column} {'DESC' if more else 'ASC'}, s.played LIMIT 1",
                (row["player"], row["players"], created, *([row["rounds"]] if per_rounds else []))).fetchone()
            before[column] = best
        lines += _lines(row, before)
    return lines


def _lines(row, before: dict) -> list[str]:
    name = row["player"]
    if before["total"] is None:
        return [_("{name}: game total {total}, your first such game (players: {players}, rounds: {rounds}).").format(
            name=name, rounds=row["rounds"], players=row["players"], total=row["total"])]
    best = before["total"]
    if row["total"] > best["value"]:
        lines = [_("{name}: new best game total: {total} (before: {best}).").format(
            name=name, total=row["total"], best=best["value"])]
    else:
        lines = [_("{name}: your best game total: {best} ({date}).").format(
            name=name, best=best["value"], date=local_date(best["played"]))]
    news = {
        "rounds_won": _("{name}: new best, most rounds won in a game: {value} (before: {best})."),
        "best_round": _("{name}: new best, most points won in one round: {value} (before: {best})."),
        "fastest_out": _("{name}: new best, fastest out: turn {value} (before: turn {best})."),
    }
    for column, more, _per_rounds in BESTS[1:]:
        value, old = row[column], before[column]
        if not value or old is None or not old["value"]:
            continue   # never out, no round won; or no round won before: nothing beaten
        if (value > old["value"]) if more else (value < old["value"]):
            lines.append(news[column].format(name=name, value=value, best=old["value"]))
    return lines


# ----- tournaments ---------------------------------------------------------------------------------------------
def tournament_game(t) -> tuple[int, dict] | None:
    """The RumBugz tournament `t`'s game to play now, (its number, its record so far: game_record, the rounds
    played), the one in progress or the next one, stored as started; None when the tournament is over. The
    window's RumBugz play screen continues a tournament from here, storing each round with `store_round`.
    StoreError when the game in progress can't be read."""
    from .tournaments import DAMAGED_COPY
    row = t.in_progress()
    if row is not None:
        record = stored_record(row["record"])
        if record is None or record.get("format") != GAME_FORMAT or not isinstance(record.get("rounds"), list):
            raise StoreError(_("Game {number} of the tournament can't be resumed: {reason}").format(
                number=row["number"], reason=_(DAMAGED_COPY)))
        return row["number"], record
    number = t.next_number()
    if number is None:
        return None
    record = game_record([{"name": s.name, "kind": s.kind} for s in t.seats], [], utc_now(), [0] * len(t.seats))
    t.start(number, record, record["created"])
    return number, record


def store_round(t, number: int, record: dict, played: dict) -> bool:
    """Add round record `played` to tournament game `number`'s `record` and store it (replayed first: a round
    the rules refuse is never stored, RecordError); after the game's last round its totals finish it (the
    highest wins, a tie shares the win). Returns whether the game is over."""
    rounds = [*record["rounds"], played]
    _players, seats = game_facts(rounds)
    record["rounds"], record["totals"] = rounds, [s.total for s in seats]
    over = len(rounds) >= t.ruleset.rounds
    totals = record["totals"]
    t.store_game(number, record, [(seat, total, place == 1) for seat, (total, place) in
                                  enumerate(zip(totals, places(totals)))] if over else None)
    return over


def play_tournament_game(t, number: int, record: dict, progress=None) -> list[int]:
    """Bots play tournament game `number`'s remaining rounds, each stored once played; its totals. Each round
    has its own seed, from the game's and its number: a game stopped part way goes on as it would have.
    `progress(round)` after each round."""
    from ..rumbugz.bots import make_bot
    from ..rumbugz.play import play_round, round_seed
    levels = [s.kind.partition(":")[2] for s in t.seats]
    while len(record["rounds"]) < t.ruleset.rounds:
        seed = round_seed(t.game_seed(number), len(record["rounds"]))   # as the window would deal it
        bots = [make_bot(level, derive_seed(seed, "bot", i)) for i, level in enumerate(levels)]
        store_round(t, number, record, play_round(bots, record["players"], random.Random(seed)).record)
        if progress is not None:
            progress(len(record["rounds"]))
    return record["totals"]


class TournamentRounds:
    """A RumBugz game's saver in the window while it is tournament `t`'s game `number`: each round stored
    (store_round) as soon as it is over, the game finished with its last; `record` is the game as stored."""

    def __init__(self, t, number: int, record: dict, later=None):
        self.tournament, self.number, self.record = t, number, record
        self.later = later   # the window's queue: a round the database can't take now is stored once it can

    def save(self, game) -> None:
        if game.tournament != {"id": self.tournament.id, "game": self.number}:
            return   # a rematch after the tournament's game: not part of it
        from ..rumbugz.play import round_done
        over = len(game.played) + round_done(game.round)
        for played in game.round_records()[len(self.record["rounds"]):over]:
            record = dict(self.record)   # kept as it was if the round can't be stored: tried again next save
            try:
                store_round(self.tournament, self.number, record, played)
            except (sqlite3.Error, StoreError) as e:
                if self.later is not None and busy(e):   # another program holds it: the last round too lands later
                    self.later.keep(("rumbugz-tournament", self.tournament.id, self.number), lambda: self.save(game))
                    return
                raise SaveError(_("Could not save the tournament game: {reason}").format(
                    reason=e.message if isinstance(e, StoreError) else
                    sqlite_reason(e, Path(db_path(self.tournament.db)).parent))) from e
            self.record = record


def window_game(store, t, unsaved=None):
    """The RumBugz tournament `t`'s game for the window (a RumbugzGame, autosaved and storing its rounds in the
    tournament), the one in progress at its round or the next one; None when the tournament is over. The
    autosave's copy (or `unsaved`, the window's own) goes on where it is, part way through a round;
    otherwise the game goes on from its stored rounds, the next round dealt by the game's seed."""
    from ..rumbugz.game import RumbugzGame, is_rumbugz
    found = tournament_game(t)
    if found is None:
        return None
    number, record = found
    mark = {"id": t.id, "game": number}
    saved = unsaved if unsaved is not None else store.autosave.load(threaded=False).match
    if is_rumbugz(saved) and saved.tournament == mark and saved.created == record["created"] and \
            len(saved.played) >= len(record["rounds"]):
        game = saved
    else:
        try:
            game = RumbugzGame.going_on(record["players"], t.game_seed(number), t.ruleset.rounds, record["rounds"],
                                        savers=[store.autosave])
        except (RecordError, KeyError, TypeError) as e:
            raise StoreError(_("Game {number} of the tournament can't be resumed: {reason}").format(
                number=number, reason=e.text(_) if isinstance(e, RecordError) else str(e))) from e
        game.tournament, game.created = mark, record["created"]
    game.savers = [s for s in game.savers if not isinstance(s, TournamentRounds)] + [
        TournamentRounds(t, number, record, store.later)]
    game.save()
    return game
