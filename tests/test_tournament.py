"""Tournaments: series of games for the same seats, standings, resuming, history, the headless command."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from nmbr9 import cli
from nmbr9.match import places
from nmbr9.rules import BREAKING_RULES, TWO_OF_THREE, Ruleset, Seat
from nmbr9.rules.record import parse_record, replay
from nmbr9.store import Store

from test_match import play

ROOT = Path(__file__).resolve().parent.parent
ANA, BEN, BOT = Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    s = Store()
    yield s
    s.close()


def run_cli(folder, *args, **kw):
    env = {**os.environ, "NMBR9_DATA": str(folder), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "nmbr9", "tournament", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, **{"timeout": 120, **kw})


def expected_standings(t):
    """Standings worked out from the stored records alone (replayed through the rules)."""
    per_game = []
    for e in t.entries():
        r = replay(parse_record(e.record))
        assert r.ok and r.game.over
        per_game.append(r.game.scores())
    lines = []
    for seat in range(len(t.seats)):
        scores = [g[seat] for g in per_game]
        wins = sum(1 for g in per_game if g[seat] == max(g))
        lines.append((seat, sum(scores), wins, sum(sorted(scores, reverse=True)[:t.best])))
    pl = places([(best, wins) for _, _, wins, best in lines])
    return sorted([(pl[s], s, total, wins, best) for s, total, wins, best in lines])


def play_tournament(store, t):
    while (m := store.tournament_match(t, threaded=False)) is not None:
        play(m)


def test_the_headless_command_plays_prints_and_stores_a_tournament(tmp_path):
    out = run_cli(tmp_path, "--bots", "medium,easy,easy", "--games", "3", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert [f"game {n}/3" in out.stderr for n in range(1, 4)] == [True] * 3
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 3 and sorted(r[3] for r in rows) == ["(easy)", "(easy)", "(medium)"]
    store = Store(tmp_path)
    assert not store.autosave.exists(), "a headless tournament leaves the player's autosave alone"
    [summary] = store.tournaments()
    assert summary.finished and summary.played == 3
    t = store.tournament(summary.id)
    got = [(s.place, s.seat, s.total, s.wins, s.best) for s in t.standings()]
    assert got == expected_standings(t)
    header = next(line.split() for line in out.stdout.splitlines() if line.split()[:1] == ["Place"])
    assert header == ["Place", "Player", "Best", "Total", "Wins", "Games"]
    for s, row in zip(t.standings(), rows):       # "1  Bot 2 (medium)  best total wins  games"
        assert [int(x) for x in (row[0], *row[4:])] == [s.place, s.best, s.total, s.wins, 3]   # Games: a count
    again = run_cli(tmp_path / "again", "--bots", "medium,easy,easy", "--games", "3", "--seed", "1")
    assert again.stdout.splitlines()[1:] == out.stdout.splitlines()[1:], "the same seed plays the same tournament"
    store.close()


def test_the_command_names_a_bot_with_its_strength_once_in_the_players_language(store, capsys):
    """--show and --list printed seats as stored: an older command's "Bot 1 (hard)" with its strength in English
    whatever the language, New tournament's "Bot 2" with none. Now as the Tournament screen names them."""
    from nmbr9.i18n import set_language
    older = store.new_tournament([Seat("Bot 1 (hard)", "bot:hard"), Seat("Bot 2 (easy)", "bot:easy")], games=1,
                                 seed=1)
    window = store.new_tournament([Seat("Player 1"), Seat("Bot 2", "bot:medium")], games=1, seed=1)
    set_language("de")
    try:
        shown = []
        for args in (["--show", str(older.id)], ["--show", str(window.id)], ["--list"]):
            assert cli.main(["tournament", *args]) == 0
            shown.append(capsys.readouterr().out)
    finally:
        set_language("en")
    rows = [[line[5:].strip().rsplit(None, 4)[0] for line in out.splitlines() if line.strip()[:1] == "\u2013"]
            for out in shown[:2]]   # (no game played yet: nobody has a place)
    assert rows == [["Bot 1 (schwer)", "Bot 2 (leicht)"], ["Spieler 1", "Bot 2 (mittel)"]]
    assert "Spieler 1, Bot 2 (mittel)" in shown[2] and "Bot 1 (schwer), Bot 2 (leicht)" in shown[2]


def test_a_tournament_of_the_former_expert_bot_is_told_and_played_as_hard(store, capsys):
    """Expert played hard's game and is folded into it: a stored tournament naming bot:expert says "(hard)" and
    its next game is played; `--bots expert` plays hard, and a note on stderr says why."""
    older = store.new_tournament([Seat("Bot 1 (expert)", "bot:expert"), Seat("Bot 2", "bot:expert")], games=1, seed=1)
    assert cli.main(["tournament", "--show", str(older.id)]) == 0
    rows = [line[5:].strip().rsplit(None, 4)[0] for line in capsys.readouterr().out.splitlines()
            if line.strip()[:1] == "\u2013"]
    assert rows == ["Bot 1 (hard)", "Bot 2 (hard)"]
    m = store.tournament_match(store.tournament(older.id), threaded=False)
    assert m.run_bots() and [len(b.tiles) for b in m.game.boards] == [1, 1]
    assert cli.main(["tournament", "--bots", "expert,easy", "--games", "1", "--seed", "3"]) == 0
    out = capsys.readouterr()
    assert out.err.splitlines()[0] == "Note: expert is now hard (the two played the same game): hard plays."
    assert "Bot 1 (hard)" in out.out and "Bot 2 (easy)" in out.out


def test_show_names_each_games_scores_by_player(store, capsys):
    """--show listed each game as "scores 46 46 50", in the seats' order, under standings in the places' order
    (the bot first): whose 50 it was could not be told. Each score now comes with its player."""
    t = store.new_tournament([ANA, BEN, BOT], games=2, seed=4)
    play(store.tournament_match(t, threaded=False))
    store.tournament_match(t, threaded=False)   # the second game begun
    first, second = store.tournament(t.id).entries()
    assert cli.main(["tournament", "--show", str(t.id)]) == 0
    lines = capsys.readouterr().out.splitlines()
    ana, ben, bot = first.scores
    assert f"  game 1: seed {first.seed}, scores Ana {ana}, Ben {ben}, Bot {bot}" in lines
    assert f"  game 2: seed {second.seed}, scores in progress" in lines


def test_standings_count_points_wins_and_the_best_n_games(store):
    t = store.new_tournament([Seat("E", "bot:easy"), Seat("M", "bot:medium"), Seat("E2", "bot:easy")],
                             games=3, best=2, seed=3)
    play_tournament(store, t)
    assert t.over and t.finished and t.played == 3
    got = [(s.place, s.seat, s.total, s.wins, s.best) for s in t.standings()]
    assert got == expected_standings(t)
    assert all(s.best < s.total for s in t.standings() if s.total), "only the best 2 of 3 count"
    decks = [e.record["deck"] for e in t.entries()]
    assert len({tuple(d) for d in decks}) == 3, "each game has its own deck"
    same = store.new_tournament(t.seats, games=3, best=2, seed=3)
    play_tournament(store, same)
    assert [e.record["deck"] for e in same.entries()] == decks
    assert [s.scores for s in same.standings()] == [s.scores for s in t.standings()]


def test_tied_players_share_the_win(store):
    t = store.new_tournament([ANA, BEN], games=2, seed=4)
    play_tournament(store, t)                 # Ana and Ben lay the same tiles every time
    a, b = t.standings()
    assert (a.place, a.wins, b.place, b.wins) == (1, 2, 1, 2)


def test_nobody_has_a_place_before_a_game_is_finished_and_ties_share_one_after(store):
    """A tournament nobody had played yet listed every player in place 1 with 0 points."""
    t = store.new_tournament([ANA, BEN], games=2, seed=4)
    assert [(s.place, s.place_told, s.name) for s in t.standings()] == [(None, "\u2013", "Ana"), (None, "\u2013", "Ben")]
    m = store.tournament_match(t, threaded=False)
    play(m, humans=5)                         # the first game under way: still no places
    assert [s.place for s in t.standings()] == [None, None]
    play(m)
    assert [(s.place, s.place_told) for s in t.standings()] == [(1, "1"), (1, "1")]   # the same tiles: a tie


def test_a_tournament_game_knows_how_many_games_its_tournament_has(store):
    """For "Tournament game 2 of 3" at the hand-off, the table and Continue: a new game, one resumed from the
    database and one continued from the autosave."""
    t = store.new_tournament([ANA, BEN], games=3, seed=4)
    m = store.tournament_match(t, threaded=False)
    play(m, humans=3)
    assert m.tournament == {"id": t.id, "game": 1} and m.tournament_games == 3
    assert store.tournament_match(t, threaded=False).tournament_games == 3
    assert store.continue_game(threaded=False).match.tournament_games == 3
    assert m.record()["tournament"] == {"id": t.id, "game": 1}   # the record as docs/record-fields.md has it


def test_two_humans_and_a_bot_quit_mid_game_and_continue(tmp_path, monkeypatch):
    """Issue 4's 'done when': a two-game tournament, quit in the middle of each game, continue."""
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    store = Store()
    t = store.new_tournament([ANA, BEN, BOT], games=2, seed=5, name="Friday")
    m = store.tournament_match(t)
    play(m, humans=11)
    moves = m.record()["moves"]
    store.close()                             # quit

    store = Store()                           # next start: Continue is offered
    found = store.continue_game()
    assert found.can_continue and found.match.tournament == {"id": t.id, "game": 1}
    assert found.match.record()["moves"] == moves
    play(found.match)
    t = store.tournament(t.id)
    assert t.played == 1 and not t.finished

    m = store.tournament_match(t)
    assert m.tournament["game"] == 2 and m.game.moves == []
    play(m, humans=6)
    moves = m.record()["moves"]
    other = store.new_match([ANA], seed=1)    # a different game replaces the autosave...
    play(other, humans=1)
    store.close()

    store = Store()
    t = store.tournament(t.id)
    m = store.tournament_match(t)             # ...the tournament game is still in the database
    assert m.record()["moves"] == moves and m.tournament["game"] == 2
    play(m)
    assert t.finished and t.played == 2
    assert [(s.place, s.seat, s.total, s.wins, s.best) for s in t.standings()] == expected_standings(t)
    assert store.tournament_match(t) is None
    friendly = m.rematch()                   # a rematch after the last game is a game of its own
    play(friendly, humans=2)
    assert friendly.save_error is None and friendly.tournament is None and t.played == 2
    assert store.continue_game().match.record()["moves"] == friendly.record()["moves"]
    [summary] = store.tournaments()
    assert (summary.name, [p.name for p in summary.players], summary.played) == ("Friday", ["Ana", "Ben", "Bot"], 2)
    store.close()


def test_a_killed_headless_tournament_resumes_where_it_stopped(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "nmbr9", "tournament", "--bots", "easy,medium", "--games",
                             "8", "--seed", "9"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=ROOT,
                            env={**os.environ, "NMBR9_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)})
    try:
        while "game 2/8" not in proc.stderr.readline():
            assert proc.poll() is None
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(10)
    store = Store(tmp_path)
    [summary] = store.tournaments()
    assert not summary.finished and 2 <= summary.played < 8
    store.close()
    resumed = run_cli(tmp_path, "--resume", str(summary.id))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    whole = run_cli(tmp_path / "whole", "--bots", "easy,medium", "--games", "8", "--seed", "9")
    assert resumed.stdout.splitlines()[1:] == whole.stdout.splitlines()[1:]


def test_rerun_with_the_same_settings_says_the_unfinished_tournament_and_how_to_resume_it(store, capsys):
    """`nmbr9 tournament --bots ... --seed 1` run again after a kill started a new tournament without a word,
    the first left "1/2 played"."""
    from nmbr9.store.tournament_cli import bot_seats
    first = store.new_tournament(bot_seats("easy,easy"), games=2, seed=1)
    store.tournament_match(first, threaded=False).play_out()   # then killed
    assert cli.main(["tournament", "--bots", "easy,easy", "--games", "2", "--seed", "1"]) == 0
    told = ("Tournament 1 (id 1) has the same bots, games and seed and is unfinished (1/2 played): this run starts "
            "a new tournament; to finish that one instead, stop this and run nmbr9 tournament --resume 1")
    assert told in capsys.readouterr().err.splitlines()
    for other in (["--seed", "2"], ["--seed", "1", "--games", "3"], ["--seed", "1", "--best", "1"],
                  ["--seed", "1", "--bots", "easy,medium"]):
        assert cli.main(["tournament", "--bots", "easy,easy", "--games", "2", *other]) == 0
        assert "--resume" not in capsys.readouterr().err   # other games: nothing to say
    assert cli.main(["tournament", "--resume", "1"]) == 0
    capsys.readouterr()
    assert cli.main(["tournament", "--bots", "easy,easy", "--games", "2", "--seed", "1"]) == 0
    assert "--resume" not in capsys.readouterr().err, "the finished ones are not offered"


def test_a_games_end_waiting_for_a_held_database_is_not_lost_when_the_game_is_killed(tmp_path):
    """The window's last tile while another program held the database: its game's end and Ana's score wait to
    be written. Killed (kill -9) before the lock went, the next start stores them from the autosave: the
    tournament resumed game 1 from its last stored round, its last tile played again."""
    from helpers import database_held
    from nmbr9.store.db import FILENAME
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Ana")], games=2, seed=5)
    store.close()
    script = ("import os, sys\nfrom test_match import play\nfrom nmbr9.store import Store\n"
              "store = Store(sys.argv[1]); store.never_wait()\n"
              "m = store.tournament_match(store.tournament(1), threaded=False)\nplay(m, humans=19)\n"
              "print('last tile', flush=True); sys.stdin.readline()\nplay(m)\n"
              "print(m.over, m.save_error, len(store.later.writes), m.results()[0].score, flush=True)\n"
              "os.kill(os.getpid(), 9)")
    game = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"})
    assert game.stdout.readline() == "last tile\n"
    with database_held(tmp_path / FILENAME):
        game.stdin.write("\n")
        game.stdin.flush()
        over, error, waiting, score = game.stdout.readline().split()
        assert (over, error, waiting) == ("True", "None", "2"), "kept to write later, no error"
        assert game.wait(10) == -signal.SIGKILL
    store = Store(tmp_path)
    assert store.tournament(t.id).played == 0, "the write never landed"
    found = store.continue_game(threaded=False)
    assert found.match is None and found.tournament.id == t.id   # Continue: game 2
    [game1] = store.tournament(t.id).entries()
    assert game1.finished and game1.scores == [int(score)] and len(game1.record["moves"]) == 20
    assert [tuple(r) for r in store.db.execute("SELECT player, score FROM personal_scores")] == [("Ana", int(score))]
    store.close()


def test_a_stored_game_with_every_tile_laid_but_not_its_end_is_counted_and_the_tournament_goes_on(tmp_path):
    """Its record complete, the database not marked it finished (edited by hand): `--resume` played it out again
    and again, printing "game 1/2" without end."""
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Bot", "bot:easy")], games=2, seed=4)
    store.tournament_match(t, threaded=False).play_out()
    score = t.standings()[0].total
    store.db.executescript("UPDATE tournament_games SET finished = NULL; DELETE FROM game_scores")
    store.close()
    resumed = run_cli(tmp_path, "--resume", str(t.id), timeout=30)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert [line.split(":")[0] for line in resumed.stderr.splitlines()] == ["game 2/2"]
    store = Store(tmp_path)
    done = store.tournament(t.id)
    assert done.finished and [e.number for e in done.entries() if e.finished] == [1, 2]
    assert done.standings()[0].scores[0] == score
    store.close()


def test_a_game_marked_unfinished_though_its_scores_are_stored_resumes_with_its_records_scores(store, capsys):
    """A database edited by hand: a game marked unfinished, its scores still stored (one changed). `--resume`
    ended in "Could not save the tournament game: UNIQUE constraint failed: game_scores.game_id, ..."."""
    t = store.new_tournament([Seat("Bot", "bot:easy")], games=1, seed=4)
    store.tournament_match(t, threaded=False).play_out()
    score = t.standings()[0].total
    store.db.executescript("UPDATE tournament_games SET finished = NULL; UPDATE tournaments SET finished = NULL; "
                           "UPDATE game_scores SET score = 999")
    assert cli.main(["tournament", "--resume", str(t.id)]) == 0, capsys.readouterr().out
    assert "UNIQUE" not in capsys.readouterr().out
    done = store.tournament(t.id)
    assert done.finished and [e.scores for e in done.entries()] == [[score]]


def test_a_tournament_played_by_another_command_is_not_played_twice(tmp_path):
    """Two `--resume ID` at once both started the next game; one ended in SQLite's "UNIQUE constraint failed"."""
    import time
    store = Store(tmp_path)
    t = store.new_tournament([Seat("Bot", "bot:hard"), Seat("Bob", "bot:hard")], games=5, seed=3)
    store.close()
    first = subprocess.Popen([sys.executable, "-m", "nmbr9", "tournament", "--resume", str(t.id)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ, "NMBR9_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while not (started := Store(tmp_path)).tournament(t.id).entries():   # its first game is under way
            started.close()
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        started.close()
        second = run_cli(tmp_path, "--resume", str(t.id))
    finally:
        first.kill()
        first.wait(10)
    assert second.returncode == 1
    assert second.stdout.strip() == (f"Tournament {t.id} is being played by another nmbr9 tournament command: "
                                     "let it finish, or stop it first.")


def test_bad_tournament_requests_get_one_clear_line(store, capsys):
    for args, words in [(["--bots", "hard,godlike"], "unknown bot strength"),
                        (["--bots", "hard", "--games", "0"], "--games"),
                        (["--bots", "hard", "--games", "3", "--best", "4"], "--best"),
                        (["--show", "42"], "no tournament 42"),
                        (["--bots", "hard,,easy"], '--bots "hard,,easy" has an empty strength'),   # not 2 bots
                        (["--bots", "hard,easy,"], '--bots "hard,easy," has an empty strength'),
                        ([], "--bots")]:
        assert cli.main(["tournament", *args]) != 0
        out = capsys.readouterr().out
        assert words in out and len(out.strip().splitlines()) == 1
    assert cli.main(["tournament", "--bots", "hard,,easy"]) == 2   # refused as the other bad arguments are
    assert store.tournaments() == []
    with pytest.raises(ValueError):
        store.new_tournament([ANA], games=2, best=3)
    with pytest.raises(ValueError, match="1 to 4 players"):
        store.new_tournament([ANA, BEN, BOT, ANA, BEN], games=2, ruleset=Ruleset(TWO_OF_THREE))


@pytest.mark.parametrize("seed", ["99999999999999999999", "-1", "4294967296"])
def test_a_seed_outside_0_to_2_32_is_refused_in_one_line(tmp_path, seed):
    r = run_cli(tmp_path, "--bots", "easy", "--games", "1", "--seed", seed)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stdout.strip() == "The seed must be a whole number from 0 to 4294967295."
    assert run_cli(tmp_path, "--list").stdout == ""          # nothing was stored


@pytest.mark.parametrize("where, why", [("", "it is a file, not a folder"), ("sub", "a folder on its path is a file")])
def test_a_data_folder_that_is_a_file_is_said_in_the_players_words_as_the_window_says_it(tmp_path, where, why):
    """The command said the system's "File exists" (the window: "it is a file, not a folder")."""
    (tmp_path / "data").write_text("")
    folder = tmp_path / "data" / where if where else tmp_path / "data"
    r = run_cli(folder, "--list")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stdout.strip() == f"Can't open the tournament database {folder}: {why}"


def test_listing_with_a_damaged_database_says_it_was_set_aside(tmp_path):
    (tmp_path / "nmbr9.sqlite3").write_bytes(b"this is not sqlite" * 100)
    r = run_cli(tmp_path, "--list")
    kept = [p.name for p in tmp_path.iterdir() if p.name.startswith("nmbr9.sqlite3.corrupt-")]
    assert r.returncode == 0 and len(kept) == 1
    assert "could not be read" in r.stderr and kept[0] in r.stderr


def test_an_nmbr9_plus_tournament_keeps_its_rules(store):
    rules = Ruleset(TWO_OF_THREE, (BREAKING_RULES,))
    t = store.new_tournament([Seat("E", "bot:easy"), Seat("E2", "bot:easy")], games=2, seed=6, ruleset=rules)
    play_tournament(store, store.tournament(t.id))
    entries = t.entries()
    assert all(e.record["ruleset"]["variant"] == TWO_OF_THREE and len(e.record["ruleset"]["powers"]) == 2
               for e in entries), "each game draws its powers"
    assert [(s.place, s.seat, s.total, s.wins, s.best) for s in t.standings()] == expected_standings(t)
    assert store.tournament(t.id).ruleset == rules


def test_continue_takes_the_databases_copy_when_the_autosave_fell_behind(store, monkeypatch):
    """The folder refuses new files (the autosave can't be rewritten) while the database, already open,
    still stores the game: Continue resumes at the last confirmed placement, not at the stale autosave."""
    t = store.new_tournament([ANA, BEN, BOT], games=2, seed=5)
    m = store.tournament_match(t)
    play(m, humans=4)
    stale = len(store.continue_game().match.game.moves)

    def refused(self, match):
        raise OSError(13, "Permission denied")
    with monkeypatch.context() as mp:
        mp.setattr(type(store.autosave), "save", refused)
        play(m, humans=4)
    assert m.save_error and "Permission denied" in m.save_error and len(m.game.moves) > stale
    found = store.continue_game()
    assert found.match.record()["moves"] == m.record()["moves"]
    play(found.match, humans=1)                 # the database never goes back to the stale copy
    assert len(t.entries()[0].record["moves"]) > len(m.game.moves)

    with monkeypatch.context() as mp:           # the last placement reaches only the database
        mp.setattr(type(store.autosave), "save", refused)
        play(found.match)
    assert t.played == 1 and store.autosave.load().can_continue    # the autosave holds it unfinished
    assert not store.continue_game().can_continue   # but game 1 is over: nothing stale to continue


def test_a_saved_tournament_game_whose_tournament_the_database_lost_continues_as_a_game_of_its_own(store):
    """The database set aside (damaged) or deleted, then `nmbr9 tournament` made a new tournament 1 and played
    it: Continue was gone, no word said, though the autosave held Ana's game (a new game then replaced it)."""
    t = store.new_tournament([ANA, BOT], games=3, seed=5)
    m = store.tournament_match(t, threaded=False)
    play(m, humans=4)
    store.close()
    for f in store.folder.glob("nmbr9.sqlite3*"):
        f.unlink()
    bots = store.new_tournament([Seat("B1", "bot:easy"), Seat("B2", "bot:easy")], games=3, seed=1)
    while (other := bots.next_match(threaded=False)) is not None:   # as the command plays it
        other.play_out()
    found = store.continue_game(threaded=False)
    assert found.can_continue and found.match.record()["moves"] == m.record()["moves"]
    assert found.message == ("The saved game's tournament is no longer in the database: the game goes on as a game "
                             "of its own.")
    assert found.match.tournament is None
    assert [e.record["players"][0]["name"] for e in bots.entries()] == ["B1"] * 3, "the bots' games untouched"


@pytest.mark.parametrize("step", ["create", "next_match"])
def test_a_full_disk_gets_one_clear_line_from_the_command(store, capsys, monkeypatch, step):
    import sqlite3
    from nmbr9.store import Tournament

    def full(*args, **kw):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Tournament, step, full)
    assert cli.main(["tournament", "--bots", "easy", "--games", "2"]) == 1
    out = capsys.readouterr().out
    assert "Could not store the tournament: database or disk is full" in out and len(out.strip().splitlines()) == 1


def test_a_read_only_data_folder_is_said_in_words_by_the_command(store, capsys):
    """`nmbr9 tournament --bots ...` on a read-only data folder said SQLite's own English: "Could not store the
    tournament: attempt to write a readonly database"."""
    from helpers import read_only
    store.new_tournament([BOT], games=1, seed=2, name="Spring")
    store.close()
    with read_only(store.folder):
        assert cli.main(["tournament", "--bots", "easy", "--games", "2"]) == 1
        said = capsys.readouterr()
        assert said.out == f"Could not store the tournament: the data folder {store.folder} can't be written\n"
        assert "your tournaments and bests are shown, but nothing new is stored" in said.err   # what still works
        assert cli.main(["tournament", "--list"]) == 0 and "Spring" in capsys.readouterr().out


@pytest.mark.parametrize("args, step", [(["--list"], "tournaments"), (["--show", "1"], "tournament")])
def test_a_database_locked_while_listing_says_it_could_not_be_read_not_stored(store, capsys, monkeypatch, args, step):
    """--list and --show said "Could not store the tournament" for a database another program had locked."""
    import sqlite3
    store.new_tournament([BOT], games=1)

    def locked(*args, **kw):
        raise sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(Store, step, locked)
    assert cli.main(["tournament", *args]) == 1
    assert capsys.readouterr().out == "Could not read the tournaments: database is locked\n"


def test_a_one_game_tournament_is_told_in_the_singular(tmp_path):
    r = run_cli(tmp_path, "--bots", "easy,easy", "--games", "1", "--seed", "3", "--name", "Quick")
    assert r.returncode == 0, r.stderr
    assert "Quick: 1 game, the best 1 counts, seed 3 (finished)" in r.stdout


def test_a_damaged_tournament_row_never_stops_the_game_from_starting(store):
    """The menu asks for the saved game at every start: a tournament whose stored rules are damaged
    must not crash it; the game continues on its own and the menu says why."""
    t = store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=1)
    m = store.tournament_match(t, threaded=False)
    assert m.play(0, m.legal_placements(0)[0])
    store.db.execute("UPDATE tournaments SET ruleset = '{bad'")
    found = store.continue_game(threaded=False)
    assert found.can_continue and len(found.match.game.moves) == 1 and found.match.tournament is None
    assert found.message.startswith("The rules of tournament 1 can't be read from ") and "nmbr9.sqlite3 (not valid JSON (Expecting" in found.message


@pytest.mark.parametrize("rules, says", [
    ("{bad", "(not valid JSON (Expecting property name enclosed in double quotes, line 1))."),
    ("{}", '(no "variant" field).'),
    ("null", "(not the rules as the game writes them)."),
    ('{"variant": "nope", "modules": []}', '(unknown "nope").')])
def test_tournament_show_says_a_tournament_whose_rules_are_damaged(tmp_path, rules, says):
    """A damaged rules row is said in a sentence by --show (it was a traceback), in JSON's words or plain ones
    (it said "no 'variant' field", "unknown 'nope'", "'NoneType' object is not subscriptable"); the others
    stay listed."""
    s = Store(tmp_path)
    s.new_tournament([Seat("E", "bot:easy")], games=1, seed=1)
    s.new_tournament([Seat("M", "bot:medium")], games=1, seed=2, name="Fine")
    s.db.execute("UPDATE tournaments SET ruleset = ? WHERE id = 1", (rules,))
    s.close()
    r = run_cli(tmp_path, "--show", "1")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stdout.startswith("The rules of tournament 1 can't be read from ") and says in r.stdout
    r = run_cli(tmp_path, "--list")
    assert r.returncode == 0 and "Tournament 1" in r.stdout and "Fine" in r.stdout


@pytest.mark.parametrize("record", ["[]", "{bad"])
def test_a_game_in_progress_whose_stored_copy_is_damaged_says_so_in_words_for_the_database(store, record):
    """Not 'the file holds no JSON object': the copy was the database's, not a file."""
    from nmbr9.store import StoreError
    t = store.new_tournament([Seat("E", "bot:easy")], games=2, seed=1)
    store.tournament_match(t, threaded=False)
    store.db.execute("UPDATE tournament_games SET record = ?", (record,))
    with pytest.raises(StoreError) as e:
        store.tournament_match(t, threaded=False)
    assert e.value.message == ("Game 1 of the tournament can't be resumed: "
                               "the copy of its record in the database is damaged")


def test_a_tournament_let_go_leaves_no_lock_file_behind(store, capsys, monkeypatch):
    """A nmbr9-tournament-N.lock was left in the data folder for every tournament ever played (by the command or
    the window). It is removed as it is let go; one opened by another taker in that instant is not taken then,
    the path's new file is: never two holders."""
    from nmbr9.store import files
    from nmbr9.store.tournaments import COMMAND, WINDOW, lock_name
    assert cli.main(["tournament", "--bots", "easy", "--games", "1", "--seed", "2"]) == 0
    t = store.new_tournament([Seat("Bot", "bot:easy")], games=1, seed=3)
    store.hold_tournament(t)
    assert (store.folder / lock_name(t.id)).exists()
    store.let_go_tournament()
    assert sorted(p.name for p in store.folder.glob("*.lock")) == []
    held, window = files.hold_folder(store.folder, wait=0, name=lock_name(t.id), who=WINDOW)
    real = files._lock

    def lock(f):   # the window lets go (removing the file) just after the command opened it
        if not window.closed:
            files.let_go(window)
        real(f)
    monkeypatch.setattr(files, "_lock", lock)
    held, command = files.hold_folder(store.folder, wait=0, name=lock_name(t.id), who=COMMAND)
    monkeypatch.undo()
    assert held and files.held_by(store.folder, lock_name(t.id)) == COMMAND
    assert not files.hold_folder(store.folder, wait=0, name=lock_name(t.id), who=WINDOW)[0], "two holders"
    files.let_go(command)
    assert not (store.folder / lock_name(t.id)).exists()


def test_the_windows_look_at_a_tournaments_lock_never_turns_the_command_away(store, monkeypatch):
    """The Tournament page and the menu look every 1.5 s whether `nmbr9 tournament` plays a tournament: the look
    took the free lock for an instant, and a `--resume ID` started in that instant was turned away ("being played
    by another nmbr9 tournament command"). The look still sees a command that plays it, and one killed as gone."""
    from nmbr9.store import files
    from nmbr9.store.tournaments import COMMAND, lock_name
    t = store.new_tournament([Seat("Bot", "bot:easy")], games=1, seed=3)
    store.hold_tournament(t)
    store.let_go_tournament()   # its lock file is there, free
    real, looking, turned_away = files._lock, [], []

    def lock(f):   # a lock taken while the window looks: the command starting at that very instant
        real(f)
        if looking and not turned_away:
            turned_away.append(True)   # (before its own try, which takes a lock too)
            held, command = files.hold_folder(store.folder, wait=0, name=lock_name(t.id), who=COMMAND)
            turned_away[-1] = not held
            if command is not None:
                command.close()
    monkeypatch.setattr(files, "_lock", lock)
    looking.append(True)
    assert not store.held_elsewhere(t.id)
    looking.clear()
    assert turned_away in ([], [False]), "the command was turned away while the window looked"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from nmbr9.store.files import hold_folder; "
                               "print(hold_folder(sys.argv[1], wait=0, name=sys.argv[2], who='command')[0], flush=True); "
                               "time.sleep(60)", str(store.folder), lock_name(t.id)],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "True"
        assert store.held_elsewhere(t.id)   # the command plays it
    finally:
        holder.kill()
        holder.wait(10)
    assert not store.held_elsewhere(t.id)   # killed: its name left in the file, its process gone
