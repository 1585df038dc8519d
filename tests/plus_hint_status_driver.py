"""Run by test_plus_small_window.py in a process of its own (a window of its own size): "2 of 3" with the
Breaking Rules, a card built (with "reserve" after the size: Reserve armed for it), I: where the hint's status,
the Breaking Rules panel and the notes (Reserve is off ...) stand (JSON)."""
from __future__ import annotations

import json
import sys

from direct.showbase.MessengerGlobal import messenger
from panda3d.core import Point3

from helpers import frames, game_app
from nmbr9.rules import Ruleset, Seat
from nmbr9.scene.base import parse_size
from test_screens import until


def main() -> None:
    app = game_app(parse_size(sys.argv[1]))
    app.settings = app.settings.changed(animation_speed=0.0)
    ruleset = Ruleset("two_of_three", ("gap_fillers", "breaking_rules"),
                      ("relocate", "flip", "single_support", "bridge", "reserve"))
    m = app.store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=5, ruleset=ruleset)
    s = app.play(m)
    until(app, lambda: m.options(0).step == "decide" and s.ps is not None and s.overlay is None or None, 60)
    messenger.send("b")
    frames(app, 5)
    if "reserve" in sys.argv[2:]:
        s.ps.toggle_power("reserve")
        frames(app, 5)
    messenger.send("i")
    until(app, lambda: s.hint if s.hint and s.hint["ghost"] is not None else None, 60)
    frames(app, 10)
    a2d = app.base.aspect2d

    def box(np):
        left, right, bottom, top = np.guiItem.getFrame()
        a, b = (a2d.getRelativePoint(np, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        return a.x, b.x, a.z, b.z
    print(json.dumps({"status": s.status["text"], "status box": box(s.status),
                      "powers": box(s.plus_hud.powers_frame), "verdict": box(s.hud.verdict),
                      "notes": {n["text"]: box(n) for n in s.plus_hud.notes}}))


if __name__ == "__main__":
    main()
