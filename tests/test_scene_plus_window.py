"""NMBR 9 ++ in a real window under Xvfb: the mouse arms Flip on the Breaking Rules panel (without
dropping the tile), puts the tile down on the table, and Enter lays it black side up; Ctrl+number arms a
power and prints the trace line a click prints."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_window_e2e import display  # noqa: F401  (a fixture; skips without Xvfb and xdotool)

pytestmark = pytest.mark.window
DRIVER = Path(__file__).resolve().parent / "plus_window_driver.py"


def drive(driver: Path, display: str, tmp_path) -> dict:
    """Run a window driver script on the display; what it found, from its last JSON line."""
    env = {**os.environ, "DISPLAY": display, "NMBR9_DATA": str(tmp_path / "data"), "NMBR9_NO_AUDIO": "1",
           "LANGUAGE": "en", "NMBR9_TRACE": "1"}
    done = subprocess.run([sys.executable, str(driver)], env=env, capture_output=True, text=True, timeout=180)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, done.stdout[-2000:] + done.stderr[-2000:]
    return {**json.loads(lines[-1]), "trace": [line for line in done.stdout.splitlines() if line.startswith("trace:")]}


def test_flip_with_the_mouse_in_a_real_window(display, tmp_path):  # noqa: F811
    out = drive(DRIVER, display, tmp_path)
    assert out["powers_after_key"] == [["loner"], []]
    plus = [line.split(" seat=")[0] for line in out["trace"] if line.startswith("trace: plus ")]
    assert plus == ["trace: plus toggle_power loner"] * 2 + ["trace: plus toggle_power flip"]   # keys as a click
    assert out["held"] and out["flipped_after_button"] and out["still_held"]   # a GUI click, not a drop
    assert out["verdict_ok"]
    assert out["tiles"][0][0].startswith("S") and out["tiles"][-1] == [out["start"], True]
    assert out["powers"] == ["flip"]


NARROW = Path(__file__).resolve().parent / "plus_narrow_driver.py"


def test_in_a_4_3_window_the_notes_stay_off_the_breaking_rules_panel(display, tmp_path):  # noqa: F811
    out = drive(NARROW, display, tmp_path)
    p_left, p_right, p_bottom, p_top = out["powers"]
    assert out["notes"], out["lines"]
    for left, right, bottom, top in out["notes"]:
        assert right < p_left or left > p_right or top < p_bottom or bottom > p_top, (out["notes"], out["powers"])


CHOICE = Path(__file__).resolve().parent / "plus_narrow_choice_driver.py"


def test_in_a_4_3_window_the_level_to_level_question_keeps_off_the_key_help(display, tmp_path):  # noqa: F811
    """At 800x600 "Choose one of the shown tiles" and its buttons lay over the key help's lines; the key
    help now steps aside while the question stands (as it does for the piles), and comes back after."""
    out = drive(CHOICE, display, tmp_path)
    assert "Choose one of the shown tiles; you may build it up to its marker's level." in out["lines"]
    if out["keys"] is not None:
        q_left, q_right, q_bottom, q_top = out["question"]
        left, right, bottom, top = out["keys"]
        assert right < q_left or left > q_right or top < q_bottom or bottom > q_top, (out["keys"], out["question"])
    assert out["keys_after"] is not None
