"""NMBR 9 ++ variants "2 of 3" and "Level to Level": every forced case, activation, level cap,
the 4-player supply with skipped rounds, the end, records; combined with the modules."""
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nmbr9.rules import Board, Game, Placement, Ruleset, Seat
from nmbr9.rules.board import HIGHEST_LEVEL
from nmbr9.rules.game import MODULES, POWERS, new_deck
from nmbr9.rules.record import game_record, parse_record, replay, RecordError

from test_rules_modules import BLOCK, assert_sound, deck_from, nmbr9, play_out, play_turn

CLASSIC, TWO, L2L = "classic", "two_of_three", "level_to_level"


def game(variant, first=(), players=1, modules=(), powers=()):
    return Game([Seat(f"P{i}") for i in range(players)], deck_from(list(first), variant),
                Ruleset(variant, tuple(modules), tuple(powers)))


def place_anywhere(g, player, level=0):
    """Place the turn's tile at the first legal spot on `level` (or any level if none)."""
    options = g.legal_placements(player)
    on_level = [p for p in options if p.level == level] or options
    v = g.play(player, on_level[0])
    assert v, v


# ----- "2 of 3" ------------------------------------------------------------------------

def test_two_of_three_has_30_cards_10_rounds_and_turns_the_round_s_cards_one_at_a_time():
    assert Counter(new_deck(random.Random(2), TWO)) == {d: 3 for d in range(10)}
    g = Game.new([Seat("A"), Seat("B")], Ruleset(TWO), random.Random(4))
    assert g.rounds == 10 and len(g.deck) == 30
    d = g.deck
    assert g.options(0).cards == (d[0], None, None) and g.card == d[0] and g.options(0).step == "decide"
    for player in (0, 1):
        assert g.decide(player, True)
        assert g.options(player).step == "place"
        place_anywhere(g, player)
    assert (g.round, g.slot) == (1, 1) and g.options(0).cards == (d[0], d[1], None) and g.card == d[1]
    assert g.supply() == sorted(d[2:]) and g.seen() == d[:2]


def test_rejecting_the_first_forces_building_the_second_and_third():
    g = game(TWO, [9, 9, 1])
    assert g.reject(0) and g.moves[-1].kind == "reject"
    o = g.options(0)
    assert o.slot == 1 and o.can_build and not o.can_reject
    assert g.reject(0).code == "must_build"
    v = g.decide(0, False)
    assert v.code == "must_build" and "build this one" in v.message
    place_anywhere(g, 0)
    assert g.options(0).slot == 2 and g.reject(0).code == "must_build"
    place_anywhere(g, 0)
    assert g.round == 2 and g.options(0).decisions == ()


def test_building_the_first_and_rejecting_the_second_forces_the_third():
    g = game(TWO, [9, 9, 1])
    place_anywhere(g, 0)                               # placing without deciding first is a build
    assert g.options(0).decisions == (True,) and g.options(0).can_reject
    assert g.reject(0)
    o = g.options(0)
    assert o.decisions == (True, False) and not o.can_reject and o.can_build
    assert g.reject(0).code == "must_build"
    place_anywhere(g, 0)
    assert g.round == 2


def test_building_the_first_two_forces_rejecting_the_third_by_itself():
    g = game(TWO, [9, 9, 1], players=2)
    for _ in range(2):
        for player in (0, 1):
            place_anywhere(g, player)
    # the third card: both players have built two, so it is rejected for them, no click needed
    assert (g.round, g.slot) == (2, 0) and g.options(0).decisions == ()
    assert [m.kind for m in g.moves] == ["place"] * 4  # forced rejects are not recorded
    g = game(TWO, [9, 9, 1], players=2)
    for player in (0, 1):
        place_anywhere(g, player)
    place_anywhere(g, 0)
    assert g.reject(1)                                 # player 1 still decides on the third card
    o = g.options(0)
    assert o.slot == 2 and o.step == "done" and o.decisions == (True, True, False)
    assert g.check(0, Placement(1, 0, 30, 30)).code == "wrong_turn"
    assert g.options(1).step == "decide" and g.decide(1, True)


def test_must_reject_is_refused_when_two_were_built_in_a_turn_still_open():
    # with gap fillers the forced third card still leaves the turn open for fillers
    g = game(TWO, [9, 9, 1], modules=("gap_fillers",))
    for _ in range(2):
        place_anywhere(g, 0)
        assert g.end_turn(0)
    o = g.options(0)
    assert o.slot == 2 and o.step == "extras" and o.decisions == (True, True, False)
    assert g.check(0, Placement(1, 0, 30, 30)).code == "must_reject"
    assert g.decide(0, True).code == "wrong_turn"
    assert g.end_turn(0) and g.round == 2


def test_decide_first_then_place_and_no_second_decision():
    g = game(TWO, [9, 9, 1])
    assert g.decide(0, True) and g.options(0).step == "place" and not g.options(0).can_reject
    assert g.reject(0).code == "wrong_turn"
    assert [m.kind for m in g.moves] == []             # the build decision is recorded by the placement
    place_anywhere(g, 0)
    assert g.slot == 1 and g.options(0).step == "decide" and g.options(0).decisions == (True,)


def test_two_of_three_with_breaking_rules_keeps_the_reject_marker_apart():
    g = game(TWO, [9, 9, 1, 5, 1, 1], modules=("breaking_rules",), powers=("single_support", "flip"))
    for p in BLOCK:
        assert g.play(0, Placement(*p))
    assert g.round == 2 and g.reject(0)                # round 2: the reject marker on the 5 ...
    assert g.play(0, Placement(1, 0, 0, 0), powers=("single_support",))     # ... a power marker on a 1
    assert g.boards[0].tiles[-1].level == 1
    flipped = [p for p in g.legal_placements(0, powers=("flip",)) if p.level == 0]
    assert g.play(0, flipped[0])                       # ... and the other one on the last 1
    o = g.options(0)
    assert g.round == 3 and o.markers_left == 0 and g.players[0].powers_used == ["single_support", "flip"]
    assert [m.kind for m in g.moves if m.round == 2] == ["reject", "place", "place"]


@pytest.mark.parametrize("seed, players, modules", [(5, 4, MODULES), (6, 2, ())])
def test_two_of_three_games_build_exactly_two_of_three_and_replay(seed, players, modules):
    rs = Ruleset(TWO, modules, POWERS if modules else ())
    g = play_out(Game.new([Seat(f"P{i}") for i in range(players)], rs, random.Random(seed)), seed)
    assert g.over and g.rounds_played == 10
    assert_sound(g)
    for player in range(players):
        for r in range(1, 11):
            built = [m for m in g.moves if m.player == player and m.round == r
                     and (m.kind == "reserve" or (m.kind == "place" and not m.reserved))]
            assert len(built) == 2 and len({m.slot for m in built}) == 2, (player, r)
    data = json.loads(json.dumps(game_record(g)))
    assert all("slot" in m for m in data["moves"])
    again = replay(parse_record(data))
    assert again.ok and again.game.scores() == g.scores() and again.game.over


def test_variants_take_at_most_four_players():
    with pytest.raises(ValueError):
        Game.new([Seat(str(i)) for i in range(5)], Ruleset(TWO), random.Random(1))
    with pytest.raises(ValueError):
        Game.new([Seat(str(i)) for i in range(5)], Ruleset(L2L), random.Random(1))
    assert Game.new([Seat(str(i)) for i in range(6)], Ruleset(modules=MODULES), random.Random(1)).options(5)
    data = game_record(Game.new([Seat("A")], Ruleset(TWO), random.Random(1)))
    data["players"] = [{"name": str(i), "kind": "human"} for i in range(5)]
    with pytest.raises(RecordError, match="1 to 4"):
        parse_record(data)


def test_a_two_of_three_move_needs_its_slot(tmp_path):
    g = game(TWO, [9, 9, 1])
    place_anywhere(g, 0)
    data = game_record(g)
    assert data["moves"][0]["slot"] == 0
    del data["moves"][0]["slot"]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 2 and "slot" in json.loads(r.stdout)["error"]["message"]
    data["moves"][0]["slot"] = 1                       # the wrong card of the round
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "wrong_turn"


# ----- "Level to Level" --------------------------------------------------------------

def test_level_to_level_has_40_cards_and_one_marker_in_rounds_1_and_2():
    assert Counter(new_deck(random.Random(2), L2L)) == {d: 4 for d in range(10)}
    g = game(L2L, [9, 9, 2, 1])
    assert g.rounds is None and g.active == 1 and g.shown == {0: 9}
    o = g.options(0)
    assert o.step == "place" and o.marker == 0 and o.max_level == 0 and o.digit == 9
    assert g.play(0, Placement(*BLOCK[0]))
    assert g.shown == {0: 9} and g.active == 1
    assert g.play(0, Placement(*BLOCK[1]))
    assert g.round == 3 and g.active == 2 and g.shown == {0: 2, 1: 1}   # two tiles on level 0
    assert g.piles[0] == [9, 9, 2] and g.piles[1] == [1]


def test_level_cap_tile_under_marker_k_only_up_to_level_k():
    g = game(L2L, [9, 9, 2, 1])
    for p in BLOCK:
        assert g.play(0, Placement(*p))
    o = g.options(0)
    assert o.step == "choose" and o.choices == {0: 2, 1: 1}
    assert g.play(0, Placement(2, 0, 5, 0)).code == "choose_first"
    assert g.legal_placements(0, marker=0) and all(p.level == 0 for p in g.legal_placements(0, marker=0))
    assert any(p.level == 1 for p in g.legal_placements(0, marker=1))
    assert g.choose(0, 3).code == "not_shown"
    assert g.choose(0, 0)
    assert g.choose(0, 1).code == "already_chosen"     # once chosen, it must be built
    high = Placement(2, 0, 1, 0)                       # lands on level 1
    v = g.check(0, high)
    assert v.code == "level_cap" and v.level == 1 and v.message == "A tile from under marker 0 may only be built on level 0."
    assert g.options(0).max_level == 0
    assert g.play(0, Placement(2, 0, 5, 0)) and g.moves[-1].marker == 0


def test_nobody_builds_on_level_5():
    tower = Board()
    for level in range(5):
        tower.place(Placement("F1", 0, 0, 0, level))   # fillers stack on one square
    v = tower.verdict(Placement("F1", 0, 0, 0), max_level=HIGHEST_LEVEL)
    assert v.code == "level_cap" and v.level == 5 and v.message == "Nobody builds on level 5."
    assert tower.verdict(Placement("F1", 0, 0, 0)).ok  # outside "Level to Level" there is no cap
    assert all(p.level <= 4 for p in tower.legal_placements("F2", max_level=HIGHEST_LEVEL))
    g = game(L2L, [9], modules=("gap_fillers",))
    g.boards[0] = tower                                # a table already four levels high
    assert g.check(0, Placement("F1", 0, 0, 0)).code == "level_cap"
    assert all(p.level <= 4 for p in g.legal_placements(0, piece="F1"))


def test_a_marker_activates_the_round_after_someone_has_two_tiles_on_the_highest_active_level():
    g = game(L2L, [9, 9, 2, 1, 2, 1], players=2)
    for p in BLOCK:
        for player in (0, 1):
            assert g.play(player, Placement(*p))
    assert g.round == 3 and g.active == 2
    for player, choice in ((0, 1), (1, 0)):
        assert g.choose(player, choice)
    assert g.play(0, Placement(1, 90, 1, 0)) and g.boards[0].tiles[-1].level == 1
    assert g.play(1, Placement(2, 0, 5, 0))
    assert g.round == 4 and g.active == 2 and g.shown == {0: 2, 1: 1}   # one tile on level 1: not yet
    assert g.choose(0, 1) and g.play(0, Placement(1, 90, 1, 2)) and g.boards[0].tiles[-1].level == 1
    assert g.choose(1, 0) and g.play(1, Placement(2, 0, 8, 0))
    assert g.round == 5 and g.active == 3 and len(g.shown) == 3          # player 0 has two on level 1


def test_activation_follows_the_rule_in_whole_games():
    for seed in range(6):
        g = Game.new([Seat("A"), Seat("B")], Ruleset(L2L), random.Random(seed))
        rng = random.Random(seed)
        while not g.over:
            before = g.active
            r = g.round
            while g.round == r and not g.over:
                for player in g.waiting():
                    play_turn(g, player, rng, upward=1.0)
            if not g.over:
                due = before + (1 if r + 1 >= 3 and before < 5 and
                                any(sum(1 for t in b.tiles if t.level == before - 1) >= 2 for b in g.boards)
                                else 0)
                assert g.active == due, (seed, r)


def test_the_game_ends_after_the_round_the_deck_runs_out_or_cannot_fill_every_marker():
    """The printed rule: the game ends *after* the round in which the deck runs out or can no longer fill every
    active marker. That last round is played with the cards left (from the left; the markers left empty offer
    nothing): the game used to end before it, those cards never played."""
    partial = exact = 0
    for seed in range(12):
        g = Game.new([Seat("A"), Seat("B")], Ruleset(L2L), random.Random(seed))
        rng, rounds = random.Random(seed), []
        while not g.over:
            rounds.append((tuple(g.shown), g.active, g.is_last_step()))
            r = g.round
            while g.round == r and not g.over:
                for player in g.waiting():
                    play_turn(g, player, rng, upward=1.0)
        *full, (last, active, said) = rounds
        assert all(markers == tuple(range(n)) and not was_last for markers, n, was_last in full)
        assert said and last == tuple(range(len(last))) and 1 <= len(last) <= active
        assert g.drawn == 40 and g.rounds_played == len(rounds)   # every card was played
        partial += len(last) < active
        exact += len(last) == active
    assert partial and exact


def _highest(g, player):
    """Take the tile of the highest marker shown and lay it as high as it goes."""
    if g.options(player).step == "choose":
        assert g.choose(player, max(g.options(player).choices))
    spots = g.legal_placements(player)
    assert g.play(player, max(spots, key=lambda p: p.level))


def test_level_to_level_s_last_round_with_too_few_cards_is_played_and_replays(tmp_path):
    """Seed 4: the last round has two cards for three active markers. It is played (replay answered
    "wrong_turn: The game is already over." for its moves), and it is Reserve's last turn: a tile set aside
    in the round before must be built in it, and none can be set aside in it."""
    g = Game.new([Seat("A"), Seat("B")], Ruleset(L2L, ("breaking_rules",), ("reserve",)), random.Random(4))
    while not g.over and len(g.deck) - g.drawn > g.active:   # up to the round before the partial one
        for player in g.waiting():
            _highest(g, player)
    assert not g.over and not g.is_last_step() and len(g.deck) - g.drawn < 2 * g.active
    if g.options(0).step == "choose":
        assert g.choose(0, 0)
    assert g.reserve(0)                                       # player 0 sets this round's tile aside
    _highest(g, 1)
    assert g.round == g.rounds_played + 1 and g.is_last_step() and not g.over
    assert len(g.shown) < g.active and g.drawn == 40          # the cards left, under the first markers
    assert "reserve_last_turn" in [w.code for w in g.options(0).warnings]
    assert len(g.shown) == 2 and g.choose(1, 0)
    assert "reserve" not in g.options(1).powers_now and g.reserve(1).code == "bad_power"
    last_round = g.round
    _highest(g, 0)
    assert g.play(0, max(g.legal_placements(0, reserved=True), key=lambda p: p.level), reserved=True)
    _highest(g, 1)
    assert g.over and g.players[0].reserve.state == "built"
    assert any(m.round == last_round for m in g.moves)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_record(g)))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 0, r.stdout
    assert json.loads(r.stdout) == {"ok": True, "complete": True, "rounds": last_round, "scores": g.scores()}


def test_four_players_each_have_three_tiles_of_each_number_and_may_have_to_skip():
    # rounds: 7 | 7 | 7 0 | 8 0 | 8 0 | 8 1 | 7 8
    g = game(L2L, [7, 7, 7, 0, 8, 0, 8, 0, 8, 1, 7, 8], players=4)
    assert g.options(0).supply == {d: 3 for d in range(10)}
    while g.round < 7:                                 # player 0 takes marker 0 every round
        for player in g.waiting():
            if g.options(player).step == "choose":
                assert g.choose(player, 0 if player == 0 else max(g.options(player).choices))
            place_anywhere(g, player)
    assert g.options(0).supply[7] == 0 and g.options(0).supply[8] == 0
    assert g.shown == {0: 7, 1: 8}
    assert g.options(0).step == "done" and 0 not in g.waiting()       # nothing left to take: skips
    assert g.choose(0, 0).code == "wrong_turn"
    for player in g.waiting():
        assert g.choose(player, 0)
        place_anywhere(g, player)
    assert g.round == 8 and not any(m.player == 0 and m.round == 7 for m in g.moves)
    # a tile used up can't be chosen while another can
    g = game(L2L, [7, 7, 7, 0, 7, 8], players=4)
    while g.round < 4:
        for player in g.waiting():
            if g.options(player).step == "choose":
                assert g.choose(player, 0)
            place_anywhere(g, player)
    v = g.choose(0, 0)
    assert v.code == "not_in_supply" and "no 7 left" in v.message
    assert g.options(0).choices == {1: 8} and g.choose(0, 1)


def test_a_lost_reserved_tile_goes_back_into_the_four_player_supply():
    """The printed Reserve rule: a reserved tile not built in time "comes back into the supply". With
    4 players in Level to Level that is the player's own: their count of that number showed one short."""
    g = game(L2L, [9, 9, 9, 1, 2, 1], players=4, modules=("breaking_rules",), powers=("reserve",))
    for p in BLOCK:
        for player in g.waiting():
            assert g.play(player, Placement(*p))
    assert g.shown == {0: 9, 1: 1} and g.choose(0, 1) and g.reserve(0)
    assert g.options(0).supply[1] == 2                 # set aside: taken from the supply
    for player in g.waiting():
        assert g.choose(player, 0)
        place_anywhere(g, player)
    assert g.choose(0, 1) and g.play(0, Placement(1, 90, 1, 0)) and g.boards[0].tiles[-1].level == 1
    assert g.end_turn(0)                               # built higher, the reserved 1 not built: lost
    for player in g.waiting():
        assert g.choose(player, 0)
        place_anywhere(g, player)
    assert g.players[0].reserve.state == "lost"
    assert g.options(0).supply[1] == 2                 # one 1 built, the lost one back in the supply


def test_supply_is_personal_only_with_four_players():
    assert game(L2L, players=3).options(0).supply is None
    assert game(TWO, players=4).options(0).supply is None


@pytest.mark.parametrize("seed, players, modules", [(8, 4, MODULES), (9, 1, ())])
def test_level_to_level_games_replay_from_their_records(seed, players, modules, tmp_path):
    rs = Ruleset(L2L, modules, POWERS if modules else ())
    g = play_out(Game.new([Seat(f"P{i}") for i in range(players)], rs, random.Random(seed)), seed, upward=0.9)
    assert g.over
    for b in g.boards:
        assert max(t.level for t in b.tiles) <= 4
    assert_sound(g)
    data = game_record(g)
    assert all("marker" in m for m in data["moves"] if m.get("kind", "place") == "place" and not m.get("reserved"))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "complete": True,
                                                          "rounds": g.rounds_played, "scores": g.scores()}


def test_moves_lists_every_tile_a_level_to_level_player_may_choose(tmp_path):
    g = game(L2L, [9, 9, 2, 1])
    for p in BLOCK:
        assert g.play(0, Placement(*p))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_record(g)))
    listed = json.loads(nmbr9("moves", path, "--player", 0, "--json").stdout)
    assert {(p["marker"], p["digit"]) for p in listed} == {(0, 2), (1, 1)}
    assert all(p["level"] <= p["marker"] for p in listed) and any(p["level"] == 1 for p in listed)


def test_moves_for_a_level_to_level_player_whose_turn_is_over_says_the_next_tiles_are_not_out_yet(tmp_path):
    """With their turn over and another player's not, `moves` said "No legal placement.": the player looked
    stuck, though the next round's tiles are only laid out once every turn is over."""
    g = game(L2L, players=2)
    path = tmp_path / "g.json"

    def said(player):
        path.write_text(json.dumps(game_record(g)))
        assert json.loads(nmbr9("moves", path, "--player", player, "--json").stdout) == []
        r = nmbr9("moves", path, "--player", player)
        assert r.returncode == 0
        return r.stdout.strip()

    place_anywhere(g, 0)
    assert said(0) == "This player's turn in round 1 is over; the next round's tiles are not laid out yet."
    while not g.is_last_step():   # everything on level 0: two markers active from round 3 to the end
        for player in g.waiting():
            if g.options(player).step == "choose":
                assert g.choose(player, 0)
            place_anywhere(g, player)
    assert g.choose(0, 0)
    place_anywhere(g, 0)
    assert said(0) == "No card left to place."    # the cards left can't fill the markers: no round follows


# ----- any combination --------------------------------------------------------------

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_any_variant_with_any_modules_plays_soundly_and_replays(seed):
    rng = random.Random(seed)
    variant = rng.choice([CLASSIC, TWO, L2L])
    modules = tuple(m for m in MODULES if rng.random() < 0.6)
    powers = tuple(p for p in POWERS if rng.random() < 0.5) or ("bridge",) if "breaking_rules" in modules else ()
    players = rng.randint(1, 6 if variant == CLASSIC else 4)
    g = play_out(Game.new([Seat(f"P{i}") for i in range(players)], Ruleset(variant, modules, powers), rng),
                 seed, upward=rng.random())
    assert g.over and not g.waiting()
    assert_sound(g)
    again = replay(parse_record(json.loads(json.dumps(game_record(g)))))
    assert again.ok, again.error
    assert [b.tiles for b in again.game.boards] == [b.tiles for b in g.boards]
    for player in range(players):
        assert sorted(map(repr, g.board_at_round(player, g.round).tiles)) == sorted(map(repr, g.boards[player].tiles))
