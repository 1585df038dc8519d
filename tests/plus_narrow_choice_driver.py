"""Run by tests/test_scene_plus_window.py in a real 800x600 window (DISPLAY set): a "Level to Level" game
with every module at the question "Choose one of the shown tiles", then with the tile taken. Prints one
JSON line: the question's panel and the key help on screen (aspect2d: left, right, bottom, top; the key
help null while hidden)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nmbr9.rules import Ruleset, Seat  # noqa: E402
from tests.helpers import frames, game_app  # noqa: E402
from tests.plus_narrow_driver import box  # noqa: E402


def main() -> None:
    app = game_app((800, 600), offscreen=False)
    base, store = app.base, app.store
    app.settings = app.settings.changed(animation_speed=0.0)
    match = store.new_match([Seat("Ana")], seed=5, ruleset=Ruleset(
        "level_to_level", ("start_tiles", "gap_fillers", "breaking_rules"), ("relocate", "flip", "reserve")))
    session = app.play(match)

    frames(app, 20, pause=0.01)
    while match.options(0).step != "choose":   # rounds 1 and 2: the only tile shown, laid anywhere
        ps = session.ps
        if match.options(0).step == "place" and ps.ghost is not None:
            p = match.legal_placements(0)[0]
            ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
            ps.update()
            ps.confirm()
        elif match.options(0).can_end:
            ps.act("end_turn")
        frames(app, 5, pause=0.01)
    frames(app, 30, pause=0.01)
    hud, keys = session.plus_hud, session.keys
    mid = hud.anchors["aspect2d"]   # the question's panel: the widget there with a frame
    question = next(c for c in mid.getChildren() if c.node().getFrame()[1] > c.node().getFrame()[0])
    out = {"lines": hud.lines, "question": box(base, question),
           "keys": None if keys.isHidden() else box(base, keys)}
    session.ps.act("choose", max(match.options(0).choices))
    frames(app, 30, pause=0.01)
    out["keys_after"] = None if keys.isHidden() else box(base, keys)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
