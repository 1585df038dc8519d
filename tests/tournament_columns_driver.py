"""Run by test_screens.py in a process of its own (a window of its own size): the Tournaments page, a tournament
chosen with a game played; where each of its standings' column headers and values stands (JSON: their boxes in
aspect2d, each column's from left to right). With NMBR9_SHOTS=FILE it saves a picture there."""
from __future__ import annotations

import json
import os
import sys

from direct.gui.DirectGuiBase import DirectGuiWidget
from panda3d.core import Filename, Point3

from helpers import frames, game_app
from nmbr9.rules import Seat
from nmbr9.scene.base import parse_size


def main() -> None:
    from nmbr9.scene.screens.tournament import TournamentScreen
    app = game_app(parse_size(sys.argv[1]))
    t = app.store.new_tournament([Seat("Ana", "bot:easy"), Seat("Maximiliana Wolfesch", "bot:medium")],
                                 games=12, seed=6)
    app.store.tournament_match(t).play_out()
    app.goto(TournamentScreen, chosen=t.id)
    frames(app, 5)
    a2d, heads = app.base.aspect2d, None
    screen = app.screen
    from nmbr9.i18n import _
    titles = [_("Place"), _("Player"), _("Best {n}").format(n=t.best), _("Total"), _("Wins"), _("Games")]
    boxes = []
    for w in list(DirectGuiWidget.guiDict.values()):
        if w.isEmpty() or not a2d.isAncestorOf(w) or w.isHidden() or not w.hascomponent("text0"):
            continue
        left, right, bottom, top = w.guiItem.getFrame()   # (a label's frame fits its words)
        a, b = (a2d.getRelativePoint(w, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        boxes.append((w["text"], a.x, b.x, a.z, b.z))
    heads = [next(b for b in boxes if b[0] == title) for title in titles]
    shot = os.environ.get("NMBR9_SHOTS")
    if shot:
        app.base.graphicsEngine.renderFrame()
        app.base.win.saveScreenshot(Filename.fromOsSpecific(shot))
    print(json.dumps({"heads": heads, "boxes": boxes, "page": screen.name}))


if __name__ == "__main__":
    main()
