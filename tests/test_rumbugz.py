"""RumBugz (spec/rumbugz.md): crafted records reach every code, a whole round scores, the commands answer as the
spec says, and random and bot rounds keep every bug and replay legal."""
from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from nmbr9.rumbugz.bots import STRENGTHS, make_bot
from nmbr9.rumbugz.play import new_round, play_round, reshuffle
from nmbr9.rumbugz.rules import (CODES, Round, default_set, legal_moves, parse_record, read_sequence, replay,
                                 set_of_bugs)
from nmbr9.rumbugz.rules.bugs import laid_value

ROOT = Path(__file__).resolve().parent.parent


def rumbugz(*args, language="en"):
    return subprocess.run([sys.executable, "-m", "nmbr9", "rumbugz", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, "LANGUAGE": language})


def record(hands, draws=(), moves=(), first=0, bugs=None):
    """A record whose deal gives each player `hands[p]` and whose bag then gives `draws`, in that order."""
    players = len(hands)
    bugs = bugs or default_set(players)
    order = [b for i in range(players) for b in hands[(first + i) % players]] + list(draws)
    rest = Counter(set_of_bugs(bugs["copies"], bugs["plyt"])) - Counter(order)
    return {"format": "rumbugz-record", "version": 1, "set": bugs,
            "players": [{"name": f"P{i}", "kind": "human"} for i in range(players)], "first": first,
            "bag": order + sorted(rest.elements(), key=lambda b: (b == "P", b)), "moves": list(moves)}


def outcome(rec) -> dict:
    return replay(parse_record(json.loads(json.dumps(rec)))).to_json()


def bag(p):
    return {"player": p, "draw": "bag"}


def lay(p, *bugs):
    return {"player": p, "lay": list(bugs)}


def change(p, index, *bugs):
    return {"player": p, "change": index, "to": list(bugs)}


def discard(p, bug):
    return {"player": p, "discard": bug}


# A whole round: player 0 lays single, double, triple and match in four turns, then lays off 5 and 6 on the
# single and goes out discarding 7; player 1 (1 1 11 11 10 P in hand) pays 1+1+11+11+10+13.
HAND_0 = ["1", "2", "3", "4", "5", "6"]
HAND_1 = ["1", "1", "11", "11", "10", "P"]
DRAWS = ["7", "8", "10", "12", "9", "12", "4", "3", "6", "9", "P", "11", "5", "9", "9", "5", "6", "12", "7"]
ROUND = [bag(0), lay(0, "1", "2", "3", "4"), discard(0, "7"), bag(0), bag(0), bag(0), bag(0),
         bag(1), discard(1, "12"),
         bag(0), lay(0, "4", "6", "8", "10"), discard(0, "5"), bag(0), bag(0), bag(0), bag(0),
         bag(1), discard(1, "11"),
         bag(0), lay(0, "3", "6", "9", "12"), discard(0, "5"), bag(0), bag(0), bag(0), bag(0),
         bag(1), discard(1, "12"),
         bag(0), lay(0, "9", "9", "9", "P9"), change(0, 0, "1", "2", "3", "4", "5"),
         change(0, 0, "1", "2", "3", "4", "5", "6"), discard(0, "7")]


def whole_round(moves=ROUND):
    return record([HAND_0, HAND_1], DRAWS, moves)


def test_a_whole_round_goes_out_and_scores_the_other_hands_a_plyt_13(tmp_path):
    assert outcome(whole_round()) == {"ok": True, "complete": True, "winner": 0, "scores": [47, 0],
                                      "hands": [0, 6]}
    path = tmp_path / "round.json"
    path.write_text(json.dumps(whole_round()))
    r = rumbugz("replay", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["scores"] == [47, 0]
    r = rumbugz("replay", path)
    assert r.returncode == 0 and "P0 went out and wins 47 points" in r.stdout
    # part way: no winner yet, and the replacement draws are owed before the other player may draw
    part = whole_round(ROUND[:5])
    assert outcome(part) == {"ok": True, "complete": False, "winner": None, "scores": [0, 0], "hands": [4, 6]}
    assert outcome(whole_round(ROUND[:5] + [bag(1)]))["error"]["code"] == "wrong_turn"


def test_the_last_bug_laid_off_goes_out_with_no_discard():
    moves = ROUND[:-1] + [change(0, 0, "1", "2", "3", "4", "5", "6", "7")]
    assert outcome(whole_round(moves))["winner"] == 0
    assert outcome(whole_round(moves + [discard(0, "7")]))["error"]["code"] == "wrong_turn"


def code_of(rec) -> tuple[str, int]:
    out = outcome(rec)
    assert not out["ok"], out
    return out["error"]["code"], out["error"]["move"]


# (what, the moves after the deal of whole_round(), the code, the move it names)
REFUSALS = [
    ("the second player draws first", [bag(1)], "wrong_turn", 0),
    ("discard before the draw", [discard(0, "1")], "wrong_turn", 0),
    ("a second draw", [bag(0), bag(0)], "wrong_turn", 1),
    ("lay a bug not held", [bag(0), lay(0, "9", "10", "11", "12")], "not_in_hand", 1),
    ("discard a bug not held", [bag(0), discard(0, "12")], "not_in_hand", 1),
    ("a run with a gap", [bag(0), lay(0, "1", "2", "4", "5")], "bad_sequence", 1),
    ("three bugs", [bag(0), lay(0, "1", "2", "3")], "bad_sequence", 1),
    ("a PLYT standing for no number", [bag(0), lay(0, "1", "2", "3", "P")], "bad_sequence", 1),
    ("a change before laying", [bag(0), change(0, 0, "1", "2", "3", "4")], "cannot_change", 1),
    ("the first turn takes the empty pile", [{"player": 0, "draw": "discard"}], "empty_discard", 0),
    ("a bid with two players", [bag(0), discard(0, "7"), {"player": 1, "bid": True}], "bad_bid", 2),
    ("lay the whole hand before the four kinds", [bag(0), lay(0, "1", "2", "3", "4", "5", "6", "7")],
     "no_discard", 1),
    ("a reshuffle not called for", [{"reshuffle": []}], "wrong_turn", 0),
    ("an end not called for", [{"end": "no_winner"}], "wrong_turn", 0),
]


@pytest.mark.parametrize("what, moves, code, move", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_crafted_record_is_refused_with_the_specs_code(what, moves, code, move):
    assert code_of(whole_round(moves)) == (code, move)


def test_kind_taken_a_second_single_and_a_second_lay_in_a_turn():
    # turn 5: player 0 holds 12 9 3 6 9 P and draws 5: a second single with its PLYT
    assert code_of(whole_round(ROUND[:18] + [bag(0), lay(0, "3", "P4", "5", "6")])) == ("kind_taken", 19)
    # a bid's two bugs give player 2 nine after the draw: a single, and a triple in the same turn
    moves = [bag(0), discard(0, "12"), {"player": 2, "bid": True}, {"player": 2, "draw": "discard"}, bag(2),
             bag(1), discard(1, "10"), bag(2), lay(2, "1", "2", "3", "4")]
    rec = three_players(moves, draws=("12", "9", "10", "3"))
    assert outcome(rec)["ok"]
    assert code_of({**rec, "moves": moves + [lay(2, "3", "6", "9", "12")]}) == ("kind_taken", 9)


def test_changes_keep_the_kind_add_and_take_at_the_ends_and_give_back_a_plyt():
    # after the triple of turn 5, player 0 holds 9 P 5 (before its discard); table: 0 single 1-4,
    # 1 double 4 6 8 10, 2 triple 3 6 9 12
    at = ROUND[:20]
    r = replay(parse_record(whole_round(at)))
    assert r.ok and +r.game.hands[0] == Counter({"9": 1, "P": 1, "5": 1})
    for to, code in ((["1", "2", "3", "4", "5"], None),                    # added at the top end
                     (["P0", "1", "2", "3", "4"], "bad_sequence"),          # a PLYT for 0
                     (["2", "3", "4", "5"], None),                          # 1 taken off, 5 added
                     (["1", "3", "5", "7"], "cannot_change"),               # another kind
                     (["1", "2", "3", "4"], "cannot_change"),               # nothing changes
                     (["1", "2", "P3", "4"], "cannot_change"),              # a number out of the middle
                     (["P5", "P6", "P7", "P8"], "not_in_hand"),             # moved along: one PLYT only
                     (["P6", "P7", "P8", "P9"], "cannot_change"),           # moved away
                     (["1", "2", "3", "4", "5", "6"], "not_in_hand")):      # no 6 in hand
        got = outcome(whole_round(at + [change(0, 0, *to)]))
        assert (got["ok"] if code is None else got["error"]["code"] == code), (to, got)
    assert outcome(whole_round(at + [change(0, 1, "4", "6", "8", "10", "P12")]))["ok"]
    # a PLYT given back for its number goes to the hand, and may be used at once
    with_plyt = at + [change(0, 1, "4", "6", "8", "10", "P12"), change(0, 1, "4", "6", "8", "10", "P12", "P14")]
    assert code_of(whole_round(with_plyt)) == ("bad_sequence", 21)
    back = at + [change(0, 2, "3", "6", "9", "12", "P15")]
    assert code_of(whole_round(back))[0] == "bad_sequence"
    # leaving no bug to discard before the four kinds: 5 6 7 laid off the first turn's single
    emptied = [bag(0), lay(0, "1", "2", "3", "4"), change(0, 0, "1", "2", "3", "4", "5", "6", "7")]
    assert code_of(whole_round(emptied)) == ("no_discard", 2)
    assert outcome(whole_round(emptied[:2] + [change(0, 0, "1", "2", "3", "4", "5", "6")]))["ok"]


def test_a_plyt_on_the_table_is_given_back_for_its_number():
    # player 1 lays 10 11 P12 ... : build it on player 1's first turn instead
    hands = [HAND_0, ["9", "10", "11", "P", "12", "12"]]
    moves = [bag(0), discard(0, "7"), bag(1), lay(1, "9", "10", "11", "P12"), discard(1, "12"),
             bag(1), bag(1), bag(1), bag(1), bag(0), lay(0, "1", "2", "3", "4"), discard(0, "6"),
             bag(0), bag(0), bag(0), bag(0), bag(1), change(1, 0, "9", "10", "11", "12")]
    rec = record(hands, ["7", "1", "1", "1", "2", "2", "8", "3", "3", "5", "5", "4"], moves)
    r = replay(parse_record(rec))
    assert r.ok, r.error
    assert r.game.table[0].bugs == ("9", "10", "11", "12") and r.game.hands[1]["P"] == 1


def three_players(moves, bugs=None, draws=("12",)):
    hands = [["1", "2", "3", "4", "5", "6"], ["7", "8", "9", "10", "11", "12"], ["1", "2", "3", "4", "5", "6"]]
    return record(hands, draws, moves, bugs=bugs)


def test_bidding_the_first_bidder_after_the_next_player_takes_the_discard_and_a_bag_bug():
    start = [bag(0), discard(0, "12")]
    bid = {"player": 2, "bid": True}
    for extra, code in (([{"player": 1, "bid": True}], "bad_bid"),           # the next player
                        ([{"player": 0, "bid": True}], "bad_bid"),           # the one who discarded
                        ([bid, bid], "bad_bid"),                             # twice
                        ([bid, bag(1)], "wrong_turn"),                       # the bidder takes it first
                        ([bid, {"player": 2, "draw": "discard"}, bag(2), {"player": 1, "draw": "discard"}],
                         "empty_discard")):                                  # the bidder took it
        assert code_of(three_players(start + extra))[0] == code, extra
    assert code_of(three_players([bid]))[0] == "bad_bid"                     # no discard yet
    # after a bid the next player draws from the bag, though the pile still has a bug
    second = start + [bag(1), discard(1, "10"), {"player": 0, "bid": True}, {"player": 0, "draw": "discard"},
                      bag(0)]
    rec = three_players(second, draws=("12", "10", "5"))
    assert outcome(rec)["hands"] == [8, 6, 6]
    assert code_of({**rec, "moves": second + [{"player": 2, "draw": "discard"}]}) == ("wrong_turn", 7)
    taken = start + [bid, {"player": 2, "draw": "discard"}, bag(2), bag(1)]
    got = outcome(three_players(taken))
    assert got["ok"] and got["hands"] == [6, 7, 8]
    # the next player may take it anyway: the bid comes to nothing
    got = outcome(three_players(start + [bid, {"player": 1, "draw": "discard"}]))
    assert got["ok"] and got["hands"] == [6, 7, 6]


def test_the_bag_runs_out_the_pile_is_reshuffled_in_and_a_turn_that_cannot_draw_ends_the_round():
    small = {"copies": 2, "plyt": 0}      # 24 bugs: 12 in the bag after the deal
    hands = [["1", "2", "3", "4", "5", "6"], ["7", "8", "9", "10", "11", "12"]]
    rest = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
    moves = []
    for i, bug in enumerate(rest):        # each turn draws a bug from the bag and discards it
        moves += [bag(i % 2), discard(i % 2, bug)]
    base = record(hands, rest, moves, bugs=small)
    assert outcome(base)["ok"]
    assert code_of({**base, "moves": moves + [bag(0)]}) == ("wrong_turn", 24)      # no reshuffle made
    assert code_of({**base, "moves": moves + [{"reshuffle": rest}]}) == ("wrong_turn", 24)   # the top too
    again = moves + [{"reshuffle": rest[::-1][1:]}, bag(0)]
    assert outcome({**base, "moves": again})["hands"] == [7, 6]
    # six players and a set of 37: the one bug left in the bag is drawn, the discard goes to a bidder, and the
    # next player can draw nothing
    tiny = {"copies": 3, "plyt": 1}
    six = [[str(n) for n in range(1 + i * 2, 3 + i * 2)] * 3 for i in range(6)]
    moves = [bag(0), discard(0, "P"), {"player": 2, "bid": True}, {"player": 2, "draw": "discard"}]
    rec = record(six, ["P"], moves, bugs=tiny)
    got = outcome(rec)
    assert got["ok"] and not got["complete"] and got["hands"] == [6, 6, 7, 6, 6, 6]
    assert code_of({**rec, "moves": moves + [bag(1)]})[0] == "wrong_turn"
    assert code_of({**rec, "moves": moves + [{"player": 1, "draw": "discard"}]})[0] == "empty_discard"
    ended = outcome({**rec, "moves": moves + [{"end": "no_winner"}]})
    assert ended == {"ok": True, "complete": True, "winner": None, "scores": [0] * 6, "hands": [6, 6, 7, 6, 6, 6]}


def test_every_spec_code_is_reached_by_a_crafted_record():
    reached = {code for _, _, code, _ in REFUSALS} | {"kind_taken"}
    assert reached == set(CODES)


@pytest.mark.parametrize("change_, why", [
    (lambda r: r.update(version=2), "version"),
    (lambda r: r.update(bag=r["bag"][1:]), "'bag' must hold every bug"),
    (lambda r: r.update(first=2), "'first'"),
    (lambda r: r.update(set={"copies": 1, "plyt": 4}), "'set'"),
    (lambda r: r["moves"].append({"player": 0, "draw": "hand"}), "'draw'"),
    (lambda r: r["moves"].append({"player": 0, "lay": ["1"], "discard": "1"}), "exactly one"),
    (lambda r: r["moves"].append({"reshuffle": [], "player": 0}), "has no 'player'"),
])
def test_an_unusable_record_exits_2_with_bad_record(tmp_path, change_, why):
    rec = whole_round([])
    change_(rec)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    r = rumbugz("replay", path, "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 2 and out["error"]["code"] == "bad_record" and why in out["error"]["message"]


def test_illegal_record_on_the_command_line_exits_1_and_says_the_rule_in_the_players_language(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(whole_round([bag(0), lay(0, "1", "2", "4", "5")])))
    r = rumbugz("replay", path, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"] == {
        "code": "bad_sequence", "move": 1, "player": 0,
        "message": "Not a sequence: the bugs must go up by 1, 2 or 3 each, or all be the same number."}
    r = rumbugz("replay", path, language="de")
    assert r.returncode == 1 and "bad_sequence" in r.stdout and "Not a sequence" not in r.stdout


def test_the_sequence_command():
    r = rumbugz("sequence", "3", "6", "9", "P12", "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "kind": "triple", "values": [3, 6, 9, 12]}
    for bugs in (["3", "6", "9"], ["12", "P13", "14", "15"], ["3", "4", "6", "7"], ["P", "P", "P", "P"]):
        r = rumbugz("sequence", *bugs, "--json")
        out = json.loads(r.stdout)
        assert r.returncode == 1 and out["ok"] is False and out["message"], bugs
    assert rumbugz("sequence", "P5", "P5", "P5", "P5").stdout.strip() == "A match sequence: 5 5 5 5"
    # what is not a bug is said as JSON writes it, not as Python does ('x')
    assert json.loads(rumbugz("sequence", "3", "x", "5", "6", "--json").stdout)["message"].startswith('"x" is not a bug')


def test_moves_lists_what_the_player_may_do_and_each_replays(tmp_path):
    moves = ROUND[:19]       # player 0 has drawn in turn 5: lays, changes, discards
    path = tmp_path / "r.json"
    path.write_text(json.dumps(whole_round(moves)))
    listed = json.loads(rumbugz("moves", path, "--player", 0, "--json").stdout)
    assert {"player": 0, "lay": ["3", "6", "9", "12"]} in listed
    assert {"player": 0, "change": 1, "to": ["4", "6", "8", "10", "12"]} in listed
    assert {m.get("discard") for m in listed} >= {"12", "9", "3", "6", "P"}
    for move in listed:
        assert outcome(whole_round(moves + [move]))["ok"], move
    assert json.loads(rumbugz("moves", path, "--player", 1, "--json").stdout) == []
    r = rumbugz("moves", path, "--player", 2, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "wrong_turn"


# ----- properties ----------------------------------------------------------------------------------------------

TOKENS = [str(n) for n in range(0, 15)] + [f"P{n}" for n in range(0, 15)] + ["P", "x", "07"]


@given(st.lists(st.sampled_from(TOKENS), max_size=9))
def test_any_sequence_accepted_is_one_of_the_four_kinds_with_every_plyt_a_number(tokens):
    kind, values, verdict = read_sequence(tokens)
    if verdict:
        assert len(values) >= 4 and all(1 <= v <= 12 for v in values)
        steps = {b - a for a, b in zip(values, values[1:])}
        assert len(steps) == 1 and {"single": 1, "double": 2, "triple": 3, "match": 0}[kind] in steps
        assert [laid_value(t)[1] for t in tokens] == values
    else:
        assert verdict.code == "bad_sequence" and verdict.message


@given(st.sampled_from([1, 2, 3, 0]), st.integers(1, 12), st.integers(4, 12), st.integers(0, 2 ** 12))
def test_every_run_of_a_kind_is_accepted_whatever_stands_as_plyt(step, start, length, plyts):
    values = [start + step * i for i in range(length)]
    if values[-1] > 12:
        return
    tokens = [f"P{v}" if plyts >> i & 1 else str(v) for i, v in enumerate(values)]
    kind, got, verdict = read_sequence(tokens)
    assert verdict and got == values and kind == {1: "single", 2: "double", 3: "triple", 0: "match"}[step]


def all_bugs(game: Round) -> Counter:
    out = Counter(game.bag) + Counter(game.pile)
    for hand in game.hands:
        out += hand
    for laid in game.table:
        out.update(laid_value(t)[0] for t in laid.bugs)
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 4))
def test_random_rounds_never_make_or_lose_a_bug_and_views_show_no_other_hand(seed, players):
    rng = random.Random(seed)
    game, bugs = new_round(players, rng)
    whole = Counter(set_of_bugs(bugs["copies"], bugs["plyt"]))
    for step in range(250):
        if game.over:
            break
        mover = game.bidder if game.bidder is not None else game.turn
        options = [m for p in range(players) for m in legal_moves(game.view(p)) if p != mover or "bid" not in m]
        options = [m for m in options if "bid" in m or m["player"] == mover] or options
        move = rng.choice(options)
        if move.get("draw") == "bag" and game.bag_size == 0:
            reshuffle(game, rng)
        assert game.apply(move), move
        assert all_bugs(game) == whole
        for p in range(players):
            view = game.view(p).to_json()
            assert Counter(view["hand"]) == game.hands[p] and view["bag"] == len(game.bag)
            assert view["hands"] == [sum(h.values()) for h in game.hands]
            assert set(view) == {"player", "hand", "table", "pile", "bag", "hands", "turn", "step", "kinds",
                                 "bids", "winner", "taken", "set"}
            if step % 10:
                continue
            # the others' hands and the bag's order are not in it: changing them changes nothing
            other = copy.deepcopy(game)
            q = (p + 1) % players
            if other.hands[q] and other.bag:
                bug = next(iter(other.hands[q]))
                other.hands[q][bug] -= 1
                other.hands[q][other.bag[0]] += 1
                other.bag[0] = bug
                other.bag.reverse()
            assert other.view(p).to_json() == view


# ----- bots ----------------------------------------------------------------------------------------------------

def test_bot_rounds_replay_legal_from_their_records():
    """Bots of every strength, 2 to 4 players, a few hundred rounds: each record replays legal to the same end."""
    rounds = 0
    for seed in range(200):
        players = 2 + seed % 3
        levels = [STRENGTHS[(seed + i) % 2] if seed % 8 else STRENGTHS[(seed + i) % 3] for i in range(players)]
        played = play_round([make_bot(level, seed * 10 + i) for i, level in enumerate(levels)],
                            [{"name": f"Bot {i + 1}", "kind": f"bot:{lv}"} for i, lv in enumerate(levels)],
                            random.Random(seed))
        again = replay(parse_record(json.loads(json.dumps(played.record))))
        assert again.ok, (seed, again.error)
        assert again.to_json()["winner"] == played.round.winner and again.game.scores() == played.round.scores()
        rounds += 1
    assert rounds == 200


def test_bots_are_deterministic_for_a_seed_and_see_only_their_view():
    def play(seed):
        return play_round([make_bot("hard", seed), make_bot("medium", seed + 1), make_bot("easy", seed + 2)],
                          [{"name": "a", "kind": "bot:hard"}] * 3, random.Random(seed)).record
    assert play(5) == play(5) and play(5) != play(6)
    game, _ = new_round(2, random.Random(3))
    game.apply({"player": game.turn, "draw": "bag"})
    view = game.view(game.turn)
    with pytest.raises(ValueError):
        view.hand(1 - game.turn)
    move = make_bot("hard", 1).act(view)
    other = copy.deepcopy(game)     # the other hand and the bag shuffled: the same move
    other.bag.reverse()
    assert make_bot("hard", 1).act(other.view(game.turn)) == move and game.check(move)


def test_play_prints_each_rounds_winner_and_the_totals_and_writes_records_that_replay(tmp_path):
    r = rumbugz("play", "--bots", "hard,easy,medium", "--rounds", "3", "--seed", "1", "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["Round 1", "Round 2", "Round 3"]
    assert lines[3].startswith("Totals: Bot 1 (hard): ") and "Bot 2 (easy)" in lines[3]
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for f in files:
        assert json.loads(rumbugz("replay", f, "--json").stdout)["ok"]
    assert rumbugz("play", "--bots", "hard", "--out", tmp_path).returncode == 2


def test_bench_prints_win_rates_with_intervals_and_every_record_replays():
    r = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "rumbugz", "--players", "3", "--bots",
                        "hard,medium,easy", "--games", "3", "--seed", "1"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "records replayed legal: 3/3" in r.stdout
    for level in ("hard", "medium", "easy"):
        assert any(line.split()[:1] == [level] and "%" in line for line in r.stdout.splitlines()), r.stdout
    assert "turns per round" in r.stdout and "rounds/s" in r.stdout and "3/3 rounds" in r.stderr
