"""Bots under NMBR 9 ++ rules (ai/plus.py), as a player would notice them."""
import random
import subprocess
import sys
from collections import Counter

import pytest

from nmbr9.ai.plus import apply_plan, plan_turn
from nmbr9.match import Match
from nmbr9.rules import Game, Placement, Ruleset, Seat
from nmbr9.rules.record import game_record, parse_record, replay

ALL = ("start_tiles", "gap_fillers", "breaking_rules")


def bot_game(ruleset, seed, level="medium", seats=1):
    """A game of bots only, every turn planned by plan_turn and done through the rules."""
    game = Game.new([Seat(f"bot {i}", f"bot:{level}") for i in range(seats)], ruleset, random.Random(seed))
    while not game.over:
        for seat in game.waiting():
            apply_plan(game, seat, plan_turn(game, seat, level, seed * 1000 + game.step))
    return game


def replays_the_same(game):
    r = replay(parse_record(game_record(game)))
    assert r.ok, r.error
    assert r.game.over and r.game.scores() == game.scores()


def test_with_all_three_modules_bots_use_fillers_and_powers_and_play_legally():
    used = Counter()
    for seed in range(3):
        game = bot_game(Ruleset("classic", ALL), seed)
        replays_the_same(game)
        for m in game.moves:
            used[m.kind] += 1
            used.update(m.powers)
        assert game.scores()[0] > 20
    assert used["filler"] >= 2
    powers = used["reserve"] + used["relocate"] + sum(used[p] for p in ("flip", "single_support", "bridge", "loner"))
    assert powers >= 1


@pytest.mark.parametrize("power", ["single_support", "bridge", "flip", "reserve", "relocate"])
def test_bots_use_each_power_only_where_it_pays(power):
    """A power is once a game: over a few games the bot uses it at least once, never twice."""
    uses = []
    for seed in range(4):
        game = bot_game(Ruleset("classic", ("breaking_rules",), (power,)), seed)
        replays_the_same(game)
        n = sum(1 for m in game.moves if power in m.powers or m.kind == power)
        assert n <= 1
        uses.append(n)
    assert sum(uses) >= 1, f"no bot used {power} in 4 games"


def test_a_bot_uses_loner_when_only_loner_lifts_its_tile():
    # (Loner rarely pays in a bot's own games: its level-1 tiles lie side by side.) A table built
    # by hand where the 9 finds flat footing on level 1 only away from the level-1 tile.
    deck = [4, 1, 3, 2, 7, 8, 1, 6, 0, 0, 6, 5, 9, 4, 7, 5, 2, 8, 9, 3]
    game = Game([Seat("bot", "bot:medium")], deck, Ruleset("classic", ("breaking_rules",), ("loner",)))
    for piece, rotation, x, y, level in [(4, 270, 0, 0, 0), (1, 180, 4, 0, 0), (3, 180, 5, 4, 0), (2, 90, -1, -3, 0),
                                         (7, 90, -2, 2, 0), (8, 90, 8, 7, 0), (1, 0, 3, 0, 1), (6, 180, -2, 4, 0),
                                         (0, 0, 4, 8, 0), (0, 90, 10, 5, 0), (6, 0, -4, -5, 0), (5, 0, 11, 1, 0)]:
        assert game.play(0, Placement(piece, rotation, x, y, level))
    assert game.card == 9 and max(p.level for p in game.legal_placements(0)) == 0
    plan = plan_turn(game, 0, "medium", 0)
    (name, (placement, powers)), = plan
    assert name == "play" and powers == ("loner",) and placement.level == 1
    apply_plan(game, 0, plan)
    assert game.boards[0].score() == 1 + 9 and game.players[0].powers_used == ["loner"]


def test_two_of_three_bots_reject_weak_cards_by_choice():
    game = bot_game(Ruleset("two_of_three", ("gap_fillers",)), 5, seats=2)
    replays_the_same(game)
    # a reject of a round's first card is never forced: the bot chose it
    free = [m for m in game.moves if m.kind == "reject" and m.slot == 0]
    built = [m for m in game.moves if m.kind == "place"]
    assert free and len(built) == 2 * 2 * 10


def test_level_to_level_bots_pick_among_the_markers():
    game = bot_game(Ruleset("level_to_level"), 3, seats=2)
    replays_the_same(game)
    marks = [m.marker for m in game.moves if m.kind == "place"]
    assert len(set(marks)) >= 3   # not always the same level marker
    assert all(p.level <= 4 for b in game.boards for p in b.tiles)


def test_level_to_level_bots_count_the_last_partly_filled_round_as_a_tile_to_come():
    """The last round, with too few cards for every active marker, is played: each player still gets a tile in
    it. The bots counted a share of the cards left per active marker (2 cards, 3 markers: two thirds of a tile)."""
    from nmbr9.ai.plus import remaining
    g = Game.new([Seat("A"), Seat("B")], Ruleset("level_to_level"), random.Random(0))
    while not 0 < len(g.deck) - g.drawn < g.active:
        for seat in g.waiting():
            o = g.options(seat)
            if o.step == "choose":
                assert g.choose(seat, max(o.choices))
            assert g.play(seat, max(g.legal_placements(seat), key=lambda p: p.level))
    left = len(g.deck) - g.drawn
    assert left == 2 and g.active == 3 and not g.over   # one more round, with fewer cards than markers
    assert sum(remaining(g).values()) == pytest.approx(1.0)


@pytest.mark.parametrize("ruleset", [Ruleset("two_of_three", ALL), Ruleset("level_to_level", ALL)],
                         ids=["2 of 3", "level to level"])
def test_variant_games_of_bots_in_a_match_finish_and_replay(ruleset):
    m = Match.new([Seat("A", "bot:easy"), Seat("B", "bot:medium")], seed=9, ruleset=ruleset, threaded=False)
    m.play_out()
    assert m.over
    replays_the_same(m.game)


def test_bench_bots_runs_with_a_variant_and_modules():
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "bots", "--level", "easy", "--games", "2",
                          "--seed", "0", "--variant", "two_of_three", "--modules", "gap_fillers,breaking_rules"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "two_of_three +gap_fillers +breaking_rules" in run.stdout and "mean" in run.stdout
    assert "REFUSED" not in run.stdout
    run = subprocess.run([sys.executable, "-m", "nmbr9", "bench", "bots", "--modules", "gap_filers", "--games", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "gap_filers" in run.stdout and "Traceback" not in run.stderr
