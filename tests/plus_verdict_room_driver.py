"""Run by tests/test_plus_small_window.py (offscreen, a window of its own size, in the language of LANGUAGE):
"2 of 3" with Breaking Rules, a card built, Flip and Single support armed (the verdict three lines long) and a
third power refused (its note in the bottom middle). Prints one JSON line: the verdict's box, its wrap, the
score box's and the window's edges (aspect2d)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(size: str) -> None:
    from panda3d.core import Point3
    from nmbr9.rules import Ruleset, Seat
    from nmbr9.rules.game import POWERS
    from tests.helpers import frames, game_app

    app = game_app(tuple(int(n) for n in size.split("x")))
    app.settings = app.settings.changed(animation_speed=0.0)
    a2d = app.base.aspect2d
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=3,
                            ruleset=Ruleset("two_of_three", ("start_tiles", "gap_fillers", "breaking_rules"), POWERS))
    s = app.play(m)
    while s.ps is None or s.overlay is not None or m.options(0).step != "decide":
        frames(app, 1)
    s.ps.act("decide", True)
    frames(app, 3)
    for power in ("flip", "single_support", "bridge"):   # the third: no marker left for it, said in a note
        s.ps.act("toggle_power", power)
        frames(app, 3)

    def box(w):
        left, right, bottom, top = w.guiItem.getFrame()
        a, b = (a2d.getRelativePoint(w, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        return a.x, b.x, a.z, b.z

    hud = s.hud
    print(json.dumps({"verdict": box(hud.verdict), "wrap": hud.verdict_wrap, "score": box(hud.score),
                      "lines": hud.verdict["text"].count("\n") + 1, "note": s.ps.message,
                      "window": [app.base.a2dLeft, app.base.a2dRight, app.base.a2dBottom, app.base.a2dTop]}))


if __name__ == "__main__":
    main(sys.argv[1])
