"""Run by tests/test_screens.py (offscreen, one window size a process): the results of a human against two bots,
scores counted and the best layout found, in each language. Prints one JSON line: the window's half size (aspect2d
units) and per language the score panel's box, the box of every text on it, and the box the board (the best
layout, stepped through to its end) is drawn in."""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def box(np, aspect, frame):
    from panda3d.core import Point3
    left, right, bottom, top = frame
    a, b = (aspect.getRelativePoint(np, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    return [min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z)]


def main(size: str) -> None:
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Point2, Point3
    from nmbr9.i18n import set_language
    from nmbr9.rules import Seat
    from nmbr9.scene.base import make_base
    from nmbr9.scene.camera import level_height
    from nmbr9.scene.game_app import GameApp
    from nmbr9.scene.screens.results import ResultsScreen
    from nmbr9.store import Store

    base = make_base(offscreen=True, size=tuple(int(n) for n in size.split("x")))
    aspect = base.getAspectRatio()
    base.adjustWindowAspectRatio(1.0)   # a buffer gets no window-event: aspect2d as a window of its shape has it
    base.adjustWindowAspectRatio(aspect)
    app = GameApp(base, Store(Path(tempfile.mkdtemp()) / "data"), audio=False)
    app.settings = app.settings.changed(animation_speed=0.0)   # the scores counted at once
    match = app.store.new_match([Seat("Maximiliana Wolfesch"), Seat("Ben", "bot:easy"), Seat("Bot 3", "bot:easy")],
                                seed=7)
    while not match.over:
        if match.current_human is not None:   # the human lays each tile as high as it goes
            match.play(0, max(match.legal_placements(0), key=lambda p: (p.level, -abs(p.x) - abs(p.y))))
        else:
            match.run_bots()
    best = list(max(match.boards, key=lambda b: b.score()).tiles)
    found = {"half": [max(aspect, 1.0), max(1.0, 1.0 / aspect)]}
    for language in ("en", "de", "es", "pl"):
        set_language(language)
        r = app.goto(ResultsScreen, match=match, context={})
        r.job.stop()   # the best layout: the winner's, found at once
        r.job = SimpleNamespace(poll=lambda: None, progress=1.0, placements=best, error=None, stop=lambda: None)
        for _ in range(3):
            base.taskMgr.step()
        messenger.send("arrow_left")   # the whole best layout on the table
        for _ in range(3):
            base.taskMgr.step()
        panel = r.root.find("**/score panel")
        frame = next(w for w in DirectGuiWidget.guiDict.values() if not w.isEmpty() and w.getParent() == panel
                     and w.__class__.__name__ == "DirectFrame")
        widgets = list(DirectGuiWidget.guiDict.values())
        texts = [(w["text"], box(w, base.aspect2d, w.guiItem.getFrame())) for w in widgets
                 if not w.isEmpty() and panel.isAncestorOf(w) and w.hascomponent("text0") and w["text"]
                 and not w.isHidden()]
        # the board's tiles (each square's corners, at its foot and its top) where the camera draws them (the
        # corners of its bounding box, where no tile may lie, are framed no longer)
        seen = []
        for tile in r.best_board().tiles:
            for x, y in tile.squares():
                for dx in (0, 1):
                    for dy in (0, 1):
                        for z in (0, level_height(tile.level + 1)):
                            p = Point2()
                            base.camLens.project(base.cam.getRelativePoint(base.render, Point3(x + dx, -y - dy, z)), p)
                            seen.append((p.x * base.a2dRight, p.y * base.a2dTop))
        xs, zs = zip(*seen)
        found[language] = {"panel": box(frame, base.aspect2d, frame["frameSize"]), "texts": texts,
                           "board": [min(xs), max(xs), min(zs), max(zs)]}
        r.exit()
        app.screen = None
    print(json.dumps(found))


if __name__ == "__main__":
    main(sys.argv[1])
