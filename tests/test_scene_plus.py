"""NMBR 9 ++ in the window, offscreen: start tiles and gap fillers on the table, the Breaking Rules
panel and every power, "2 of 3" (build or reject first), "Level to Level" (piles, choice, level cap).

Panel buttons are pressed by sending their click events, as the window would; tiles are laid by
setting the candidate like the pointer does and pressing Enter. With NMBR9_SHOTS=DIR each test saves
screenshots there (to look at).
"""
from __future__ import annotations

import os
import random

import pytest
from direct.gui import DirectGuiGlobals as DGG
from direct.showbase.MessengerGlobal import messenger
from panda3d.core import Filename, Point3

from nmbr9.rules import Placement, Ruleset, Seat
from nmbr9.rules.record import parse_record, replay
from nmbr9.scene.play import verdict_words
from tests.test_screens import click, frames, pass_the_table, texts, until   # (the app fixture: conftest.py)

pytestmark = pytest.mark.render

ALL = ("start_tiles", "gap_fillers", "breaking_rules")


def shot(app, name: str) -> None:
    folder = os.environ.get("NMBR9_SHOTS")
    if folder:
        frames(app, 2)
        app.base.graphicsEngine.renderFrame()
        app.base.win.saveScreenshot(Filename.fromOsSpecific(os.path.join(folder, name + ".png")))


def start(app, seats, ruleset, seed=3):
    m = app.store.new_match(seats, seed=seed, ruleset=ruleset)
    s = app.play(m)
    frames(app, 3)
    return m, s


def ps_ready(app):
    s = app.screen
    return until(app, lambda: s.ps if s.ps is not None and s.overlay is None and not s.ps.settling
                 and s.match.current_human == s.ps.seat else None)


def press(app, name: str) -> None:
    b = app.screen.plus_hud.buttons[name]
    assert b["state"] != DGG.DISABLED, name
    messenger.send(DGG.B1CLICK + b.guiId, [None])
    frames(app)


def lay(app, p: Placement) -> None:
    """Put the held piece at p (as the pointer would) and confirm with Enter."""
    ps = app.screen.ps
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    assert ps.verdict.ok, ps.verdict.message
    messenger.send("enter")
    frames(app, 3)


def lay_and_end(app, m, p: Placement) -> None:
    """Lay the turn's tile and end the turn if something optional (Relocate, a reserve) keeps it open."""
    lay(app, p)
    if m.options(0).can_end:
        press(app, "end_turn")


def textures_on_table(s) -> set[str]:
    return {t.getName() for t in s.table.tiles.findAllTextures()}


def test_setup_chooses_any_number_of_powers_or_draws_two(app):
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    assert "Powers (none chosen: two drawn at random):" not in texts(app)   # only with Breaking Rules
    click(app, "Breaking Rules: off")
    assert "Powers (none chosen: two drawn at random):" in texts(app)
    for text in ("\u2229 Bridge", "\u25e7 Flip", "\u25a3 Reserve"):
        click(app, text)
    assert "Powers in play:" in texts(app) and "\u2229 Bridge \u2713" in texts(app)
    click(app, "\u25a3 Reserve \u2713")                                  # again: not chosen
    shot(app, "setup-powers")
    click(app, "Start (Enter)")
    m = app.screen.match
    assert m.game.ruleset.powers == ("flip", "bridge")
    assert "Breaking Rules \u00b7 markers left: \u25cf\u25cf" in texts(app)


def test_start_tiles_and_gap_fillers_are_drawn_and_fillers_placed_with_their_own_ghost(app):
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("start_tiles", "gap_fillers")))
    ps = ps_ready(app)
    start_tile = m.game.players[0].start_tile
    assert m.board(0).tiles[0].piece == start_tile
    assert any(start_tile in name for name in textures_on_table(s))        # its own patterned art
    assert "Gap filler, 1 square" in texts(app) and "Gap filler, 2 squares" in texts(app)
    press(app, "filler_F2")
    assert ps.piece == "F2" and ps.ghost.node.getName() == "ghost_F2"
    shot(app, "filler-in-hand")
    p = m.game.legal_placements(0, "F2")[0]
    lay(app, p)
    assert [t.piece for t in m.board(0).tiles] == [start_tile, "F2"]
    assert m.game.players[0].fillers == ["F1"]
    assert "Gap filler, 2 squares" not in texts(app) and "Gap filler, 1 square" in texts(app)
    assert ps.piece == m.game.card                                  # the round's tile back in hand
    # a refused filler says why, and Enter commits nothing
    press(app, "filler_F1")
    ps.rotation, ps.x, ps.y = 0, 40, 40
    ps.update()
    assert not ps.verdict.ok and ps.verdict.code == "not_adjacent"
    assert ps.verdict.text(lambda t: t) in texts(app)
    messenger.send("enter")
    frames(app, 3)
    assert len(m.board(0).tiles) == 2
    press(app, "filler_F1")                                          # again: back to the tile
    assert ps.piece == m.game.card
    lay(app, m.game.legal_placements(0)[0])
    assert m.round == 1 and "End turn" in texts(app)                # F1 still in hand: the turn stays open
    press(app, "end_turn")
    assert m.round == 2
    top_of_supply = s.hud.supply.getTightBounds(s.hud.anchors["a2dTopLeft"])[1].z
    assert top_of_supply < s.hud.card.getZ() - 0.25                  # the cards to come stay under the card
    assert any("tile_F2" in name for name in textures_on_table(s))
    shot(app, "start-tile-and-filler")


def test_a_refused_gap_filler_is_named_as_the_gap_filler(app):
    """A refused gap filler was called "the tile" ("The tile must touch a tile of level 0 ..."), which reads as
    the round's number tile."""
    from nmbr9.rules import Board
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps = ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])                          # the round's tile: the fillers are left
    press(app, "filler_F2")
    ps.rotation, ps.x, ps.y = 0, 40, 40                              # far from the tile
    ps.update()
    assert "The gap filler must touch a tile of level 0 along a square's side." in texts(app)
    half_on = next(p for x in range(-8, 9) for y in range(-8, 9)
                   if (p := Placement("F2", 0, x, y)) and m.game.check(0, p).code == "not_supported")
    ps.x, ps.y = half_on.x, half_on.y                                 # one square on the tile, one beside it
    ps.update()
    assert "The gap filler overhangs or covers a hole: part of it has nothing under it on level 0." in texts(app)
    taken = Board([Placement(9, 0, 0, 0)]).verdict(Placement("F1", 0, 0, 0, level=0))   # its square taken
    assert verdict_words(taken, "F1") == "The gap filler would lie on a tile of level 0."
    assert verdict_words(taken, 5) == "Part of the tile would lie on a tile of level 0."


def test_take_back_in_solo_practice_with_modules(app):
    m = app.store.new_match([Seat("Ana")], seed=3, practice=True,
                            ruleset=Ruleset("classic", ("start_tiles", "gap_fillers", "breaking_rules"), ("flip",)))
    s = app.play(m)
    ps = ps_ready(app)
    press(app, "power_flip")
    lay(app, m.game.legal_placements(0, powers=("flip",))[0])
    assert len(m.board(0).tiles) == 2 and "End turn" in texts(app)
    messenger.send("t")
    frames(app, 3)
    ps = ps_ready(app)
    assert len(m.board(0).tiles) == 1 and not m.game.players[0].powers_used
    assert ps.piece == m.game.card and "markers left: \u25cf\u25cf" in texts(app)


def test_looking_at_another_board_and_back_keeps_the_tile_in_hand(app):
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset("classic", ("start_tiles", "gap_fillers")))
    ps = ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    press(app, "end_turn")
    ps = until(app, lambda: s.ps if m.round == 2 and s.ps is not None and s.ps.ghost is not None else None)
    ps.x += 1
    ps.update()
    where = (ps.x, ps.y)
    s.look(1)
    frames(app, 2)
    assert s.looking == 1 and ps.ghost is None and s.plus_hud.anchors["a2dBottomCenter"].isHidden()
    s.look(None)
    frames(app, 3)
    assert ps.ghost is not None and ps.piece == m.game.card and (ps.x, ps.y) == where
    assert not s.plus_hud.anchors["a2dBottomCenter"].isHidden()


def test_breaking_rules_panel_lists_the_powers_with_icons_and_markers(app):
    powers = ("relocate", "flip", "single_support", "bridge", "loner", "reserve")
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), powers))
    ps = ps_ready(app)

    def panel_at(size):
        s.hud.fit_window(size)
        s.plus_hud.fit_window()
        s.plus_hud.key = None
        ps.update()
        frames(app)
        return texts(app).splitlines()
    icons = (("\u21c4", "Relocate"), ("\u25e7", "Flip"), ("\u22a5", "Single support"), ("\u2229", "Bridge"),
             ("\u25ce", "Loner"), ("\u25a3", "Reserve"))
    shown = panel_at((1280, 720))                      # a roomy window: each power with its short text
    assert "Breaking Rules \u00b7 markers left: \u25cf\u25cf" in shown
    for number, (icon, text) in enumerate(icons, 1):   # numbered for Ctrl and the number
        assert any(line.startswith(f"{number} {icon}  {text}: ") for line in shown), text
    assert "2 \u25e7  Flip: black side up, mirrored; scores 0" in shown
    shown = panel_at((640, 360))                       # small: icons and names in two columns
    for number, (icon, text) in enumerate(icons, 1):
        assert f"{number} {icon}  {text}" in shown, text
    frame = s.plus_hud.powers_frame
    panel_top = app.base.aspect2d.getRelativePoint(frame, Point3(0, 0, frame["frameSize"][3])).z
    supply = s.hud.supply.getTightBounds(app.base.aspect2d)
    assert panel_top < supply[0].z                     # below the cards still to come
    from nmbr9.i18n import set_language
    from nmbr9.i18n.terms import name
    set_language("de")                                 # the panels follow a change of language
    frames(app, 2)
    assert s.plus_hud.buttons["power_flip"]["text"].startswith(f"2 \u25e7  {name('flip')}") and name("flip") != "Flip"
    # Relocate needs a tile of one's own: off before the first one
    assert s.plus_hud.buttons["power_relocate"]["state"] == DGG.DISABLED
    assert s.plus_hud.buttons["power_flip"]["state"] != DGG.DISABLED
    shot(app, "powers-panel")


def _flip_at_a_mirrored_number(app):
    """A Flip game with a tile laid and, in hand, a number whose mirror image differs: (match, screen, its ps)."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("flip", "loner")), seed=8)
    ps = ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    while m.game.card in (0, 1, 8):
        lay(app, m.game.legal_placements(0)[0])
        ps = ps_ready(app)
    return m, s, ps


def test_flip_lays_the_tile_black_side_up_mirrored_and_scoring_nothing(app):
    m, s, ps = _flip_at_a_mirrored_number(app)
    plain = ps.placement()
    press(app, "power_flip")
    assert s.plus_hud.buttons["power_flip"]["text"].endswith("(on)")
    p = ps.placement()
    assert p.flipped
    assert abs(ps.ghost.node.getR()) == pytest.approx(180)             # the black back faces up
    assert sorted(p.orientation().squares(0, 0)) != sorted(plain.orientation().squares(0, 0))
    target = m.game.legal_placements(0, powers=("flip",))[0]
    ps.rotation, ps.x, ps.y, ps.held = target.rotation, target.x, target.y, False
    ps.update()
    assert "black side up: scores 0" in texts(app) and "Using: Flip" in texts(app)
    shot(app, "flip")
    messenger.send("enter")
    frames(app, 3)
    laid = m.board(0).tiles[-1]
    assert laid.flipped and m.game.moves[-1].powers == ("flip",)
    shot(app, "flip-placed")
    assert "markers left: \u25cf\u25cb" in texts(app)
    assert "(used)" in s.plus_hud.buttons["power_flip"]["text"]
    assert s.plus_hud.buttons["power_flip"]["state"] == DGG.DISABLED
    assert "(used)" not in s.plus_hud.buttons["power_loner"]["text"]


def _board_needing(m, power, rng, limit=19):
    """Play the human's tiles at random (upward when possible) until `power` allows a new spot."""
    for _ in range(limit):
        with_power = set(m.game.legal_placements(0, powers=(power,)))
        if with_power - set(m.game.legal_placements(0)):
            return sorted(with_power - set(m.game.legal_placements(0)))
        options = m.game.legal_placements(0)
        top = max(p.level for p in options)
        yield_ = rng.choice([p for p in options if p.level == top] if rng.random() < 0.8 else options)
        m.play(0, yield_)
    return []


def _table_needing(app, power):
    """A game whose next tile has spots only `power` makes legal, at the table: (match, screen, the tile's
    play, those spots)."""
    for seed in range(40):
        m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), (power,)), seed=seed)
        spots = _board_needing(m, power, random.Random(seed))
        if spots:
            break
    else:
        pytest.skip(f"no table needing {power} found")
    ps = ps_ready(app)
    s.table.show(m.board(0))   # the tiles were laid through the match, not the screen
    ps.frame_camera()
    ps.start_turn()
    return m, s, ps, spots


@pytest.mark.parametrize("power", ["single_support", "bridge", "loner"])
def test_a_relaxing_power_turns_a_refused_spot_into_a_legal_one(app, power):
    m, s, ps, spots = _table_needing(app, power)
    target = spots[0]
    ps.rotation, ps.x, ps.y, ps.held = target.rotation, target.x, target.y, False
    ps.update()
    refused = ps.verdict
    assert not refused.ok
    assert verdict_words(refused) in texts(app)         # the reason in words, as the table says it
    press(app, f"power_{power}")
    ps.update()
    assert ps.verdict.ok and ps.verdict.level == target.level
    shot(app, power)
    messenger.send("enter")
    frames(app, 3)
    assert m.game.moves[-1].powers == (power,) and m.board(0).tiles[-1].level == target.level


@pytest.mark.parametrize("power", ["single_support", "loner"])
def test_an_armed_power_hints_a_spot_it_opens_and_says_when_a_spot_needs_it_not(app, power):
    """With Single support armed the hint laid the tile on the table's level (where any tile may lie), the
    verdict said "Using: Single support", and Enter spent the marker on it for nothing."""
    m, s, ps, _ = _table_needing(app, power)
    press(app, f"power_{power}")
    p = _hint_ghost(app, s)
    assert m.check(0, p, (power,)) and not m.check(0, p)     # a spot only the power opens
    name = {"single_support": "Single support", "loner": "Loner"}[power]
    said = f"Not needed here: {name} (its marker is spent anyway)"
    messenger.send("i")                                       # taken: it needs the power, nothing to say
    frames(app)
    assert ps.verdict.ok and said not in texts(app) and f"Using: {name}" in texts(app)
    plain = m.game.legal_placements(0)[0]                     # a spot the tile takes without it
    ps.rotation, ps.x, ps.y = plain.rotation, plain.x, plain.y
    ps.update()
    assert ps.verdict.ok and said in texts(app) and f"Using: {name}" not in texts(app)
    shot(app, f"{power}-not-needed")


def test_a_bridge_over_part_of_a_hole_is_told_so_and_marked_on_the_tile(app):
    """With Bridge armed, a tile over part of a closed hole was told "The tile overhangs or covers a hole"
    with a square of the hole marked (Bridge allows covering one): now it says the hole must be covered
    whole, and marks the tile's square over the part-covered hole."""
    from nmbr9.rules import Board
    from nmbr9.rules.board import BRIDGE_PART
    from nmbr9.rules.tiles import distinct_orientations
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("single_support", "bridge")))
    ps = ps_ready(app)
    m.game.boards[0] = Board([Placement(0, 0, 0, 0), Placement(0, 0, 3, 0)])   # holes: x 1 and x 4, y 1..2
    s.table.show(m.board(0))
    ps.frame_camera()
    ps.start_turn()
    press(app, "power_bridge")
    press(app, "power_single_support")
    digit, both = m.game.card, ("bridge", "single_support")
    spot = next(p for o in distinct_orientations(digit) for y in range(-3, 4) for x in range(-3, 7)
                if m.game.check(0, p := Placement(digit, o.rotation, x, y), both).template == BRIDGE_PART)
    ps.rotation, ps.x, ps.y, ps.held = spot.rotation, spot.x, spot.y, False
    ps.update()
    frames(app, 2)
    assert ps.verdict.template == BRIDGE_PART
    params = dict(ps.verdict.params)
    assert (params["x"], params["y"]) in spot.squares()   # the square marked lies on the tile
    assert "With Bridge the tile must cover the whole hole under the marked square, not just part of it." \
        in texts(app)
    shot(app, "bridge-part-of-a-hole")


def test_two_powers_not_needed_are_said_with_their_markers(app):
    """Bridge and Loner armed for a tile on the table's level: the verdict said "Not needed here: Bridge,
    Loner (its marker is spent anyway)", as if one marker went."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("bridge", "loner")))
    ps_ready(app)
    press(app, "power_bridge")
    assert "Not needed here: Bridge (its marker is spent anyway)" in texts(app)
    press(app, "power_loner")
    assert "Not needed here: Bridge, Loner (their markers are spent anyway)" in texts(app)


def _both_markers_spent(app):
    """A game with all six powers, both markers spent (on Reserve, then on Flip), the next tile in hand."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("relocate", "flip", "single_support",
                                                                              "bridge", "loner", "reserve")))
    ps_ready(app)
    press(app, "power_reserve")
    messenger.send("enter")
    frames(app, 3)
    ps_ready(app)
    press(app, "power_flip")
    lay(app, m.game.legal_placements(0, powers=("flip",))[0])
    ps_ready(app)
    return s


def test_with_no_marker_left_the_compact_powers_keep_inside_their_column(app):
    """At 640x480, with both markers spent, "3 Single support (no marker left)" ran over "4 Bridge" beside it."""
    from panda3d.core import TextNode
    s = _both_markers_spent(app)
    assert s.plus_hud.compact() and "markers left: \u25cb\u25cb" in texts(app)
    measure = TextNode("measure")
    measure.setFont(app.font)
    for name in ("power_single_support", "power_bridge", "power_loner", "power_flip"):
        b = s.plus_hud.buttons[name]
        left, right = b["frameSize"][:2]
        assert measure.calcWidth(b["text"]) <= right - left - 0.5, (name, b["text"])   # inside its button
        assert b["state"] == DGG.DISABLED
    assert "(used)" in s.plus_hud.buttons["power_flip"]["text"]
    shot(app, "powers-no-marker-left")


def test_with_no_marker_left_the_compact_panel_says_so(app):
    """At 640x480 (the compact Breaking Rules panel) with both markers spent, the greyed powers said nothing:
    "(no marker left)", which the full panel shows on each, did not fit there. The panel's title says it once."""
    s = _both_markers_spent(app)
    assert s.plus_hud.compact()
    title = next(line for line in texts(app).split("\n") if line.startswith("Breaking Rules"))
    for power in ("relocate", "single_support", "bridge", "loner"):   # greyed, not used: why, on it or above
        b = s.plus_hud.buttons[f"power_{power}"]
        assert b["state"] == DGG.DISABLED
        assert "(no marker left)" in b["text"] or "(no marker left)" in title, (b["text"], title)


def test_reserve_sets_the_tile_beside_the_table_and_it_is_built_later(app):
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve", "flip")), seed=4)
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    digit = m.game.card
    press(app, "power_reserve")
    messenger.send("enter")   # Reserve armed: Enter sets the tile aside, as it confirms a tile
    frames(app, 3)
    assert m.game.players[0].reserve.digit == digit
    ps = ps_ready(app)
    frames(app, 2)
    assert s.plus_hud.reserved_card is not None and str(digit) in s.plus_hud.lines   # waiting on its button
    assert f"Reserved: {digit}" in texts(app) or f"Build the reserved {digit}" in texts(app)
    assert "must be built at the latest" in texts(app)
    shot(app, "reserve-aside")
    # next turn: the round's tile first, then the reserved one as a second tile
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    assert f"Build the reserved {digit}" in texts(app)
    press(app, "reserved")
    assert ps.piece == digit and ps.mode == "reserved"
    lay(app, m.game.legal_placements(0, reserved=True)[0])
    assert m.game.moves[-1].reserved and m.game.players[0].reserve.state == "built"
    # with the turn's tile placed and nothing optional left the turn ends by itself
    until(app, lambda: m.round == 4 or None)


def test_reserve_is_taken_back_until_it_is_confirmed_like_every_other_power(app):
    """Reserve set the tile aside and spent its marker on one click, with no way back: Reserve again,
    Backspace or Esc now bring the tile back in hand with the marker; Enter (or Confirm) sets it aside."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve", "flip")), seed=4)
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    digit, moves = m.game.card, len(m.game.moves)
    two = "Breaking Rules \u00b7 markers left: \u25cf\u25cf"
    for undo in ("power_reserve", "backspace", "escape"):
        press(app, "power_reserve")
        assert ps.ghost is None and m.game.players[0].reserve is None and len(m.game.moves) == moves
        assert f"Reserved: {digit} (built from your next turn)" in texts(app)   # its card, on its button
        assert s.plus_hud.buttons["power_reserve"]["text"].endswith("(on)") and two in texts(app)
        assert s.hud.confirm["state"] == DGG.NORMAL and "Backspace takes it back" in s.hud.verdict["text"]
        shot(app, "reserve-armed")
        if undo == "power_reserve":
            press(app, undo)
        else:
            messenger.send(undo)
            frames(app, 3)
        assert ps.piece == digit and ps.ghost is not None, undo   # back in hand, to lay as ever
        assert m.game.players[0].reserve is None and len(m.game.moves) == moves and two in texts(app)
        assert f"Reserved: {digit} (built from your next turn)" not in texts(app)
    press(app, "power_reserve")
    press(app, "power_flip")                 # a power for the tile: it comes back in hand, black side up
    assert ps.ghost is not None and ps.powers == {"flip"} and "Using: Flip" in texts(app)
    press(app, "power_reserve")              # and Reserve puts it away again, Flip with it
    assert ps.ghost is None and ps.powers == {"reserve"}
    messenger.send(DGG.B1CLICK + s.hud.confirm.guiId, [None])   # Confirm sets it aside, as Enter does
    frames(app, 3)
    assert m.game.players[0].reserve.digit == digit and m.game.moves[-1].kind == "reserve"
    assert "Breaking Rules \u00b7 markers left: \u25cf\u25cb" in texts(app)


def test_a_hint_with_reserve_armed_takes_the_tile_back_in_hand_and_shows_its_spot(app):
    """With Reserve armed (the tile out of hand) I and the Hint button did nothing; with Relocate picking its
    tile too."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve", "relocate")), seed=4)
    ps_ready(app)
    lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    digit = m.game.card
    for ask in ("i", "Hint (I)"):
        press(app, "power_reserve")
        assert ps.ghost is None
        messenger.send("i") if ask == "i" else click(app, "Hint (I)")
        p = until(app, lambda: s.hint["result"]["placement"] if s.hint is not None and s.hint["ghost"] is not None
                  else None, 60)
        assert ps.piece == digit and ps.ghost is not None and "reserve" not in ps.powers   # back in hand
        assert not s.plus_hud.buttons["power_reserve"]["text"].endswith("(on)")
        assert p.piece == digit and m.check(0, p)
        assert f"Reserve is off: the hint is where to lay your {digit}." in texts(app)
        assert s.status["text"].startswith("Hint: the strongest bot would lay it where the")
        shot(app, f"reserve-hint-{ask[0]}")
        assert m.game.players[0].reserve is None
    press(app, "power_relocate")                      # picking the tile to move: the hint says what it is for
    messenger.send("i")
    frames(app, 3)
    assert "Relocate: a hint is for the tile you pick up." in texts(app) and s.hint is None
    assert s.ps.mode == "pick"


def test_a_power_armed_with_the_reserved_tile_in_hand_is_for_the_turns_tile(app):
    """No power changes a reserved tile built in a later turn (it is not the tile just taken): Flip armed with it
    in hand flipped it. The power now brings the turn's tile back in hand, armed for it; the reserved tile taken
    in hand again puts the power away."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve", "flip")), seed=4)
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    digit = m.game.card
    press(app, "power_reserve")
    messenger.send("enter")
    frames(app, 3)
    ps = ps_ready(app)
    assert m.options(0).reserve_ready and m.options(0).step == "place"
    messenger.send("v")
    frames(app)
    assert ps.mode == "reserved" and ps.piece == digit
    press(app, "power_flip")
    assert ps.mode == "tile" and ps.piece == m.game.card and ps.powers == {"flip"} and ps.flipped
    messenger.send("v")                              # the reserved tile again: no power for it
    frames(app)
    assert ps.mode == "reserved" and not ps.flipped and not ps.powers and "Flip (on)" not in texts(app)
    shot(app, "reserved-tile-no-power")


def test_the_reserve_warns_in_its_last_turn(app):
    """Its last turn is said once: the general deadline ("must be built at the latest ...") showed beside it."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve", "flip")), seed=4)
    rng = random.Random(1)
    for _ in range(2):
        ps_ready(app)
        lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    press(app, "power_reserve")
    messenger.send("enter")
    frames(app, 3)
    ps = ps_ready(app)
    for _ in range(12):   # build higher with the round's tile: the warning comes in that turn
        higher = [p for p in m.game.legal_placements(0) if p.level > m.game.players[0].reserve.below]
        if higher:
            lay(app, higher[0])
            break
        lay_and_end(app, m, rng.choice(m.game.legal_placements(0)))
        ps = ps_ready(app)
    else:
        pytest.skip("no higher spot came")
    ps = ps_ready(app)
    assert "last turn for your reserved" in texts(app) and "must be built at the latest" not in texts(app)
    shot(app, "reserve-last-turn")
    press(app, "end_turn")
    until(app, lambda: m.game.players[0].reserve.state == "lost" or None)
    digit = m.game.players[0].reserve.digit
    said = f"Your reserved {digit} is lost: it was not built in time."
    until(app, lambda: said in texts(app))
    assert s.plus_hud.reserved_card is None
    shot(app, "reserve-lost")
    # said in that turn only: it used to stay for the rest of the game, and came back after Continue
    ps_ready(app)
    lay_and_end(app, m, m.game.legal_placements(0)[0])
    for _ in range(2):
        ps_ready(app)
        frames(app, 3)
        assert said not in texts(app), m.round
        lay_and_end(app, m, m.game.legal_placements(0)[0])
    app.play(m)                            # Continue: the session again
    ps_ready(app)
    frames(app, 3)
    assert said not in texts(app)


def test_relocate_picks_a_free_tile_then_places_it(app):
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("relocate", "flip")), seed=5)
    for _ in range(3):
        ps_ready(app)
        lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    before = len(m.game.moves)
    press(app, "power_relocate")
    assert ps.mode == "pick" and "click one of your tiles" in texts(app)
    assert ps.marks.getNumChildren() >= 1 and ps.marks.getTightBounds() is not None   # the movable tiles lit
    shot(app, "relocate-pick")
    frames(app, 3)
    assert ps.mode == "pick"                                          # the session keeps it while picking
    messenger.send("escape")                                          # changed her mind: costs nothing
    frames(app)
    assert ps.mode == "tile" and ps.ghost is not None and not m.game.players[0].powers_used
    press(app, "power_relocate")
    at = m.game.movable_tiles(0)[0]
    target = m.game.relocation_targets(0, at)[-1]
    # click the tile on the screen
    from tests.test_scene import screen_of_square
    mx, my = screen_of_square(s.camera, at[0], at[1], at[2] + 1)
    ps.press("mouse1", mx, my)
    assert ps.mode == "move" and ps.piece == m.board(0).tiles[m.board(0).tile_at(*at)].piece
    assert ps.marks is None
    assert len(s.table.board.tiles) == len(m.board(0).tiles) - 1     # drawn without the lifted tile
    shot(app, "relocate")
    lay(app, target)
    moved = m.game.moves[before]
    assert moved.kind == "relocate" and moved.source == at
    assert "relocate" in m.game.players[0].powers_used and m.board(0).tiles[m.board(0).tile_at(
        target.x + target.orientation().squares(0, 0)[0][0], target.y + target.orientation().squares(0, 0)[0][1],
        moved.placement.level)].piece == moved.placement.piece


def test_relocate_picks_its_tile_with_the_arrow_keys_and_enter(app):
    """Keyboard only: Relocate said "click one of your tiles", the arrows did nothing, and Enter, with the
    turn's tile laid, ended the turn instead of taking up a tile."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("relocate", "flip")), seed=5)
    for _ in range(3):
        ps_ready(app)
        lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])          # the turn's tile laid: Enter would end the turn
    assert m.options(0).can_end
    messenger.send("control-1")
    frames(app)
    assert ps.mode == "pick" and "arrow keys and Enter" in texts(app)
    movable = m.game.movable_tiles(0)
    assert len(movable) >= 2
    messenger.send("arrow_right")                    # the next free tile
    frames(app)
    shot(app, "relocate-pick-keys")
    messenger.send("enter")
    frames(app)
    board = m.board(0)
    assert ps.mode == "move" and 0 in m.game.waiting()
    assert ps.piece == board.tiles[board.tile_at(*movable[1])].piece
    lay(app, m.game.relocation_targets(0, movable[1])[0])
    assert m.game.moves[-1].kind == "relocate" and m.game.moves[-1].source == movable[1]


def test_end_turn_appears_when_only_options_are_left(app):
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    assert "end_turn" not in s.plus_hud.buttons
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    assert "Your tile is dealt with. You may still: place a gap filler. Or end your turn." in texts(app)
    assert "End turn" in texts(app)
    shot(app, "end-turn")
    messenger.send("x")
    until(app, lambda: m.round == 2 or None)


def test_the_key_help_offers_backspace_only_with_a_piece_in_hand(app):
    """With the turn's tile laid and only a gap filler left to place, the key help still offered Backspace
    (put the tile back in hand), which then did nothing."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    frames(app, 2)
    backspace = "Backspace: put the tile back in hand"
    assert backspace in s.keys["text"].replace("\n", " ")    # the turn's tile in hand
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    frames(app, 2)
    assert m.options(0).step == "extras" and backspace not in s.keys["text"].replace("\n", " ")
    press(app, "filler_F1")                                   # a gap filler in hand: Backspace puts it away
    frames(app, 2)
    assert backspace in s.keys["text"].replace("\n", " ")
    messenger.send("backspace")
    frames(app, 2)
    assert s.ps.ghost is None and backspace not in s.keys["text"].replace("\n", " ")


def test_enter_ends_a_turn_left_open_only_for_options(app):
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    assert "End turn (Enter, X)" in texts(app) and m.round == 1
    messenger.send("enter")          # the fillers stay in hand: the player declined them
    until(app, lambda: m.round == 2 or None)
    assert [mv.kind for mv in m.game.moves] == ["place", "end"] and len(m.board(0).tiles) == 1


def test_only_the_button_enter_presses_names_enter(app):
    """With a gap filler in hand "End turn (Enter, X)" stood beside "Confirm (Enter)", and Enter confirmed
    the filler."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    press(app, "filler_F1")
    assert ps.piece == "F1" and "End turn (X)" in texts(app) and "End turn (Enter, X)" not in texts(app)
    press(app, "filler_F1")                                   # put back: Enter ends the turn again
    assert ps.piece is None and "End turn (Enter, X)" in texts(app)


def test_two_of_three_asks_build_or_reject_first_and_shows_the_slots(app, capsys):
    app.trace_on = True
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset("two_of_three"))
    ps = ps_ready(app)
    assert ps.ghost is None                                           # nothing to place before deciding
    first = m.game.card
    assert f"Card 1 of 3: the {first}. Build it or reject it?" in texts(app)
    assert "This round's cards" in texts(app) and "Reject markers:" in texts(app)
    assert "\u25cf Ana: free" in texts(app) and "\u25cf Bot: free" in texts(app)
    shot(app, "two-of-three-prompt")
    press(app, "reject")
    assert m.game.players[0].decisions == [False]
    assert "trace: plus decide False seat=0 round=1 moves=1" in capsys.readouterr().out
    ps = until(app, lambda: s.ps if m.game.slot == 1 and s.ps is not None and s.plus_hud.buttons.get("build")
               else None)
    assert "You have rejected a card this round: build this one." in texts(app)
    assert f"Card 2 of 3: the {m.game.card}." in texts(app) and "Build it or reject it?" not in texts(app)   # no choice
    assert s.plus_hud.buttons["reject"]["state"] == DGG.DISABLED
    assert "\u25cb Ana: used" in texts(app)
    shot(app, "two-of-three-forced")
    press(app, "build")
    assert ps.piece == m.game.card and ps.ghost is not None
    lay(app, m.game.legal_placements(0)[0])
    until(app, lambda: m.game.slot == 2 and s.plus_hud.buttons.get("build") or None)
    messenger.send("r")                                                # the keyboard: refused, two not built yet
    frames(app)
    assert "You have rejected a card this round: build this one." in texts(app)
    messenger.send("b")
    frames(app)
    assert s.ps.piece == m.game.card and s.ps.ghost is not None
    lay(app, m.game.legal_placements(0)[0])
    until(app, lambda: m.round == 2 or None)
    assert m.game.players[0].decisions == [] and len(m.board(0).tiles) == 2


def test_two_of_three_names_the_card_and_a_reject_as_they_are(app):
    """"Card 1 of 3: a 8." (an 8); after a reject, with a gap filler left, the note said "Your tile is dealt
    with", though no tile was laid."""
    m, s = start(app, [Seat("Ana")], Ruleset("two_of_three", ("gap_fillers",)), seed=5)
    ps_ready(app)
    assert f"Card 1 of 3: the {m.game.card}. Build it or reject it?" in texts(app)
    press(app, "reject")
    ps_ready(app)
    assert m.options(0).step == "extras"
    assert "You rejected this card. You may still: place a gap filler. Or end your turn." in texts(app)
    assert "dealt with" not in texts(app)
    shot(app, "two-of-three-rejected-note")


def _hint_in_words(app, s):
    messenger.send("i")
    said = until(app, lambda: s.status["text"] if s.status["text"].startswith("Hint:") else None, 60)
    frames(app, 5)
    assert s.status["text"] == said          # it stays up while the question is open
    return said


def test_hint_before_the_tile_says_build_or_reject_as_the_strongest_bot_would(app):
    import copy
    from nmbr9.ai.plus import plan_turn
    from nmbr9.match import derive_seed
    m, s = start(app, [Seat("Ana")], Ruleset("two_of_three"), seed=4)
    ps_ready(app)
    name, (build,) = plan_turn(copy.deepcopy(m.game), 0, "hard", derive_seed(m.seed, "hint", 0, 1))[0]
    assert name == "decide"
    said = _hint_in_words(app, s)
    assert said == ("Hint: the strongest bot would build it (B)." if build else
                    "Hint: the strongest bot would reject it (R).")
    messenger.send("b" if build else "r")
    until(app, lambda: m.options(0).step != "decide" or None)
    frames(app, 3)
    assert not s.status["text"].startswith("Hint:")          # the answered question's hint is gone


def test_the_key_help_promises_taking_the_hint_only_with_a_tile_to_take(app):
    """Asked to build or reject a card (or which shown tile to take), the key help said "I: hint (again: take
    it)"; the hint is said in words there, and a second I did nothing."""
    keys = lambda s: s.keys["text"].replace("\n", " ")
    for variant in ("two_of_three", "level_to_level"):
        m, s = start(app, [Seat("Ana")], Ruleset(variant), seed=4)
        ps_ready(app)
        if variant == "level_to_level":   # rounds 1 and 2 show one tile, simply placed
            for _ in range(2):
                lay(app, m.game.legal_placements(0)[0])
                ps_ready(app)
            assert m.options(0).step == "choose"
        else:
            assert m.options(0).step == "decide"
        frames(app, 2)
        assert "I: hint" in keys(s) and "again: take it" not in keys(s)
        messenger.send("0" if variant == "level_to_level" else "b")
        until(app, lambda: s.ps.ghost)
        frames(app, 2)
        assert "I: hint (again: take it)" in keys(s)


def test_the_key_help_promises_taking_the_hint_only_with_a_piece_in_hand(app):
    """The turn's tile laid, a gap filler left: the key help still said "I: hint (again: take it)"; I says a
    hint is for a piece held, and a second I did nothing. With the filler in hand it takes its hint."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    frames(app, 2)
    keys = lambda: s.keys["text"].replace("\n", " ")
    assert m.options(0).step == "extras" and "I: hint" in keys() and "again: take it" not in keys()
    press(app, "filler_F1")
    frames(app, 2)
    assert "I: hint (again: take it)" in keys()


def test_level_to_level_says_not_active_without_breaking_a_word(app):
    """In Polish "nieaktywny" was wider than its pile and broke into "nieaktywn" / "y", at every window size."""
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from nmbr9.i18n import _, set_language
    set_language("pl")
    start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    ps_ready(app)
    frames(app, 2)
    said = [w for w in list(DirectGuiWidget.guiDict.values()) if w["text"] == _("not active") and not w.isHidden()]
    assert len(said) == 4 and _("not active") == "nieaktywny"
    for w in said:
        assert w.component("text0").textNode.getNumRows() == 1


def test_another_board_is_framed_in_the_room_the_hidden_piles_leave(app):
    """Tab from one's own table in "Level to Level": the other board was framed above the piles, hidden
    meanwhile, in the top half of the window (Tab again, to the next board, framed it in all of it)."""
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset("level_to_level"), seed=2)
    ps_ready(app)
    frames(app, 3)
    messenger.send("tab")
    frames(app, 5)
    assert s.looking == 1 and s.plus_hud.anchors["a2dBottomCenter"].isHidden()
    rooms = list(s.camera.rooms)
    s.fit_table()                      # framed again for the HUD as it stands: the same rooms
    assert s.camera.rooms == rooms
    messenger.send("escape")           # back at one's own table: clear of the piles shown again
    frames(app, 5)
    assert s.looking is None and not s.plus_hud.anchors["a2dBottomCenter"].isHidden()
    rooms = list(s.camera.rooms)
    s.fit_table()
    assert s.camera.rooms == rooms


def test_level_to_level_shows_the_piles_and_the_choice_with_its_level_cap(app):
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset("level_to_level"), seed=2)
    ps = ps_ready(app)
    for k in range(5):
        assert f"Level {k}" in texts(app)
    assert texts(app).count("not active") == 4
    assert ps.piece == m.game.shown[0]                                 # one tile shown: simply placed
    spot = m.game.legal_placements(0)[0]
    ps.rotation, ps.x, ps.y, ps.held = spot.rotation, spot.x, spot.y, False
    ps.update()
    said = s.hud.verdict["text"]   # it said "may go up to level 0", as if it might go higher
    assert "The tile from level marker 0 stays on level 0 (the table)." in said and "up to level 0" not in said
    for _ in range(2):
        lay(app, m.game.legal_placements(0)[0])
        ps = until(app, lambda: s.ps if s.ps is not None and m.current_human == 0 and s.ps.ghost is None
                   and len(m.game.shown) > 1 or (s.ps if s.ps and s.ps.ghost is not None else None) else None)
    until(app, lambda: m.round == 3 or None)
    ps = ps_ready(app)
    frames(app, 2)
    assert m.game.active == 2 and ps.ghost is None
    assert "Choose one of the shown tiles" in texts(app)
    assert _hint_in_words(app, s).startswith("Hint: the strongest bot would take the tile under marker ")
    shot(app, "level-to-level-choice")
    messenger.send("1")                                                # the key of level marker 1
    frames(app)
    assert ps.piece == m.game.shown[1]
    # the cap of marker 1 is in the verdict
    spot = m.game.legal_placements(0)[0]
    ps.rotation, ps.x, ps.y, ps.held = spot.rotation, spot.x, spot.y, False
    ps.update()
    assert "The tile from level marker 1 may go up to level 1." in s.hud.verdict["text"]
    lay(app, spot)
    assert [mv for mv in m.game.moves if mv.player == 0][-1].marker == 1   # (the bot may have moved after Ana)


def test_level_to_level_frames_the_table_clear_of_the_piles(app):
    """The piles (bottom middle) used to cover the front of a wide table and the hint's ghost on it."""
    from panda3d.core import Point2, Point3
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    rng = random.Random(1)
    while len(m.game.moves) < 10:
        if m.options(0).step == "choose":
            m.choose(0, max(m.options(0).choices))
        spots = m.game.legal_placements(0)
        m.play(0, rng.choice([p for p in spots if p.level == max(q.level for q in spots)]))
    ps = ps_ready(app)
    s.table.show(m.board(0))
    ps.frame_camera()
    frames(app, 2)

    def board_box():   # the squares' corners on the screen (aspect2d)
        cam, lens, seen = app.base.cam, app.base.camLens, []
        for t in m.board(0).tiles:
            for x, y in t.squares():
                for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                    out = Point2()
                    assert lens.project(cam.getRelativePoint(app.base.render, Point3(x + dx, -(y + dy), 0)), out)
                    seen.append(app.base.aspect2d.getRelativePoint(app.base.render2d, Point3(out.x, 0, out.y)))
        return min(p.x for p in seen), max(p.x for p in seen), min(p.z for p in seen), max(p.z for p in seen)
    # clear of the piles (in a small window like this one, where they reach the middle: below them, at the left)
    keys, piles = _box(app, s.keys, s.keys.guiItem.getFrame()), s.plus_hud.piles_frame
    assert not _overlap(board_box(), _box(app, piles, piles["frameSize"]))
    shot(app, "level-to-level-framed")
    assert s.keys.isHidden() == _overlap(keys, _box(app, piles, piles["frameSize"]))   # never runs under them
    app.menu()
    frames(app, 2)
    assert tuple(app.base.camLens.getFilmOffset()) == (0, 0)     # other screens use the whole screen


def test_a_reserve_lost_in_the_last_turn_is_said_after_continue_too(app):
    """Quit after the turn that lost the reserved tile, Continue: the next turn's note was never said
    (the session took every reserve already lost for one said before it)."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("reserve",)), seed=4)
    ps_ready(app)
    g, rng = m.game, random.Random(1)
    for _ in range(2):
        assert m.play(0, g.legal_placements(0)[0])
    assert m.reserve(0)
    for _ in range(14):
        higher = [p for p in g.legal_placements(0) if p.level > g.players[0].reserve.below]
        assert m.play(0, higher[0] if higher else rng.choice(g.legal_placements(0)))
        if g.options(0).can_end:
            assert m.end_turn(0)
        if higher:
            break
    else:
        pytest.skip("no higher spot came")
    r = g.players[0].reserve
    assert r.state == "lost"
    app.play(m)                                          # Continue: a new session at the next turn
    ps_ready(app)
    frames(app, 3)
    until(app, lambda: f"Your reserved {r.digit} is lost: it was not built in time." in texts(app), 10)


def test_a_lost_reserve_is_said_to_the_player_after_the_hand_off(app):
    """Pass and play: the note was set on the new play screen after its panels were drawn, and
    never drawn (alone at the table it came in only because the note changed under a drawn screen)."""
    m, s = start(app, [Seat("Ana"), Seat("Ben")], Ruleset("classic", ("breaking_rules",), ("reserve",)), seed=4)
    g, rng = m.game, random.Random(1)

    def turn(player, p):
        assert m.play(player, p)
        if g.options(player).can_end:
            assert m.end_turn(player)

    for _ in range(2):
        turn(0, g.legal_placements(0)[0])
        turn(1, g.legal_placements(1)[0])
    assert m.reserve(0)
    turn(1, g.legal_placements(1)[0])
    for _ in range(14):
        higher = [p for p in g.legal_placements(0) if p.level > g.players[0].reserve.below]
        turn(0, higher[0] if higher else rng.choice(g.legal_placements(0)))
        if higher:
            break
        turn(1, g.legal_placements(1)[0])
    else:
        pytest.skip("no higher spot came")
    r = g.players[0].reserve
    assert r.state == "lost" and g.waiting() == [1]
    app.play(m)
    s = app.screen
    said = f"Your reserved {r.digit} is lost: it was not built in time."
    until(app, lambda: s.overlay == "handoff" and m.current_human == 1 or None)
    pass_the_table(app)
    ps_ready(app)
    assert said not in texts(app)                        # Ben's turn: not his reserve
    lay(app, g.legal_placements(1)[0])
    until(app, lambda: s.overlay == "handoff" and m.current_human == 0 or None)
    pass_the_table(app)
    ps_ready(app)
    until(app, lambda: said in texts(app), 10)


def test_level_to_level_skipped_round_is_said_after_continue_too(app):
    seats = [Seat("Ana"), Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:easy"), Seat("Bot 3", "bot:easy")]
    m, s = start(app, seats, Ruleset("level_to_level"), seed=6)
    g = m.game
    ps_ready(app)
    g.players[0].supply[g.deck[1]] = 0                  # as if Ana had built her three of round 2's number
    lay(app, g.legal_placements(0)[0])
    until(app, lambda: m.round == 3 and s.ps is not None and s.ps.ghost is None or None)
    app.play(m)                                          # Continue: a new session in round 3
    ps_ready(app)
    until(app, lambda: f"Round 2: none of the shown tiles ({g.deck[1]}) was left in your supply, so you "
                       "skipped that round." in texts(app), 10)


def test_level_to_level_with_four_explains_a_skipped_round(app):
    seats = [Seat("Ana"), Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:easy"), Seat("Bot 3", "bot:easy")]
    m, s = start(app, seats, Ruleset("level_to_level"), seed=6)
    g = m.game
    assert g.deck[1] not in g.deck[2:4]                 # (the seed is chosen so round 3 shows other numbers)
    ps_ready(app)
    assert "Your supply: 0\u00d73" in texts(app)       # four players: a supply of three of each number
    g.players[0].supply[g.deck[1]] = 0                  # as if Ana had built her three of round 2's number
    lay(app, g.legal_placements(0)[0])
    until(app, lambda: m.round == 3 and s.ps is not None and s.ps.ghost is None or None)
    frames(app, 2)
    assert len(m.board(0).tiles) == 1                   # nothing built in round 2
    assert (f"Round 2: none of the shown tiles ({g.deck[1]}) was left in your supply, so you skipped that round."
            in texts(app))
    shot(app, "level-to-level-skipped")


def _hint_ghost(app, s):
    messenger.send("i")
    h = until(app, lambda: s.hint if s.hint is not None and s.hint["ghost"] is not None else None, 60)
    return h["result"]["placement"]


def test_a_hint_under_start_tiles_and_an_armed_flip_is_legal_under_them(app):
    """The hint was the classic hard bot's spot: refused on a start tile's squares, and never
    flipped with Flip armed (then replaced by the highest legal spot, whatever its value)."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("start_tiles", "breaking_rules"), ("flip", "loner")),
                 seed=8)
    ps = ps_ready(app)
    p = _hint_ghost(app, s)
    assert not p.flipped and m.check(0, p)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    while m.game.card in (0, 1, 8):   # a number whose mirror image differs
        lay(app, m.game.legal_placements(0)[0])
        ps = ps_ready(app)
    press(app, "power_flip")
    p = _hint_ghost(app, s)
    assert p.flipped and m.check(0, p, ("flip",))       # black side up, as the tile in hand
    press(app, "power_flip")                                              # Flip off: that hint is gone
    frames(app, 2)
    assert s.hint is None and not s.status["text"].startswith("Hint:")
    p = _hint_ghost(app, s)
    assert not p.flipped and m.check(0, p)
    messenger.send("i")                                                   # taken, then laid
    frames(app)
    messenger.send("enter")
    frames(app, 3)
    assert m.board(0).tiles[-1] == m.game.boards[0].tiles[-1] and not m.board(0).tiles[-1].flipped
    assert (m.board(0).tiles[-1].x, m.board(0).tiles[-1].y) == (p.x, p.y)


def test_a_flipped_hint_taken_then_flip_dropped_no_longer_says_enter_lays_it(app):
    """I, I with Flip armed put the flipped tile on the hint's spot; Ctrl+2 then turned the tile numeral up
    (red there: it overhangs) and the hint's ghost went, but the status still said the tile was on the
    hint's spot and Enter would lay it."""
    m, s, ps = _flip_at_a_mirrored_number(app)
    press(app, "power_flip")
    _hint_ghost(app, s)
    messenger.send("i")                                                   # taken: on the hint's spot
    frames(app)
    on_spot = "Your tile is on the hint's spot: Enter lays it."
    assert on_spot in texts(app) and ps.verdict.ok
    press(app, "power_flip")                                              # Flip off: not the hint's tile
    frames(app, 2)
    assert on_spot not in texts(app)


def test_a_power_armed_while_the_bot_thinks_does_not_leave_looking_for_a_good_place(app, monkeypatch):
    """I, then Ctrl+number before the hint showed: that hint answered another question and was dropped,
    but the status said "Looking for a good place..." for the rest of the turn, a hint that never came."""
    import threading
    from nmbr9.scene.screens import session
    found, send = threading.Event(), session.worker.start

    def slowly(work, kind):   # the hint is sent at once (worker.start), its answer held until `found`
        answer = send(work, kind)

        def found_by_now():
            found.wait(60)
            return answer()
        return found_by_now
    monkeypatch.setattr(session.worker, "start", slowly)
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("flip", "loner")), seed=8)
    ps_ready(app)
    messenger.send("i")
    frames(app)
    looking = "Looking for a good place\u2026"
    assert looking in texts(app)
    press(app, "power_flip")                               # another question: that hint will not show
    found.set()
    until(app, lambda: s.hint is None or None, 60)
    frames(app, 2)
    assert looking not in texts(app)


def _the_first_filler_in_hand(app):
    """Round 2 of a game with gap fillers: the turn's tile laid, G took the 1-square filler in hand."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)), seed=7)
    ps_ready(app)
    lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])                # the turn's tile is laid: fillers are left
    messenger.send("g")
    frames(app)
    assert s.ps.piece == "F1"
    return m, s


def test_g_to_the_next_gap_filler_takes_the_last_fillers_hint_away(app):
    """G, I showed the 1-square filler's hint; G again took the 2-square filler in hand, but that ghost stayed,
    and I then put the 2-square filler on the 1-square's spot (red: it overhangs) saying "Your tile is on the
    hint's spot: Enter lays it."."""
    m, s = _the_first_filler_in_hand(app)
    p = _hint_ghost(app, s)
    assert p.piece == "F1"
    messenger.send("g")                                    # the next filler: the 1-square's hint is not for it
    frames(app, 2)
    assert s.ps.piece == "F2" and s.hint is None and not s.status["text"].startswith("Hint:")
    p = _hint_ghost(app, s)                                # I: its own hint, not the 1-square's taken
    assert p.piece == "F2" and m.check(0, p)
    messenger.send("i")
    frames(app)
    assert s.ps.verdict.ok and (s.ps.x, s.ps.y, s.ps.rotation) == (p.x, p.y, p.rotation)


def test_a_hint_with_a_gap_filler_or_a_relocated_tile_in_hand_is_for_that_piece(app):
    """With a gap filler in hand the hint was the turn's tile's spot (an 8 already laid, too), and
    I again put the filler there; a tile being relocated got the turn's tile's spot as well."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers", "breaking_rules"), ("relocate",)),
                 seed=7)
    ps_ready(app)
    lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])              # the turn's tile is laid: fillers are left
    assert m.options(0).step == "extras"
    press(app, "filler_F2")
    assert s.ps.piece == "F2"
    p = _hint_ghost(app, s)
    assert p.piece == "F2" and m.check(0, p)
    messenger.send("i")                                   # taken: the filler is on the hint's spot
    frames(app)
    assert s.ps.verdict.ok and (s.ps.x, s.ps.y, s.ps.rotation) == (p.x, p.y, p.rotation)
    messenger.send("enter")
    frames(app, 3)
    assert m.game.players[0].fillers == ["F1"]
    press(app, "power_relocate")                          # Relocate: pick the first tile
    at = m.game.movable_tiles(0)[0]
    assert s.ps.pick(*at)
    frames(app)
    p = _hint_ghost(app, s)
    assert p.piece == m.board(0).tiles[m.board(0).tile_at(*at)].piece
    assert m.game.check_relocate(0, at, p)


def test_level_to_level_refuses_above_the_markers_level(app):
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    rng = random.Random(3)
    for _ in range(30):
        ps = ps_ready(app)
        o = m.options(0)
        if o.step == "choose":
            ps.choose(min(o.choices))
            o = m.options(0)
        over = [p for p in m.game.boards[0].legal_placements(o.digit) if p.level > o.max_level]
        if over:
            p = over[0]
            ps.rotation, ps.x, ps.y = p.rotation, p.x, p.y
            ps.update()
            assert not ps.verdict.ok and ps.verdict.code == "level_cap"
            assert ps.verdict.text(lambda t: t) in texts(app)
            shot(app, "level-cap")
            return
        options = m.game.legal_placements(0)
        top = max(q.level for q in options)
        lay(app, rng.choice([q for q in options if q.level == top]))
    pytest.skip("no spot above the cap came")


def _human_turn(app, m, s, rng) -> None:
    """The current human does something sensible with every ++ action, at random."""
    ps = s.ps
    seat = ps.seat
    o = m.options(seat)
    if o.step == "decide":
        press(app, "build" if o.can_build and (not o.can_reject or rng.random() < 0.7) else "reject")
        return
    if o.step == "choose":
        press(app, f"choose_{rng.choice(sorted(o.choices))}")
        return
    r = rng.random()
    if o.fillers and r < 0.25:
        piece = rng.choice(o.fillers)
        spots = m.game.legal_placements(seat, piece)
        if spots:
            press(app, f"filler_{piece}")
            lay(app, rng.choice(spots))
            return
    if o.reserve_ready and r < 0.6:
        spots = m.game.legal_placements(seat, reserved=True)
        if spots:
            press(app, "reserved")
            lay(app, rng.choice(spots))
            return
    if o.step == "place":
        if "reserve" in o.powers_now and r < 0.1:
            press(app, "power_reserve")
            messenger.send("enter")
            frames(app, 3)
            return
        for power in ("flip", "bridge", "single_support", "loner"):
            if power in o.powers_now and rng.random() < 0.15:
                spots = m.game.legal_placements(seat, powers=(power,))
                if spots:
                    press(app, f"power_{power}")
                    lay(app, rng.choice(spots))
                    return
        spots = m.game.legal_placements(seat)
        top = max(p.level for p in spots)
        lay(app, rng.choice([p for p in spots if p.level == top] if rng.random() < 0.7 else spots))
        return
    if "relocate" in o.powers_now and r < 0.3:
        for at in m.game.movable_tiles(seat):
            targets = m.game.relocation_targets(seat, at)
            if targets:
                press(app, "power_relocate")
                assert ps.pick(*at)
                lay(app, rng.choice(targets))
                return
    press(app, "end_turn")


@pytest.mark.parametrize("variant, seats", [
    ("classic", [Seat("Ana"), Seat("Bot 1", "bot:easy"), Seat("Ben"), Seat("Bot 2", "bot:easy"),
                 Seat("Cleo"), Seat("Bot 3", "bot:easy")]),
    ("two_of_three", [Seat("Ana"), Seat("Bot", "bot:easy"), Seat("Ben")]),
    ("level_to_level", [Seat("Ana"), Seat("Ben"), Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:easy")]),
])
def test_a_whole_game_with_every_module_humans_passing_the_table_and_bots(app, variant, seats):
    rs = Ruleset(variant, ALL, ("relocate", "flip", "single_support", "bridge", "loner", "reserve"))
    m, s = start(app, seats, rs, seed=12)
    rng = random.Random(5)
    handoffs = actions = 0
    shots = {3: "handoff", 7: "middle", 12: "late"}
    while app.screen is s and not m.over:
        frames(app)
        if s.overlay == "handoff":
            handoffs += 1
            assert s.table.root.isHidden() and s.plus_hud.anchors["a2dBottomLeft"].isHidden()
            if shots.get(m.round) == "handoff":
                shot(app, f"whole-{variant}-{shots.pop(m.round)}")
            messenger.send("enter")
            frames(app)
        elif s.ps is not None and s.overlay is None and m.current_human == s.ps.seat and not s.ps.settling:
            if m.round in shots and s.ps.seat > 0:
                shot(app, f"whole-{variant}-{shots.pop(m.round)}")
            _human_turn(app, m, s, rng)
            actions += 1
    assert m.over and handoffs > 10 and actions > 20
    until(app, lambda: app.screen.name == "results")
    shot(app, f"whole-{variant}-results")
    kinds = {mv.kind for mv in m.game.moves}
    assert {"place", "filler"} <= kinds
    assert any(mv.powers for mv in m.game.moves) or "relocate" in kinds or "reserve" in kinds
    result = replay(parse_record(m.record()))
    assert result.ok and result.game.over and result.game.scores() == m.game.scores()


def test_level_to_level_hint_lays_a_ghost_for_one_shown_tile_and_for_a_chosen_one(app):
    """The hint used to fail ("No hint this time: unsupported operand ...") and, once a tile
    was chosen from several, to do nothing."""
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)

    def hint_ghost():
        messenger.send("i")
        h = until(app, lambda: s.hint if s.hint is not None and s.hint["ghost"] is not None else None, 60)
        assert not s.status["text"].startswith("No hint")
        p = h["result"]["placement"]
        assert p.piece == s.ps.piece and m.check(0, p)      # the tile in hand, legal under its cap
        messenger.send("i")                                 # again: the tile moves onto it
        frames(app)
        messenger.send("enter")
        frames(app, 3)

    ps_ready(app)
    assert len(m.game.shown) == 1
    hint_ghost()
    while m.options(0).step != "choose":
        ps_ready(app)
        hint_ghost()
    ps = ps_ready(app)
    messenger.send(str(max(m.options(0).choices)))      # the highest marker's tile
    frames(app)
    assert ps.piece == m.game.shown[max(m.game.shown)]
    moves = len(m.game.moves)
    hint_ghost()
    assert len(m.game.moves) == moves + 1


def test_level_to_level_choice_keeps_the_still_to_come_caption(app):
    """While several tiles are shown (no single card) the cards to come were drawn without their
    "Still to come:" caption."""
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    while m.options(0).step != "choose":
        ps_ready(app)
        lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    frames(app, 2)
    assert m.game.card is None and m.game.supply()
    assert "Still to come:" in texts(app).splitlines()


def _box(app, np, frame=None):
    """(left, right, bottom, top) on screen (aspect2d) of a node's ink, or of a widget's frame."""
    if frame is not None:
        left, right, bottom, top = frame
        a, b = (app.base.aspect2d.getRelativePoint(np, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        return a.x, b.x, a.z, b.z
    lo, hi = np.getTightBounds(app.base.aspect2d)
    return lo.x, hi.x, lo.z, hi.z


def _text_box(app, widget):
    """(left, right, bottom, top) on screen of a widget's words."""
    text = widget.component("text0")   # drawn by the widget from its state's own little scene graph
    left, right, bottom, top = text.textNode.getFrameActual()
    inner = text.textNode.getTransform() * text.getMat(text.getTop())
    a, b = (inner.xformPoint(Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    return _box(app, widget, (a.x, b.x, a.z, b.z))


def _overlap(a, b) -> bool:
    return a[0] < b[1] - 1e-3 and b[0] < a[1] - 1e-3 and a[2] < b[3] - 1e-3 and b[2] < a[3] - 1e-3


def _inside(inner, outer) -> bool:
    return outer[0] - 1e-3 <= inner[0] and inner[1] <= outer[1] + 1e-3 and outer[2] - 1e-3 <= inner[2] \
        and inner[3] <= outer[3] + 1e-3


def _hud_boxes(app, s, skip=()):
    """What must not be drawn over: every widget on screen (its panel, or its words where it has none)
    and the cards still to come."""
    from direct.gui.DirectGuiBase import DirectGuiWidget
    boxes = {"supply": _box(app, s.hud.supply)}
    for w in list(DirectGuiWidget.guiDict.values()):
        if w.isEmpty() or w.getTop() != app.base.render2d or w.isHidden() or w in skip:   # on screen only
            continue
        colour = w["frameColor"]
        colour = colour[0] if isinstance(colour[0], tuple) else colour
        text = w.hascomponent("text0") and w["text"]
        if colour[3] > 0 and w.guiItem.getFrame()[1] > w.guiItem.getFrame()[0]:
            boxes[f"{w.guiId} {text or ''}"] = _box(app, w, w.guiItem.getFrame())
        elif text:
            boxes[f"{w.guiId} {text}"] = _text_box(app, w)
    return boxes


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_reserved_tile_waits_on_its_button_covering_no_hud_and_its_label_fits(app, language):
    """The reserved tile lay on the table left of the build, over "Still to come" and the key help, and
    "Reserved: 1 (built from your next turn)" ran out of its button over its neighbours."""
    from nmbr9.i18n import set_language
    powers = ("relocate", "flip", "single_support", "bridge", "loner", "reserve")
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers", "breaking_rules"), powers), seed=4)
    set_language(language)
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    press(app, "end_turn")
    ps_ready(app)
    digit = m.game.card
    press(app, "power_reserve")
    messenger.send("enter")
    frames(app, 3)
    for turn in ("reserved", "build"):
        for size in ((1280, 720), (1024, 576)):
            k = s.hud.fit_window(size)   # as window_changed() does for a window of that size
            for node in s.anchors.values():
                node.setScale(k)
            s.panel_key = None
            s.plus_hud.fit_window()
            s.plus_hud.key = None
            frames(app, 3)
            hud = s.plus_hud
            card = _box(app, hud.reserved_card)
            button = hud.buttons["reserved"]
            assert _inside(card, _box(app, button, button["frameSize"])), (turn, size)   # on its own button
            for name, box in _hud_boxes(app, s, skip=(button,)).items():
                assert not _overlap(card, box), (turn, size, name)
            row = [b for name, b in hud.buttons.items() if not name.startswith("power_")]
            assert len(row) == 4                       # both fillers, the reserved tile, End turn
            for b in row:   # every text in its button, no button over another, nor over a note
                frame = _box(app, b, b["frameSize"])
                assert _inside(_text_box(app, b), frame), (turn, size, b["text"])
                for name, box in _hud_boxes(app, s, skip=(b,)).items():
                    assert not _overlap(frame, box) or "Breaking Rules" in name, (turn, size, b["text"], name)
            shot(app, f"reserved-{turn}-{language}-{size[0]}")
        if turn == "reserved":
            press(app, "end_turn")
            ps_ready(app)
            lay(app, m.game.legal_placements(0)[0])   # the next turn's tile: then the reserved one may follow
            assert str(digit) in hud.lines and hud.buttons["reserved"]["state"] != DGG.DISABLED


def test_a_second_power_for_the_last_marker_is_refused_and_says_why(app):
    """With one marker left Single support and then Loner both showed "(on)", and the verdict said
    "You have no marker left for this power." without naming one."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("flip", "single_support", "loner")),
                 seed=8)
    ps_ready(app)
    press(app, "power_flip")
    lay(app, m.game.legal_placements(0, powers=("flip",))[0])
    ps = ps_ready(app)
    assert "markers left: \u25cf\u25cb" in texts(app)
    press(app, "power_single_support")
    press(app, "power_loner")
    assert ps.powers == {"single_support"}
    assert s.plus_hud.buttons["power_single_support"]["text"].endswith("(on)")
    assert not s.plus_hud.buttons["power_loner"]["text"].endswith("(on)")
    assert "You have 1 marker left: turn off Single support first." in texts(app)
    assert "You have no marker left for this power." not in texts(app)
    press(app, "power_single_support")            # off: now Loner may have the marker
    press(app, "power_loner")
    assert ps.powers == {"loner"} and "turn off" not in texts(app)


def test_the_powers_panel_text_fits_its_panel_in_every_language(app):
    """"Relocate: ... (no marker left)" ran past the Breaking Rules panel's right border."""
    from nmbr9.i18n import set_language
    powers = ("relocate", "flip", "single_support", "bridge", "loner", "reserve")
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), powers), seed=4)

    def fits(when):
        for language in ("en", "de", "es", "pl"):
            set_language(language)
            s.hud.fit_window((1280, 720))
            s.plus_hud.fit_window()
            s.plus_hud.key = None
            frames(app, 2)
            panel = _box(app, s.plus_hud.powers_frame, s.plus_hud.powers_frame["frameSize"])
            if when == "none-left" and language == "en":   # (as wide as the panel is at 1280x720: said in full)
                assert "(no marker left)" in s.plus_hud.buttons["power_relocate"]["text"]
            for power in powers:
                b = s.plus_hud.buttons[f"power_{power}"]
                text = _text_box(app, b)
                assert _inside(text, _box(app, b, b["frameSize"])) and _inside(text, panel), (when, b["text"])
            shot(app, f"powers-{when}-{language}")
        set_language("en")
        frames(app, 2)

    ps_ready(app)
    press(app, "power_flip")                        # "(on)": the longest of a power still to use
    fits("on")
    lay_and_end(app, m, m.game.legal_placements(0, powers=("flip",))[0])
    ps_ready(app)
    press(app, "power_reserve")                     # no marker left: "(used)" and "(no marker left)"
    messenger.send("enter")                         # (set aside)
    ps_ready(app)
    fits("none-left")


def test_two_of_three_shows_the_others_markers_as_before_this_card_and_no_double_refusal(app):
    """The second human saw "Player 1: used" before deciding about the same card; and R, refused,
    added "You have rejected a tile this round: build this one." under the same sentence about the card."""
    m, s = start(app, [Seat("Ana"), Seat("Ben")], Ruleset("two_of_three"))

    def turn_of(name):
        while True:
            frames(app)
            if s.overlay == "handoff":
                messenger.send("enter")
                frames(app)
            elif s.ps is not None and s.overlay is None and m.seats[m.current_human].name == name \
                    and s.plus_hud.buttons.get("build"):
                return

    turn_of("Ana")
    press(app, "reject")
    turn_of("Ben")
    assert m.game.slot == 0 and m.game.players[0].decisions == [False]
    # Ana's choice is not told yet, nor is her marker said to be free (she used it)
    assert "? Ana: choice hidden" in texts(app) and "Ana: used" not in texts(app) and "Ana: free" not in texts(app)
    shot(app, "two-of-three-others-before")
    press(app, "build")
    lay(app, m.game.legal_placements(1)[0])
    turn_of("Ana")
    assert m.game.slot == 1
    assert "\u25cb Ana: used" in texts(app) and "\u25cf Ben: free" in texts(app)   # as they stood before card 2
    messenger.send("r")                               # rejecting is not allowed: the question says so, once
    frames(app)
    assert m.game.players[0].decisions == [False]
    said = [line for line in texts(app).splitlines() if "this round: build this one." in line]
    assert said == ["You have rejected a card this round: build this one."]
    shot(app, "two-of-three-refused-reject")


def test_level_to_level_counts_one_card_in_the_singular(app):
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    ps_ready(app)
    assert len(m.game.piles[0]) == 1
    shown = texts(app).splitlines()
    assert "1 card" in shown and "1 cards" not in shown and "0 cards" in shown


def test_powers_gap_fillers_and_the_reserved_tile_answer_the_keyboard(app, capsys, monkeypatch):
    """Ctrl+number toggles the power numbered so in the panel, G takes the gap fillers in turn (then
    the tile again), V the reserved tile; the key help names them (they were mouse only). Each key
    prints the trace line its button's click prints."""
    from nmbr9.scene.hud import Hud
    fit = Hud.fit_window
    # laid out as at 1280x720: in the tests' 640x360 the key help would lie over the buttons, so it hides
    monkeypatch.setattr(Hud, "fit_window", lambda hud, size=None: fit(hud, (1280, 720)))
    app.trace_on = True

    def traced() -> list[str]:
        return [line for line in capsys.readouterr().out.splitlines() if line.startswith("trace: plus ")]
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers", "breaking_rules"), ("reserve", "flip")), seed=4)
    ps = ps_ready(app)
    assert "Ctrl+number: the power so numbered" in texts(app) and "G: gap filler" in texts(app)
    assert "V: the reserved tile" not in texts(app)   # nothing set aside yet
    order = list(m.options(0).powers)
    assert any(f"{order.index('flip') + 1} " in t and "Flip" in t for t in texts(app).split("\n"))
    messenger.send(f"control-{order.index('flip') + 1}")
    frames(app)
    assert ps.powers == {"flip"} and "Using: Flip" in texts(app)
    messenger.send(f"control-{order.index('flip') + 1}")
    frames(app)
    assert not ps.powers
    assert traced() == ["trace: plus toggle_power flip seat=0 round=1 moves=0"] * 2
    messenger.send("g")
    frames(app)
    assert ps.piece == "F1"
    messenger.send("g")
    frames(app)
    assert ps.piece == "F2"
    messenger.send("g")
    frames(app)
    assert ps.piece == m.game.card
    assert traced() == [f"trace: plus hold_filler {f} seat=0 round=1 moves=0" for f in ("F1", "F2", "F2")]
    lay(app, m.game.legal_placements(0)[0])
    if m.options(0).can_end:
        messenger.send("x")
    ps = ps_ready(app)
    digit = m.game.card
    capsys.readouterr()
    messenger.send(f"control-{order.index('reserve') + 1}")   # Reserve armed: Enter sets the tile aside
    frames(app, 2)
    messenger.send("enter")
    ps = ps_ready(app)
    frames(app, 2)
    assert m.game.players[0].reserve.digit == digit
    assert [line.split(" seat=")[0] for line in traced()] == ["trace: plus toggle_power reserve",
                                                             "trace: plus set_aside"]
    messenger.send("x")            # the gap fillers are optional: X ends the turn
    ps = ps_ready(app)
    frames(app, 2)
    assert "V: the reserved tile" in texts(app)
    lay(app, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    assert [line.split(" seat=")[0] for line in traced()] == ["trace: plus end_turn"]
    messenger.send("v")
    frames(app)
    assert ps.piece == digit and ps.mode == "reserved"
    assert [line.split(" seat=")[0] for line in traced()] == ["trace: plus hold_reserved"]
    lay(app, m.game.legal_placements(0, reserved=True)[0])
    ps_ready(app)
    frames(app, 2)
    assert m.game.players[0].reserve.state == "built" and "V: the reserved tile" not in texts(app)   # used


def test_a_power_key_that_cannot_be_used_now_says_why(app):
    """Ctrl+number on a used power, or on one that changes the turn's tile once that tile was laid,
    did nothing at all: the button is off for the mouse, but the key gave no reason."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers", "breaking_rules"), ("relocate", "flip", "loner")),
                 seed=4)
    ps = ps_ready(app)
    order = list(m.options(0).powers)
    relocate, flip, loner = (f"control-{order.index(p) + 1}" for p in ("relocate", "flip", "loner"))
    messenger.send(relocate)                             # nothing built yet
    frames(app)
    assert ps.mode == "tile" and "You have no number tile to move yet." in texts(app)
    messenger.send(flip)
    frames(app)
    lay(app, m.game.legal_placements(0, powers=("flip",))[0])
    ps = ps_ready(app)
    assert m.options(0).step == "extras"                 # the gap fillers keep the turn open
    messenger.send(loner)
    frames(app)
    assert not ps.powers
    # (it said "use it while a tile is to be placed", the gap fillers still in hand)
    assert "This turn's tile is dealt with, and powers don't change gap fillers: use this power on a later " \
        "turn's tile." in texts(app)
    messenger.send("x")
    ps = ps_ready(app)
    messenger.send(flip)
    frames(app)
    assert not ps.powers
    assert "You have already used this power: each power once per player." in texts(app)


def test_relocate_on_a_start_tile_says_it_never_moves_without_coordinates(app):
    """A click on the start tile while picking a tile to relocate said "There is no number tile of
    yours on square (2, 0) on level 0." (coordinates, and there is a tile there)."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("start_tiles", "breaking_rules"), ("relocate", "flip")),
                 seed=5)
    ps_ready(app)
    lay_and_end(app, m, m.game.legal_placements(0)[0])
    ps = ps_ready(app)
    press(app, "power_relocate")
    board = m.board(0)
    start_tile = next(t for t in board.tiles if not isinstance(t.piece, int))
    x, y = next((x, y) for x, y in start_tile.squares() if board.tile_at(x, y, 1) < 0)
    from tests.test_scene import screen_of_square
    ps.press("mouse1", *screen_of_square(s.camera, x, y, 1))
    frames(app)
    assert ps.mode == "pick"
    assert "Start tiles and gap fillers never move: only number tiles can be relocated." in texts(app)
    assert "square (" not in texts(app)


def test_g_and_v_with_nothing_to_take_say_why(app):
    """G with no gap filler left and V with no reserved tile ready did nothing at all."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers", "breaking_rules"), ("reserve", "flip")), seed=4)
    ps = ps_ready(app)
    messenger.send("v")
    frames(app)
    assert ps.mode == "tile" and "You have no reserved tile." in texts(app)
    messenger.send(f"control-{list(m.options(0).powers).index('reserve') + 1}")   # set aside; fillers keep the turn
    frames(app)
    messenger.send("enter")
    ps = ps_ready(app)
    frames(app, 2)
    messenger.send("v")
    frames(app)
    assert "A reserved tile is built in a later turn, not the one it was reserved in." in texts(app)
    for _ in range(2):
        messenger.send("g")
        frames(app)
        lay(app, m.game.legal_placements(0, piece=ps.piece)[0])
        ps = ps_ready(app)
    assert not m.options(0).fillers
    messenger.send("g")
    frames(app)
    assert "You have no such gap filler left to place." in texts(app)


def test_level_to_level_choice_keeps_off_the_key_help_also_after_continue(app, monkeypatch):
    """At 1280x720 the question "Choose one of the shown tiles" ran over the end of the key help; after
    Continue much further (it was placed while the key help was still hidden, and not again)."""
    from nmbr9.scene.hud import Hud
    fit = Hud.fit_window
    monkeypatch.setattr(Hud, "fit_window", lambda hud, size=None: fit(hud, (1280, 720)))   # laid out as there
    seats = [Seat("Ana"), Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:easy"), Seat("Bot 3", "bot:easy")]
    m, s = start(app, seats, Ruleset("level_to_level", ALL, ("relocate", "flip", "reserve")), seed=5)
    while m.options(0).step != "choose":
        ps_ready(app)
        lay_and_end(app, m, m.game.legal_placements(0)[0])
        frames(app, 3)
    for when in ("playing", "continued"):
        if when == "continued":
            s = app.play(m)
        ps_ready(app)
        until(app, lambda: not m.bots_thinking)   # the bots' choices in (they may change the panels), then laid out
        frames(app, 4)
        question = s.plus_hud.buttons["choose_0"].getParent()
        panel = next(w for w in question.getChildren() if w.node().getFrame()[1] > w.node().getFrame()[0])
        box = _box(app, panel, panel.node().getFrame())
        assert not s.keys.isHidden()
        keys = _box(app, s.keys, s.keys.guiItem.getFrame())
        assert not _overlap(box, keys), (when, box, keys)
        assert box[2] > s.plus_hud.piles_top(), when                    # and above the piles
        shot(app, f"level-to-level-choice-{when}")


def test_a_hint_with_the_tile_dealt_with_says_it_is_for_a_piece_in_hand(app):
    """With the turn's tile laid and only a gap filler left to place, I and the Hint button did nothing."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("gap_fillers",)))
    ps_ready(app)
    lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    said = "Your tile is dealt with: a hint is for a piece you hold."
    assert said not in texts(app)
    messenger.send("i")
    frames(app, 3)
    assert said in texts(app) and s.hint is None
    press(app, "filler_F1")                            # a gap filler in hand: its hint, and the note goes
    assert said not in texts(app)
    click(app, "Hint (I)")
    until(app, lambda: s.hint if s.hint is not None and s.hint["ghost"] is not None else None, 60)
    assert s.hint["key"][-2] == "filler"


@pytest.mark.parametrize("variant", ["two_of_three", "level_to_level"])
def test_a_decision_to_build_or_a_chosen_tile_still_binds_after_continue(app, variant):
    """"2 of 3": build, see where it fits, Menu, Continue, and the card could be rejected after all;
    "Level to Level": the same with the tile chosen. The rules bind a player to the decision."""
    from tests.test_screens import buttons
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")], Ruleset(variant), seed=2)
    if variant == "level_to_level":
        while m.options(0).step != "choose":
            ps_ready(app)
            lay(app, m.game.legal_placements(0)[0])
            until(app, lambda: m.options(0).step in ("choose", "place") or None)
    until(app, lambda: s.plus_hud.buttons.get("choose_1" if variant == "level_to_level" else "build"))
    press(app, "choose_1" if variant == "level_to_level" else "build")
    piece = ps_ready(app).piece
    click(app, "Menu (M)")
    click(app, "Continue")
    s = app.screen
    ps = ps_ready(app)
    frames(app, 3)
    assert ps.piece == piece and ps.ghost is not None                 # the tile in hand, as it was
    assert not {"build", "reject", "choose_0", "choose_1"} & set(s.plus_hud.buttons)   # no question again
    assert "Reject it with your marker (R)" not in buttons(app)
    lay(app, s.match.game.legal_placements(0)[0])
    if variant == "level_to_level":
        assert [mv for mv in s.match.game.moves if mv.player == 0][-1].marker == 1


@pytest.mark.parametrize("tournament", [False, True])
def test_the_saved_game_named_on_new_game_keeps_off_the_key_line(app, tournament):
    """A saved NMBR 9 ++ game for six takes three or four lines to name; they ran down into
    "Tab or arrow keys walk the page, Space presses" under Start."""
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from nmbr9.scene.screens.setup import SetupScreen
    seats = [Seat(name) for name in ("Alexandra", "Bartholomew", "Cornelia", "Dimitrios", "Evangeline", "Fitzgerald")]
    start(app, seats, Ruleset("classic", ALL, ("relocate", "flip")))   # saved at once
    app.menu()
    app.goto(SetupScreen, tournament=tournament)
    frames(app, 2)
    shown = [w for w in DirectGuiWidget.guiDict.values() if not w.isEmpty() and app.screen.root.isAncestorOf(w)]
    warning = next(w for w in shown if str(w["text"]).startswith("Starting a game ends your saved game"))
    assert warning.component("text0").textNode.getNumRows() >= 3
    keys = next(w for w in shown if w["text"] == "Tab or arrow keys walk the page, Space presses")
    box = _text_box(app, warning)
    assert not _overlap(box, _text_box(app, keys))
    for text in ("Back (Esc)", "Start (Enter)"):
        b = next(w for w in shown if w["text"] == text)
        assert not _overlap(box, _box(app, b, b["frameSize"])), text


@pytest.mark.parametrize("variant", ["two_of_three", "level_to_level"])
def test_a_hint_in_words_is_worked_out_beside_the_window(app, monkeypatch, variant):
    """The hint's "build or reject" / "which tile" was a lambda, which can't be sent to a thinking
    process: it was worked out in the window's own interpreter, sharing it with the frames (in a
    1280x720 window under load a Level to Level hint took minutes)."""
    from nmbr9.ai import worker
    sent = []
    real = worker.start

    def spy(work, kind=worker.BOTS):
        waiter = real(work, kind)
        sent.append(waiter is not work)       # the work itself back: not sent, worked out here
        return waiter
    monkeypatch.setattr(worker, "start", spy)
    m, s = start(app, [Seat("Ana")], Ruleset(variant), seed=2)
    while m.options(0).step not in ("decide", "choose"):
        ps_ready(app)
        lay(app, m.game.legal_placements(0)[0])
    ps_ready(app)
    assert _hint_in_words(app, s).startswith("Hint: the strongest bot would ")
    assert sent and all(sent)


def test_a_gap_fillers_hint_taken_says_the_filler_is_on_its_spot(app):
    """A gap filler in hand, I and I again: the status said "Your tile is on the hint's spot", but the piece on
    it is a gap filler, not the tile of the turn."""
    m, s = _the_first_filler_in_hand(app)
    p = _hint_ghost(app, s)
    messenger.send("i")                                    # taken: the filler is on the hint's spot
    frames(app)
    assert (s.ps.x, s.ps.y, s.ps.rotation) == (p.x, p.y, p.rotation)
    assert s.status["text"] == "The gap filler is on the hint's spot: Enter lays it."
    messenger.send("arrow_left")                           # off it: not said any more
    frames(app, 2)
    assert "hint's spot" not in s.status["text"]


def test_level_to_level_last_round_says_so_and_shows_no_cards_to_come(app):
    """The last round of "Level to Level" lays out the deck's last cards, here fewer than the active markers (the
    game ended before this round, those cards never played). It is played, says it is the last, shows no cards
    to come (the HUD said "Still to come:" there), and the results follow it."""
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=13)
    while not m.game.is_last_step():   # as high as it goes: more markers
        if m.options(0).step == "choose":
            m.choose(0, max(m.options(0).choices))
        spots = m.game.legal_placements(0)
        m.play(0, [p for p in spots if p.level == max(q.level for q in spots)][0])
    ps_ready(app).update()   # the HUD as the turn now stands
    frames(app, 2)
    assert 0 < len(m.game.shown) < m.game.active and not m.game.supply() and not m.game.over
    lines = texts(app).splitlines()
    assert f"Round {m.game.round}: the last" in lines
    assert app.screen.ps.hud.supply_text == ""
    assert "Still to come:" not in lines
    assert lines.count("no card") == m.game.active - len(m.game.shown)   # the markers the cards left can't fill
    shot(app, "level-to-level-last-round")
    if m.options(0).step == "choose":
        m.choose(0, max(m.options(0).choices))
    m.play(0, m.game.legal_placements(0)[0])
    until(app, lambda: app.screen.name == "results")
    assert m.game.over and m.game.drawn == 40


def test_keys_whose_buttons_are_gone_say_why_they_do_nothing(app):
    """0-4 once a shown tile was taken, X with the turn's tile still in hand, and B or R once the card was
    decided did nothing at all: the player could not tell a refused key from one not pressed."""
    m, s = start(app, [Seat("Ana")], Ruleset("level_to_level"), seed=2)
    ps = ps_ready(app)
    messenger.send("1")                              # rounds 1 and 2: only marker 0 shows a tile
    frames(app)
    assert "No tile is shown under level marker 1 this round." in texts(app)
    assert ps.piece == m.game.shown[0] and ps.ghost is not None
    messenger.send("x")                              # no End turn button: the tile is still to be laid
    frames(app)
    assert "Deal with this turn's tile first." in texts(app)
    for round_ in (1, 2):
        lay(app, m.game.legal_placements(0)[0])
        until(app, lambda: m.round > round_ or None)
    ps = ps_ready(app)
    assert m.game.active == 2 and m.options(0).step == "choose"
    messenger.send("1")
    frames(app)
    held = (ps.piece, ps.x, ps.y)
    messenger.send("0")                              # the 1's tile is taken: the 0's can't be taken instead
    frames(app)
    assert "You have chosen the tile under marker 1: build it." in texts(app)
    assert (ps.piece, ps.x, ps.y) == held and m.options(0).marker == 1


def test_b_or_r_once_the_card_is_decided_says_so(app):
    m, s = start(app, [Seat("Ana")], Ruleset("two_of_three"))
    ps = ps_ready(app)
    messenger.send("b")
    frames(app)
    assert ps.piece == m.game.card and ps.ghost is not None
    messenger.send("r")                              # the question and its buttons are gone
    frames(app)
    assert "You have already decided about this tile." in texts(app)
    assert ps.piece == m.game.card and m.game.players[0].decisions == []


def test_reserve_armed_keeps_the_score_box_and_a_click_on_it_sets_the_tile_aside(app):
    """Reserve armed took "(click to confirm)" off the score box, which shrank, and the names under it
    jumped up, though a click on it sets the tile aside as Confirm does."""
    m, s = start(app, [Seat("Ana"), Seat("Bot", "bot:easy")],
                 Ruleset("classic", ("breaking_rules",), ("reserve", "flip")), seed=4)
    ps = ps_ready(app)
    digit, size = m.game.card, s.hud.score["frameSize"]
    press(app, "power_reserve")
    assert ps.ghost is None and "(click to confirm)" in texts(app)
    assert s.hud.score["frameSize"] == size                # the names under it keep their place
    messenger.send(DGG.B1CLICK + s.hud.score.guiId, [None])
    frames(app, 3)
    assert m.game.players[0].reserve.digit == digit
    assert [mv.kind for mv in m.game.moves if mv.player == 0] == ["reserve"]


def test_ctrl_with_a_number_beyond_the_powers_in_play_says_so(app):
    """With two powers in play Ctrl+5 did nothing at all: the player could not tell why."""
    m, s = start(app, [Seat("Ana")], Ruleset("classic", ("breaking_rules",), ("flip", "reserve")))
    ps = ps_ready(app)
    messenger.send("control-5")
    frames(app)
    assert "There is no power 5: the panel numbers the 2 powers in play." in texts(app)
    assert ps.powers == set() and ps.piece == m.game.card
    messenger.send("control-1")                      # the first in the panel: Flip
    frames(app)
    assert ps.powers == {"flip"} and "There is no power 5" not in texts(app)


def test_a_gap_filler_that_would_lose_the_reserved_tile_says_so_before_confirm(app):
    """A gap filler on a higher level in the turn a tile was set aside loses that tile: the verdict said only
    "Fits on level 1" (the warning came after), and the tile's button kept saying "built from your next turn"."""
    m = app.store.new_match([Seat("Ana")], seed=4, ruleset=Ruleset("classic", ("gap_fillers", "breaking_rules"),
                                                                    ("reserve", "flip")))
    g = m.game
    while not [p for q in ("F1", "F2") for p in g.legal_placements(0, q) if p.level > 0]:
        assert m.play(0, g.legal_placements(0)[0]) and m.end_turn(0)
    digit = g.card
    assert m.reserve(0)
    app.play(m)
    s, ps = app.screen, ps_ready(app)
    assert f"Reserved: {digit} (built from your next turn)" in texts(app)
    filler, p = next((q, p) for q in ("F1", "F2") for p in g.legal_placements(0, q) if p.level > 0)
    press(app, f"filler_{filler}")
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    frames(app)
    said = f"Careful: building on level {p.level} in the turn you set your {digit} aside loses that reserved tile."
    assert ps.verdict.ok and said in s.hud.verdict["text"]
    shot(app, "reserve-loss-before")
    messenger.send("enter")
    frames(app, 3)
    assert g.boards[0].tiles[-1].piece == filler
    until(app, lambda: f"Reserved: {digit} (lost at the end of this turn)" in texts(app) or None)
    assert "built from your next turn" not in texts(app)
    shot(app, "reserve-loss-after")
