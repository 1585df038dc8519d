"""The table is framed in the part of the window the HUD leaves free: a late-game board, and a hint's
ghost, never lie under the panels (the round and cards at the top left, the scores, the buttons, the
controls' help, the Breaking Rules powers), in tall, 4:3 and 16:9 windows.

Each window shape needs its own ShowBase (one per process): run as a script, this file is that
subprocess; it prints, as JSON, every sample point of a board (or ghost) that lies under a widget.
With NMBR9_SHOTS=DIR it saves a picture of each table there.
"""
from __future__ import annotations

import functools
import json
import os
import random
import sys

import pytest
from helpers import script_output

SIZES = ["600x900", "450x800", "800x600", "1024x768", "1280x720"]


@functools.lru_cache(maxsize=None)   # one run per window shape serves every test
def _probe(size: str) -> dict:
    return script_output([__file__, size], "en")


@pytest.mark.render
@pytest.mark.parametrize("size", SIZES)
def test_a_late_board_and_a_hint_lie_clear_of_the_hud(size):
    found = _probe(size)
    assert set(found) == {"a deep board, the controls shown", "a deep board", "a wide board",
                          "a hint beside a board, Breaking Rules"}
    for table, problems in found.items():
        assert problems["tiles"] >= 16, table
        if size == "450x800" and "controls shown" in table:
            # the controls' help (six long lines) takes the middle of a window this narrow: the table is
            # framed under it, not squeezed beside it, until H (or the first tile laid) folds it
            continue
        assert problems["off_screen"] == [], f"{size}, {table}: out of the window: {problems['off_screen']}"
        assert problems["under"] == [], f"{size}, {table}: under the HUD: {problems['under']}"


@pytest.mark.render
def test_in_a_4_3_window_the_table_takes_the_width_beside_the_round_and_cards():
    # the key help under the cards to come is no wider than they are: as wide as its keys in two lines,
    # it pushed the table's room in, to a third of the window's width
    found = _probe("1024x768")
    for table in ("a wide board", "a hint beside a board, Breaking Rules"):
        assert found[table]["span"][0] >= 0.37, f"{table}: {found[table]['span'][0]:.2f} of the window's width"


# ----- the subprocess ---------------------------------------------------------------------

def lay_tiles(match, count: int, seed: int, deep: bool) -> None:
    """Lay `count` tiles for the only player, mostly on the table: spread wide, or (deep) in a long
    column running towards the camera."""
    rng = random.Random(seed)
    while len(match.board(0).tiles) < count:
        options = match.legal_placements(0)
        if deep:
            def width(p):
                xs = [x for x, _y in p.squares()] + [x for t in match.board(0).tiles for x, _y in t.squares()]
                return max(xs) - min(xs)
            narrowest = min(map(width, options))
            options = [p for p in options if width(p) <= narrowest + 1]
        elif rng.random() < 0.1:
            options = [p for p in options if p.level == max(q.level for q in options)]
        match.play(0, rng.choice(options))
        if match.options(0).can_end:   # a turn left open for a power (Relocate)
            match.end_turn(0)


def main(size: str) -> None:
    import threading
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Filename, Point2, Point3
    from nmbr9.rules import Placement, Ruleset, Seat
    from nmbr9.rules.game import BREAKING_RULES, POWERS
    from nmbr9.scene.base import parse_size
    from nmbr9.scene.camera import level_height
    from helpers import frames, game_app

    app = game_app(parse_size(size))
    base = app.base
    app.settings = app.settings.changed(animation_speed=0.0)
    shots = os.environ.get("NMBR9_SHOTS")

    def until_placing(s):
        for _ in range(200):
            if s.ps is not None and s.ps.ghost is not None:
                return
            frames(app, 1)
        raise AssertionError("no tile in hand")

    def widgets():
        """Every widget on screen: its text (or name) and its box in aspect2d (left, right, bottom, top)."""
        out = []
        for w in list(DirectGuiWidget.guiDict.values()):
            if w.isEmpty() or not base.aspect2d.isAncestorOf(w) or w.isHidden() or \
                    any(p.isHidden() for p in w.getAncestors()):
                continue
            left, right, bottom, top = w.guiItem.getFrame()
            if right > left and top > bottom:
                a = base.aspect2d.getRelativePoint(w, Point3(left, 0, bottom))
                b = base.aspect2d.getRelativePoint(w, Point3(right, 0, top))
                text = w["text"] if isinstance(w["text"], str) and w["text"] else w.guiItem.getName()
                out.append((text.split("\n")[0][:40], (min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z))))
        return out

    def check(name, pieces):
        """Where the pieces' top faces lie on screen (corners, edge middles, middle of each square)."""
        if shots:
            base.graphicsEngine.renderFrame()
            base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{name.replace(' ', '_')}.png"))
        boxes, under, off_screen, seen = widgets(), set(), [], []
        for squares, level in pieces:
            for x, y in squares:
                for dx in (0.02, 0.5, 0.98):
                    for dy in (0.02, 0.5, 0.98):
                        out, top = Point2(), Point3(x + dx, -(y + dy), level_height(level + 1))
                        if not base.camLens.project(base.cam.getRelativePoint(base.render, top), out):
                            off_screen.append((x, y))
                            continue
                        seen.append(out)
                        sx, sy = out.x * base.a2dRight, out.y * base.a2dTop
                        under |= {text for text, (l, r, b, t) in boxes if l < sx < r and b < sy < t}
        # how much of the window's width and height the board takes
        span = [(max(p[i] for p in seen) - min(p[i] for p in seen)) / 2 for i in (0, 1)] if seen else [0, 0]
        found[name] = {"tiles": len(pieces), "under": sorted(under), "off_screen": off_screen, "span": span}

    def board_pieces(board):
        return [(t.squares(), t.level) for t in board.tiles]

    found = {}
    m = app.store.new_match([Seat("Ana")], seed=5)
    lay_tiles(m, 18, 5, deep=True)
    s = app.play(m)   # as after Continue: the controls' help is folded
    until_placing(s)
    frames(app, 10)
    check("a deep board", board_pieces(m.board(0)))
    messenger.send("h")   # the player opens it
    frames(app, 6)
    assert not s.ps.hud.legend.isHidden()
    check("a deep board, the controls shown", board_pieces(m.board(0)))

    m = app.store.new_match([Seat("Ana")], seed=7)
    lay_tiles(m, 19, 7, deep=False)
    s = app.play(m)
    until_placing(s)
    frames(app, 10)
    assert s.ps.hud.legend.isHidden()
    check("a wide board", board_pieces(m.board(0)))

    m = app.store.new_match([Seat("Ana")], seed=7, ruleset=Ruleset(modules=(BREAKING_RULES,), powers=POWERS))
    lay_tiles(m, 16, 7, deep=False)
    s = app.play(m)
    until_placing(s)   # (the controls' help folded: the powers need the room)
    frames(app, 10)
    x0, y0, x1, y1 = m.board(0).bounds()
    hint = Placement(m.game.card, 0, x0 - 4, y1 + 3)   # in front of the board, to the left: by the powers
    done = threading.Thread(target=lambda: None)
    done.start(), done.join()
    s.hint = {"key": s.hint_key(), "thread": done, "ghost": None, "result": {"placement": hint}}
    frames(app, 40)   # the camera glides out to show it
    assert s.hint["ghost"] is not None
    check("a hint beside a board, Breaking Rules", board_pieces(m.board(0)) + [(hint.squares(), 0)])
    app.screen.exit()
    print(json.dumps(found))


if __name__ == "__main__":  # PYTHONPATH holds the checkout (see _probe)
    main(sys.argv[1])
