"""NMBR 9 ++ modules: start tiles, gap fillers and every Breaking Rules power, with the rulings."""
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nmbr9.rules import Board, Game, Placement, Ruleset, Seat, orientation
from nmbr9.rules.board import ALLOW_BRIDGE, ALLOW_LONER, ALLOW_SINGLE_SUPPORT, REFUSAL_CODES
from nmbr9.rules.game import GAME_REFUSAL_CODES, MODULES, POWERS, VARIANTS
from nmbr9.rules.record import game_record, parse_record, replay
from nmbr9.rules.tiles import START_TILES, distinct_orientations, shape_mask, square_count

ROOT = Path(__file__).resolve().parent.parent
BR = "breaking_rules"


def deck_from(first, variant="classic"):
    """A legal deck for the variant that starts with the cards `first`."""
    each = VARIANTS[variant] // 10
    rest = [d for d in range(10) for _ in range(each)]
    for d in first:
        rest.remove(d)
    return list(first) + rest


def solo(first, modules=(), powers=(), players=1, variant="classic", start_tiles=None):
    return Game([Seat(f"P{i}") for i in range(players)], deck_from(first, variant),
                Ruleset(variant, tuple(modules), tuple(powers)), start_tiles)


def play_turn(game, player, rng, upward=0.7, extras=0.3):
    """One turn of `player` with random legal choices, using every module and power now and then."""
    step = game.step
    for _ in range(60):
        o = game.options(player)
        if o.step in ("done", "over") or game.step != step:
            return
        if o.step == "decide":
            assert game.decide(player, o.can_build and (not o.can_reject or rng.random() < 0.65))
        elif o.step == "choose":
            assert game.choose(player, max(o.choices) if rng.random() < upward else rng.choice(list(o.choices)))
        elif o.step == "place":
            power = rng.choice(o.powers_now) if o.powers_now and rng.random() < 0.25 else None
            if power == "reserve":
                assert game.reserve(player)
                continue
            powers = (power,) if power in ("flip", "single_support", "bridge", "loner") else ()
            options = game.legal_placements(player, powers=powers)
            if rng.random() < upward:
                options = [p for p in options if p.level == max(q.level for q in options)]
            p = rng.choice(options)
            v = game.play(player, p, powers)
            assert v, (v, p, powers)
        else:
            r = rng.random()
            if o.reserve_ready and r < 0.6 and game.legal_placements(player, reserved=True):
                assert game.play(player, rng.choice(game.legal_placements(player, reserved=True)), reserved=True)
            elif o.fillers and r < extras:
                assert game.play(player, rng.choice(game.legal_placements(player, piece=rng.choice(o.fillers))))
            elif "relocate" in o.powers_left and r < 0.5 and game.movable_tiles(player):
                at = rng.choice(game.movable_tiles(player))
                targets = game.relocation_targets(player, at)
                assert targets and all(game.check_relocate(player, at, q) for q in targets[:20])
                assert game.relocate(player, at, rng.choice(targets))
            else:
                assert game.end_turn(player)
    raise AssertionError("a turn did not end")


def play_out(game, seed, upward=0.7):
    rng = random.Random(seed)
    while not game.over:
        for player in game.waiting():
            play_turn(game, player, rng, upward)
    return game


def nmbr9(*args):
    return subprocess.run([sys.executable, "-m", "nmbr9", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


# ----- start tiles ------------------------------------------------------------------

def footprints(piece):
    m = shape_mask(START_TILES[piece])
    return {(o.shape, o.tobytes()) for f in (m, m[:, ::-1]) for o in (np.rot90(f, k) for k in range(4))}


def test_six_start_tiles_of_10_to_14_squares_with_six_different_footprints():
    assert len(START_TILES) == 6
    for piece in START_TILES:
        assert 10 <= square_count(piece) <= 14
        cells = {(x, y) for x, y in distinct_orientations(piece)[0].cells}
        seen, todo = {min(cells)}, [min(cells)]
        while todo:                                         # one connected piece
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == cells
    names = sorted(START_TILES)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not footprints(a) & footprints(b), (a, b)  # not the same even turned or mirrored


def test_start_tiles_are_dealt_at_random_and_start_every_table():
    seats = [Seat(f"P{i}") for i in range(6)]
    g = Game.new(seats, Ruleset(modules=("start_tiles",)), random.Random(3))
    assert sorted(g.start_tiles) == sorted(START_TILES)    # six players, six different tiles
    assert g.start_tiles == Game.new(seats, Ruleset(modules=("start_tiles",)), random.Random(3)).start_tiles
    assert any(Game.new(seats[:2], Ruleset(modules=("start_tiles",)), random.Random(s)).start_tiles
               != g.start_tiles[:2] for s in range(5))
    for board, tile in zip(g.boards, g.start_tiles):
        assert [(t.piece, t.level) for t in board.tiles] == [(tile, 0)] and board.score() == 0


def test_the_first_tile_must_touch_the_start_tile_which_counts_as_support():
    g = solo([9, 9, 1], modules=("start_tiles",), start_tiles=["S3"])   # S3: a 4 x 4 L, solid bottom rows
    assert g.check(0, Placement(9, 0, 20, 20)).code == "not_adjacent"
    assert g.play(0, Placement(9, 0, 4, 0))            # right of S3's tall part
    # level 1 across the start tile and the 9: it rests on two tiles
    on_both = [p for p in g.legal_placements(0) if p.level == 1]
    assert on_both
    p = on_both[0]
    under = {g.boards[0].tile_at(x, y, 0) for x, y in p.squares()}
    assert under == {0, 1}                              # the start tile is tile 0
    assert g.play(0, p) and g.scores() == [9]          # the start tile scores nothing


# ----- gap fillers ------------------------------------------------------------------

BLOCK = [(9, 0, 0, 0), (9, 180, 2, 0)]   # two 9s fill x 0..4, y 0..3


def build(game, moves, player=0):
    for d, r, x, y in moves:
        v = game.play(player, Placement(d, r, x, y))
        assert v, v
        if game.options(player).step == "extras":
            assert game.end_turn(player)


def test_gap_fillers_rest_on_one_tile_obey_the_other_rules_and_are_placed_once():
    g = solo([9, 9, 5, 5], modules=("gap_fillers",))
    build(g, BLOCK)
    assert g.options(0).fillers == ("F1", "F2")
    assert g.check(0, Placement("F1", 0, 0, 0)).level == 1 and g.check(0, Placement("F1", 0, 0, 0)).ok
    assert g.check(0, Placement("F2", 0, 4, 0, level=1)).code == "not_supported"     # overhang
    assert g.check(0, Placement("F2", 0, 7, 0)).code == "not_adjacent"
    assert g.check(0, Placement("F1", 0, 0, 0), powers=("flip",)).code == "bad_power"
    assert g.play(0, Placement("F1", 0, 0, 0))          # before the round's tile: any time in the turn
    assert g.options(0).step == "place" and g.scores() == [0]
    assert g.check(0, Placement("F1", 0, 1, 0)).code == "no_filler"   # each filler once
    assert g.play(0, Placement(5, 0, 0, 4))
    o = g.options(0)
    assert o.step == "extras" and o.can_end and g.round == 3  # the F2 is left: the turn stays open
    assert g.play(0, Placement("F2", 90, 1, 0))        # after the tile, on level 1 beside the F1
    assert g.round == 4 and g.options(0).fillers == ()  # nothing optional left: the turn ended by itself
    assert {t.piece for t in g.boards[0].tiles if t.level == 1} == {"F1", "F2"}
    assert g.boards[0].score() == 0
    # a filler counts as a tile for the pieces above it: this 1 rests on a 9 and an F2
    b = Board([Placement(9, 0, 0, 0), Placement("F2", 0, 3, 0)])
    assert b.verdict(Placement(1, 270, 1, 0)).ok and b.verdict(Placement(1, 270, 1, 0)).level == 1
    assert Board([Placement(9, 0, 0, 0)]).verdict(Placement(1, 270, 1, 0)).code == "not_supported"


def test_a_refused_gap_filler_is_named_as_the_gap_filler():
    """The refusal called a gap filler "The tile", which reads as the round's number tile."""
    g = solo([9, 9, 5], modules=("gap_fillers",))
    build(g, BLOCK)
    assert g.check(0, Placement("F2", 0, 7, 0)).message == \
        "The gap filler must touch a tile of level 0 along a square's side."
    assert g.check(0, Placement("F2", 0, 4, 0, level=1)).message == \
        "The gap filler overhangs or covers a hole: square (5, 0) has nothing under it on level 0."
    assert g.check(0, Placement(5, 0, 7, 0)).message.startswith("The tile must touch")   # a number tile: "tile"


def test_gap_fillers_are_refused_without_the_module():
    g = solo([9])
    v = g.check(0, Placement("F1", 0, 0, 0))
    assert v.code == "no_filler" and "not in play" in v.message


# ----- Breaking Rules ---------------------------------------------------------------

def test_a_power_needs_breaking_rules_and_to_be_drawn():
    g = solo([9, 9, 1], modules=(BR,), powers=("single_support",))
    build(g, BLOCK)
    assert g.check(0, Placement(1, 0, 0, 0), powers=("loner",)).code == "power_not_in_play"
    assert g.check(0, Placement(1, 0, 0, 0), powers=("teleport",)).code == "bad_power"
    assert g.check(0, Placement(1, 0, 0, 0), powers=("reserve",)).code == "bad_power"
    assert solo([9]).check(0, Placement(9, 0, 0, 0, flipped=True)).code == "power_not_in_play"


def test_powers_are_drawn_at_random_two_per_game_or_chosen():
    seats = [Seat("A")]
    drawn = {Game.new(seats, Ruleset(modules=(BR,)), random.Random(s)).ruleset.powers for s in range(12)}
    assert all(len(p) == 2 and set(p) <= set(POWERS) for p in drawn) and len(drawn) > 3
    chosen = Game.new(seats, Ruleset(modules=(BR,), powers=POWERS), random.Random(1))
    assert chosen.ruleset.powers == POWERS and chosen.options(0).powers == POWERS


def test_single_support_lets_a_tile_rest_on_one_tile():
    g = solo([9, 9, 1, 1], modules=(BR,), powers=("single_support",))
    build(g, BLOCK)
    assert g.check(0, Placement(1, 0, 0, 0)).code == "single_support"
    assert g.play(0, Placement(1, 0, 0, 0), powers=("single_support",))
    assert g.scores() == [1] and g.options(0).markers_left == 1
    assert g.check(0, Placement(1, 0, 3, 0), powers=("single_support",)).code == "power_used"


def test_flip_lays_the_mirror_image_which_scores_0_and_still_supports():
    assert (orientation(2, 0, flipped=True).mask == orientation(2, 0).mask[:, ::-1]).all()
    g = solo([9, 9, 1, 0, 0, 1], modules=(BR,), powers=("flip", "single_support"))
    build(g, BLOCK)
    v = g.check(0, Placement(1, 0, 0, 0, flipped=False), powers=("flip",))
    assert v.code == "bad_power"                       # Flip means a flipped placement
    flipped = [p for p in g.legal_placements(0, powers=("flip",)) if p.level == 1]
    assert flipped and all(p.flipped for p in flipped)
    assert g.play(0, flipped[0]) and g.scores() == [0]  # a 1 on level 1 would score 1
    assert g.moves[-1].powers == ("flip",) and g.options(0).powers_left == ("single_support",)
    # the ruling: a flipped tile counts as a tile for support (0 is the same both sides)
    g = solo([0, 0, 1], modules=(BR,), powers=("flip",))
    assert g.play(0, Placement(0, 0, 0, 0)) and g.play(0, Placement(0, 0, 3, 0, flipped=True))
    assert g.play(0, Placement(1, 270, 2, 0))          # on level 1, across the 0 and the flipped 0
    assert g.boards[0].tiles[-1].level == 1 and g.scores() == [1]


def two_zeros(powers, first=(0, 0, 9, 1)):
    """Two 0s side by side: each has a closed 1 x 2 hole (x 1 and x 4, y 1..2)."""
    g = solo(list(first), modules=(BR,), powers=powers)
    build(g, [(0, 0, 0, 0), (0, 0, 3, 0)])
    return g


def test_bridge_spans_a_closed_hole_it_covers_completely():
    g = two_zeros(("bridge", "single_support"))
    over = Placement(9, 0, 1, 0, level=1)              # covers the left 0's hole, rests on both 0s
    assert g.check(0, over).code == "not_supported"
    part = Placement(1, 90, 1, 0, level=1)             # covers one square of each hole
    whole = Placement(1, 270, 1, 1, level=1)           # covers the left hole, one square of the right one
    for p in (part, whole):
        assert g.boards[0].verdict(p, frozenset({ALLOW_BRIDGE, ALLOW_SINGLE_SUPPORT})).code == "not_supported"
    assert g.play(0, over, powers=("bridge",)) and g.scores() == [9]
    # the bridged hole is closed for good: nothing goes under the bridge
    board = g.boards[0]
    v = board.verdict(Placement("F1", 0, 1, 2, level=0))
    assert v.code == "covered" and "(1, 2)" in v.message
    assert board.verdict(Placement("F1", 0, 4, 2, level=0)).ok    # the other hole is open to fill
    assert board.height_at(1, 1) == 2                  # a tile dropped there lands on the bridge


def test_a_bridge_over_a_closed_hole_still_may_not_overhang_at_the_outside():
    b = Board([Placement(0, 0, 0, 0), Placement(0, 0, 3, 0)])   # the left 0's hole: x 1, y 1..2
    both = frozenset({ALLOW_BRIDGE, ALLOW_SINGLE_SUPPORT})
    assert b.verdict(Placement(1, 0, 0, 0, level=1), both).ok      # its stem covers the hole, all else on the 0
    for poking in (Placement(1, 0, 0, 1, level=1),                # the same 1 a row lower: its foot past the 0
                   Placement(1, 180, 1, -1, level=1)):            # turned, its foot above the 0
        v = b.verdict(poking, both)
        assert v.code == "not_supported" and "nothing under it" in v.message, poking
        assert poking not in b.legal_placements(1, allow=both)


def test_bridge_never_spans_a_gap_open_to_the_outside():
    b = Board([Placement(9, 0, 0, 0), Placement(9, 0, 3, 0)])  # the notch at x 2, y 2..3 is open below
    gap = [p for p in b.legal_placements(1, allow=frozenset({ALLOW_BRIDGE, ALLOW_SINGLE_SUPPORT}))
           if p.level == 1 and any(b.tile_at(x, y, 0) < 0 for x, y in p.squares())]
    assert gap == []
    assert b.verdict(Placement(1, 0, 1, 0, level=1), frozenset({ALLOW_BRIDGE})).code == "not_supported"


def test_a_hole_meeting_the_outside_only_at_a_corner_is_closed_and_the_rules_page_says_so():
    """The ruling said "a connected group of empty squares ... that does not reach the outside" and the
    game let Bridge span a hole touching the outside at a corner: the page did not say which."""
    from nmbr9.i18n.rules_page import rules_page
    b, left = Board(), [(x, y) for y in range(4) for x in range(5) if (x, y) not in ((1, 1), (2, 0))]
    while left:                            # one-square pieces fill a 5 x 4 block but for (1, 1) and (2, 0)
        x, y = next((x, y) for x, y in left if b.verdict(Placement("F1", 0, x, y, 0)))
        b.place(Placement("F1", 0, x, y, 0))
        left.remove((x, y))
    # (1, 1) is closed on its four sides; its corner touches (2, 0), open to the table around
    bridge = Placement(1, 0, 0, 0, level=1)   # squares (0, 0), (1, 0), (1, 1), (1, 2), (1, 3)
    assert b.verdict(bridge).code == "not_supported" and b.verdict(bridge, frozenset({ALLOW_BRIDGE})).ok
    assert bridge in b.legal_placements(1, allow=frozenset({ALLOW_BRIDGE}))
    text = " ".join(dict(rules_page(lambda s: s))["Module: Breaking Rules"])
    assert "joined along their sides" in text and "meets the outside only at a corner is closed" in text


def test_a_refused_bridge_names_the_square_at_fault_and_why():
    """With Bridge, a refusal named the first square with nothing under it, "overhangs or covers a hole":
    often a square of a closed hole the tile covers whole, which Bridge allows, while the fault lay
    elsewhere (the window marks that square on the tile)."""
    b = Board([Placement(0, 0, 0, 0), Placement(0, 0, 3, 0)])   # closed holes: x 1 and x 4, y 1..2
    both = frozenset({ALLOW_BRIDGE, ALLOW_SINGLE_SUPPORT})
    poking = Placement(1, 0, 0, 1, level=1)            # its stem covers the left hole, its foot is past the 0
    v = b.verdict(poking, both)
    assert v.code == "not_supported" and dict(v.params)["x"] == 1 and dict(v.params)["y"] == 4
    assert v.message == ("With Bridge only a closed hole may lie under the tile: square (1, 4) has nothing "
                         "under it and is open to the outside.")
    half = Placement(1, 270, 1, 1, level=1)            # the left hole whole, one square of the right one
    v = b.verdict(half, both)
    assert v.code == "not_supported" and (4, 1) in half.squares()
    assert v.message == "With Bridge the tile must cover the whole hole under square (4, 1), not just part of it."
    # without Bridge a hole may not be covered at all: the first square over it is named, as before
    assert b.verdict(half, frozenset({ALLOW_SINGLE_SUPPORT})).message == (
        "The tile overhangs or covers a hole: square (1, 1) has nothing under it on level 0.")


@pytest.mark.parametrize("allow", [
    frozenset({ALLOW_BRIDGE}), frozenset({ALLOW_BRIDGE, ALLOW_SINGLE_SUPPORT}), frozenset({ALLOW_LONER}),
    frozenset({ALLOW_SINGLE_SUPPORT, ALLOW_LONER}), frozenset()])
@pytest.mark.parametrize("flipped", [False, True])
def test_listed_placements_under_a_power_are_exactly_the_accepted_ones(allow, flipped):
    b = Board([Placement(0, 0, 0, 0), Placement(0, 0, 3, 0), Placement(6, 0, 0, 4), Placement(9, 90, 3, 4)])
    b.place(Placement(5, 90, 0, 0, 1), frozenset({ALLOW_BRIDGE}))  # a bridge over the left hole
    x0, y0, x1, y1 = b.bounds()
    for piece in (2, 5, 8, "F2"):
        legal = b.legal_placements(piece, flipped and piece != "F2", allow)
        listed = set(legal)
        assert len(listed) == len(legal)
        for o in distinct_orientations(piece, flipped and piece != "F2"):
            for x in range(x0 - 5, x1 + 2):
                for y in range(y0 - 5, y1 + 2):
                    for level in range(0, 4):
                        p = Placement(piece, o.rotation, x, y, level, flipped and piece != "F2")
                        assert b.verdict(p, allow).ok == (p in listed), (p, b.verdict(p, allow))


def test_loner_frees_a_tile_from_touching_its_level_from_level_1_only():
    g = solo([9, 9, 1], modules=(BR, "gap_fillers"), powers=("loner",))
    build(g, BLOCK)
    assert g.play(0, Placement("F1", 0, 0, 0)) and g.boards[0].tiles[-1].level == 1   # level 1 has a piece
    far = Placement(1, 0, 2, 0)                        # level 1 across both 9s, not touching the F1
    assert g.check(0, far).level == 1 and g.check(0, far).code == "not_adjacent"
    assert g.check(0, Placement(1, 0, 9, 0), powers=("loner",)).code == "not_adjacent"   # level 0
    assert g.play(0, far, powers=("loner",)) and g.boards[0].tiles[-1].level == 1


def test_loner_on_level_0_is_refused_saying_loner_starts_at_level_1():
    """With Loner armed a lone tile on level 0 was refused with only "must touch a tile of level 0": the
    player could not tell the power does not reach level 0 (only the panel said so)."""
    g = solo([9, 9, 1], modules=(BR,), powers=("loner",))
    build(g, BLOCK)
    v = g.check(0, Placement(1, 0, 9, 0), powers=("loner",))
    assert v.code == "not_adjacent" and "Loner applies only from level 1 up" in v.message
    assert "Loner" not in g.check(0, Placement(1, 0, 9, 0)).message   # not armed: the rule alone


def test_relocate_moves_a_free_tile_to_its_level_or_lower_before_or_after_placing():
    g = solo([9, 9, 1, 2, 3], modules=(BR, "gap_fillers"), powers=("relocate", "flip"))
    build(g, BLOCK)
    assert g.play(0, Placement(1, 90, 1, 0))           # level 1, across both 9s
    g.end_turn(0)
    board = g.boards[0]
    assert g.check_relocate(0, (0, 0, 0), Placement(9, 0, 0, 5)).code == "not_movable"   # the 1 lies on it
    assert g.movable_tiles(0) == [(4, 0, 1)] and g.relocation_targets(0, (0, 0, 0)) == []
    assert g.check_relocate(0, (9, 9, 0), Placement(9, 0, 0, 5)).code == "not_movable"   # no tile there
    assert g.play(0, Placement("F1", 0, 5, 0))
    assert g.check_relocate(0, (5, 0, 0), Placement("F1", 0, 6, 0)).code == "not_movable"  # fillers never move
    assert g.check_relocate(0, (1, 1, 1), Placement(2, 0, 0, 4)).code == "wrong_digit"
    assert g.check_relocate(0, (1, 1, 1), Placement(1, 90, 0, 9, level=0)).code == "not_adjacent"
    # before placing: the 1 goes down to level 0, below the block
    down = Placement(1, 90, 0, 4, level=0)
    assert g.check_relocate(0, (1, 1, 1), down).ok
    assert g.relocate(0, (1, 1, 1), down) and board.tiles[2].level == 0 and g.scores() == [0]
    assert g.options(0).step == "place" and "relocate" not in g.options(0).powers_left
    assert g.options(0).powers_now == ("flip",)
    assert g.check_relocate(0, (0, 4, 0), Placement(1, 90, 0, 5)).code == "power_used"
    assert g.play(0, Placement(2, 0, 5, 1))
    # after placing, in another game: and never to a higher level
    g = solo([9, 9, 2, 1], modules=(BR,), powers=("relocate",))
    build(g, BLOCK)
    assert g.options(0).powers_now == ("relocate",)
    assert g.play(0, Placement(2, 0, 5, 0))            # the turn stays open: Relocate is left
    assert g.options(0).step == "extras" and g.options(0).powers_now == ("relocate",)
    up = Placement(2, 0, 1, 0, level=1)
    assert g.check_relocate(0, (6, 0, 0), up).code == "relocate_higher"
    assert g.movable_tiles(0) == [(0, 0, 0), (3, 0, 0), (6, 0, 0)]   # nothing lies on any tile
    targets = g.relocation_targets(0, (6, 0, 0))
    assert targets and all(p.level == 0 for p in targets) and up not in targets
    assert g.relocate(0, (6, 0, 0), Placement(2, 0, 0, 4)) and g.round == 4   # nothing left: turn over
    assert g.boards[0].tiles[2] == Placement(2, 0, 0, 4, 0) and g.moves[-1].kind == "relocate"
    # a lone first tile can move too: the table without it is empty
    g = solo([3, 1], modules=(BR,), powers=("relocate",))
    assert g.play(0, Placement(3, 0, 0, 0)) and g.options(0).step == "extras"
    assert g.relocation_targets(0, (0, 0, 0)) and g.relocate(0, (0, 0, 0), Placement(3, 90, 7, 7))
    assert g.boards[0].tiles == [Placement(3, 90, 7, 7, 0)] and g.round == 2


def test_reserve_sets_the_tile_aside_to_build_later_as_a_second_tile():
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.options(0).powers_now == ("reserve",)
    assert g.reserve(0) and g.options(0).step == "extras" and g.options(0).powers_now == ()
    v = g.check(0, Placement(5, 0, 5, 0), reserved=True)
    assert v.code == "no_reserve" and "later turn" in v.message
    assert g.end_turn(0) and g.round == 4
    o = g.options(0)
    assert o.reserved == 5 and o.reserve_ready and o.reserve_level == 1
    assert [w.code for w in o.warnings] == ["reserve_waiting"] and "level 1" in o.warnings[0].message
    assert g.play(0, Placement(1, 0, 5, 0)) and g.play(0, Placement(5, 0, 0, 4), reserved=True)
    assert g.options(0).reserved is None and g.moves[-1].reserved
    assert g.check(0, Placement(5, 0, 0, 8), reserved=True).code == "no_reserve"


def test_no_power_changes_a_reserved_tile_built_in_a_later_turn(tmp_path):
    """The powers but Relocate change "the tile just taken" from the turn's card; building a reserved tile in a
    later turn is not taking it (spec/rules.md). The game let Flip, Single support, Bridge and Loner change it, and
    a record saying so replayed."""
    g = solo([9, 9, 5, 1, 3], modules=(BR,), powers=("reserve", "loner", "flip"))
    build(g, BLOCK)
    assert g.reserve(0) and g.round == 4
    assert g.options(0).powers_now == ("loner", "flip")           # for the turn's 1
    assert g.play(0, Placement(1, 0, 5, 0)) and g.options(0).step == "extras" and g.options(0).reserve_ready
    assert g.options(0).powers_now == ()                         # none for the reserved 5
    assert g.legal_placements(0, powers=("loner",), reserved=True) == []
    v = g.check(0, Placement(5, 0, 0, 4), powers=("loner",), reserved=True)
    assert v.code == "bad_power" and "reserved tile" in v.message
    assert g.check(0, Placement(5, 0, 0, 4, flipped=True), reserved=True).code == "bad_power"
    assert g.power_verdict(0, "flip").code == "wrong_turn"
    assert g.play(0, Placement(5, 0, 0, 4), reserved=True)
    path = tmp_path / "g.json"
    for change in ({"powers": ["loner"]}, {"flipped": True, "powers": ["flip"]}):
        data = game_record(g)
        data["moves"][-1].update(change)
        path.write_text(json.dumps(data))
        r = nmbr9("replay", path, "--json")
        assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "bad_power", r.stdout


def test_replay_refuses_powers_written_on_a_gap_filler(tmp_path):
    """The game refuses a power on a gap filler (`bad_power`, as docs/record-plus.md says); replay ignored
    the powers a record wrote on a filler move, and the record passed."""
    g = solo([9, 9, 5], modules=(BR, "gap_fillers"), powers=("loner", "flip"))
    build(g, BLOCK)
    assert g.play(0, Placement("F1", 0, 0, 0)) and g.play(0, Placement(5, 0, 5, 0))
    path = tmp_path / "g.json"
    data = game_record(g)
    path.write_text(json.dumps(data))
    assert json.loads(nmbr9("replay", path, "--json").stdout)["ok"]
    filler = next(i for i, m in enumerate(data["moves"]) if m.get("kind") == "filler")
    for change in ({"powers": ["loner"]}, {"flipped": True, "powers": ["flip"]}, {"reserved": True}):
        bad = game_record(g)
        bad["moves"][filler].update(change)
        path.write_text(json.dumps(bad))
        r = nmbr9("replay", path, "--json")
        out = json.loads(r.stdout)
        assert r.returncode == 1 and out["error"]["code"] == "bad_power" and out["error"]["move"] == filler, out


def test_a_tile_reserved_with_nothing_built_must_come_with_the_first_tile_built():
    """Set aside before any tile was built, the warning said "in the turn in which you first build on level 0
    or higher", which every tile is; it now says "your first tile"."""
    g = solo([9, 1, 3], modules=(BR,), powers=("reserve",))
    assert g.reserve(0) and g.round == 2   # (nothing else to do in that turn: it ends)
    [w] = g.options(0).warnings
    assert w.code == "reserve_waiting" and "your first tile" in w.message and "level 0" not in w.message


def test_a_reserved_tile_is_lost_after_the_turn_that_first_builds_higher():
    g = solo([9, 9, 5, 1, 3, 2], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and g.end_turn(0)              # reserved with the table at level 0
    assert g.play(0, Placement(1, 90, 1, 0)) and g.boards[0].tiles[-1].level == 1
    o = g.options(0)
    # its last turn: said once (the rule for when it must be built, said beside it, told the same twice)
    assert [w.code for w in o.warnings] == ["reserve_last_turn"] and o.reserve_ready
    assert g.end_turn(0)                               # not built in that turn
    assert g.options(0).reserved is None
    v = g.check(0, Placement(5, 0, 0, 4), reserved=True)
    assert v.code == "reserve_expired" and "lost" in v.message
    # built in time: in the same deciding turn, it is fine
    g = solo([9, 9, 5, 1, 3, 2], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and g.end_turn(0)
    assert g.play(0, Placement(1, 90, 1, 0)) and g.play(0, Placement(5, 0, 0, 4), reserved=True)
    assert g.boards[0].tiles[-1].piece == 5


def test_building_higher_in_the_turn_a_tile_is_reserved_says_it_is_lost_not_build_it_now():
    """A gap filler on level 1 right after reserving ends the reserve with that turn; the warning
    said "build it now or it is lost", which the player can't (it is built in a later turn)."""
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and g.play(0, Placement("F1", 0, 0, 0)) and g.boards[0].tiles[-1].level == 1
    o = g.options(0)
    assert not o.reserve_ready
    last = [w for w in o.warnings if w.code == "reserve_last_turn"]
    assert len(last) == 1 and "build it now" not in last[0].message
    assert "lost at the end of this turn" in last[0].message and "level 1" in last[0].message
    assert g.end_turn(0) and g.players[0].reserve.state == "lost"


def test_reserve_builds_the_tile_in_a_later_turn_so_not_on_the_games_last_turn():
    """Reserve: "in one of your later turns build it". On round 20 the game let a tile be set aside, then
    ended with it never built (its points and the marker gone, nothing said); a tile reserved earlier and
    still waiting in the last turn got no "last turn" warning either."""
    deck = deck_from([9, 9])
    # reserved on the last card: refused, with the reason, in every variant
    for variant, last in (("classic", (20, 0)), ("two_of_three", (10, 2))):
        g = Game([Seat("P")], deck_from([], variant), Ruleset(variant, (BR,), ("reserve",)))
        while True:
            o = g.options(0)
            if o.step == "decide":   # "2 of 3": the first card of a round rejected, the other two built
                assert g.decide(0, not o.can_reject)
            elif (g.round, g.slot) == last:
                break
            else:
                assert g.play(0, g.legal_placements(0)[0])
        assert g.options(0).step == "place" and "reserve" not in g.options(0).powers_now
        v = g.reserve(0)
        assert v.code == "bad_power" and "last turn" in v.message and not g.over
        assert g.power_verdict(0, "reserve").code == "bad_power"
    # "Level to Level": the round that lays out the deck's last cards
    g = Game([Seat("P")], deck_from([], "level_to_level"), Ruleset("level_to_level", (BR,), ("reserve",)))
    while g.drawn < len(g.deck):   # all on level 0: markers 0 and 1 stay the active ones
        if g.options(0).step == "choose":
            assert g.choose(0, 0)
        assert "reserve" in g.options(0).powers_now
        assert g.play(0, g.legal_placements(0)[0])
    assert g.active == 2 and not g.over and g.choose(0, 1) and "reserve" not in g.options(0).powers_now
    assert g.reserve(0).code == "bad_power"
    # a tile reserved before: the last turn says build it now or it is lost
    g = Game([Seat("P")], deck, Ruleset("classic", (BR,), ("reserve",)))
    build(g, BLOCK)
    for _ in range(16):
        g.play(0, g.legal_placements(0)[0]) and g.options(0).step == "extras" and g.end_turn(0)
    assert g.round == 19 and g.reserve(0) and g.round == 20
    o = g.options(0)
    assert o.reserve_ready and [w.code for w in o.warnings] == ["reserve_last_turn"]
    assert "build it now" in o.warnings[0].message


def test_two_markers_each_power_once_both_usable_in_one_turn():
    g = solo([9, 9, 1, 1], modules=(BR,), powers=("flip", "single_support", "loner"))
    build(g, BLOCK)
    p = Placement(1, 0, 0, 0, flipped=True)            # flipped and on one tile: two markers at once
    assert g.check(0, p).code == "single_support"
    assert g.play(0, p, powers=("single_support",))
    o = g.options(0)
    assert o.markers_left == 0 and o.powers_left == ()
    assert g.moves[-1].powers == ("flip", "single_support")
    assert g.check(0, Placement(1, 90, 1, 0), powers=("loner",)).code == "no_marker"
    assert g.check(0, Placement(1, 90, 1, 0, flipped=True)).code == "power_used"


def test_new_refusal_codes_are_listed_once():
    codes = REFUSAL_CODES + GAME_REFUSAL_CODES
    assert len(set(codes)) == len(codes)
    doc = (ROOT / "docs" / "record-plus.md").read_text()
    for code in ("covered", "level_cap") + GAME_REFUSAL_CODES:
        assert f"`{code}`" in doc, code


# ----- whole games and records ------------------------------------------------------

def assert_sound(game):
    """Check finished tables from scratch: no shared square, nothing floats (bar a bridge's closed
    hole), nothing under a bridge, and the score is number x level of the face-up number tiles."""
    for player, board in enumerate(game.boards):
        bridged = {m.placement for m in game.moves if m.player == player and "bridge" in m.powers}
        cells = {}
        for p in board.tiles:
            for sq in p.squares():
                assert (sq, p.level) not in cells, "two pieces share a square"
                cells[(sq, p.level)] = p
        for p in board.tiles:
            bare = [sq for sq in p.squares() if p.level and (sq, p.level - 1) not in cells]
            assert not bare or p in bridged, ("floats", p)
            assert all((sq, p.level - 1) in cells or p in bridged for sq in p.squares() if p.level)
        for (sq, level) in cells:
            if level:
                assert (sq, level - 1) in cells or cells[(sq, level)] in bridged
        assert board.score() == sum(p.piece * p.level for p in board.tiles
                                    if isinstance(p.piece, int) and not p.flipped)



@pytest.mark.parametrize("seed, players", [(1, 6), (2, 3)])
def test_games_with_every_module_and_power_play_to_the_end_and_replay(seed, players):
    rng = random.Random(seed)
    g = play_out(Game.new([Seat(f"P{i}") for i in range(players)],
                          Ruleset(modules=MODULES, powers=POWERS), rng), seed)
    assert g.over and g.rounds_played == 20
    assert_sound(g)
    kinds = {m.kind for m in g.moves}
    assert {"place", "filler", "end"} <= kinds
    data = json.loads(json.dumps(game_record(g)))
    assert data["ruleset"]["powers"] == list(POWERS) and data["start_tiles"] == g.start_tiles
    again = replay(parse_record(data))
    assert again.ok, again.error
    assert again.game.scores() == g.scores() and again.game.over
    for a, b in zip(again.game.boards, g.boards):
        assert a.tiles == b.tiles


def test_record_with_powers_replays_on_the_command_line_and_a_broken_one_names_the_rule(tmp_path):
    g = solo([9, 9, 1, 2], modules=(BR, "gap_fillers"), powers=("flip", "single_support"))
    build(g, BLOCK)
    assert g.play(0, Placement(1, 0, 0, 0, flipped=True), powers=("single_support",))
    assert g.play(0, Placement("F1", 0, 5, 0)) and g.end_turn(0)
    data = game_record(g)
    assert [m.get("kind", "place") for m in data["moves"]] == ["place", "end", "place", "end", "place", "filler", "end"]
    assert data["moves"][4] == {"round": 3, "player": 0, "digit": 1, "rotation": 0, "x": 0, "y": 0, "level": 1,
                                "flipped": True, "powers": ["flip", "single_support"]}
    assert data["moves"][5]["piece"] == "F1"
    assert data["moves"][-1] == {"kind": "end", "round": 3, "player": 0}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "complete": False, "rounds": 3,
                                                          "scores": [0]}
    listed = json.loads(nmbr9("moves", path, "--player", 0, "--json").stdout)
    assert {p["digit"] for p in listed if "digit" in p} == {2} and {p["piece"] for p in listed if "piece" in p} == {"F2"}
    data["moves"][4]["powers"] = ["flip"]              # on one tile without the Single support marker
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path, "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["error"]["code"] == "single_support" and out["error"]["move"] == 4
    data["moves"][4]["powers"] = ["flip", "single_support", "loner"]    # three markers
    path.write_text(json.dumps(data))
    assert json.loads(nmbr9("replay", path, "--json").stdout)["error"]["code"] == "power_not_in_play"
    data["ruleset"]["modules"] = ["gap_fillers"]        # powers without Breaking Rules
    path.write_text(json.dumps(data))
    r = nmbr9("replay", path)
    assert r.returncode == 2 and "Breaking Rules" in r.stdout and "Traceback" not in r.stderr


def test_moves_lists_placements_under_a_power(tmp_path):
    g = solo([9, 9, 2], modules=(BR,), powers=("flip",))
    build(g, BLOCK)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_record(g)))
    plain = json.loads(nmbr9("moves", path, "--player", 0, "--json").stdout)
    flipped = json.loads(nmbr9("moves", path, "--player", 0, "--power", "flip", "--json").stdout)
    assert plain and flipped and all(p.get("flipped") for p in flipped) and not any("flipped" in p for p in plain)
    r = nmbr9("moves", path, "--player", 0, "--power", "wings", "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == "bad_power"


def test_take_back_undoes_any_action():
    g = solo([9, 9, 1, 2], modules=(BR, "gap_fillers"), powers=("relocate",))
    build(g, BLOCK)
    assert g.play(0, Placement(1, 90, 1, 0))
    before = [list(b.tiles) for b in g.boards]
    assert g.relocate(0, (1, 1, 1), Placement(1, 90, 0, 4))
    assert g.take_back().kind == "relocate"
    assert [list(b.tiles) for b in g.boards] == before and "relocate" in g.options(0).powers_left
    assert g.board_at_round(0, 3).tiles == before[0][:2]
    first = solo([9, 9])
    assert first.play(0, Placement(9, 0, 0, 0)) and first.round == 2
    assert first.take_back().round == 1 and first.round == 1 and first.card == 9 and first.boards[0].is_empty()


def test_relocate_onto_the_squares_the_tile_covers_now_is_no_move_and_keeps_the_marker():
    """A tile picked up and put back where it lay (or a 0 turned half way round) was accepted as a
    relocation: the marker was spent and nothing moved."""
    g = solo([9, 9, 0, 1], modules=(BR,), powers=("relocate", "flip"))
    build(g, BLOCK)
    assert g.play(0, Placement(0, 0, 5, 0))
    assert g.options(0).step == "extras"
    for same in (Placement(0, 0, 5, 0), Placement(0, 180, 5, 0)):
        v = g.check_relocate(0, (5, 0, 0), same)
        assert v.code == "not_moved" and "where it lies now" in v.message
        assert not g.relocate(0, (5, 0, 0), same)
        assert same not in [p._replace(level=None) for p in g.relocation_targets(0, (5, 0, 0))]
    assert "relocate" in g.options(0).powers_now and not g.players[0].powers_used
    assert g.relocate(0, (5, 0, 0), Placement(0, 0, 0, 4))   # elsewhere: moved, marker spent
    assert g.players[0].powers_used == ["relocate"]


def test_moves_refuses_a_power_the_player_can_no_longer_use(tmp_path):
    """`moves --power flip` after Flip was used listed flipped placements that replay then refused
    (power_used); Relocate or Reserve as --power were silently ignored."""
    g = solo([9, 9, 2, 3], modules=(BR,), powers=("flip", "loner", "reserve"))
    build(g, BLOCK)
    assert g.play(0, Placement(2, 0, 5, 0, flipped=True))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_record(g)))
    for power, code in (("flip", "power_used"), ("reserve", "bad_power"), ("single_support", "power_not_in_play")):
        r = nmbr9("moves", path, "--player", 0, "--power", power, "--json")
        assert r.returncode == 1 and json.loads(r.stdout)["error"]["code"] == code, power
    assert json.loads(nmbr9("moves", path, "--player", 0, "--power", "loner", "--json").stdout)   # one marker left
    r = nmbr9("moves", path, "--player", 0, "--power", "flip")
    assert r.returncode == 1 and r.stdout.strip() == "You have already used this power: each power once per player."


def test_a_piece_that_would_lose_the_reserved_tile_is_said_before_it_is_built():
    """A gap filler on level 1 in the turn a tile was set aside lost that tile, and nothing said so before it
    was confirmed; the reserve still read as waiting "built from your next turn". The rules now say it for
    the spot (reserve_loss) and in the options (reserve_lost)."""
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and not g.options(0).reserve_lost
    assert g.reserve_loss(0, 0) is None                     # level 0: the table's highest level then
    note = g.reserve_loss(0, 1)
    assert note.code == "reserve_lost" and "loses" in note.message and "5" in note.message
    assert g.play(0, Placement("F1", 0, 0, 0)) and g.boards[0].tiles[-1].level == 1
    assert g.options(0).reserve_lost and g.reserve_loss(0, 1) is None   # said once: now it is lost anyway
    # in a later turn building higher only makes it the reserve's last turn: it can still be built then
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and g.end_turn(0)
    assert g.reserve_loss(0, 1) is None and not g.options(0).reserve_lost


def test_a_power_refused_once_the_turns_tile_is_dealt_with_says_to_use_it_later():
    """With a gap filler in hand after the turn's tile, a power said "use it while a tile is to be placed",
    as if the filler were that tile."""
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("flip", "reserve"))
    build(g, BLOCK)
    assert g.play(0, Placement(5, 0, 5, 0)) and g.options(0).step == "extras"
    flip, reserve = g.power_verdict(0, "flip"), g.power_verdict(0, "reserve")
    assert "gap fillers" in flip.message and "later turn's tile" in flip.message
    assert "is to be placed" not in flip.message + reserve.message
    assert "later turn's tile aside" in reserve.message
    # on the game's last turn there is no later one
    g = Game([Seat("P")], deck_from([9, 9]), Ruleset("classic", (BR, "gap_fillers"), ("flip",)))
    while not g.is_last_step():
        g.play(0, g.legal_placements(0)[0]) and g.options(0).step == "extras" and g.end_turn(0)
    assert g.play(0, g.legal_placements(0)[0]) and g.options(0).step == "extras"
    assert g.power_verdict(0, "flip").message == "The game's last tile is dealt with: this power can no longer be used."


def test_a_reserved_tile_lost_at_the_end_of_the_turn_is_not_also_told_when_it_must_be_built():
    """Built higher in the turn it was set aside, the tile is lost at the end of the turn: beside that the
    player still read "Your reserved 5 must be built at the latest in the turn in which you first build on
    level 1 or higher", a rule that no longer helps."""
    g = solo([9, 9, 5, 1, 3], modules=(BR, "gap_fillers"), powers=("reserve",))
    build(g, BLOCK)
    assert g.reserve(0) and g.play(0, Placement("F1", 0, 0, 0))
    [w] = g.options(0).warnings
    assert w.code == "reserve_last_turn" and "lost at the end of this turn" in w.message
