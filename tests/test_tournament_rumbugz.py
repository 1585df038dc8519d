"""RumBugz tournaments: `nmbr9 tournament --game rumbugz`, kept in the tournaments tables with their game named,
each round stored as played; the standings from the replayed rounds; resumed after a kill."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from nmbr9 import cli
from nmbr9.match import places
from nmbr9.rumbugz.rules import parse_record, replay
from nmbr9.store import Store
from nmbr9.store.db import FILENAME

from test_tournament import ROOT, run_cli


def totals_replayed(record: dict) -> list[int]:
    """A stored game's totals worked out from its rounds alone, each replayed legal through the rules."""
    totals = [0] * len(record["players"])
    for data in record["rounds"]:
        played = replay(parse_record(data))
        assert played.error is None and (played.game.over or played.game.winner is None)
        totals = [t + s for t, s in zip(totals, played.game.scores())]
    return totals


def test_a_bots_tournament_of_rumbugz_plays_legal_rounds_and_stands_by_their_totals(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    assert cli.main(["tournament", "--game", "rumbugz", "--bots", "easy,medium", "--games", "2", "--rounds", "2",
                     "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["Tournament 1: 2 games, the best 2 count, seed 4 (finished)", "RumBugz, 2 rounds a game"]
    store = Store(tmp_path)
    [summary] = store.tournaments()
    assert summary.game == "rumbugz" and summary.played == 2 and summary.finished
    t = store.tournament(summary.id)
    games = [totals_replayed(e.record) for e in t.entries()]
    assert [e.scores for e in t.entries()] == games and all(len(e.record["rounds"]) == 2 for e in t.entries())
    wins = [sum(places(g)[seat] == 1 for g in games) for seat in (0, 1)]
    lines = {s.name: (s.total, s.wins) for s in t.standings()}
    assert lines == {"Bot 1": (games[0][0] + games[1][0], wins[0]), "Bot 2": (games[0][1] + games[1][1], wins[1])}
    for s in t.standings():   # as printed: place, name, best, total, wins, games
        assert any(line.split()[-4:] == [str(s.best), str(s.total), str(s.wins), "2"] and s.name in line
                   for line in out[3:])
    store.close()
    assert cli.main(["tournament", "--game", "rumbugz", "--bots", "hard", "--games", "1"]) == 2
    assert capsys.readouterr().out == "A RumBugz tournament has 2 to 6 players.\n"


def stored_rounds(folder) -> list[int]:
    """How many rounds each stored game of tournament 1 holds (read as another program would)."""
    try:
        db = sqlite3.connect(f"{(folder / FILENAME).as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            return [len(json.loads(r)["rounds"]) for (r,) in
                    db.execute("SELECT record FROM tournament_games ORDER BY number")]
        finally:
            db.close()
    except sqlite3.Error:   # (not made yet)
        return []


def test_a_killed_rumbugz_tournament_resumes_from_its_last_stored_round_as_if_never_stopped(tmp_path):
    args = ["--game", "rumbugz", "--bots", "hard,medium", "--games", "2", "--rounds", "3", "--seed", "8"]
    proc = subprocess.Popen([sys.executable, "-m", "nmbr9", "tournament", *args], stderr=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, cwd=ROOT,
                            env={**os.environ, "NMBR9_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)})
    try:
        started = time.monotonic()
        while stored_rounds(tmp_path)[1:2] != [1]:   # killed in game 2, after its first round
            assert proc.poll() is None and time.monotonic() - started < 60
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(10)
    killed = stored_rounds(tmp_path)
    assert killed[0] == 3 and 1 <= killed[1] < 3, "killed part way through game 2"
    resumed = run_cli(tmp_path, "--resume", "1")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    whole = run_cli(tmp_path / "whole", *args)
    assert resumed.stdout.splitlines()[1:] == whole.stdout.splitlines()[1:]
    kept = [Store(folder).tournament(1).entries() for folder in (tmp_path, tmp_path / "whole")]
    assert [e.record["rounds"] for e in kept[0]] == [e.record["rounds"] for e in kept[1]], "the same rounds"


def test_a_rumbugz_tournaments_players_and_scores_on_damaged_pages_are_read_again_from_its_games(tmp_path):
    """The pages of the seats and the games' scores damaged: NMBR 9's records were read to seat them again, and
    RumBugz's games are read as well (players, totals from the replayed rounds)."""
    from helpers import damage_table
    from nmbr9.rumbugz.play import GameRules
    from nmbr9.rules import Seat
    from nmbr9.store.rumbugz import play_tournament_game, tournament_game
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:medium")], games=2, seed=5,
                             ruleset=GameRules(1))
    play_tournament_game(t, *tournament_game(t))
    games, standings = t.entries(), t.standings()
    store.close()
    for table in ("tournament_seats", "game_scores"):
        damage_table(tmp_path / FILENAME, table)
        store = Store(tmp_path)
        cup = store.tournament(t.id)
        assert "its players were read again" in store.db_message or table != "tournament_seats"
        assert [(s.name, s.kind) for s in cup.seats] == [("Bot 1", "bot:easy"), ("Bot 2", "bot:medium")]
        assert [(g.number, g.scores) for g in cup.entries()] == [(g.number, g.scores) for g in games]
        assert cup.standings() == standings and cup.ruleset == GameRules(1)
        store.close()


def test_the_windows_rumbugz_tournament_game_stores_each_round_as_it_ends_and_resumes_mid_round(tmp_path):
    """The window's game of a RumBugz tournament (store.rumbugz.window_game): each round is in the tournament
    as soon as it ends, the game finished with its last; quit part way through a round, it comes back at that
    move from the autosave; a rematch after it is not the tournament's."""
    from nmbr9.rules import Seat
    from nmbr9.rumbugz.play import GameRules
    from nmbr9.store.rumbugz import window_game
    from test_rumbugz_window import play_until
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Ann", "bot:easy"), Seat("Ben", "bot:hard")], games=2, seed=5,
                             ruleset=GameRules(2))
    game = window_game(store, t)
    assert game.tournament == {"id": t.id, "game": 1} and game.round_number == 1
    play_until(game, lambda g: g.round.over)
    [entry] = t.entries()
    assert len(entry.record["rounds"]) == 1 and not entry.finished   # stored at the round's end
    assert entry.record["totals"] == game.totals()
    game.next_round()
    play_until(game, lambda g: len(g.round.moves) >= 5)
    moves = list(game.round.moves)
    again = window_game(Store(tmp_path), store.tournament(t.id))   # the window quit and started again
    assert again.round_number == 2 and again.round.moves == moves
    play_until(again, lambda g: g.over)
    t = store.tournament(t.id)
    [entry] = t.entries()
    assert entry.finished and entry.scores == again.totals() and totals_replayed(entry.record) == again.totals()
    assert [s.wins for s in sorted(t.standings(), key=lambda s: s.seat)] == \
        [int(total == max(again.totals())) for total in again.totals()]
    again.rematch()
    assert len(store.tournament(t.id).entries()) == 1
    second = window_game(store, t)
    assert second.tournament == {"id": t.id, "game": 2} and second.round_number == 1 and not second.round.moves


def test_a_tournament_round_is_dealt_alike_by_the_command_and_by_the_window(tmp_path):
    """A game's second round played by `nmbr9 tournament` (its first played in the window, or the other way
    round) gets the same deal: who starts and the bag, whichever of them deals it."""
    from nmbr9.rules import Seat
    from nmbr9.rumbugz.game import RumbugzGame
    from nmbr9.rumbugz.play import GameRules
    from nmbr9.store.rumbugz import play_tournament_game, tournament_game
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Ann", "bot:easy"), Seat("Ben", "bot:medium")], games=1, seed=8,
                             ruleset=GameRules(2))
    number, record = tournament_game(t)
    play_tournament_game(t, number, record)
    first, second = t.entries()[0].record["rounds"]
    window = RumbugzGame.going_on(record["players"], t.game_seed(number), 2, [first])
    assert (window.round.first, list(window.round.start_bag)) == (second["first"], second["bag"])


def test_a_tournament_round_the_held_database_cant_take_lands_once_it_is_let_go(tmp_path):
    """The window's RumBugz tournament game ends while another program holds the database: the window doesn't
    wait, and the game's last round (the game finished) is stored in the tournament once the program lets go."""
    from helpers import database_held
    from nmbr9.rules import Seat
    from nmbr9.rumbugz.play import GameRules
    from nmbr9.store.rumbugz import window_game
    from test_rumbugz_window import play_until
    store = Store(tmp_path)
    store.never_wait()
    t = store.new_tournament([Seat("Ann", "bot:easy"), Seat("Ben", "bot:medium")], games=1, seed=3,
                             ruleset=GameRules(1))
    game = window_game(store, t)
    play_until(game, lambda g: len(g.round.moves) >= 2)
    with database_held(tmp_path / FILENAME):
        started = time.monotonic()
        play_until(game, lambda g: g.over)
        assert time.monotonic() - started < 5, "the window's thread never waits on the database"
        assert not store.store_later(), "still held: still waiting"
    assert store.store_later()
    [entry] = store.tournament(t.id).entries()
    assert entry.finished and entry.scores == game.totals() and len(entry.record["rounds"]) == 1


def test_rounds_given_for_an_nmbr9_tournament_are_refused_in_words(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    assert cli.main(["tournament", "--bots", "easy,medium", "--games", "1", "--rounds", "2"]) == 2
    assert capsys.readouterr().out.strip() == \
        "--rounds is for RumBugz tournaments (--game rumbugz): an NMBR 9 game is its 20 cards."
    assert Store(tmp_path).tournaments() == []   # nothing started
