"""Run by tests/test_screens.py (offscreen, one window size a process): F12 on every screen, with a data
folder deep enough that the note's path takes three lines. Prints one JSON line: per screen, the note's
box and every button, field, slider and text it covers (aspect2d units), with the window's half size."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def box(widget, aspect):
    from panda3d.core import Point3
    left, right, bottom, top = widget.guiItem.getFrame()
    a, b = (aspect.getRelativePoint(widget, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    return [min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z)]


def main(size: str, shots: str | None) -> None:
    from direct.gui.DirectGui import DirectButton, DirectEntry, DirectLabel, DirectSlider
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from nmbr9.rules import Seat
    from nmbr9.rules.game import LEVEL_TO_LEVEL, MODULES, POWERS, Ruleset
    from nmbr9.scene.screens.menu import MenuScreen
    from nmbr9.scene.screens.puzzles import PuzzleScreen
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.scene.screens.rules import RulesScreen
    from nmbr9.scene.screens.settings import SettingsScreen
    from nmbr9.scene.screens.setup import SetupScreen
    from nmbr9.scene.screens.tournament import TournamentScreen
    from nmbr9.scene.screens.widgets import drawn
    from tests.helpers import game_app

    app = game_app(tuple(int(n) for n in size.split("x")),
                   data="a-data-folder-as-deep-as-a-players-home-can-be/nmbr9-3d/screenshots-and-saves")
    base, store = app.base, app.store
    aspect = base.getAspectRatio()
    half = [max(aspect, 1.0), max(1.0, 1.0 / aspect)]
    app.settings = app.settings.changed(animation_speed=0.0)
    finished = store.new_match([Seat("Ana", "bot:easy"), Seat("Ben", "bot:easy")], seed=5)
    finished.play_out()
    visits = [("menu", lambda: app.goto(MenuScreen)), ("settings", lambda: app.goto(SettingsScreen)),
              ("setup", lambda: app.goto(SetupScreen)), ("new tournament", lambda: app.goto(SetupScreen, tournament=True)),
              ("puzzles", lambda: app.goto(PuzzleScreen)), ("tournaments", lambda: app.goto(TournamentScreen)),
              ("rules", lambda: app.goto(RulesScreen)),
              ("play", lambda: app.play(store.new_match([Seat("Ana"), Seat("Ben")], seed=1))),
              ("practice", lambda: app.play(store.new_match([Seat("Ana")], seed=1, practice=True))),
              ("NMBR 9 ++", lambda: app.play(store.new_match(
                  [Seat("Ana")], seed=2, ruleset=Ruleset(modules=MODULES, powers=POWERS)))),
              ("Level to Level", lambda: app.play(store.new_match([Seat("Ana")], seed=4, ruleset=Ruleset(LEVEL_TO_LEVEL)))),
              ("results", lambda: app.goto(ResultsScreen, match=finished, context={}))]
    found = {}
    for name, visit in visits:
        visit()
        for _ in range(4):
            base.taskMgr.step()
        base.messenger.send("f12")
        base.taskMgr.remove("app-note")   # kept up: two frames at 1920x1080 on a loaded machine took its 4 s
        for _ in range(2):
            base.taskMgr.step()
        note = box(app.note, base.aspect2d)
        covered = []
        for w in list(DirectGuiWidget.guiDict.values()):
            text = type(w) is DirectLabel and isinstance(w["text"], str) and w["text"].strip()
            if (not (text or isinstance(w, (DirectButton, DirectEntry, DirectSlider))) or w is app.note or w.isEmpty()
                    or not base.aspect2d.isAncestorOf(w) or w.isHidden() or any(p.isHidden() for p in w.getAncestors())):
                continue
            left, right, bottom, top = drawn(w, base.aspect2d) if text else box(w, base.aspect2d)
            if min(right, note[1]) - max(left, note[0]) > 0 and min(top, note[3]) - max(bottom, note[2]) > 0:
                covered.append(w["text"] if isinstance(w["text"], str) else type(w).__name__)
        lines = len(app.note.component("text0").textNode.getWordwrappedText().split("\n"))
        found[name] = {"note": note, "lines": lines, "covered": covered}
        if shots:
            base.graphicsEngine.renderFrame()
            base.win.saveScreenshot(f"{shots}/{size}-{name.replace(' ', '_')}.png")
        if getattr(app.screen, "job", None) is not None:
            app.screen.job.stop()
        app.screen.exit()
        app.screen = None
        app._unsay()
    print(json.dumps({"half": half, "screens": found}), flush=True)
    from nmbr9.ai import worker
    worker.stop()   # no waiting for a bot's move in progress; the data folder is removed at exit


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
