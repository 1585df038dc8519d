"""Nothing lost: the autosave after every placement, Continue, broken saves, a full disk, a killed process."""
import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from nmbr9.match import Match
from nmbr9.rules import Seat
from nmbr9.rules.record import parse_record, replay
from nmbr9.store import Store
from nmbr9.store import files

from test_match import play

SEATS = [Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")]
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    return Store()


def saved(store):
    return json.loads(store.autosave.path.read_text())


def test_every_confirmed_placement_is_saved_as_a_game_record(store):
    m = store.new_match(SEATS, seed=3)
    assert saved(store)["moves"] == [] and saved(store)["seed"] == 3
    counts = []
    play(m, humans=5, on_confirm=lambda m: counts.append(len(saved(store)["moves"])))
    assert counts == [1, 2, 4, 5, 7]               # the bot's tiles of rounds 1 and 2 saved in between
    rec = saved(store)
    assert rec["format"] == "nmbr9-record" and replay(parse_record(rec)).ok
    assert rec["players"][2] == {"name": "Bot", "kind": "bot:easy"}
    assert [p.name for p in store.folder.iterdir()] == ["autosave.json"], "no temp file left behind"


def test_continue_restores_boards_round_and_whose_turn(store):
    m = store.new_match(SEATS, seed=4)
    play(m, humans=7)
    found = Store().continue_game()
    back = found.match
    assert found.can_continue and found.message is None
    assert (back.round, back.current_human, back.phase) == (m.round, m.current_human, "handoff")
    assert [b.tiles for b in back.game.boards] == [b.tiles for b in m.game.boards]
    back.hand_over()
    play(back, humans=1)
    assert len(saved(store)["moves"]) == len(m.game.moves) + 1, "the continued game goes on saving"


def test_a_finished_game_is_not_offered(store):
    m = store.new_match([Seat("Bot", "bot:easy")], seed=5, threaded=False)
    m.play_out()
    found = store.continue_game()
    assert not found.can_continue and found.message is None and store.autosave.exists()


@pytest.mark.parametrize("content, why", [
    (b"\x00\xff garbage", "valid JSON"),
    (b'{"format": "chess-pgn", "moves": []}', "chess-pgn"),
    (b"[1, 2, 3]", "no JSON object"),
    (b"[" * 50000 + b"]" * 50000, "nesting too deep"),
    (b'{"seed": ' + b"7" * 5000 + b"}", "number too long"),
])
def test_a_corrupt_or_foreign_save_is_set_aside_with_a_message(store, content, why):
    store.autosave.path.write_bytes(content)
    found = store.continue_game()
    assert not found.can_continue
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes() == content, "set aside, never deleted"
    assert why in found.message and kept[0].name in found.message
    assert not store.autosave.exists()
    m = store.new_match(SEATS, seed=6)                # the menu still works: a new game saves
    play(m, humans=1)
    assert store.continue_game().can_continue


def test_a_save_with_a_tile_that_breaks_a_rule_goes_on_from_before_it(store):
    """A save whose round-3 tile breaks a rule (edited by hand, or a rule a newer version reads more strictly):
    the whole game was set aside and could not be continued. It now goes on from the last placement before that
    tile, the player is told which round and why, and the file as it was is kept beside the save."""
    m = store.new_match(SEATS, seed=6)
    play(m, humans=6)   # rounds 1 to 3 for all three seats
    rec = saved(store)
    third = next(i for i, mv in enumerate(rec["moves"]) if mv["round"] == 3)
    rec["moves"][third]["x"] += 40   # far from its board's tiles: touches none
    text = json.dumps(rec, indent=1)
    store.autosave.path.write_text(text, encoding="utf-8")
    found = store.continue_game()
    assert found.can_continue and found.match.record()["moves"] == rec["moves"][:third]
    assert found.match.round == 3
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.edited-")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text
    assert found.message == ("A tile of round 3 in the saved game breaks a rule: The tile must touch a tile of "
                             "level 0 along a square's side. The game goes on from before it. The file as it was "
                             f"is kept as {kept[0].name} in {store.folder}.")
    assert saved(store)["moves"] == rec["moves"][:third]
    again = store.continue_game()
    assert again.can_continue and again.message is None


def test_a_hand_edited_field_of_the_wrong_kind_is_said_and_the_file_as_it_was_kept(store):
    """"practice": "yes" and "seed": "6" typed into a save: the game went on as no practice game (no take back)
    on another seed, without a word. It still goes on, the player is told which fields it set aside, once, and
    the file as it was is kept beside the save."""
    m = store.new_match([Seat("Ana")], seed=6, practice=True)
    play(m, humans=2)
    edited = dict(saved(store), practice="yes", seed="6")
    text = json.dumps(edited, indent=1)
    store.autosave.path.write_text(text, encoding="utf-8")
    found = store.continue_game()
    assert found.can_continue and found.match.record()["moves"] == m.record()["moves"]
    assert "'seed', 'practice'" in found.message
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.edited-")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text and kept[0].name in found.message
    again = store.continue_game()                  # the menu asks again (New game, Continue): said once, kept once
    assert again.can_continue and again.message is None
    assert len([p for p in store.folder.iterdir() if p.name.startswith("autosave.json.edited-")]) == 1


def test_a_hand_edited_save_with_an_empty_name_is_said_and_the_seat_named_as_new_game_names_it(store):
    """A player's name emptied in the save: the menu showed "Round 3 of 20: , Ben" and the hand-off "Pass to "
    with nothing after it. The seat now goes on as "Player 1", the menu says which field it could not use, and
    the file as it was is kept, as for the save's other fields it can't use."""
    m = store.new_match([Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")], seed=6)
    play(m, humans=2)
    edited = saved(store)
    edited["players"][0]["name"] = ""
    edited["players"][2]["name"] = " "
    text = json.dumps(edited, indent=1)
    store.autosave.path.write_text(text, encoding="utf-8")
    found = store.continue_game()
    assert found.can_continue and found.match.record()["moves"] == m.record()["moves"]
    assert found.match.names == ["Player 1", "Ben", "Bot 3"]
    assert "could not use ('name')" in found.message
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.edited-")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text and kept[0].name in found.message
    assert [p["name"] for p in saved(store)["players"]] == ["Player 1", "Ben", "Bot 3"]
    assert store.continue_game().message is None   # said once


def test_a_save_opened_and_saved_in_notepad_continues(store):
    """Notepad puts a byte order mark first: `nmbr9 replay` read that record, but the game set it aside as
    "not valid JSON (Unexpected UTF-8 BOM ...)" and Continue was gone."""
    m = store.new_match(SEATS, seed=6)
    play(m, humans=3)
    store.autosave.path.write_text("\ufeff" + store.autosave.path.read_text(encoding="utf-8"), encoding="utf-8")
    found = store.continue_game()
    assert found.can_continue and found.message is None
    assert found.match.record()["moves"] == m.record()["moves"]


def test_a_save_from_a_newer_version_of_the_game_is_kept_whole_and_said_to_be_newer_not_damaged(store):
    """A newer NMBR 9 3D's autosave was renamed .corrupt-... as if damaged."""
    rec = store.new_match(SEATS, seed=6).record()
    content = json.dumps({**rec, "version": 2, "newer_field": [1, 2]}).encode()
    store.autosave.path.write_bytes(content)
    found = store.continue_game()
    assert not found.can_continue
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.")]
    assert [p.name.split("-")[0] for p in kept] == ["autosave.json.newer"] and kept[0].read_bytes() == content
    assert found.message == (f"The saved game could not be continued (it was saved by a newer version of NMBR 9 3D, "
                             f"which can continue it: game record version 2, this version reads 1). It was kept as "
                             f"{kept[0].name} in {store.folder}.")
    play(store.new_match(SEATS, seed=7), humans=1)     # a new game here never replaces it
    assert kept[0].read_bytes() == content


def test_a_save_far_larger_than_the_game_writes_is_set_aside_unread(store):
    """A 1 GB autosave was read whole (26 s, 2 GB of memory) before the window opened; here a real save padded
    with spaces past 1 MB, which JSON would accept."""
    play(store.new_match(SEATS, seed=6), humans=1)
    with store.autosave.path.open("a") as f:
        f.write(" " * 2 ** 20)
    found = store.continue_game()
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.corrupt-")]
    assert not found.can_continue and len(kept) == 1 and not store.autosave.exists()
    assert found.message == (f"The saved game could not be continued (more than 1 MB: far more than the game ever "
                             f"writes). It was kept as {kept[0].name} in {store.folder}.")


@pytest.mark.parametrize("change, why", [
    ({"kind": "filler", "piece": ["F1"]}, "'piece'"),
    ({"x": 2 ** 40}, "'x'"),
])
def test_a_save_with_a_move_of_the_wrong_shape_is_set_aside_with_a_message(store, change, why):
    rec = store.new_match(SEATS, seed=6).record()
    rec["moves"] = [{"round": 1, "player": 0, "digit": rec["deck"][0], "rotation": 0, "x": 0, "y": 0, **change}]
    store.autosave.path.write_text(json.dumps(rec))
    found = store.continue_game()
    kept = [p for p in store.folder.iterdir() if p.name.startswith("autosave.json.corrupt-")]
    assert not found.can_continue and len(kept) == 1 and json.loads(kept[0].read_text()) == rec
    assert why in found.message and kept[0].name in found.message


def test_a_full_disk_keeps_the_previous_save_and_says_so(store, monkeypatch):
    m = store.new_match(SEATS, seed=7)
    play(m, humans=2)
    before = store.autosave.path.read_bytes()
    real_write = os.write

    def disk_full(fd, data):                      # a few bytes get written, then the disk is full
        real_write(fd, bytes(data[:10]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", disk_full)
    m.update()                                    # the bot's tile: saving fails
    play(m, humans=1)
    assert m.save_error and "No space left on device" in m.save_error and "previous" in m.save_error
    assert store.autosave.path.read_bytes() == before
    assert [p.name for p in store.folder.iterdir()] == ["autosave.json"], "the half-written temp file is removed"
    monkeypatch.setattr(files.os, "write", real_write)
    play(m, humans=1)                             # space again: the next placement saves everything
    assert m.save_error is None and len(saved(store)["moves"]) == len(m.game.moves)


def test_a_first_save_that_fails_does_not_claim_a_previous_copy(tmp_path, monkeypatch):
    def disk_full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "write", disk_full)
    with pytest.raises(files.SaveError) as refused:
        files.write_atomic(tmp_path / "new.json", "{}")
    assert str(refused.value) == "Could not save new.json: No space left on device."


DRIVER = """
import sys, time
sys.path.insert(0, {tests!r})
from nmbr9.rules import Seat
from nmbr9.store import Store
from test_match import play

stop = int(sys.argv[1])
m = Store().new_match([Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")], seed=11)
count = 0

def report(m):
    global count
    count += 1
    print(len(m.game.moves), flush=True)
    if count == stop:
        time.sleep(60)       # the test kills us here

play(m, on_confirm=report)
print("over", flush=True)
"""


def run_driver(tmp_path, stop, kill_after_lines):
    env = {**os.environ, "NMBR9_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", DRIVER.format(tests=str(TESTS)), str(stop)],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    lines = []
    try:
        while len(lines) < kill_after_lines:
            line = proc.stdout.readline()
            assert line, "the driver ended early"
            lines.append(line.strip())
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    return [int(x) for x in lines]


def reference_moves(humans):
    m = Match.new(SEATS[:2] + [Seat("Bot", "bot:easy")], seed=11, threaded=False)
    play(m, humans=humans)
    return m


def test_killed_mid_game_the_next_start_continues_at_the_last_confirmed_placement(tmp_path, monkeypatch):
    printed = run_driver(tmp_path, stop=9, kill_after_lines=9)
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    found = Store().continue_game()
    assert found.can_continue, found.message
    back = found.match
    assert len(back.game.moves) == printed[-1]
    ref = reference_moves(9)
    assert back.record()["moves"] == ref.record()["moves"]
    assert (back.round, back.current_human) == (ref.round, ref.current_human)


def test_killed_while_playing_on_the_save_is_whole(tmp_path, monkeypatch):
    """Killed at a moment nobody chose (it keeps placing and saving): the save is a legal prefix."""
    printed = run_driver(tmp_path, stop=0, kill_after_lines=12)
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    found = Store().continue_game()
    assert found.can_continue, found.message
    moves = found.match.record()["moves"]
    assert len(moves) >= printed[-1]
    full = reference_moves(None).record()["moves"]
    assert moves == full[:len(moves)]


FILE_LIMIT_DRIVER = """
import json, resource, signal, sys
sys.path.insert(0, {tests!r})
from nmbr9.rules import Seat
from nmbr9.store import Store
from test_match import play

store = Store()
m = store.new_match([Seat("Ana"), Seat("Ben")], seed=2)
play(m, humans=4)
before = store.autosave.path.read_bytes()
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # refused writes fail with EFBIG instead of killing us
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) // 2, hard))
play(m, humans=1)
refused = m.save_error
kept = store.autosave.path.read_bytes() == before
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
play(m, humans=1)
print(json.dumps({{"refused": refused, "kept": kept, "after": m.save_error,
                  "saved": len(json.loads(store.autosave.path.read_text())["moves"]), "moves": len(m.game.moves)}}))
"""


def test_the_system_refusing_a_write_keeps_the_previous_save(tmp_path):
    """A real refusal from the operating system (a file size limit), not a simulated one."""
    env = {**os.environ, "NMBR9_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", FILE_LIMIT_DRIVER.format(tests=str(TESTS))], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["refused"] and "previous" in result["refused"] and result["kept"]
    assert result["after"] is None and result["saved"] == result["moves"] == 6


def personal_rows(folder):
    import sqlite3
    if not (folder / "nmbr9.sqlite3").exists():
        return []
    with sqlite3.connect(folder / "nmbr9.sqlite3") as db:
        return sorted(db.execute("SELECT player, score FROM personal_scores").fetchall())


def test_the_last_placement_keeps_the_humans_personal_scores_before_any_results_screen(store, tmp_path):
    """A kill after the last confirmed placement (the results screen never opened) keeps each human's
    score for their personal best; once: not again when saved again or continued."""
    m = store.new_match(SEATS, seed=11, threaded=False)
    play(m)
    assert m.over and m.save_error is None
    scores = sorted((r.name, r.score) for r in m.results() if r.kind == "human")
    store.close()                                    # as a killed game leaves it: no results screen
    assert personal_rows(tmp_path) == scores
    again = Store()
    assert not again.continue_game(threaded=False).can_continue
    m.save()
    assert personal_rows(tmp_path) == scores         # never twice
    again.close()


def test_a_finished_game_whose_scores_a_crash_lost_has_them_kept_on_continue(store, tmp_path):
    """Killed between writing the autosave and the database: the menu's look at the saved game keeps them."""
    m = Match.new(SEATS, 11, savers=[store.autosave], threaded=False)   # the autosave alone, as if cut short
    play(m)
    assert m.over and personal_rows(tmp_path) == []
    scores = sorted((r.name, r.score) for r in m.results() if r.kind == "human")
    for _ in range(2):
        found = Store().continue_game(threaded=False)
        assert not found.can_continue and found.message is None
        assert personal_rows(tmp_path) == scores     # once, however often the menu asks


def test_a_solo_games_scores_that_cannot_be_stored_say_so_not_the_tournament(store, tmp_path):
    """The database also keeps personal bests: its failure at a solo game's end names those."""
    (tmp_path / "nmbr9.sqlite3").mkdir()             # a database SQLite can't open, like a refusing disk
    m = store.new_match([Seat("Ana")], seed=11, threaded=False)
    play(m)
    assert m.over and m.save_error.startswith("The game's scores could not be stored for personal bests: ")
    assert "tournament" not in m.save_error


def test_a_practice_game_keeps_no_personal_score(store, tmp_path):
    m = store.new_match(SEATS, seed=11, practice=True, threaded=False)
    play(m)
    store.continue_game(threaded=False)
    assert personal_rows(tmp_path) == []


def test_a_second_copy_of_the_game_on_the_same_data_folder_says_so_and_opens_no_window(tmp_path, monkeypatch,
                                                                                      capsys):
    """Two windows on one autosave: the last to save silently replaced the other's game. The second
    copy now stops before its window opens and says why; once the first is gone (even killed) it starts."""
    from argparse import Namespace
    from nmbr9.scene import base, game_app
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    first = Store()
    m = first.new_match(SEATS, seed=11, threaded=False)
    play(m, humans=2)
    before = first.autosave.path.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from nmbr9.store import Store; "
                               "assert Store().hold(); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "held"

        class WindowOpened(Exception):
            pass

        def no_window(*args, **kw):
            raise WindowOpened
        monkeypatch.setattr(base, "make_base", no_window)
        args = Namespace(size=None, seed=None, record=None)
        assert game_app.main(args) == 2
        said = capsys.readouterr().out
        assert f"Can't start: another copy of NMBR 9 3D is using the data folder {tmp_path}." in said
        assert first.autosave.path.read_bytes() == before                  # the first copy's game untouched
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        with pytest.raises(WindowOpened):                                   # the folder is free again
            game_app.main(args)
    finally:
        holder.kill()
        holder.wait(10)
        first.close()


def test_a_copy_started_again_while_the_last_one_is_still_going_away_starts(tmp_path, monkeypatch):
    """A copy killed or quit lets go of the data folder about a second later (its process is torn down):
    starting the game again at once said "another copy ... is using the data folder"."""
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from nmbr9.store import Store; "
                               "assert Store().hold(); print('held', flush=True); time.sleep(0.7)"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "held"
        second = Store()
        assert second.hold()            # it waited for the first to go
        assert holder.wait(10) == 0     # (which held the folder until it ended)
        second.close()
    finally:
        holder.kill()
        holder.wait(10)


def test_a_puzzle_goes_on_its_leaderboard_with_the_last_placement_once(store, tmp_path):
    """A kill after a puzzle's last placement (no results screen) keeps its results on the leaderboard:
    the humans' and a bot strength's first; saving again or continuing never adds them twice."""
    import random

    from nmbr9.match import derive_seed
    from nmbr9.puzzle import random_puzzle
    from nmbr9.store import puzzle_results
    puzzle = random_puzzle(random.Random(5))
    m = Match(puzzle.new_game(SEATS), derive_seed("puzzle", puzzle.code), extra={"puzzle": puzzle.code},
              savers=[store.autosave, store.scores], threaded=False)
    play(m)
    assert m.over and m.save_error is None
    store.close()                                    # as a killed game leaves it: no results screen
    again = Store()
    expected = sorted((r.name, r.kind, r.score) for r in m.results())
    for _ in range(2):
        again.continue_game(threaded=False)
        m.save()
        assert sorted((r.player, r.kind, r.score) for r in puzzle_results(again.db, puzzle.code)) == expected
    again.close()


def test_a_write_cut_off_by_a_kill_leaves_no_file_behind_once_the_game_starts_again(tmp_path, monkeypatch):
    """A kill between write_atomic's temp file and its rename left `.autosave.json.<pid>.tmp` for good."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()   # a process id no process has now
    cut_off = tmp_path / f".autosave.json.{gone}.tmp"
    cut_off.write_text('{"version": 1, "mo')
    running = tmp_path / f".settings.json.{os.getppid()}.tmp"   # a write still going on elsewhere
    running.write_text("{")
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    store = Store()
    assert store.hold()
    assert not cut_off.exists()
    assert running.exists()
    store.close()


def test_a_name_no_file_can_hold_stops_neither_the_last_tile_nor_a_start(store):
    """A save naming its player "A\\ud800B" (valid JSON: a lone surrogate) crashed the game as the last tile
    was laid (SQLite can't write it) and at every start after: the name is kept with "\ufffd" for it."""
    m = store.new_match([Seat("Ana")], seed=3, threaded=False)
    play(m, humans=19)
    store.autosave.path.write_text(store.autosave.path.read_text().replace('"Ana"', '"A\\ud800B"'))
    back = Store().continue_game(threaded=False)
    assert back.can_continue and back.match.names == ["A\ufffdB"]
    play(back.match)                                    # the last tile: its score kept for personal bests
    assert back.match.over and back.match.save_error is None
    again = Store()                                     # every start after
    assert again.continue_game().message is None
    assert [tuple(r) for r in again.db.execute("SELECT player, score FROM personal_scores")] == \
        [("A\ufffdB", back.match.scores()[0])]
    again.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_an_autosave_settings_or_database_that_is_a_pipe_is_said_at_once(store):
    """An autosave that is a pipe (mkfifo) left a black window for ever: opened, it waited for a writer. It is
    set aside unread, as the settings are; a database that is one is said in words (SQLite said "disk I/O
    error")."""
    import threading

    from nmbr9.store import StoreError
    for name in ("autosave.json", "settings.json", "nmbr9.sqlite3"):
        os.mkfifo(store.folder / name)
    said = {}

    def start():
        said["autosave"] = store.continue_game().message
        store.settings()
        said["settings"] = store.settings_message
        try:
            store.db
        except StoreError as e:
            said["database"] = e.message
    starting = threading.Thread(target=start, daemon=True)
    starting.start()
    starting.join(20)
    assert not starting.is_alive(), "a start waited on a pipe"
    kept = [p.name for p in store.folder.iterdir() if p.name.startswith("autosave.json.corrupt-")]
    assert said["autosave"] == (f"The saved game could not be continued (not a file but a pipe, a device or a "
                                f"socket). It was kept as {kept[0]} in {store.folder}.")
    assert said["settings"].startswith("The settings file settings.json could not be read (not a file but a pipe")
    assert said["database"] == (f"Can't open the database {store.folder / 'nmbr9.sqlite3'}: not a file but a pipe, "
                                f"a device or a socket")


def test_a_lock_file_this_user_cannot_write_still_keeps_a_second_copy_out(tmp_path, monkeypatch):
    """A data folder's nmbr9.lock that can't be opened to be written (another user's) was taken as free: two
    copies ran on one data folder. Opened to be read, it is locked all the same. (The tests run as root, which
    may write any file: its opening to be written is refused as the system refuses another user.)"""
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from nmbr9.store import Store; "
                               "assert Store().hold(); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    lock = tmp_path / files.LOCK_NAME

    def another_users(path, mode="r", *args, **kw):
        if Path(path) == lock and mode != "rb":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return open(path, mode, *args, **kw)
    monkeypatch.setattr(files, "open", another_users, raising=False)
    try:
        assert holder.stdout.readline().strip() == "held"
        second = Store()
        assert not second.hold()                   # the first copy has the folder
        holder.kill()
        holder.wait(10)
        assert second.hold()                       # gone: the folder is free
        second.close()
    finally:
        holder.kill()
        holder.wait(10)


def test_a_lock_file_that_cannot_be_opened_at_all_stops_the_start_saying_why(tmp_path, monkeypatch, capsys):
    """A lock no one can open (here a folder where the lock file goes; another user's, theirs alone) can't say
    whether another copy has the data folder: the game does not start, and says why."""
    from argparse import Namespace
    from nmbr9.scene import base, game_app
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    (tmp_path / files.LOCK_NAME).mkdir()

    def no_window(*args, **kw):
        raise AssertionError("the window opened")
    monkeypatch.setattr(base, "make_base", no_window)
    assert game_app.main(Namespace(size=None, seed=None, record=None)) == 2
    assert capsys.readouterr().out == (
        f"Can't start: the data folder's lock file {tmp_path / files.LOCK_NAME} can't be opened (Is a directory), so "
        f"another copy of NMBR 9 3D, another user's, may be using the folder. Use a data folder of your own, or "
        f"have the file's owner remove it.\n")


def test_a_save_naming_the_former_expert_bot_continues_played_and_named_as_hard(store):
    """Expert played hard's game and is folded into it: an older save naming bot:expert still continues, its bot
    told "(hard)" and laying hard's tiles."""
    from nmbr9.match import seat_told
    m = store.new_match([Seat("Ana"), Seat("Bot", "bot:hard")], seed=8, threaded=False)
    play(m, humans=3)
    rec = saved(store)
    boards = {}
    for kind in ("bot:hard", "bot:expert"):
        rec["players"][1]["kind"] = kind
        store.autosave.path.write_text(json.dumps(rec))
        back = store.continue_game(threaded=False).match
        assert seat_told(back.seats[1].name, back.seats[1].kind) == "Bot (hard)"
        play(back, humans=2)
        boards[kind] = back.game.boards[1].tiles
    assert boards["bot:expert"] == boards["bot:hard"]
