"""The game session without a window: turns, hand-offs, bots, take back, results, rematch."""
import os
import subprocess
import sys
import threading
import time

import pytest

from nmbr9.ai import make_bot
from nmbr9.paths import ROOT
from nmbr9.match import BOTS, HANDOFF, OVER, PLACE, Match, places
from nmbr9.rules import (BREAKING_RULES, GAP_FILLERS, LEVEL_TO_LEVEL, START_TILES_MODULE, TWO_OF_THREE, Placement,
                         Ruleset, Seat)
from nmbr9.rules.game import CHOOSE, DECIDE, EXTRAS
from nmbr9.rules.record import RecordError, parse_record, replay
from helpers import thinking_for

ANA, BEN, CAT = Seat("Ana"), Seat("Ben"), Seat("Cat")
# Easy and medium bots only: they are quick (hard takes 0.1 to 0.5 s a move; every
# bot's choice is deterministic, its search counted in evaluations, never timed).
EASY, MEDIUM = Seat("Easy", "bot:easy"), Seat("Mid", "bot:medium")


class Recorder:
    """A saver that notes how many moves each save held."""

    def __init__(self):
        self.saved = []

    def save(self, match):
        self.saved.append(len(match.record()["moves"]))


def human_choice(match):
    """What the test humans lay: the first legal placement on the highest level (deterministic)."""
    options = match.legal_placements()
    top = max(p.level for p in options)
    return next(p for p in options if p.level == top)


def human_turn(match):
    """One action of the current human, whatever the rules in play ask for."""
    h, o = match.current_human, match.options()
    if o.step == DECIDE:                         # "2 of 3"
        assert match.decide(h, o.can_build)
    elif o.step == CHOOSE:                       # "Level to Level"
        assert match.choose(h, max(o.choices))
    elif o.step == EXTRAS:                       # gap fillers left: not this time
        assert match.end_turn(h)
    else:
        assert match.confirm(human_choice(match))


def play(match, humans: int | None = None, on_confirm=None):
    """Drive a match as the window does: hand over, humans confirm, bots through update().

    Stops at the end or after `humans` human actions; returns the hand-offs seen.
    """
    handoffs, placed = [], 0
    deadline = time.monotonic() + 60
    while not match.over and (humans is None or placed < humans):
        assert time.monotonic() < deadline, "the match stopped moving"
        match.update()
        if match.phase == HANDOFF:
            handoffs.append((match.round, match.current_human))
            match.hand_over()
        elif match.phase == PLACE:
            human_turn(match)
            placed += 1
            if on_confirm:
                on_confirm(match)
        elif match.phase == BOTS:
            time.sleep(0.0005)
    return handoffs


def test_pass_and_play_order_and_handoffs():
    m = Match.new([ANA, EASY, BEN, CAT], seed=5)
    assert m.phase == HANDOFF and m.current_human == 0     # the table goes to Ana first
    m.hand_over()
    assert m.phase == PLACE
    m.confirm(human_choice(m))
    assert (m.phase, m.current_human) == (HANDOFF, 2)      # then to Ben, the next human by seat
    handoffs = play(m)
    # every round passes Ana -> Ben -> Cat; the bot never gets the table
    assert handoffs[:5] == [(1, 2), (1, 3), (2, 0), (2, 2), (2, 3)]
    assert len(handoffs) == 20 * 3 - 1
    assert m.phase == OVER and len(m.game.moves) == 80


def test_a_single_human_never_sees_a_handoff():
    m = Match.new([ANA, EASY], seed=2)
    assert m.phase == PLACE
    assert play(m) == []
    assert m.over


def test_confirm_refuses_an_illegal_tile_and_out_of_turn_play():
    m = Match.new([ANA, BEN], seed=3)
    m.hand_over()
    assert m.check(1, Placement(m.card, 0, 0, 0)).code == "wrong_turn", "Ben waits for Ana (pass-and-play)"
    assert m.play(1, Placement(m.card, 0, 0, 0)).code == "wrong_turn" and m.boards[1].is_empty()
    assert m.check(0, Placement(m.card, 0, 0, 0)), "a Game-like check for the screen's ghost"
    wrong = Placement((m.card + 1) % 10, 0, 0, 0)
    v = m.confirm(wrong)
    assert not v and v.code == "wrong_digit" and m.game.moves == []
    assert m.confirm(human_choice(m))
    first = m.game.moves[0].placement
    m.hand_over()
    assert m.confirm(Placement(m.card, 0, first.x + 20, first.y)), "Ben's board is his own"
    bots = Match.new([EASY], seed=3)
    assert bots.phase == BOTS and bots.confirm(Placement(bots.card, 0, 0, 0)).code == "wrong_turn"


def test_bots_wait_for_the_round_s_humans_and_commit_in_seat_order():
    m = Match.new([MEDIUM, ANA, EASY], seed=8)
    m.run_bots()                          # a human is still to place: nothing happens
    assert m.game.moves == []
    m.confirm(human_choice(m))
    assert m.run_bots()
    assert [x.player for x in m.game.moves] == [1, 0, 2]
    assert m.round == 2


def test_bots_do_not_hold_up_the_window():
    """While a bot thinks, update() returns at once; its tile arrives when it is done."""
    gate = threading.Event()

    def slow_bot(strength, seed):
        bot = make_bot(strength, seed)

        class Waiting:
            def choose(self, view):
                gate.wait(10)
                return bot.choose(view)
        return Waiting()

    m = Match.new([ANA, EASY], seed=4, bot_factory=slow_bot)
    m.confirm(human_choice(m))
    t = time.perf_counter()
    for _ in range(50):
        assert m.update() is False
    assert time.perf_counter() - t < 0.1
    assert m.bots_thinking and m.phase == BOTS and m.round == 1
    gate.set()
    deadline = time.monotonic() + 10
    while not m.update():
        assert time.monotonic() < deadline
        time.sleep(0.001)
    assert m.round == 2 and [x.player for x in m.game.moves] == [0, 1]


def test_bots_play_the_same_whatever_the_timing():
    seats = [ANA, MEDIUM, EASY, Seat("Mid 2", "bot:medium")]
    threaded = Match.new(seats, seed=21)
    play(threaded)
    stepped = Match.new(seats, seed=21, threaded=False)   # one bot thinks per update()
    play(stepped)
    assert threaded.record()["moves"] == stepped.record()["moves"]
    other_seed = Match.new(seats, seed=22, threaded=False)
    play(other_seed)
    assert other_seed.record()["deck"] != threaded.record()["deck"]


def test_boards_of_others_as_they_stood_at_the_current_round():
    m = Match.new([ANA, BEN], seed=6)
    play(m, humans=5)                    # rounds 1, 2 complete; Ana has placed in round 3
    assert (m.round, m.current_human) == (3, 1)
    ana_now = m.board(0)
    assert len(ana_now.tiles) == 3
    assert len(m.board_view(0, viewer=1).tiles) == 2, "Ben must not see Ana's tile of this round"
    assert m.board_view(0, viewer=0) is ana_now
    assert len(m.board_at_round(0, 2).tiles) == 1


def test_take_back_in_solo_practice_only():
    m = Match.new([ANA, MEDIUM], seed=9, practice=True, threaded=False)
    play(m, humans=3)
    m.run_bots()
    before = [mv.to_json() for mv in m.game.moves]
    assert m.round == 4 and m.can_take_back
    undone = m.take_back()
    assert [u.player for u in undone] == [1, 0]          # the bot's tile after it, then Ana's
    assert m.round == 3 and m.current_human == 0 and len(m.board(1).tiles) == 2
    # placing the same tile again gives the same bot reply: the game is as before
    again = before[-2]
    assert m.confirm(Placement(again["digit"], again["rotation"], again["x"], again["y"]))
    m.run_bots()
    assert [mv.to_json() for mv in m.game.moves] == before

    first = Match.new([ANA, MEDIUM], seed=9, practice=True, threaded=False)
    play(first, humans=1)
    first.run_bots()
    assert first.round == 2 and len(first.take_back()) == 2
    assert (first.round, first.game.moves, first.current_human) == (1, [], 0)

    table = Match.new([ANA, BEN], seed=9, practice=True)
    play(table, humans=2)
    assert not table.can_take_back and table.take_back() == [] and len(table.game.moves) == 2
    not_practice = Match.new([ANA], seed=9)
    play(not_practice, humans=1)
    assert not not_practice.can_take_back


def test_results_ties_share_the_win():
    m = Match.new([ANA, BEN, EASY], seed=12)
    play(m)                                   # Ana and Ben lay the same tiles: equal scores
    res = m.results()
    ana, ben = (next(r for r in res if r.seat == s) for s in (0, 1))
    assert ana.score == ben.score == m.board(0).score()
    assert ana.place == ben.place and ana.winner == ben.winner
    assert [r.score for r in res] == sorted((r.score for r in res), reverse=True)
    assert {r.seat for r in res if r.winner} == set(m.game.winners())
    assert sum(ana.by_level.values()) == ana.score
    assert places([90, 100, 90, 70]) == [2, 1, 2, 4]


def test_rematch_same_seats_new_deck():
    r = Recorder()
    m = Match.new([ANA, EASY], seed=13, practice=True, savers=[r])
    play(m, humans=2)
    again = m.rematch()
    assert r.saved[-1] == 0, "the rematch replaces the saved game at once"
    assert again.seats == m.seats and again.practice
    assert again.game.deck != m.game.deck and sorted(again.game.deck) == sorted(m.game.deck)
    assert m.rematch().game.deck == again.game.deck, "the rematch deck comes from a seeded generator"
    assert again.game.moves == [] and again.round == 1


def test_record_restores_the_exact_position():
    m = Match.new([ANA, BEN, MEDIUM], seed=14, extra={"puzzle": "ABCD-EFGH-JKMN"})
    play(m, humans=7)
    rec = m.record()
    assert replay(parse_record(rec)).ok
    assert rec["seed"] == 14 and rec["puzzle"] == "ABCD-EFGH-JKMN"
    back = Match.from_record(rec)
    assert back.round == m.round and back.current_human == m.current_human
    assert [b.tiles for b in back.game.boards] == [b.tiles for b in m.game.boards]
    assert back.record() == rec, "saving again keeps every field"
    play(back)
    play(m)
    assert back.record()["moves"] == m.record()["moves"], "after Continue the bots play as they would have"


def test_records_that_are_not_this_game_are_refused():
    with pytest.raises(RecordError):
        Match.from_record({"format": "chess-pgn"})
    rec = Match.new([ANA], seed=1).record()
    rec["players"][0]["kind"] = "bot:godlike"
    with pytest.raises(RecordError, match="godlike"):
        Match.from_record(rec)


def test_savers_are_called_after_every_confirmed_placement():
    r = Recorder()
    m = Match.new([ANA, BEN, EASY], seed=15, savers=[r])
    play(m, humans=4)
    assert r.saved == [1, 2, 3, 4, 5]          # round 1: Ana, Ben, then the bot; round 2: Ana, Ben


@pytest.mark.parametrize("ruleset", [
    Ruleset(TWO_OF_THREE),
    Ruleset(LEVEL_TO_LEVEL),
    Ruleset(modules=(START_TILES_MODULE, GAP_FILLERS)),
    Ruleset(modules=(BREAKING_RULES,)),
], ids=["2 of 3", "level to level", "start tiles and gap fillers", "breaking rules"])
def test_nmbr9_plus_games_play_to_the_end_and_continue(ruleset):
    m = Match.new([ANA, EASY, BEN], seed=31, ruleset=ruleset, threaded=False)
    play(m, humans=9)
    back = Match.from_record(m.record(), threaded=False)
    assert back.record() == m.record() and back.current_human == m.current_human and back.round == m.round
    play(m)
    play(back)
    assert back.record()["moves"] == m.record()["moves"]
    r = replay(parse_record(m.record()))
    assert r.ok and r.game.over and r.game.scores() == [res.score for res in sorted(m.results(), key=lambda x: x.seat)]
    built = [sum(1 for mv in m.game.moves if mv.player == i and mv.kind == "place") for i in range(3)]
    assert built[1] == built[0] > 0, "the bot built a tile whenever Ana did"


def test_a_failing_bot_stops_a_classic_game_but_not_an_nmbr9_plus_one():
    class Broken:
        def choose(self, view):
            raise ValueError("no idea")

    classic = Match.new([EASY], seed=1, threaded=False, bot_factory=lambda strength, seed: Broken())
    with pytest.raises(RuntimeError, match="no idea"):
        classic.run_bots()
    plus = Match.new([EASY], seed=1, ruleset=Ruleset(modules=(START_TILES_MODULE,)), threaded=False,
                     bot_factory=lambda strength, seed: Broken())
    plus.play_out()
    assert plus.over and replay(parse_record(plus.record())).ok


@pytest.mark.parametrize("seed", [-1, 2 ** 32, 10 ** 30])
def test_a_game_is_never_set_up_by_a_seed_outside_32_bits(seed, tmp_path):
    with pytest.raises(ValueError, match="from 0 to 4294967295"):
        Match.new([Seat("Ana")], seed=seed)
    env = {**os.environ, "NMBR9_DATA": str(tmp_path)}
    env.pop("DISPLAY", None)   # refused before any window opens
    r = subprocess.run([sys.executable, "run_game.py", "--seed", str(seed)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stdout.strip() == "Can't start: The seed must be a whole number from 0 to 4294967295."
    assert not (tmp_path / "autosave.json").exists()


def test_a_solo_game_from_the_command_line_never_ends_a_saved_game_unasked(tmp_path):
    from nmbr9.store import Store
    store = Store(tmp_path)
    saved = store.new_match([Seat("Ana"), Seat("Ben")], seed=7)
    saved.play(0, saved.legal_placements(0)[0])
    store.close()
    before = (tmp_path / "autosave.json").read_text()
    env = {**os.environ, "NMBR9_DATA": str(tmp_path), "LANGUAGE": "en"}
    env.pop("DISPLAY", None)   # refused before any window opens
    r = subprocess.run([sys.executable, "run_game.py", "--seed", "5"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stdout.strip() == ("Can't start: it would end your saved game (Round 1 of 20: Ana, Ben). Continue it "
                                "from the menu, or start this deck there: New game, seed 5.")
    assert (tmp_path / "autosave.json").read_text() == before   # Ana's tile is still there to continue


@pytest.mark.parametrize("where, reason", [("data", "it is a file, not a folder"),
                                           ("data/inside", "a folder on its path is a file")])
def test_a_data_folder_that_is_a_file_is_named_when_the_game_cannot_start(tmp_path, where, reason):
    """Said in the game's words, not the OS's "File exists"."""
    (tmp_path / "data").write_text("not a folder")
    blocked = tmp_path / where
    env = {**os.environ, "NMBR9_DATA": str(blocked), "LANGUAGE": "en"}
    env.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, "run_game.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stdout.strip() == f"Can't start: the data folder {blocked} can't be used ({reason})"


@pytest.mark.parametrize("where", ["missing/x.json", "."])
def test_a_record_file_that_can_never_be_written_is_said_before_the_window_opens(where, tmp_path):
    """`play --seed 5 --record /no/such/folder/x.json` opened the window and said "Could not save
    x.json" at the table; a folder as the file the same."""
    record = tmp_path / where
    env = {**os.environ, "NMBR9_DATA": str(tmp_path / "data"), "LANGUAGE": "en"}
    env.pop("DISPLAY", None)   # refused before any window opens
    r = subprocess.run([sys.executable, "run_game.py", "play", "--seed", "5", "--record", str(record)], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    said = r.stdout.strip()
    assert said.startswith(f"Can't start: --record {record}")
    assert (f"there is no folder {tmp_path / 'missing'}." in said) if where != "." else ("is a folder" in said)


def test_a_record_file_without_a_seed_is_said_before_the_window_opens(tmp_path):
    """`play --record x.json` alone opened the menu, and no game it started was ever written to x.json."""
    env = {**os.environ, "NMBR9_DATA": str(tmp_path / "data"), "LANGUAGE": "en"}
    env.pop("DISPLAY", None)   # refused before any window opens
    r = subprocess.run([sys.executable, "run_game.py", "play", "--record", str(tmp_path / "x.json")], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stdout.strip() == "Can't start: --record goes with --seed: it records the solo game that starts at once."


def test_stored_times_are_shown_as_the_players_own_date(monkeypatch):
    """Times are stored in UTC; the daily puzzle changes at local midnight, so dates are shown local."""
    import time
    from nmbr9.match import local_date
    monkeypatch.setenv("TZ", "PST+8")   # POSIX form: no time zone database needed
    time.tzset()
    try:
        assert local_date("2026-11-24T03:00:00+00:00") == "2026-11-23"   # 19:00 the day before there
        assert local_date("not a time") == "not a time"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_bots_think_in_a_process_of_their_own_and_one_that_dies_loses_no_move():
    """The bots' work goes to processes beside the window's (ai/worker.py); one killed mid-move
    (out of memory, say) costs time, never a move, and the bots still choose as they would."""
    import signal

    from nmbr9.ai import worker
    seats = [ANA, Seat("Hard", "bot:hard"), Seat("Hard 2", "bot:hard")]
    m = Match.new(seats, seed=33)
    play(m, humans=2)
    pid = worker.run(os.getpid)
    assert pid != os.getpid()
    deadline = time.monotonic() + 60
    while m.phase != PLACE:
        assert time.monotonic() < deadline
        m.update()
    m.confirm(human_choice(m))     # round 3: the bots start thinking
    os.kill(pid, signal.SIGKILL)
    play(m, humans=2)
    assert m.round == 5   # round 3's bots laid their tiles, and round 4's
    stepped = Match.new(seats, seed=33, threaded=False)
    play(stepped, humans=5)
    assert m.record()["moves"] == stepped.record()["moves"][:len(m.record()["moves"])]
    assert worker.run(os.getpid) != os.getpid()   # thinking in processes again


def test_a_hint_asked_while_the_bots_think_does_not_wait_for_their_moves():
    """The hints shared the bots' two processes: a hint asked for as the card was turned waited
    behind every bot's move of the round (four bots in round 9: 8 s for a hint that takes 2)."""
    import functools

    from nmbr9.ai import worker
    worker.warm()
    worker.run(os.getpid, worker.HINTS)   # the hints' processes are up (as after the game's start)
    moves = [worker.start(functools.partial(time.sleep, 4 + n / 100)) for n in range(4)]   # four bots, two at a time
    asked = time.monotonic()
    assert worker.run(os.getpid, worker.HINTS) != os.getpid()
    assert time.monotonic() - asked < 3
    for move in moves:
        move()


def test_a_game_continued_while_its_bots_think_waits_for_their_moves_once():
    """Menu while the bots thought, then Continue (the saved game loaded anew, as each visit of the
    menu does): the same moves were queued again behind the first ones, and waited for twice."""
    import functools

    from nmbr9.ai import worker
    worker.warm()
    worker.run(os.getpid)   # the bots' processes are up
    moves = [functools.partial(time.sleep, 2 + n / 100) for n in range(4)]   # four bots, two at a time
    first = [worker.start(move) for move in moves]
    continued = time.monotonic()
    again = [worker.start(functools.partial(time.sleep, 2 + n / 100)) for n in range(4)]   # made anew
    for move in again:
        move()
    assert time.monotonic() - continued < 6   # two rounds of 2 s, not four
    for move in first:
        move()


def test_a_game_killed_outright_leaves_no_thinking_process_behind():
    """kill -9 (or a crash) tells the bots' processes nothing: they end by themselves, not wait forever."""
    import signal
    script = "import os, time\nfrom nmbr9.ai import worker\nprint(worker.run(os.getpid), flush=True)\ntime.sleep(60)\n"
    game = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    thinker = int(game.stdout.readline())
    assert thinker != game.pid
    os.kill(game.pid, signal.SIGKILL)
    game.wait()
    deadline = time.monotonic() + 20
    while os.path.exists(f"/proc/{thinker}") and time.monotonic() < deadline:
        time.sleep(0.1)
    state = open(f"/proc/{thinker}/stat").read().split()[2] if os.path.exists(f"/proc/{thinker}") else "gone"
    assert state in ("gone", "Z"), "the thinking process outlived the game"


def test_a_hint_given_up_on_stops_and_the_next_hint_starts_at_once():
    """Two hints given up on (their tiles laid before they came) ran to their ends in both hints'
    processes: the next hint waited behind them for nothing (under load, many seconds)."""
    from nmbr9.ai import worker
    worker.warm()
    worker.run(os.getpid, worker.HINTS)   # the hints' processes are up
    given_up = [worker.start(thinking_for(30, f"hint{n}"), worker.HINTS) for n in range(2)]
    time.sleep(0.5)   # both being worked out
    worker.abandon(worker.HINTS)
    asked = time.monotonic()
    assert worker.run(os.getpid, worker.HINTS) != os.getpid()   # in a process of its own still
    for result in given_up:
        with pytest.raises(worker.Abandoned):
            result()
    assert time.monotonic() - asked < 3
    again = worker.start(thinking_for(0.2, "hint0"), worker.HINTS)   # the same work asked again: worked out anew
    assert again() is None
