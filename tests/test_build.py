"""Standalone builds (issue 40): the Linux archive built with `setup.py bdist_apps`, unpacked into an empty folder
and run with no virtual environment and no checkout on the path, as a player who downloaded it would: the command
line replays a record (in English and German: the catalogues), renders a board (the tile models and textures),
the game draws its first frame offscreen, and the bots think in processes of their own; each picture is compared
by pixels with the checkout's. A file the game reads that the build lacks fails here.

The build downloads the platform's wheels from PyPI (kept in build/__whl_cache__ for the next run): without PyPI
the build test is skipped, saying so."""
from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from nmbr9 import builds
from nmbr9.paths import ROOT

RECORD = ROOT / "docs" / "table-game.json"   # the README's picture: the hard bot's 113, four levels high


def pypi_reachable() -> bool:
    try:
        socket.create_connection(("pypi.org", 443), timeout=5).close()
        return True
    except OSError:
        return False


def run(command, home: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in command], env={**builds.player_env(home), **env}, cwd=home,
                          capture_output=True, text=True, timeout=300)


def pixels(path: Path):
    """The picture's RGB, 0..1."""
    import numpy as np
    from panda3d.core import PNMImage, Texture
    image, texture = PNMImage(str(path)), Texture()
    texture.load(image)
    rgb = np.frombuffer(bytes(texture.getRamImageAs("RGB")), np.uint8)
    return rgb.reshape(image.getYSize(), image.getXSize(), 3) / 255


def assert_same_picture(built_picture: Path, checkout_picture: Path) -> None:
    a, b = pixels(built_picture), pixels(checkout_picture)
    assert a.shape == b.shape
    # the same Panda3D and renderer draw both: at most a stray pixel of rounding apart
    assert abs(a - b).mean() < 0.002, f"{built_picture} differs from {checkout_picture}"
    assert a.std() > 0.05   # a picture, not a blank frame


def built_path(rel: str) -> str:
    """Where a file of the checkout lies in a build: setup.cfg's rename_paths, and .egg models made .egg.bam."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    for line in config["build_apps"]["rename_paths"].strip().splitlines():
        old, new = (s.strip() for s in line.split("="))
        if rel.startswith(old):
            rel = new + rel[len(old):]
    return rel + ".bam" if rel.endswith(".egg") else rel


def data_files() -> list[str]:
    """Every file the game reads beside its code: the art, fonts and icon, and every file in the package that
    is not Python (the catalogues, and whatever a new module brings)."""
    found = [p for folder in ("models", "textures") for p in (ROOT / folder).rglob("*") if p.is_file()]
    found += [p for p in (ROOT / "nmbr9").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc", ".md")]
    return sorted(p.relative_to(ROOT).as_posix() for p in found if "__pycache__" not in p.parts)


def test_the_build_bundles_what_the_game_depends_on():
    """requirements.txt (the wheels a build bundles) names every dependency in pyproject.toml: a package added
    there (websockets for the network game) is in the build too, not missing at a player's table."""
    tomllib = pytest.importorskip("tomllib")   # (Python 3.11 on)
    needed = {re.split(r"[<>=!~ \[;]", d)[0].lower() for d in
              tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]}
    lines = [ln.split("#")[0].strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    bundled = {re.split(r"[<>=!~ \[;]", ln)[0].lower() for ln in lines if ln}
    assert needed <= bundled, f"add {sorted(needed - bundled)} to requirements.txt"


def test_first_frame_where_no_picture_can_be_written_is_refused_before_the_window(tmp_path):
    done = run([*builds.checkout_command(), "--first-frame", tmp_path / "no-such-folder" / "first.png"], tmp_path)
    assert (done.returncode, done.stdout) == (2, f"Can't start: no folder {tmp_path / 'no-such-folder'}\n")
    done = run([*builds.checkout_command(), "--first-frame", tmp_path / "first.txt"], tmp_path)
    assert done.returncode == 2 and "name it .png or .jpg" in done.stdout


def check_every_data_file(built: Path) -> None:
    missing = [rel for rel in data_files() if not (built / built_path(rel)).is_file()]
    assert not missing, ("not in the build (setup.cfg [build_apps] include_patterns, and rename_paths for a file "
                         f"under nmbr9/: a folder nmbr9/ would clash with the program nmbr9): {missing}")


def check_replay(built: Path, home: Path) -> None:
    done = run([built / "nmbr9", "replay", RECORD], home)
    assert (done.returncode, done.stdout) == (0, "Legal game (complete). Scores: Hard bot: 113\n"), done.stderr
    done = run([built / "nmbr9", "replay", RECORD, "--json"], home)
    assert json.loads(done.stdout)["scores"] == [113]
    german = run([built / "nmbr9", "replay", RECORD], home, LANGUAGE="de")   # the catalogues are found
    assert german.stdout == "Regelgerechte Partie (vollständig). Punkte: Schwerer Bot: 113\n", german.stderr


def check_render(built: Path, home: Path) -> None:
    """The tile models (.egg.bam in the build), their textures and the fonts, drawn by the built renderer."""
    pictures = {}
    for name, command in (("built", [built / "nmbr9"]), ("checkout", builds.checkout_command())):
        pictures[name] = home / f"{name}-board.png"
        done = run([*command, "render", RECORD, "--out", pictures[name], "--size", "320x240"], home)
        assert done.returncode == 0, done.stdout + done.stderr
    assert_same_picture(pictures["built"], pictures["checkout"])


def check_first_frame(built: Path, home: Path) -> None:
    shots = Path(os.environ.get("NMBR9_SHOTS", home))   # NMBR9_SHOTS=DIR keeps the two pictures there
    pictures = {}
    for name, command in (("built", [built / "nmbr9-3d"]), ("checkout", builds.checkout_command())):
        pictures[name] = shots / f"{name}-first-frame.png"
        (home / name).mkdir()
        builds.first_frame_seconds(command, pictures[name], builds.player_env(home / name), size="640x480")
    assert_same_picture(pictures["built"], pictures["checkout"])


THINKING = """
import functools, os, time
from nmbr9.ai import worker
from nmbr9.scene.analysis_job import AnalysisJob
print(os.getpid(), worker.run(functools.partial(os.getpid)))
worker.stop()
job = AnalysisJob([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9], 1)
while job.placements is None and job.error is None:
    time.sleep(0.1)
    job.poll()
print(len(job.placements or ()), job.error)
"""


def check_thinking(built: Path, home: Path) -> None:
    """The bots' and hints' processes, and the results' analysis, start from the built program (nmbr9/built.py),
    not in the window's process. (The built program runs `-c CODE` as Python does: multiprocessing asks it to.)"""
    done = run([built / "nmbr9", "-c", THINKING], home)
    lines = done.stdout.split("\n")
    game, thinker = map(int, lines[0].split())
    assert thinker != game, done.stderr
    assert lines[1] == "20 None", done.stderr   # the best layout found: every card placed


@pytest.mark.build
def test_linux_build_runs_unpacked_with_no_python_beside_it(tmp_path):
    """One test (one build): under pytest-xdist, tests sharing a fixture each build in their own process, in the
    same build/ folder."""
    if not pypi_reachable():
        pytest.skip("PyPI (pypi.org:443) can't be reached: setup.py bdist_apps downloads the platform wheels from it")
    built = builds.unpack(builds.build(tmp_path / "dist"), tmp_path / "unpacked")
    check_every_data_file(built)
    for check in (check_replay, check_render, check_first_frame, check_thinking):
        home = tmp_path / check.__name__   # a player's home: the programs run there, away from the checkout
        home.mkdir()
        check(built, home)
    for big in ("dist", "unpacked"):   # 200 MB, kept only when a check failed (pytest keeps three runs' folders)
        shutil.rmtree(tmp_path / big)
