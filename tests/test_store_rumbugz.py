"""RumBugz's finished games in the player's database: stored once, each round replayed, the humans' personal
bests; a locked, read-only or damaged database as NMBR 9's store treats it."""
import json
import time

import pytest

from nmbr9.rumbugz.bots import make_bot
from nmbr9.rumbugz.play import play_game
from nmbr9.rumbugz.rules import parse_record, replay
from nmbr9.match import local_date
from nmbr9.store import Store
from nmbr9.store.db import FILENAME
from nmbr9.store.rumbugz import best_lines, record_finished
from helpers import database_held, read_only

SEATS = [{"name": "Ana", "kind": "human"}, {"name": "Bot 2", "kind": "bot:medium"}]


def game(seed: int) -> tuple[list[dict], list[int]]:
    """A 3-round game of two medium bots (seat 0 named a human), its round records and the turns each round
    took."""
    played = list(play_game([make_bot("medium", seed), make_bot("medium", seed + 1)], SEATS, 3, seed))
    return [p.record for p in played], [p.turns for p in played]


@pytest.fixture(scope="module")
def games():
    """Games of different totals for Ana, lowest first: (rounds, Ana's total, turns a round)."""
    out = []
    for seed in range(1, 8):
        rounds, turns = game(seed)
        total = sum(replay(parse_record(r)).game.scores()[0] for r in rounds)
        if total not in [t for _r, t, _u in out]:
            out.append((rounds, total, turns))
    return sorted(out, key=lambda g: g[1])


def test_a_finished_game_is_stored_once_with_its_rounds_and_totals(tmp_path, games):
    rounds, total, turns = games[-1]
    store = Store(tmp_path)
    assert record_finished(store, rounds, "2026-11-29T10:00:00+00:00").message is None
    again = record_finished(store, rounds, "2026-11-29T10:00:00+00:00")   # a Continue after a crash
    assert again.message is None and len(again.lines) == 1
    [row] = store.db.execute("SELECT record FROM rumbugz_games").fetchall()
    stored = json.loads(row[0])
    assert stored["rounds"] == rounds and stored["players"] == SEATS
    played = [replay(parse_record(r)).game for r in rounds]
    points = [g.scores() for g in played]
    assert stored["totals"] == [sum(p[s] for p in points) for s in (0, 1)] and stored["totals"][0] == total
    facts = store.db.execute("SELECT seat, total, rounds_won, best_round, fastest_out FROM rumbugz_scores "
                             "ORDER BY seat").fetchall()
    for seat, kept, rounds_won, best_round, fastest in facts:
        wins = [i for i, g in enumerate(played) if g.winner == seat]
        # two players: a round's turns alternate from its first player's, so the winner began half of them
        own = [(turns[i] + (rounds[i]["first"] == seat)) // 2 for i in wins]
        assert (kept, rounds_won, best_round, fastest) == (
            sum(p[seat] for p in points), len(wins), max((points[i][seat] for i in wins), default=0),
            min(own, default=None))
    store.close()


def test_the_best_total_is_said_new_when_beaten_and_kept_otherwise(tmp_path, games):
    (low, low_total, _t), (high, high_total, _u) = games[0], games[-1]
    store = Store(tmp_path)
    assert record_finished(store, low, "2026-11-01T10:00:00+00:00").lines == [
        f"Ana: game total {low_total}, your first such game (players: 2, rounds: 3)."]
    lines = record_finished(store, high, "2026-11-02T10:00:00+00:00").lines
    assert lines[0] == f"Ana: new best game total: {high_total} (before: {low_total})."
    (won0, round0, out0), (won1, round1, out1) = store.db.execute(
        "SELECT rounds_won, best_round, fastest_out FROM rumbugz_scores WHERE seat = 0 ORDER BY game_id")
    assert lines[1:] == [line for beaten, line in (
        (won1 > won0 > 0, f"Ana: new best, most rounds won in a game: {won1} (before: {won0})."),
        (round1 > round0 > 0, f"Ana: new best, most points won in one round: {round1} (before: {round0})."),
        (None not in (out0, out1) and out1 < out0, f"Ana: new best, fastest out: turn {out1} (before: turn {out0})."))
        if beaten]
    stored = store.db.execute("SELECT played FROM rumbugz_scores WHERE total = ?", (high_total,)).fetchone()[0]
    assert record_finished(store, low, "2026-11-03T10:00:00+00:00").lines[0] == \
        f"Ana: your best game total: {high_total} ({local_date(stored)})."
    # the bot's seat is stored, never compared; two rounds are another kind of game
    assert all(line.startswith("Ana: ") for line in lines)
    assert record_finished(store, high[:2], "2026-11-04T10:00:00+00:00").lines[0].endswith(
        "your first such game (players: 2, rounds: 2).")
    store.close()


def test_a_record_the_rules_refuse_is_said_and_nothing_stored(tmp_path, games):
    rounds = json.loads(json.dumps(games[0][0]))
    rounds[1]["moves"][3] = {"player": rounds[1]["moves"][3]["player"], "discard": "99"}
    store = Store(tmp_path)
    said = record_finished(store, rounds, "2026-11-29T10:00:00+00:00")
    assert said.lines == [] and said.message.startswith("The game could not be stored: round 2: move 3: ")
    other = [dict(r, players=[SEATS[1], SEATS[0]]) for r in games[0][0]]
    assert record_finished(store, games[0][0][:1] + other[1:], "x").message == (
        "The game could not be stored: round 2: its players differ from the first round's")
    assert store.db.execute("SELECT count(*) FROM rumbugz_games").fetchone()[0] == 0
    store.close()


def test_a_database_another_program_holds_never_makes_the_window_wait_and_the_game_lands_later(tmp_path, games):
    rounds, total, _turns = games[0]
    store = Store(tmp_path)
    store.db   # (made before the other program takes it)
    store.never_wait()
    with database_held(tmp_path / FILENAME):
        started = time.monotonic()
        said = record_finished(store, rounds, "2026-11-29T10:00:00+00:00")
        assert time.monotonic() - started < 1, "the window's thread never waits on the database"
        assert (said.waiting, said.message, said.lines) == (True, None, [])
        assert not store.store_later(), "still held: still waiting"
    assert store.store_later()
    assert best_lines(store.db, "2026-11-29T10:00:00+00:00") == [
        f"Ana: game total {total}, your first such game (players: 2, rounds: 3)."]
    store.close()


def test_a_read_only_database_says_the_game_was_not_stored(tmp_path, games):
    Store(tmp_path).db.execute("SELECT 1")
    with read_only(tmp_path):
        store = Store(tmp_path)
        said = record_finished(store, games[0][0], "2026-11-29T10:00:00+00:00")
        assert said.message == ("The game and its scores could not be stored for personal bests: the data folder "
                                f"{tmp_path} can't be written")
        store.close()


def test_a_damaged_database_is_set_aside_and_the_game_stored_in_a_new_one(tmp_path, games):
    (tmp_path / FILENAME).write_bytes(b"not a database at all" * 100)
    store = Store(tmp_path)
    said = record_finished(store, games[0][0], "2026-11-29T10:00:00+00:00")
    assert said.message is None and len(said.lines) == 1
    assert "It was kept as" in store.db_message
    store.close()


def test_the_bests_of_games_on_a_damaged_page_are_worked_out_again_from_their_records(tmp_path, games):
    """The page of the bests' facts damaged: the games' records still read, so each player's bests stand."""
    from helpers import damage_table
    (low, low_total, _t), (high, high_total, _u) = games[0], games[-1]
    store = Store(tmp_path)
    record_finished(store, high, "2026-11-01T10:00:00+00:00")
    record_finished(store, low, "2026-11-02T10:00:00+00:00")
    facts = store.db.execute("SELECT * FROM rumbugz_scores ORDER BY game_id, seat").fetchall()
    store.close()
    damage_table(tmp_path / FILENAME, "rumbugz_scores")
    store = Store(tmp_path)
    store.db   # (opened: the damaged file set aside)
    assert "It was kept as" in store.db_message
    assert [tuple(r) for r in store.db.execute("SELECT * FROM rumbugz_scores ORDER BY game_id, seat")] == \
        [tuple(r) for r in facts]
    assert record_finished(store, low, "2026-11-03T10:00:00+00:00").lines[0] == \
        f"Ana: your best game total: {high_total} ({local_date(facts[0]['played'])})."
    store.close()
