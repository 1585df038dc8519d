"""The bundled fonts write every letter of every language, on screen too.

The cmap tests read the TrueType files directly. The render tests build the
real HUD offscreen in Polish in a subprocess (one ShowBase per process, so
they never clash with other scene tests): run as a script, this file is
that subprocess and prints what it found as JSON.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nmbr9.i18n import po, tools
from nmbr9.i18n.fonts import LETTERS, cmap_chars
from nmbr9.paths import FONT, FONT_BOLD

# Each Polish letter beside the letter it is made from: on screen they must differ.
POLISH_PAIRS = ["ąa", "ćc", "ęe", "łl", "ńn", "óo", "śs", "źz", "żz",
                "ĄA", "ĆC", "ĘE", "ŁL", "ŃN", "ÓO", "ŚS", "ŹZ", "ŻZ"]


@pytest.mark.parametrize("font", [FONT, FONT_BOLD], ids=["regular", "bold"])
def test_the_bundled_fonts_have_every_letter_the_languages_need(font):
    chars = cmap_chars(font)
    for code, letters in LETTERS.items():
        lost = [c for c in letters if ord(c) not in chars]
        assert not lost, f"{font.name} lacks {code} letters {''.join(lost)}"
    assert ord("\u4e00") not in chars  # the reader does tell absent characters apart


@pytest.mark.parametrize("code", ["de", "es", "pl"])
def test_every_character_of_every_catalogue_is_in_the_fonts(code):
    chars = cmap_chars(FONT) & cmap_chars(FONT_BOLD)
    report = tools.check_catalogue(tools.template(tools.extract()), po.read(tools.catalogue_path(code)), chars)
    assert not report.missing_glyphs, "\n".join(report.missing_glyphs)


def _probe(language: str, png: Path | str | None = None) -> dict:
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "LANGUAGE": language,
           "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, __file__, language] + ([str(png)] if png else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=180, env=env, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.render
def test_the_hud_in_polish_shows_every_letter(tmp_path):
    found = _probe("pl", tmp_path / "hud_pl.png")
    assert found["language"] == "pl"
    # the HUD really is in Polish, refusal reason included
    texts = " ".join(found["texts"])
    assert "Runda 3 z 20" in texts and "Karta tej rundy" in texts and "Zatwierdź" in texts
    assert "na poziomie" in found["verdict"] and found["verdict"] in found["texts"]
    assert set("ąęłóśżź") & set(texts), "the Polish HUD text has no diacritics to check"
    assert found["missing"] == [], f"glyphs missing from the HUD font: {found['missing']}"
    assert found["off_screen"] == [], f"cut off at the window's edge: {found['off_screen']}"
    # each diacritic is drawn: the letter looks different from its base letter
    assert found["same_as_base"] == [], f"drawn like their base letter: {found['same_as_base']}"
    assert found["verdict_ink"] > 200, "the refusal reason left no red ink on screen"
    assert (tmp_path / "hud_pl.png").stat().st_size > 10_000


@pytest.mark.render
@pytest.mark.parametrize("code, round_label", [("en", "Round 3 of 20"), ("de", "Runde 3 von 20"),
                                               ("es", "Ronda 3 de 20")])
def test_the_hud_in_every_language_has_its_letters_and_fits_the_window(code, round_label):
    found = _probe(code)
    assert found["language"] == code and round_label in found["texts"]
    assert found["missing"] == [], f"glyphs missing from the HUD font: {found['missing']}"
    assert found["off_screen"] == [], f"cut off at the window's edge: {found['off_screen']}"


SMALLEST_PX = 10    # the smallest letters' size (em, pixels) on any screen in any of the window shapes below


@pytest.mark.render
# 16:9 (a small window keeps its text big: less room), 4:3, 16:10, and a tall narrow window
@pytest.mark.parametrize("size", ["1280x720", "1920x1080", "1024x576", "800x600", "1024x768", "1280x800", "600x900"])
def test_every_screen_in_every_language_has_its_letters_and_room_for_its_words(size):
    found = _probe("screens", size)
    assert len(found) >= 4 * 10, sorted(found)
    for where, problems in found.items():
        assert problems["missing"] == [], f"{where}: glyphs missing from the font: {problems['missing']}"
        assert problems["off_screen"] == [], f"{where}: cut off at the window's edge: {problems['off_screen']}"
        assert problems["too_wide"] == [], f"{where}: text wider than its button: {problems['too_wide']}"
        assert problems["overlapping"] == [], f"{where}: texts drawn over each other: {problems['overlapping']}"
        assert problems["split"] == [], f"{where}: a short phrase broken over two lines: {problems['split']}"
        px, text = problems["smallest"]   # menus, the table's HUD (every NMBR 9 ++ panel), the results
        assert px >= SMALLEST_PX, f"{where}: {text!r} is {px:.1f} px high, too small to read"


@pytest.mark.render
def test_at_640x480_the_tables_words_keep_clear_of_the_hint_and_menu_buttons():
    """Under all the top row in the smallest window, the hint's words ran under the Hint button and a long
    status under Menu (M), in every language: they stand in the room left of the buttons."""
    found = _probe("screens", "640x480")
    for language in ("en", "de", "es", "pl"):
        for where in ("a hint", "2 of 3, a long status"):
            assert found[f"{language} {where}"]["overlapping"] == [], found[f"{language} {where}"]["overlapping"]
            assert found[f"{language} {where}"]["off_screen"] == []



@pytest.mark.render
def test_at_640x480_the_best_found_in_the_base_game_fits_the_results():
    """With modules the results say the best found is the base game's: a longer sentence, kept whole on screen,
    clear of the rest and its brackets unbroken, in every language."""
    found = _probe("screens", "640x480")
    for language in ("en", "de", "es", "pl"):
        for where in ("results with modules, the best found", "results alone with modules, the best found"):
            problems = found[f"{language} {where}"]
            for kind in ("off_screen", "too_wide", "overlapping", "split"):
                assert problems[kind] == [], (language, where, kind, problems[kind])

# ----- the subprocess ---------------------------------------------------------------------

def broken_phrases(wrapped: str) -> list[str]:
    """Short phrases in brackets that a line break splits: "(nivel" / "0).", "(79 more than" / "you)"."""
    return [m for m in re.findall(r"\([^()\n]*\n[^()]*?\)", wrapped) if len(m) <= 33]


def main(language: str, png: str | None) -> None:
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from panda3d.core import PNMImage, Point3, TextNode
    from nmbr9.i18n import _, current_language
    from nmbr9.rules import Board, Placement
    from nmbr9.scene.base import make_base
    from nmbr9.scene.hud import Hud

    base = make_base(offscreen=True, size=(1280, 720))
    base.setBackgroundColor(0.2, 0.25, 0.3, 1)
    hud = Hud(base, on_confirm=lambda: None)
    board = Board()
    board.place(Placement(0, 0, 0, 0))
    board.place(Placement(1, 0, 3, 0))
    refusal = board.verdict(Placement(9, 0, 0, 0, level=1))  # rests on one tile only, or overhangs
    assert not refusal.ok
    verdict = refusal.text(_)
    hud.show_round(3, 20, 7, [2, 2, 3, 4, 5, 5, 6, 8, 9, 9])
    hud.show_score({0: 0, 1: 14}, 14, 6)
    hud.show_verdict(False, verdict)
    hud.show_legend()
    base.graphicsEngine.renderFrame()
    base.graphicsEngine.renderFrame()
    shot = PNMImage()
    base.win.getScreenshot(shot)
    if png:
        shot.write(png)

    # every text the HUD's widgets show, each checked against the font it is set in
    texts, missing, off_screen = [], [], []
    aspect = base.getAspectRatio()
    w, h = shot.getXSize(), shot.getYSize()
    verdict_box = (0, 0, 0, 0)
    for widget in list(DirectGuiWidget.guiDict.values()):
        if widget.isEmpty() or widget.isHidden() or not widget.hascomponent("text0"):
            continue
        node = widget.component("text0").textNode
        text = node.getText()
        if text:
            texts.append(text)
            missing += [c for c in text if not c.isspace() and not node.hasExactCharacter(c)]
            # where the widget's frame lies on screen: text cut off at the edge is lost to the player
            left, right, bottom, top = widget.guiItem.getFrame()
            corners = [base.aspect2d.getRelativePoint(widget, Point3(x, 0, z))
                       for x in (left, right) for z in (bottom, top)]
            if any(abs(c.x) > aspect + 1e-3 or abs(c.z) > 1 + 1e-3 for c in corners):
                off_screen.append(text)
            if text == verdict:  # its box in pixels, wherever the HUD puts it
                xs = [int((c.x / aspect + 1) / 2 * w) for c in corners]
                ys = [int((1 - c.z) / 2 * h) for c in corners]
                verdict_box = (max(0, min(xs)), min(w, max(xs)), max(0, min(ys)), min(h, max(ys)))

    # red ink of the refusal reason (the HUD's REFUSED_RED) inside the verdict's box
    x0, x1, y0, y1 = verdict_box
    verdict_ink = sum(1 for x in range(x0, x1, 2) for y in range(y0, y1, 2)
                      if shot.getRed(x, y) > 0.75 and shot.getGreen(x, y) < 0.65)

    # each Polish letter against its base letter, drawn alone in the middle of the frame
    hud.destroy()
    probe = TextNode("probe")
    probe.setFont(hud.font)
    probe.setAlign(TextNode.ACenter)
    holder = base.aspect2d.attachNewNode(probe)
    holder.setScale(0.5)

    def pixels(ch):
        probe.setText(ch)
        base.graphicsEngine.renderFrame()
        img = PNMImage()
        base.win.getScreenshot(img)
        return [round(img.getBright(x, y), 2) for x in range(w // 2 - 120, w // 2 + 120, 3)
                for y in range(h // 2 - 200, h // 2 + 120, 3)]
    same = [pair for pair in POLISH_PAIRS if pixels(pair[0]) == pixels(pair[1])]
    print(json.dumps({"language": current_language(), "texts": texts, "verdict": verdict,
                      "missing": sorted(set(missing)), "off_screen": off_screen, "same_as_base": same, "verdict_ink": verdict_ink}))


def screens(size: str) -> None:
    """Every screen around the table in every language, in a window of `size`: letters in the font,
    room for the words."""
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from panda3d.core import NodePath, Point3
    from nmbr9.i18n import _ as translate, set_language
    from nmbr9.rules import Seat
    from nmbr9.rules.game import BREAKING_RULES, LEVEL_TO_LEVEL, MODULES, POWERS, TWO_OF_THREE, Ruleset
    from nmbr9.scene.base import parse_size
    from nmbr9.scene.screens.menu import MenuScreen
    from nmbr9.scene.screens.online import OnlineScreen, why_not
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.rumbugz_results import RumbugzResultsScreen
    from nmbr9.scene.screens.rules import RulesScreen
    from nmbr9.scene.screens.settings import SettingsScreen
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    from helpers import game_app

    app = game_app(parse_size(size))
    base, store = app.base, app.store
    aspect = base.getAspectRatio()
    half_w, half_h = max(aspect, 1.0), max(1.0, 1.0 / aspect)   # aspect2d spans the shorter side with 2
    px = min(base.win.getXSize(), base.win.getYSize()) / 2      # pixels to one aspect2d unit
    longest = "Maximiliana Wolfesch"   # as long as a name may be (setup's 20 letters)
    finished = store.new_match([Seat(longest, "bot:easy"), Seat("Ben", "bot:easy")], seed=5)
    finished.play_out()
    six = store.new_match([Seat(longest, "bot:easy")] + [Seat(f"Bot {n}", "bot:easy") for n in range(5)], seed=8)
    six.play_out()
    from nmbr9.match import Match
    from nmbr9.puzzle import daily_puzzle
    from nmbr9.scene.screens.puzzles import puzzle_seats
    from nmbr9.store import add_puzzle_result
    import datetime as dt
    puzzle = daily_puzzle(dt.date.today())
    for n in range(9):   # a full leaderboard of long names
        add_puzzle_result(store.db, puzzle.code, f"{longest[:-1]}{n}", 90 + n, {}, "human")
    puzzle_game = puzzle.new_game(puzzle_seats(longest))
    while not puzzle_game.over:
        for seat in puzzle_game.waiting():
            puzzle_game.play(seat, puzzle_game.legal_placements(seat)[0])
    solved = Match(puzzle_game, 1, extra={"puzzle": puzzle.code})
    for n in range(11):   # older tournaments: the history has pages (Newer, "1–10 of 12", Older)
        store.new_tournament([Seat("Ana"), Seat(longest, "bot:easy")], games=3, seed=n)
    tournament = store.new_tournament([Seat("Ana", "bot:easy"), Seat("Ben", "bot:easy")], games=2, seed=6)
    from nmbr9.rumbugz.play import GameRules
    from nmbr9.store.rumbugz import play_tournament_game, tournament_game
    bug_cup = store.new_tournament([Seat(longest, "bot:hard"), Seat("Ben", "bot:easy")], games=3, seed=2,
                                   ruleset=GameRules(1))
    play_tournament_game(bug_cup, *tournament_game(bug_cup))
    from nmbr9.store.rumbugz import window_game
    from test_rumbugz_window import play_until
    bug_game = window_game(store, bug_cup)   # its second game, as the window plays it, to its final standings
    play_until(bug_game, lambda g: g.over)
    store.autosave.clear()   # (the other screens as with no game saved)
    reviewed = store.tournament_match(tournament)
    reviewed.play_out()
    alone = store.new_match([Seat(longest, "bot:easy")], seed=5)
    alone.play_out()
    # with modules the best found is the base game's, and says so (a longer sentence)
    plus = store.new_match([Seat(longest, "bot:easy"), Seat("Ben", "bot:easy")], seed=5,
                           ruleset=Ruleset(modules=("start_tiles", "gap_fillers")))
    plus.play_out()
    plus_alone = store.new_match([Seat(longest, "bot:easy")], seed=5, ruleset=Ruleset(modules=("start_tiles",)))
    plus_alone.play_out()

    def best_found(match, more: int) -> None:
        """The results, the analysis done: `more` points above the winner."""
        app.goto(ResultsScreen, match=match, context={})
        app.screen.job.stop()
        app.screen._draw_analysis = lambda: None   # (the search would take its seconds)
        app.screen.analysis_label["text"] = app.screen._found_text(app.screen.results[0].score + more)

    def hint_shown(text: str) -> None:
        """A solo table, the tile in hand, the hint's words up."""
        app.play(store.new_match([Seat("Ana")], seed=3))
        while app.screen.ps is None:
            base.taskMgr.step()
        app.screen.set_status(translate(text).format(level=0))

    def two_of_three_saying(text: str) -> None:
        """A "2 of 3" table, the card built, with its status up (beside the reject markers)."""
        app.play(store.new_match([Seat("Ana"), Seat("Ben", "bot:easy")], seed=3, ruleset=Ruleset(TWO_OF_THREE)))
        for _frame in range(3):
            base.taskMgr.step()
        base.messenger.send("b")   # build it: the tile in hand
        for _frame in range(3):
            base.taskMgr.step()
        app.screen.set_status(text)

    def lobby(host: bool) -> None:
        """The lobby of a game hosted by this window (the host's rules buttons) or joined (the rules said), six
        long names at the table, every module on, powers drawn."""
        import time
        from nmbr9.net.client import ClientThread
        from nmbr9.net.online import HostedServer, Online
        from nmbr9.scene.screens.online import LobbyScreen
        app.leave_online()
        server = HostedServer(store.folder / "probe-server", port=0)
        nets = [ClientThread(server.url) for _seat in range(2)]
        for net in nets:
            net.connect().result(10)
        welcome = nets[0].host(longest, {"variant": "classic", "modules": list(MODULES)}).result(10)
        seat = nets[1].join(welcome["code"], longest).result(10)
        for _bot in range(4):
            nets[0].add_bot("medium").result(10)
        mine, other = (nets[0], nets[1]) if host else (nets[1], nets[0])
        other.stop()
        while mine.lobby is None or len(mine.lobby["seats"]) < 6:
            time.sleep(0.01)
        mine.poll()
        app.online = Online(mine, {"url": server.url, "code": welcome["code"],
                                   "token": (welcome if host else seat)["token"], "hosted": host},
                            server)
        app.goto(LobbyScreen)

    visits = [("menu", lambda: app.goto(MenuScreen)), ("setup", lambda: app.goto(SetupScreen)),
              ("online lobby, the host", lambda: lobby(True)), ("online lobby, joined", lambda: lobby(False)),
              ("new tournament", lambda: app.goto(SetupScreen, tournament=True)),
              ("puzzles", lambda: app.goto(PuzzleScreen)), ("tournaments", lambda: app.goto(TournamentScreen)),
              ("tournaments, the oldest page", lambda: (app.goto(TournamentScreen),
                                                        [base.messenger.send("page_down") for _n in range(3)])),
              ("rules", lambda: app.goto(RulesScreen)), ("rules, RumBugz", lambda: app.goto(RulesScreen, game="rumbugz")),
              ("tournaments, RumBugz", lambda: app.goto(TournamentScreen, chosen=bug_cup.id)),
              ("settings", lambda: app.goto(SettingsScreen)),
              ("pass and play", lambda: app.play(store.new_match([Seat(longest), Seat("Ben")], seed=1))),
              ("six seats", lambda: app.play(store.new_match(
                  [Seat(longest)] + [Seat(f"Bot {n}", "bot:easy") for n in range(5)], seed=7))),
              ("NMBR 9 ++ modules", lambda: app.play(store.new_match(
                  [Seat("Ana")], seed=2, ruleset=Ruleset(modules=MODULES, powers=POWERS)))),
              ("2 of 3", lambda: app.play(store.new_match([Seat("Ana")], seed=3, ruleset=Ruleset(TWO_OF_THREE)))),
              ("2 of 3, a long status", lambda: two_of_three_saying(translate("Your tile is on the hint's spot: Enter lays it."))),
              ("Level to Level", lambda: app.play(store.new_match(
                  [Seat("Ana")], seed=4, ruleset=Ruleset(LEVEL_TO_LEVEL)))),
              ("new tournament, Breaking Rules", lambda: (app.goto(SetupScreen, tournament=True),
                                                          app.screen.toggle_module(BREAKING_RULES))),
              ("new tournament, RumBugz", lambda: (app.goto(SetupScreen, tournament=True),
                                                   app.screen.choose_game(True))),
              ("results of a RumBugz tournament game", lambda: app.goto(RumbugzResultsScreen, game=bug_game,
                                                                        context={"tournament": bug_cup.id})),
              ("a RumBugz tournament game, reviewed", lambda: (app.goto(TournamentScreen, chosen=bug_cup.id),
                                                               app.screen.review(bug_cup.id, 1))),
              ("results", lambda: app.goto(ResultsScreen, match=finished, context={})),
              ("results of six", lambda: app.goto(ResultsScreen, match=six, context={})),
              ("results of a puzzle", lambda: app.goto(ResultsScreen, match=solved, context={"puzzle": puzzle.code})),
              ("results of a tournament game, reviewed", lambda: app.goto(
                  ResultsScreen, match=reviewed, context={"tournament": tournament.id, "review": True})),
              ("results, the best found", lambda: best_found(finished, 79)),
              ("results alone, the best found", lambda: best_found(alone, 79)),
              ("results with modules, the best found", lambda: best_found(plus, 79)),
              ("results alone with modules, the best found", lambda: best_found(plus_alone, -6)),
              ("a hint", lambda: hint_shown(
                  "Hint: the strongest bot would lay it where the pulsing blue tile is (level {level}).")),
              ("a hint, animations off", lambda: hint_shown(
                  "Hint: the strongest bot would lay it where the see-through blue tile is (level {level}).")),
              ("play online", lambda: app.goto(OnlineScreen)),
              ("play online, no server there", lambda: (app.goto(OnlineScreen), app.screen.say(
                  why_not(OSError("[Errno 111] Connect call failed ('192.168.100.200', 8779)"),
                          "ws://192.168.100.200:8779"))))]
    found = {}
    shots = os.environ.get("NMBR9_PROBE_SHOTS")   # a folder: a picture of each screen, to look at
    for language in os.environ.get("NMBR9_PROBE_LANGUAGES", "en,de,es,pl").split(","):
        set_language(language)  # switched while the game runs, as Settings does
        for name, visit in visits:
            if os.environ.get("NMBR9_PROBE_SCREENS") and name not in os.environ["NMBR9_PROBE_SCREENS"].split(";"):
                continue   # (only those, to look at one screen quickly)
            visit()
            for _ in range(3):
                base.taskMgr.step()
            missing, off_screen, too_wide, boxes, split, smallest = set(), [], [], [], [], (1e9, "")
            for widget in list(DirectGuiWidget.guiDict.values()):
                if (widget.isEmpty() or not base.aspect2d.isAncestorOf(widget) or widget.isHidden()
                        or any(p.isHidden() for p in widget.getAncestors()) or not widget.hascomponent("text0")):
                    continue
                label = widget.component("text0")
                text = label.textNode.getText()
                missing |= {c for c in text if not c.isspace() and not label.textNode.hasExactCharacter(c)}
                if not text or any(p.getName() == "canvas" for p in widget.getAncestors()):
                    continue  # a scrolled page is clipped on purpose
                left, right, bottom, top = widget.guiItem.getFrame()
                corners = [base.aspect2d.getRelativePoint(widget, Point3(x, 0, z))
                           for x in (left, right) for z in (bottom, top)]
                if any(abs(c.x) > half_w + 1e-3 or abs(c.z) > half_h + 1e-3 for c in corners):
                    off_screen.append(text)
                # (a widget draws its text from its own state nodes, outside the scene graph)
                em = NodePath.getScale(widget, base.aspect2d).z * label.textNode.getTransform().getRow3(2).length()
                smallest = min(smallest, (em * px, text))   # the letters' size
                ink = label.getTightBounds()
                if ink and right > left and (ink[0].x < left - 0.01 or ink[1].x > right + 0.01):
                    too_wide.append(text)
                split += broken_phrases(label.textNode.getWordwrappedText())
                # its box on screen (a label's fits its words) may not cover another's
                xs, zs = [c.x for c in corners], [c.z for c in corners]
                boxes.append((text, min(xs), max(xs), min(zs), max(zs)))
            overlapping = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                           if min(a[2], b[2]) - max(a[1], b[1]) > 0.005 and min(a[4], b[4]) - max(a[3], b[3]) > 0.005]
            for path in base.aspect2d.findAllMatches("**/+TextNode"):  # plain text: the rules page
                node = path.node()
                missing |= {c for c in node.getText() if not c.isspace() and not node.hasExactCharacter(c)}
                if node.getText().strip() and path.getName() == "rules-text":
                    smallest = min(smallest, (path.getScale(base.aspect2d).z * px, node.getText()[:40]))
                    split += broken_phrases(node.getWordwrappedText())
            if shots:
                base.graphicsEngine.renderFrame()
                base.win.saveScreenshot(f"{shots}/{size}-{language}-{name.replace(' ', '_')}.png")
            found[f"{language} {name}"] = {"missing": sorted(missing), "off_screen": off_screen,
                                           "too_wide": too_wide, "overlapping": overlapping, "split": split,
                                           "smallest": smallest}
            app.screen.exit()
            app.screen = None
    print(json.dumps(found))


if __name__ == "__main__":  # PYTHONPATH holds the checkout (see _probe)
    if sys.argv[1] == "screens":
        screens(sys.argv[2])
    else:
        main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
