"""Standalone builds (`python setup.py bdist_apps`, set up in setup.cfg's [build_apps]): the Linux archive built,
unpacked and its programs run as on a player's machine, with no Python, virtual environment or checkout beside
them. tests/test_build.py checks a build this way; `nmbr9 bench build` measures the archives and the cold start.

    archive = build(dist)                    # dist/nmbr9-0.1.0_manylinux2014_x86_64.tar.gz
    programs = unpack(archive, folder)       # the folder holding the programs nmbr9-3d and nmbr9
    seconds = first_frame_seconds([str(programs / "nmbr9-3d")], picture, player_env(home))
"""
from __future__ import annotations

import subprocess
import sys
import tarfile
import time
from pathlib import Path

from .paths import ROOT

LINUX = "manylinux2014_x86_64"   # the platform of the archive built and run here (setup.cfg lists all three)
STARTS = 3                       # starts of each game `nmbr9 bench build` times


class BuildError(Exception):
    """The build failed: the end of its output says why."""


def build(dist: Path, platform: str = LINUX) -> Path:
    """Build one platform's archive into `dist` (the wheels it downloads are kept in build/__whl_cache__ for the
    next build); the archive's path."""
    done = subprocess.run([sys.executable, "setup.py", "bdist_apps", "-p", platform, "-d", str(dist)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = sorted(Path(dist).glob(f"*_{platform}.*"))
    if done.returncode != 0 or not found:
        raise BuildError(f"setup.py bdist_apps -p {platform} (exit status {done.returncode}):\n"
                         + done.stdout[-3000:])
    return found[0]


def linux_archive(dist: Path) -> Path | None:
    found = sorted(Path(dist).glob(f"*_{LINUX}.tar.gz"))
    return found[0] if found else None


def unpack(archive: Path, folder: Path) -> Path:
    """Unpack a Linux archive into `folder`; the folder holding its programs."""
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="tar")
    return next(p.parent for p in Path(folder).glob("*/nmbr9-3d"))


def player_env(home: Path) -> dict:
    """The environment of a player's desktop: no PYTHONPATH, no virtual environment, a data folder of its own
    (and silent: no sound card is needed to start)."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "NMBR9_DATA": str(Path(home) / "data"),
            "NMBR9_NO_AUDIO": "1", "NMBR9_NO_DIALOG": "1"}


def first_frame_seconds(command: list[str], picture: Path, env: dict, size: str = "1280x720",
                        timeout: float = 120) -> float:
    """Start the game (`command`, e.g. the built nmbr9-3d) with --first-frame; seconds from the process's start
    to its first frame written (the line it prints then). RuntimeError with its output if it wrote none."""
    start = time.perf_counter()
    process = subprocess.Popen([*command, "--first-frame", str(picture), "--size", size], env=env,
                               cwd=Path(env["HOME"]), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    seconds = time.perf_counter() - start
    if process.returncode != 0 or not Path(picture).is_file():
        said = " ".join(map(str, command))
        raise RuntimeError(f"{said} --first-frame: exit status {process.returncode}\n{out[-3000:]}")
    return seconds


def checkout_command() -> list[str]:
    """The game started from this checkout, as the README says."""
    return [sys.executable, str(ROOT / "run_game.py")]


def bench_build(args) -> int:
    """`nmbr9 bench build`: each archive's size in dist/, and the cold start (process start to first frame, the
    menu at 1280x720) of the built Linux game beside this checkout's, each start with a fresh data folder. (The
    first start after unpacking reads files just written, still in the system's cache: no start here is colder.)"""
    import shutil
    import statistics
    import tempfile
    dist = ROOT / "dist"
    archives = sorted(p for p in dist.glob("*") if p.is_file()) if dist.is_dir() else []
    if not archives or linux_archive(dist) is None:
        print(f"No Linux archive in {dist}: build them first with `python setup.py bdist_apps`.")
        return 2
    for archive in archives:
        print(f"{archive.name}: {archive.stat().st_size / 2 ** 20:.1f} MiB")
    with tempfile.TemporaryDirectory(prefix="nmbr9-bench-build-") as tmp:
        programs = unpack(linux_archive(dist), Path(tmp) / "unpacked")
        for name, command in (("built game", [str(programs / "nmbr9-3d")]), ("checkout", checkout_command())):
            times = []
            for run in range(STARTS):
                home = Path(tmp) / f"home-{name[0]}-{run}"   # a fresh data folder each start, as a first start has
                home.mkdir()
                times.append(first_frame_seconds(command, home / "first.png", player_env(home)))
                shutil.rmtree(home)
            print(f"{name}: process start to first frame (menu, 1280x720, offscreen) "
                  f"{', '.join(f'{t:.2f}' for t in times)} s; median {statistics.median(times):.2f} s")
    return 0
