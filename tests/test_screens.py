"""The screens around the table, offscreen: menus, pass-and-play, looking at boards, results, puzzles.

Buttons are pressed by sending their click events through the messenger and
keys by sending key events, as the window would; frames are stepped with the
task manager. Bots play on their worker threads as in the game.
"""
from __future__ import annotations

import json
import re
import threading
import time
from datetime import datetime, timezone

import numpy
import pytest
from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGuiBase import DirectGuiWidget
from direct.showbase.MessengerGlobal import messenger

from nmbr9.ai import make_bot
from nmbr9.i18n import set_language
from nmbr9.match import BOTS
from nmbr9.rules import Ruleset, Seat
from nmbr9.scene.play import HANDOFF_PAUSE
from nmbr9.store import Store
from helpers import damage_table, frames, read_only, script_output, slow_to_send, thinking_for

pytestmark = pytest.mark.render


def until(app, predicate, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frames(app, 1)
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError("timed out")


def buttons(app) -> dict[str, object]:
    """The visible enabled buttons of the current screen, by their text."""
    out = {}
    roots = [app.screen.root, *getattr(app.screen, "anchors", {}).values()]
    for w in list(DirectGuiWidget.guiDict.values()):
        if w.__class__.__name__ != "DirectButton" or w.isEmpty() or w["state"] == DGG.DISABLED:
            continue
        if any(r is not None and not r.isEmpty() and r.isAncestorOf(w) for r in roots) and not w.isHidden():
            if all(not p.isHidden() for p in w.getAncestors()):
                out[w["text"]] = w
    return out


def click(app, text: str) -> None:
    b = buttons(app)[text]
    messenger.send(DGG.B1CLICK + b.guiId, [None])
    frames(app)


def _visible(np) -> bool:
    return not np.isEmpty() and not np.isHidden() and all(not p.isHidden() for p in np.getAncestors())


def texts(app) -> str:
    """Every text shown on screen: the widgets' (HUD included) and plain text nodes (the rules page)."""
    aspect = app.base.aspect2d
    found = [w["text"] for w in list(DirectGuiWidget.guiDict.values())
             if _visible(w) and aspect.isAncestorOf(w) and isinstance(w["text"], str)]
    found += [np.node().getText() for np in aspect.findAllMatches("**/+TextNode") if _visible(np)]
    return "\n".join(found).replace("\u00a0", " ")   # a no-break space reads as a space


def picture(app):
    """What the window shows now, drawn afresh."""
    from panda3d.core import PNMImage
    app.base.graphicsEngine.renderFrame()
    shot = PNMImage()
    app.base.win.getScreenshot(shot)
    return shot


def pass_the_table(app) -> None:
    """Enter on the hand-off, once it takes it (a moment after it shows: session.HANDOFF_PAUSE)."""
    from nmbr9.i18n import _
    s = app.screen
    until(app, lambda: s.overlay == "handoff" and _("I am {name}: show my table").format(
        name=s.match.names[s.match.current_human]) in buttons(app))   # (enabled)
    messenger.send("enter")
    frames(app)


def place_somewhere(app, highest: bool = True) -> None:
    """The current human lays the round's tile at a legal spot (the highest one) and confirms."""
    s = app.screen
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)
    options = s.match.legal_placements(ps.seat)
    p = max(options, key=lambda q: (q.level, -abs(q.x) - abs(q.y))) if highest else options[0]
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    messenger.send("enter")
    frames(app, 3)


def play_to_results(app) -> None:
    """The humans of the current game lay every tile (the highest spots) until the results show."""
    s = app.screen
    while app.screen is s:
        place_somewhere(app)
        frames(app, 2)
    until(app, lambda: app.screen.name == "results")


# ----- menu, setup, rules, settings --------------------------------------------------------------
def test_the_menu_offers_continue_only_when_a_game_is_saved(app):
    app.menu()
    assert "Continue" not in buttons(app)
    assert {"New game", "Puzzles", "Tournament", "Rules", "Settings", "Quit"} <= set(buttons(app))
    app.store.new_match([Seat("Ana")], seed=3)
    app.menu()
    assert list(buttons(app))[0] == "Continue"
    assert "Round 1 of 20: Ana" in texts(app)


def test_continue_names_the_nmbr9_plus_rules_of_the_saved_game(app):
    from nmbr9.rules import BREAKING_RULES, GAP_FILLERS, TWO_OF_THREE, Ruleset
    app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=3,
                        ruleset=Ruleset(TWO_OF_THREE, (GAP_FILLERS, BREAKING_RULES), ("flip", "loner")))
    app.menu()
    assert "Round 1 of 10 \u00b7 2 of 3, Gap fillers, Breaking Rules: Ana, Bot" in texts(app)


def test_continue_works_out_the_tables_shadows_once(app, monkeypatch):
    """Continue with tiles on the table worked out their soft shadows twice (the table shown, then shown again for
    the player's turn): 4 s more on a busy machine before a 12-tile table came."""
    from nmbr9.scene.table import Table
    m = app.store.new_match([Seat("Ana")], seed=12)
    app.play(m)
    for _ in range(3):
        place_somewhere(app)
    worked_out, real = [], Table._shadows
    monkeypatch.setattr(Table, "_shadows", lambda table, board: worked_out.append(len(board.tiles)) or real(table, board))
    app.menu().continue_game()
    until(app, lambda: app.screen.name == "play" and app.screen.ps is not None and app.screen.ps.ghost is not None)
    frames(app, 3)
    assert worked_out == [3]


def test_keyboard_walks_the_menu(app):
    app.menu()
    messenger.send("arrow_down")      # New game -> Puzzles
    messenger.send("enter")
    frames(app)
    assert app.screen.name == "puzzles"
    messenger.send("escape")
    frames(app)
    assert app.screen.name == "menu"


def test_the_keyboard_leaves_the_table_for_the_menu_by_the_key_the_menu_button_shows(app):
    """Esc at the table puts the tile back: a keyboard-only player had no way to the menu mid-game."""
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    assert "Menu (M)" in buttons(app)
    messenger.send("escape")               # the tile back in hand, still at the table
    frames(app)
    assert app.screen.name == "play"
    messenger.send("m")
    frames(app)
    assert app.screen.name == "menu"
    assert "Continue" in buttons(app)


def test_space_confirms_a_tile_and_the_controls_help_says_so(app):
    """Space confirmed as Enter does, but no help named it."""
    s = app.play(app.store.new_match([Seat("Ana")], seed=3))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None and s.ps.verdict is not None and s.ps.verdict.ok)
    assert "Enter or Space: confirm" in s.hud.legend["text"]   # (folded in this small window: H shows it)
    frames(app)                                                # the table's first frame drawn, then a moment:
    time.sleep(HANDOFF_PAUSE)                                  # (a tile as dealt: not at once, see play.enter_key)
    messenger.send("space")
    until(app, lambda: len(s.match.game.moves) == 1)


def test_back_in_the_menu_the_item_left_by_is_highlit(app):
    """Back from Settings or Rules the highlight stood on the first item: Enter went to Continue or New game."""
    app.menu()
    click(app, "Settings")
    messenger.send("escape")
    frames(app)
    assert app.screen.name == "menu"
    messenger.send("enter")
    assert app.screen.name == "settings"
    app.store.new_match([Seat("Ana")], seed=3)        # Continue comes first now: still on the item, not its place
    app.menu()
    click(app, "Rules")
    messenger.send("escape")
    frames(app)
    set_language("de")                                # built again in another language: still there
    frames(app)
    messenger.send("space")
    assert app.screen.name == "rules"


def test_back_in_the_menu_from_a_game_the_highlight_is_on_continue(app):
    """A game started from New game and left with M: the menu's highlight stood on New game (the item the
    menu was left by), so Enter set up a new game rather than go back to the one just left."""
    from nmbr9.scene.screens.widgets import BUTTON_HOT
    app.menu()
    click(app, "New game")
    messenger.send("enter")                           # Start
    s = until(app, lambda: app.screen if app.screen.name == "play" and app.screen.ps is not None else None)
    messenger.send("m")
    frames(app)
    k = app.screen.keys
    assert app.screen.name == "menu" and k.buttons[k.index]["text"] == "Continue"
    assert [b["text"] for b in k.buttons if tuple(b["frameColor"][0]) == BUTTON_HOT] == ["Continue"]   # lit alone
    messenger.send("enter")
    until(app, lambda: app.screen.name == "play" and app.screen.match.game.moves == s.match.game.moves)


@pytest.mark.parametrize("confirm", ["escape", "enter"])
def test_esc_in_the_menu_asks_first_and_a_second_esc_or_enter_quits(app, monkeypatch, confirm):
    """One Esc by accident quit the game at once: it walks to Quit and the key line asks for a second."""
    quits = []
    monkeypatch.setattr(app, "quit", lambda: quits.append(True))
    app.menu()
    assert "Esc: quit" in texts(app)
    messenger.send("escape")
    frames(app)
    assert not quits and app.screen.name == "menu"
    assert "Press Esc again to quit." in texts(app) and app.screen.keys.current() == (app.screen.choose, (app.quit,))
    set_language("de")                            # built again in another language: still asking
    frames(app)
    assert app.screen.asked and not quits
    messenger.send(confirm)
    assert quits == [True]


def test_walking_off_quit_after_one_esc_withdraws_the_question(app, monkeypatch):
    """Esc in the menu, then the arrows up to Settings: the key line still said "Press Esc again to quit.", and
    an Esc pressed later to walk to Quit quit at once."""
    quits = []
    monkeypatch.setattr(app, "quit", lambda: quits.append(True))
    app.menu()
    messenger.send("escape")
    frames(app)
    assert "Press Esc again to quit." in texts(app)
    messenger.send("arrow_up")                    # to Settings
    frames(app)
    assert "Press Esc again to quit." not in texts(app) and "Esc: quit" in texts(app)
    messenger.send("escape")                      # walks to Quit and asks again
    frames(app)
    assert not quits and "Press Esc again to quit." in texts(app)
    assert app.screen.keys.current() == (app.screen.choose, (app.quit,))
    messenger.send("escape")
    assert quits == [True]


def test_the_menus_quit_button_quits_at_once(app, monkeypatch):
    quits = []
    monkeypatch.setattr(app, "quit", lambda: quits.append(True))
    app.menu()
    click(app, "Quit")
    assert quits == [True]


def test_f12_says_where_the_screenshot_went(app):
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    messenger.send("f12")
    frames(app)
    shots = list(app.store.folder.glob("screenshot-*.png"))
    assert len(shots) == 1
    assert f"Screenshot saved: {shots[0]}" in texts(app)
    app.save_settings(app.settings.changed(language="de"))   # the note, still up, in the new language too
    frames(app)
    assert f"Bildschirmfoto gespeichert: {shots[0]}" in texts(app) and "Screenshot saved" not in texts(app)


def test_a_screenshot_note_from_the_table_lies_over_no_button_of_the_hand_off_nor_the_next_screen(app):
    """F12 at Ana's table, then her tile confirmed: the note, placed for the table, lay over the hand-off's
    "I am Ben" for its seconds (and a menu's over the next screen's buttons)."""
    from nmbr9.scene.screens.widgets import box, overlap

    def covered() -> list[str]:
        aspect = app.base.aspect2d
        note = box(app.note, aspect)
        return [text for text, b in buttons(app).items() if overlap(note, box(b, aspect))]
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=11)
    s = app.play(m)
    pass_the_table(app)
    place = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)
    messenger.send("f12")
    frames(app)
    assert app.note is not None and covered() == []
    place_somewhere(app)
    until(app, lambda: s.overlay == "handoff" and "I am Ben: show my table" in buttons(app), 5)
    assert place.ghost is None and app.note is not None and "Screenshot saved" in texts(app)
    assert covered() == []
    messenger.send("escape")   # the hand-off's Menu (Esc)
    until(app, lambda: app.screen.name == "menu")
    messenger.send("f12")
    frames(app)
    app.screen.keys.press()    # Continue, highlighted: the note now over the hand-off again, clear of it
    until(app, lambda: app.screen.name == "play" and app.screen.overlay == "handoff")
    assert app.note is not None and covered() == []


def test_two_screenshots_in_one_second_are_two_pictures(app, monkeypatch):
    """The name has the time to the second: the second F12 replaced the first picture."""
    monkeypatch.setattr("nmbr9.scene.game_app.time.strftime", lambda *a: "20260101-120000")
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    first, second = app.screenshot(), app.screenshot()
    assert first != second
    assert sorted(p.name for p in app.store.folder.glob("screenshot-*.png")) == [
        "screenshot-20260101-120000-2.png", "screenshot-20260101-120000.png"]


def test_a_screenshot_taken_while_the_last_ones_note_is_up_does_not_show_that_note(app):
    """F12 at each step of a game: every picture after the first had "Screenshot saved: ..." of the one before
    in it, over the table's bottom middle."""
    from panda3d.core import Filename, PNMImage

    def picture(path) -> PNMImage:
        image = PNMImage()
        assert image.read(Filename.fromOsSpecific(path))
        return image
    app.menu()
    frames(app, 3)
    first = picture(app.screenshot())
    frames(app, 3)
    assert app.note is not None and "Screenshot saved" in texts(app)
    second = picture(app.screenshot())
    assert first.getXSize() == second.getXSize() and first.getYSize() == second.getYSize()
    # a faint difference is the text's glyphs sampled anew (the note's own letters join the font's page), not a note
    changed = sum(max(abs(a - b) for a, b in zip(first.getXel(x, y), second.getXel(x, y))) > 0.1
                  for x in range(0, first.getXSize(), 2) for y in range(0, first.getYSize(), 2))
    assert changed == 0, f"{changed} pixels differ: the first picture's note is in the second"
    assert app.note is not None and "Screenshot saved" in texts(app)   # the second one's note, said after it


def test_f12_on_a_full_disk_says_the_screenshot_was_not_saved(app, monkeypatch):
    """Panda3D's own writer left an empty picture and the note said 'Screenshot saved'."""
    import errno
    import os

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    monkeypatch.setattr("nmbr9.store.files.os.write", full)
    messenger.send("f12")
    frames(app)
    assert f"The screenshot could not be saved in {app.store.folder}." in texts(app)
    assert list(app.store.folder.glob("*screenshot-*")) == []


def test_a_note_said_on_one_screen_keeps_clear_of_the_next_ones_buttons(app):
    """F12 on the menu (nothing low there: the note at the bottom), then Rules at once: the note lay over Back
    for its seconds; so too F12 at the table, then F1. (A short note: the tests' deep data folder makes
    "Screenshot saved: ..." three lines tall, placed higher.)"""
    from nmbr9.scene.screens.widgets import box, overlap

    def clear(button: str) -> bool:
        return not overlap(box(app.note, app.base.aspect2d), box(buttons(app)[button], app.base.aspect2d))
    app.menu()
    app.say(lambda: "Screenshot saved")
    click(app, "Rules")
    assert app.note is not None and clear("Back (Esc)")
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    app.say(lambda: "Screenshot saved")
    messenger.send("f1")
    frames(app)
    assert clear("Back (Esc)")


def test_the_screenshot_note_stays_up_after_a_slow_screenshot(app, monkeypatch):
    """F12 at the table on a busy machine: the picture took seconds to write, and "Screenshot saved: ..." showed
    for one frame (or none): its 4 s were counted from the start of the frame the picture was taken in."""
    import nmbr9.scene.render as render
    encode = render.picture_bytes

    def slow(image, name):
        time.sleep(4.2)
        return encode(image, name)
    monkeypatch.setattr(render, "picture_bytes", slow)
    app.play(app.store.new_match([Seat("Ana")], seed=1))
    frames(app)
    messenger.send("f12")
    frames(app, 3)
    assert app.note is not None and "Screenshot saved" in texts(app)


def test_the_screenshot_note_on_the_results_lies_beside_the_score_panel_not_across_its_edge(app):
    """F12 on the results: the note was centred on the window, its left third on the score panel, the rest on
    the board. It now lies wholly beside the panel (or inside it), its letters drawn over whatever is there."""
    from panda3d.core import Point3
    from direct.gui.DirectGui import DirectFrame
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.widgets import PANEL, box, overlap
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31)
    m.play_out()
    app.goto(ResultsScreen, match=m, context={}).job.stop()
    frames(app)
    base = app.base
    without = picture(app)
    messenger.send("f12")
    frames(app)
    note = app.note
    [panel] = [box(w, base.aspect2d) for w in DirectGuiWidget.guiDict.values() if type(w) is DirectFrame
               and not w.isEmpty() and app.screen.root.isAncestorOf(w) and tuple(w["frameColor"]) == tuple(PANEL)]
    spot = box(note, base.aspect2d)
    inside = panel[0] <= spot[0] and spot[1] <= panel[1] and panel[2] <= spot[2] and spot[3] <= panel[3]
    assert inside or not overlap(spot, panel), f"the note {spot} lies across the score panel's edge {panel}"
    left, right, bottom, top = note.guiItem.getFrame()
    a, b = (base.aspect2d.getRelativePoint(note, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    w, h = base.win.getXSize(), base.win.getYSize()
    x0, x1 = (round((x / base.a2dRight + 1) / 2 * w) for x in (a.x, a.x + (b.x - a.x) / 3))
    y0, y1 = (round((1 - z / base.a2dTop) / 2 * h) for z in (b.z, a.z))
    shot = picture(app)
    # its letters show, not faintly through something drawn over them
    assert max(abs(shot.getBright(x, y) - without.getBright(x, y)) for x in range(x0, x1) for y in range(y0, y1)) > 0.4


def test_the_menus_press_esc_again_stays_readable_under_a_screenshot_note(app):
    """F12 after Esc in the menu: the note (4 s) lay over the key line at the bottom, "Press Esc again to quit."."""
    from nmbr9.scene.screens.widgets import drawn
    base = app.base
    app.menu()
    messenger.send("escape")
    frames(app)
    [line] = [w for w in DirectGuiWidget.guiDict.values() if not w.isEmpty() and app.screen.root.isAncestorOf(w)
              and w["text"] == "Press Esc again to quit."]
    left, right, bottom, top = drawn(line, base.aspect2d)
    w, h = base.win.getXSize(), base.win.getYSize()
    x0, x1 = (round((x / base.a2dRight + 1) / 2 * w) for x in (left, right))
    y0, y1 = (round((1 - z / base.a2dTop) / 2 * h) for z in (top, bottom))
    without = picture(app)
    messenger.send("f12")
    frames(app)
    shot = picture(app)
    assert app.note is not None and "Press Esc again to quit." in texts(app)
    changed = sum(abs(shot.getBright(x, y) - without.getBright(x, y)) > 0.1 for x in range(x0, x1) for y in range(y0, y1))
    assert changed == 0, f"{changed} pixels of the key line hidden by the note"


@pytest.mark.parametrize("size", ["640x480", "800x600", "1280x720", "1920x1080"])
def test_the_screenshot_note_covers_no_button_nor_text_on_any_screen(size):
    """A deep data folder made the note three lines tall, over the bottom buttons (Back, Start, Confirm) for
    its four seconds; it still lay over the menu's key line ("Press Esc again to quit.") and the table's controls
    legend. In a process of its own: one window size a ShowBase."""
    from pathlib import Path
    found = script_output([Path(__file__).resolve().parent / "screenshot_note_driver.py", size])
    (half_w, half_h), screens = found["half"], found["screens"]
    assert len(screens) == 12
    for name, seen in screens.items():
        left, right, bottom, top = seen["note"]
        assert seen["lines"] >= 3, f"{name}: the path was not long enough to test"
        assert -half_w <= left and right <= half_w and -half_h <= bottom and top <= half_h, f"{name}: off the window"
        assert seen["covered"] == [], f"{name}: the note covers {seen['covered']}"


def test_a_corrupt_save_is_set_aside_and_the_menu_says_so(app):
    (app.store.folder / "autosave.json").write_text("{ not json", encoding="utf-8")
    app.menu()
    assert "Continue" not in buttons(app)
    assert "could not be continued" in texts(app)
    assert list(app.store.folder.glob("autosave.json.corrupt-*"))


def test_new_game_setup_seats_players_and_starts_a_saved_game(app):
    app.menu()
    click(app, "New game")
    click(app, "Add a player")          # seat 2: a medium bot
    click(app, "Bot, medium")           # -> a hard bot
    click(app, "Add a player")
    s = app.screen
    for _ in range(2):                  # seat 3: medium, hard, human
        s.cycle_kind(2)
    s.entries[0].set("Ana")
    s.entries[2].set("Ben")
    s.seed_entry.set("42")
    click(app, "Start (Enter)")
    assert app.screen.name == "play"
    m = app.screen.match
    assert [(x.name, x.kind) for x in m.seats] == [("Ana", "human"), ("Bot 2", "bot:hard"), ("Ben", "human")]
    assert m.seed == 42
    saved = json.loads((app.store.folder / "autosave.json").read_text())
    assert saved["players"][0]["name"] == "Ana"


def test_clicking_a_default_name_empties_it_for_typing_and_empty_stays_the_default(app):
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    s = app.screen
    click(app, "Add a player")
    s.entries[1].set("Ben")
    for e in s.entries:
        e["focus"] = 1                  # as a click in the field does
        frames(app)
        assert e.get() in ("", "Ben")   # the default gives way to typing; a typed name is kept
        e["focus"] = 0
        frames(app)
    assert [e.get() for e in s.entries] == ["Player 1", "Ben"]   # left empty: the default shows again
    click(app, "Start (Enter)")
    assert [x.name for x in app.screen.match.seats] == ["Player 1", "Ben"]


def test_practice_cannot_be_switched_on_for_more_than_one_human_and_says_why(app):
    """With two humans Practice could be switched on, and the game then started without it, unsaid. With a bot
    seated it said "(solo only)", as if the bot took practice away: it says "(one human player)"."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    click(app, "Add a player")                       # a bot: still one human's practice
    click(app, "Practice: take back allowed (one human player): off")
    assert "Practice: take back allowed (one human player): on" in buttons(app)
    for _n in range(2):                              # the bot (medium), hard, then a human
        s.cycle_kind(1)
    assert s.rows[1]["kind"] == "human"
    shown = texts(app)
    assert "Practice: off (only with one human player)" in shown and ": on" not in shown
    assert not any(t.startswith("Practice") for t in buttons(app))   # not to be pressed (nor walked to)
    click(app, "Start (Enter)")
    assert not app.screen.match.practice


def test_new_game_offers_the_last_games_seats_and_rules_again(app):
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    click(app, "Add a player")
    click(app, "Add a player")
    s.entries[0].set("Ana")
    s.entries[2].set("Ben")
    for _ in range(2):                       # Ben: medium, hard, back round to human
        s.cycle_kind(2)
    s.toggle_module("gap_fillers")
    click(app, "Start (Enter)")
    assert [(x.name, x.kind) for x in app.screen.match.seats] == [("Ana", "human"), ("Bot 2", "bot:medium"),
                                                                  ("Ben", "human")]
    app.menu()
    s = app.goto(SetupScreen)                # the next game: the same table, names and all, ready to start
    assert [e.get() for e in s.entries] == ["Ana", "Bot 2", "Ben"] and s.modules == ["gap_fillers"]
    s = app.goto(SetupScreen, tournament=True)   # a tournament for the same people too
    assert [e.get() for e in s.entries] == ["Ana", "Bot 2", "Ben"]
    saved = json.loads((app.store.folder / "settings.json").read_text())["new_game"]
    assert saved["seats"][1] == {"name": "", "kind": "bot:medium"}   # a default name follows its seat


def analysis_found(results, placements) -> None:
    """The results' analysis stopped and replaced by one that has found `placements` (no search waited for)."""
    from types import SimpleNamespace
    results.job.stop()
    results.job = SimpleNamespace(poll=lambda: None, progress=1.0, placements=placements, error=None,
                                  stop=lambda: None)


def test_adding_the_sixth_seat_or_removing_the_last_keeps_the_highlight_in_the_seats(app):
    """Space on Add a player for the sixth seat (Add then gone) or on the sixth seat's Remove moved the
    highlight down to Start: Space once more started the game."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    s.rows = [{"name": "", "kind": "human"}] + [{"name": "", "kind": "bot:easy"} for _ in range(4)]
    s.relabel()
    s.keys.find((s.add, ()))
    messenger.send("space")
    assert len(s.rows) == 6 and "Add a player" not in buttons(app)
    assert s.keys.current() == (s.cycle_kind, (5,))          # the new seat's kind, right above where Add was
    messenger.send("space")
    assert app.screen is s and s.rows[5]["kind"] == "bot:hard"
    s.keys.find((s.remove, (5,)))
    messenger.send("space")
    assert len(s.rows) == 5 and s.keys.current() == (s.add, ())   # Add a player, in the sixth seat's place
    messenger.send("space")
    assert app.screen is s and len(s.rows) == 6


def button_colour(app, button):
    """The colour a button is drawn in, read off the rendered window beside its text, inside its frame."""
    from panda3d.core import PNMImage, Point3
    base = app.base
    frames(app)
    base.graphicsEngine.renderFrame()
    shot = PNMImage()
    base.win.getScreenshot(shot)
    left, right, bottom, top = button.guiItem.getFrame()
    at = base.aspect2d.getRelativePoint(button, Point3(left + 0.3, 0, (bottom + top) / 2))
    x = round((at.x / base.a2dRight + 1) / 2 * base.win.getXSize())
    y = round((1 - at.z / base.a2dTop) / 2 * base.win.getYSize())
    return shot.getXel(x, y)


def test_the_green_start_button_lit_is_brighter_green_than_unlit(app):
    """The keyboard's highlight painted Start (green) the plain buttons' grey-green: lit, it looked duller
    than unlit. Read off the rendered window: lit, the same green, brighter."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    start = buttons(app)["Start (Enter)"]
    assert s.keys.current() == (s.start, ())
    lit = button_colour(app, start)
    messenger.send("tab")
    unlit = button_colour(app, start)
    assert unlit.y > unlit.x and unlit.y > unlit.z                     # green
    assert lit.y > lit.x and lit.y > lit.z and lit.y > unlit.y + 0.05  # green too, and brighter


def test_the_keyboard_alone_sets_up_a_game(app):
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    s = app.screen

    def walk_to(command):
        for _ in range(len(s.keys.buttons)):
            if s.keys.current() is not None and s.keys.current()[0] == command:
                return
            messenger.send("tab")
        raise AssertionError(f"Tab never reaches {command}")
    assert s.keys.current() == (s.start, ())                 # Space at once: Start
    messenger.send("tab")                                    # round to the game's tabs at the top: NMBR 9's lit
    assert s.keys.current() == (s.choose_game, (False,))
    messenger.send("tab")
    assert s.keys.current() == (s.choose_game, (True,))
    messenger.send("tab")                                    # then the first name, which takes the typing
    frames(app)
    assert s.entries[0]["focus"] and s.keys.typing() == 2   # (after the two tabs)
    messenger.send("space")                                  # typed into the name: nothing pressed
    assert len(s.rows) == 1 and s.rows[0]["kind"] == "human"
    messenger.send("tab")
    frames(app)
    assert not s.entries[0]["focus"]
    assert s.entries[0].get() == "Player 1"                  # walked through, not typed in: its name still shows
    walk_to(s.add)
    messenger.send("space")
    assert len(s.rows) == 2 and s.keys.current() == (s.add, ())   # still on Add, not on a row that moved
    messenger.send("shift-tab")                              # back up to seat 2's Remove, kind and name
    messenger.send("shift-tab")
    assert s.keys.current() == (s.cycle_kind, (1,))
    messenger.send("space")
    assert s.rows[1]["kind"] == "bot:hard"
    walk_to(s.toggle_module)
    messenger.send("space")
    assert s.modules == ["start_tiles"]
    messenger.send("enter")                                  # Enter starts, wherever the highlight is
    frames(app)
    assert app.screen.name == "play"
    assert [x.kind for x in app.screen.match.seats] == ["human", "bot:hard"]


@pytest.mark.parametrize("seed", ["abc", "-1", "4294967296", "9" * 30])
def test_setup_refuses_a_seed_that_is_not_a_32_bit_number(app, seed):
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    app.screen.seed_entry.set(seed)
    click(app, "Start (Enter)")
    assert app.screen.name == "setup"
    assert "whole number" in texts(app)
    assert app.store.continue_game().match is None      # no game was started or saved


def test_rules_page_scrolls_and_has_every_section(app):
    from nmbr9.i18n import _
    from nmbr9.i18n.rules_page import rules_page
    from nmbr9.scene.screens.rules import RulesScreen
    app.goto(RulesScreen)
    frame = app.screen.frame
    shown = " ".join(np.node().getText() for np in frame.getCanvas().findAllMatches("**/+TextNode"))
    for heading, _paragraphs in rules_page(_):
        assert heading in shown
    before = frame.verticalScroll["value"]
    messenger.send("page_down")
    assert frame.verticalScroll["value"] > before
    messenger.send("end")
    assert frame.verticalScroll["value"] == 1
    messenger.send("home")
    assert frame.verticalScroll["value"] == 0
    messenger.send("escape")
    frames(app)
    assert app.screen.name == "menu"



def test_the_rules_page_shows_the_ten_tiles_and_placements_the_rules_allow_and_refuse(app):
    """The rules page was words only: a newcomer could not see the tiles, nor what "rests on two tiles" or
    "overhangs" look like. Paged through from top to end, it now shows each of the ten tiles in its colour (as it
    lies on the table, level 0) and a 7 laid on a 9 and a 5: outlined green where it fits, red where the rules
    refuse it, the square with nothing under it dark, each captioned with what the table says of it."""
    from nmbr9.rules.tiles import COLOURS
    from nmbr9.scene.screens.rules import RulesScreen
    from nmbr9.scene.table import LEGAL, REFUSED, level_tint
    from helpers import colours_on_page
    app.goto(RulesScreen)
    colours = {digit: tuple(int(c[i:i + 2], 16) / 255 * level_tint(0) for i in (1, 3, 5))
               for digit, c in COLOURS.items()}
    marks = {"fits": LEGAL[:3], "refused": REFUSED[:3]}   # the outlines of the 7 in hand
    found = colours_on_page(app, {**colours, **marks}, 0.035)
    assert set(colours) <= found, f"tiles not shown on the page: {sorted(set(colours) - found)}"
    assert set(marks) <= found, f"not shown: {sorted(set(marks) - found)}"
    page = " ".join(np.node().getText() for np in app.screen.frame.getCanvas().findAllMatches("**/+TextNode"))
    for caption in ("Allowed: Fits on level 1", "Not allowed: The tile rests on only one tile",
                    "Not allowed: The tile overhangs or covers a hole", "Not allowed: The tile must touch a tile"):
        assert caption in page.replace("\u00a0", " "), caption
    # the examples are what the rules say of them (a change of the rules changes the page)
    from nmbr9.scene.screens.rules_pictures import EXAMPLES, examples
    assert [verdict.code for _board, _tile, verdict in examples()] == [code for _tile, code in EXAMPLES]


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_rules_page_says_home_and_end_scroll_it(app, language):
    """Home and End take the rules page to its top and its end (as README says), but the line under the page named
    only the wheel, the arrow keys and Page Up / Page Down. It names Home and End too, in every language, clear of
    the page and of Back (at 640x360, the narrowest the tests have)."""
    from nmbr9.scene.screens.rules import RulesScreen
    from nmbr9.scene.screens.widgets import box, drawn, overlap
    set_language(language)
    app.goto(RulesScreen)
    frame = app.screen.frame
    keys = {"en": "Home / End", "de": "Pos1 / Ende", "es": "Inicio / Fin", "pl": "Home / End"}[language]
    assert keys in texts(app)
    aspect = app.base.aspect2d
    hint = drawn(frame.keys, aspect)
    back = buttons(app)[{"en": "Back (Esc)", "de": "Zurück (Esc)", "es": "Volver (Esc)", "pl": "Wstecz (Esc)"}[language]]
    assert not overlap(hint, box(back, aspect)) and not overlap(hint, box(frame, aspect))


def test_page_down_turns_the_rules_page_by_a_view_less_a_line(app):
    """Page Down moved the rules page by a fixed step, two thirds of what it shows: a third of the view was read
    again at every press. It now moves by the view's height less a line: the line read last (or a picture cut at
    the bottom) is at the top, nothing else is shown again and nothing is skipped; Page Up goes back the same way."""
    from nmbr9.scene.screens.rules import RulesScreen, _travel
    app.goto(RulesScreen)
    frame = app.screen.frame
    bar = frame.verticalScroll
    clip = frame.guiItem.getClipFrame()
    seen, travel = clip[3] - clip[2], _travel(frame)

    def whole(depth):   # the lines (and pictures) the view shows whole, its top that far down the page
        return {i for i, (_p, _d, top, bottom) in enumerate(frame.lines) if -top >= depth - 1e-4
                and -bottom <= depth + seen + 1e-4}
    for key in ("page_down", "page_down", "page_down", "page_up", "page_up"):
        before = bar["value"] * travel
        messenger.send(key)
        frames(app)
        after = bar["value"] * travel
        assert abs(after - before) < seen, f"{key} skipped lines never shown"
        again = whole(before) & whole(after)
        assert len(again) <= 1, f"{key} showed {len(again)} lines again"
    messenger.send("end")
    frames(app)
    messenger.send("page_down")
    assert bar["value"] == 1


def rules_lines(frame, edge: str = "top") -> list[tuple[str, float, float]]:
    """The rules page's lines of text (their first words), each with its top and bottom less the view's `edge`
    (the top or bottom of what the page shows; in the page frame's units): a line crossing 0 is cut there."""
    from panda3d.core import Point3
    clip = frame.guiItem.getClipFrame()
    at = clip[3] if edge == "top" else clip[2]
    found = []
    for text in frame.getCanvas().findAllMatches("**/+TextNode"):
        node = text.node()
        for row in range(node.getNumRows()):
            top, bottom = (frame.getRelativePoint(text, Point3(0, 0, node.getTop() - r * node.getLineHeight())).z
                           for r in (row, row + 1))
            found.append((node.getText()[:30], top - at, bottom - at))
    return found


def lines_cut_at_the_top(frame) -> list[str]:
    """The lines of the rules page crossing the view's top edge (more than a hair of them out of sight)."""
    return [text for text, top, bottom in rules_lines(frame) if bottom + 0.002 < 0 < top - 0.1 * (top - bottom)]


def ink_at_the_top(app, frame) -> int:
    """How many pixels of text the rules page shows in its view's topmost whole row of pixels (a cut line's lower
    part: a whole line's letters begin lower)."""
    from panda3d.core import Point3
    shot = picture(app)
    left, right, _bottom, top = frame.guiItem.getClipFrame()
    (x0, _y, z), (x1, _y1, _z1) = (app.base.render2d.getRelativePoint(frame, Point3(x, 0, top)) for x in (left, right))
    row = int((1 - z) / 2 * shot.getYSize()) + 1   # the first whole pixel row inside the view
    columns = range(int((x0 + 1) / 2 * shot.getXSize()) + 2, int((x1 + 1) / 2 * shot.getXSize()) - 2)
    return sum(shot.getBright(x, row) > 0.3 for x in columns)


def test_the_rules_page_scrolled_stops_with_a_whole_line_at_its_top(app):
    """Scrolled with the arrow keys, the page keys or the wheel, the rules page stopped wherever a fixed step
    fell: a line cut in half at the top of the view (End as well). Each press now moves it by whole lines and
    stops with a whole line at the top; End shows the last line whole; a drag of the scroll bar settles there
    too. While the mouse held the bar (dragging its thumb, holding an arrow) Panda took no value from the game: the
    page followed the mouse, lines cut at the top in every frame drawn; it now shows a whole line in every one."""
    from panda3d.core import MouseButton, MouseWatcher, PGItem, Point3, VirtualMouse
    from nmbr9.scene.screens.rules import RulesScreen
    app.goto(RulesScreen)
    frame = app.screen.frame
    bar = frame.verticalScroll
    wheel = {name: f"{PGItem.getPressPrefix()}{button.getName()}-{frame.guiId}"
             for name, button in (("wheel_down", MouseButton.wheelDown()), ("wheel_up", MouseButton.wheelUp()))}
    presses = (["arrow_down"] * 4 + ["arrow_down-repeat"] * 3 + ["wheel_down"] * 4 + ["page_down"] * 3
               + ["arrow_up"] * 3 + ["wheel_up"] * 3 + ["page_up"] * 2 + ["end", "arrow_up", "page_up", "home"]
               + ["page_down"] * 40)   # (page by page to the end)
    cut, stuck = [], []
    for i, key in enumerate(presses):
        before = bar["value"]
        messenger.send(wheel.get(key, key), [None] if key in wheel else [])
        frames(app)
        if bar["value"] == before and not (key == "page_down" and before == 1):
            stuck.append((i, key))
        cut += [(i, key, line) for line in lines_cut_at_the_top(frame)]
        if ink_at_the_top(app, frame):
            cut.append((i, key, f"{ink_at_the_top(app, frame)} pixels of text in the view's top row"))
        if key == "end":
            assert all(bottom > -0.002 for _text, _top, bottom in rules_lines(frame, "bottom")[-1:]), "the end cut"
    assert bar["value"] == 1, "Page Down did not reach the end"
    assert not stuck, f"presses that did not move the page: {stuck}"
    assert not cut, f"lines cut at the page's top after these presses: {cut}"
    for value in (0.37, 0.5, 0.83):   # the scroll bar set there
        bar["value"] = value
        frames(app)
        assert not lines_cut_at_the_top(frame) and not ink_at_the_top(app, frame), value
    # the mouse (a virtual one: the offscreen buffer has none) drags the thumb down, a frame drawn at each step
    mouse = VirtualMouse("mouse")
    width, height = app.base.win.getXSize(), app.base.win.getYSize()
    mouse.setWindowSize(width, height)
    mouse.setMouseOn(True)
    device = app.base.dataRoot.attachNewNode(mouse)
    app.base.aspect2d.node().setMouseWatcher(device.attachNewNode(MouseWatcher("mouse")).node())

    def point_at(widget, down: float = 0.0) -> None:   # `down` from where the widget stood at the home
        at = app.base.render2d.getRelativePoint(widget, Point3(0, 0, 0)) if widget else start
        mouse.setMousePos(int((at.x + 1) / 2 * width), int((1 - at.z + down) / 2 * height))
        frames(app, 1)

    try:
        messenger.send("home")
        frames(app)
        start = app.base.render2d.getRelativePoint(bar.thumb, Point3(0, 0, 0))
        point_at(None)
        mouse.pressButton(MouseButton.one())
        for step in range(1, 30):
            point_at(None, step * 0.02)
            assert bar.guiItem.isButtonDown(), "not held"
            cut += [(step, line) for line in lines_cut_at_the_top(frame)]
            cut += [(step, f"{ink} pixels") for ink in [ink_at_the_top(app, frame)] if ink]
        mouse.releaseButton(MouseButton.one())
        frames(app, 1)
        dragged = bar["value"]
        assert dragged > 0.1, "not dragged"
        point_at(bar.incButton)   # the bar's arrow held a frame, then let go: the next line
        mouse.pressButton(MouseButton.one())
        frames(app, 1)
        cut += [("arrow held", line) for line in lines_cut_at_the_top(frame)]
        mouse.releaseButton(MouseButton.one())
        frames(app, 1)
    finally:
        app.base.aspect2d.node().setMouseWatcher(MouseWatcher())
        device.removeNode()
    assert not cut, f"lines cut at the page's top while the scroll bar was dragged: {cut}"
    assert bar["value"] > dragged and not lines_cut_at_the_top(frame) and not ink_at_the_top(app, frame)


def test_the_rules_page_laid_out_again_for_a_resized_window_shows_a_whole_line_at_its_top(app, monkeypatch):
    """A window resized under the rules page kept the scroll bar where it stood, on a page wrapped anew: the view
    began wherever that fell, a line cut in two at its top (at 1280x720, "Good to know" with its upper half gone).
    Laid out again, the page begins with a whole line, the one the reader was at (from that paragraph), and
    no text is cut at the view's top edge."""
    from nmbr9.scene.screens.rules import RulesScreen, reading_place
    app.goto(RulesScreen)
    shape = app.base.getAspectRatio()

    def laid_out_for(aspect):   # the window resized to that shape (the offscreen buffer keeps its pixels)
        monkeypatch.setattr(app.base, "getAspectRatio", lambda win=None: aspect)
        app.screen.window_changed()
        frames(app)

    cut = []
    for presses in range(1, 9):
        messenger.send("home")
        for _ in range(presses):
            messenger.send("arrow_down")   # half a step each (by whole lines): anywhere on the page
        frames(app)
        was = reading_place(app.screen.frame)
        paragraph = app.screen.frame.paragraphs[was[0]]
        for aspect in (4 / 3, shape):       # narrower (wrapped anew), then back
            laid_out_for(aspect)
            place = reading_place(app.screen.frame)
            assert app.screen.frame.paragraphs[place[0]] == paragraph, (presses, aspect)   # the reader's place
            cut += [(presses, round(aspect, 2), line) for line in lines_cut_at_the_top(app.screen.frame)]
    assert not cut, f"lines cut at the page's top after these scrolls and window shapes: {cut}"


def test_settings_are_used_at_once_and_kept(app):
    from nmbr9.scene.screens.settings import SettingsScreen
    from nmbr9.store import load_settings
    app.goto(SettingsScreen)
    click(app, "on")                       # sound on -> off
    assert app.settings.sound is False and app.sounds.enabled is False
    assert load_settings(app.store.folder).sound is False
    click(app, "640 \u00d7 360")                  # the test's window: the next size offered
    assert load_settings(app.store.folder).window_size == (800, 600)


def test_settings_show_the_window_size_in_use_and_keep_the_saved_one(app):
    """Started with --size (here: the test's 640x360 window, 1600x900 saved), Settings showed the saved size as
    the window's; another setting changed keeps the saved size (--size was for this start only)."""
    from nmbr9.scene.screens.settings import SettingsScreen
    from nmbr9.store import load_settings
    app.settings = app.settings.changed(window_size=(1600, 900))   # as read from settings.json
    app.goto(SettingsScreen)
    assert "640 \u00d7 360" in buttons(app) and "1600 \u00d7 900" not in texts(app)
    click(app, "on")                                   # sound on -> off
    assert load_settings(app.store.folder).window_size == (1600, 900)
    assert "640 \u00d7 360" in buttons(app)


def test_in_full_screen_the_window_size_button_says_it_is_the_size_in_a_window(app):
    """Full screen on a 1280 x 1024 screen, Settings said "1280 × 720": the saved window's size, read as the
    full screen's. It says what that size is for."""
    from nmbr9.scene.screens.settings import SettingsScreen
    app.settings = app.settings.changed(window_size=(1280, 720), fullscreen=True)   # as read from settings.json
    app.goto(SettingsScreen)
    assert "1280 \u00d7 720 in a window" in buttons(app) and "1280 \u00d7 720" not in buttons(app)


def test_the_settings_sliders_write_decimals_as_the_language_does(app):
    """German, Spanish and Polish write 1,5: the sliders said "1.0×" in every language."""
    from nmbr9.scene.screens.settings import SettingsScreen
    app.goto(SettingsScreen)
    assert "1.0\u00d7" in texts(app).splitlines()
    set_language("pl")                             # switched here, as the Language button does
    frames(app)
    lines = texts(app).splitlines()
    assert "1,0\u00d7" in lines and "1.0\u00d7" not in lines
    messenger.send("arrow_down"), messenger.send("arrow_down"), messenger.send("arrow_right")   # camera, a step up
    frames(app)
    assert "1,1\u00d7" in texts(app).splitlines()


def test_settings_offer_only_window_sizes_the_screen_holds(app, monkeypatch):
    from nmbr9.scene.screens import settings
    from nmbr9.scene.screens.settings import SettingsScreen
    monkeypatch.setattr(settings, "display_size", lambda base: (1366, 768))   # a common laptop
    monkeypatch.setattr(app, "window_in_use", lambda: app.settings.window_size)  # a window that takes each size
    app.goto(SettingsScreen)
    click(app, "1280 \u00d7 720")
    assert app.settings.window_size == (800, 600)       # 1600 x 900 would not fit: round to the smallest
    click(app, "800 \u00d7 600")
    assert app.settings.window_size == (1024, 576)


def test_settings_offer_4_3_window_sizes_and_the_windows_own(app, monkeypatch):
    """Only 16:9 sizes were offered: a window at 800 x 600 went to 1024 x 576, then 1280 x 720, never back."""
    from nmbr9.scene.screens import settings
    from nmbr9.scene.screens.settings import SettingsScreen
    monkeypatch.setattr(settings, "display_size", lambda base: (1920, 1080))
    now = [(900, 700)]                                   # the player dragged the window to this size
    monkeypatch.setattr(app, "window_in_use", lambda: now[0])
    app.goto(SettingsScreen)
    seen = []
    for _n in range(7):
        label = "{} \u00d7 {}".format(*now[0])
        seen.append(label)
        click(app, label)
        now[0] = app.settings.window_size                # the window takes the size asked for
        app.screen.window_changed()
    assert seen == ["900 \u00d7 700", "1024 \u00d7 576", "1024 \u00d7 768", "1280 \u00d7 720", "1600 \u00d7 900",
                    "1920 \u00d7 1080", "800 \u00d7 600"]
    assert now[0] == (1024, 576)                         # 900 x 700 is gone with the window's size


def test_settings_work_from_the_keyboard(app):
    """Every key the page's footer names does what it says (it named only the arrows and Enter)."""
    from nmbr9.scene.screens.settings import SettingsScreen
    from nmbr9.store import load_settings
    app.goto(SettingsScreen)
    assert "Tab or Up/Down walk the settings, Left/Right move a slider, Enter or Space presses" in texts(app)
    sound = app.settings.sound
    for key in ("tab", "tab", "tab", "tab", "space"):   # to Sound, pressed
        messenger.send(key)
    frames(app)
    assert load_settings(app.store.folder).sound is (not sound)
    speed = app.settings.animation_speed
    for key in ("shift-tab", "arrow_right"):   # back to Animation speed, one step up
        messenger.send(key)
    frames(app)
    assert load_settings(app.store.folder).animation_speed == round(speed + 0.1, 1)
    app.goto(SettingsScreen)
    speed = app.settings.animation_speed
    for key in ("arrow_down", "arrow_down", "arrow_down", "arrow_right"):   # to Animation speed, one step up
        messenger.send(key)
    frames(app)
    assert load_settings(app.store.folder).animation_speed == round(speed + 0.1, 1)
    for key in ("arrow_down", "arrow_down", "enter"):                         # to Language: System -> English
        messenger.send(key)
    frames(app)
    assert app.settings.language == "en"
    messenger.send("enter")                       # the highlight stayed on Language: English -> Deutsch
    frames(app)
    assert load_settings(app.store.folder).language == "de" and "Sprache" in texts(app)


def test_language_changes_without_a_restart(app):
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=1)
    app.play(m)
    frames(app)
    assert "Round 1 of 20" in texts(app)
    app.save_settings(app.settings.changed(language="de"))
    frames(app, 3)
    assert "Runde 1 von 20" in texts(app)


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_settings_notes_and_keys_leave_no_word_alone_on_a_line(app, language):
    """In Spanish the camera's note ended "... y A D W" with "S." alone on the next line; the key help's German
    "links/rechts: / Regler verschieben" broke inside what a key does. Every line holds two words or more (a run
    of keys or a key's "what it does" counts as one)."""
    from nmbr9.scene.screens.settings import SettingsScreen
    set_language(language)
    app.goto(SettingsScreen)
    frames(app)
    wrapped = [w.component("text0").textNode for w in list(DirectGuiWidget.guiDict.values())
               if _visible(w) and app.base.aspect2d.isAncestorOf(w) and w.hascomponent("text0")
               and w.component("text0").textNode.getWordwrap()]
    lines = [line for node in wrapped for line in node.getWordwrappedText().split("\n") if line]
    assert len(wrapped) >= 2 and all(len(line.split(" ")) > 1 for line in lines), lines


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_rules_page_fills_its_lines_in_every_language(app, language):
    """The Spanish Bridge rule broke early, before "(rodeado de losetas de su nivel)", a bracket kept whole:
    its first line was 82% full. Every line of the page but a paragraph's last is at least 85% full."""
    from nmbr9.scene.screens.rules import RulesScreen
    set_language(language)
    s = app.goto(RulesScreen)
    for text in s.frame.getCanvas().findAllMatches("**/rules-text"):
        node = text.node()
        lines = node.getWordwrappedText().split("\n")
        for line, after in zip(lines, lines[1:]):
            assert node.calcWidth(line) >= 0.85 * node.getWordwrap(), (line, after)


def test_the_german_rules_call_a_player_a_person_throughout():
    """The German rules said "Person" everywhere but once: "sobald ein Spieler zwei Zahlenplättchen"."""
    from nmbr9.i18n import _
    from nmbr9.i18n.rules_page import rules_page
    set_language("de")
    try:
        page = " ".join(" ".join([heading, *paragraphs]) for heading, paragraphs in rules_page(_))
    finally:
        set_language("en")
    assert "Spieler" not in page and page.count("Person") > 10


@pytest.mark.parametrize("ruleset", [Ruleset(), Ruleset("classic", ("gap_fillers", "breaking_rules"))],
                         ids=["classic", "plus"])
def test_a_language_changed_mid_turn_redraws_the_whole_table(app, ruleset):
    """With a bot at the table, the round, "This round's card", the verdict, Confirm and the controls' help
    stayed in the old language until the next tile: the HUD skips drawing what has not changed."""
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=3, ruleset=ruleset)
    s = app.play(m)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None and "Fits on level" in texts(app))
    s.hud.toggle_legend()
    app.save_settings(app.settings.changed(language="de"))
    frames(app, 3)
    shown = texts(app)
    for english in ("Round 1", "This round's card", "Fits on level", "Confirm (Enter)", "Mouse: the tile follows"):
        assert english not in shown
    assert "Runde 1" in shown and "Passt auf Ebene" in shown and "Bestätigen (Enter)" in shown


# ----- playing -----------------------------------------------------------------------------------------
def test_the_hand_off_screen_goes_to_the_menu_with_escape(app):
    """The hand-off's Menu button was mouse only (Esc did nothing while the table was hidden)."""
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=11)
    s = app.play(m)
    until(app, lambda: s.overlay == "handoff")
    assert "Menu (Esc)" in buttons(app)
    messenger.send("escape")
    until(app, lambda: app.screen.name == "menu")


def test_a_long_name_on_the_hand_off_stays_clear_of_the_rounds_line(app):
    """A name as long as the New game field takes: "Pass to WWW…W" wrapped to three lines at 1280x720, the
    third over "Round 1 of 20". The title's lines now go above its first."""
    name = "W" * 21
    s = app.play(app.store.new_match([Seat(name), Seat("Ben")], seed=11))
    until(app, lambda: s.overlay == "handoff")

    def shown(start):   # the text's bottom and top on the screen
        w = next(w for w in DirectGuiWidget.guiDict.values() if _visible(w) and isinstance(w["text"], str)
                 and w["text"].replace("\u00a0", " ").startswith(start))
        low, high = w.component("text0").getTightBounds()
        z, scale = w.getZ(app.base.aspect2d), w.getSz(app.base.aspect2d)
        return z + low.z * scale, z + high.z * scale
    title, round_line = shown(f"Pass to {name}"), shown("Round 1 of 20")
    assert title[0] > round_line[1], (title, round_line)


def test_a_name_a_file_made_far_longer_than_a_field_takes_is_shown_cut_short(app):
    """A name of thousands of letters (a save or a record brings any) was shown whole: the hand-off said "Pass
    to WWW…" over many lines, and the scores beside the table ran off it. Every name is cut to 32 letters."""
    s = app.play(app.store.new_match([Seat("W" * 5000), Seat("Ben")], seed=11))
    until(app, lambda: s.overlay == "handoff")
    shown = texts(app)
    assert f"Pass to {'W' * 31}\u2026" in shown and "W" * 32 not in shown


def test_enter_pressed_again_after_confirming_neither_shows_nor_plays_the_next_players_table(app):
    """Ana confirmed with Enter and pressed it again (and again) half a second apart: the hand-off passed the
    table at once and her third Enter laid Ben's tile where it lay. It now takes no press for a moment."""
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=11)
    s = app.play(m)
    pass_the_table(app)                                   # "I am Ana"
    place_somewhere(app)                                  # Ana confirms with Enter...
    until(app, lambda: s.overlay == "handoff")
    messenger.send("enter")                               # ... and presses it twice more
    frames(app, 3)
    messenger.send("enter")
    frames(app, 3)
    assert s.overlay == "handoff" and s.table.root.isHidden() and m.board(1).tiles == []
    assert "Pass to Ben" in texts(app) and "I am Ben: show my table" not in buttons(app)   # greyed
    until(app, lambda: "I am Ben: show my table" in buttons(app), 5)
    messenger.send("enter")                               # Ben, a moment later
    frames(app, 3)
    assert s.overlay is None and not s.table.root.isHidden() and s.ps.seat == 1 and m.board(1).tiles == []


@pytest.mark.parametrize("way", ["continue", "hand-off", "rematch"])
def test_a_second_enter_after_a_continue_lays_no_tile_the_player_never_moved(app, way, monkeypatch):
    """Enter on Continue (the menu's, the hand-off's, the results' Rematch) pressed twice laid the tile at the
    spot it is dealt at: the table takes no Enter for a tile still as dealt a moment after it shows."""
    from nmbr9.scene import play
    seats = [Seat("Ana"), Seat("Ben")] if way == "hand-off" else [Seat("Ana")]
    m = app.store.new_match(seats, seed=11)
    if way == "continue":
        app.menu()
        messenger.send("enter")                                  # Continue (highlighted)
    elif way == "hand-off":
        app.play(m)
        pass_the_table(app)                                      # "I am Ana"
    else:
        app.play(m)
        play_to_results(app)
        r = app.screen
        until(app, lambda: r.shown_step >= len(r.levels))      # the scores counted: Enter is taken
        messenger.send("enter")                                  # Rematch
    s = until(app, lambda: app.screen if app.screen.name == "play" and app.screen.ps is not None
              and app.screen.ps.ghost is not None else None)
    m, ps = s.match, s.ps
    monkeypatch.setattr(play, "HANDOFF_PAUSE", 60.0, raising=False)   # the moment, long for a busy machine
    frames(app, 2)
    messenger.send("enter")                                      # the stray second press
    frames(app, 3)
    assert not ps.settling and m.board(ps.seat).tiles == [] and ps.ghost is not None, way
    if way == "continue":
        monkeypatch.setattr(play, "HANDOFF_PAUSE", 0.0, raising=False)   # a moment later Enter lays it where it is
    else:
        ps.move_on_screen(1, 0)                                  # moved (and back): Enter lays it at once
        ps.move_on_screen(-1, 0)
    messenger.send("enter")
    until(app, lambda: len(m.board(ps.seat).tiles) == 1)


def test_screens_left_and_tables_drawn_again_leave_no_widgets_behind(app):
    """DirectGui keeps every widget until it is destroyed: each visit to the menu, each round's scores, each
    game left its widgets behind, kept as long as the game ran (in a tournament evening, thousands)."""
    def a_game_and_back() -> int:
        app.menu()
        frames(app, 2)
        app.play(app.store.new_match([Seat("Ana")], seed=5))
        play_to_results(app)
        app.menu()
        frames(app, 2)
        return len(DirectGuiWidget.guiDict)

    first = a_game_and_back()
    assert a_game_and_back() == first
    for _visit in range(3):
        app.menu()
        frames(app, 2)
    assert len(DirectGuiWidget.guiDict) == first


def test_two_humans_and_a_bot_play_a_whole_game_passing_the_table(app):
    m = app.store.new_match([Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")], seed=11)
    s = app.play(m)
    handoffs = 0
    while app.screen is s and not m.over:
        frames(app)
        if s.overlay == "handoff":
            handoffs += 1
            assert s.table.root.isHidden()        # the next player can't see the previous table
            who = m.seats[m.current_human].name
            assert f"Pass to {who}" in texts(app)
            pass_the_table(app)                   # "I am Ben"
            assert not s.table.root.isHidden()
        elif s.ps is not None and s.ps.ghost is not None:
            place_somewhere(app)
    assert handoffs >= 39                         # two humans, 20 rounds: every turn is a hand-off
    until(app, lambda: app.screen.name == "results")
    results = app.screen
    until(app, lambda: results.shown_step >= len(results.levels))
    scores = m.game.scores()
    for r, _detail, total, verdict in results.lines:
        assert int(total["text"]) == scores[r.seat]
        assert ("Wins" in verdict["text"]) == r.winner
    assert not app.store.continue_game().can_continue   # a finished game is not offered


def test_a_flat_table_is_scored_in_words_not_left_counting(app):
    m = app.store.new_match([Seat("Ana")], seed=12)
    s = app.play(m)
    while app.screen is s:
        place_somewhere(app, highest=False)   # every tile beside the others, on the table
        frames(app, 2)
    until(app, lambda: app.screen.name == "results")
    results = app.screen
    assert m.game.scores() == [0] and results.levels == []
    frames(app, 3)
    ((_r, detail, total, verdict),) = results.lines
    assert detail["text"] == "no tile above level 0" and total["text"] == "0"
    assert verdict["text"] == "your first game under these rules"   # alone: against the record, no "Wins"


def test_a_bot_never_freezes_the_window(app):
    """While the hard bot thinks on its thread the frames keep coming."""
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:hard")], seed=2)
    app.play(m)
    place_somewhere(app)
    times = []
    while m.bots_thinking:
        t = time.perf_counter()
        frames(app, 1)
        times.append(time.perf_counter() - t)
    assert len(times) >= 5 and max(times) < 0.5   # the bot thinks for about a second


def waiting_bots(gates: list):
    """A bot factory whose bots choose only once their gate opens: one gate each, in `gates` in the
    order the bots are made (a round's bots in seat order)."""
    def factory(strength, seed):
        bot, gate = make_bot(strength, seed), threading.Event()
        gates.append(gate)

        class Waiting:
            def choose(self, view):
                gate.wait(30)
                return bot.choose(view)
        return Waiting()
    return factory


def test_while_the_bots_place_the_tile_laid_has_no_verdict_nor_confirm(app):
    """With one's tile laid and the bots still thinking (five experts late in a game: 15 s), the laid
    tile's "Fits on level 0" and a green Confirm (Enter) stayed on the screen, as if still to confirm."""
    gates = []
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=2, bot_factory=waiting_bots(gates))
    s = app.play(m)
    place_somewhere(app)
    frames(app, 3)
    assert m.phase == BOTS and "The bots are placing their tiles" in texts(app)
    assert "Fits on level" not in texts(app) and s.hud.confirm["state"] == DGG.DISABLED
    gates[0].set()
    until(app, lambda: m.round == 2 and s.ps is not None and s.ps.ghost is not None)
    frames(app, 3)
    assert "Fits on level 0" in texts(app) and s.hud.confirm["state"] == DGG.NORMAL   # the next tile's


def test_a_game_continued_in_the_bots_turn_shows_the_round_card_and_score(app):
    """Continue while the bots thought (Menu or Quit after one's tile): until they were done the table
    showed an empty grey card, no round, no cards to come, an empty score box and a green Confirm button
    without a word."""
    gates = []
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=2, bot_factory=waiting_bots(gates))
    m.confirm(m.legal_placements()[0])   # the tile laid, then Menu: the game comes back in the bots' turn
    s = app.play(m)
    frames(app, 3)
    assert m.phase == BOTS and s.ps is None
    shown = texts(app)
    assert "Round 1 of 20" in shown and "This round's card" in shown and "Still to come:" in shown
    assert s.hud.card["text"] == str(m.game.card)
    assert f"Score {m.board(0).score()}" in shown
    assert s.hud.confirm["text"] == "Confirm (Enter)" and s.hud.confirm["state"] == DGG.DISABLED
    assert s.hud.verdict.isHidden()
    gates[0].set()
    until(app, lambda: m.round == 2 and s.ps is not None and s.ps.ghost is not None)


def test_the_bots_turn_says_how_many_bots_have_chosen(app):
    """Five expert bots late in a game think for 15 s after one's tile: "The bots are placing their
    tiles..." said nothing more all that time, as if the game had stalled."""
    gates = []
    seats = [Seat("Ana"), *(Seat(f"Bot {n}", "bot:easy") for n in (1, 2, 3))]
    m = app.store.new_match(seats, seed=2, bot_factory=waiting_bots(gates))
    app.play(m)
    place_somewhere(app)
    assert "The bots are placing their tiles\u2026 0 of 3 done" in until(app, lambda: texts(app))
    gates[0].set()
    until(app, lambda: "The bots are placing their tiles\u2026 1 of 3 done" in texts(app))
    gates[1].set()
    gates[2].set()
    until(app, lambda: m.round == 2)


def test_looking_at_another_board_shows_it_at_this_round_and_back(app):
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=4)
    s = app.play(m)
    for _ in range(3):
        place_somewhere(app)
        until(app, lambda: m.current_human == 0 and s.ps is not None and s.ps.ghost is not None)
    assert m.round == 4
    panel = {b["text"]: b for b in buttons(app).values() if b.getParent() == s.panel}
    assert any(t.startswith("Bot:") for t in panel)
    messenger.send(DGG.B1CLICK + next(b for t, b in panel.items() if t.startswith("Bot:")).guiId, [None])
    frames(app)
    assert s.looking == 1 and s.ps.ghost is None
    assert s.table.board is not None and len(s.table.board.tiles) == 3     # as it stood at round 4
    assert "Bot's board as it stood at the start of round 4" in texts(app)
    assert "Confirm (Enter)" not in buttons(app)
    assert "(click to confirm)" not in texts(app)    # the score box offers nothing to confirm meanwhile
    assert "Hint (I)" not in buttons(app) and "I: hint" not in texts(app)   # nor a hint for another board
    assert "H: show the controls" not in texts(app)  # nor the controls of one's tile (H does nothing here)
    assert "Tab or a name on the right: look at another board" in texts(app)
    heading, zoom, folded = s.camera.heading, s.camera.zoom, s.hud.folded
    for key in ("d", "+", "h", "e", "arrow_left"):   # the board looked at turns and zooms; no tile moves
        messenger.send(key)
    frames(app)
    assert s.camera.heading != heading and s.camera.zoom < zoom and s.hud.folded == folded and s.ps.ghost is None
    messenger.send("f1")                             # and after the rules, still only the view's keys
    frames(app)
    s.close_rules()
    frames(app)
    heading = s.camera.heading
    messenger.send("a")
    messenger.send("h")
    frames(app)
    assert s.looking == 1 and s.camera.heading != heading and s.hud.folded == folded and s.ps.ghost is None
    set_language("de")                               # built again while looking: still nothing to hint
    frames(app)
    assert "I: " not in s.keys["text"] and len(buttons(app)) == len(panel) + 1   # the names and Menu
    set_language("en")
    frames(app)
    messenger.send("escape")
    frames(app)
    assert s.looking is None and s.ps.ghost is not None and s.table.board is m.board(0)
    assert "(click to confirm)" in texts(app)
    assert "Hint (I)" in buttons(app) and "I: hint" in texts(app) and "H: show the controls" in texts(app)


def test_the_score_box_keeps_its_size_while_looking_after_the_rules(app):
    """Looking at another board, F1 and back shrank the score box to "Score 0" and the names under it jumped up
    (a name about to be clicked moved from under the pointer); the box keeps its size, as it does while looking."""
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=4)
    s = app.play(m)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    s.look(1)
    frames(app)
    size = s.hud.score.guiItem.getFrame()
    names = sorted(round(b.getZ(app.base.render2d), 3) for b in buttons(app).values() if b.getParent() == s.panel)
    messenger.send("f1")
    frames(app)
    s.close_rules()
    frames(app)
    assert s.looking == 1 and "Bot's board as it stood" in s.status["text"]
    assert s.hud.score.guiItem.getFrame() == size
    assert sorted(round(b.getZ(app.base.render2d), 3) for b in buttons(app).values()
                  if b.getParent() == s.panel) == names


def test_looking_at_boards_with_three_seats_says_tab_shows_the_next_one(app):
    """With three seats or more, Tab from another's board showed the next board, but the status said Tab went
    back to one's table: only from the last board does it."""
    m = app.store.new_match([Seat("Ana"), Seat("Bo", "bot:easy"), Seat("Cy", "bot:easy")], seed=4)
    s = app.play(m)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)

    def status():
        return " ".join(s.status["text"].replace("\u00a0", " ").split())
    messenger.send("tab")
    frames(app)
    assert s.looking == 1
    assert status().endswith("Tab: the next board; Esc or your own name: back to your table")
    messenger.send("tab")
    frames(app)
    assert s.looking == 2 and status().endswith("Esc, Tab or your own name: back to your table")
    messenger.send("tab")
    frames(app)
    assert s.looking is None and s.ps.ghost is not None


def ana_and_ben_three_tiles_each(app):
    """A pass-and-play game of Ana and Ben, three tiles laid each: the match, the screen, Ana's tile in hand."""
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=7)
    s = app.play(m)
    for _ in range(6):                               # pass and play: three tiles each
        until(app, lambda: s.overlay == "handoff" or (s.ps is not None and s.ps.ghost is not None))
        if s.overlay == "handoff":
            s.hand_over()
        place_somewhere(app)
    until(app, lambda: s.overlay == "handoff")
    s.hand_over()
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)
    return m, s, ps


def test_the_names_under_the_score_box_stay_put_while_looking_at_another_board(app):
    """Looking at a board took "(click to confirm)" (and "+N here") off the score box: the names under it
    moved up a line, and down again on coming back."""
    m, s, ps = ana_and_ben_three_tiles_each(app)
    up = max(m.legal_placements(ps.seat), key=lambda q: q.level)   # on level 1: "+N here" too
    ps.rotation, ps.x, ps.y, ps.held = up.rotation, up.x, up.y, False
    ps.update()
    frames(app)
    assert "(click to confirm)" in texts(app) and "here" in s.hud.score["text"]

    def names():   # where each name stands in the window
        frames(app)
        return {b["text"]: tuple(round(v, 4) for v in b.getPos(app.base.render2d))
                for b in buttons(app).values() if b.getParent() == s.panel}
    before = names()
    assert len(before) == 2
    messenger.send("tab")                            # Ben's board
    assert s.looking is not None and "(click to confirm)" not in texts(app) and names() == before
    messenger.send("escape")
    assert s.looking is None and "(click to confirm)" in texts(app) and names() == before
    ben = next(b for t, b in buttons(app).items() if b.getParent() == s.panel and t.startswith("Ben"))
    messenger.send(DGG.B1CLICK + ben.guiId, [None])  # a click on a name
    assert s.looking is not None and names() == before
    mine = next(b for t, b in buttons(app).items() if b.getParent() == s.panel and "Ana" in t)
    messenger.send(DGG.B1CLICK + mine.guiId, [None])
    assert s.looking is None and names() == before


def test_the_names_under_the_score_box_stay_put_wherever_the_tile_in_hand_goes(app):
    """A spot the tile can't go took "(click to confirm)" off the score box, one on level 1 added "+N here":
    the names under it jumped up and down while the tile was moved about."""
    m, s, ps = ana_and_ben_three_tiles_each(app)

    def names_with_the_tile_at(rotation, x, y):   # where each name stands in the window
        ps.rotation, ps.x, ps.y, ps.held = rotation, x, y, False
        ps.update()
        frames(app)
        return {b["text"]: tuple(round(v, 4) for v in b.getPos(app.base.render2d))
                for b in buttons(app).values() if b.getParent() == s.panel}
    legal = m.legal_placements(ps.seat)
    flat, up = min(legal, key=lambda q: q.level), max(legal, key=lambda q: q.level)
    before = names_with_the_tile_at(flat.rotation, flat.x, flat.y)
    assert len(before) == 2 and "(click to confirm)" in texts(app) and "here" not in s.hud.score["text"]
    assert names_with_the_tile_at(up.rotation, up.x, up.y) == before
    assert "here" in s.hud.score["text"]             # on level 1: "+N here"
    assert names_with_the_tile_at(up.rotation, up.x + 40, up.y) == before
    assert not ps.verdict.ok and "(click to confirm)" not in texts(app)   # touching nothing: refused


def test_the_key_help_offers_tab_only_when_there_is_another_board(app):
    s = app.play(app.store.new_match([Seat("Ana")], seed=4))
    frames(app)
    assert "F1: rules" in s.keys["text"] and "Tab" not in s.keys["text"]      # solo: nothing to look at
    assert "T: take back" not in s.keys["text"]                              # not a practice game
    assert "click to look" not in texts(app)                                   # nor a name to click
    messenger.send("h")
    frames(app)
    assert "F12: screenshot" in s.hud.legend["text"]
    s = app.play(app.store.new_match([Seat("Ana")], seed=4, practice=True))
    frames(app)
    assert "T: take back the last tile" in s.keys["text"]
    s = app.play(app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=4))
    frames(app)
    assert "Tab or a name on the right: look at another board" in s.keys["text"]
    assert "Scores (click to look)" in texts(app)


def test_the_controls_help_names_every_key_that_zooms(app):
    """README lists Page Up / Page Down for zoom, and they zoom, but the controls' help said only "+ / -"."""
    s = app.play(app.store.new_match([Seat("Ana")], seed=4))
    messenger.send("h")
    frames(app)
    camera = s.ps.camera
    for key, closer in (("page_up", True), ("page_down", False)):
        before = camera.zoom
        messenger.send(key)
        assert (camera.zoom < before) == closer, key
    zoom = next(line for line in s.hud.legend["text"].splitlines() if ": zoom" in line)   # (the wheel: "else zooms")
    assert "+ / -" in zoom and "Page Up / Down" in zoom


def test_backspace_puts_the_unconfirmed_tile_back_in_hand(app):
    m = app.store.new_match([Seat("Ana")], seed=6)
    s = app.play(m)
    ps = until(app, lambda: s.ps)
    start = (ps.x, ps.y, ps.rotation)
    ps.press("mouse1", 0.0, 0.0)           # put it down where it is
    ps.move(2, 1)
    frames(app)
    assert not ps.held and (ps.x, ps.y) != start[:2]
    messenger.send("backspace")
    frames(app)
    assert ps.held and (ps.x, ps.y, ps.rotation) == start
    assert app.sounds.played == ["drop", "pickup"]
    assert len(m.game.moves) == 0


def test_take_back_in_solo_practice(app):
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=8, practice=True)
    s = app.play(m)
    place_somewhere(app)
    until(app, lambda: m.round == 2 and s.ps is not None and s.ps.ghost is not None)
    assert "Take back (T)" in buttons(app)
    messenger.send("t")
    frames(app)
    assert m.round == 1 and len(m.game.moves) == 0
    assert s.ps is not None and s.ps.ghost is not None and len(s.ps.board.tiles) == 0
    assert "confirm" in app.sounds.played
    messenger.send("t")                              # nothing left to take back: said, not ignored
    frames(app)
    assert "No tile of yours to take back yet." in texts(app) and len(m.game.moves) == 0



def test_take_back_is_gone_while_another_board_is_shown(app):
    """Looking at the bot's board in practice, Hint and Confirm went away but Take back stayed (a gap where Hint
    had stood) and T took a tile back, though the key help there offers only Tab and F1."""
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=8, practice=True)
    s = app.play(m)
    place_somewhere(app)
    until(app, lambda: m.round == 2 and s.ps is not None and s.ps.ghost is not None)
    messenger.send("tab")
    frames(app)
    assert s.looking == 1 and "Take back (T)" not in buttons(app) and "Hint (I)" not in buttons(app)
    messenger.send("t")
    frames(app)
    assert s.looking == 1 and len(m.game.moves) == 2   # nothing taken back (Ana's tile and the bot's)
    messenger.send("escape")
    frames(app)
    assert s.looking is None and "Take back (T)" in buttons(app)


def test_a_status_too_long_for_one_line_wraps_evenly(app):
    """Solo practice at 640x480: "No tile of yours to take back yet." wrapped with "yet." alone on its second
    line. A status wider than its room takes as few lines, as even as they come; where it fits, one line."""
    s = app.play(app.store.new_match([Seat("Ana")], seed=4, practice=True))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    messenger.send("t")                              # nothing to take back yet
    frames(app)
    node = s.status.component("text0").textNode
    assert node.getText() == "No tile of yours to take back yet."
    lines = node.getWordwrappedText().split("\n")
    widths = [node.calcWidth(line) for line in lines]
    assert len(lines) == 2, lines                    # (this window is too narrow for one)
    assert min(widths) > 0.7 * max(widths), lines    # no word alone on a line


def test_a_verdict_too_long_for_one_line_wraps_evenly_in_every_language():
    """At 640x480 the verdict over the table wrapped as far as each line would go: in German "angrenzen." stood
    alone under "Das Plättchen muss mit der Seite eines / Feldes an ein Plättchen der Ebene 0", in Spanish
    "cuadrado." and "dos.", in Polish "dwóch.". Each refusal (and "fits") now takes as few lines as its room
    allows, as even as they come: no line of a single word, none much shorter than the widest, and no level's
    number torn from its word (evened, Spanish had "del nivel / 0 por el lado"). In a process of its own (a
    window of that size)."""
    from pathlib import Path
    found = script_output([Path(__file__).resolve().parent / "verdict_wrap_driver.py", "640x480"])
    wrapped = 0
    for language, verdicts in found.items():
        assert {v["code"] for v in verdicts} >= {None, "not_adjacent", "not_supported", "single_support"}, language
        for v in verdicts:
            lines, widths = v["lines"], v["widths"]
            assert len(lines) == v["fewest"], (language, lines)   # no more lines than its room needs
            if len(lines) > 1:
                wrapped += 1
                assert all(len(line.split()) > 1 for line in lines), (language, lines)   # no word alone
                assert not any(line[:1].isdigit() for line in lines), (language, lines)   # nor "nivel / 0 por"
                assert min(widths) > 0.6 * max(widths), (language, lines)
    assert wrapped >= 8   # (the refusals of all three languages: they do wrap in this window)


def test_no_take_back_in_a_real_game(app):
    m = app.store.new_match([Seat("Ana")], seed=8)
    s = app.play(m)
    place_somewhere(app)
    messenger.send("t")
    frames(app)
    assert len(m.game.moves) == 1 and "Take back (T)" not in buttons(app)
    assert s.ps is not None
    assert "Tiles can be taken back only in practice games with one human player" in texts(app)   # T said why it did nothing


def test_illegal_confirm_sounds_and_commits_nothing(app):
    m = app.store.new_match([Seat("Ana")], seed=9)
    s = app.play(m)
    place_somewhere(app)
    ps = until(app, lambda: s.ps if s.ps.ghost is not None and m.round == 2 else None)
    ps.x, ps.y, ps.held = 40, 40, False      # far from the first tile: must touch it
    ps.update()
    assert not ps.verdict.ok
    before = len(app.sounds.played)
    messenger.send("enter")
    frames(app)
    assert "illegal" in app.sounds.played[before:] and len(m.game.moves) == 1


def _hint_in_round_4(app, animation_speed: float = 0.0):
    """A solo game at round 4 with the hint asked for and shown: (match, screen, its placement); the tiles laid
    at once, the hint shown at `animation_speed`."""
    m = app.store.new_match([Seat("Ana")], seed=12)
    s = app.play(m)
    for _ in range(3):
        place_somewhere(app)
    until(app, lambda: s.ps.ghost is not None and m.round == 4)
    app.settings = app.settings.changed(animation_speed=animation_speed)
    messenger.send("i")
    h = until(app, lambda: s.hint if s.hint and s.hint["ghost"] is not None else None, 60)
    return m, s, h["result"]["placement"]


def test_hint_shows_the_strongest_bots_legal_choice_without_freezing(app):
    m, s, p = _hint_in_round_4(app)
    assert m.check(0, p).ok
    assert "Hint: the strongest bot would lay it" in texts(app)
    place_somewhere(app)
    assert s.hint is None                     # gone once the tile is confirmed


def test_hint_key_twice_moves_the_tile_onto_the_hint_and_enter_lays_it_there(app):
    m, s, p = _hint_in_round_4(app)
    messenger.send("i")
    frames(app)
    assert "Your tile is on the hint's spot: Enter lays it." in texts(app) and s.ps.verdict.ok
    messenger.send("enter")
    until(app, lambda: m.round == 5 or None)
    laid = m.board(0).tiles[-1]
    assert (laid.piece, laid.rotation, laid.x, laid.y, laid.level) == (p.piece, p.rotation, p.x, p.y, p.level)
    until(app, lambda: s.ps.ghost is not None)
    frames(app, 5)
    assert "Your tile is on the hint's spot: Enter lays it." not in texts(app)   # not about round 5's tile


def test_hint_key_again_while_the_bot_thinks_takes_the_hint_once_found(app, monkeypatch):
    """I, I pressed before the hint showed did nothing: the player had to press I a third time. Then the second
    press changed nothing on the screen ("Looking for a good place..." stayed), and a player who took the tile as
    on its way clicked Confirm and laid it where it was (a newcomer's mouse game on this busy machine): it says the
    tile goes there once found."""
    from nmbr9.scene.screens import session
    found, hints, send = threading.Event(), [], session.worker.start

    def slowly(work, kind):
        answer = send(work, kind)

        def found_by_now():
            found.wait(60)
            hints.append(answer())
            return hints[-1]
        return found_by_now
    monkeypatch.setattr(session.worker, "start", slowly)
    m = app.store.new_match([Seat("Ana")], seed=12)
    s = app.play(m)
    place_somewhere(app)
    until(app, lambda: s.ps.ghost is not None and m.round == 2)
    messenger.send("i")
    frames(app)
    messenger.send("i")                                      # again, the bot still thinking
    frames(app)
    assert "Looking for a good place\u2026 your tile goes there once it is found." in texts(app)
    found.set()
    until(app, lambda: "Your tile is on the hint's spot: Enter lays it." in texts(app), 60)
    messenger.send("enter")
    until(app, lambda: m.round == 3 or None)
    laid, p = m.board(0).tiles[-1], hints[-1]
    assert (laid.piece, laid.rotation, laid.x, laid.y) == (p.piece, p.rotation, p.x, p.y)


def test_hints_given_up_on_do_not_hold_up_the_next_hint(app, monkeypatch):
    """I, then the tile laid before the hint came, twice: both hints went on being worked out in the
    hints' two processes, and the next I said "Looking for a good place..." until they were done (on a
    busy machine, a long wait for nothing)."""
    m = app.store.new_match([Seat("Ana")], seed=12)
    s = app.play(m)
    slow = iter([thinking_for(120, "round2"), thinking_for(120, "round3")])   # the bot on a busy machine
    real = s.hint_work
    monkeypatch.setattr(s, "hint_work", lambda card, seed: next(slow, None) or real(card, seed))
    place_somewhere(app)
    for round_ in (2, 3):
        until(app, lambda: s.ps.ghost is not None and m.round == round_)
        messenger.send("i")
        frames(app, 10)
        assert "Looking for a good place\u2026" in texts(app)
        place_somewhere(app)   # before the hint came
    until(app, lambda: s.ps.ghost is not None and m.round == 4)
    messenger.send("i")
    # (90 s at most on a busy machine: less than the 120 s the hints given up would hold it back)
    until(app, lambda: s.hint is not None and s.hint["ghost"] is not None, 90)
    assert "Hint: the strongest bot would lay it" in texts(app)


def test_a_hint_dropped_at_once_is_not_worked_out(app, monkeypatch, tmp_path):
    """I, then the tile laid at once, before the hint's thread had sent the work to the hints' processes: it was
    not there yet to be given up, and was worked out there to its end all the same (the hint: seconds of
    one of the two cores, the bots' moves and the next hint slower meanwhile)."""
    import functools
    begun = tmp_path / "begun"
    dropped = functools.partial(exec, f"import time\nopen({str(begun)!r}, 'w').close()\n"
                                      "end = time.monotonic() + 60\nwhile time.monotonic() < end: pass")
    m = app.store.new_match([Seat("Ana")], seed=12)
    s = app.play(m)
    place_somewhere(app)
    until(app, lambda: s.ps.ghost is not None and m.round == 2)
    real = s.hint_work
    monkeypatch.setattr(s, "hint_work", lambda card, seed: slow_to_send(0.5, dropped))   # a busy machine
    messenger.send("i")
    place_somewhere(app)   # at once
    monkeypatch.setattr(s, "hint_work", real)
    until(app, lambda: s.ps.ghost is not None and m.round == 3)
    messenger.send("i")   # asked after the dropped one: worked out after it was begun, if it was
    until(app, lambda: s.hint is not None and s.hint["ghost"] is not None, 90)
    assert "Hint: the strongest bot would lay it" in texts(app)
    assert not begun.exists()


def test_moving_the_tile_off_the_hints_spot_takes_back_enter_lays_it(app):
    """After I, I and an arrow key the status still said "Your tile is on the hint's spot: Enter lays
    it." over a red tile elsewhere."""
    m, s, p = _hint_in_round_4(app)
    messenger.send("i")
    frames(app)
    assert "Your tile is on the hint's spot: Enter lays it." in texts(app)
    messenger.send("arrow_down")
    frames(app, 3)
    assert (s.ps.x, s.ps.y) != (p.x, p.y)
    assert "Your tile is on the hint's spot: Enter lays it." not in texts(app)


def _on_screen(app, x: float, y: float, z: float):
    """The pixel (column, row) where the table's point (x right, y down, z up) is drawn."""
    from panda3d.core import Point2, Point3
    out = Point2()
    assert app.base.camLens.project(app.base.cam.getRelativePoint(app.base.render, Point3(x, -y, z)), out)
    w, h = app.base.win.getXSize(), app.base.win.getYSize()
    return min(w - 1, round((out.x + 1) / 2 * w)), min(h - 1, round((1 - out.y) / 2 * h))


def test_the_first_tiles_hint_shows_beside_the_tile_in_hand(app):
    """The first tile and its hint both lay at the table's middle: the blue ghost showed only where the tile in
    hand left it uncovered. The tile is put down a square clear of it (held beside it, floating, it would hide
    the ghost's edge); I again still takes the hint, Enter lays it."""
    m = app.store.new_match([Seat("Ana")], seed=13)   # a 9: the hint lays it turned, at (0, 0)
    s = app.play(m)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    messenger.send("i")
    p = until(app, lambda: s.hint["result"]["placement"] if s.hint and s.hint["ghost"] is not None else None, 60)
    frames(app, 40)   # the tile and the view settle
    app.base.aspect2d.hide()   # the table alone (this small window's status reaches over it)
    shown = picture(app)
    s.hint["ghost"].node.hide()
    bare = picture(app)
    s.hint["ghost"].node.show()
    app.base.aspect2d.show()
    # each square's middle and its edges' middles, just inside, where the ghost's top is drawn
    from nmbr9.scene.camera import level_height
    points = [_on_screen(app, x + 0.5 + dx, y + 0.5 + dy, level_height(1)) for x, y in p.squares()
              for dx, dy in ((0, 0), (-0.4, 0), (0.4, 0), (0, -0.4), (0, 0.4))]
    hidden = [q for q in points if max(abs(a - b) for a, b in zip(shown.getXel(*q), bare.getXel(*q))) < 0.04]
    assert not hidden, f"the ghost is hidden at {len(hidden)} of {len(points)} points"
    ghost = set(p.squares())
    assert all(abs(x - gx) > 1 or abs(y - gy) > 1 for x, y in s.ps.placement().squares() for gx, gy in ghost)
    assert m.round == 1 and not m.board(0).tiles and s.ps.verdict.ok   # still the player's to lay
    messenger.send("i")
    frames(app)
    messenger.send("enter")
    until(app, lambda: m.round == 2 or None)
    laid = m.board(0).tiles[-1]
    assert (laid.rotation, laid.x, laid.y) == (p.rotation, p.x, p.y)


def _light_over_a_breath(app, m, s, p) -> tuple[list[float], list[float]]:
    """How bright the hint's ghost and the laid tiles away from it are, 14 times over more than a breath."""
    from nmbr9.scene.camera import level_height
    board = m.board(0)
    level = p.level if p.level is not None else board.resting_level(p.piece, p.rotation, p.x, p.y)
    ghost = set(p.squares())
    near_hand = {(x + dx, y + dy) for x, y in s.ps.placement().squares() for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    frames(app, 40)   # the tile in hand and the view settle
    app.base.aspect2d.hide()   # the table alone
    at_ghost = [_on_screen(app, x + 0.5, y + 0.5, level_height(level)) for x, y in ghost]
    at_laid = [_on_screen(app, x + 0.5, y + 0.5, level_height(t.level)) for t in board.tiles
               for x, y in t.squares() if (x, y) not in ghost | near_hand]
    assert at_ghost and at_laid
    ghost_light, laid_light = [], []
    for _ in range(14):
        frames(app, 1)
        time.sleep(0.1)
        shot = picture(app)
        ghost_light.append(sum(sum(shot.getXel(*q)) for q in at_ghost) / len(at_ghost))
        laid_light.append(sum(sum(shot.getXel(*q)) for q in at_laid) / len(at_laid))
    app.base.aspect2d.show()
    return ghost_light, laid_light


def test_the_hints_ghost_pulses_so_it_is_not_taken_for_a_laid_tile_of_its_colour(app):
    """The ghost was a still blue tile and the status said "where the blue tile is": with a 6 laid (blue too), which
    one? The ghost now pulses, brighter and fainter, and the status says so; the laid tiles stay as they are."""
    m, s, p = _hint_in_round_4(app, animation_speed=1.0)
    assert "where the pulsing blue tile is" in texts(app)
    ghost_light, laid_light = _light_over_a_breath(app, m, s, p)
    assert max(ghost_light) - min(ghost_light) > 0.15, ghost_light
    assert max(laid_light) - min(laid_light) < 0.02, laid_light


def test_with_animations_off_the_hints_ghost_is_still_and_see_through(app):
    """Animation speed 0 (Settings: no animations) still had the ghost breathing, the one thing on the table that
    moved by itself. It now stays still, see-through, and the status says so."""
    m, s, p = _hint_in_round_4(app, animation_speed=0.0)
    assert "where the see-through blue tile is" in texts(app) and "pulsing" not in texts(app)
    ghost_light, laid_light = _light_over_a_breath(app, m, s, p)
    assert max(ghost_light) - min(ghost_light) < 0.02, ghost_light
    assert max(laid_light) - min(laid_light) < 0.02, laid_light


def test_a_tile_in_hand_already_on_the_hints_spot_is_said_to_be_there(app):
    """Its ghost would lie hidden under the tile: the status says Enter lays it."""
    m, s, p = _hint_in_round_4(app)
    messenger.send("i")                         # on the hint's spot
    frames(app)
    messenger.send("i")                         # asked again there
    until(app, lambda: s.hint is not None and s.hint["ghost"] is not None, 60)
    frames(app)
    assert "Your tile is on the hint's spot: Enter lays it." in texts(app)
    assert (s.ps.rotation, s.ps.x, s.ps.y) == (p.rotation, p.x, p.y)


def test_the_hints_words_are_still_there_after_the_rules(app):
    """F1 and back built the table's widgets anew: the hint's ghost still pulsed, but the sentence saying what
    it is was gone (the status was empty); it is there again."""
    m, s, p = _hint_in_round_4(app)
    said = s.status["text"]
    assert said.startswith("Hint: the strongest bot would lay it")
    messenger.send("f1")
    frames(app)
    s.close_rules()
    frames(app)
    assert s.hint["ghost"] is not None and s.status["text"] == said


def test_a_hint_beside_the_framed_table_is_brought_into_view(app):
    """The camera frames the build; a hint's ghost laid further out was cut off at the window's edge."""
    import threading
    from panda3d.core import Point2, Point3
    from nmbr9.rules import Placement
    m = app.store.new_match([Seat("Ana")], seed=13)
    s = app.play(m)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    done = threading.Thread(target=lambda: None)
    done.start(), done.join()
    far = Placement(m.game.card, 0, 0, 9)                   # nine rows in front of the first tile
    s.hint = {"key": s.hint_key(), "thread": done, "ghost": None, "result": {"placement": far}}
    frames(app, 40)                                         # the camera glides out
    cam, lens = app.base.cam, app.base.camLens
    for x, y in far.squares():
        out = Point2()
        assert lens.project(cam.getRelativePoint(app.base.render, Point3(x + 0.5, -(y + 0.5), 0)), out)
        assert -1 < out.x < 1 and -1 < out.y < 1, (x, y, out)


def test_f1_shows_the_rules_over_the_table_and_comes_back(app):
    m = app.store.new_match([Seat("Ana")], seed=13)
    s = app.play(m)
    until(app, lambda: s.ps is not None)
    messenger.send("f1")
    frames(app)
    assert s.overlay == "rules" and "The aim" in texts(app)
    messenger.send("escape")
    frames(app)
    assert s.overlay is None and s.ps.ghost is not None and "Menu (M)" in buttons(app)


# ----- tournaments and puzzles -----------------------------------------------------------------------
@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_standings_columns_stand_apart_in_every_language_at_640x480(language):
    """The Tournaments page at 640x480: the standings' headers "Miejsce" and "Gracz" almost touched (Polish;
    "Puesto" and "Jugador", "Mejores 12" and "Total" in Spanish): each column starts a clear gap after the last."""
    import os
    found = script_output([os.path.join(os.path.dirname(__file__), "tournament_columns_driver.py"), "640x480"],
                          language)
    heads = found["heads"]
    for (left, *a), (right, *b) in zip(heads, heads[1:]):
        assert b[0] - a[1] >= 0.03, (left, right, heads)   # aspect2d units: 7 px at 640x480
    assert heads[-1][2] <= 4 / 3, heads


def test_a_tournaments_default_name_is_written_in_the_language_of_the_moment(app):
    """"Tournament 1" was stored in the language of the moment ("Turnier 1" for good). A name given it is
    kept as given; a default stored so by an older game (here Spanish) follows the language too."""
    from nmbr9.i18n import _
    from nmbr9.scene.screens.tournament import TournamentScreen
    set_language("de")
    default = _("Tournament {id}")
    assert default != "Tournament {id}"
    first = app.store.new_tournament([Seat("Ana")], games=1, seed=1)
    named = app.store.new_tournament([Seat("Ana")], games=1, seed=2, name="Freitag")
    older = app.store.new_tournament([Seat("Ana")], games=1, seed=3)
    set_language("es")
    app.store.db.execute("UPDATE tournaments SET name = ? WHERE id = ?",
                         (_("Tournament {id}").format(id=older.id), older.id))
    set_language("en")
    app.goto(TournamentScreen, chosen=first.id)
    shown = texts(app)
    assert f"Tournament {first.id}" in shown and f"Tournament {older.id}" in shown and "Freitag" in shown
    assert default.format(id=first.id) not in shown
    set_language("pl")
    frames(app)
    shown = texts(app)
    assert _("Tournament {id}").format(id=first.id) in shown and _("Tournament {id}").format(id=older.id) in shown
    assert "Freitag" in shown and app.store.tournament(named.id).name == "Freitag"


def test_the_names_new_game_gives_follow_the_language_of_the_moment(app):
    """Seats nobody named were stored as "Spieler 1" and "Bot 2" in the game, its save and its tournament:
    switched to English, the score box, Continue and the tournament's table still said them in German.
    A name typed is kept as typed ("Ana")."""
    from nmbr9.i18n import _
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    app.save_settings(app.settings.changed(language="de"))
    player, bot = _("Player {number}").format(number=1), _("Bot {number}").format(number=2)
    assert player != "Player 1"
    s = app.goto(SetupScreen)
    click(app, _("Add a player"))
    click(app, _("Add a player"))
    s.entries[2].set("Ana")
    for _n in range(4):                      # the third seat back round to a human
        s.cycle_kind(2)
    click(app, _("Start (Enter)"))
    # kept in English: one player in every language (personal bests); shown in the language of the moment
    assert [x.name for x in app.screen.match.seats] == ["Player 1", "Bot 2", "Ana"]
    app.save_settings(app.settings.changed(language="en"))
    frames(app, 3)
    shown = texts(app)
    assert "Round 1 of 20" in shown and "Player 1" in shown and "Bot 2" in shown and player not in shown
    app.menu()
    assert "Player 1, Bot 2, Ana" in texts(app)                                # Continue
    t = app.store.new_tournament([Seat(player), Seat(bot, "bot:easy"), Seat("Spieler 7")], games=1, seed=4)
    app.save_settings(app.settings.changed(language="es"))
    app.goto(TournamentScreen, chosen=t.id)
    shown = texts(app)
    assert _("Player {number}").format(number=1) in shown and player not in shown
    assert "Spieler 7" not in shown and _("Player {number}").format(number=7) in shown   # read as a default


def test_a_two_game_tournament_from_the_tournament_screen(app):
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=5)
    app.goto(TournamentScreen)
    click(app, "Play the first game")
    for game in (1, 2):
        s = app.screen
        assert s.name == "play" and s.match.tournament == {"id": t.id, "game": game}
        until(app, lambda: s.ps is not None and s.ps.ghost is not None)
        assert s.hud.round["text"] == f"Game {game} of 2 \u00b7 Round 1 of 20"   # at the table too, not only the menu
        play_to_results(app)
        if game == 1:
            assert "Next game (Enter)" in buttons(app)
            assert "This tournament is over" not in texts(app)
            click(app, "Next game (Enter)")
    assert "Next game (Enter)" not in buttons(app)
    assert t.over and [st.played for st in t.standings()] == [2, 2]
    assert "Tournament 1: game 2 of 2 played" in texts(app)
    first = t.standings()[0]
    assert first.place == 1 and t.standings()[1].place == 2, "this deck has no tie"
    assert f"This tournament is over: {first.name} wins it." in texts(app)


def test_after_a_tournament_games_results_the_menus_continue_plays_its_next_game(app):
    """The menu offered no Continue after a tournament game's results: the way on was Tournament, then
    Continue the tournament."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from test_match import play
    t = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=5)
    app.goto(TournamentScreen, chosen=t.id)
    click(app, "Play the first game")
    play(app.screen.match)                               # (the tiles laid by hand are another test's)
    until(app, lambda: app.screen.name == "results")
    click(app, "Menu (Esc)")
    assert "Tournament game 2 of 2 \u00b7 Round 1 of 20: Ana, Bot" in texts(app)   # what Continue plays
    assert [e.number for e in t.entries()] == [1], "only named: the next game starts when Continue is pressed"
    click(app, "Continue")
    s = app.screen
    assert s.name == "play" and s.context == {"tournament": t.id} and s.match.tournament == {"id": t.id, "game": 2}
    assert s.match.round == 1 and [e.number for e in t.entries()] == [1, 2]
    click(app, "Menu (M)")                               # in the middle of the game, Continue comes back to it
    click(app, "Continue")
    assert app.screen.match.tournament == {"id": t.id, "game": 2}
    play(app.screen.match)
    until(app, lambda: app.screen.name == "results")
    click(app, "Menu (Esc)")                             # the tournament is over: nothing to continue
    assert t.over and "Continue" not in buttons(app)


def test_a_tournament_the_window_plays_is_not_played_by_the_command_meanwhile(app):
    """`nmbr9 tournament --resume ID` played a tournament while the window played it too: both wrote its games."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from test_tournament import run_cli
    t = app.store.new_tournament([Seat("Easy", "bot:easy"), Seat("Medium", "bot:medium")], games=2, seed=5)
    app.goto(TournamentScreen, chosen=t.id)
    click(app, "Play the first game")
    until(app, lambda: app.screen.match.round > 2)
    refused = run_cli(app.store.folder, "--resume", str(t.id))
    assert refused.returncode == 1 and refused.stdout.strip() == (
        f"Tournament {t.id} is being played in the NMBR 9 3D window: go back to its menu there (the game is saved), "
        "or quit it, then try again.")
    window = app.screen.match
    click(app, "Menu (M)" if app.screen.name == "play" else "Menu (Esc)")   # the window no longer plays it
    laid = window.record()["moves"]
    played = run_cli(app.store.folder, "--resume", str(t.id))
    assert played.returncode == 0, played.stdout + played.stderr
    first = t.entries()[0].record
    assert t.over and len(first["moves"]) == 40 and first["moves"][:len(laid)] == laid   # on from the window's tiles
    app.menu()
    assert "Continue" not in buttons(app)                 # the command played it to the end: nothing to continue


def command_plays(app, tid: int):
    """`nmbr9 tournament --resume ID` in a terminal beside the window, on the window's data folder."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    return subprocess.Popen([sys.executable, "-m", "nmbr9", "tournament", "--resume", str(tid)], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "NMBR9_DATA": str(app.store.folder), "PYTHONPATH": str(root)})


def test_a_tournament_a_command_plays_moves_on_in_the_window_and_is_continued_once_it_stops(app):
    """The Tournament screen showed a tournament `nmbr9 tournament --resume ID` was playing as it stood when the
    page opened, and offered Continue, which only said the command had it, until the page was left and opened
    again after the command stopped. Its game in progress then said which round it was at."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Hard", "bot:hard"), Seat("Bob", "bot:hard")], games=5, seed=3)
    command = command_plays(app, t.id)
    said = (f"Tournament {t.id} is being played by the command nmbr9 tournament: let it finish, or stop it, "
            "then continue here. No game is lost.")
    try:
        deadline = time.monotonic() + 60
        while not t.entries() or not t.entries()[0].record["moves"]:   # its first game is under way
            assert command.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        app.goto(TournamentScreen, chosen=t.id)
        assert said in texts(app) and "Continue the tournament" not in buttons(app)
        # between finished games the page follows the round the command saved: it moves on, game 1 still going
        playing = re.compile(r"Game 1 \u00b7 Round (\d+) of 20")
        rounds = [int(m[1]) for m in map(playing.fullmatch, texts(app).splitlines()) if m]
        assert len(rounds) == 1, texts(app)
        first = rounds[0]
        until(app, lambda: any(m and int(m[1]) > first for m in map(playing.fullmatch, texts(app).splitlines())), 60)
        # the page moves on with the command: the first game's scores, its standings, the history's count
        game = until(app, lambda: next((b for b in buttons(app) if b.startswith("Game 1: Hard ")), None), 120)
        scores = t.entries()[0].scores
        assert game == f"Game 1: Hard {scores[0]}, Bob {scores[1]}" and command.poll() is None
        shown = texts(app).splitlines()
        assert str(max(scores)) in shown and f"Tournament {t.id}  (0 of 5 played)" not in buttons(app)
        assert said in texts(app) and "Continue the tournament" not in buttons(app)   # still the command's
    finally:
        command.kill()
        command.wait(10)
    until(app, lambda: "Continue the tournament" in buttons(app), 10)   # let go: offered on this very page
    assert said not in texts(app)
    under_way = [e.record["moves"] for e in t.entries() if not e.finished]   # (none: killed between two games)
    number = t.played + 1
    click(app, "Continue the tournament")               # the window plays on from the command's last tile
    s = app.screen
    assert s.name == "play" and s.match.tournament == {"id": t.id, "game": number}
    stored = under_way[0] if under_way else []
    assert s.match.record()["moves"][:len(stored)] == stored   # (its bots play on at once)


def test_the_tournament_page_gives_nobody_a_place_before_a_game_is_finished(app):
    """A tournament nobody had played yet listed every player in place 1 with 0 points."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from test_match import play
    t = app.store.new_tournament([Seat("Ana"), Seat("Ben")], games=2, seed=4)
    app.goto(TournamentScreen, chosen=t.id)
    shown = texts(app).splitlines()
    assert shown.count("\u2013") == 2 and "1" not in shown    # a dash for each place
    play(app.store.tournament_match(t, threaded=False))         # Ana and Ben lay the same tiles: a tie
    app.goto(TournamentScreen, chosen=t.id)
    shown = texts(app).splitlines()
    assert "\u2013" not in shown and shown.count("1") == 6      # each: place 1 (shared), 1 win, 1 game


def test_the_tournament_page_shows_its_history_standings_and_games_as_they_stood_at_one_moment(app, monkeypatch):
    """`nmbr9 tournament --resume ID` finished a game while the Tournament page was being read: the page listed
    the game's scores among its games, while the history beside it still said "0 of 5 played" and the standings
    had no points (seen once in CI). It now reads them together; the next look shows the finished game."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ann", "bot:easy"), Seat("Bob", "bot:easy")], games=5, seed=3)
    read = app.store.tournaments
    command = Store(app.store.folder)   # another process's connection, as the command's

    def history_then_the_command_finishes_a_game():
        history = read()
        if not t.entries():
            command.tournament_match(command.tournament(t.id), threaded=False).play_out()
        return history

    monkeypatch.setattr(app.store, "tournaments", history_then_the_command_finishes_a_game)
    app.goto(TournamentScreen, chosen=t.id)
    assert f"Tournament {t.id}  (0 of 5 played)" in buttons(app)
    assert not [b for b in buttons(app) if b.startswith("Game 1: ")], list(buttons(app))   # as the history
    assert "Play the first game" in buttons(app)
    scores = t.entries()[0].scores
    game = until(app, lambda: next((b for b in buttons(app) if b.startswith("Game 1: Ann ")), None), 10)
    assert game == f"Game 1: Ann {scores[0]}, Bob {scores[1]}"
    assert f"Tournament {t.id}  (1 of 5 played)" in buttons(app) and str(max(scores)) in texts(app).splitlines()
    command.close()


def test_the_menus_continue_line_follows_a_tournament_the_command_plays_on(app):
    """Back at the menu from a tournament game, `nmbr9 tournament --resume ID` played it on in a terminal: the
    Continue line kept the round the window had left it at until the menu was opened again."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Hard", "bot:hard"), Seat("Bob", "bot:hard")], games=3, seed=3)
    app.goto(TournamentScreen, chosen=t.id)
    click(app, "Play the first game")
    s = app.screen
    until(app, lambda: s.match.round >= 3)
    app.menu()
    line = re.compile(r"Tournament game (\d+) of 3 \u00b7 Round (\d+) of 20: Hard, Bob")

    def continues():   # (game, round) as the line above Continue says them
        return next(((int(m[1]), int(m[2])) for m in map(line.fullmatch, texts(app).splitlines()) if m), None)

    left = continues()
    assert left is not None and left[0] == 1 and "Continue" in buttons(app)
    command = command_plays(app, t.id)
    try:
        # on by a round, within the same game, with the menu left open
        until(app, lambda: (now := continues()) is not None and now[0] == 1 and now[1] > left[1], 60)
        assert "Continue" in buttons(app) and command.poll() is None
    finally:
        command.kill()
        command.wait(10)


def test_a_click_begun_in_the_menu_as_the_command_plays_a_round_on_is_not_lost(app, monkeypatch):
    """The menu was built again for every round `nmbr9 tournament` played on, only to change the Continue line:
    a button pressed as it happened was gone when the mouse came up (the click did nothing)."""
    t = app.store.new_tournament([Seat("Easy", "bot:easy"), Seat("Medium", "bot:medium")], games=2, seed=5)
    game = app.store.tournament_match(t, threaded=False)
    while game.round < 3:
        game.update()
    monkeypatch.setattr(app.store, "held_elsewhere", lambda tid: tid == t.id)   # the command has it
    app.menu()
    for _ in range(2):
        messenger.send("arrow_down")   # the keyboard on Puzzles too
    frames(app)
    line = re.compile(r"Tournament game 1 of 2 \u00b7 Round (\d+) of 20: Easy, Medium")

    def round_said():
        return next((int(m[1]) for m in map(line.fullmatch, texts(app).splitlines()) if m), None)
    assert round_said() == 3 and app.screen.keys.current()[1] == (app.screen.puzzles,)
    until(app, lambda: app.screen.seen is not None, 5)   # the menu has looked once
    pressed = buttons(app)["Tournament"]                 # the mouse goes down on Tournament ...
    command = t.next_match(threaded=False)               # ... as the command plays a round on
    while command.round < 4:
        command.update()
    until(app, lambda: round_said() == 4, 5)
    assert app.screen.keys.current()[1] == (app.screen.puzzles,)   # the keyboard's highlight where it was
    # the window sends the release to the button still under the mouse, the one it went down on
    assert not pressed.isEmpty() and app.base.aspect2d.isAncestorOf(pressed), "the pressed button was built anew"
    messenger.send(DGG.B1CLICK + pressed.guiId, [None])  # ... and comes up
    frames(app)
    assert app.screen.name == "tournament"


def test_a_tournament_the_command_makes_comes_into_the_history_on_the_page(app):
    """`nmbr9 tournament --bots ...` run in a terminal beside the Tournament screen: its tournament was not in the
    history until the page was left and opened again."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from test_tournament import run_cli
    app.goto(TournamentScreen)
    assert "No tournaments yet." in texts(app)
    played = run_cli(app.store.folder, "--bots", "easy", "--games", "1", "--seed", "2")
    assert played.returncode == 0, played.stdout + played.stderr
    until(app, lambda: "Tournament 1  (finished)" in buttons(app), 10)
    shown = texts(app).splitlines()
    assert "No tournaments yet." not in shown and "Bot 1 (easy)" in shown and "This tournament is over." in shown


def test_the_oldest_of_25_tournaments_is_reached_with_older_and_continued(app):
    """The page listed only the 10 newest tournaments, with no word of more: an older one, unfinished, could be
    neither seen nor continued in the window. Older and Newer (Page Down / Up) turn the history's pages."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    oldest = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=7, name="Oldest one")
    for n in range(24):
        app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=3, seed=10 + n)
    app.goto(TournamentScreen)
    shown = texts(app)
    assert "1–10 of 25" in shown and "Oldest one  (0 of 2 played)" not in buttons(app)
    assert "Newer" not in buttons(app), "the newest page: nothing newer"
    s = app.screen
    assert s.keys.current()[0] == s.play, "the keyboard starts on Play the first game, not on the button after it"
    click(app, "Older")
    assert "11–20 of 25" in texts(app)
    s.keys.find((s.turn, (1,)))                    # walked to Older, Space
    messenger.send("space")
    frames(app)
    assert "21–25 of 25" in texts(app) and "Older" not in buttons(app)
    assert s.keys.current() == (s.turn, (-1,)), "at the last page the keyboard is on Newer, the way back"
    messenger.send("page_up")
    frames(app)
    assert "11–20 of 25" in texts(app)
    messenger.send("page_down")
    frames(app)
    click(app, "Oldest one  (0 of 2 played)")
    assert "Oldest one" in texts(app).splitlines()
    click(app, "Play the first game")
    assert app.screen.name == "play" and app.screen.match.tournament == {"id": oldest.id, "game": 1}
    app.menu()
    app.goto(TournamentScreen, chosen=oldest.id)   # (as its game's results come back to it) on its own page
    assert "21–25 of 25" in texts(app) and "Oldest one  (0 of 2 played)" in buttons(app)


def test_bots_playing_alone_show_the_round_its_card_and_the_score_and_no_turn(app):
    """A tournament of `nmbr9 tournament --bots` continued in the window: its table showed a blank card, no
    round, an empty score box and an empty Confirm, with a Hint button and the turn's keys for nobody."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Easy", "bot:easy"), Seat("Medium", "bot:medium")], games=1, seed=5)
    app.goto(TournamentScreen, chosen=t.id)
    click(app, "Play the first game")
    s = app.screen
    until(app, lambda: s.match.round >= 8)
    m, shown = s.match, texts(app)
    assert s.hud.round["text"] == f"Game 1 of 1 \u00b7 Round {m.round} of 20" and s.hud.card["text"] == str(m.game.card)
    assert f"Score {m.board(0).score()}" in s.hud.score["text"] and m.board(0).score() > 0
    assert "Hint (I)" not in shown and "Confirm (Enter)" not in shown and "I: hint" not in shown


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_tournament_game_and_round_keep_clear_of_the_score_box_in_a_small_window(app, language):
    """(This window is 640 pixels wide.) Twelfth game, last round, a tile in hand: the score box at its widest."""
    from nmbr9.match import Match
    set_language(language)
    t = app.store.new_tournament([Seat("Ana")], games=12, seed=5)
    m = t.attach(Match.new([Seat("Ana")], seed=5, tournament={"id": t.id, "game": 12}))
    while m.round < 20:
        m.confirm(m.legal_placements(0)[0])
    s = app.play(m, {"tournament": t.id})
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app, 2)
    assert "12" in s.hud.round["text"] and "20" in s.hud.round["text"] and s.hud.round["text"].count("12") == 2
    from panda3d.core import Point3

    def x(widget, side: int) -> float:   # its frame's left (0) or right (1) edge, across the window
        return app.base.render2d.getRelativePoint(widget, Point3(widget.guiItem.getFrame()[side], 0, 0)).x
    assert x(s.hud.round, 1) < x(s.hud.score, 0) - 0.02


def test_the_last_games_results_name_the_players_who_share_a_tournaments_win(app, monkeypatch):
    from nmbr9.store.tournaments import Standing, Tournament
    t = app.store.new_tournament([Seat("Ana", "bot:easy"), Seat("Ben", "bot:easy"), Seat("Bot", "bot:easy")],
                                 games=1, seed=5)
    match = app.store.tournament_match(t)
    match.play_out()
    tied = [Standing(1, 0, "Ana", "human", 1, 50, 1, 50, [50]), Standing(1, 1, "Ben", "human", 1, 50, 1, 50, [50]),
            Standing(3, 2, "Bot", "bot:easy", 1, 40, 0, 40, [40])]
    monkeypatch.setattr(Tournament, "standings", lambda self: tied)
    from nmbr9.scene.screens.results import ResultsScreen
    app.goto(ResultsScreen, match=match, context={"tournament": t.id})
    assert t.over and "This tournament is over: Ana, Ben share the win." in texts(app)


def test_the_keyboard_alone_starts_or_continues_a_tournament(app):
    from nmbr9.scene.screens.tournament import TournamentScreen
    app.goto(TournamentScreen)
    assert "Tab or arrow keys walk the page, Space presses" in texts(app)
    messenger.send("enter")                          # no tournament yet: on New tournament
    frames(app)
    assert app.screen.name == "setup" and app.screen.tournament
    t1 = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=5)
    t2 = app.store.new_tournament([Seat("Ben")], games=1, seed=6)
    app.goto(TournamentScreen, chosen=t1.id)
    s = app.screen
    assert s.keys.current() == (s.play, (t1.id,))   # at first on Play the first game
    while s.keys.current() != (s.choose, (t2.id,)):
        messenger.send("tab")
    messenger.send("space")                          # the other tournament, still on its name
    assert s.chosen == t2.id and s.keys.current() == (s.choose, (t2.id,))
    while s.keys.current() != (s.play, (t2.id,)):
        messenger.send("arrow_down")
    messenger.send("enter")
    frames(app)
    assert app.screen.name == "play" and app.screen.match.tournament == {"id": t2.id, "game": 1}


def test_a_long_name_in_the_standings_keeps_clear_of_its_points(app):
    """"Cleopatra Wolkenstein-Ramirez (bot)" (a name as long as New game's field takes) ran over its Best column."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.scene.screens.widgets import box
    app.store.new_tournament([Seat("Cleopatra Wolkenstein-Ramirez", "bot:easy"), Seat("Ana")], games=2, seed=5)
    s = app.goto(TournamentScreen)
    frames(app)
    labels = [w for w in DirectGuiWidget.guiDict.values() if not w.isEmpty() and s.root.isAncestorOf(w)
              and w.hascomponent("text0") and isinstance(w["text"], str)]

    def ink(label):
        low, high = label.component("text0").getTightBounds()
        return box(label, app.base.aspect2d, (low.x, high.x, low.z, high.z))
    name = next(w for w in labels if w["text"].startswith("Cleopatra"))
    best = next(w for w in labels if w["text"] == "Best 2")
    assert ink(name)[1] < ink(best)[0]


def test_a_bot_with_a_long_name_keeps_its_strength_in_the_standings(app):
    """A bot named as long as New game's field takes lost its strength with the end of its name: "Wwww… (ea…".
    The name is cut short now, "(easy)" kept whole, still clear of the points."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    name = "W" * 30
    app.store.new_tournament([Seat(name, "bot:easy"), Seat("Ana")], games=2, seed=5)
    app.goto(TournamentScreen)
    frames(app)
    shown = next(line for line in texts(app).splitlines() if line.startswith("WWW"))
    assert shown.endswith("… (easy)") and name.startswith(shown.removesuffix("… (easy)")), shown


def test_a_game_of_five_long_names_in_the_history_shows_every_score(app):
    """"Game 1: Maximiliane-Josephine 12, Bartholomaeus-Friedrich 24, ..., Alexandrina-Vict…": the line was cut at
    its end, the winner's 93 with it. The names are cut short now, every player's score is on the line."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    names = ["Maximiliane-Josephine", "Bartholomaeus-Friedrich", "Konstantinopolitanus", "Wilhelmina-Charlotte",
             "Alexandrina-Victoria"]
    t = app.store.new_tournament([Seat(n, "bot:easy") for n in names], games=3, seed=7)
    app.store.tournament_match(t).play_out()
    app.goto(TournamentScreen, chosen=t.id)
    frames(app)
    scores = app.store.tournament(t.id).entries()[0].scores
    line = next(text for text in buttons(app) if text.startswith("Game 1: "))
    told = line.removeprefix("Game 1: ").split(", ")
    assert [int(part.rsplit(" ", 1)[1]) for part in told] == scores, line
    assert all(part.startswith(name[:8]) for part, name in zip(told, names)), line


def test_a_bot_is_named_with_its_strength_once_wherever_its_tournament_was_made(app):
    """A tournament of `nmbr9 tournament --bots hard,easy` read "Bot 1 (hard) (bot)" here, and one made with New
    tournament "Bot 2 (bot)", its strength nowhere: both now as New tournament names bots, with the strength."""
    from nmbr9.i18n import _
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.store.tournament_cli import bot_seats

    def standings(tid):   # the lines under the standings' heads
        app.goto(TournamentScreen, chosen=tid)
        lines = texts(app).splitlines()
        return lines[lines.index(_("Games")) + 1:]
    command = app.store.new_tournament(bot_seats("hard,easy"), games=1, seed=1)
    older = app.store.new_tournament([Seat("Bot 1 (hard)", "bot:hard"), Seat("Bot 2 (easy)", "bot:easy")],
                                     games=1, seed=1)   # as the command stored its bots before
    s = app.goto(SetupScreen, tournament=True)
    click(app, "Add a player")                   # seat 2: a medium bot
    click(app, "Add a player")
    s.entries[2].set("Ana")
    s.cycle_kind(2)                              # the third seat: a bot named Ana, hard
    click(app, "Start (Enter)")
    window = app.screen.match.tournament["id"]
    for tid in (command.id, older.id):
        shown = standings(tid)
        assert {"Bot 1 (hard)", "Bot 2 (easy)"} <= set(shown), shown
        assert not any("(bot)" in line or line.count("(") > 1 for line in shown)
    shown = standings(window)
    assert {"Player 1", "Bot 2 (medium)", "Ana (hard)"} <= set(shown) and not any("(bot)" in x for x in shown)
    set_language("de")
    assert {"Bot 1 (schwer)", "Bot 2 (leicht)"} <= set(standings(older.id))   # the strength in the player's words


def test_a_tournament_names_the_rules_its_games_are_played_under(app):
    """A "2 of 3" tournament with gap fillers looked like a base game one until a game was started."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=5,
                                 ruleset=Ruleset("two_of_three", ("gap_fillers",)))
    base = app.store.new_tournament([Seat("Ben")], games=2, seed=6)
    app.goto(TournamentScreen, chosen=t.id)
    assert "2 games, the best 2 count; seed 5 \u00b7 2 of 3, Gap fillers" in texts(app).splitlines()
    app.goto(TournamentScreen, chosen=base.id)
    assert "2 games, the best 2 count; seed 6" in texts(app).splitlines()   # the base game: no more


def test_a_one_game_tournament_is_told_in_the_singular(app):
    """It said "1 games, the best 1 count": each number in the sentence has its own plural."""
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ana", "bot:easy"), Seat("Ben", "bot:easy")], games=1, seed=6)
    app.goto(TournamentScreen, chosen=t.id)
    assert "1 game, the best 1 counts; seed 6" in texts(app).splitlines()
    match = app.store.tournament_match(t)
    match.play_out()
    app.goto(ResultsScreen, match=match, context={"tournament": t.id})
    assert "Tournament 1: game 1 of 1 played, the best 1 counts" in texts(app).splitlines()


def test_a_damaged_stored_game_never_hides_its_tournament(app):
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("E", "bot:easy"), Seat("M", "bot:medium")], games=2, seed=5)
    app.store.tournament_match(t, threaded=False).play_out()
    app.store.db.execute("UPDATE tournament_games SET record = '{\"format\": \"nmbr9-rec' WHERE number = 1")
    app.goto(TournamentScreen, chosen=t.id)
    assert app.screen.name == "tournament" and "Continue the tournament" in buttons(app)
    game = next(text for text in buttons(app) if text.startswith("Game 1: "))   # its scores still stand
    click(app, game)
    assert app.screen.name == "tournament"
    assert "Game 1 can't be shown: the copy of its record in the database is damaged" in texts(app)   # no "file"


def test_the_menu_says_when_the_settings_file_could_not_be_read(app):
    (app.store.folder / "settings.json").write_text('{"language": "pl", "sound": fal')
    app.store.settings()          # as the game does when it starts
    app.menu()
    assert ("The settings file settings.json could not be read (not valid JSON (the file ends part way through: "
            "cut off, line 1)); "
            "the defaults are used. When settings are next saved, it is kept, renamed settings.json.corrupt-….") \
        in texts(app)
    click(app, "New game")        # said once
    app.menu()
    assert "could not be read" not in texts(app)


def test_the_menu_says_two_problems_at_once(app):
    """A cut-off settings file and a corrupt save on the same start: both are said (the menu
    used to show only the last one)."""
    (app.store.folder / "settings.json").write_text('{"language": "pl", "sound": fal')
    (app.store.folder / "autosave.json").write_text("{ not json", encoding="utf-8")
    app.store.settings()
    app.menu()
    shown = texts(app)
    assert "The settings file settings.json could not be read" in shown
    assert "could not be continued" in shown


def test_the_menu_says_a_database_damaged_inside_was_set_aside_and_what_still_reads_is_kept(app):
    """A page of the database overwritten (a bad sector): the menu said nothing, and the Tournaments page
    showed "No tournaments yet." over SQLite's words "database disk image is malformed". The tournament,
    whose row was not on the damaged page, is kept (its games, on that page, are played again)."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.store.db import FILENAME
    t = app.store.new_tournament([Seat("E", "bot:easy")], games=2, seed=5)
    app.store.tournament_match(t, threaded=False).play_out()
    app.store.close()
    damage_table(app.store.folder / FILENAME, "tournament_games")
    app.menu()
    kept = next(p.name for p in app.store.folder.iterdir() if p.name.startswith(FILENAME + ".corrupt-"))
    assert (f"The database was damaged (database disk image is malformed). It was kept as {kept}, and a new "
            "one was started with everything that could still be read from it.") in texts(app)
    app.goto(TournamentScreen)
    assert "No tournaments yet." not in texts(app) and "malformed" not in texts(app)
    assert app.store.tournaments()[0].id == t.id
    click(app, "New tournament")
    click(app, "Start (Enter)")
    assert app.screen.name == "play"


def _read_only_database(app):
    import sqlite3
    from nmbr9.store.db import FILENAME
    app.store.db          # created and migrated; then opened again as a disk that refuses writes would
    app.store.close()
    db = sqlite3.connect(f"file:{app.store.folder / FILENAME}?mode=ro", uri=True, isolation_level=None)
    db.row_factory = sqlite3.Row
    app.store._db = db


def test_a_read_only_database_is_said_in_a_sentence_when_a_tournament_starts(app):
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ana")], games=2, seed=5)
    _read_only_database(app)
    app.goto(SetupScreen, tournament=True)
    click(app, "Start (Enter)")
    assert app.screen.name == "setup"
    said = f"Could not store the tournament: the data folder {app.store.folder} can't be written"
    assert said in texts(app)
    app.goto(TournamentScreen, chosen=t.id)           # an older tournament's first game can't start either
    click(app, "Play the first game")
    assert app.screen.name == "tournament"
    assert said in texts(app) and "readonly" not in texts(app)


def test_the_hand_off_says_in_words_that_the_data_folder_cant_be_written(app):
    """A tournament game continued on a read-only data folder: the hand-off said SQLite's own English, "Could
    not save the tournament game: attempt to write a readonly database"."""
    t = app.store.new_tournament([Seat("Ana"), Seat("Ben")], games=2, seed=5)
    app.store.play_tournament(t, threaded=False)      # its first game under way, in the autosave too
    app.store.close()
    with read_only(app.store.folder):
        app.menu()
        click(app, "Continue")
        pass_the_table(app)
        place_somewhere(app)                          # Ana's tile, which can't be saved
        until(app, lambda: app.screen.overlay == "handoff")
        shown = texts(app)
        assert "Pass to Ben" in shown and "readonly" not in shown
        assert f"Could not save the tournament game: the data folder {app.store.folder} can't be written" in shown
        app.store.close()


def test_a_read_only_data_folder_still_shows_the_tournaments_with_a_note(app):
    """A read-only data folder (a read-only disk): the menu said "unable to open database file" and the
    Tournaments page had none of the player's tournaments."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.store.db import FILENAME
    app.store.new_tournament([Seat("Ana")], games=2, seed=5, name="Spring")
    app.store.close()
    with read_only(app.store.folder):
        app.menu()
        assert (f"The database {app.store.folder / FILENAME} can't be written: your tournaments and bests are "
                "shown, but nothing new is stored.") in texts(app)
        app.goto(TournamentScreen)
        assert "Spring" in texts(app) and "No tournaments yet." not in texts(app)
        app.store.close()

def test_an_older_database_on_a_read_only_disk_offers_no_tournament_game_and_says_why(app):
    """The menu said "Can't use the database ...: attempt to write a readonly database", Continue played the
    tournament's game as a game of its own, and Tournaments said "No tournaments yet."."""
    import sqlite3
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.store.db import FILENAME
    t = app.store.new_tournament([Seat("Ana")], games=2, seed=5, name="Spring")
    app.store.play_tournament(t, threaded=False)
    app.store.close()
    db = sqlite3.connect(app.store.folder / FILENAME)   # as the game before personal bests left it
    db.execute("DROP TABLE personal_scores")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with read_only(app.store.folder):
        app.menu()
        shown = texts(app)
        assert "Continue" not in buttons(app) and "attempt to write" not in shown
        assert "Your tournament game can't be continued while the tournament database can't be used" in shown
        assert "was written by an older version of NMBR 9 3D and can't be written" in shown
        app.goto(TournamentScreen)
        assert "No tournaments yet." not in texts(app) and "older version of NMBR 9 3D" in texts(app)
        app.store.close()


def test_results_on_a_read_only_data_folder_still_show_the_players_best(app):
    """Storing the score failed on a read-only disk, and with it the best before: the line beside the score
    stayed empty."""
    from nmbr9.store import record_score
    app.play(app.store.new_match([Seat("Ana")], seed=41))
    play_to_results(app)
    m = app.screen.match
    record_score(app.store.db, "Ana", m.game.ruleset.to_json(), 3, "an earlier game", 0, "2026-01-01T10:00:00Z")
    app.store.close()
    score = app.screen.results[0].score
    with read_only(app.store.folder):
        app.goto(type(app.screen), match=m, context={})
        frames(app, 5)
        said = "new personal best! (before: 3)" if score > 3 else "your best: 3 (2026-01-01)"
        assert app.screen.lines[0][3]["text"].replace("\u00a0", " ") == said
        app.store.close()

def test_a_puzzle_is_stored_and_the_next_player_sees_earlier_boards_at_their_round(app):
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.store import puzzle_results
    import datetime as dt
    app.goto(PuzzleScreen)
    app.screen.name_entry.set("Ana")
    code = daily_puzzle(dt.date.today()).code
    app.screen.code_entry.set(code.lower())
    click(app, "Play this code")
    s = app.screen
    assert s.context == {"puzzle": code} and m_round(s) == 2 and len(s.match.board(0).tiles) == 1
    play_to_results(app)
    stored = puzzle_results(app.store.db, code)
    assert {r.player for r in stored} >= {"Ana", "Easy bot", "Medium bot", "Hard bot"}
    assert f"Leaderboard of puzzle {code}" in texts(app)
    click(app, "Play it again (Enter)")                # the same puzzle, a second player takes over
    s2 = app.screen
    assert s2.match.extra["puzzle"] == code and s2.past and s2.past[0][0] == "Ana"
    for _ in range(2):
        place_somewhere(app)
        until(app, lambda: s2.ps is not None and s2.ps.ghost is not None and not s2.match.bots_thinking)
    s2.look(("past", 0))
    frames(app)
    assert len(s2.table.board.tiles) == s2.match.round - 1   # Ana's board at the same round, not her last
    assert "Ana's earlier game: the board as it stood at the start of round 4" in texts(app)


def test_an_earlier_puzzle_players_score_is_listed_as_at_this_round(app):
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import puzzle_seats, start_puzzle
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    start_puzzle(app, puzzle, puzzle_seats("Ana"))
    play_to_results(app)
    final = next(r.score for r in app.screen.results if r.name == "Ana")
    assert final > 0
    s = start_puzzle(app, puzzle, puzzle_seats("Bo"))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app, 2)
    # round 2: Ana had only the first tile on level 0, as Bo has; her final score comes later
    assert "Ana (earlier): 0" in texts(app).splitlines()
    assert f"Ana (earlier): {final}" not in texts(app).splitlines()


def test_an_earlier_puzzle_player_without_a_typed_name_is_named_in_the_language_of_the_moment(app):
    """In Polish the score list said "Player 1 (wcześniej): 0" (and looking at that board, "Player 1's earlier
    game"), though the Puzzles page named the same player "Gracz 1" in its best so far."""
    from nmbr9.i18n import _
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import puzzle_seats, start_puzzle
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    start_puzzle(app, puzzle, puzzle_seats("Player 1"))   # played with no name typed: kept in English
    play_to_results(app)
    set_language("pl")
    s = start_puzzle(app, puzzle, puzzle_seats("Ana"))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app, 2)
    player = _("Player {number}").format(number=1)
    assert player != "Player 1"
    assert _("{name} (earlier): {score}").format(name=player, score=0) in texts(app).splitlines()
    s.look(("past", 0))
    frames(app)
    assert player in s.status["text"] and "Player 1" not in texts(app)


def test_a_puzzles_best_found_counts_the_leaderboards_best_layout(app, monkeypatch):
    """The results of a puzzle said "Best found for this deck: 88 points (the winner matched it)" right above its
    leaderboard, whose first line was an earlier player's 115: the search, short of time, had only this game's
    boards to go by. The leaderboard's best layout now goes along too."""
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene import analysis_job
    from nmbr9.scene.screens.puzzles import puzzle_seats, start_puzzle
    from nmbr9.store import add_puzzle_result
    import datetime as dt
    given = []
    real = analysis_job.AnalysisJob.__init__
    monkeypatch.setattr(analysis_job.AnalysisJob, "__init__",
                        lambda job, deck, seconds, layouts=(): given.append(list(layouts)) or real(job, deck, seconds,
                                                                                                 layouts))
    puzzle = daily_puzzle(dt.date.today())
    start_puzzle(app, puzzle, puzzle_seats("Ana"))
    play_to_results(app)
    first = app.screen.match
    ana = first.game.boards[0].tiles
    # the leaderboard's first line: Ana's layout (a score above every bot's, as a strong player's would be)
    add_puzzle_result(app.store.db, puzzle.code, "Ana", 999, first.record())
    s = start_puzzle(app, puzzle, puzzle_seats("Bo"))
    while app.screen is s:
        place_somewhere(app, highest=False)   # Bo lays each tile at the first spot: no match for Ana
        frames(app, 2)
    until(app, lambda: app.screen.name == "results")
    assert ana in given[-1]


def m_round(s) -> int:
    return s.match.round


@pytest.mark.parametrize("screen, says", [("Puzzles", "Starting a puzzle"), ("New game", "Starting a game")])
def test_starting_a_puzzle_or_a_new_game_says_it_ends_the_saved_game(app, screen, says):
    app.menu()
    click(app, screen)
    assert "saved game" not in texts(app)                 # nothing saved: nothing to say
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=8)
    app.play(m)
    place_somewhere(app)
    until(app, lambda: m.round == 2)
    click(app, "Menu (M)")
    click(app, screen)
    assert f"{says} ends your saved game (Round 2 of 20: Ana, Bot)." in texts(app)


def test_a_tournament_says_its_game_ends_the_saved_game(app):
    """Starting a tournament, or its next game, replaced a saved game without a word (New game and
    Puzzles say so); the tournament's own saved game is continued, so nothing is said then."""
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Ana"), Seat("Bot", "bot:easy")], games=2, seed=5)
    said = "Starting a game ends your saved game (Round 2 of 20: Ana, Bot)."
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=8)
    app.play(m)
    place_somewhere(app)
    until(app, lambda: m.round == 2)
    click(app, "Menu (M)")
    app.goto(SetupScreen, tournament=True)
    assert said in texts(app)
    app.goto(TournamentScreen, chosen=t.id)
    assert said in texts(app)
    click(app, "Play the first game")
    until(app, lambda: app.screen.ps is not None)
    click(app, "Menu (M)")
    app.goto(TournamentScreen, chosen=t.id)
    assert "Continue the tournament" in buttons(app) and "saved game" not in texts(app)


@pytest.mark.parametrize("code", ["ZZZZ-ZZZZ-ZZZZ", 12, "other deck"])
def test_a_saved_puzzle_whose_code_was_damaged_continues_as_a_plain_game(app, code):
    from nmbr9.puzzle import daily_puzzle, offered_puzzles
    from nmbr9.scene.screens.puzzles import puzzle_seats, start_puzzle
    import datetime as dt
    import random
    s = start_puzzle(app, daily_puzzle(dt.date.today()), puzzle_seats("Ana"))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    first = s.match.round
    place_somewhere(app)
    until(app, lambda: s.match.round == first + 1)
    click(app, "Menu (M)")
    assert f"Puzzle {s.match.extra['puzzle']} \u00b7 Round {first + 1} of 20" in texts(app)   # what Continue resumes
    if code == "other deck":   # a real code, but of another puzzle
        code = next(p for p in offered_puzzles(random.Random(1)) if p != daily_puzzle(dt.date.today())).code
    saved = json.loads((app.store.folder / "autosave.json").read_text())
    saved["puzzle"] = code
    (app.store.folder / "autosave.json").write_text(json.dumps(saved))
    app.menu()
    click(app, "Continue")
    assert app.screen.name == "play" and app.screen.context == {}
    play_to_results(app)                                   # "Play it again" used to fail on the code
    assert app.screen.name == "results" and "Rematch" in " ".join(buttons(app))


def test_a_puzzles_bots_are_named_in_the_language_of_the_moment(app):
    """A puzzle's bots were stored named in the language it started in: switched later, the table,
    Continue, the results and the leaderboard still said "Leichter Bot"."""
    from nmbr9.i18n import _
    from nmbr9.match import Match
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.store import add_puzzle_result
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    set_language("de")
    easy, medium = _("Easy bot"), _("Medium bot")
    assert easy != "Easy bot"
    add_puzzle_result(app.store.db, puzzle.code, medium, 90, {}, "bot:medium")   # as stored before, in German
    app.goto(PuzzleScreen)
    app.screen.name_entry.set("Ana")
    app.screen.code_entry.set(puzzle.code)
    click(app, _("Play this code"))
    s = app.screen
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    assert any(line.startswith(f"{easy}: ") for line in texts(app).splitlines())
    set_language("en")
    frames(app)
    lines = texts(app).splitlines()
    assert any(line.startswith("Easy bot: ") for line in lines) and easy not in texts(app)
    saved = json.loads((app.store.folder / "autosave.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in saved["players"]] == ["Ana", "Easy bot", "Medium bot", "Hard bot"]   # no language's
    app.menu()
    assert "Ana, Easy bot, Medium bot, Hard bot" in texts(app)          # Continue
    game = s.match.game
    while not game.over:
        for seat in game.waiting():
            game.play(seat, game.legal_placements(seat)[0])
    app.goto(ResultsScreen, match=Match(game, 1, extra={"puzzle": puzzle.code}), context={"puzzle": puzzle.code})
    frames(app)
    assert {"Ana", "Easy bot", "Medium bot", "Hard bot"} <= set(buttons(app))
    leaderboard = [line for line in texts(app).splitlines() if re.match(r"(\u25b6 )?\d+\. ", line)]
    assert leaderboard[0].startswith("1. Medium bot: 90")       # the old row (a strength's first game is kept)
    assert {"Easy bot", "Hard bot"} <= {line.split(". ")[1].split(":")[0] for line in leaderboard}
    assert not any(medium in line for line in leaderboard)
    set_language("pl")
    frames(app)
    assert _("Hard bot") in buttons(app)


def test_a_puzzle_played_without_a_name_shows_and_keeps_one_name_in_every_language(app):
    """The name field looked empty and the puzzle was played as "Spieler 1" in German, "Player 1" in English:
    two players on the leaderboard. It shows the name used, a click empties it for typing, and the name is
    kept in English (as the bots' are) and shown in the language of the moment."""
    from nmbr9.i18n import _
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.store import puzzle_results
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    set_language("de")
    player = _("Player {number}").format(number=1)
    assert player != "Player 1"
    s = app.goto(PuzzleScreen)
    e = s.name_entry
    assert e.get() == player
    e["focus"] = 1                      # as a click in the field does
    frames(app)
    assert e.get() == ""
    e["focus"] = 0
    frames(app)
    assert e.get() == player            # left empty: the name used shows again
    s.code_entry.set(puzzle.code)
    click(app, _("Play this code"))
    assert app.screen.match.seats[0].name == "Player 1"
    play_to_results(app)
    assert [r.player for r in puzzle_results(app.store.db, puzzle.code) if r.kind == "human"] == ["Player 1"]
    app.menu()
    s = app.goto(PuzzleScreen)          # still German: the last player's name in German, and their best
    assert s.name_entry.get() == player and f"({player})" in texts(app)
    set_language("en")
    frames(app)
    assert s.name_entry.get() == "Player 1" and "(Player 1)" in texts(app) and player not in texts(app)


def test_the_puzzles_screen_offers_the_last_puzzle_players_name(app):
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.store import add_puzzle_result
    import datetime as dt
    code = daily_puzzle(dt.date.today()).code
    app.goto(PuzzleScreen)
    assert app.screen.name_entry.get() == "Player 1"   # nobody played one yet: the name a puzzle is played under
    add_puzzle_result(app.store.db, code, "Hard bot", 90, {}, "bot:hard", "2026-01-02T10:00:00+00:00")
    add_puzzle_result(app.store.db, code, "Ana", 70, {}, "human", "2026-01-02T09:00:00+00:00")
    add_puzzle_result(app.store.db, code, "Bo", 80, {}, "human", "2026-01-01T09:00:00+00:00")
    click(app, "Back (Esc)")
    click(app, "Puzzles")
    assert app.screen.name_entry.get() == "Ana"       # the last human to finish a puzzle, not retyped each time


def test_the_two_puzzles_offered_and_a_typed_name_stay_until_one_is_played(app):
    """Each visit to Puzzles drew two new puzzles (Back and Puzzles again re-rolled them at will) and a name typed
    there was lost on Back or Esc. They stay, also after a restart; a puzzle played is replaced, the other stays."""
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.store import load_settings

    def offered():
        return [p.code for p in app.screen.offered]
    app.goto(PuzzleScreen)
    first = offered()
    assert all(f"code {code}" in texts(app) for code in first)
    app.screen.name_entry.set("Zoe")
    click(app, "Back (Esc)")
    click(app, "Puzzles")
    assert offered() == first and app.screen.name_entry.get() == "Zoe"
    app.screen.name_entry.set("Zoe Two")
    messenger.send("escape")
    frames(app)
    click(app, "Settings")
    messenger.send("escape")
    frames(app)
    click(app, "Puzzles")
    assert offered() == first and app.screen.name_entry.get() == "Zoe Two"
    assert all(f"code {code}" in texts(app) for code in first)
    assert load_settings(app.store.folder).puzzles == {"offered": first, "player": "Zoe Two"}   # the next run's
    click(app, "Puzzle A")
    assert app.screen.match.seats[0].name == "Zoe Two"
    app.menu()
    click(app, "Puzzles")
    assert offered()[1] == first[1] and offered()[0] not in first   # the one played is replaced


def test_a_first_puzzle_is_offered_under_the_name_played_in_new_game(app):
    """A newcomer who had played three games as Anna opened Puzzles: "Your name: Player 1", and Puzzle A went on
    its leaderboard as Player 1. Before any puzzle, the first human named in New game is offered."""
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    app.settings = app.settings.changed(new_game={
        "seats": [{"name": "", "kind": "bot:easy"}, {"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}],
        "variant": "classic", "modules": [], "powers": [], "practice": False})
    app.goto(PuzzleScreen)
    assert app.screen.name_entry.get() == "Anna"
    click(app, "Puzzle A")
    assert app.screen.match.seats[0].name == "Anna"


def test_a_puzzle_leaderboard_shows_this_games_player_below_the_top_eight(app):
    from nmbr9.match import Match
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import puzzle_seats
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.store import add_puzzle_result, puzzle_results
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    for n in range(9):
        add_puzzle_result(app.store.db, puzzle.code, f"Champion {n}", 200 + n, {}, "human")
    game = puzzle.new_game(puzzle_seats("Ana"))
    while not game.over:                          # everyone lays each tile at its first legal spot
        for seat in game.waiting():
            game.play(seat, game.legal_placements(seat)[0])
    app.goto(ResultsScreen, match=Match(game, 1, extra={"puzzle": puzzle.code}), context={"puzzle": puzzle.code})
    frames(app)
    board = puzzle_results(app.store.db, puzzle.code)
    place = next(n for n, r in enumerate(board) if r.player == "Ana") + 1
    assert place > 8
    lines = texts(app).splitlines()
    assert any(line.startswith(f"\u25b6 {place}. Ana: {game.scores()[0]}") for line in lines)
    assert not any(line.startswith("9. ") for line in lines)          # the top 8 only, besides Ana


def test_a_damaged_stored_puzzle_record_neither_loses_a_new_result_nor_hides_the_leaderboard(app):
    from nmbr9.match import Match
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen, puzzle_seats
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.store import add_puzzle_result, puzzle_results
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    add_puzzle_result(app.store.db, puzzle.code, "Bo", 300, {}, "human")
    app.store.db.execute("UPDATE puzzle_results SET record = '{\"format\": \"nmbr9-rec'")
    app.goto(PuzzleScreen)
    assert "best so far 300 (Bo)" in texts(app)             # Bo's score stands
    game = puzzle.new_game(puzzle_seats("Ana"))
    while not game.over:
        for seat in game.waiting():
            game.play(seat, game.legal_placements(seat)[0])
    app.goto(ResultsScreen, match=Match(game, 1, extra={"puzzle": puzzle.code}), context={"puzzle": puzzle.code})
    frames(app)
    assert "could not be stored" not in texts(app)
    assert any(r.player == "Ana" for r in puzzle_results(app.store.db, puzzle.code))   # Ana's result is kept
    lines = texts(app).splitlines()
    assert f"Leaderboard of puzzle {puzzle.code}" in lines and any(line.startswith("1. Bo: 300") for line in lines)


def test_a_puzzles_best_layout_starts_with_the_puzzles_first_tile(app):
    from nmbr9.match import Match
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.rules import Placement
    from nmbr9.scene.screens.puzzles import puzzle_seats
    from nmbr9.scene.screens.results import ResultsScreen
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    game = puzzle.new_game(puzzle_seats("Ana"))
    while not game.over:
        for seat in game.waiting():
            game.play(seat, game.legal_placements(seat)[0])
    r = app.goto(ResultsScreen, match=Match(game, 1, extra={"puzzle": puzzle.code}), context={"puzzle": puzzle.code})
    # the search found a layout that lays the first card elsewhere, a quarter turned
    analysis_found(r, [Placement(puzzle.deck[0], (puzzle.rotation + 90) % 360, 4, 7, 0)])
    frames(app)
    click(app, "Step through it (\u2192)")
    assert sorted(r.table.board.tiles[0].squares()) == sorted(puzzle.first.squares())


@pytest.mark.parametrize("code, sentence", [
    ("ABCD-EFGH-JKMN", "That puzzle code has a typing mistake (its check letter does not match)."),
    ("ZZZZ-ZZZZ-ZZZY", "No puzzle has that code: check it letter by letter."),   # its check letter matches
    ("ABCD", "A puzzle code has 12 letters and digits, like 0ABC-DEFG-HJKM.")])
def test_a_mistyped_puzzle_code_gets_one_sentence(app, code, sentence):
    """A code no puzzle has said "That code doesn't work: That is not a puzzle code.": twice the same thing."""
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    app.goto(PuzzleScreen)
    app.screen.code_entry.set(code)
    click(app, "Play this code")
    assert app.screen.name == "puzzles" and sentence in texts(app).splitlines()
    assert "doesn't work" not in texts(app) and "not a puzzle code" not in texts(app)


def test_rematch_seats_the_same_players_with_a_new_deck(app):
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=21)
    app.play(m)
    play_to_results(app)
    frames(app, 3)
    messenger.send("enter")                     # the green button: "Rematch (Enter)"
    frames(app)
    again = app.screen.match
    assert app.screen.name == "play" and again is not m
    assert [x.name for x in again.seats] == ["Ana", "Bot"] and again.game.deck != m.game.deck
    assert app.store.continue_game().match.seed == again.seed     # saved at once


def test_after_the_results_the_next_table_is_centred_again(app):
    lens = app.base.camLens
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=24)
    app.play(m)
    play_to_results(app)
    assert lens.getFilmOffset()[0] < 0          # the board stands beside the score panel
    click(app, "Menu (Esc)")
    app.play(app.store.new_match([Seat("Ana")], seed=2))
    assert tuple(lens.getFilmOffset()) == (0, 0)


def test_a_window_made_wider_frames_the_build_again(app):
    from panda3d.core import Point3
    s = app.play(app.store.new_match([Seat("Ana")], seed=2))
    for _ in range(6):
        place_somewhere(app, highest=False)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app, 3)
    lens, aspect = app.base.camLens, app.base.camLens.getAspectRatio()
    board = s.match.board(0)
    x0, y0, x1, y1 = board.bounds()
    corners = [Point3(x, -y, 0) for x in (x0, x1 + 1) for y in (y0, y1 + 1)]
    try:
        lens.setAspectRatio(aspect * 1.8)     # the player drags the window wider (and lower)
        frames(app, 3)
        shown = [s.camera.screen_point(c) for c in corners]
    finally:
        lens.setAspectRatio(aspect)
    assert all(p is not None and abs(p[0]) <= 1 and abs(p[1]) <= 1 for p in shown), shown


def test_six_scores_fit_above_the_hint_button_in_a_small_window(app):
    # the shared offscreen window is 640x360: the HUD is scaled up to keep text legible
    seats = [Seat("Ana")] + [Seat(f"Bot {i}", "bot:easy") for i in range(1, 6)]
    s = app.play(app.store.new_match(seats, seed=25))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app, 3)

    def box(w):   # (left, right, bottom, top) of a widget's frame on the screen (aspect2d)
        left, right, bottom, top = w.getBounds()
        a = app.base.aspect2d.getRelativePoint(w, (left, 0, bottom))
        b = app.base.aspect2d.getRelativePoint(w, (right, 0, top))
        return a.x, b.x, a.z, b.z
    hint = box(s.hint_button)
    rows = [w for w in DirectGuiWidget.guiDict.values()
            if not w.isEmpty() and s.panel.isAncestorOf(w) and w.__class__.__name__ == "DirectButton"]
    assert len(rows) == 6
    for row in rows:
        left, right, bottom, top = box(row)
        assert bottom > hint[3] or right < hint[0], row["text"]

def test_a_table_of_bots_plays_itself_to_the_results(app):
    m = app.store.new_match([Seat("A", "bot:easy"), Seat("B", "bot:medium")], seed=22)
    app.play(m)
    until(app, lambda: app.screen.name == "results", 60)
    assert m.over and app.screen.results[0].score == max(m.game.scores())


def test_leaving_for_the_menu_and_continuing_keeps_the_position(app):
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=23)
    app.play(m)
    place_somewhere(app)
    until(app, lambda: m.round == 2)
    click(app, "Menu (M)")
    assert app.screen.name == "menu"
    click(app, "Continue")
    s = app.screen
    assert s.name == "play" and s.match.round == 2 and s.match.record()["moves"] == m.record()["moves"]


def test_the_controls_help_folds_once_the_player_has_laid_a_tile_in_a_puzzle_and_after_continue(app, monkeypatch):
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import puzzle_seats, start_puzzle
    import datetime as dt
    # the HUD as in a 1280x720 window (the shape of the offscreen one): room for the help beside the rest
    monkeypatch.setattr("nmbr9.scene.hud.text_scale_for", lambda width, height: 1.0)

    def help_shown() -> bool:
        return _visible(app.screen.hud.legend)
    start_puzzle(app, daily_puzzle(dt.date.today()), puzzle_seats("Ana"))   # its first tile laid for Ana
    frames(app)
    assert help_shown()
    place_somewhere(app)
    until(app, lambda: app.screen.match.round == 3)
    assert not help_shown() and "H: show the controls" in texts(app)
    click(app, "Menu (M)")
    click(app, "Continue")
    until(app, lambda: app.screen.ps is not None)
    assert not help_shown() and "H: show the controls" in texts(app)
    app.play(app.store.new_match([Seat("Ana")], seed=3))   # a new game: the help shows again
    frames(app)
    assert help_shown()


def test_in_pass_and_play_each_human_sees_the_controls_help_until_their_own_first_tile(app, monkeypatch):
    monkeypatch.setattr("nmbr9.scene.hud.text_scale_for", lambda width, height: 1.0)   # as in 1280x720
    m = app.store.new_match([Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")], seed=11)
    s = app.play(m)

    def turn_of(name):
        until(app, lambda: s.overlay == "handoff" or s.ps is not None and s.ps.ghost is not None)
        if s.overlay == "handoff":
            pass_the_table(app)                       # "I am Ben"
        until(app, lambda: s.ps is not None and s.ps.ghost is not None)
        frames(app)
        assert m.seats[s.ps.seat].name == name
        return _visible(s.hud.legend)
    assert turn_of("Ana")
    place_somewhere(app)
    assert turn_of("Ben")                             # Ana's first tile folded it, not for Ben
    place_somewhere(app)
    until(app, lambda: m.round == 2)
    assert not turn_of("Ana")                         # each has laid a tile now
    place_somewhere(app)
    assert not turn_of("Ben")


def test_in_a_small_window_the_controls_help_is_folded_until_the_player_asks_for_it(app):
    # the shared offscreen window is 640x360: the help would cover the key help under the cards to come
    s = app.play(app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=4))
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    frames(app)
    legend, keys = s.hud.legend, s.keys
    assert not _visible(legend) and "H: show the controls" in texts(app) and _visible(keys)
    a2d = app.base.aspect2d
    keys_bottom = a2d.getRelativePoint(keys, (0, 0, keys.guiItem.getFrame()[2])).z
    assert a2d.getRelativePoint(legend, (0, 0, legend.guiItem.getFrame()[3])).z > keys_bottom   # it would
    messenger.send("h")                                   # asked for: shown, over the rest if need be
    frames(app)
    assert _visible(legend) and "H: show the controls" not in texts(app)
    place_somewhere(app)                                  # a tile laid: folded as in any window
    until(app, lambda: s.ps is not None and s.ps.ghost is not None and s.match.round == 2)
    frames(app)
    assert not _visible(legend) and "H: show the controls" in texts(app)
    messenger.send("h")
    frames(app)
    assert _visible(legend)


@pytest.mark.render
@pytest.mark.parametrize("language", ["de", "pl"])
def test_at_640x480_the_table_has_the_room_beside_the_cards_still_to_come(language):
    """At 640x480 (the controls' help folded) the key help under the cards to come ran in one line as wide as the
    window, and the board showed in a strip between the round's card and the score box, 190 px high, while the
    room beside the cards to come stood empty. The key help is as wide as the cards above it, and the board's
    room is as big whenever the table is laid out again."""
    from pathlib import Path
    found = script_output([Path(__file__).resolve().parent / "legend_small_driver.py", "640x480"], language)
    left, right, bottom, top = found["room"]
    assert min((right - left) * 320, (top - bottom) * 240) >= 220, found["room"]   # (normalised: 2 wide)
    assert found["room laid out again"] == found["room"]


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_at_640x480_the_controls_help_asked_for_covers_neither_the_cards_nor_the_verdict_nor_the_buttons(language):
    """At 640x480 the help (H) was too wide to stand beside the buttons at the bottom right and stood above them,
    over "Still to come" and its cards and the verdict. Its controls now stand in rows beside those buttons, and
    while it is shown the verdict waits in the top row: it may cover the table, asked for, but nothing else."""
    from pathlib import Path
    found = script_output([Path(__file__).resolve().parent / "legend_small_driver.py", "640x480"], language)
    assert found["shown"]
    (left, right, bottom, top), window = found["legend"], found["window"]
    for name, (x0, x1, z0, z1) in found["not to cover"].items():
        assert not (left < x1 and x0 < right and bottom < z1 and z0 < top), (name, found)
    assert window[0] <= left and bottom >= window[2], found


def test_the_sound_effects_are_short_distinct_wavs(tmp_path):
    import wave
    from nmbr9.scene.sound import EFFECTS, write_wav
    seen = set()
    for name in EFFECTS:
        write_wav(tmp_path / f"{name}.wav", name)
        with wave.open(str(tmp_path / f"{name}.wav")) as w:
            frames_ = w.readframes(w.getnframes())
            assert 0.1 < w.getnframes() / w.getframerate() < 0.5
        assert any(frames_) and frames_ not in seen
        seen.add(frames_)


@pytest.mark.parametrize("variant,modules", [("two_of_three", ()), ("level_to_level", ("start_tiles",)),
                                             ("classic", ("gap_fillers", "breaking_rules"))])
def test_new_game_sets_up_nmbr9_plus_plus_rules(app, variant, modules):
    from nmbr9.scene.screens.setup import SetupScreen
    names = {"classic": "Base game", "two_of_three": "2 of 3", "level_to_level": "Level to Level"}
    s = app.goto(SetupScreen)
    while s.variant != variant:
        click(app, names[s.variant])
    for module in modules:
        click(app, {"start_tiles": "New start tiles", "gap_fillers": "Gap fillers",
                    "breaking_rules": "Breaking Rules"}[module] + ": off")
    click(app, "Add a player")
    click(app, "Start (Enter)")
    m = app.screen.match
    assert app.screen.name == "play" and type(app.screen).__name__ == "PlusSessionScreen"
    assert m.game.variant == variant and m.game.ruleset.modules == modules
    assert ("breaking_rules" in modules) == bool(m.game.ruleset.powers)   # powers drawn for the game


def test_a_variant_for_four_refuses_a_fifth_player(app):
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    click(app, "Base game")                     # -> 2 of 3, for 1 to 4 players
    for _ in range(4):
        click(app, "Add a player")
    click(app, "Start (Enter)")
    assert app.screen.name == "setup" and "2 of 3 is for 1 to 4 players." in texts(app)
    # said as long as it holds: gone with the fifth seat (it stayed), back with another variant for four
    click(app, "Remove")
    assert "is for 1 to 4 players" not in texts(app)
    click(app, "Add a player")
    click(app, "2 of 3")
    assert "Level to Level is for 1 to 4 players." in texts(app)
    click(app, "Level to Level")                # -> the base game, for 1 to 6
    assert "is for 1 to" not in texts(app)


def test_two_humans_and_a_bot_quit_a_tournament_midway_and_continue_it(app):
    """Issue 4's group: a two-game tournament, left for the menu in the middle and continued."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen, tournament=True)
    click(app, "Add a player")
    click(app, "Add a player")
    s.cycle_kind(2), s.cycle_kind(2), s.cycle_kind(2)      # seat 3: human
    s.entries[0].set("Ana"), s.entries[2].set("Ben")
    s.games_entry.set("2")
    click(app, "Start (Enter)")
    first = app.screen.match
    tid = first.tournament["id"]
    for _ in range(3):                                      # three rounds, then quit to the menu
        round_ = first.round
        while first.round == round_:
            frames(app)
            if app.screen.overlay == "handoff":
                assert f"Tournament game 1 of 2 \u00b7 Round {first.round} of 20" in texts(app)   # how many are left too
                messenger.send("enter")
            elif app.screen.ps is not None and app.screen.ps.ghost is not None:
                place_somewhere(app)
    click(app, "Menu (Esc)" if app.screen.overlay == "handoff" else "Menu (M)")   # the hand-off or the table
    assert "Tournament game 1 of 2 \u00b7 Round 4 of 20: Ana, Bot 2, Ben" in texts(app)   # what Continue resumes
    click(app, "Continue")
    s = app.screen
    assert s.context == {"tournament": tid} and s.match.round == 4 and s.match is not first
    for game in (1, 2):
        s = app.screen
        while app.screen is s:
            frames(app)
            if s.overlay == "handoff":
                messenger.send("enter")
            elif s.ps is not None and s.ps.ghost is not None:
                place_somewhere(app)
        until(app, lambda: app.screen.name == "results")
        if game == 1:
            click(app, "Next game (Enter)")
    t = app.store.tournament(tid)
    assert t.over and [st.played for st in t.standings()] == [2, 2, 2]
    assert [e.scores is not None for e in t.entries()] == [True, True]


def test_results_show_the_best_layout_found_and_step_through_it(app):
    from nmbr9.rules import Board
    from nmbr9.scene.screens import results
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31)
    m.play_out()
    results.ANALYSIS_WIDTH, old = 2, results.ANALYSIS_WIDTH
    try:
        r = app.goto(results.ResultsScreen, match=m, context={})
        until(app, lambda: r.analysis["placements"] is not None, 60)
    finally:
        results.ANALYSIS_WIDTH = old
    frames(app)
    best = Board()
    for p in r.analysis["placements"]:
        best.place(p)                                # a legal layout of this very deck
    assert [p.piece for p in r.analysis["placements"]] == list(m.game.deck)
    assert f"Best found for this deck: {best.score()} points" in texts(app)
    click(app, "Step through it (\u2192)")
    messenger.send("arrow_right")
    assert len(r.table.board.tiles) == 2 and "tile 2 of 20" in texts(app)
    click(app, "A")                                  # back to the player's board: the arrows start the walk
    messenger.send("arrow_left")                     # left: the whole layout
    assert len(r.table.board.tiles) == 20 and "tile 20 of 20" in texts(app)
    click(app, "A")
    messenger.send("arrow_right")                    # right: its first tile
    assert len(r.table.board.tiles) == 1 and "tile 1 of 20" in texts(app)


def results_layout(size: str) -> dict:
    """tests/results_panel_driver.py's measures of the results screen at `size`, in a process of its own (one window
    size a ShowBase): the window's half size and, per language, where the panel, its texts and the board are."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    driver = Path(__file__).resolve().parent / "results_panel_driver.py"
    done = subprocess.run([sys.executable, str(driver), size], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "LANGUAGE": "en"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("size", ["1024x768", "1280x720"])
def test_the_results_panel_is_as_wide_as_its_words_and_the_board_takes_the_rest(size):
    """At 4:3 the score panel took two thirds of the window, empty on its right, and the board (one's own, the best
    layout found) was drawn small beside it. In a process of its own: one window size a ShowBase."""
    found = results_layout(size)
    half_w, _half_h = found.pop("half")
    for language, seen in found.items():
        left, right, bottom, top = seen["panel"]
        assert right <= 0, f"{language}: the panel takes {(right + half_w) / half_w / 2:.0%} of the window's width"
        boxes = seen["texts"]
        for text, (t_left, t_right, t_bottom, t_top) in boxes:   # every word of the panel on it
            assert left <= t_left and t_right <= right and bottom <= t_bottom and t_top <= top, \
                f"{language}: {text!r} runs off the panel"
        for i, (a, (al, ar, ab, at)) in enumerate(boxes):
            for b, (bl, br, bb, bt) in boxes[i + 1:]:
                assert min(ar, br) - max(al, bl) <= 0.005 or min(at, bt) - max(ab, bb) <= 0.005, \
                    f"{language}: {a!r} and {b!r} drawn over each other"
        b_left, b_right, _b_bottom, _b_top = seen["board"]
        assert right < b_left and b_right <= half_w, f"{language}: the board is not in the room beside the panel"
        assert b_right - b_left >= 2 * half_w / 3, f"{language}: the board is drawn less than a third of the window wide"


@pytest.mark.parametrize("size", ["700x1000", "600x900", "1024x768"])
def test_the_results_board_fills_the_room_the_panel_leaves(size):
    """In a tall window the board (one's own, the best layout found) was drawn small at the bottom, a wide gap
    between it and the panel over it: framed with room around it for a next tile, under a line of text that
    isn't there. Its drawn box takes most of the window under the panel (beside it, in a wide window)."""
    found = results_layout(size)
    half_w, half_h = found.pop("half")
    for language, seen in found.items():
        p_left, p_right, p_bottom, _p_top = seen["panel"]
        b_left, b_right, b_bottom, b_top = seen["board"]
        tall = half_h > half_w
        free_left, free_top = (-half_w, p_bottom) if tall else (p_right, half_h)
        free = (half_w - free_left) * (free_top + half_h)
        share = (b_right - b_left) * (b_top - b_bottom) / free
        # beside the panel (a wide window) a board seen from the lower default view is as wide as its room, and
        # less tall
        across = (b_right - b_left) / (half_w - free_left)
        assert share >= (0.5 if tall else 0.35) or not tall and across >= 0.85, \
            f"{language}: the board is drawn in {share:.0%} of the room the panel leaves, {across:.0%} of its width"
        assert b_top <= free_top and b_left >= free_left, f"{language}: the board is drawn under the panel"
        gap = (free_top - b_top) / (free_top + half_h)   # (a wide window's board is as wide as its room)
        assert gap <= 0.2 or not tall, f"{language}: {gap:.0%} of the room left empty between the panel and the board"


def test_the_best_layout_being_stepped_through_keeps_its_words_when_the_screen_is_built_again(app):
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app)
    for _ in range(3):
        messenger.send("arrow_right")
    assert "tile 3 of 20" in texts(app) and len(r.table.board.tiles) == 3
    r.reflow()                                       # as a window of another shape (or language) builds it again
    frames(app)
    assert "tile 3 of 20" in texts(app) and "Ana's board" not in texts(app) and len(r.table.board.tiles) == 3
    messenger.send("arrow_right")                    # and the walk goes on from there
    assert "tile 4 of 20" in texts(app)


def test_the_step_through_button_says_its_key_and_home_end_go_to_the_first_and_last_tile(app):
    """A keyboard-only player saw "Step through it" with no key, beside "Menu (Esc)" and "Rematch
    (Enter)"; and only the arrows, one tile at a time, went from the first tile to the last."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app)
    assert "Step through it (\u2192)" in buttons(app)
    messenger.send("end")
    assert "tile 20 of 20" in texts(app) and len(r.table.board.tiles) == 20
    messenger.send("home")
    assert "tile 1 of 20" in texts(app) and len(r.table.board.tiles) == 1
    messenger.send("arrow_right")
    messenger.send("end")
    assert "tile 20 of 20" in texts(app)


def test_clicking_step_through_it_again_lays_the_next_tile_of_the_best_layout(app):
    """A mouse player clicked "Step through it" again and again and stayed at tile 1 of 20: only the arrow keys
    went on. A click goes on as → does; from the whole layout it starts again at its first tile."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app)
    click(app, "Step through it (\u2192)")
    assert "tile 1 of 20" in texts(app) and len(r.table.board.tiles) == 1
    click(app, "Step through it (\u2192)")
    click(app, "Step through it (\u2192)")
    assert "tile 3 of 20" in texts(app) and len(r.table.board.tiles) == 3
    messenger.send("end")
    click(app, "Step through it (\u2192)")
    assert "tile 1 of 20" in texts(app) and len(r.table.board.tiles) == 1


def test_camera_sensitivity_scales_the_keys_turns_and_tilts_at_the_table_and_in_the_results(app):
    """Settings' camera sensitivity changed only a right drag: A D W S turned the table 10 degrees a press at any
    setting, so it did nothing for a keyboard player. A zoom step stays the same (see view_keys)."""
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.settings import SettingsScreen
    app.goto(SettingsScreen)
    assert "Camera sensitivity: how far a right drag and A D W S turn and tilt the table." in texts(app)
    app.settings = app.settings.changed(camera_sensitivity=2.5)
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    c = app.screen.camera
    heading, pitch, zoom = c.heading, c.pitch, c.zoom
    messenger.send("d")
    messenger.send("s")
    assert (c.heading - heading, c.pitch - pitch) == pytest.approx((25, -15))   # 10 and 6 at sensitivity 1
    messenger.send("+")
    assert c.zoom == pytest.approx(zoom * 0.88)
    m = app.store.new_match([Seat("Ben", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    r.job.stop()
    frames(app)
    heading = r.camera.heading
    messenger.send("a")
    assert (r.camera.heading - heading) % 360 == pytest.approx(360 - 25)


def test_a_right_drag_turns_and_tilts_the_board_in_the_results(app, monkeypatch):
    """At the table a right drag turns the view; in the results it did nothing: a mouse player could only zoom
    a board, never look at its lower levels from another side."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    r.job.stop()
    frames(app)
    pointer = [(0.2, 0.0)]
    monkeypatch.setattr("nmbr9.scene.play.pointer_in", lambda base: pointer[0])   # (offscreen there is none)
    view = (r.camera.heading, r.camera.pitch)
    messenger.send("mouse3")
    pointer[0] = (0.5, 0.3)
    frames(app)
    turned = (r.camera.heading, r.camera.pitch)
    assert turned[0] != view[0] and turned[1] != view[1]
    messenger.send("mouse3-up")
    pointer[0] = (-0.4, -0.5)                    # let go: the pointer moves the board no more
    frames(app)
    assert (r.camera.heading, r.camera.pitch) == turned


def test_tab_in_the_results_shows_each_players_board_and_the_best_layout_in_turn(app):
    """Stepping through the best layout, a keyboard-only player could not see their own board again (a click on
    the name shows it), nor another player's board at all."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy"), Seat("Ben", "bot:medium")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    best = list(m.board(1).tiles)   # (Ben's layout stands in for the best found)
    analysis_found(r, best)
    frames(app)
    first, second = (m.names[res.seat] for res in r.results)   # in the results' order, the winner first

    def shown() -> tuple[str, list]:
        return next(line for line in texts(app).splitlines() if "board" in line or "Best found: tile" in line), \
            list(r.table.board.tiles)
    messenger.send("arrow_right")
    messenger.send("arrow_right")
    assert "tile 2 of 20" in shown()[0] and shown()[1] == best[:2]
    messenger.send("tab")   # (the line under the board says so)
    keys = "  \u00b7  Tab: another board  \u00b7  H: show the controls"
    assert shown() == (f"{first}'s board{keys}", list(m.board(m.names.index(first)).tiles))
    messenger.send("tab")
    assert shown() == (f"{second}'s board{keys}", list(m.board(m.names.index(second)).tiles))
    messenger.send("tab")
    assert shown()[1] == best and "tile 20 of 20" in shown()[0]   # the best layout, all of it
    messenger.send("shift-tab")
    assert shown()[0].startswith(f"{second}'s board")


def test_h_on_the_results_shows_the_boards_controls_with_the_board_framed_above_them(app):
    """At the results H (the table's controls) did nothing, and nothing on the screen said that the board there
    turns, tilts, zooms and shows its levels: the line under the board offers H, and H shows those keys, the
    board framed above them; H again folds them."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app, 3)
    folded_room = r.camera.room

    def under_the_board() -> str:
        return r.walk_label["text"].replace("\u00a0", " ")   # (a key's words are kept together on their line)
    assert under_the_board().endswith("H: show the controls")
    assert "Right drag, A D W S: turn and tilt the view" not in texts(app)
    messenger.send("h")
    frames(app, 3)
    shown = texts(app)
    assert "Right drag, A D W S: turn and tilt the view" in shown and "L: each tile's level" in shown
    assert "H: show the controls" not in under_the_board()
    from nmbr9.scene.screens.widgets import drawn
    legend, line = drawn(r.legend, app.base.render2d), drawn(r.walk_label, app.base.render2d)
    assert legend[2] > line[3], "the controls run into the line under the board"
    assert r.camera.room[2] >= legend[3] - 1e-6, "the board is framed behind the controls"
    messenger.send("shift-h")                        # (the key help writes it in capitals)
    frames(app, 3)
    assert "Right drag, A D W S: turn and tilt the view" not in texts(app) and r.camera.room == folded_room


def test_the_results_board_turns_tilts_zooms_and_shows_its_levels_with_the_tables_keys(app):
    """Stepping through the best layout (tiles stacked up to level 3) a player pressed A, D, W, the wheel and L as at the
    table: nothing moved, and which tile lay on which level could not be seen."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ana", "bot:medium")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app)
    messenger.send("end")                            # the whole best layout on the table

    def sampled() -> list:
        frames(app, 3)
        shot = picture(app)
        return [shot.getXel(x, y) for x in range(0, shot.getXSize(), 4) for y in range(0, shot.getYSize(), 4)]
    for key in ("d", "w", "page_up", "wheel_down", "l"):
        before = sampled()
        messenger.send(key)
        after = sampled()
        assert sum(a != b for a, b in zip(before, after)) > 50, f"{key} changed nothing on the screen"
    assert r.table.levels.getNumChildren() > 0       # L: the tiles' level badges
    assert "tile 20 of 20" in texts(app)             # the layout stayed as it was


def test_the_best_found_is_never_less_than_what_a_player_laid():
    """docs/table-game.json: the hard bot's 113 on its deck, more than a short search finds (105)."""
    from nmbr9.paths import ROOT
    from nmbr9.rules import Board
    from nmbr9.rules.record import load_record, replay
    from nmbr9.scene.analysis_job import AnalysisJob
    game = replay(load_record(ROOT / "docs" / "table-game.json")).game
    job = AnalysisJob(game.deck, 1, [game.boards[0].tiles])
    deadline = time.monotonic() + 60
    while job.placements is None and job.error is None and time.monotonic() < deadline:
        job.poll()
        time.sleep(0.05)
    job.stop()
    best = Board()
    for p in job.placements:
        best.place(p)
    assert best.score() == game.boards[0].score() == 113


def test_a_solo_game_from_the_command_line_reads_as_player_1s(app):
    from nmbr9.scene.game_app import solo_match
    app.play(solo_match(app.store, 5))              # `nmbr9 play --seed 5`
    play_to_results(app)
    frames(app)
    assert "Player 1's board" in texts(app) and "You's" not in texts(app)


def test_results_of_four_levels_keep_the_levels_clear_of_the_total_and_the_verdict(app):
    """Four levels in German ran under the total ("Ebene 1: 2" over "109") at 800x600 as at 1280x720."""
    from nmbr9.i18n import _
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.widgets import box, overlap
    m = app.store.new_match([Seat("Ana", "bot:hard"), Seat("Ben", "bot:hard")], seed=12)
    m.play_out()
    assert max(len(r.by_level) for r in m.results()) == 5          # levels 0 to 4
    set_language("de")
    r = app.goto(ResultsScreen, match=m, context={})
    r.job.stop()
    frames(app, 3)

    def ink(label):   # the words' own box (a label's text is drawn outside the scene graph)
        low, high = label.component("text0").getTightBounds()
        return box(label, app.base.aspect2d, (low.x, high.x, low.z, high.z))
    for result, detail, total, verdict in r.lines:
        assert _("level {level}: {points}").format(level=1, points=result.by_level[1]) in detail["text"]   # all counted
        assert not overlap(ink(detail), ink(total), 0.01), (detail["text"], total["text"])
        assert not overlap(ink(detail), ink(verdict)), (detail["text"], verdict["text"])
    last_verdict = ink(r.lines[0][3])
    next_name = box(next(b for b in list(DirectGuiWidget.guiDict.values())
                         if b.getPythonTag("seat") == r.lines[1][0].seat), app.base.aspect2d)
    assert not overlap(last_verdict, next_name), "the first board's verdict runs into the next name"


def test_the_last_games_standings_keep_each_sentence_on_one_line(app):
    """The panel was only as wide as the boards' words: "This tournament is over: ... wins it." broke before
    "it." and a long name's standing before "points, 0 wins"."""
    from nmbr9.scene.screens.results import ResultsScreen
    t = app.store.new_tournament([Seat("Maximiliane Wolkenstein", "bot:easy"), Seat("Bo", "bot:easy")], games=1,
                                 seed=5)
    match = app.store.tournament_match(t)
    match.play_out()
    r = app.goto(ResultsScreen, match=match, context={"tournament": t.id})
    frames(app, 3)
    lines = r.extra_label["text"].splitlines()
    assert t.over and "This tournament is over" in lines[1] and any("Wolkenstein (easy): " in line for line in lines)
    assert r.extra_label.component("text0").textNode.getNumRows() == len(lines)


def test_six_players_results_in_a_tournament_keep_the_standings_clear_of_the_buttons(app):
    """With six boards of three lines each, a tournament's standings ran under Menu and Next game and off the
    window: each board's result now stands between its name and its total."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.scene.screens.widgets import box, overlap
    names = ("Maximiliana", "Ben", "Carla", "Dorota", "Eusebio", "Franziska")
    app.store.new_tournament([Seat(n, "bot:easy") for n in names], games=2, seed=5)
    app.goto(TournamentScreen)
    click(app, "Play the first game")
    until(app, lambda: app.screen.name == "results", timeout=120)
    r = app.screen
    r.job.stop()
    frames(app, 3)

    def ink(label):   # the words' own box (a label's text is drawn outside the scene graph)
        low, high = label.component("text0").getTightBounds()
        return box(label, app.base.aspect2d, (low.x, high.x, low.z, high.z))
    widgets = [w for w in DirectGuiWidget.guiDict.values() if not w.isEmpty() and r.root.isAncestorOf(w)]
    buttons_ = [box(w, app.base.aspect2d) for w in widgets if w.hascomponent("text0")
                and w["text"] in ("Menu (Esc)", "Next game (Enter)")]
    assert len(buttons_) == 2 and "6. " in r.extra_label["text"]
    assert all(not overlap(ink(r.extra_label), b) for b in buttons_), "the standings run under the buttons"
    assert ink(r.extra_label)[2] > -1.0   # above the window's bottom
    for (result, detail, total, verdict), nxt in zip(r.lines, r.lines[1:] + [None]):
        assert verdict["text"] and not overlap(ink(verdict), ink(total)) and not overlap(ink(verdict), ink(detail))
        if nxt is not None:
            name = next(w for w in widgets if w.getPythonTag("seat") == nxt[0].seat)
            assert not overlap(ink(detail), box(name, app.base.aspect2d)), "a board's levels run into the next name"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_tournaments_last_results_show_every_line_clear_of_the_others_in_any_window(app, monkeypatch, players):
    """At 800x600, the last game of a tournament of five long names, two of them with a new personal best
    ("Place 2  ·  new personal best! (before: 12)", too long beside the name): three lines a board, and the
    standings ran behind Menu, their last line hidden. Each board's result now stands beside its name, its place
    over the player's best. Every text of the score panel is in the window, over no other text or button, for
    2 to 6 players, in English and German, in 4:3 windows (640x480 to 1024x768 lay out alike) and a tall
    700x1000."""
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.widgets import box, overlap, window_room
    from nmbr9.store.records import record_score
    names = ("Maximiliane-Josephine", "Bartholomaeus-Friedrich", "Konstantinopolitanus", "Wilhelmina-Charlotte",
             "Alexandrina-Victoria", "Friederike-Adelheid")[:players]
    seats = [Seat(n) if i in (0, 1, 5) else Seat(n, "bot:easy") for i, n in enumerate(names)]
    t = app.store.new_tournament(seats, games=1, seed=3)
    m = app.store.tournament_match(t)
    for i, seat in enumerate(seats):   # an earlier game of 12 points: this one is a new personal best
        if not seat.is_bot:
            record_score(app.store.db, seat.name, m.game.ruleset.to_json(), 12, "earlier", i, "2026-01-01T00:00:00")
    while not m.over:
        if m.current_human is not None:
            seat = m.current_human   # (as high as it goes: more than 12 points)
            m.play(seat, max(m.legal_placements(seat), key=lambda p: (p.level, -abs(p.x) - abs(p.y))))
        else:
            m.run_bots()

    def ink(w):   # a label's words, a button's frame
        if w.__class__.__name__ == "DirectButton":
            return box(w, app.base.aspect2d)
        low, high = w.component("text0").getTightBounds()
        return box(w, app.base.aspect2d, (low.x, high.x, low.z, high.z))
    for language in ("en", "de"):
        set_language(language)
        r = app.goto(ResultsScreen, match=m, context={"tournament": t.id})
        analysis_found(r, list(max(m.boards, key=lambda b: b.score()).tiles))   # its button shown too
        for aspect in (4 / 3, 0.7):
            monkeypatch.setattr(app.base, "getAspectRatio", lambda win=None: aspect)
            r.window_changed()
            frames(app, 3)
            panel = r.root.find("**/score panel")
            shown = [(w["text"], ink(w)) for w in list(DirectGuiWidget.guiDict.values())
                     if not w.isEmpty() and panel.isAncestorOf(w) and w.hascomponent("text0")
                     and isinstance(w["text"], str) and w["text"].strip() and not w.isHidden()]
            assert any("new personal best" in v["text"] or "Rekord" in v["text"] for _r, _d, _t, v in r.lines)
            assert any(text.startswith(r.extra_label["text"][:20]) for text, _b in shown)   # the standings
            half_w, half_h = window_room(app.base)
            where = (language, round(aspect, 2))
            for text, (left, right, bottom, top) in shown:
                assert -half_w <= left and right <= half_w and -half_h <= bottom and top <= half_h, \
                    f"{where}: {text!r} runs out of the window"
            for i, (a, box_a) in enumerate(shown):
                for b, box_b in shown[i + 1:]:
                    assert not overlap(box_a, box_b), f"{where}: {a!r} and {b!r} drawn over each other"
        monkeypatch.undo()
        r.window_changed()


def test_solo_results_compare_the_best_layout_with_you_not_a_winner(app):
    from nmbr9.puzzle import turn
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, [turn(p, 2) for p in m.board(0).tiles])   # another layout (turned about) of the same score
    frames(app)
    assert f"Best found for this deck: {m.game.scores()[0]} points (you matched it)" in texts(app)
    assert "winner" not in texts(app)


def test_the_best_found_that_is_the_players_own_game_is_said_to_be(app):
    """Where the search found no better layout, the player's own game came back as the best found and the results
    said "94 points (you matched it)": stepping through it, or Tab to it, showed the player's own board, as if
    the search had found the very same. It says it is their own game."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    tiles = m.board(0).tiles
    analysis_found(r, [p._replace(x=p.x - tiles[0].x, y=p.y - tiles[0].y) for p in tiles])   # as the search lays it
    frames(app)
    score = m.game.scores()[0]
    assert f"Best found for this deck: {score} points, your own game (the search found none better)" in texts(app)
    assert "matched" not in texts(app)
    m = app.store.new_match([Seat("Ana", "bot:easy"), Seat("Bo", "bot:medium")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    winner = r.results[0]
    analysis_found(r, list(m.board(winner.seat).tiles))
    frames(app)
    assert f"{winner.score} points, {winner.name}'s own game (the search found none better)" in \
        texts(app).replace("\n", " ")


def test_results_with_modules_say_the_best_found_plays_the_base_game(app):
    """After a game with start tiles and gap fillers the results said "Best found for this deck: 0 points (you
    beat it)": the search plays the base game only, which the player could not tell."""
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31, ruleset=Ruleset(modules=("start_tiles", "gap_fillers")))
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, [])                            # a base-game layout of no points: beaten
    frames(app)
    assert m.game.scores()[0] > 0
    assert "Best found for this deck in the base game: 0 points (you beat it)" in texts(app)


def test_solo_results_say_how_the_game_stands_against_the_players_best(app):
    def solo(seed: int, practice: bool = False) -> int:
        app.play(app.store.new_match([Seat("Ana")], seed=seed, practice=practice))
        play_to_results(app)
        frames(app, 5)
        return app.screen.results[0].score

    def verdict() -> str:
        return app.screen.lines[0][3]["text"].replace("\u00a0", " ")   # (a no-break space reads as a space)

    first = solo(41)
    assert verdict() == "your first game under these rules"          # alone: no "Wins"
    solo(42, practice=True)                        # tiles can be taken back there: it does not count, and says so
    assert verdict() == "practice game: not counted for personal bests"
    second = solo(43)
    today = datetime.now(timezone.utc).date().isoformat()
    said = f"new personal best! (before: {first})" if second > first else f"your best: {first} ({today})"
    assert verdict() == said
    app.goto(type(app.screen), match=app.screen.match, context={})     # the same results again
    frames(app, 5)
    assert verdict() == said                       # still against the best before this game
    assert app.store.db.execute("SELECT count(*) FROM personal_scores WHERE player = 'Ana'").fetchone()[0] == 2


def test_practice_results_tell_the_human_why_no_personal_best_is_shown(app):
    """The results of a practice game showed no personal-best line and nothing said why: the player was left to
    wonder whether their score had been kept. The human's line now says practice does not count (a bot's, no)."""
    from nmbr9.scene.screens.widgets import box, overlap
    app.play(app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=42, practice=True))
    play_to_results(app)
    r = app.screen
    r.job.stop()
    frames(app, 5)

    def ink(label):   # the words' own box
        low, high = label.component("text0").getTightBounds()
        return box(label, app.base.aspect2d, (low.x, high.x, low.z, high.z))
    said = {res.kind: verdict["text"].replace("\u00a0", " ") for res, _d, _t, verdict in r.lines}
    assert said["human"].endswith("practice game: not counted for personal bests"), said
    assert "practice" not in said["bot:easy"], said
    for _res, detail, total, verdict in r.lines:
        assert not overlap(ink(verdict), ink(total)) and not overlap(ink(verdict), ink(detail))
    assert app.store.db.execute("SELECT count(*) FROM personal_scores WHERE player = 'Ana'").fetchone()[0] == 0


@pytest.mark.parametrize("variant", ["two_of_three", "level_to_level"])
def test_results_of_a_variant_say_the_best_layout_is_searched_only_in_the_base_game(app, variant):
    """It said "Best found for the deck: searched only in the base game, ...", which reads as if a score
    followed: it now says there is none."""
    from nmbr9.rules import Ruleset
    from nmbr9.scene.screens import results
    m = app.store.new_match([Seat("A", "bot:easy")], seed=32, ruleset=Ruleset(variant))
    m.play_out()
    r = app.goto(results.ResultsScreen, match=m, context={})
    frames(app, 5)
    assert r.job is None and r.analysis["error"] is None
    assert "No best layout for this deck: the search plays only the base game, one card a round." in texts(app)
    assert "Best found" not in texts(app)
    assert "failed" not in texts(app)
    # "2 of 3" has no level markers: it said "The game ended after round 10: level marker 0 became active, and
    # the 0 cards left can't fill every active marker."
    assert "The game ended" not in texts(app) and "level marker" not in texts(app)


def test_a_finished_tournament_game_can_be_reviewed_from_the_history(app):
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("A", "bot:easy"), Seat("B", "bot:easy")], games=2, seed=8)
    for _ in range(2):
        app.store.tournament_match(t).play_out()
    app.goto(TournamentScreen)
    scores = app.store.tournament(t.id).entries()[0].scores
    click(app, f"Game 1: A {scores[0]}, B {scores[1]}")
    r = app.screen
    assert r.name == "results" and [x.score for x in sorted(r.results, key=lambda x: x.seat)] == scores
    # which game this is: the first (it said "game 2 of 2 played", the tournament's progress, read as this game's)
    assert "Tournament 1: game 1 of 2, the best 2 count" in texts(app) and "2 of 2 played" not in texts(app)
    click(app, "Back to the tournament (Enter)")
    assert app.screen.name == "tournament" and app.screen.chosen == t.id


def test_every_game_of_a_long_tournament_can_be_reviewed_and_back_on_its_page(app):
    """A club's twelve-game tournament: the page listed its last seven games only, with no word of the others,
    so the first games could not be reviewed. Older and Newer turn the games' pages; back from a game's
    results the page holding it is shown."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("A", "bot:easy"), Seat("B", "bot:easy")], games=12, seed=8)
    for _ in range(9):
        app.store.tournament_match(t).play_out()
    games = {g.number: f"Game {g.number}: A {g.scores[0]}, B {g.scores[1]}" for g in app.store.tournament(t.id).entries()}
    app.goto(TournamentScreen)
    shown = buttons(app)
    assert [n for n in games if games[n] in shown] == [4, 5, 6, 7, 8, 9] and "4–9 of 9" in texts(app)
    assert "Newer" not in shown, "the latest games: none later"
    s = app.screen
    assert s.keys.find((s.turn_games, (1,)))       # walked to Older, Space
    messenger.send("space")
    frames(app)
    shown = buttons(app)
    assert [n for n in games if games[n] in shown] == [1, 2, 3] and "1–3 of 9" in texts(app)
    assert "Older" not in shown and "Newer" in shown
    assert s.keys.current() == (s.turn_games, (-1,)), "at the earliest games the keyboard is on Newer"
    click(app, games[1])
    assert app.screen.name == "results"
    click(app, "Back to the tournament (Enter)")
    assert app.screen.name == "tournament" and games[1] in buttons(app)


def test_a_long_tournament_name_in_the_history_is_cut_short_not_its_progress(app):
    """A club's long tournament name: its history button was cut at its end, "… — Autumn  (1 of 12…", hiding how
    far it had got. The name is cut short now, never the progress."""
    from nmbr9.scene.screens.tournament import TournamentScreen
    name = "Ünïversität Łódź Club Championship — Autumn Series"
    t = app.store.new_tournament([Seat("A", "bot:easy"), Seat("B", "bot:easy")], games=12, seed=8, name=name)
    app.store.tournament_match(t).play_out()
    app.store.new_tournament([Seat("A", "bot:easy")], games=1, seed=1, name="Cup")
    app.goto(TournamentScreen)
    [shown] = [b for b in buttons(app) if b.endswith("  (1 of 12 played)")]
    assert shown.startswith("Ünïversität Łódź Club") and "…" in shown
    assert "Cup  (0 of 1 played)" in buttons(app), "a short name is not cut"


def test_a_game_that_could_not_be_saved_is_still_continued_from_the_menu(app, monkeypatch):
    """The data folder refuses the autosave: Menu then Continue brings the game back as it is, and the
    menu says the game is kept only until the program ends."""
    from nmbr9.store import Autosave, SaveError
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=23)

    def refused(self, match):
        raise SaveError("Could not save autosave.json: Permission denied. The previous copy is kept.")
    monkeypatch.setattr(Autosave, "save", refused)
    app.play(m)
    for _ in range(2):
        place_somewhere(app)
    until(app, lambda: m.round == 3)
    click(app, "Menu (M)")
    assert "Continue" in buttons(app) and "Permission denied" in texts(app) and "until you quit" in texts(app)
    quits = []
    monkeypatch.setattr(app, "quit", lambda: quits.append(True))
    app.menu()                                    # Esc would lose that game: it only walks to Quit
    assert "Esc, Enter: quit" in texts(app)
    messenger.send("escape")
    assert not quits and app.screen.keys.current() == (app.screen.choose, (app.quit,))
    messenger.send("enter")
    assert quits == [True]
    click(app, "Continue")
    assert app.screen.name == "play" and app.screen.match.record()["moves"] == m.record()["moves"]
    click(app, "Menu (M)")
    click(app, "New game")
    click(app, "Start (Enter)")                   # another game: the unsaved one is given up
    click(app, "Menu (M)")
    assert app.screen.resume is not m


def test_the_hand_off_screen_says_the_game_could_not_be_saved(app, monkeypatch):
    from nmbr9.store import Autosave, SaveError

    def refused(self, match):
        raise SaveError("Could not save autosave.json: No space left on device.")
    monkeypatch.setattr(Autosave, "save", refused)
    m = app.store.new_match([Seat("Ana"), Seat("Ben")], seed=11)
    s = app.play(m)
    frames(app)
    if s.overlay == "handoff":                    # to Ana (the new game could not be saved either)
        pass_the_table(app)
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    place_somewhere(app)
    until(app, lambda: s.overlay == "handoff")     # to Ben, after Ana's tile could not be saved
    assert s.table.root.isHidden() and "No space left on device" in texts(app)


def test_the_results_say_when_the_last_tile_could_not_be_saved(app, monkeypatch):
    from nmbr9.match import Match
    from nmbr9.store import SaveError
    from nmbr9.scene.screens.results import ResultsScreen

    class Refusing:
        def save(self, match):
            if match.over:
                raise SaveError("Could not save autosave.json: No space left on device. The previous copy is kept.")
    m = Match.new([Seat("A", "bot:easy")], seed=31, savers=[Refusing()])
    m.play_out()
    assert m.save_error
    app.goto(ResultsScreen, match=m, context={})
    frames(app)
    assert "No space left on device" in texts(app)


def test_the_results_say_once_that_the_scores_could_not_be_stored(app, monkeypatch, tmp_path):
    """A full disk at the last tile: neither the autosave nor the database could be written. The results
    said "The game's scores could not be stored for personal bests: ..." twice, once after the autosave's
    problem (the last tile's save) and once on a line of its own (the results' own try)."""
    from test_match import play
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.store import Autosave, SaveError

    def full(self, match):
        raise SaveError("Could not save autosave.json: No space left on device. The previous copy is kept.")
    monkeypatch.setattr(Autosave, "save", full)
    (tmp_path / "data" / "nmbr9.sqlite3").mkdir(parents=True)   # a database SQLite can't use, like a full disk
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=31, threaded=False)
    play(m)
    assert m.over and "No space left on device" in m.save_error
    app.goto(ResultsScreen, match=m, context={})
    frames(app)
    said = texts(app)
    assert "No space left on device" in said
    assert said.count("could not be stored for personal bests") == 1, said


def test_a_full_disk_at_the_next_tournament_game_is_said_not_a_crash(app, monkeypatch):
    import sqlite3
    from nmbr9.store import Tournament
    t = app.store.new_tournament([Seat("Bot", "bot:easy")], games=2, seed=5)
    app.play(app.store.tournament_match(t), {"tournament": t.id})
    until(app, lambda: app.screen.name == "results", 60)

    def full(self, *args, **kw):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Tournament, "next_match", full)
    app.screen.shown_step = len(app.screen.levels)           # the scores are counted
    click(app, "Next game (Enter)")
    assert app.screen.name == "results" and "database or disk is full" in texts(app)
    monkeypatch.undo()
    click(app, "Next game (Enter)")                           # room again: the next game starts
    assert app.screen.name == "play" and app.screen.match.tournament == {"id": t.id, "game": 2}


def test_a_tournament_game_whose_end_was_not_stored_is_stored_before_the_next_game(app, monkeypatch):
    """A full disk at the last tile: Next game used to resume that game from its last stored round."""
    from nmbr9.store import SaveError
    from nmbr9.store.tournaments import TournamentSaver
    t = app.store.new_tournament([Seat("Bot", "bot:easy")], games=2, seed=5)
    m = app.store.tournament_match(t)
    real = TournamentSaver.save

    def full_at_the_end(self, match):
        if match.over:
            raise SaveError("Could not save the tournament game: database or disk is full")
        real(self, match)
    monkeypatch.setattr(TournamentSaver, "save", full_at_the_end)
    app.play(m, {"tournament": t.id})
    until(app, lambda: app.screen.name == "results", 60)
    app.screen.shown_step = len(app.screen.levels)
    click(app, "Next game (Enter)")
    assert app.screen.name == "results" and "database or disk is full" in texts(app)
    monkeypatch.undo()
    click(app, "Next game (Enter)")                           # room again: game 1 stored, then game 2
    assert app.screen.name == "play" and app.screen.match.tournament == {"id": t.id, "game": 2}
    assert [e.scores == [r.score for r in m.results()] for e in app.store.tournament(t.id).entries()][:1] == [True]


def test_another_program_holding_the_database_never_stalls_the_window_and_the_writes_land_after(app):
    """Another program held the database's write lock (BEGIN EXCLUSIVE): every use of it waited SQLite's 10 s,
    the frames with it (the last tile 10.8 s, the results 21.5 s, the menu 12 s). Now the frames go on, the
    player is told once, and the writes land once the lock goes: the results fill in the standings."""
    from test_match import play
    from nmbr9.store.db import FILENAME
    from helpers import database_held
    t = app.store.new_tournament([Seat("Ana")], games=2, seed=5)
    m = app.store.tournament_match(t, threaded=False)
    play(m, humans=19)
    app.play(m, {"tournament": t.id})
    until(app, lambda: app.screen.ps is not None and app.screen.ps.ghost is not None)   # (the table set up)
    slowest = []

    def timed_frames(n=1):
        for _frame in range(n):
            start = time.monotonic()
            frames(app, 1)
            slowest.append(time.monotonic() - start)
    database = app.store.folder / FILENAME
    with database_held(database):
        ps = app.screen.ps
        ps.rotation, ps.x, ps.y, ps.held = (lambda p: (p.rotation, p.x, p.y, False))(m.legal_placements(0)[0])
        ps.update()
        start = time.monotonic()
        messenger.send("enter")   # the last tile: its game's end and Ana's score wait for the database
        slowest.append(time.monotonic() - start)
        while app.screen.name != "results":
            timed_frames()
        timed_frames(10)
        # each write waited 10 s; a frame here takes 0.05 s, 2.5 s on a machine loaded 17 deep (the table's shadows)
        assert max(slowest) < 8, slowest
        assert "Another program is using the game's database: your results are kept" in texts(app)
        assert "game 0 of 2 played" in texts(app) and "None." not in texts(app)   # (no place before a game)
        assert app.store.tournament(t.id).played == 0
        app.screen.shown_step = len(app.screen.levels)   # the scores counted: Next game would resume game 1
        click(app, "Next game (Enter)")                   # from its last stored round, its last tile lost
        assert app.screen.name == "results" and "The tournament's last game waits to be stored" in texts(app)
    until(app, lambda: "game 1 of 2 played" in texts(app), 5)   # landed: the standings filled in
    assert app.store.tournament(t.id).entries()[0].scores == [m.results()[0].score]
    assert [tuple(r) for r in app.store.db.execute("SELECT player, score FROM personal_scores")] == \
        [("Ana", m.results()[0].score)]
    with database_held(database):   # nothing waiting to be written: the menu and the tournaments only read
        slowest.clear()
        start = time.monotonic()
        app.menu()
        slowest.append(time.monotonic() - start)
        timed_frames(5)
        start = time.monotonic()
        click(app, "Tournament")
        slowest.append(time.monotonic() - start)
        timed_frames(5)
        assert app.screen.name == "tournament" and max(slowest) < 8, slowest
        start = time.monotonic()
        click(app, "Continue the tournament")   # its next game is a row to write: refused at once, in words
        assert time.monotonic() - start < 8 and app.screen.name == "tournament"
        assert "another program is using it; try again once it has finished" in texts(app)
    click(app, "Continue the tournament")
    assert app.screen.name == "play" and app.screen.match.tournament == {"id": t.id, "game": 2}


def test_a_tournament_of_0_games_is_refused_not_made_a_1_game_tournament(app):
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen, tournament=True)
    s.games_entry.set("0")
    click(app, "Start (Enter)")
    assert app.screen.name == "setup" and "A tournament has at least one game." in texts(app)
    assert "counts the best" not in texts(app)     # it said "and counts the best 1 to 1" of 0 games
    assert app.store.tournaments() == []


def test_the_status_line_stays_under_a_refusal_of_several_lines_as_the_tile_moves(app):
    from nmbr9.rules import Placement
    set_language("de")   # longer sentences: the refusal takes three lines in this 640x360 window
    m = app.store.new_match([Seat("Ana")], seed=5)
    s = app.play(m)
    for _ in range(3):
        place_somewhere(app)
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)

    def box(w):   # the bottom and top of a label's frame on the screen (aspect2d)
        _left, _right, bottom, top = w.getBounds()
        return (app.base.aspect2d.getRelativePoint(w, (0, 0, bottom)).z,
                app.base.aspect2d.getRelativePoint(w, (0, 0, top)).z)

    def apart() -> bool:
        verdict, status = box(s.hud.verdict), box(s.status)
        return verdict[0] > status[1] or status[0] > verdict[1]
    x0, y0, x1, y1 = m.board(0).bounds()
    ps.x, ps.y = x1 + 6, y0                  # away from the build
    ps.update()
    s.set_status("Your tile is on the hint's spot: Enter lays it.")
    frames(app, 3)
    assert "angrenzen" in s.hud.verdict["text"] and apart()
    overhang = next((r, x, y) for r in (0, 90, 180, 270) for x in range(x0 - 2, x1 + 2) for y in range(y0 - 2, y1 + 2)
                    if m.game.check(0, Placement(m.card, r, x, y)).code == "not_supported")
    ps.rotation, ps.x, ps.y = overhang       # onto the build: another refusal
    ps.update()
    frames(app, 3)
    assert "Unter einem Teil" in s.hud.verdict["text"] and apart()


def test_the_puzzles_page_shows_one_puzzle_highlit_as_the_keyboard_walks_them(app):
    """Puzzle A and Puzzle B were both green, the lit one a lighter green: which one Space would play could not be
    told. Read off the rendered window: of the three puzzles only the keyboard's is green, as in the menu."""
    import datetime as dt
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    s = app.goto(PuzzleScreen)
    titles = ["Puzzle A", "Puzzle B", f"Daily puzzle, {dt.date.today().isoformat()}"]
    puzzles = [buttons(app)[title] for title in titles]
    for walked, puzzle in enumerate((*s.offered, s.daily)):
        assert s.keys.current() == (s.play, (puzzle,))
        colours = [button_colour(app, b) for b in puzzles]
        green = [title for title, c in zip(titles, colours) if c.y > c.x + 0.05 and c.y > c.z + 0.05]
        assert green == [titles[walked]], colours
        messenger.send("arrow_down")


def test_the_keyboard_alone_picks_a_puzzle_or_plays_a_code(app):
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    import datetime as dt
    app.goto(PuzzleScreen)
    s = app.screen
    assert s.keys.current() == (s.play, (s.offered[0],))       # at first on Puzzle A
    assert "Tab or arrow keys walk the page, Space presses" in texts(app)
    messenger.send("arrow_down")
    messenger.send("arrow_down")
    assert s.keys.current() == (s.play, (s.daily,))
    messenger.send("arrow_down")                                # the code's field takes the typing
    frames(app)
    assert s.code_entry["focus"]
    s.code_entry.set("not a code")
    s.code_entry["focus"] = 0                                   # Enter in the field: it lets go and plays the code
    s.play_code()
    messenger.send("enter")                                     # the same Enter, which presses no button
    frames(app)
    assert app.screen is s and "A puzzle code has 12 letters" in texts(app)
    assert s.code_entry["focus"] and s.code_entry.get() == "not a code"   # to be corrected at once
    messenger.send("tab")
    messenger.send("space")                                     # Play this code
    frames(app)
    assert app.screen is s and "A puzzle code has 12 letters" in texts(app)
    assert s.keys.current() == (s.play_code, ())                # still there after the sentence
    s.code_entry.set(daily_puzzle(dt.date.today()).code)
    messenger.send("enter")
    frames(app)
    assert app.screen.name == "play" and app.screen.context == {"puzzle": daily_puzzle(dt.date.today()).code}


def test_a_space_typed_in_a_clicked_name_field_presses_no_button(app):
    """A click in a field gives it the typing without the widget's `focus` option (Panda3D's PGEntry
    takes the focus itself): "Ana Maria" typed there added a player, Space pressing the button the
    keyboard's highlight was on, and the rebuilt page dropped the rest of the name."""
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    s = app.screen
    click(app, "Add a player")                    # the highlight stays on Add a player
    s.keys.find(s.keys._doing(buttons(app)["Add a player"]))
    s.entries[0].guiItem.setFocus(True)           # what a click in the field does
    messenger.send("space")
    frames(app)
    assert len(s.rows) == 2 and app.screen is s
    messenger.send("enter")                       # Enter still starts, from the field too
    frames(app)
    assert app.screen.name == "play"


def test_a_wrong_code_typed_in_the_clicked_field_and_enter_starts_no_puzzle(app):
    """The code's field clicked with the mouse (the keyboard's highlight still on Puzzle A), a wrong
    code typed and Enter: the sentence came, and the same Enter then started Puzzle A."""
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    app.goto(PuzzleScreen)
    s = app.screen
    assert s.keys.current() == (s.play, (s.offered[0],))
    s.code_entry["focus"] = 1                                   # clicked: it takes the typing
    s.code_entry.set("ABCD")
    s.code_entry["focus"] = 0                                   # Enter in the field: it lets go and plays the code
    s.play_code("ABCD")                                         # (the field's command gets its text)
    messenger.send("enter")                                     # the same Enter, for the keyboard's highlight
    frames(app)
    assert app.screen is s and "A puzzle code has 12 letters" in texts(app)
    assert s.code_entry["focus"] and s.code_entry.get() == "ABCD"   # to be corrected at once


def test_space_on_a_name_field_that_let_go_of_the_typing_presses_nothing(app):
    from nmbr9.scene.screens.setup import SetupScreen
    app.goto(SetupScreen)
    s = app.screen
    messenger.send("tab")                     # onto the first name, which takes the typing
    frames(app)
    s.entries[0]["focus"] = 0                 # a click beside it lets go of the typing; the highlight stays
    frames(app)
    messenger.send("space")
    frames(app)
    assert app.screen is s and len(s.rows) == 1



def test_a_long_refusal_keeps_clear_of_the_round_and_the_score_at_800x600(tmp_path):
    """At 800x600 "The tile must touch ..." reached over "Round 19 of 20" when the score beside it was short:
    the round's frame was never fitted to its text, so the verdict's room took the top-left column for
    narrower than it is.
    A window of its own size: a subprocess (one ShowBase per process)."""
    found = script_output(["-c", VERDICT_AT_800X600, tmp_path], timeout=240)
    assert found["round"] == "Round 19 of 20" and "must touch" in found["verdict"]
    v = found["boxes"]["verdict"]
    for name in ("round", "score"):
        left, right, bottom, top = found["boxes"][name]
        assert v[0] > right or v[1] < left or v[2] > top or v[3] < bottom, (name, v, found["boxes"][name])


VERDICT_AT_800X600 = """
import json, sys
from pathlib import Path
from nmbr9.scene.base import make_base
from nmbr9.scene.game_app import GameApp
from nmbr9.store import Store
from nmbr9.rules import Seat
from direct.showbase.MessengerGlobal import messenger
from test_screens import frames, until

base = make_base(offscreen=True, size=(800, 600), multisamples=0)
base.adjustWindowAspectRatio(base.getAspectRatio())
app = GameApp(base, Store(Path(sys.argv[1])), audio=False)
app.settings = app.settings.changed(animation_speed=0.0)
m = app.store.new_match([Seat("Ana")], seed=5)
s = app.play(m)
for _ in range(18):   # all on level 0: "Score 0", a narrow top-right column, leaves the verdict wide
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)
    p = next(q for q in m.legal_placements(ps.seat) if q.level == 0)
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    messenger.send("enter")
    frames(app, 3)
ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None and m.round == 19 else None)
x0, y0, x1, y1 = m.board(0).bounds()
ps.x, ps.y = x1 + 6, y0   # away from the build: "The tile must touch ..."
ps.update()
frames(app, 3)

def box(label, drawn=False):   # left, right, bottom, top on the screen (aspect2d): its frame or its text as drawn
    text = label.component("text0").textNode
    left, right, bottom, top = ((text.getLeft(), text.getRight(), text.getBottom(), text.getTop()) if drawn
                                else label.guiItem.getFrame())
    a = base.aspect2d.getRelativePoint(label, (left, 0, bottom))
    b = base.aspect2d.getRelativePoint(label, (right, 0, top))
    return a.x, b.x, a.z, b.z
print(json.dumps({"round": s.hud.round["text"], "verdict": s.hud.verdict["text"],
                  "boxes": {"verdict": box(s.hud.verdict), "round": box(s.hud.round, drawn=True),
                            "score": box(s.hud.score)}}))
"""


def test_the_key_help_keeps_clear_of_five_long_names_at_800x600(tmp_path):
    """At 800x600, five players with long names and the NMBR 9 ++ modules: the key help's first line ran
    across the window, "F1: rules" under "Konstantinopolitanus: 39" and "Wilhelmina-Charlotte: 72".
    A window of its own size: a subprocess (one ShowBase per process)."""
    found = script_output(["-c", KEYS_AT_800X600, tmp_path], timeout=240)
    assert "F1: rules" in found["keys"] and len(found["scores"]) == 5
    k = found["boxes"]["keys"]
    for name, (left, right, bottom, top) in found["scores"].items():
        assert k[1] < left or k[2] > top or k[3] < bottom, (name, k, (left, right, bottom, top))


KEYS_AT_800X600 = """
import json, sys
from pathlib import Path
from nmbr9.scene.base import make_base
from nmbr9.scene.game_app import GameApp
from nmbr9.store import Store
from nmbr9.rules import Seat
from nmbr9.rules.game import Ruleset
from direct.showbase.MessengerGlobal import messenger
from test_screens import frames, until

base = make_base(offscreen=True, size=(800, 600), multisamples=0)
base.adjustWindowAspectRatio(base.getAspectRatio())
app = GameApp(base, Store(Path(sys.argv[1])), audio=False)
app.settings = app.settings.changed(animation_speed=0.0)
names = ["Maximiliane-Josephine", "Bartholomaeus-Friedrich", "Konstantinopolitanus", "Wilhelmina-Charlotte",
         "Alexandrina-Victoria"]
seats = [Seat(names[0])] + [Seat(n, "bot:easy") for n in names[1:]]
rules = Ruleset(modules=("start_tiles", "gap_fillers", "breaking_rules"), powers=("relocate", "reserve"))
t = app.store.new_tournament(seats, games=3, seed=7, ruleset=rules)   # "Game 1 of 3 · Round 13 of 20": a wide top left
m = app.store.tournament_match(t)
s = app.play(m)
for _ in range(12):   # tiles on level 1 and 2: the score box's lines as wide as the scores'
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None, 60)
    p = max(m.legal_placements(ps.seat), key=lambda q: q.level)
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    messenger.send("enter")
    frames(app, 3)
    messenger.send("x")   # (gap fillers left: the turn ends only when asked)
    frames(app, 3)
until(app, lambda: s.ps is not None and s.ps.ghost is not None and m.round == 13, 60)
frames(app, 3)

def box(widget, drawn=False):   # left, right, bottom, top on the screen (aspect2d)
    text = widget.component("text0").textNode
    left, right, bottom, top = ((text.getLeft(), text.getRight(), text.getBottom(), text.getTop()) if drawn
                                else widget.guiItem.getFrame())
    a = base.aspect2d.getRelativePoint(widget, (left, 0, bottom))
    b = base.aspect2d.getRelativePoint(widget, (right, 0, top))
    return min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z)
from direct.gui.DirectGuiBase import DirectGuiWidget
scores = {w["text"]: box(w) for w in list(DirectGuiWidget.guiDict.values())
          if not w.isEmpty() and s.panel.isAncestorOf(w) and any(n in w["text"] for n in names)}
print(json.dumps({"keys": s.keys["text"], "boxes": {"keys": box(s.keys)}, "scores": scores,
                  "score": s.hud.score["text"]}))
"""


def test_the_best_layouts_keys_stay_on_one_line_in_a_4_3_window(tmp_path):
    """At 1024x768 the line under the best layout broke between its keys: "score 97  (\u2190" and "\u2192)".
    A window of its own shape: a subprocess (one ShowBase per process)."""
    lines = script_output(["-c", WALK_AT_1024X768, tmp_path], timeout=240)
    assert any("tile 20 of 20" in line for line in lines)
    assert any("\u2190" in line and "\u2192" in line for line in lines), lines


WALK_AT_1024X768 = """
import json, sys
from pathlib import Path
from nmbr9.scene.base import make_base
from nmbr9.scene.game_app import GameApp
from nmbr9.scene.screens.results import ResultsScreen
from nmbr9.store import Store
from nmbr9.rules import Seat
from direct.showbase.MessengerGlobal import messenger
from test_screens import analysis_found, frames

if __name__ == "__main__":
    base = make_base(offscreen=True, size=(1024, 768), multisamples=0)
    base.adjustWindowAspectRatio(base.getAspectRatio())
    app = GameApp(base, Store(Path(sys.argv[1])), audio=False)
    m = app.store.new_match([Seat("Ana", "bot:easy"), Seat("Ben", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    analysis_found(r, list(m.board(0).tiles))
    frames(app)
    messenger.send("arrow_left")   # the whole layout: tile 20 of 20
    frames(app)
    print(json.dumps(r.walk_label.component("text0").textNode.getWordwrappedText().split("\\n")))
"""


def test_shift_with_a_letter_does_what_the_letter_does_and_levels_shown_stay_shown_on_the_results_board(app):
    """The key help writes the keys in capitals (L, Q / E, A D W S): typed with Shift, Panda3D names them
    "shift-l", and nothing happened. And the levels shown at the table were gone on the results' board."""
    app.play(app.store.new_match([Seat("Ana")], seed=3))
    frames(app, 3)
    s = app.screen
    turned = s.ps.rotation
    messenger.send("shift-e")
    assert s.ps.rotation != turned                    # E: the tile in hand turns
    heading = s.camera.heading
    messenger.send("shift-d")
    assert s.camera.heading != heading                # D: the table turns
    messenger.send("shift-l")
    assert s.table.levels_shown                       # L: the levels shown
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("Ben", "bot:easy")], seed=31)
    m.play_out()
    r = app.goto(ResultsScreen, match=m, context={})
    frames(app)
    assert r.table.levels_shown and r.table.levels.getNumChildren() > 0   # still shown, as the player left them
    messenger.send("shift-l")
    assert not r.table.levels_shown and r.table.levels.getNumChildren() == 0


def test_a_field_clicked_takes_the_highlight_from_the_button_the_keyboard_lit(app):
    """A click in New game's seed field gave it the typing, but the keyboard's highlight stayed lit on Start (or
    Add a player): two things lit, and which one Space or the typing went to could not be told."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen)
    start = buttons(app)["Start (Enter)"]
    lit = button_colour(app, start)
    messenger.send("tab")
    unlit = button_colour(app, start)
    messenger.send("shift-tab")
    assert button_colour(app, start) == lit
    field = s.seed_entry
    field.guiItem.setFocus(True)                        # what the click does to the field itself
    messenger.send(DGG.B1PRESS + field.guiId, [None])
    frames(app)
    assert button_colour(app, start) == unlit, "Start still lit beside the field taking the typing"
    assert field["frameColor"] != s.keys.colours[s.keys.buttons.index(field)]   # the field is lit
    messenger.send("tab")                               # the keyboard walks on from the field
    assert s.keys.index == s.keys.buttons.index(field) + 1 or s.keys.index == 0


def test_a_reviewed_tournament_game_shows_the_best_layout_found_before_at_once(app):
    """Reviewing a tournament's game again searched its deck anew from 0% (and might find another best): the
    layout found the first time is shown at once."""
    from nmbr9.scene.screens import results
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("A", "bot:easy"), Seat("B", "bot:easy")], games=1, seed=9)
    app.store.tournament_match(t).play_out()
    app.goto(TournamentScreen)
    scores = app.store.tournament(t.id).entries()[0].scores
    results.ANALYSIS_WIDTH, old = 2, results.ANALYSIS_WIDTH
    try:
        click(app, f"Game 1: A {scores[0]}, B {scores[1]}")
        until(app, lambda: app.screen.analysis["placements"] is not None, 60)
        found = app.screen.analysis["placements"]
        click(app, "Back to the tournament (Enter)")
        click(app, f"Game 1: A {scores[0]}, B {scores[1]}")
        frames(app, 2)
    finally:
        results.ANALYSIS_WIDTH = old
    assert app.screen.analysis["placements"] == found
    assert "searching" not in texts(app) and "Best found for this deck: " in texts(app)


def test_hint_in_the_bots_turn_is_greyed_and_i_says_it_waits_for_the_next_tile(app):
    """With one's tile laid and the bots still thinking, I did nothing at all and the Hint button looked ready:
    the button is greyed (as Confirm) and I says the hint is for the next tile."""
    gates = []
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=2, bot_factory=waiting_bots(gates))
    s = app.play(m)
    frames(app, 2)
    assert s.hint_button["state"] == DGG.NORMAL
    place_somewhere(app)
    frames(app, 3)
    assert m.phase == BOTS and s.hint_button["state"] == DGG.DISABLED
    keys = s.keys["text"]   # the key help promises neither I nor Backspace, which have nothing to do
    assert "I: hint" not in keys and "Backspace" not in keys and "F1: rules" in keys
    messenger.send("i")
    frames(app, 2)
    assert "A hint is for your next tile: press I once it is dealt." in texts(app)
    gates[0].set()
    until(app, lambda: m.round == 2 and s.ps is not None and s.ps.ghost is not None)
    frames(app, 3)
    assert s.hint_button["state"] == DGG.NORMAL and "A hint is for your next tile" not in texts(app)
    assert "I: hint (again: take it)" in s.keys["text"] and "Backspace" in s.keys["text"]
    messenger.send("i")
    until(app, lambda: s.hint is not None and s.hint["ghost"] is not None, 60)   # the hint works again


@pytest.mark.parametrize("way", ["continue", "start", "rematch"])
def test_continue_start_and_rematch_say_at_once_that_the_table_is_coming(app, way, monkeypatch):
    """The table takes seconds to come the first time on a busy machine: the menu (New game, the results) stayed
    as it was meanwhile, as if the click had not been taken, and players clicked again or thought it hung. The
    screen says so at once, its buttons greyed, and the line goes once the table is there."""
    if way == "continue":
        app.store.new_match([Seat("Ana")], seed=11)
        app.menu()
    elif way == "start":
        app.menu()
        click(app, "New game")
    else:
        app.play(app.store.new_match([Seat("Ana")], seed=11))
        play_to_results(app)
        r = app.screen
        until(app, lambda: r.shown_step >= len(r.levels))      # the scores counted: Enter is taken
    frames(app, 2)
    left = app.screen
    seen = []
    goto = app.goto

    def looking(screen_class, **kw):   # what the player sees while the table is made
        seen.append((app.screen is left, app.note["text"] if app.note else None, sorted(buttons(app))))
        return goto(screen_class, **kw)
    monkeypatch.setattr(app, "goto", looking)
    messenger.send("enter")                                     # Continue, Start, Rematch
    frames(app, 2)
    assert seen == [(True, "Setting up the table\u2026", [])], way
    assert app.screen.name == "play" and app.note is None


def test_a_second_click_on_continue_leaves_the_tile_in_hand(app):
    """Continue clicked twice while the table was made: the second click came after the table's first frame,
    seconds to draw here, and put the tile down where it was dealt; it no longer followed the pointer (it
    seemed stuck). The table takes no click on a tile still as dealt a moment after it shows, that moment
    counted from after its first frame; moved, the tile is put down by a click."""
    app.store.new_match([Seat("Ana")], seed=11)
    app.menu()
    messenger.send("enter")                                      # Continue
    ps = until(app, lambda: app.screen.name == "play" and app.screen.ps is not None
               and app.screen.ps.ghost is not None and app.screen.ps)   # the frame the table is made in
    time.sleep(HANDOFF_PAUSE + 0.2)                              # its first frame drawn: seconds on a busy machine
    ps.press("mouse1", 0.1, 0.1)                                 # the stray second click, in the next frame
    ps.release("mouse1", 0.1, 0.1)
    assert ps.held, "the tile was put down by the second click"
    ps.move_on_screen(1, 0)                                      # moved: a click puts it down
    ps.press("mouse1", 0.1, 0.1)
    assert not ps.held


def test_the_results_analysis_says_starting_until_its_first_report_not_a_still_0_percent(app):
    """On a busy machine the analysis' process took seconds to load: "searching… 0%" stood still as if stuck.
    Until the first report the results say the search is starting."""
    from types import SimpleNamespace
    from nmbr9.scene.screens.results import ResultsScreen
    m = app.store.new_match([Seat("A", "bot:easy")], seed=31)
    m.play_out()
    results = app.goto(ResultsScreen, match=m, context={})
    results.job.stop()
    job = results.job = SimpleNamespace(poll=lambda: None, progress=None, placements=None, error=None,
                                        stop=lambda: None)
    frames(app, 2)
    assert "Best found for this deck: starting\u2026" in texts(app) and "0%" not in texts(app)
    job.progress = 0.0
    frames(app, 2)
    assert "Best found for this deck: searching\u2026 0%" in texts(app)


def test_a_table_of_bots_plays_level_to_level_to_the_results(app):
    """New game, one easy bot, "Level to Level": the window stopped at the first round with a TypeError (the
    variant has no fixed number of rounds). The bots now play it to the results, the round shown as "Round N"."""
    from nmbr9.rules.game import LEVEL_TO_LEVEL, Ruleset
    m = app.store.new_match([Seat("A", "bot:easy")], seed=11, ruleset=Ruleset(LEVEL_TO_LEVEL))
    s = app.play(m)
    until(app, lambda: m.round >= 3, 60)
    assert s.hud.round["text"] in {f"Round {m.round}", f"Round {m.round - 1}"}
    until(app, lambda: app.screen.name == "results", 120)
    assert m.over
