"""Run by tests/test_scene_plus_window.py in a real 800x600 window (DISPLAY set): a NMBR 9 ++ game whose
first tile is laid, so the note "You may still: place a gap filler" stands beside the Breaking Rules
panel. Prints one JSON line: both boxes on screen (aspect2d: left, right, bottom, top)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from direct.gui.DirectGuiBase import DirectGuiWidget  # noqa: E402
from panda3d.core import Point3  # noqa: E402

from nmbr9.rules import Ruleset, Seat  # noqa: E402
from tests.helpers import frames, game_app  # noqa: E402


def box(base, widget) -> list[float]:
    """(left, right, bottom, top) of a widget's frame on screen (aspect2d)."""
    left, right, bottom, top = widget.node().getFrame()
    a, b = (base.aspect2d.getRelativePoint(widget, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    return [a.x, b.x, a.z, b.z]


def main() -> None:
    app = game_app((800, 600), offscreen=False)
    base, store = app.base, app.store
    app.settings = app.settings.changed(animation_speed=0.0)
    match = store.new_match([Seat("Ana")], seed=8,
                            ruleset=Ruleset("classic", ("gap_fillers", "breaking_rules"), ("flip", "loner")))
    session = app.play(match)
    frames(app, 20, pause=0.01)
    session.ps.confirm()
    frames(app, 30, pause=0.01)
    hud = session.plus_hud
    notes = [w for w in list(DirectGuiWidget.guiDict.values())
             if not w.isEmpty() and hud.anchors["a2dBottomCenter"].isAncestorOf(w)
             and "may still" in str(w["text"])]
    print(json.dumps({"lines": hud.lines, "powers": box(base, hud.powers_frame),
                      "notes": [box(base, n) for n in notes]}), flush=True)


if __name__ == "__main__":
    main()
