"""Run by tests/test_scene.py (offscreen, one window size a process): a human and a bot at round 19, L pressed, then
the human's table, the bot's board (Tab) and, the game over, the best layout on the results' board. Prints one JSON
line: per view, the tiles and, for each level badge shown, its level, its size on the screen in pixels (across and
high, through its middle) and how light its middle is (a 0's hole dark, a 1's stroke light); the middles' pixels.
The badges are measured drawn alone (the tiles, their shadows and the grid hidden for that picture) on red.
With a second argument DIR it saves each view's picture there."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def pixels(base):
    import numpy as np
    from panda3d.core import PNMImage
    image = PNMImage()
    base.win.getScreenshot(image)
    return image, np.array([[image.getXel(x, y) for x in range(image.getXSize())] for y in range(image.getYSize())])


def measure(app, table, shots: str | None, name: str) -> dict:
    import numpy as np
    from panda3d.core import Point2
    base = app.base
    for _ in range(3):
        base.taskMgr.step()
    if shots:
        pixels(base)[0].write(f"{shots}/{name}.png")
    parts = (table.tiles, table.shade, table.grid)
    for part in parts:
        part.hide()
    base.aspect2d.hide()
    cloth = base.getBackgroundColor()
    base.setBackgroundColor(1, 0, 0, 1)   # a colour neither the badges' ink nor their ring has
    base.graphicsEngine.renderFrame()
    _, drawn = pixels(base)
    base.setBackgroundColor(cloth)
    for part in parts:
        part.show()
    base.aspect2d.show()
    badge = np.abs(drawn - (1, 0, 0)).max(axis=2) > 0.3
    rows, cols = badge.shape

    def run(row, col, d_row, d_col) -> int:   # the badge's pixels on a line through its middle
        n = -1
        for step in (1, -1):
            r, c = row, col
            while 0 <= r < rows and 0 <= c < cols and badge[r, c]:
                n, r, c = n + 1, r + step * d_row, c + step * d_col
        return n
    seen = []
    for node in table.levels.getChildren():
        if node.isHidden():
            continue
        level = int(next(part.getName() for part in node.getChildren() if part.getName().isdigit()))   # its numeral
        at = Point2()
        base.camLens.project(base.cam.getRelativePoint(base.render, node.getPos(base.render)), at)
        col, row = round((at.x + 1) / 2 * cols), round((1 - at.y) / 2 * rows)
        middle = float(drawn[row - 1:row + 2, col - 1:col + 2].max(axis=2).mean())
        seen.append({"level": level, "across": run(row, col, 0, 1), "high": run(row, col, 1, 0),
                     "middle": middle, "at": [col, row]})
    return {"tiles": len(table.board.tiles), "badges": seen}


def main(size: str, shots: str | None) -> None:
    from direct.showbase.MessengerGlobal import messenger
    from nmbr9.rules import Seat
    from nmbr9.scene.screens.results import ResultsScreen
    from tests.helpers import game_app

    app = game_app(tuple(int(n) for n in size.split("x")))
    app.settings = app.settings.changed(animation_speed=0.0)
    match = app.store.new_match([Seat("Ana"), Seat("Ben", "bot:medium")], seed=7)

    def play_until(rounds: int) -> None:   # the human lays each tile as high as it goes, nearest the middle
        while match.round < rounds and not match.over:
            if match.current_human is not None:
                match.play(0, max(match.legal_placements(0), key=lambda p: (p.level, -abs(p.x) - abs(p.y))))
            else:
                match.run_bots()
    play_until(19)
    found = {}
    screen = app.play(match)
    for _ in range(10):
        app.base.taskMgr.step()
    messenger.send("l")
    found["table"] = measure(app, screen.table, shots, "table")
    messenger.send("tab")
    found["other"] = measure(app, screen.table, shots, "other")
    play_until(21)
    r = app.goto(ResultsScreen, match=match, context={})
    r.job.stop()   # the best layout: the winner's, found at once
    r.job = SimpleNamespace(poll=lambda: None, progress=1.0, placements=list(max(match.boards, key=lambda b: b.score()).tiles),
                            error=None, stop=lambda: None)
    for _ in range(3):
        app.base.taskMgr.step()
    messenger.send("end")   # the whole best layout on the table
    found["best"] = measure(app, r.table, shots, "best")
    print(json.dumps(found))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
