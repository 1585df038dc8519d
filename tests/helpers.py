"""Small builders shared by the tests."""
from __future__ import annotations

import os
import random
import subprocess
from contextlib import contextmanager
from pathlib import Path

from nmbr9.rules import Board, Game, Placement, Seat, new_deck


def board_of(*placements) -> Board:
    """A board built from (digit, rotation, x, y) tuples, each resting where it lands."""
    b = Board()
    for d, r, x, y in placements:
        b.place(Placement(d, r, x, y))
    return b


@contextmanager
def xvfb(size: str):
    """A private X server of `size` ("1280x720"), yielding its display (":N"). Xvfb picks
    a free display number itself (-displayfd), so test runs side by side can't take one
    number twice; it answers once it is ready for clients."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()   # empty: the server ended without starting
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def random_game(seed: int, players: int = 1, upward: float = 0.7) -> Game:
    """A complete game where every player picks a random legal placement, preferring height."""
    rng = random.Random(seed)
    game = Game([Seat(f"P{i}") for i in range(players)], new_deck(random.Random(seed)))
    while not game.over:
        for player in game.waiting():
            options = game.boards[player].legal_placements(game.card)
            if rng.random() < upward:
                top = max(p.level for p in options)
                options = [p for p in options if p.level == top]
            assert game.play(player, rng.choice(options))
    return game


def frames(app, n: int = 2, pause: float = 0.0) -> None:
    """Step the game `n` frames; `pause` seconds after each leave a real window's X server time to keep up."""
    import time
    for _ in range(n):
        app.base.taskMgr.step()
        if pause:
            time.sleep(pause)


def script_output(args, language: str = "en", timeout: float = 300, **env) -> object:
    """A script run in a process of its own (one ShowBase a process: a window of its own size), in
    `language`, the project and the tests importable: what it printed last, as JSON."""
    import json
    import os
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent
    path = os.pathsep.join([str(root), str(root / "tests"), os.environ.get("PYTHONPATH", "")])
    for _attempt in (1, 2):
        done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                              cwd=root, env={**os.environ, "LANGUAGE": language, "PYTHONPATH": path, **env})
        if done.returncode >= 0:
            break
        # killed by a signal: once in some 600 offscreen runs the process aborted in native code (glibc:
        # "corrupted double-linked list"), never reproduced since; it is said, and a second crash fails
        import warnings
        warnings.warn(f"{args[0]} crashed (signal {-done.returncode}) and was run again: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def game_app(size: tuple[int, int], offscreen: bool = True, data: str = "data"):
    """The game (no sound) for a script run as a process of its own (one ShowBase a process): in an
    offscreen buffer that lays its texts out as a window of `size` would, or in a real window (DISPLAY
    set). Its data folder (`data` inside a temporary folder) is removed when the process ends.
    app.base, app.store."""
    import atexit
    import shutil
    import tempfile
    from nmbr9.scene.base import make_base
    from nmbr9.scene.game_app import GameApp
    from nmbr9.store import Store
    folder = Path(tempfile.mkdtemp(prefix="nmbr9-test-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    base = make_base(offscreen=offscreen, size=size)
    if offscreen:   # a buffer gets no window-event: give aspect2d the shape a window of this size has
        aspect = base.getAspectRatio()
        base.adjustWindowAspectRatio(1.0)
        base.adjustWindowAspectRatio(aspect)
    return GameApp(base, Store(folder / data), audio=False)


def level_badge(image, camera, table, square: tuple[int, int], level: int) -> float | None:
    """The level badge (L) a picture shows on that square of a tile on `level`: None if there is none (no dark ring
    about its middle), else how light its very middle is (the numeral's: a 1's stroke, a 0's hole). Looked for where
    the table stood that square's badge, facing the camera, as big as it drew it (no badge: where it would stand)."""
    import math
    from panda3d.core import Point3
    from nmbr9.scene.camera import level_height
    from nmbr9.scene.table import BADGE_RADIUS
    spot = Point3(square[0] + 0.5, -square[1] - 0.5, level_height(level + 1))
    drawn = next((b for b, at, _ in table.badges if (at - spot).length() < 1e-4), None)
    if drawn is not None:
        middle, radius = drawn.getPos(camera.render), BADGE_RADIUS * drawn.getScale(camera.render).x
    else:
        middle, radius = spot + Point3(0, 0, BADGE_RADIUS / 2), BADGE_RADIUS
    turn = camera.camera.getQuat(camera.render)
    right, up = turn.getRight(), turn.getUp()

    def brightness(dx, dy):
        mx, my = camera.screen_point(middle + right * dx + up * dy)
        col, row = int((mx + 1) / 2 * image.getXSize()), int((1 - my) / 2 * image.getYSize())
        return max(image.getXel(col, row))
    # between the numeral and the light ring: the disc's dark ink
    ring = [brightness(0.75 * radius * math.cos(a), 0.75 * radius * math.sin(a))
            for a in (2 * math.pi * i / 16 for i in range(16))]
    if sum(b < 0.2 for b in ring) < 13:   # the numeral may reach the ring here and there
        return None
    return brightness(0, 0)


def damage_table(database: Path, table: str) -> bytes:
    """Overwrite the first page of `table` in a closed SQLite file with garbage, as a bad disk sector would:
    the file still opens, only queries reaching that table fail. The damaged file's bytes."""
    import sqlite3
    db = sqlite3.connect(database)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # every page in the file itself
    db.close()
    with open(database, "r+b") as f:
        f.seek((page - 1) * page_size)
        f.write(b"\xde\xad" * (page_size // 2))
    return Path(database).read_bytes()


def damage_page_with(database: Path, text: str) -> bytes:
    """Overwrite with garbage the page of a closed SQLite file that holds `text` (a row's value, e.g. the
    start of a game's record): one bad sector in the middle of a table. The damaged file's bytes."""
    import sqlite3
    db = sqlite3.connect(database)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.execute("VACUUM")   # no older copy of the row left in a free page
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # every page in the file itself
    db.close()
    at = Path(database).read_bytes().index(text.encode())
    with open(database, "r+b") as f:
        f.seek(at // page_size * page_size)
        f.write(b"\xde\xad" * (page_size // 2))
    return Path(database).read_bytes()


@contextmanager
def read_only(folder: Path):
    """The folder and its files as a read-only disk gives them. File modes bind a player but not root (CI
    runs as root), whom only the immutable flag stops; either is taken off again afterwards."""
    import os
    import subprocess
    import pytest
    paths = [*folder.iterdir(), folder]
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True).returncode:
            subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)
            pytest.skip("the immutable flag can't be set here")
        undo = lambda: subprocess.run(["chattr", "-i", *map(str, paths)], check=True)   # noqa: E731
    else:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(modes[p] & ~0o222)
        undo = lambda: [p.chmod(mode) for p, mode in modes.items()]   # noqa: E731
    try:
        yield folder
    finally:
        undo()


class slow_to_send:
    """`work` whose sending to a thinking process (its pickling) takes `seconds` (as on a busy machine); it
    arrives there as `work` itself."""

    def __init__(self, seconds: float, work):
        self.seconds, self.work = seconds, work

    def __call__(self):
        return self.work()

    def __reduce__(self):
        import time
        time.sleep(self.seconds)
        return self.work.__reduce__()


def thinking_for(seconds: float, name: str):
    """Work for a thinking process (ai/worker.py) that thinks in steps of Python, as a bot's search does, for
    `seconds`; `name` makes it other work than the same with another name."""
    import functools
    return functools.partial(exec, f"import time\n{name} = time.monotonic() + {seconds}\n"
                                   f"while time.monotonic() < {name}: pass")


@contextmanager
def database_held(database: Path):
    """Another program holding the SQLite file's write lock (BEGIN EXCLUSIVE) until the block ends, as a
    database browser or a backup tool may."""
    import sys
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys\n"
                               "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                               "db.execute('BEGIN EXCLUSIVE')\nprint('held', flush=True)\n"
                               "sys.stdin.readline()\ndb.execute('COMMIT')", str(database)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.stdin.close()   # (it lets go)
        holder.wait(10)


def colours_on_page(app, colours: dict, tolerance: float) -> set:
    """The rules page paged through from its top to its end: which of `colours` (name -> RGB, 0..1) it showed, each
    in 4 pixels at least inside the page's frame."""
    import numpy
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Point3
    frame = app.screen.frame
    left, right, bottom, top = frame.guiItem.getClipFrame()
    found = set()
    messenger.send("home")
    for _ in range(60):
        frames(app)
        app.base.graphicsEngine.renderFrame()
        shot = app.base.win.getScreenshot()
        w, h = shot.getXSize(), shot.getYSize()
        rgb = numpy.frombuffer(bytes(shot.getRamImageAs("RGB")), numpy.uint8).reshape(h, w, 3)[::-1] / 255
        (x0, _y, z0), (x1, _y1, z1) = (app.base.render2d.getRelativePoint(frame, Point3(x, 0, z))
                                       for x, z in ((left, top), (right, bottom)))
        view = rgb[int((1 - z0) / 2 * h) + 1:int((1 - z1) / 2 * h) - 1, int((x0 + 1) / 2 * w) + 1:int((x1 + 1) / 2 * w) - 1]
        found |= {name for name, colour in colours.items() if (abs(view - colour) < tolerance).all(axis=2).sum() >= 4}
        if frame.verticalScroll["value"] == 1:
            return found
        messenger.send("page_down")
    return found
