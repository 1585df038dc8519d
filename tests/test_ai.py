"""Bots, hints and analysis, as a player would notice them."""
import json
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

from nmbr9.ai import View, make_bot, solo_game
from nmbr9.ai.analyse import analyse
from nmbr9.ai.bots import remaining_cards
from nmbr9.ai.grid import Grid
from nmbr9.rules import Board, Game, Placement, Seat, new_deck
from nmbr9.rules.record import game_record, load_record, replay


def view_of(game, player=0):
    return View(game.boards[player].copy(), game.card, tuple(game.seen()), game.ruleset, game.rounds)


def play(level, deck, seed=0, rounds=None):
    """A solo game of one bot; every move goes through the rules (asserted legal)."""
    game = Game([Seat("bot", f"bot:{level}")], deck)
    bot = make_bot(level, seed)
    for _ in range(rounds or len(deck)):
        p = bot.choose(view_of(game))
        v = game.play(0, p)
        assert v, f"{level} bot made an illegal move: {v.message}"
    return game


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_play_whole_games_with_legal_moves_only(level):
    game = play(level, new_deck(random.Random(11)), seed=3)
    assert game.over and len(game.boards[0].tiles) == 20


def test_the_hard_bot_chooses_legal_moves_late_in_a_game_and_only_looks():
    game = play("medium", new_deck(random.Random(5)), rounds=16)
    before = [p for p in game.boards[0].tiles]
    v = view_of(game)
    p = make_bot("hard", 1).choose(v)
    assert game.boards[0].verdict(p).ok
    assert v.board.tiles == before  # choosing (a hint, say) only looks
    assert game.play(0, p)


def test_a_bot_with_the_same_seed_plays_the_same_game():
    deck = new_deck(random.Random(2))
    for level in ("easy", "medium", "hard"):
        a = play(level, deck, seed=9, rounds=10).boards[0].tiles
        b = play(level, deck, seed=9, rounds=10).boards[0].tiles
        assert a == b


def table_shape(board):
    """The table's heights, the same however it was turned or shifted on the table."""
    heights = (board.ids >= 0).sum(axis=0)
    ys, xs = np.nonzero(heights)
    heights = heights[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    return min(np.rot90(heights, k).tobytes() + bytes(np.rot90(heights, k).shape) for k in range(4))


def test_two_medium_bots_on_the_same_deck_lay_different_tables():
    # placements the evaluation values alike are chosen among by the seed: two medium bots
    # at one table don't build the same table, each tile a copy of the other's
    for d in range(4):
        deck = new_deck(random.Random(100 + d))
        a, b = (play("medium", deck, seed=s, rounds=12).boards[0] for s in (1, 2))
        assert table_shape(a) != table_shape(b), d


def test_easy_bots_with_other_seeds_play_differently():
    deck = new_deck(random.Random(2))
    games = {tuple(play("easy", deck, seed=s, rounds=8).boards[0].tiles) for s in range(4)}
    assert len(games) > 1


def test_bots_never_see_the_order_of_the_cards_to_come():
    """Two decks with the same first cards and a different order after them:
    a bot plays those first rounds the same on both."""
    past = [4, 9, 0, 7, 2, 8, 5, 3]
    rest_a = [0, 1, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9]
    rest_b = list(reversed(rest_a))
    for level in ("medium", "hard"):
        a = play(level, past + rest_a, seed=1, rounds=len(past)).boards[0].tiles
        b = play(level, past + rest_b, seed=1, rounds=len(past)).boards[0].tiles
        assert a == b
    assert "deck" not in View.__dataclass_fields__


def test_remaining_cards_are_the_composition_minus_what_was_seen():
    v = View(Board(), 3, (5, 5, 3), deck_size=20)
    left = remaining_cards(v)
    assert 5 not in left and left[3] == 1 and left[0] == 2 and sum(left.values()) == 17


def test_stronger_bots_score_more():
    decks = [new_deck(random.Random(s)) for s in (101, 102, 103)]
    totals = {lv: sum(play(lv, d, seed=i).boards[0].score() for i, d in enumerate(decks))
              for lv in ("easy", "medium", "hard")}
    assert totals["easy"] < totals["medium"] < totals["hard"], totals


def test_fast_grid_finds_exactly_the_rules_legal_placements():
    game = play("easy", new_deck(random.Random(4)), rounds=12)
    board = game.boards[0]
    grid = Grid.from_board(board)
    for digit in range(10):
        mine = {grid.placement(digit, *map(int, c)) for c in zip(*grid.candidates(digit))}
        assert mine == set(board.legal_placements(digit))


def test_footing_per_number_matches_the_legal_placements_above_the_table():
    """The evaluation's 'where could each number rest next' is what the rules allow:
    a number finds footing at level L >= 1 exactly when it has a legal placement there."""
    from nmbr9.ai.evaluate import LEVELS, footing
    game = Game([Seat("bot", "bot:medium")], new_deck(random.Random(8)))
    bot = make_bot("medium")
    checked = 0
    for _ in range(18):
        board = game.boards[0]
        grid = Grid.from_board(board)
        top, at, _ = footing(grid.H[None], grid.T[None])
        for digit in range(10):
            levels = {p.level for p in board.legal_placements(digit) if p.level >= 1}
            assert top[0, digit] == max(levels, default=0)
            assert {L for L in range(1, LEVELS + 1) if at[0, digit, L - 1]} == {L for L in levels if L <= LEVELS}
            checked += len(levels)
        game.play(0, bot.choose(view_of(game)))
    assert checked > 20  # the tables grew upward: levels were really compared


def test_analysis_beats_a_bot_on_its_deck_and_reports_progress():
    deck = new_deck(random.Random(21))
    bot_score = play("medium", deck, seed=2).boards[0].score()
    seen = []
    layout = analyse(deck, progress=seen.append, widest=8)
    board = Board()
    for p in layout:
        board.place(p)
    assert len(layout) == 20 and [p.piece for p in layout] == deck
    assert board.score() >= bot_score
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_analyse_command_writes_a_record_replay_accepts(tmp_path):
    game = Game([Seat("Ana", "bot:easy"), Seat("Bo", "bot:medium")], new_deck(random.Random(8)))
    bots = [make_bot("easy", 1), make_bot("medium", 2)]
    while not game.over:
        for i in game.waiting():
            game.play(i, bots[i].choose(view_of(game, i)))
    src, out = tmp_path / "game.json", tmp_path / "best.json"
    src.write_text(json.dumps(game_record(game)))
    run = subprocess.run([sys.executable, "-m", "nmbr9", "analyse", str(src), "--out", str(out), "--width", "4"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Ana" in run.stdout and "Bo" in run.stdout
    best = replay(load_record(out))
    assert best.ok and best.game.over
    found = best.game.scores()[0]
    assert found >= max(game.scores())
    assert str(found) in run.stdout


def test_analyse_command_says_a_game_not_over_is_scored_so_far(tmp_path):
    """Analysing a save (a game not over) said "Ana: 7" beside the best layout's 90 for the whole deck, as if
    the game had ended at 7."""
    game = Game([Seat("Ana")], new_deck(random.Random(8)))
    bot = make_bot("easy", 1)
    for _ in range(3):
        game.play(0, bot.choose(view_of(game, 0)))
    src = tmp_path / "game.json"
    src.write_text(json.dumps(game_record(game)))
    run = subprocess.run([sys.executable, "-m", "nmbr9", "analyse", str(src), "--width", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Ana: {game.boards[0].score()} so far (3 of 20 tiles laid)" in run.stdout


def test_analyse_command_refuses_bad_input_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    run = subprocess.run([sys.executable, "-m", "nmbr9", "analyse", str(bad)], capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr and len(run.stdout.strip().splitlines()) == 1


@pytest.mark.parametrize("args, says", [
    (["--width", "0"], "--width must be a whole number from 1 to 1024."),
    (["--width", "5000"], "--width must be a whole number from 1 to 1024."),
    (["--out", "{tmp}/no such folder/best.json"], "Can't write"),
])
def test_analyse_refuses_a_bad_width_or_output_before_searching(tmp_path, args, says):
    src = tmp_path / "game.json"
    src.write_text(json.dumps(game_record(Game([Seat("Ana")], new_deck(random.Random(3))))))
    args = [a.format(tmp=tmp_path) for a in args]
    run = subprocess.run([sys.executable, "-m", "nmbr9", "analyse", str(src), *args], capture_output=True,
                         text=True, timeout=60)
    assert "%" not in run.stderr, "refused before the search (its progress bar), not after it"
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert says in run.stdout and len(run.stdout.strip().splitlines()) == 1


def test_analyse_on_a_full_disk_keeps_the_layout_written_before(tmp_path, monkeypatch, capsys):
    """--out was emptied, then half written, when the disk filled: the last best layout was lost."""
    import argparse
    import errno
    import os
    from nmbr9.ai.analyse import main as analyse_command
    src, out = tmp_path / "game.json", tmp_path / "best.json"
    src.write_text(json.dumps(game_record(Game([Seat("Ana")], new_deck(random.Random(3))))))
    out.write_text("the best layout found yesterday")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr("nmbr9.store.files.os.write", full)
    assert analyse_command(argparse.Namespace(file=str(src), out=str(out), player=None, width=1)) == 2
    assert "Could not save best.json: No space left on device. The previous copy is kept." in capsys.readouterr().out
    assert out.read_text() == "the best layout found yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["best.json", "game.json"]


def test_analyse_names_the_players_as_replay_does_in_the_language_of_the_moment(tmp_path, capsys):
    """In Polish, replay said "Trudny bot: 8" and analyse "Hard bot: 8": the name as stored, untranslated."""
    import argparse
    from nmbr9.ai.analyse import main as analyse_command
    from nmbr9.cli import cmd_replay
    from nmbr9.i18n import set_language
    src = tmp_path / "game.json"
    game = Game([Seat("Player 1"), Seat("Hard bot", "bot:hard"), Seat("Ana")], new_deck(random.Random(3)))
    src.write_text(json.dumps(game_record(game)))
    set_language("pl")
    try:
        cmd_replay(argparse.Namespace(file=str(src), json=False))
        replayed = capsys.readouterr().out
        assert analyse_command(argparse.Namespace(file=str(src), out=None, player=None, width=1)) == 0
        analysed = capsys.readouterr().out
    finally:
        set_language("en")
    assert "Trudny bot: 0" in replayed and "Gracz 1: 0" in replayed
    lines = analysed.splitlines()[1:]   # (a game not over: "... so far (0 of 20 tiles laid)")
    assert [line.split(":")[0] for line in lines] == ["  Gracz 1", "  Trudny bot", "  Ana"], analysed


def test_the_best_layouts_seat_is_named_in_the_language_of_the_moment(tmp_path, capsys):
    """replay of `analyse --out`'s record said "Best found: 96" in Polish: a name the game gives, kept in English
    (as "Player 1" is) and shown in the language of the moment."""
    import argparse
    from nmbr9.ai.analyse import main as analyse_command
    from nmbr9.cli import cmd_replay
    from nmbr9.i18n import _, set_language
    src, out = tmp_path / "game.json", tmp_path / "best.json"
    src.write_text(json.dumps(game_record(Game([Seat("Ana")], new_deck(random.Random(3))))))
    assert analyse_command(argparse.Namespace(file=str(src), out=str(out), player=None, width=1)) == 0
    assert json.loads(out.read_text())["players"] == [{"name": "Best found", "kind": "analysis"}]
    set_language("pl")
    try:
        capsys.readouterr()
        assert cmd_replay(argparse.Namespace(file=str(out), json=False)) == 0
        said, name = capsys.readouterr().out, _("Best found")
    finally:
        set_language("en")
    assert name != "Best found" and f"{name}: " in said and "Best found" not in said


def test_bench_bots_prints_scores_and_times():
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "bots", "--level", "easy", "--games", "3",
                          "--seed", "0", "--jobs", "2"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    for word in ("mean", "median", "min", "max", "p95", "games/s"):
        assert word in run.stdout
    assert "3/3" in run.stderr  # the progress bar
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "bots", "--level", "genius", "--games", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr


def test_bench_analysis_sets_what_knowing_the_order_finds_beside_the_bot_deck_by_deck():
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "analysis", "--level", "medium", "--games", "2",
                          "--seed", "4", "--width", "2"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    per_deck = {int(s): (int(f), int(b)) for s, f, b in re.findall(r"(\d+): (\d+)/(\d+)", run.stdout)}
    for seed in (4, 5):
        found, bot = per_deck[seed]
        game, _ = solo_game("medium", new_deck(random.Random(seed)), seed)
        assert bot == game.boards[0].score()   # the bot's own game on that deck, as bench bots plays it
        assert found >= bot                    # the search never shows less than the medium bot's game
    assert "2/2" in run.stderr
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "analysis", "--games", "1", "--width", "0"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--width" in run.stdout and "Traceback" not in run.stderr


@pytest.mark.parametrize("command", [["bench", "bots", "--level", "easy", "--games", "20", "--seed", "0"],
                                     ["analyse", "{game}", "--width", "2"]])
def test_progress_in_a_log_file_is_a_few_whole_lines(tmp_path, command):
    """`nmbr9 analyse` and `nmbr9 bench bots` wrote their progress bars with carriage returns into a log file
    too: one long line of bars. Off a terminal: a whole line at each tenth done."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(game_record(Game([Seat("Ana")], new_deck(random.Random(3))))))
    log = tmp_path / "log.txt"
    with open(log, "w") as err:
        run = subprocess.run([sys.executable, "-m", "nmbr9", *[a.format(game=game) for a in command]],
                             stdout=subprocess.PIPE, stderr=err, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + log.read_text()
    written = log.read_text()
    lines = written.splitlines()
    assert "\r" not in written and 2 <= len(lines) <= 11, written
    assert "20/20 games" in lines[-1] or "100%" in lines[-1]


def test_progress_on_a_terminal_is_one_line_written_over():
    import io
    from nmbr9.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    out = Terminal()
    show = Progress(out)
    for done in range(5):
        show(done / 4, f"{done}/4")
    assert out.getvalue() == "\r0/4\r1/4\r2/4\r3/4\r4/4\n"


@pytest.mark.parametrize("what, seed, games", [("bots", "-1", "2"), ("bots", "4294967290", "10"),
                                               ("hints", "4294967296", "1")])
def test_bench_refuses_deck_seeds_the_game_refuses(what, seed, games):
    """`nmbr9 bench bots --seed -1` printed "deck seeds -1..0" and played decks no game can be dealt."""
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", what, "--level", "easy", "--games", games,
                          "--seed", seed], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "LANGUAGE": "en"})
    assert run.returncode == 2 and run.stdout == "The seed must be a whole number from 0 to 4294967295.\n"
    assert "Traceback" not in run.stderr and "games" not in run.stderr   # refused before any game


def test_bench_bots_says_one_game_not_one_games():
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "bots", "--level", "easy", "--games", "1",
                          "--seed", "4294967295"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "bots easy: 1 solo game, deck seeds 4294967295..4294967295" in run.stdout


def test_bench_hints_times_the_hint_at_the_table_and_alone():
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "hints", "--games", "1", "--seed", "3"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "round 20/20" in run.stderr                          # the progress line
    assert "hard bot's hints, 20 in 1 solo game (seed 3..)" in run.stdout   # (it said "1 solo games")
    assert "at the table (asked to shown): mean" in run.stdout and "the same choices alone: mean" in run.stdout
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "hints", "--games", "0"], capture_output=True,
                         text=True)
    assert run.returncode == 2 and "--games must be at least 1" in run.stdout and "Traceback" not in run.stderr


def test_bots_build_around_an_nmbr9_plus_start_tile():
    game = Game([Seat("bot", "bot:medium")], new_deck(random.Random(6)))
    game.boards[0] = Board([Placement("S3", 0, 0, 0)])
    bot = make_bot("medium", 0)
    for _ in range(6):
        assert game.play(0, bot.choose(view_of(game)))
    assert game.boards[0].score() == sum(p.piece * p.level for p in game.boards[0].tiles[1:])


def test_analysis_progress_moves_from_the_start_not_only_once_the_search_runs(monkeypatch):
    """On a busy machine the results said "searching… 0%" for 8 s, then 23%: nothing was reported while the
    bot's game (which the best found must beat) was played. The first report comes at once, and more follow
    while the bot plays."""
    from nmbr9.ai import analyse as module
    beams, seen = [], []
    real_beam = module.beam
    monkeypatch.setattr(module, "beam", lambda *a, **k: beams.append(len(seen)) or real_beam(*a, **k))
    module.analyse(new_deck(random.Random(5)), progress=seen.append, widest=2)
    assert seen[0] < 0.01   # at once: "0%"
    assert beams[0] >= 5, f"only {beams[0]} reports before the search itself"
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_the_same_deck_gets_the_same_best_on_a_busy_machine(monkeypatch):
    """The results' search ran for 10 s of the clock: on a busy machine it said "93 points, Bot 3's own game (the
    search found none better)" where a quiet one found 119. Its work is counted instead: a clock running slow
    (each look at it 5 s later, as if the machine were a thousand times busier) changes nothing, and the
    progress still moves in steps of work done."""
    import time
    from nmbr9.ai.analyse import analyse
    deck = new_deck(random.Random(6))   # wider beams find more here (103) than the first pass (92)
    quiet = analyse(deck, widest=4)
    clock = iter(range(0, 10 ** 9, 5))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    seen = []
    busy = analyse(deck, progress=seen.append, widest=4)
    assert busy == quiet
    assert len([f for f in seen if f < 0.9]) >= 20 and seen == sorted(seen) and seen[-1] == 1.0
