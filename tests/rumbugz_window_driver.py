"""Offscreen RumBugz screens at a window size: the setup page, the table in each step of a turn, a PLYT's
question, the bid prompt, the hand-off, the round's results and the final standings. Prints JSON: what each
showed (for the test), and writes the pictures into the folder given (argv[3]) when one is."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGuiBase import DirectGuiWidget
from direct.showbase.MessengerGlobal import messenger
from panda3d.core import PNMImage

from helpers import frames, game_app

size = tuple(int(n) for n in sys.argv[1].split("x"))
language = sys.argv[2] if len(sys.argv) > 2 else "en"
shots = Path(sys.argv[3]) if len(sys.argv) > 3 else None
app = game_app(size)
app.settings = app.settings.changed(animation_speed=0.0)
if language != "en":
    from nmbr9.i18n import set_language
    set_language(language)
out = {}


def buttons() -> dict:
    found = {}
    roots = [app.screen.root, *getattr(app.screen, "anchors", {}).values()]
    for w in list(DirectGuiWidget.guiDict.values()):
        if w.__class__.__name__ != "DirectButton" or w.isEmpty() or w["state"] == DGG.DISABLED:
            continue
        if any(r is not None and not r.isEmpty() and r.isAncestorOf(w) for r in roots) and not w.isHidden() \
                and all(not p.isHidden() for p in w.getAncestors()):
            found[w["text"]] = w
    return found


def click(text: str) -> None:
    messenger.send(DGG.B1CLICK + buttons()[text].guiId, [None])
    frames(app, 3)


def shot(name: str) -> None:
    frames(app, 3)
    image = PNMImage()
    app.base.win.getScreenshot(image)
    if shots:
        image.write(str(shots / f"{name}-{size[0]}x{size[1]}-{language}.png"))


def until(predicate, steps: int = 3000):
    import time
    for _ in range(steps):
        frames(app, 1)
        if predicate():
            return True
        time.sleep(0.003)
    raise AssertionError("timed out")


app.menu()
shot("menu")
messenger.send("enter")   # New game (no saved game: the first button)
frames(app, 3)
click("RumBugz")
shot("setup")
out["setup"] = sorted(buttons())
from nmbr9.rumbugz.game import RumbugzGame  # noqa: E402
seats = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}, {"name": "Carl", "kind": "bot:hard"}]
game = app.store.new_rumbugz(seats, seed=int(sys.argv[4]) if len(sys.argv) > 4 else 7, rounds=1)
app.play(game)
screen = app.screen
until(lambda: screen.overlay == "handoff" or screen._my_move())
shot("handoff")
out["handoff"] = sorted(buttons())
until(lambda: any("show my rack" in t or t.startswith("I am") for t in buttons()) and
      screen.handoff.is_ready)
messenger.send("enter")
frames(app, 3)
until(lambda: screen._my_move())
shot("draw")
out["draw_status"] = screen.status["text"]
messenger.send("b")
frames(app, 3)
shot("play")
for place in range(4):
    screen.pick(place)
frames(app, 3)
shot("picked")
messenger.send("enter")
frames(app, 3)
out["lay_said"] = screen.verdict
shot("lay-refused")
print(json.dumps(out))
app._leave()
