"""Run by tests/test_screens.py (offscreen, a window of its own size): a game, its first tile in hand, H pressed.
Prints one JSON line: the part of the window the table is framed in before H (normalised: left, right, bottom,
top), and as laid out again; on screen (aspect2d: left, right, bottom, top) the controls' help and what it may not
cover (the round's card, the cards still to come, the verdict, the buttons at the bottom right)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(size: str, png: str | None = None) -> None:
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Point3
    from nmbr9.rules import Seat
    from tests.helpers import frames, game_app

    app = game_app(tuple(int(n) for n in size.split("x")))
    app.settings = app.settings.changed(animation_speed=0.0)
    s = app.play(app.store.new_match([Seat("Ana")], seed=8))
    while s.ps is None or s.ps.ghost is None:
        frames(app, 1)
    frames(app, 3)
    room = list(s.camera.room)   # where the table is framed, the help folded (at 640x480 it is)
    s.panel_key = None           # the table laid out again as it is
    frames(app, 3)
    again = list(s.camera.room)
    if s.hud.legend.isHidden():   # folded in a small window: shown with H
        messenger.send("h")
        frames(app, 3)
    a2d, hud = app.base.aspect2d, s.hud

    def box(widget):
        left, right, bottom, top = widget.guiItem.getFrame()
        a, b = (a2d.getRelativePoint(widget, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        return [a.x, b.x, a.z, b.z]
    low, high = hud.supply.getTightBounds(a2d)
    base = app.base
    if png:
        base.graphicsEngine.renderFrame()
        base.win.saveScreenshot(png)
    print(json.dumps({"room": room, "room laid out again": again, "shown": not hud.legend.isHidden(), "legend": box(hud.legend),
                      "not to cover": {"the card": box(hud.card), "the verdict": box(hud.verdict),
                                       "the cards still to come": [low.x, high.x, low.z, high.z],
                                       "Confirm": box(hud.confirm), "Hint": box(s.hint_button),
                                       "Menu": box(s.menu_button)},
                      "window": [base.a2dLeft, base.a2dRight, base.a2dBottom, base.a2dTop]}))


if __name__ == "__main__":
    main(*sys.argv[1:])
