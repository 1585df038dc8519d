"""Offscreen pictures of boards: every tile shows its colour where it lies; levels show."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from panda3d.core import PNMImage, Point3

from nmbr9.assets import rgb
from nmbr9.bench import seeded_board
from nmbr9.paths import ROOT
from nmbr9.rules import Board, Placement
from nmbr9.rules.record import game_record, load_record, record_game
from nmbr9.rules.tiles import COLOURS

pytestmark = pytest.mark.render

PALETTE = {d: np.array(rgb(c)) / np.linalg.norm(rgb(c)) for d, c in COLOURS.items()}


def colour_name(pixel) -> int:
    """The palette number whose colour points the same way (shade and light do not matter)."""
    v = np.asarray(pixel, float)
    v = v / max(1e-9, np.linalg.norm(v))
    return max(PALETTE, key=lambda d: float(v @ PALETTE[d]))


def pixel_at(picture, image: PNMImage, world) -> tuple:
    mx, my = picture.camera.screen_point(Point3(*world))
    col = int((mx + 1) / 2 * image.getXSize())
    row = int((1 - my) / 2 * image.getYSize())
    return tuple(image.getXel(col, row))


def plain_points(board: Board, p: Placement):
    """Points on the tile's exposed top away from the printed numeral (near its box's edge)."""
    squares = p.squares()
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
    for sx, sy in squares:
        if board.height_at(sx, sy) != p.level + 1:
            continue  # covered by a higher tile
        for dx, dy in ((0.2, 0.5), (0.8, 0.5), (0.5, 0.2), (0.5, 0.8)):
            x, y = sx + dx, sy + dy
            if min(x - x0, x1 - x, y - y0, y1 - y) < 0.3:
                yield (x, -y)


@pytest.fixture
def picture(scene):
    from nmbr9.scene.render import BoardPicture
    return BoardPicture(scene)


def test_every_tile_shows_its_colour_where_the_board_has_it(picture, tmp_path):
    # a known board, read back from its game record
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(seeded_board(20, 3))))
    board = record_game(load_record(path)).boards[0]
    assert {p.piece for p in board.tiles} == set(range(10))
    image = picture.shoot(board, "top")
    from nmbr9.scene.camera import level_height
    checked = set()
    for p in board.tiles:
        for x, y in plain_points(board, p):
            seen = colour_name(pixel_at(picture, image, (x, y, level_height(p.level + 1))))
            assert seen == p.piece, f"tile {p} shows colour of {seen} at ({x:.1f}, {y:.1f})"
            checked.add(p.piece)
    assert checked == set(range(10))


def test_a_tile_on_level_one_is_drawn_higher_and_changes_the_picture(picture):
    from nmbr9.scene.camera import level_height
    board = Board()
    for p in (Placement(9, 0, 0, 0), Placement(5, 0, 3, 0), Placement(6, 0, 0, 4), Placement(0, 0, 3, 4)):
        board.place(p)
    up = next(p for p in board.legal_placements(7) if p.level == 1)
    before = picture.shoot(board, "low")
    raised = board.copy()
    raised.place(up)
    after = picture.shoot(raised, "low")
    points = list(plain_points(raised, raised.tiles[-1]))
    assert points
    for x, y in points:
        top = (x, y, level_height(2))
        assert colour_name(pixel_at(picture, after, top)) == 7
        assert colour_name(pixel_at(picture, before, top)) != 7
    a = np.array([[after.getXel(c, r) for c in range(0, after.getXSize(), 8)] for r in range(0, after.getYSize(), 8)])
    b = np.array([[before.getXel(c, r) for c in range(0, before.getXSize(), 8)] for r in range(0, before.getYSize(), 8)])
    assert np.abs(a - b).sum(-1).max() > 0.3


def test_render_command_writes_a_picture_of_the_chosen_player(tmp_path):
    game = seeded_board(6, 1)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game_record(game)))
    out = tmp_path / "board.png"
    done = subprocess.run([sys.executable, "-m", "nmbr9", "render", str(record), "--out", str(out),
                           "--size", "320x200", "--player", "0"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pipe types" not in done.stderr   # Panda3D's list of its graphics pipes is no news to a player
    image = PNMImage(str(out))
    assert (image.getXSize(), image.getYSize()) == (320, 200)
    assert "6 tiles" in done.stdout
    labelled = tmp_path / "levels.png"
    done = subprocess.run([sys.executable, "-m", "nmbr9", "render", str(record), "--out", str(labelled),
                           "--size", "320x200", "--levels"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    plain, marked = (np.array([[image.getXel(c, r) for c in range(0, 320, 2)] for r in range(0, 200, 2)])
                     for image in (PNMImage(str(out)), PNMImage(str(labelled))))
    changed = np.abs(plain - marked).max(-1) > 0.3
    assert changed.sum() > 6 * 5, changed.sum()   # --levels puts badges (as L at the table) on the 6 tiles
    bad = subprocess.run([sys.executable, "-m", "nmbr9", "render", str(record), "--out", str(out),
                          "--player", "3"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and "no player 3" in bad.stdout and "Traceback" not in bad.stderr
    german = subprocess.run([sys.executable, "-m", "nmbr9", "render", str(record), "--out", str(out),
                             "--size", "5x5"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env={**os.environ, "LANGUAGE": "de"})
    assert german.returncode == 2 and german.stdout.startswith("Kein Bild möglich: die Größe 5x5")


def test_render_says_an_illegal_move_as_replay_does_with_exit_status_1(tmp_path, capsys):
    """render exited 2 ("not a usable record") on a record with an illegal move, where replay, moves and analyse
    exit 1 and say the move and the rule (spec/game-record.md)."""
    import argparse
    from nmbr9.cli import cmd_replay
    from nmbr9.scene.render import main as render
    data = game_record(seeded_board(6, 1))
    data["moves"][1].update(x=data["moves"][0]["x"], y=data["moves"][0]["y"])   # the 2 on the 5: overlap
    record = tmp_path / "game.json"
    record.write_text(json.dumps(data))
    assert cmd_replay(argparse.Namespace(file=str(record), json=False)) == 1
    said = capsys.readouterr().out
    assert said.startswith("Illegal move 1 (round 2, player 0)")
    assert render(argparse.Namespace(file=str(record), out=str(tmp_path / "board.png"), size="320x200", player=0,
                                     angle="top", levels=False)) == 1
    assert capsys.readouterr().out == said
    assert not (tmp_path / "board.png").exists()


def test_render_never_spoils_the_file_it_was_given(scene, tmp_path, monkeypatch, capsys):
    """A name that is no picture is refused before the file is touched, and a full disk is said and
    keeps the previous picture (Panda3D wrote the file itself: an empty notes.txt, 'Wrote' an empty PNG)."""
    import argparse
    import errno
    from nmbr9.scene.render import main as render
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game_record(seeded_board(6, 1))))

    def run(out) -> int:
        return render(argparse.Namespace(file=str(record), out=str(out), size="320x200", player=0, angle="top",
                                         levels=False))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert run(notes) == 2
    assert notes.read_text() == "my notes"
    assert "notes.txt is not a kind of picture this game writes" in capsys.readouterr().out
    assert run(tmp_path) == 2 and "is a folder" in capsys.readouterr().out
    board = tmp_path / "board.png"
    board.write_bytes(b"the last picture")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr("nmbr9.store.files.os.write", full)
    assert run(board) == 2
    assert "Could not save board.png: No space left on device" in capsys.readouterr().out
    assert board.read_bytes() == b"the last picture"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png", "game.json", "notes.txt"]


def test_a_board_laid_far_out_on_the_table_is_pictured_as_one_laid_in_the_middle(scene, tmp_path):
    """A record may lay its tiles up to 10**9 squares out (docs/record-fields.md): its picture was the bare
    table, the tiles lost to the graphics card's coarse numbers that far out."""
    import argparse
    from nmbr9.scene.render import main as render
    near = game_record(seeded_board(6, 1))
    far = json.loads(json.dumps(near))
    for m in far["moves"]:
        m["x"] += 10 ** 9 - 100
        m["y"] -= 10 ** 9 - 100
    pictures = []
    for name, record in (("near", near), ("far", far)):
        for child in scene.render.getChildren():   # the first picture's table, left on the tests' shared base,
            if child != scene.camera:              # is no part of the second
                child.removeNode()
        (tmp_path / f"{name}.json").write_text(json.dumps(record))
        assert render(argparse.Namespace(file=str(tmp_path / f"{name}.json"), out=str(tmp_path / f"{name}.png"),
                                         size="320x200", player=0, angle="top", levels=False)) == 0
        image = PNMImage(str(tmp_path / f"{name}.png"))
        pictures.append(np.array([[image.getXel(c, r) for c in range(0, image.getXSize(), 4)]
                                  for r in range(0, image.getYSize(), 4)]))
    tiles = {colour_name(px) for row in pictures[0] for px in row}
    assert len(tiles) > 4, "the near board shows its tiles' colours"
    differ = np.abs(pictures[0] - pictures[1]).max(-1) > 0.05   # (an edge's smoothing may differ a shade)
    assert differ.mean() < 0.01, differ.mean()


def test_the_software_renderer_draws_the_board_too(tmp_path):
    """Where EGL is missing Panda3D falls back to tinydisplay: the picture must still show the tiles."""
    out = tmp_path / "soft.png"
    done = subprocess.run([sys.executable, "-m", "nmbr9", "render", "docs/table-game.json", "--out", str(out),
                           "--size", "480x270", "--angle", "top"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env={**os.environ, "NMBR9_RENDERER": "software"})
    assert done.returncode == 0, done.stdout + done.stderr
    image = PNMImage(str(out))
    pixels = np.array([[image.getXel(c, r) for c in range(0, 480, 3)] for r in range(0, 270, 3)]).reshape(-1, 3)
    bright = pixels[pixels.max(1) > 0.35]          # tiles, not the dark cloth
    seen = {colour_name(p) for p in bright}
    assert len(bright) > 0.08 * len(pixels)
    assert seen >= {0, 2, 3, 6, 9}                  # grey, orange, yellow, dark blue, red among them


def test_a_flipped_tile_shows_its_dark_back_on_its_mirrored_squares(picture):
    from nmbr9.assets import BACK
    from nmbr9.scene.camera import level_height
    board = Board()
    board.place(Placement(7, 90, 0, 0, flipped=True))   # the flip power: black side up, mirrored
    image = picture.shoot(board, "top")
    squares = set(board.tiles[0].squares())
    assert squares != set(Placement(7, 90, 0, 0).squares())  # mirrored, so not the plain 7's squares
    for x in range(-1, 5):
        for y in range(-1, 5):
            pixel = np.array(pixel_at(picture, image, (x + 0.5, -(y + 0.5), level_height(1))))
            dark = np.abs(pixel - np.array(BACK)).max() < 0.06
            assert dark == ((x, y) in squares), f"square ({x}, {y})"


RULES_OVER_A_TALL_TABLE = """
import sys
from direct.showbase.MessengerGlobal import messenger
from nmbr9.rules import Seat
from tests.helpers import game_app
app = game_app((450, 800))
base, store = app.base, app.store
app.play(store.new_match([Seat("Ana")], seed=3))
for _ in range(5):
    base.taskMgr.step()
messenger.send("f1")
for _ in range(5):
    base.taskMgr.step()
base.win.saveScreenshot(sys.argv[1])
"""


def test_the_rules_over_the_table_cover_a_tall_window_top_to_bottom(tmp_path):
    """The rules over the table, laid out in a tall window's room: their backdrop reaches the top and
    bottom (it left bands where the table showed)."""
    out, temp = tmp_path / "tall.png", tmp_path / "temp"
    temp.mkdir()
    done = subprocess.run([sys.executable, "-c", RULES_OVER_A_TALL_TABLE, str(out)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, "TMPDIR": str(temp)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert not list(temp.iterdir()), "the game's data folder is removed when the script ends"
    image = PNMImage(str(out))
    edges = np.array([image.getXel(x, y) for y in (2, 400, 797) for x in range(0, 450, 5)]).reshape(3, -1, 3)
    assert np.abs(edges[0] - edges[1][:1]).max() < 0.03 and np.abs(edges[2] - edges[1][:1]).max() < 0.03


def test_l_shows_each_tiles_level_on_the_part_of_its_top_that_shows_and_again_hides_it(picture):
    """Seen from above the levels differed only by a small brightness step: L puts a badge with the tile's level
    on a square of its top that no higher tile covers, and L again takes the badges away."""
    from helpers import level_badge
    board = Board()
    for p in (Placement(9, 0, 0, 0), Placement(5, 0, 3, 0), Placement(6, 0, 0, 4), Placement(0, 0, 3, 4)):
        board.place(p)
    board.place(next(p for p in board.legal_placements(7) if p.level == 1))
    shown = {}
    for badges in (False, True, False):
        picture.shoot(board, "top", levels=badges)
        picture.camera.zoom = 0.55   # closer: the numerals get pixels enough to tell apart
        picture.camera.apply()
        picture.table.fit_levels()   # as every frame does in the game
        picture.base.graphicsEngine.renderFrame()
        image = PNMImage()
        picture.base.win.getScreenshot(image)
        seen = {(i, s): level_badge(image, picture.camera, picture.table, s, p.level)
                for i, p in enumerate(board.tiles) for s in p.squares() if board.height_at(*s) == p.level + 1}
        if not badges:
            assert not any(ink is not None for ink in seen.values())
            continue
        for i, p in enumerate(board.tiles):   # one badge a tile, on a square of it that shows
            on = [ink for (j, _), ink in seen.items() if j == i and ink is not None]
            assert len(on) == 1, (p, on)
            shown[i] = on[0]
    assert max(shown[i] for i in range(4)) < 0.3 and shown[4] > 0.6   # four 0s (dark in the middle), the 7's 1


def test_each_level_of_a_stack_shows_brighter_than_the_level_under_it(picture):
    """Without the L badges, from the default view, a stack reads as height: the tops of each level show brighter
    than those of the level under it, measured against each tile's own colour (level 3's tops were as bright as
    level 2's, both clipped near white)."""
    import random
    from nmbr9.ai import solo_game
    from nmbr9.rules import new_deck
    from nmbr9.scene.camera import level_height
    board = solo_game("medium", new_deck(random.Random(3)), 3)[0].boards[0]
    assert board.top_level() == 3   # a known stack, four levels high
    image = picture.shoot(board)
    shade: dict = {}
    for p in board.tiles:
        seen = [np.linalg.norm(pixel_at(picture, image, (x, y, level_height(p.level + 1)))) /
                np.linalg.norm(rgb(COLOURS[p.piece])) for x, y in plain_points(board, p)]
        if seen:
            shade.setdefault(p.level, []).append(float(np.median(seen)))
    levels = [float(np.median(shade[level])) for level in range(4)]
    assert all(higher - lower >= 0.05 for lower, higher in zip(levels, levels[1:])), levels


def test_a_tiles_side_shows_a_light_rim_over_a_dark_foot(picture):
    """Where a tile's side faces the default view, its top edge is lit pale and its foot dark, so a level stands
    out from the one under it without the L badges: the side's top at least 1.6 times as bright as its foot on
    every such side of a known 4-level stack, 1.7 times on most (it was 1.4: a plain shade of the tile's colour)."""
    import random
    from nmbr9.ai import solo_game
    from nmbr9.assets import BEVEL, TILE_THICKNESS
    from nmbr9.rules import new_deck
    from nmbr9.scene.camera import level_height
    board = solo_game("medium", new_deck(random.Random(3)), 3)[0].boards[0]
    image = picture.shoot(board)
    ratios = []
    for p in board.tiles:
        own, z = set(p.squares()), level_height(p.level)
        for x, y in own:   # the squares whose side towards the camera shows, nothing in front of it as high
            if (x, y + 1) in own or board.height_at(x, y) != p.level + 1 or board.height_at(x, y + 1) > p.level:
                continue
            rim = pixel_at(picture, image, (x + 0.5, -(y + 1) - 1e-3, z + TILE_THICKNESS - BEVEL - 0.03))
            foot = pixel_at(picture, image, (x + 0.5, -(y + 1) - 1e-3, z + 0.03))
            ratios.append(np.linalg.norm(rim) / np.linalg.norm(foot))
    assert len(ratios) > 10
    assert min(ratios) >= 1.6 and np.median(ratios) >= 1.7, sorted(ratios)
