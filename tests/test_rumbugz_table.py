"""The RumBugz table drawn offscreen: each bug's colour and number where the rules' view has it, the PLYT unlike
any number, the other hands only backs; `nmbr9 render` of a RumBugz record."""
from __future__ import annotations

import argparse
import json
import random
from collections import Counter

import numpy as np
import pytest
from panda3d.core import PNMImage, Point3

from nmbr9.assets import rgb
from nmbr9.bug_assets import BUG_BACK_COLOUR, BUG_COLOURS, PLYT_COLOUR, TEX_HALF, TEX_PX, label_ink
from nmbr9.rumbugz.rules import Laid, View

pytestmark = pytest.mark.render

KINDS = {**{str(n): c for n, c in BUG_COLOURS.items()}, "P": PLYT_COLOUR, "back": BUG_BACK_COLOUR}
PALETTE = {k: np.array(rgb(c)) / np.linalg.norm(rgb(c)) for k, c in KINDS.items()}
# every number once, two PLYT among them (one standing for a number no bug near it has)
TABLE = [Laid(0, ("1", "2", "3", "4", "P5"), "single"), Laid(1, ("6", "8", "10", "12"), "double"),
         Laid(0, ("P1", "4", "7", "10"), "triple"), Laid(1, ("9", "9", "9", "9"), "match"),
         Laid(2, ("8", "9", "10", "11"), "single")]


def colour_name(pixel) -> str:
    """The bug kind whose colour points the same way (light and shade do not matter)."""
    v = np.asarray(pixel, float)
    v = v / max(1e-9, np.linalg.norm(v))
    return max(PALETTE, key=lambda k: float(v @ PALETTE[k]))


def a_view(players: int = 3) -> View:
    return View(players=players, first=0, table=list(TABLE), pile=["5", "11", "3"], bag_size=17,
                kinds=[set() for _ in range(players)], hand_sizes=[5, 7, 4, 6, 6, 6][:players], me=0,
                my_hand=Counter(["2", "6", "P", "12", "7"]))


@pytest.fixture
def picture(scene):
    from nmbr9.scene.rumbugz_table import BugPicture
    return BugPicture(scene)


def on_screen(picture, image: PNMImage, world) -> tuple[int, int]:
    mx, my = picture.camera.screen_point(Point3(*world))
    return int((mx + 1) / 2 * image.getXSize()), int((1 - my) / 2 * image.getYSize())


def pixel(picture, image, world) -> np.ndarray:
    return np.array(image.getXel(*on_screen(picture, image, world)))


def shoot_close(picture, view, placed_at, angle="top"):
    """A picture framed on a few bugs (their tops' points), so each is many pixels across."""
    from nmbr9.scene.render import photograph
    xs, ys = [p.x for p in placed_at], [p.y for p in placed_at]
    picture.camera.frame((min(xs) - 0.6, -max(ys) - 0.6, max(xs) - 0.4, -min(ys) - 0.4))
    return photograph(picture.base, picture.camera, angle, zoom=1.0)


def test_each_laid_bug_shows_its_colour_and_its_number_where_the_view_has_it(picture):
    view = a_view()
    picture.table.show(view, ["Ana", "Bo", "Cy"])
    laid = [p for p in picture.table.placed if p.place == "table"]
    assert [p.stands_for for p in laid] == [v for s in TABLE for v in s.values()]
    templates = {str(n): label_ink(str(n)) for n in BUG_COLOURS}
    grid = [(x, y) for x in np.linspace(-0.28, 0.28, 15) for y in np.linspace(-0.34, 0.22, 15)]
    for y in sorted({round(p.top.y, 3) for p in laid}):
        row = [p for p in laid if round(p.top.y, 3) == y]
        image = shoot_close(picture, view, [p.top for p in row])
        for bug in row:
            if bug.bug == "P":
                continue
            # the colour, on the darker band across the front of its back, away from the number
            seen = colour_name(pixel(picture, image, bug.top + Point3(0, 0.38, 0)))
            assert seen == bug.bug, f"bug {bug.bug} at {bug.top} shows the colour of {seen}"
            # the number: the picture's shading over the number's box matches this number's ink best
            shade = np.array([pixel(picture, image, bug.top + Point3(x, y, 0)).sum() for x, y in grid])
            score = {}
            for label, ink in templates.items():
                want = np.array([ink[int((TEX_HALF - y) / (2 * TEX_HALF) * TEX_PX),
                                     int((x + TEX_HALF) / (2 * TEX_HALF) * TEX_PX)] for x, y in grid])
                score[label] = abs(np.corrcoef(shade, want)[0, 1])   # (dark ink on the light bugs)
            assert max(score, key=score.get) == bug.bug, f"bug {bug.bug} reads as {max(score, key=score.get)}"


def test_a_plyt_looks_like_no_number_and_shows_the_number_it_stands_for(picture):
    view = a_view()
    picture.table.show(view, ["Ana", "Bo", "Cy"])
    laid = [p for p in picture.table.placed if p.place == "table"]
    plyt = next(p for p in laid if p.bug == "P")
    number = next(p for p in laid if p.bug == "4")
    image = shoot_close(picture, view, [plyt.top, number.top])
    ring = [Point3(0.33 * np.cos(a), 0.43 * np.sin(a), 0) for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)]
    plyt_rim = {colour_name(pixel(picture, image, plyt.top + d)) for d in ring}
    number_rim = {colour_name(pixel(picture, image, number.top + d)) for d in ring}
    assert number_rim == {"4"}
    assert len(plyt_rim - {"P"}) >= 4, plyt_rim      # a rainbow round it: many colours, not one number's
    # its number on a badge in front of it: the badge's dark disc and light numeral where nothing else lies
    badge = [pixel(picture, image, plyt.top + Point3(x, -0.62, -plyt.top.z)) for x in np.linspace(-0.2, 0.2, 9)]
    assert min(p.max() for p in badge) < 0.2 and max(p.min() for p in badge) > 0.6


def test_the_viewers_rack_shows_their_bugs_and_the_other_hands_only_backs(picture):
    from nmbr9.scene.rumbugz_table import RACK_STAND
    view = a_view(players=6)
    picture.table.show(view, [f"P{i}" for i in range(6)])
    others = [p for p in picture.table.placed if p.place == "other"]
    assert len(others) == sum(view.hand_sizes[1:])
    assert all(p.bug is None and p.model == "back" for p in others)
    rack = [p for p in picture.table.placed if p.place == "rack"]
    assert sorted(p.bug for p in rack) == sorted(view.my_hand.elements())
    image = picture.shoot(view, [f"P{i}" for i in range(6)])   # (from above, a rack's name covers a back)
    backs = Counter(colour_name(pixel(picture, image, p.top)) for p in others)
    assert backs == {"back": len(others)}, backs
    lean = np.radians(RACK_STAND)   # the rack's bugs stand leaning towards the viewer: the band across their front
    front = Point3(0, 0.38 * np.cos(lean), 0.38 * np.sin(lean))
    for bug in rack:
        if bug.bug != "P":
            assert colour_name(pixel(picture, image, bug.top + front)) == bug.bug


def test_the_top_discard_is_drawn_whole_on_the_pile(picture):
    view = a_view()
    picture.table.show(view, ["Ana", "Bo", "Cy"])
    pile = [p for p in picture.table.placed if p.place == "pile"]
    assert [p.bug for p in pile] == view.pile
    image = shoot_close(picture, view, [p.top for p in pile])
    top = pile[-1]
    assert max(p.top.z for p in pile) == top.top.z
    for d in (Point3(0, 0.38, 0), Point3(-0.3, 0, 0), Point3(0.3, -0.1, 0)):
        assert colour_name(pixel(picture, image, top.top + d)) == top.bug


def _record(path, players=3, seed=5) -> dict:
    from nmbr9.rumbugz.bots import make_bot
    from nmbr9.rumbugz.play import play_round
    played = play_round([make_bot("medium", seed + i) for i in range(players)],
                        [{"name": f"Bug {i}", "kind": "human"} for i in range(players)], random.Random(seed))
    path.write_text(json.dumps(played.record))
    return played.record


def test_render_draws_a_rumbugz_record_as_one_player_sees_it_at_a_move(scene, tmp_path, capsys):
    from nmbr9.rumbugz.rules import load_record, replay
    from nmbr9.scene.render import main as render
    path = tmp_path / "round.json"
    record = _record(path)
    move = len(record["moves"]) // 2

    def run(**kw) -> int:
        args = dict(file=str(path), out=str(tmp_path / "table.png"), size="320x200", player=1, angle="default",
                    levels=False, move=move)
        return render(argparse.Namespace(**{**args, **kw}))
    assert run() == 0
    r = load_record(path)
    r.moves = r.moves[:move]
    hand = replay(r).game.hand_sizes[1]
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote {tmp_path / 'table.png'} (320x200): Bug 1's view after {move} moves: "
                           f"{hand} bugs in hand"), said
    image = PNMImage(str(tmp_path / "table.png"))   # (in the tests' shared window: its size, not --size)
    pixels = np.array([[image.getXel(c, r) for c in range(0, image.getXSize(), 4)]
                       for r in range(0, image.getYSize(), 4)]).reshape(-1, 3)
    assert len({colour_name(p) for p in pixels if p.max() > 0.45}) >= 5   # bugs of many colours on the cloth
    assert run(move=len(record["moves"]) + 1) == 2
    assert "there is no move" in capsys.readouterr().out
    assert run(player=3) == 2 and "no player 3" in capsys.readouterr().out
    broken = dict(record, moves=[{"player": (record["first"] + 1) % 3, "draw": "bag"}])
    path.write_text(json.dumps(broken))
    assert run(move=None) == 1
    assert capsys.readouterr().out.startswith("Illegal move 0 (player")


def test_render_of_an_nmbr9_record_takes_a_move_too(scene, tmp_path, capsys):
    from nmbr9.bench import seeded_board
    from nmbr9.rules.record import game_record
    from nmbr9.scene.render import main as render
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(seeded_board(6, 1))))
    for move, tiles in ((None, 6), (3, 3), (0, 0)):
        assert render(argparse.Namespace(file=str(path), out=str(tmp_path / "b.png"), size="320x200", player=0,
                                         angle="top", levels=False, move=move)) == 0
        assert f", {tiles} tiles, score" in capsys.readouterr().out
