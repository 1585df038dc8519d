"""A real window under Xvfb: the pointer path (move, click, Enter) places tiles."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from nmbr9.paths import ROOT
from tests.helpers import xvfb

pytestmark = pytest.mark.window


def _wait(predicate, timeout: float):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    return None


@pytest.fixture
def display():
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.skip("needs Xvfb and xdotool")
    with xvfb("1024x600") as name:
        yield name


@pytest.fixture
def game(display, tmp_path):
    """A solo game (seed 5) in a real 1024x600 window, its record in tmp_path: (xdo, moves, out), where xdo runs
    xdotool on its display, moves() reads the moves recorded so far, out is the file of what it printed; ready
    once its first turn has begun."""
    env = {**os.environ, "DISPLAY": display, "NMBR9_DATA": str(tmp_path), "NMBR9_TRACE": "1"}
    record, out = tmp_path / "game.json", tmp_path / "game.out"
    with open(out, "w") as printed:
        process = subprocess.Popen([sys.executable, "run_game.py", "--seed", "5", "--size", "1024x600",
                                    "--record", str(record)], cwd=ROOT, env=env, stdout=printed,
                                   stderr=subprocess.STDOUT, text=True)

    def xdo(*args):
        return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=20).stdout

    def moves():
        try:
            return json.loads(record.read_text())["moves"]
        except (OSError, ValueError):
            return []
    try:
        assert _wait(lambda: xdo("search", "--name", "NMBR 9 3D").strip(), 30), "no window"
        # the table drawn and the tile dealt (on a busy machine seconds after the window), then the moment in
        # which a press on the tile as dealt is taken for a stray one
        assert _wait(lambda: "trace: turn" in out.read_text(), 60), "no turn began:\n" + out.read_text()
        time.sleep(1.0)
        yield xdo, moves, out
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def test_mouse_then_keyboard_place_tiles_in_a_real_window(game):
    xdo, moves, _out = game
    # the tile follows the pointer: to the right of the middle, a click puts it down, Enter confirms
    xdo("mousemove", "512", "300")
    time.sleep(0.3)
    xdo("mousemove", "700", "320")
    time.sleep(1.0)
    xdo("mousemove", "702", "321")   # again, later: a loaded machine may draw a frame a second or less
    time.sleep(1.0)
    xdo("click", "1")
    time.sleep(0.3)
    xdo("key", "Return")
    first = _wait(lambda: moves(), 15)
    assert first and len(first) == 1, "the mouse and Enter did not place the first tile"
    assert first[0]["x"] > 0  # right of the middle of the view is +x
    # keyboard alone: the next tile starts at a legal spot; an arrow and back, then Enter
    xdo("key", "Right", "Left", "Return")
    second = _wait(lambda: len(moves()) == 2 and moves(), 15)
    assert second, "the keyboard did not place the second tile"


def test_a_click_on_the_greyed_confirm_button_never_reaches_the_table(game):
    """The tile in hand, refused under the Confirm button (greyed): a click there is the button's, which takes
    none, not the table's (it put the tile down there, far from the build, and the pointer no longer moved it)."""
    xdo, moves, out = game
    for x, y in ((512, 300), (600, 310), (602, 311)):   # the first tile put down and confirmed
        xdo("mousemove", str(x), str(y))
        time.sleep(1.0)
    xdo("click", "1")
    time.sleep(0.3)
    xdo("key", "Return")
    assert _wait(lambda: len(moves()) == 1, 15), "the first tile was not laid:\n" + out.read_text()
    time.sleep(1.0)   # the view glides onto the build
    # the next tile follows the pointer onto the Confirm button (815..1007 x 543..578 at 1024x600), far from
    # the build: refused, so the button is greyed; a click on it
    for x, y in ((700, 450), (905, 560), (910, 562)):
        xdo("mousemove", str(x), str(y))
        time.sleep(0.6)
    xdo("click", "1")
    time.sleep(0.5)
    # still in hand, it follows the pointer back towards the build, where it fits somewhere along the way
    for x in range(520, 1000, 16):
        xdo("mousemove", str(x), "300")
        time.sleep(0.25)
        xdo("key", "Return")
        if _wait(lambda: len(moves()) == 2, 0.3):
            break
    assert len(moves()) == 2, "the click on the greyed Confirm put the tile down under the button"
