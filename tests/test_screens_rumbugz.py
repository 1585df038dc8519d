"""RumBugz on the window's shared pages, offscreen: its tournaments on the Tournaments page."""
from __future__ import annotations

import os

import pytest

from nmbr9.rules import Seat
from nmbr9.rumbugz.play import GameRules
from nmbr9.rumbugz.rules.bugs import bug_points, laid_value
from nmbr9.store.rumbugz import play_tournament_game, store_round, tournament_game
from rumbugz_framing_driver import bug_pixels
from test_screens import buttons, click, picture, texts, until   # (the app fixture: conftest.py)

pytestmark = pytest.mark.render


def test_a_rumbugz_tournament_is_listed_with_its_standings_and_its_game_in_progress(app):
    from nmbr9.rumbugz.bots import make_bot
    from nmbr9.rumbugz.play import play_round
    import random
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Bot 1", "bot:hard"), Seat("Bot 2", "bot:easy")], games=3, seed=2,
                                 ruleset=GameRules(2), name="Bug Cup")
    play_tournament_game(t, *tournament_game(t))
    number, record = tournament_game(t)   # game 2 part way: one round of two
    seats = record["players"]
    store_round(t, number, record, play_round([make_bot("hard", 1), make_bot("easy", 2)], seats,
                                              random.Random(3)).record)
    app.goto(TournamentScreen, chosen=t.id)
    shown = texts(app)
    [first] = t.entries()[:1]
    assert "Bug Cup  (RumBugz, 1 of 3 played)" in buttons(app)
    assert "3 games, the best 3 count; seed 2 \u00b7 RumBugz, 2 rounds a game" in shown
    assert f"Game 1: Bot 1 {first.scores[0]}, Bot 2 {first.scores[1]}" in buttons(app)   # finished: reviewed
    assert "Game 2 \u00b7 Round 2" in shown and "Game 2 \u00b7 Round 2" not in buttons(app)   # in progress: a line
    for s in t.standings():
        assert f"{s.place_told}\n{s.name} ({s.kind[4:]})\n{s.best}\n{s.total}\n{s.wins}\n{s.played}" in shown
    if os.environ.get("SHOTS"):
        picture(app).write(os.path.join(os.environ["SHOTS"], "tournament-rumbugz-640x360.png"))
    click(app, "Continue the tournament")   # game 2 at its second round, on the RumBugz table
    assert app.screen.name == "rumbugz" and app.screen.game.round_number == 2
    assert app.screen.game.tournament == {"id": t.id, "game": 2}
    until(app, lambda: app.screen.name == "rumbugz-results", timeout=120)   # the bots play its last round
    t = app.store.tournament(t.id)
    entry = t.entries()[1]
    assert entry.finished and entry.scores == app.screen.game.totals()
    shown = texts(app)
    assert "Final standings" in shown and "Bug Cup: game 2 of 3 played, the best 3 count" in shown
    for s in t.standings():
        assert f"{s.place}. {s.name} ({s.kind[4:]}): {s.best} points, " in shown
    assert "Next game (Enter)" in buttons(app) and "Rematch (Enter)" not in buttons(app)
    if os.environ.get("SHOTS"):
        picture(app).write(os.path.join(os.environ["SHOTS"], "rumbugz-tournament-standings-640x360.png"))
    click(app, "Next game (Enter)")   # game 3, from its first round
    assert app.screen.name == "rumbugz" and app.screen.game.tournament == {"id": t.id, "game": 3}
    assert app.screen.game.round_number == 1
    from direct.showbase.MessengerGlobal import messenger
    messenger.send("m")   # the table's key for the menu
    assert app.screen.name == "menu"
    assert app.store._playing is None   # back at the menu the window lets go of the tournament


def round_rows(app) -> list[str]:
    """The review's rows as shown: each player's name, what their hand held, the round's points, the total."""
    shown = texts(app).split("\n")
    at = shown.index("Total") + 1
    return shown[at:at + 4 * 2]


def test_a_finished_rumbugz_tournament_game_is_reviewed_round_by_round_and_back_returns_to_its_page(app):
    """A finished game's line is a button: it opens the game's rounds, from the first, each with who went out, each
    player's points and the totals as the stored rounds give them; the arrow keys and buttons step between the
    rounds; Back (and Esc) return to the tournament's page."""
    from direct.showbase.MessengerGlobal import messenger
    from nmbr9.rumbugz.game import finished_round
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Bot 1", "bot:hard"), Seat("Bot 2", "bot:easy")], games=2, seed=2,
                                 ruleset=GameRules(2), name="Bug Cup")
    play_tournament_game(t, *tournament_game(t))
    [entry] = t.entries()
    rounds = [finished_round(r) for r in entry.record["rounds"]]
    points = [r.scores() for r in rounds]
    app.goto(TournamentScreen, chosen=t.id)
    click(app, f"Game 1: Bot 1 {entry.scores[0]}, Bot 2 {entry.scores[1]}")
    assert app.screen.name == "rumbugz-results"

    def shown_round(number: int) -> None:
        r = rounds[number - 1]
        totals = [sum(p[seat] for p in points[:number]) for seat in range(2)]
        assert f"Game 1 \u00b7 Round {number} of 2" in texts(app)
        rows = []
        for seat, name in enumerate(["Bot 1", "Bot 2"]):
            held = "went out" if r.winner == seat else str(sum(bug_points(b) for b in r.hand(seat).elements()))
            rows += [name, held, f"+{points[number - 1][seat]}" if points[number - 1][seat] else "0",
                     str(totals[seat])]
        assert round_rows(app) == rows
        if r.winner is not None:
            assert f"Bot {r.winner + 1} went out" in texts(app)
        # the table as the round ended: its sequences, and every hand face up (the round is over: none is secret)
        placed = app.screen.table.placed
        assert [p.bug for p in placed if p.place == "table"] == [laid_value(b)[0] for s in r.table for b in s.bugs]
        assert sorted(p.bug for p in placed if p.place in ("rack", "other")) == \
            sorted(b for seat in range(2) for b in r.hand(seat).elements())
    shown_round(1)
    assert "Previous round (\u2190)" not in buttons(app)
    app.base.graphicsEngine.renderFrame()
    bugs = bug_pixels(app.base.win.getScreenshot())   # drawn under the rows of points, over the buttons
    rows = bugs.any(axis=1).nonzero()[0]
    assert bugs.sum() > 500 and "Next round (\u2192)" in buttons(app)
    assert rows.min() > 360 * 0.3 and rows.max() < 360 * 0.9
    messenger.send("arrow_right")
    shown_round(2)
    assert round_rows(app)[3::4] == [str(n) for n in entry.record["totals"]]   # the game's totals, as stored
    zoom, heading = app.screen.camera.zoom, app.screen.camera.heading
    messenger.send("page_up")   # the round before, not a zoom as at the table
    shown_round(1)
    messenger.send("d")   # the table turns as at the table
    assert app.screen.camera.heading != heading and app.screen.camera.zoom == zoom
    click(app, "Next round (\u2192)")
    shown_round(2)
    click(app, "Previous round (\u2190)")
    shown_round(1)
    click(app, "Back to the tournament")
    assert app.screen.name == "tournament" and app.screen.chosen == t.id and app.screen.game == 1
    click(app, f"Game 1: Bot 1 {entry.scores[0]}, Bot 2 {entry.scores[1]}")
    messenger.send("escape")
    assert app.screen.name == "tournament" and app.screen.chosen == t.id


@pytest.mark.parametrize("damage, reason", [
    ("truncated", "the copy of its record in the database is damaged"),
    ("no rounds", "the copy of its record in the database is damaged"),
    ("a round cut short", "a finished round of the saved game does not replay")])
def test_a_damaged_rumbugz_tournament_game_is_said_and_its_tournament_stays(app, damage, reason):
    import json
    from nmbr9.scene.screens.tournament import TournamentScreen
    t = app.store.new_tournament([Seat("Bot 1", "bot:hard"), Seat("Bot 2", "bot:easy")], games=2, seed=2,
                                 ruleset=GameRules(1))
    play_tournament_game(t, *tournament_game(t))
    [entry] = t.entries()
    record = entry.record
    if damage == "no rounds":
        record["rounds"] = []
    elif damage == "a round cut short":
        record["rounds"][0]["moves"] = record["rounds"][0]["moves"][:5]
    stored = '{"format": "rumbugz-ga' if damage == "truncated" else json.dumps(record)
    app.store.db.execute("UPDATE tournament_games SET record = ? WHERE number = 1", (stored,))
    app.goto(TournamentScreen, chosen=t.id)
    click(app, f"Game 1: Bot 1 {entry.scores[0]}, Bot 2 {entry.scores[1]}")   # its scores still stand
    assert app.screen.name == "tournament" and "Continue the tournament" in buttons(app)
    assert f"Game 1 can't be shown: {reason}" in texts(app)


def test_new_tournament_makes_a_rumbugz_tournament_of_the_rounds_typed_and_plays_its_first_game(app):
    """New tournament's RumBugz tab: the seats, games and rounds a game; rounds out of range are refused in a
    sentence with nothing made; Start plays its first game on the RumBugz table."""
    from nmbr9.scene.screens.setup import SetupScreen
    s = app.goto(SetupScreen, tournament=True)
    click(app, "RumBugz")
    assert "Rounds:" in texts(app) and "Games:" in texts(app) and "Rules:" not in texts(app)
    s = app.screen
    s.entries[0].set("Ana")
    s.games_entry.set("2")
    s.rounds_entry.set("21")
    click(app, "Start (Enter)")
    assert "A game has 1 to 20 rounds." in texts(app) and app.store.tournaments() == []
    app.screen.rounds_entry.set("2")
    click(app, "Start (Enter)")
    [summary] = app.store.tournaments()
    t = app.store.tournament(summary.id)
    assert t.game == "rumbugz" and t.ruleset.rounds == 2 and t.games == 2
    assert [(x.name, x.kind) for x in t.seats] == [("Ana", "human"), ("Bot 2", "bot:medium")]
    assert app.screen.name == "rumbugz" and app.screen.game.tournament == {"id": t.id, "game": 1}
    assert app.screen.game.rounds == 2 and app.screen.game.names == ["Ana", "Bot 2"]


def test_the_menus_continue_resumes_a_rumbugz_tournament_game_at_its_move_and_holds_the_tournament(app):
    from nmbr9.scene.screens.tournament import play_tournament
    t = app.store.new_tournament([Seat("Ana", "human"), Seat("Ben", "bot:easy")], games=2, seed=8,
                                 ruleset=GameRules(2))
    assert play_tournament(app, t.id) is None
    until(app, lambda: app.screen.name == "rumbugz" and len(app.screen.game.round.moves) >= 2)
    app.screen.to_menu()
    moves = app.store.autosave.load(threaded=False).match.round.moves
    assert app.store._playing is None   # let go at the menu
    click(app, "Continue")
    assert app.screen.name == "rumbugz" and app.screen.game.tournament == {"id": t.id, "game": 1}
    assert app.screen.game.round.moves[:len(moves)] == moves   # at its move (the bot may have moved on since)
    assert app.store._playing is not None


def test_f1_on_the_rumbugz_table_opens_rumbugz_rules_over_it_and_esc_goes_back(app):
    from direct.showbase.MessengerGlobal import messenger
    from nmbr9.i18n.rules_page import rules_page
    app.play(app.store.new_rumbugz([{"name": "Ana", "kind": "human"}, {"name": "Ben", "kind": "bot:easy"}], seed=3))
    until(app, lambda: app.screen.overlay is None and "Ana" in texts(app))
    messenger.send("f1")
    until(app, lambda: app.screen.overlay == "rules")
    shown = texts(app)
    assert rules_page(lambda t: t, "rumbugz")[0][0] in shown and "Sequences" in shown and "Back (Esc)" in buttons(app)
    moves = len(app.screen.game.round.moves)
    messenger.send("b")   # the table's keys are off under the page: no bug drawn
    until(app, lambda: True)
    assert len(app.screen.game.round.moves) == moves
    if os.environ.get("SHOTS"):
        picture(app).write(os.path.join(os.environ["SHOTS"], "rumbugz-f1-rules-640x360.png"))
    messenger.send("escape")
    until(app, lambda: app.screen.overlay is None)
    assert app.screen.name == "rumbugz" and "Sequences" not in texts(app)


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_the_rumbugz_rules_page_in_every_language_with_its_sequences_drawn_in_bugs(app, language):
    """The menu's Rules has a tab for RumBugz: its rules and rulings in the player's language, every line but a
    paragraph's last well filled, and the sequences drawn with the bugs in their colours, each captioned with
    what the rules read it as; the NMBR 9 tab (or Tab) turns back."""
    from direct.showbase.MessengerGlobal import messenger
    from nmbr9.bug_assets import BUG_COLOURS, PLYT_COLOUR
    from nmbr9.i18n import _, set_language
    from nmbr9.i18n.rules_page import rules_page
    from nmbr9.scene.screens.rules import RulesScreen
    from nmbr9.scene.screens.rules_pictures import SEQUENCES, sequence_caption
    from helpers import colours_on_page, frames
    set_language(language)
    app.goto(RulesScreen)
    click(app, "RumBugz")
    frame = app.screen.frame
    nodes = [np.node() for np in frame.getCanvas().findAllMatches("**/rules-text")]
    page = "\n".join(n.getText() for n in nodes).replace("\u00a0", " ")
    for heading, paragraphs in rules_page(_, "rumbugz"):
        assert heading in page and all(p.replace("\u00a0", " ") in page for p in paragraphs)
    assert _("This game's ruling: {ruling}").format(ruling="") in page
    for tokens in SEQUENCES:
        assert sequence_caption(tokens) in page
    for node in nodes:
        lines = node.getWordwrappedText().split("\n")
        for line, after in zip(lines, lines[1:]):
            assert node.calcWidth(line) >= 0.8 * node.getWordwrap(), (line, after)
    colours = {bug: tuple(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)) for bug, c in
               [*((str(n), BUG_COLOURS[n]) for n in (2, 3, 4, 5, 6, 8, 9, 12)), ("P", PLYT_COLOUR)]}
    found = colours_on_page(app, colours, 0.02)
    assert found == set(colours), f"bugs not drawn: {sorted(set(colours) - found)}"
    click(app, "NMBR 9")
    assert rules_page(_)[-1][0] in texts(app) and _("Sequences") not in texts(app)
    messenger.send("tab")
    frames(app)
    assert _("Sequences") in texts(app)
