"""Records and the `replay` / `moves` commands, as spec/game-record.md fixes them."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nmbr9.rules import Board, Placement
from nmbr9.rules.record import RecordError, game_record, load_record, parse_record, replay

from helpers import random_game

ROOT = Path(__file__).resolve().parent.parent


def nmbr9(*args, language="en", timeout=60):
    return subprocess.run([sys.executable, "-m", "nmbr9", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout, env={**os.environ, "LANGUAGE": language})


@pytest.fixture(scope="module")
def two_player_game():
    return random_game(11, players=2)


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_complete_record_replays_to_the_same_scores(tmp_path, two_player_game):
    path = write(tmp_path, game_record(two_player_game))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"ok": True, "complete": True, "rounds": 20, "scores": two_player_game.scores()}
    human = nmbr9("replay", path)
    assert human.returncode == 0 and "Legal game (complete)" in human.stdout
    assert str(two_player_game.scores()[0]) in human.stdout


def test_partial_record_without_levels_replays(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:15]
    for m in data["moves"]:
        del m["level"]                            # level may be left out: the tile rests where it lands
    r = nmbr9("replay", write(tmp_path, data), "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["ok"] and out["complete"] is False and out["rounds"] == 7


def test_a_record_saved_with_a_byte_order_mark_replays(tmp_path, two_player_game):
    """Windows' Notepad saves UTF-8 with a BOM first: JSON allows a reader to skip it (RFC 8259)."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game_record(two_player_game)).encode("utf-8"))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["scores"] == two_player_game.scores()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_a_bad_record_not_all_the_memory():
    """`replay /dev/zero` read until the memory ran out (here capped: a MemoryError traceback, exit 1); it is
    refused unread, as every device is."""
    import resource

    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (1500 * 2 ** 20, 1500 * 2 ** 20))
    r = subprocess.run([sys.executable, "-m", "nmbr9", "replay", "/dev/zero", "--json"], capture_output=True,
                       text=True, cwd=ROOT, timeout=120, preexec_fn=cap_memory)
    assert r.returncode == 2, r.stderr
    assert json.loads(r.stdout)["error"] == {"code": "bad_record",
                                             "message": "can't read /dev/zero: not a file but a pipe, a device or "
                                                        "a socket"}


@pytest.mark.parametrize("change, code", [
    (lambda m: m.update(rotation=45), "bad_rotation"),
    (lambda m: m.update(digit=(m["digit"] + 1) % 10), "wrong_digit"),
    (lambda m: m.update(player=7), "wrong_turn"),
    (lambda m: m.update(round=m["round"] + 1), "wrong_turn"),
    (lambda m: m.update(x=m["x"] + 40), "not_adjacent"),
])
def test_an_illegal_move_is_reported_with_its_code(tmp_path, two_player_game, change, code):
    data = game_record(two_player_game)
    change(data["moves"][9])
    r = nmbr9("replay", write(tmp_path, data), "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 1
    assert out["ok"] is False and out["error"]["code"] == code and out["error"]["move"] == 9
    assert out["error"]["round"] == data["moves"][9]["round"] and out["error"]["message"]
    human = nmbr9("replay", write(tmp_path, data))
    assert human.returncode == 1 and code in human.stdout and "Traceback" not in human.stderr
    moves = nmbr9("moves", write(tmp_path, data), "--player", 0)   # names the move too, not just the rule
    assert moves.returncode == 1 and moves.stdout == human.stdout


def test_record_commands_speak_the_players_language(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"][9]["x"] += 40
    bad = nmbr9("replay", write(tmp_path, data), language="es")
    assert "Jugada no válida 9" in bad.stdout and "adyacente" in bad.stdout
    path = write(tmp_path, game_record(two_player_game))
    assert "Es gibt keinen Spieler 5" in nmbr9("moves", path, "--player", 5, language="de").stdout
    power = nmbr9("moves", path, "--player", 0, "--power", "fly", language="de")
    assert power.returncode == 1 and "Es gibt keine Funktion fly" in power.stdout
    err = json.loads(nmbr9("moves", path, "--player", 0, "--power", "fly", "--json", language="de").stdout)["error"]
    assert err["code"] == "bad_power" and err["message"].startswith("There is no power fly")   # JSON: English


def test_a_broken_json_file_is_said_wrong_in_the_players_language(tmp_path):
    """Python's own words for what is wrong ("Expecting ':' delimiter") stayed English in every language;
    the JSON output keeps them English."""
    path = write(tmp_path, '{"format" "nmbr9-record"}')
    said = nmbr9("replay", path, language="pl").stdout
    assert "oczekiwano separatora ':'" in said and "Expecting" not in said
    assert "se esperaba el separador ':'" in nmbr9("moves", path, "--player", 0, language="es").stdout
    err = json.loads(nmbr9("replay", path, "--json", language="de").stdout)["error"]
    assert "Expecting ':' delimiter" in err["message"]


def test_overlap_support_and_single_support_codes(tmp_path):
    base = {"format": "nmbr9-record", "version": 1, "ruleset": {"variant": "classic", "modules": []},
            "players": [{"name": "Ana", "kind": "human"}], "deck": [9, 9, 1, 1, 0, 0, 2, 2, 3, 3, 4, 4, 5, 5,
                                                                    6, 6, 7, 7, 8, 8]}
    nine, nine2 = ({"round": 1, "player": 0, "digit": 9, "rotation": 0, "x": 0, "y": 0},
                   {"round": 2, "player": 0, "digit": 9, "rotation": 180, "x": 2, "y": 0})
    cases = {
        "overlap": {"round": 2, "player": 0, "digit": 9, "rotation": 0, "x": 1, "y": 0, "level": 0},
        "not_supported": {"round": 2, "player": 0, "digit": 9, "rotation": 0, "x": 2, "y": 0, "level": 1},
    }
    for code, move in cases.items():
        r = nmbr9("replay", write(tmp_path, {**base, "moves": [nine, move]}), "--json")
        assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == code
    single = {"round": 3, "player": 0, "digit": 1, "rotation": 0, "x": 0, "y": 0}
    r = nmbr9("replay", write(tmp_path, {**base, "moves": [nine, nine2, single]}), "--json")
    assert json.loads(r.stdout)["error"] == {"code": "single_support", "move": 2, "round": 3, "player": 0,
                                             "message": "The tile rests on only one tile; on level 1 it must rest on at least two."}


@pytest.mark.parametrize("content, says", [
    ("not json at all", "not valid JSON"),
    ("", "not valid JSON"),
    (json.dumps([1, 2]), "no JSON object"),
    (json.dumps({"format": "chess-pgn", "version": 1}), "format"),
    (json.dumps({"format": "nmbr9-record", "version": 9}), "version"),
    (json.dumps({"format": "nmbr9-record", "version": 1, "ruleset": {"variant": "classic", "modules": []},
                 "players": [{"name": "A", "kind": "human"}], "deck": [1] * 20, "moves": []}), "deck"),
    (json.dumps({"format": "nmbr9-record", "version": 1, "ruleset": {"variant": "classic", "modules": []},
                 "players": [{"name": "A", "kind": "human"}], "deck": list(range(10)) * 2,
                 "moves": [{"round": "1"}]}), "round"),
    (json.dumps({"format": "nmbr9-record", "version": 1}), "ruleset"),
])
def test_damaged_or_foreign_file_exits_2_with_one_clear_line(tmp_path, content, says):
    path = write(tmp_path, content)
    for extra in (["--json"], []):
        r = nmbr9("replay", path, *extra)
        assert r.returncode == 2 and "Traceback" not in r.stderr + r.stdout
        assert says in r.stdout and len(r.stdout.strip().splitlines()) == 1
    out = json.loads(nmbr9("replay", path, "--json").stdout)
    assert out["ok"] is False and out["error"]["code"] == "bad_record"
    assert nmbr9("moves", path, "--player", 0, "--json").returncode == 2


def test_an_empty_or_cut_off_record_is_said_so_not_in_python_s_words(tmp_path, two_player_game):
    """An empty file said "Expecting value", a record cut off in the middle "Expecting ',' delimiter": the
    player could not tell that the file was empty or cut short."""
    text = json.dumps(game_record(two_player_game), indent=1)
    for content, says in (("", "game.json is not valid JSON (the file is empty, line 1)"),
                          (text[:len(text) // 2], "game.json is not valid JSON (the file ends part way through: "
                                                  f"cut off, line {text[:len(text) // 2].count(chr(10)) + 1})"),
                          (text[:text.index('"human"') + 3], "the file ends part way through: cut off, line"),
                          (text.replace('"moves": [', '"moves" [', 1), "Expecting ':' delimiter")):
        for command in (["replay"], ["moves", "--player", 0]):
            r = nmbr9(*command, write(tmp_path, content))
            assert r.returncode == 2 and says in r.stdout and len(r.stdout.strip().splitlines()) == 1, r.stdout
    german = nmbr9("replay", write(tmp_path, ""), language="de").stdout
    assert "file is empty" not in german


def test_a_folder_or_a_binary_file_is_said_in_words_not_python_s(tmp_path):
    """A folder was said in the system's words, English in every language ("ist nicht lesbar: Is a directory")."""
    (tmp_path / "photo.json").write_bytes(bytes(range(256)))
    for path, says in ((tmp_path, f"{tmp_path} is a folder: give the name of a game record file"),
                       (tmp_path / "photo.json", "photo.json: not valid JSON: not UTF-8 text")):
        r = nmbr9("replay", path)
        assert r.returncode == 2 and says in r.stdout, r.stdout
        assert "Errno" not in r.stdout and "codec" not in r.stdout
    german = nmbr9("replay", tmp_path / "photo.json", language="de")
    assert "UTF-8" in german.stdout and "not UTF-8 text" not in german.stdout
    for command in (["replay"], ["moves", "--player", 0], ["analyse"], ["render", "--out", tmp_path / "a.png"]):
        german = nmbr9(*command, tmp_path, language="de")
        assert german.returncode == 2 and f"{tmp_path} ist ein Ordner" in german.stdout, (command, german.stdout)
        assert "directory" not in german.stdout


def test_missing_file_is_a_bad_record(tmp_path):
    r = nmbr9("replay", tmp_path / "nope.json", "--json")
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["code"] == "bad_record"


def test_moves_lists_each_legal_placement_of_the_next_card_once(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:21]            # round 11: player data["moves"][20]["player"] has placed
    path = write(tmp_path, data)
    r = nmbr9("moves", path, "--player", 1, "--json")
    assert r.returncode == 0, r.stderr
    listed = json.loads(r.stdout)
    board = Board([Placement(m["digit"], m["rotation"], m["x"], m["y"], m["level"])
                   for m in data["moves"] if m["player"] == 1])
    done = sum(1 for m in data["moves"] if m["player"] == 1)
    card = data["deck"][done]
    assert all(set(p) == {"digit", "rotation", "x", "y", "level"} and p["digit"] == card for p in listed)
    keys = [(p["rotation"], p["x"], p["y"], p["level"]) for p in listed]
    assert len(keys) == len(set(keys)) > 0
    for p in listed:
        assert board.verdict(Placement(card, p["rotation"], p["x"], p["y"], p["level"])).ok
    if card in (0, 8):
        assert all(p["rotation"] in (0, 90) for p in listed)   # canonical rotation
    assert nmbr9("moves", path, "--player", 1).returncode == 0



def test_moves_piped_into_a_reader_that_stops_early_prints_no_traceback(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:21]
    path = write(tmp_path, data)
    run = subprocess.Popen([sys.executable, "-m", "nmbr9", "moves", str(path), "--player", "1", "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True)
    run.stdout.close()      # like `| head`: nobody reads
    err = run.stderr.read()
    run.wait(60)
    assert "Traceback" not in err and run.returncode == 141

def test_moves_after_the_end_is_empty_and_unknown_player_is_refused(tmp_path, two_player_game):
    path = write(tmp_path, game_record(two_player_game))
    assert json.loads(nmbr9("moves", path, "--player", 0, "--json").stdout) == []
    r = nmbr9("moves", path, "--player", 5, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "wrong_turn"


def test_unknown_fields_survive_parsing():
    g = random_game(1)
    rec = parse_record({**game_record(g), "created": "2026-11-22"})
    assert rec.extra == {"created": "2026-11-22"} and replay(rec).game.scores() == g.scores()


ONE_PLAYER = {"format": "nmbr9-record", "version": 1, "ruleset": {"variant": "classic", "modules": []},
              "players": [{"name": "Ana", "kind": "human"}], "deck": list(range(10)) * 2}


def one_move(**fields):
    return json.dumps({**ONE_PLAYER, "moves": [{"round": 1, "player": 0, "digit": 0, "rotation": 0,
                                                "x": 0, "y": 0, **fields}]})


@pytest.mark.parametrize("content, says", [
    ("[" * 50000 + "]" * 50000, "nesting too deep"),
    (json.dumps({**ONE_PLAYER, "moves": []})[:-1] + ', "seed": ' + "9" * 5000 + "}", "number too long"),
    (one_move(kind="filler", piece=["F1"]), "'piece'"),
    (one_move(kind="filler", piece={"F1": 1}), "'piece'"),
    (json.dumps({**ONE_PLAYER, "version": 1.0, "moves": []}), "version"),
    (json.dumps({**ONE_PLAYER, "version": True, "moves": []}), "version"),
    (one_move(x=2 ** 40), "from -1000000000 to 1000000000"),
    (one_move(y=10 ** 30), "from -1000000000 to 1000000000"),
])
def test_hostile_records_are_bad_records_in_every_command(tmp_path, content, says):
    path = write(tmp_path, content)
    for command in (["replay", path, "--json"], ["moves", path, "--player", 0, "--json"]):
        r = nmbr9(*command)
        out = json.loads(r.stdout)
        assert r.returncode == 2 and out["error"]["code"] == "bad_record" and says in out["error"]["message"]
    for command in (["replay", path], ["analyse", path]):
        r = nmbr9(*command)
        assert r.returncode == 2 and "Traceback" not in r.stderr and says in r.stdout
        assert len(r.stdout.strip().splitlines()) == 1


def test_a_game_played_far_from_the_origin_replays_quickly_in_little_memory(tmp_path, two_player_game):
    data = game_record(two_player_game)
    for m in data["moves"]:                       # as far out as a record may go
        m["x"] += 10 ** 9 - 20
        m["y"] -= 10 ** 9 - 20
    r = nmbr9("replay", write(tmp_path, data), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["scores"] == two_player_game.scores()
    board = replay(load_record(tmp_path / "game.json")).game.boards[0]
    assert board.ids.size < 10 ** 5             # the grid spans the tiles, not the way from (0, 0)


def test_the_players_of_a_round_may_come_in_any_order(tmp_path, two_player_game):
    data = game_record(two_player_game)
    for r in range(1, 21):                        # player 1 first in every round
        a, b = 2 * r - 2, 2 * r - 1
        data["moves"][a], data["moves"][b] = data["moves"][b], data["moves"][a]
    assert [m["player"] for m in data["moves"][:4]] == [1, 0, 1, 0]
    r = nmbr9("replay", write(tmp_path, data), "--json")
    assert r.returncode == 0, r.stdout
    assert json.loads(r.stdout) == {"ok": True, "complete": True, "rounds": 20, "scores": two_player_game.scores()}


def test_a_player_moving_twice_in_a_round_is_a_wrong_turn(tmp_path, two_player_game):
    data = game_record(two_player_game)
    first = data["moves"][0]
    again = {**first, "x": first["x"] + 50}       # a second tile for the same card, far from the first
    data["moves"].insert(1, again)
    r = nmbr9("replay", write(tmp_path, data), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["error"] == {"code": "wrong_turn", "move": 1, "round": 1, "player": first["player"],
                                             "message": "It is not this player's turn to place a tile."}


def test_a_move_by_a_player_the_record_does_not_have_says_there_is_no_such_player(tmp_path, two_player_game):
    """Player 2 of a two-player record was told "It is not this player's turn to place a tile", as if there were
    a player 2 who had to wait: the record's players are what is wrong."""
    data = game_record(two_player_game)
    data["moves"][3]["player"] = 2
    r = nmbr9("replay", write(tmp_path, data), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["error"] == {"code": "wrong_turn", "move": 3, "round": 2, "player": 2,
                                             "message": "There is no player 2 (players are 0 to 1)."}
    r = nmbr9("replay", write(tmp_path, data), language="de")
    assert r.returncode == 1 and "Spieler 2" in r.stdout.splitlines()[1], r.stdout


def test_a_player_a_solo_record_does_not_have_is_told_it_has_only_player_0(tmp_path):
    """replay, moves, analyse and render said "There is no player 2 (players are 0 to 0)." of a solo record."""
    data = game_record(random_game(5, players=1))
    path = write(tmp_path, data)
    for command in (["moves", path, "--player", "2"], ["analyse", path, "--player", "2"]):
        r = nmbr9(*command)
        assert r.stdout == "There is no player 2 (the record has only player 0).\n", command
    r = nmbr9("render", path, "--out", tmp_path / "board.png", "--player", "2")
    assert r.returncode == 2 and r.stdout == "Can't render: there is no player 2 (the record has only player 0)\n"
    data["moves"][3]["player"] = 1
    r = nmbr9("replay", write(tmp_path, data), "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["message"] == \
        "There is no player 1 (the record has only player 0)."


def test_a_move_of_another_round_says_which_round_not_whose_turn(tmp_path):
    """A solo record with a round's move left out: the next move was told "It is not this player's turn",
    though it was that player's turn; the round is what is wrong. A move after the last round: the game is over."""
    game = random_game(5, players=1)
    data = game_record(game)
    skipped = {**data, "moves": data["moves"][:5] + data["moves"][6:]}
    r = nmbr9("replay", write(tmp_path, skipped), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["error"] == {"code": "wrong_turn", "move": 5, "round": 7, "player": 0,
                                             "message": "This move is for round 7, but the game is at round 6."}
    late = {**data, "moves": data["moves"] + [{**data["moves"][-1], "round": 21}]}
    r = nmbr9("replay", write(tmp_path, late), "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["message"] == "The game is already over."


def test_moves_on_an_illegal_record_exits_1_with_replay_s_verdict(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:12]
    data["moves"][11]["rotation"] = 45
    path = write(tmp_path, data)
    verdict = nmbr9("replay", path, "--json")
    r = nmbr9("moves", path, "--player", 0, "--json")
    assert r.returncode == verdict.returncode == 1
    assert json.loads(r.stdout) == json.loads(verdict.stdout)
    assert json.loads(r.stdout)["error"]["code"] == "bad_rotation"
    human = nmbr9("moves", path, "--player", 0)
    assert human.returncode == 1 and "Traceback" not in human.stderr and len(human.stdout.strip().splitlines()) <= 2


def test_a_record_read_without_levels_is_written_out_with_them(two_player_game):
    data = game_record(two_player_game)
    for m in data["moves"]:
        del m["level"]
    again = game_record(replay(parse_record(data)).game)
    assert again["moves"] == game_record(two_player_game)["moves"]   # every level written, where the tile landed


def test_seven_players_are_not_a_record():
    data = game_record(random_game(1))
    data["players"] = [{"name": str(i), "kind": "human"} for i in range(7)]
    with pytest.raises(RecordError, match="1 to 6"):
        parse_record(data)


def test_moves_for_a_player_done_with_the_last_card_says_no_card_is_left(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:-1]            # round 20: player 0 has placed, player 1 not yet
    path = write(tmp_path, data)
    assert json.loads(nmbr9("moves", path, "--player", 0, "--json").stdout) == []
    r = nmbr9("moves", path, "--player", 0)
    assert r.returncode == 0 and r.stdout.strip() == "No card left to place."
    assert nmbr9("moves", path, "--player", 1).stdout.splitlines()[0].endswith(
        f"of {data['deck'][19]}:")                # player 1 still places the last card


def test_replay_says_each_players_score_after_a_colon(tmp_path, two_player_game):
    """"Scores: Player 1 61, Player 2 57" read as numbers run together: a default name ends in one."""
    data = game_record(two_player_game)
    data["players"] = [{"name": "Player 1", "kind": "human"}, {"name": "Player 2", "kind": "human"}]
    first, second = two_player_game.scores()
    r = nmbr9("replay", write(tmp_path, data))
    assert r.returncode == 0
    assert r.stdout.strip() == f"Legal game (complete). Scores: Player 1: {first}, Player 2: {second}"


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_moves_names_the_tile_before_the_list_in_every_language(tmp_path, two_player_game, language):
    """In Polish the line over the list read "148 dozwolonych ułożeń: 5", as if 5 were what was counted, and the
    list followed without a colon. Every language says the tile, then a colon, then the placements."""
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:2]
    r = nmbr9("moves", write(tmp_path, data), "--player", 0, language=language)
    first = r.stdout.splitlines()[0]
    assert r.returncode == 0 and first.endswith(f" {data['deck'][1]}:"), first


@pytest.mark.parametrize("moves, says", [(0, "0 rounds played"), (2, "1 round played"), (4, "2 rounds played")])
def test_replay_counts_the_rounds_of_a_game_in_progress_in_words(tmp_path, two_player_game, moves, says):
    data = game_record(two_player_game)
    data["moves"] = data["moves"][:moves]
    r = nmbr9("replay", write(tmp_path, data))
    assert r.returncode == 0 and f"Legal game (in progress, {says})." in r.stdout


def test_a_name_the_terminal_cannot_show_is_escaped_not_a_traceback(tmp_path, two_player_game):
    data = game_record(two_player_game)
    data["players"][0]["name"] = "Zoë"
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}   # a terminal without ë
    r = subprocess.run([sys.executable, "-m", "nmbr9", "replay", str(write(tmp_path, data))],
                       capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert r.stdout.startswith("Legal game (complete).") and "Zo\\xeb" in r.stdout


def test_every_command_line_option_says_what_it_is_for():
    """`nmbr9 X --help` listed bare 'file', '--json', '--player PLAYER' for the record commands, whose
    meaning and exit statuses spec/game-record.md fixes."""
    import argparse
    from nmbr9.cli import build_parser
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    bare = [f"{name} {action.dest}" for name, parser in commands.items() for action in parser._actions
            if not action.help]
    assert bare == []
    for command in ("replay", "moves"):
        said = " ".join(nmbr9(command, "--help").stdout.split())
        assert "exit status: 0 legal, 1 a move breaks a rule" in said and "2 not a usable record" in said


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_at_once_by_every_command(tmp_path, two_player_game):
    """`mkfifo f.json; nmbr9 replay f.json --json` (and moves, render, analyse) waited for a writer for ever;
    so did `analyse --out` a pipe, for a reader."""
    pipe = tmp_path / "f.json"
    os.mkfifo(pipe)
    said = f"can't read {pipe}: not a file but a pipe, a device or a socket"
    for command in (["replay", pipe, "--json"], ["moves", pipe, "--player", 0, "--json"]):
        r = nmbr9(*command, timeout=30)
        assert r.returncode == 2 and json.loads(r.stdout)["error"] == {"code": "bad_record", "message": said}
    for command in (["replay", pipe], ["render", pipe, "--out", tmp_path / "a.png"], ["analyse", pipe]):
        r = nmbr9(*command, timeout=30)
        assert r.returncode == 2 and said in r.stdout and len(r.stdout.strip().splitlines()) == 1, r.stdout
    r = nmbr9("analyse", write(tmp_path, game_record(two_player_game)), "--out", pipe, "--width", 1, timeout=30)
    assert r.returncode == 2 and r.stdout == f"Can't write {pipe}: not a file but a pipe, a device or a socket\n"


def test_a_record_far_bigger_than_a_game_is_refused_unread_saying_the_limit(tmp_path, two_player_game):
    """A 34 MB record took a minute before its verdict: a record is at most 1 MB (a six-player game is under
    100 KB); here a real record padded with spaces, which JSON would accept."""
    path = write(tmp_path, game_record(two_player_game))
    with path.open("a") as f:
        f.write(" " * 2 ** 20)
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["message"] == \
        f"can't read {path}: more than 1 MB: far more than the game ever writes"


def test_replay_stops_at_the_first_illegal_move_without_reading_the_moves_after_it(tmp_path, two_player_game):
    """Every move of a record was checked for its shape before the replay began (400,000 moves took a
    minute): a record illegal at move 20 is said so, whatever the 9,000 moves after it hold."""
    data = game_record(two_player_game)
    data["moves"][20]["x"] += 40
    data["moves"] = data["moves"][:21] + [{"round": "eleven"}] * 9000
    r = nmbr9("replay", write(tmp_path, data), "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 1 and (out["error"]["code"], out["error"]["move"]) == ("not_adjacent", 20)


def test_a_long_name_is_cut_short_in_what_the_commands_print(tmp_path, two_player_game):
    """A 50 MB name made `render` and `analyse` print a 50 MB line (a record may hold a name of any length, up to
    its size limit): every command shows a name cut to 32 letters."""
    data = game_record(two_player_game)
    data["players"][0]["name"] = "N" * 500_000
    path = write(tmp_path, data)
    for command in (["replay", path], ["analyse", path, "--player", 0, "--width", 1],
                    ["render", path, "--out", tmp_path / "a.png", "--size", "64x48"]):
        r = nmbr9(*command)
        assert r.returncode == 0 and "N" * 31 + "\u2026" in r.stdout and "N" * 32 not in r.stdout, (command, r.stdout[:300])


@pytest.mark.parametrize("change, says", [
    ({"format": None}, 'format is null, expected "nmbr9-record"'),
    ({"format": {"a": 1}}, 'format is {"a": 1}, expected "nmbr9-record"'),
    ({"version": None}, "unsupported record version null (this game reads 1)"),
    ({"version": "1"}, 'unsupported record version "1" (this game reads 1)'),
    ({"ruleset": {"variant": "chess", "modules": []}}, 'unknown variant "chess"'),
    ({"ruleset": {"variant": "classic", "modules": [None]}}, "unknown module null"),
    ({"moves": [{"round": 1, "player": 0, "kind": False}]}, "move 0: unknown kind false"),
])
def test_what_a_record_holds_is_said_in_json_s_words_not_python_s(tmp_path, change, says):
    """"format is None, expected 'nmbr9-record'", "unsupported record version None", {'a': 1}: a player or a
    tool reads JSON's words (null, "a"), cut short as names are."""
    path = write(tmp_path, {**ONE_PLAYER, "moves": [], **change})
    r = nmbr9("replay", path, "--json")
    message = json.loads(r.stdout)["error"]["message"]
    assert r.returncode == 2 and says in message, message
    assert nmbr9("analyse", path).stdout == f"Not a usable game record: {message}\n"


def test_a_save_s_unknown_bot_is_said_in_json_s_words():
    from nmbr9.match import Match
    with pytest.raises(RecordError) as e:
        Match.from_record({**ONE_PLAYER, "players": [{"name": "Ana", "kind": "bot:genius"}], "moves": []})
    assert str(e.value).startswith('unknown bot strength "bot:genius" for "Ana" (known: bot:easy')


def test_an_option_a_command_cannot_use_is_said_in_plain_words(tmp_path, two_player_game):
    path = write(tmp_path, game_record(two_player_game))
    r = nmbr9("render", path, "--out", tmp_path / "a.png", "--angle", "None")
    assert r.returncode == 2 and r.stdout.startswith('Can\'t render: unknown angle "None" (one of'), r.stdout
    r = nmbr9("render", path, "--out", tmp_path / "a.png", "--size", "big")
    assert r.stdout == 'Can\'t render: size must look like 1280x720, not "big"\n'
    from nmbr9.store.tournament_cli import bot_seats
    for bots, says in (("hard,genius", 'unknown bot strength "genius" (choose from'),
                       ("hard,,easy", '--bots "hard,,easy" has an empty strength')):
        with pytest.raises(ValueError) as e:
            bot_seats(bots)
        assert str(e.value).startswith(says)
