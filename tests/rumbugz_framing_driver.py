"""Run as a process of its own (one ShowBase a process): a RumBugz table in the middle of a round (PLAYERS players,
sequences laid, Ann's move) offscreen at a window size, from the default view and turned (A, S keys): where the
bugs' colours lie in the frame (pixels), where the table's labels and the buttons stand (boxes in pixels:
left, top, right, bottom), as JSON; screenshots into a folder if given.

    python tests/rumbugz_framing_driver.py 1280x800 en PLAYERS [SHOTS_DIR]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def bug_pixels(image):
    """A mask of the frame's pixels in a bug's colour (each number's own; but 11's brown, which the racks' wood
    and the labels' shadows come near)."""
    import numpy
    from nmbr9.bug_assets import BUG_COLOURS
    w, h = image.getXSize(), image.getYSize()
    rgb = numpy.frombuffer(bytes(image.getRamImageAs("RGB")), numpy.uint8).reshape(h, w, 3)[::-1].astype(int)
    mask = numpy.zeros((h, w), bool)
    for number, colour in BUG_COLOURS.items():
        if number == 11:
            continue
        want = numpy.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
        mask |= (abs(rgb - want) < 40).all(axis=2)
    return mask


def label_boxes(app, screen, size):
    """Each label over the table, as it faces the camera: its card's corners projected onto the window."""
    from panda3d.core import Vec3
    cam, render = screen.camera.camera, app.base.render
    across, up = render.getRelativeVector(cam, Vec3(1, 0, 0)), render.getRelativeVector(cam, Vec3(0, 0, 1))
    boxes = []
    for label in screen.table.labels.findAllMatches("**/+TextNode"):
        left, right, bottom, top = label.node().getCardActual()
        k, middle = label.getScale(render).x, label.getPos(render)
        points = [on_window(app, cam, middle + across * x * k + up * z * k)
                  for x in (left, right) for z in (bottom, top)]
        boxes.append({"text": label.node().getText(), "box": pixels(points, size)})
    return boxes


def on_window(app, cam, point):
    """A world point on the window (-1..1 each way; beyond, where it lies outside: the lens's project says
    nothing there), the film offset that frames the table in its room included."""
    from panda3d.core import Point4
    q = cam.getRelativePoint(app.base.render, point)
    p = app.base.camLens.getProjectionMat().xform(Point4(q.x, q.y, q.z, 1))
    return p.x / p.w, p.y / p.w


def pixels(points, size):
    """(left, top, right, bottom) in pixels of window points (-1..1 each way)."""
    xs, ys = [(x + 1) / 2 * size[0] for x, _y in points], [(1 - y) / 2 * size[1] for _x, y in points]
    return [round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys))]


def main() -> None:
    size = tuple(int(n) for n in sys.argv[1].split("x"))
    language = sys.argv[2]
    players = int(sys.argv[3])
    shots = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    import numpy
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Point3
    from nmbr9.i18n import set_language
    from helpers import frames, game_app
    from test_rumbugz_window import play_until
    set_language(language)
    app = game_app(size)
    app.settings = app.settings.changed(animation_speed=0.0)
    seats = [{"name": name, "kind": "bot:hard"} for name in ("Ann", "Ben", "Carl", "Dora", "Emil", "Fritz")[:players]]
    game = app.store.new_rumbugz(seats, seed=11, rounds=1)
    play_until(game, lambda g: len(g.round.table) >= 5 and g.mover() == 0 and g.round.step == "play")
    game.seats[0]["kind"] = "human"   # (the bots played her moves up to here)
    app.play(game)
    frames(app, 6)
    out = {"size": size, "views": {}}
    screen = app.screen
    for name, keys in (("default", []), ("turned", ["a"] * 6 + ["s"] * 3)):
        for key in keys:
            messenger.send(key)
            frames(app, 1)
        frames(app, 4)
        app.base.graphicsEngine.renderFrame()
        image = app.base.win.getScreenshot()
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
            image.write(str(shots / f"table-{players}-{name}-{size[0]}x{size[1]}-{language}.png"))
        ys, xs = numpy.nonzero(bug_pixels(image))
        out["views"][name] = {"bugs": [int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())] if len(xs) else None,
                              "labels": label_boxes(app, screen, size)}
    r2d = app.base.render2d
    out["buttons"] = []
    for button in screen.buttons.values():
        if not button.isHidden():
            left, right, bottom, top = button.guiItem.getFrame()
            corners = [r2d.getRelativePoint(button, Point3(x, 0, z)) for x in (left, right) for z in (bottom, top)]
            out["buttons"].append(pixels([(c.x, c.z) for c in corners], size))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
