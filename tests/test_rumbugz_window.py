"""RumBugz played in the window: the game at one computer (seats, rounds, undo, the autosave), the rack's helpers,
the table's screens offscreen (a whole round through hand-offs and bids, as a player plays it), and a real window
under Xvfb driven by xdotool through a round of two humans and a bot with a bid, a kill and a Continue."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from nmbr9.rumbugz.game import BIDS, MOVE, RumbugzGame, saved_text
from nmbr9.rumbugz.rack import BY_KIND, dropped_on, rack_order, sequences_of, taken_off
from nmbr9.rumbugz.rules.round import Laid
from nmbr9.store.autosave import Autosave
from helpers import script_output

ROOT = Path(__file__).resolve().parent.parent
BOTS3 = [{"name": "Ann", "kind": "bot:easy"}, {"name": "Ben", "kind": "bot:medium"}, {"name": "Carl", "kind": "bot:hard"}]


def play_until(game: RumbugzGame, stop) -> None:
    """Bots' moves (every seat asked as a bot: a human's as an easy one) until `stop(game)`."""
    from nmbr9.rumbugz.bots import make_bot

    def asked(seat: int):
        return game.bot_work(seat)() if game.is_bot(seat) else make_bot("easy", len(game.round.moves)).act(
            game.view(seat))
    while not stop(game) and game.waiting() in (MOVE, BIDS):
        forced = game.forced()
        if forced:
            assert game.act(forced)
        elif game.waiting() == BIDS:
            for p in game.bidders():
                move = asked(p)
                if move:
                    assert game.act(move)
            game.bids_done()
        else:
            move = asked(game.mover()) or {"player": game.round.winning_bidder(), "draw": "discard"}
            assert game.act(move), move


# ----- the game at one computer --------------------------------------------------------------------------------
def test_a_lay_is_undone_before_the_discard_and_not_after():
    game = RumbugzGame(BOTS3, seed=4, rounds=1)
    play_until(game, lambda g: g.round.moves and "lay" in g.round.moves[-1])
    seat = game.round.turn
    laid = game.round.moves[-1]["lay"]
    hand, table = Counter(game.round.hands[seat]), len(game.round.table)
    assert game.can_undo(seat) and not game.can_undo((seat + 1) % 3)
    assert game.undo(seat)
    assert len(game.round.table) == table - 1
    assert game.round.hands[seat] == hand + Counter(t[0] if t.startswith("P") else t for t in laid)
    assert game.act({"player": seat, "discard": next(iter(game.round.hands[seat]))})
    assert not game.can_undo(seat) and not game.undo(seat)


def passing_one_bug_back_and_forth(game: RumbugzGame) -> None:
    """Each player takes the discard (the round's first turn draws from the bag) and discards it again: the bag
    never runs out and no one goes out (until the game ends the round, or far beyond the turn limit)."""
    for _ in range(3000):
        if game.waiting() != MOVE or game.forced():
            return
        r = game.round
        if r.step == "draw":
            assert game.act({"player": r.turn, "draw": "discard" if r.pile else "bag"})
        else:
            assert game.act({"player": r.turn, "discard": r.pile[-1] if r.pile else next(iter(r.hands[r.turn]))})


def test_a_round_no_one_can_finish_ends_at_the_turn_limit_with_no_winner_and_says_so(app):
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from helpers import frames
    from nmbr9.rumbugz.rules import parse_record, replay
    from nmbr9.rumbugz.play import TURN_LIMIT
    from nmbr9.scene.screens.rumbugz_results import RumbugzResultsScreen
    game = RumbugzGame([{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}], seed=5, rounds=1)
    passing_one_bug_back_and_forth(game)
    assert game.forced() is None and game.round.turns == TURN_LIMIT + 1
    refused = game.act({"player": game.round.turn, "draw": "bag"})
    assert refused.code == "wrong_turn" and f"{TURN_LIMIT} turns" in refused.text(lambda s: s)
    assert game.waiting() == "over" and game.round.winner is None and game.totals() == [0, 0]
    record = game.round_records()[-1]   # the record stops there (the spec ends a round only by rule 7 or going out)
    again = replay(parse_record(record))
    assert again.error is None and not again.game.over and {"end": "no_winner"} not in record["moves"]
    assert RumbugzGame.from_record(game.record()).waiting() == "over"   # the autosave's copy is done too
    app.goto(RumbugzResultsScreen, game=game)
    frames(app, 2)
    texts = [w.component("text0").textNode.getText().replace("\u00a0", " ") for w in DirectGuiWidget.guiDict.values()
             if not w.isEmpty() and app.screen.root.isAncestorOf(w) and w.hascomponent("text0")]
    assert f"No one went out in {TURN_LIMIT} turns: the round ends without a winner, no points." in texts, texts
    from nmbr9.i18n.rules_page import RUMBUGZ_SECTIONS   # and the rules page says so
    assert any(f"after {TURN_LIMIT} turns" in str(paragraph) for _title, paragraphs in RUMBUGZ_SECTIONS
               for paragraph in paragraphs)


def test_the_autosave_resumes_a_rumbugz_game_mid_round_and_continue_names_it(tmp_path):
    saves = Autosave(tmp_path)
    game = RumbugzGame.new(BOTS3, seed=9, rounds=2, savers=[saves])
    play_until(game, lambda g: g.round.over)
    game.next_round()
    play_until(game, lambda g: len(g.round.moves) >= 12)
    found = saves.load()
    assert found.match is not None and found.match.record() == game.record()
    assert found.match.totals() == game.totals() and found.match.round_number == 2
    assert saved_text(found.match) == "RumBugz, round 2 of 2: Ann, Ben, Carl"
    play_until(found.match, lambda g: g.round.over)   # played on from the save: its last round ends the game
    assert found.match.over and saves.load().match is None   # a finished game is not offered


def test_a_damaged_rumbugz_save_is_set_aside_with_a_sentence(tmp_path):
    saves = Autosave(tmp_path)
    game = RumbugzGame.new(BOTS3, seed=9, rounds=2, savers=[saves])
    data = game.record()
    data["round"]["bag"] = data["round"]["bag"][1:]
    saves.path.write_text(json.dumps(data))
    found = saves.load()
    assert found.match is None and "could not be continued" in found.message and "'bag'" in found.message


def test_a_game_needs_two_to_six_seats_and_sensible_rounds():
    with pytest.raises(ValueError, match="2 to 6 players"):
        RumbugzGame.new(BOTS3[:1])
    with pytest.raises(ValueError, match="1 to 20 rounds"):
        RumbugzGame.new(BOTS3, rounds=0)


# ----- the rack's helpers ------------------------------------------------------------------------------------
def test_a_plyt_is_offered_only_the_numbers_that_make_a_sequence():
    assert sequences_of(["3", "4", "P", "6"]) == [["3", "4", "P5", "6"]]
    assert sequences_of(["3", "4", "5", "P"]) == [["P2", "3", "4", "5"], ["3", "4", "5", "P6"]]
    assert sequences_of(["3", "5", "7", "P"]) == [["P1", "3", "5", "7"], ["3", "5", "7", "P9"]]
    assert sequences_of(["3", "4", "9", "P"]) == []


def test_a_dropped_bug_goes_onto_the_end_it_fits_or_takes_its_plyts_place():
    run = Laid(0, ("3", "P4", "5", "6"), "single")
    assert dropped_on(run, 1, "4") == ["3", "4", "5", "6"]      # onto the PLYT standing for it
    assert dropped_on(run, 3, "2") == ["2", "3", "P4", "5", "6"]  # dropped at the far end: the end it fits
    assert dropped_on(run, 0, "P") == ["P2", "3", "P4", "5", "6"]
    assert dropped_on(Laid(0, ("9", "10", "11", "12"), "single"), 3, "P") == ["P8", "9", "10", "11", "12"]
    assert taken_off(run, 3) == ["3", "P4", "5"] and taken_off(run, 1) is None


def test_the_rack_sorted_by_kind_keeps_each_lacking_kinds_run_together():
    hand = Counter(["2", "9", "4", "7", "7", "7", "3", "12", "P"])
    assert rack_order(hand, {"single", "match"}) == ["2", "3", "4", "7", "7", "7", "9", "12", "P"]
    assert rack_order(hand, {"match"}, BY_KIND)[:3] == ["7", "7", "7"]


# ----- the screens offscreen -------------------------------------------------------------------------------------
@pytest.mark.render
def test_a_whole_round_is_played_on_the_table_through_hand_offs_and_bids(tmp_path):
    """Ann and Ben (humans, following a hard bot's advice by the keys and drags) and Carl (a hard bot): the
    setup's RumBugz tab, a refused lay's sentence, a human's bid, a drag onto a sequence, the final standings
    and a rematch; the hand-off hides the rack (its pixels are the backdrop's)."""
    out = script_output([ROOT / "tests" / "rumbugz_window_driver.py", "1280x800", "en", tmp_path], timeout=600)
    assert {"RumBugz", "NMBR 9", "Add a player", "Start (Enter)"} <= set(out["setup"])
    assert out["lay_said"] == "A sequence needs at least 4 bugs, not 3." and len(out["picked"]) == 3
    assert out["draw_status"].startswith("Ann: draw a bug") or out["draw_status"].startswith("Ben: draw a bug")
    assert {"bid", "change", "lay", "discard", "draw", "let"} <= set(out["done"]), out["done"]
    assert not out.get("refused"), out["refused"]
    assert out["totals"] == [0, 0, 85] and "Rematch (Enter)" in out["results"] and out["after"] == "rumbugz"
    assert "hidden_rack" in out, "no hand-off between the two humans"
    assert out["hidden_rack"] == out["backdrop"] and out["shown_rack"] != out["backdrop"]


def human_to_lay(app, hand: list[str]):
    """A game of a human (Ann) and a bot at Ann's play step, her hand made `hand`; the table on the screen."""
    from helpers import frames
    game = app.store.new_rumbugz([{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "bot:easy"}], seed=3,
                                 rounds=1)
    play_until(game, lambda g: g.mover() == 0 and g.round.step == "draw" and not g.forced())
    assert game.act({"player": 0, "draw": "bag"})
    game.round.hands[0] = Counter(hand)
    game.round._sync()
    app.play(game)
    frames(app, 4)
    return app.screen


@pytest.mark.render
def test_a_plyt_asks_which_number_it_stands_for_offering_only_the_possible_ones(app):
    from direct.showbase.MessengerGlobal import messenger
    from helpers import frames
    screen = human_to_lay(app, ["3", "4", "5", "9", "P"])
    assert screen.rack == ["3", "4", "5", "9", "P"]
    for key in ("1", "2", "3", "5"):
        messenger.send(key)
    frames(app, 2)
    assert screen.picked_bugs() == ["3", "4", "5", "P"]
    messenger.send("enter")
    frames(app, 2)
    assert screen.overlay == "choose"
    offered = sorted(b.node().getName() for b in screen.overlay_frame.findAllMatches("**/+PGButton"))
    assert len(offered) == 3   # PLYT = 2, PLYT = 6, Back
    messenger.send("2")
    frames(app, 3)
    assert screen.overlay is None and [list(s.bugs) for s in screen.game.round.table] == [["3", "4", "5", "P6"]]
    assert screen.game.can_undo(0)
    messenger.send("u")   # (the round is replayed to before the lay: the hand as this test did not make it)
    frames(app, 3)
    assert screen.game.round.table == [] and screen.game.round.step == "play"


@pytest.mark.render
def test_a_refused_discard_or_lay_says_why_and_the_picked_bug_shows_raised(app):
    from direct.showbase.MessengerGlobal import messenger
    from helpers import frames
    screen = human_to_lay(app, ["3", "4", "5", "9", "P"])
    before = screen.rack_spot(0)
    messenger.send("x")   # nothing picked
    frames(app, 2)
    assert screen.verdict.startswith("Pick one bug to discard")
    messenger.send("1")
    frames(app, 3)
    after = screen.rack_spot(0)
    assert after[1] < before[1] - 0.01   # lifted out of the rack towards the player: lower on the screen
    messenger.send("enter")
    frames(app, 2)
    assert screen.verdict == "A sequence needs at least 4 bugs, not 1."


@pytest.mark.render
def test_the_sort_and_let_buttons_show_their_words_as_large_as_the_others(app):
    """The Sort and "Let ... have it" buttons are made empty and named later: their words at the buttons' full
    size, every time the table is built (Panda3D measured an empty text as whatever it measured last: the words
    came out shrunk, and once in a while at a size of NaN, which stopped the window at its next frame)."""
    from nmbr9.i18n import set_language
    from nmbr9.scene.hud import measure
    assert measure(app.font, "Ziehe einen Käfer aus dem Beutel " * 3)[0] > 20 and measure(app.font, "") == (0, 0)
    set_language("de")   # (its words are the longest: a button's text measured before the empty one is wider)
    screen = human_to_lay(app, ["3", "4", "5", "9", "P"])
    for _again in range(20):
        scales = {key: tuple(b["text_scale"] or (1, 1)) for key, b in screen.buttons.items()}
        assert set(scales.values()) == {scales["menu"]}, scales
        screen.build_keys_again()


@pytest.mark.render
def test_v_looks_through_the_whole_discard_pile_top_first_and_esc_goes_back_to_the_turn(app):
    """The table shows the pile's top three; V (or its button) lays out every bug in it, the top first, each in
    its colour, over the table; the turn's keys wait meanwhile and come back with Esc."""
    from direct.showbase.MessengerGlobal import messenger
    from helpers import frames
    from panda3d.core import Point3
    from nmbr9.bug_assets import bug_colour
    from nmbr9.scene.hud import rgba
    from nmbr9.scene.rumbugz_table import MIDDLE_Y, PILE_X
    from test_screens import buttons, picture, texts
    game = app.store.new_rumbugz([{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "bot:easy"}], seed=3,
                                 rounds=1)
    play_until(game, lambda g: g.mover() == 0 and g.round.step == "draw" and not g.forced() and len(g.round.pile) > 3)
    app.play(game)
    frames(app, 4)
    screen = app.screen
    pile = screen.view().pile
    assert len(pile) > 3   # more than the table shows
    assert "Look through the pile (V)" in buttons(app)
    messenger.send("v")
    frames(app, 2)
    assert screen.overlay == "pile"
    assert f"The discard pile: {len(pile)} bugs, the top first" in texts(app)
    cards = screen.overlay_frame.find("**/pile").getChildren()
    assert len(cards) == len(pile)
    shot = picture(app)
    for card, bug in zip(cards, reversed(pile)):
        low, high = card.getTightBounds(app.base.render2d)
        x, z = low.x + 0.12 * (high.x - low.x), high.z - 0.12 * (high.z - low.z)   # clear of its number
        px = (round((x + 1) / 2 * shot.getXSize()), round((1 - z) / 2 * shot.getYSize()))
        seen = shot.getXel(*px)
        assert max(abs(a - b) for a, b in zip(seen, rgba(bug_colour(bug)))) < 0.05, (bug, tuple(seen))
    messenger.send("x")   # the turn's keys wait: nothing is discarded, nothing said
    frames(app, 2)
    assert screen.overlay == "pile" and not screen.verdict
    messenger.send("escape")
    frames(app, 2)
    assert screen.overlay is None
    messenger.send("b")   # back at the turn: its keys work again
    frames(app, 2)
    assert screen.game.round.moves[-1] == {"player": 0, "draw": "bag"}
    pile_spot = screen._screen(Point3(PILE_X, MIDDLE_Y, 0.1))   # drawn: a click on the pile looks through it
    spot = (pile_spot[0] / app.base.getAspectRatio(), pile_spot[1])
    screen.press_at(*spot)
    screen.release_at(*spot)
    frames(app, 2)
    assert screen.overlay == "pile" and screen.game.round.moves[-1] == {"player": 0, "draw": "bag"}


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.render
@pytest.mark.parametrize("size,language,players", [("1280x800", "en", 3), ("640x480", "de", 3), ("1280x800", "de", 6)])
def test_the_table_is_framed_large_in_the_free_part_of_the_window_its_labels_clear_of_the_buttons(size, language,
                                                                                                   players):
    """Players mid-round, offscreen: with three, the laid bugs and the rack span at least half the width the
    buttons leave free (six players' racks round the table take more of it); turned (A, S) the table stays
    framed; every label lies in the window, clear of the buttons and of the other labels."""
    out = script_output([ROOT / "tests" / "rumbugz_framing_driver.py", size, language, players], language=language)
    width, height = out["size"]
    free = min(b[0] for b in out["buttons"])   # the window's left edge to the buttons
    left, top, right, bottom = out["views"]["default"]["bugs"]
    assert right - left >= free / 2 or players > 3, (out["views"]["default"]["bugs"], free)
    for name, view in out["views"].items():
        assert view["bugs"][2] < free, (name, view["bugs"], free)
        for label in view["labels"]:
            x0, y0, x1, y1 = label["box"]
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, (name, label)
            assert not any(overlaps(label["box"], b) for b in out["buttons"]), (name, label)
    labels = out["views"]["default"]["labels"]
    assert not [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
                if overlaps(a["box"], b["box"])]
