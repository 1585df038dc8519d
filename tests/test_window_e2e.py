"""End to end: the real game (`python3 run_game.py`) in a window under Xvfb, driven by xdotool.

The game prints one line per screen change and placement when NMBR9_TRACE=1;
the tests wait for those lines, click where the screens put their buttons
(aspect2d coordinates turned into pixels), and read the autosave file.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nmbr9.scene.screens import menu, session, setup
from nmbr9.scene.screens.widgets import BUTTON_HOT
from tests.helpers import xvfb

pytestmark = pytest.mark.window
ROOT = Path(__file__).resolve().parent.parent
W, H = 1280, 720
MISSING = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
if MISSING:
    pytest.skip(f"needs {' and '.join(MISSING)} (.ci/run installs them)", allow_module_level=True)


def pixel(x: float, y: float) -> tuple[int, int]:
    """aspect2d (x, y) -> window pixel, for a 16:9 window."""
    aspect = W / H
    return round((x / aspect + 1) / 2 * W), round((1 - y) / 2 * H)


@pytest.fixture(scope="module")
def display():
    """A private X server for this module's games."""
    with xvfb(f"{W}x{H}") as name:
        yield name


def _wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


class RunningGame:
    """`python3 run_game.py` with its trace lines collected from stdout."""

    def __init__(self, display: str, data: Path, sized: bool = True, **env: str):
        self.env = {**os.environ, "DISPLAY": display, "NMBR9_DATA": str(data), "NMBR9_TRACE": "1",
                    "NMBR9_NO_AUDIO": "1", "LANGUAGE": "en", **env}
        self.data = data
        size = ["--size", f"{W}x{H}"] if sized else []   # else the size in the settings
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "run_game.py"), *size],
                                     cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.window = None

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, start: str, timeout: float = 25.0) -> str:
        """The next trace line beginning with `start` (earlier lines are kept in `seen`)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and self.lines.empty():
                raise AssertionError(f"no {start!r} line; the game printed:\n" + "\n".join(self.seen[-30:]))
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self.seen.append(line)
            if line.startswith(start):
                return line

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def find_window(self) -> None:
        self.window = self.xdotool("search", "--sync", "--onlyvisible", "--name", "NMBR 9 3D").split()[0]

    def move(self, x: int, y: int) -> None:
        self.xdotool("mousemove", "--window", self.window, str(x), str(y))
        time.sleep(0.15)   # a few frames for the game to follow the pointer

    def click_at(self, x: float, y: float) -> None:
        """Click at aspect2d (x, y)."""
        px, py = pixel(x, y)
        self.move(px, py)
        self.xdotool("click", "1")

    def key(self, name: str) -> None:
        self.xdotool("key", "--window", self.window, name)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def autosave(self) -> dict:
        return json.loads((self.data / "autosave.json").read_text(encoding="utf-8"))

    def screenshot(self):
        """F12: what the game saved, as a PNMImage."""
        from panda3d.core import Filename, PNMImage
        self.key("F12")
        image = PNMImage()
        assert image.read(Filename.fromOsSpecific(self.wait_for("trace: screenshot").split(" ", 2)[2]))
        return image


@pytest.fixture
def game_factory(display, tmp_path):
    games = []

    def start(sized: bool = True) -> RunningGame:
        g = RunningGame(display, tmp_path / "data", sized)
        games.append(g)
        g.wait_for("trace: screen menu", timeout=40)
        g.find_window()
        time.sleep(0.5)
        return g
    yield start
    for g in games:
        g.kill()


def place_first_tile(g: RunningGame) -> str:
    """Move the tile in hand onto the table, put it down, drag it a little further, confirm."""
    for x in range(600, 661, 20):          # the tile follows the pointer
        g.move(x, 420)
    g.xdotool("click", "1")                # put it down
    time.sleep(0.3)
    g.xdotool("mousedown", "1")            # pick it up again and drag it
    for x in range(660, 741, 20):
        g.move(x, 430)
    g.xdotool("mouseup", "1")
    time.sleep(0.3)
    g.key("Return")                        # confirm
    return g.wait_for("trace: placed")


def test_a_solo_game_from_the_menu_commits_a_dragged_tile(game_factory, tmp_path):
    g = game_factory()
    g.click_at(0, menu.button_y(0))        # New game (no save yet, so it is the first button)
    g.wait_for("trace: screen setup")
    g.click_at(*setup.START_POS)           # the default table: one human, a solo game
    g.wait_for("trace: screen play")
    g.wait_for("trace: turn seat=0 round=1 tiles=0")
    placed = place_first_tile(g)
    words = dict(w.split("=", 1) for w in placed.split()[2:])
    assert words["round"] == "1" and words["moves"] == "1"
    record = g.autosave()
    assert len(record["moves"]) == 1
    move = record["moves"][0]
    assert (move["round"], move["player"], move["digit"]) == (1, 0, record["deck"][0])
    assert (str(move["x"]), str(move["y"])) == (words["x"], words["y"])
    g.wait_for("trace: turn seat=0 round=2 tiles=1")
    g.key("F12")
    shot = g.wait_for("trace: screenshot").split(" ", 2)[2]
    assert Path(shot).exists() and Path(shot).stat().st_size > 10_000
    shutil.copy(shot, tmp_path / "solo-after-first-tile.png")


def test_without_a_sound_device_the_game_says_so_in_one_line(display, tmp_path):
    """No sound card and no sound server: OpenAL and ALSA wrote some 40 lines of errors at every start."""
    import glob
    if glob.glob("/dev/snd/pcmC*p"):
        pytest.skip("this machine has a sound card")
    runtime = tmp_path / "runtime"   # no PulseAudio or PipeWire socket in it
    runtime.mkdir()
    g = RunningGame(display, tmp_path / "data", NMBR9_NO_AUDIO="0", XDG_RUNTIME_DIR=str(runtime), PULSE_SERVER="")
    try:
        g.wait_for("trace: screen menu", timeout=40)
    finally:
        g.kill()
    # (Xlib's line on Xvfb, which lacks an extension a desktop's X server has, is not the game's)
    said = [line for line in g.seen if not line.startswith(("trace:", "Xlib:"))]
    assert said == ["No sound device found: playing without sound."]


def test_text_fields_edit_as_on_the_desktop(game_factory):
    """Ctrl+A then Backspace erased one letter ("Ana", then "Ben" typed, became "AnBen"). A field now selects all
    with Ctrl+A, moves with Home and End, selects with Shift, erases a selection with Backspace or Delete and types
    over it, and copies and pastes (Ctrl+C, Ctrl+V), as on the desktop; the names typed are the game's seats."""
    g = game_factory()
    g.click_at(0, menu.button_y(0))                          # New game
    g.wait_for("trace: screen setup")

    def keys(*names):
        g.xdotool("key", "--window", g.window, "--delay", "150", *names)
        time.sleep(0.3)

    def write(text):
        g.xdotool("type", "--window", g.window, "--delay", "150", text)
        time.sleep(0.3)
    g.click_at(-0.9, setup.ROW_TOP + 0.012)                  # the first seat's name ("Player 1" goes)
    time.sleep(0.4)
    write("Ana")
    keys("ctrl+a", "BackSpace")
    write("Ben")                                             # "Ben"
    keys("Home")
    write("X")                                               # "XBen"
    keys("End", "shift+Left", "shift+Left", "Delete")        # "XB"
    keys("shift+Home", "ctrl+c", "Right")
    write("o")                                               # "XBo"
    g.click_at(-0.67, setup.ROW_TOP - setup.ROW_STEP + 0.012)   # Add a player
    time.sleep(0.4)
    g.click_at(-0.9, setup.ROW_TOP - setup.ROW_STEP + 0.012)    # its name ("Bot 2" goes)
    time.sleep(0.4)
    keys("ctrl+v")
    write("yz")                                              # "XByz"
    keys("Left", "shift+Left", "shift+Left")                 # "By" selected
    write("e")                                               # "Xez"
    g.click_at(*setup.START_POS)
    g.wait_for("trace: turn")
    assert [p["name"] for p in g.autosave()["players"]] == ["XBo", "Xez"]


def test_a_menu_built_under_a_still_pointer_keeps_the_keyboards_highlight(display, game_factory):
    """The pointer rests where Rules appears: Enter still presses the first button until the pointer moves."""
    subprocess.run(["xdotool", "mousemove", str(W // 2), str(H // 2)], env={**os.environ, "DISPLAY": display},
                   check=True, timeout=20)
    assert abs(menu.button_y(3)) < 0.03    # Play online, under the middle of the window
    g = game_factory()
    from panda3d.core import Filename, PNMImage
    g.key("F12")                           # one button lit, the keyboard's: not also the one under the pointer
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(g.wait_for("trace: screenshot").split(" ", 2)[2]))
    lit = lambda i: max(abs(a - b) for a, b in zip(image.getXel(*pixel(0.1, menu.button_y(i) + 0.012)),
                                                   BUTTON_HOT)) < 0.03
    assert lit(0) and not lit(3)
    for _ in range(2):                     # the menu as the window opens, then built again on coming back
        g.key("Return")
        g.wait_for("trace: screen setup")  # New game, not Rules
        g.key("Escape")
        g.wait_for("trace: screen menu")
    g.move(*pixel(0.1, menu.button_y(2)))  # the pointer moves onto Tournament: it takes the highlight
    g.key("Return")
    g.wait_for("trace: screen tournament")


def test_a_window_resized_under_a_still_pointer_keeps_the_keyboards_highlight(game_factory):
    """The pointer rested on the menu; the window resized (by the keyboard, a window manager's key) moved the
    buttons under it, and the highlight jumped from New game to the button now under the pointer, which Enter then
    pressed: the pointer had not moved, only its place in the window's -1..1 had."""
    g = game_factory()
    g.screenshot()                         # (the window takes keys)
    g.move(600, 330)                       # over Tournament at 1280x720, over Settings at 1024x576
    g.key("Return")                        # (New game, or Tournament if the pointer's move lit it)
    left_by = g.wait_for("trace: screen ")
    assert "settings" not in left_by
    g.key("Escape")                        # the menu built again under the resting pointer, lit where it was left
    g.wait_for("trace: screen menu")
    time.sleep(0.5)
    g.xdotool("windowsize", g.window, "1024", "576")
    time.sleep(1.5)                        # a few frames at the new size
    g.key("Return")
    assert g.wait_for("trace: screen ") == left_by   # not Settings, now under the pointer


def test_esc_in_the_menu_walks_to_quit_and_only_a_second_esc_quits(game_factory):
    """One Esc by accident closed the game at once."""
    g = game_factory()
    g.screenshot()                         # (the window takes keys)
    g.key("Escape")
    time.sleep(1)                          # a frame drawn since (F12 in the same frame saves the one before)
    image = g.screenshot()
    lit = lambda i: max(abs(a - b) for a, b in zip(image.getXel(*pixel(0.1, menu.button_y(i) + 0.012)),
                                                   BUTTON_HOT)) < 0.03
    assert g.proc.poll() is None and lit(6) and not lit(0)   # Quit, the last of seven, lit: still running
    g.key("Escape")
    assert g.proc.wait(15) == 0
    g.wait_for("trace: quit")


def test_after_a_kill_the_next_start_continues_at_the_last_confirmed_tile(game_factory):
    g = game_factory()
    g.click_at(0, menu.button_y(0))
    g.wait_for("trace: screen setup")
    g.click_at(*setup.START_POS)
    g.wait_for("trace: turn seat=0 round=1 tiles=0")
    place_first_tile(g)
    g.wait_for("trace: turn seat=0 round=2 tiles=1")
    g.move(500, 300)                       # round 2's tile in hand, not confirmed
    g.xdotool("click", "1")
    time.sleep(0.3)
    saved = g.autosave()
    g.kill()

    g2 = game_factory()
    offered = next((line for line in g2.seen if line.startswith("trace: continue-offered")), "")
    assert "round=2" in offered and "moves=1" in offered
    g2.click_at(0, menu.button_y(0))       # Continue is the first button now
    resumed = g2.wait_for("trace: session")
    assert "round=2" in resumed and "moves=1" in resumed and "tiles=1" in resumed
    assert g2.autosave() == saved


def test_enter_pressed_twice_on_continue_lays_no_tile_where_it_is_dealt(game_factory):
    """M, then Enter twice on Continue: the second Enter confirmed round 2's tile at the spot it is dealt at.
    A moment later, Enter lays it there, as ever."""
    g = game_factory()
    g.click_at(0, menu.button_y(0))                          # New game
    g.wait_for("trace: screen setup")
    g.click_at(*setup.START_POS)
    g.wait_for("trace: turn seat=0 round=1 tiles=0")
    place_first_tile(g)
    g.wait_for("trace: turn seat=0 round=2 tiles=1")
    g.key("m")
    g.wait_for("trace: screen menu")                         # on Continue (the game just left)
    g.xdotool("key", "--window", g.window, "--delay", "120", "Return", "Return")
    g.wait_for("trace: turn seat=0 round=2 tiles=1")
    time.sleep(1.5)                                          # (a tile laid would have dropped and been saved)
    assert len(g.autosave()["moves"]) == 1, "the second Enter laid the tile"
    g.key("Return")                                          # the player's own Enter, a moment later
    placed = g.wait_for("trace: placed")
    assert "round=2" in placed and "moves=2" in placed


def test_two_humans_pass_the_table_and_the_hand_off_hides_it(game_factory, tmp_path):
    from panda3d.core import Filename, PNMImage
    g = game_factory()
    g.click_at(0, menu.button_y(0))                          # New game
    g.wait_for("trace: screen setup")
    row2 = setup.ROW_TOP - setup.ROW_STEP + 0.012
    g.click_at(-0.67, row2)                                  # Add a player: a medium bot in seat 2
    time.sleep(0.4)
    for _ in range(2):                                       # medium -> hard -> human
        g.click_at(0.2, row2)
        time.sleep(0.4)
    g.click_at(*setup.START_POS)
    g.wait_for("trace: handoff seat=0 round=1")
    time.sleep(session.HANDOFF_PAUSE)                        # (the hand-off takes no press at first)
    g.click_at(0, -0.15)                                     # "I am Player 1: show my table"
    g.wait_for("trace: turn seat=0 round=1 tiles=0")
    place_first_tile(g)
    g.wait_for("trace: handoff seat=1 round=1")
    g.key("F12")
    shot = Path(g.wait_for("trace: screenshot").split(" ", 2)[2])
    shutil.copy(shot, tmp_path / "handoff.png")
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(str(shot)))
    # the hand-off screen is one dark colour where the table was (no tiles, no cloth)
    samples = [image.getXel(x, y) for x in (200, 640, 1000) for y in (120, 600)]
    assert all(max(c) < 0.15 for c in samples), samples
    time.sleep(session.HANDOFF_PAUSE)
    g.click_at(0, -0.15)                                     # "I am Player 2"
    g.wait_for("trace: turn seat=1 round=1 tiles=0")
    record = g.autosave()
    assert [(m["round"], m["player"]) for m in record["moves"]] == [(1, 0)]
    assert [(p["name"], p["kind"]) for p in record["players"]] == [("Player 1", "human"), ("Player 2", "human")]


def test_the_mouse_wheel_scrolls_the_rules_page(game_factory):
    """The page says the wheel scrolls it: over its text, beside it and over its scroll bar (the widgets
    there took the wheel: the plain wheel event never came)."""
    g = game_factory()
    g.click_at(0, menu.button_y(4))                          # Rules (no saved game: the fifth button)
    g.wait_for("trace: screen rules")
    page = [(x, y) for x in range(200, 1100, 7) for y in range(110, 600, 5)]   # inside the page's frame

    def seen():
        image = g.screenshot()
        return [image.getXel(x, y) for x, y in page]

    def moved(a, b) -> bool:
        return sum(p != q for p, q in zip(a, b)) > len(page) // 20

    top = seen()
    for x, y, button, clicks in ((640, 350, "5", 3), (60, 350, "5", 3), (W - 117, 300, "4", 6)):   # bar: up
        g.move(x, y)
        before = seen()
        for _ in range(clicks):
            g.xdotool("click", button)
        time.sleep(0.3)
        assert moved(before, seen()), f"the wheel at ({x}, {y}) did not scroll the page"
    assert not moved(top, seen())                            # the wheel up over the bar: back at the top


def scroll_place(image) -> float | None:
    """Where the rules page's scroll bar shows it scrolled to (0 its top, 1 its end): None where the window
    shows no scroll bar (a column of the bar's dark colour with its thumb, a block of lighter grey, in it)."""
    def like(c, colour) -> bool:
        return max(abs(a - b) for a, b in zip(c, colour)) < 0.03

    def runs(x, colours):   # (first, last) rows of each run of those colours down column x
        out, first = [], None
        for y in range(image.getYSize() + 1):
            inside = y < image.getYSize() and any(like(image.getXel(x, y), c) for c in colours)
            if inside and first is None:
                first = y
            elif not inside and first is not None:
                out.append((first, y - 1))
                first = None
        return out
    thumb = [(0.5, 0.55, 0.55), (0.65, 0.71, 0.71), (0.35, 0.38, 0.38)]   # its face, its bevel's two edges
    trough = (0.2, 0.22, 0.24)
    for x in range(image.getXSize() - 2, image.getXSize() * 3 // 4, -2):
        for top, bottom in runs(x, thumb):
            if bottom - top < 20:   # text's grey edges, not the thumb
                continue
            bar = next(b for b in runs(x, [*thumb, trough]) if b[0] <= top <= b[1])
            travel = (bar[1] - bar[0]) - (bottom - top)
            if travel > 30:
                return (top - bar[0]) / travel
    return None


@pytest.mark.parametrize("where", ["menu", "table"])
def test_the_rules_page_fits_a_window_resized_under_it_and_keeps_the_readers_place(game_factory, where):
    """Over the table (F1) the page kept the window's old shape: narrowed to 640x700 its text ran past both
    edges and its scroll bar was outside the window. From the menu it fitted, but went back to its top."""
    g = game_factory()
    if where == "menu":
        g.click_at(0, menu.button_y(4))                      # Rules (no saved game: the fifth button)
        g.wait_for("trace: screen rules")
    else:
        g.click_at(0, menu.button_y(0))                      # New game
        g.wait_for("trace: screen setup")
        g.click_at(*setup.START_POS)
        g.wait_for("trace: turn seat=0 round=1 tiles=0")
        g.screenshot()                                       # (the window takes keys)
        g.key("F1")
    for _ in range(4):
        g.key("Next")                                        # Page Down: well into the page
    # (F12 saves the frame before its own: the page's first frame, its tile pictures sent to the graphics card, may
    # take a second on a busy machine, the Page Downs and F12 all taken in the frame after it)
    places = []
    assert _wait_for(lambda: places.append(scroll_place(g.screenshot())) or places[-1], 10), places
    before = places[-1]
    assert before is not None and 0.15 < before < 0.85, before
    g.xdotool("windowsize", g.window, "640", "700")
    assert _wait_for(lambda: g.xdotool("getwindowgeometry", g.window).split()[-1] == "640x700", 10)
    time.sleep(1.0)
    image = g.screenshot()
    assert (image.getXSize(), image.getYSize()) == (640, 700)
    after = scroll_place(image)
    assert after is not None, "the page's scroll bar is not in the window"
    assert abs(after - before) < 0.08, (before, after)   # the same part of the page, not its top
    # the page's text and frame stand clear of the window's edges: the dark backdrop down both of them
    edges = [image.getXel(x, y) for x in (1, 638) for y in range(150, 550, 10)]
    assert all(max(c) < 0.15 for c in edges), "the page runs past the window's edge"
    g.key("Escape")                                          # its keys still work: back where it came from
    if where == "menu":
        g.wait_for("trace: screen menu")
    else:
        time.sleep(0.5)
        assert scroll_place(g.screenshot()) is None, "Esc did not close the rules over the table"


def close_as_a_window_manager_does(display: str, window: str) -> None:
    """Send the window WM_DELETE_WINDOW: what the title bar's close button makes the window manager do."""
    import ctypes
    import ctypes.util

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]

    class Event(ctypes.Union):
        _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]

    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(Event)]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    assert dpy, f"can't open display {display}"
    event = Event()
    event.xclient.type = 33   # ClientMessage
    event.xclient.window = int(window)
    event.xclient.message_type = x11.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
    event.xclient.format = 32
    event.xclient.data[0] = x11.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
    assert x11.XSendEvent(dpy, int(window), 0, 0, ctypes.byref(event))
    x11.XFlush(dpy)
    x11.XCloseDisplay(dpy)


def test_a_resized_window_refits_the_menu_and_closing_the_window_ends_the_game(game_factory, display, tmp_path):
    from panda3d.core import Filename, PNMImage
    g = game_factory()
    g.xdotool("windowsize", g.window, "800", "600")
    g.move(5, 5)                                       # the pointer off the buttons
    time.sleep(1.0)
    g.key("F12")
    shot = Path(g.wait_for("trace: screenshot").split(" ", 2)[2])
    shutil.copy(shot, tmp_path / "menu-800x600.png")
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(str(shot)))
    assert (image.getXSize(), image.getYSize()) == (800, 600)
    # a 4:3 window holds the menu at its full size (it is no longer shrunk to a 16:9 window's width)
    aspect, k = 800 / 600, 1.0

    def at(x: float, y: float):                        # aspect2d -> this window's pixel colour
        return image.getXel(round((x / aspect + 1) / 2 * 800), round((1 - y) / 2 * 600))

    def background(c) -> bool:
        return max(abs(a - b) for a, b in zip(c, (0.12, 0.14, 0.15))) < 0.03

    y = k * (menu.button_y(0) + 0.012)                  # the middle of "New game"'s frame
    edge = k * menu.WIDTH / 2
    assert background(at(edge + 0.03, y)), "the New game button reaches past where it should end"
    assert not background(at(edge - 0.03, y)), "the New game button does not reach where it should"
    assert not background(at(-edge + 0.03, y))
    settings = tmp_path / "data" / "settings.json"
    kept = lambda: settings.exists() and json.loads(settings.read_text())["window_size"] == [800, 600]
    assert _wait_for(kept, 10), "the size the player gave the window is not kept"
    close_as_a_window_manager_does(display, g.window)  # the title bar's close button
    assert g.proc.wait(15) == 0
    g.wait_for("trace: quit")
    g = game_factory(sized=False)                      # the next start: the size the player left it at
    assert _wait_for(lambda: g.xdotool("getwindowgeometry", g.window).split()[-1] == "800x600", 10)


def test_a_window_resized_back_to_the_size_it_opened_at_is_kept_at_that_size(game_factory, tmp_path):
    g = game_factory()                                 # opened at 1280x720 (--size: the game's own request)
    settings = tmp_path / "data" / "settings.json"
    kept = lambda size: lambda: settings.exists() and json.loads(settings.read_text())["window_size"] == size
    g.xdotool("windowsize", g.window, "800", "600")
    assert _wait_for(kept([800, 600]), 10)
    g.xdotool("windowsize", g.window, str(W), str(H))  # the player's size now, though the game once asked for it
    assert _wait_for(kept([W, H]), 10), "the next start would open at 800x600"


def test_a_window_made_too_short_for_readable_text_grows_back_to_the_least_size(game_factory, tmp_path):
    g = game_factory()                                 # (640x480 at least: game_app.LEAST_WINDOW)
    g.xdotool("windowsize", g.window, "1100", "330")   # the menu's smallest text would be 6 pixels high
    grown = lambda: g.xdotool("getwindowgeometry", g.window).split()[-1] == "1100x480"
    assert _wait_for(grown, 10), g.xdotool("getwindowgeometry", g.window)
    g.xdotool("windowsize", g.window, "400", "700")    # too narrow as well
    assert _wait_for(lambda: g.xdotool("getwindowgeometry", g.window).split()[-1] == "640x700", 10)
    settings = tmp_path / "data" / "settings.json"     # kept as grown, for the next start
    kept = lambda: settings.exists() and json.loads(settings.read_text())["window_size"] == [640, 700]
    assert _wait_for(kept, 10)


def test_a_window_size_kept_from_a_bigger_screen_shrinks_to_fit_this_one(game_factory, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"window_size": [1920, 1080]}), encoding="utf-8")
    g = game_factory(sized=False)
    deadline = time.monotonic() + 10
    while (size := g.xdotool("getwindowgeometry", g.window).split()[-1]) != f"{W}x{H}":
        assert time.monotonic() < deadline, f"the window is {size} on a {W}x{H} screen"
        time.sleep(0.2)


def window_pixels(display: str, window: str):
    """The window's pixels as X has them (a PNMImage): what the player sees, drawn or not by the game."""
    import ctypes
    import ctypes.util
    from panda3d.core import PNMImage

    class Attributes(ctypes.Structure):   # XWindowAttributes: x, y, width, height, then more than we read
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                    ("rest", ctypes.c_long * 32)]

    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(Attributes)]
    x11.XGetImage.restype = ctypes.c_void_p
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                              ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XGetPixel.restype = ctypes.c_ulong
    x11.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    assert dpy, f"can't open display {display}"
    size = Attributes()
    assert x11.XGetWindowAttributes(dpy, int(window), ctypes.byref(size))
    grabbed = x11.XGetImage(dpy, int(window), 0, 0, size.width, size.height, 0xFFFFFFFF, 2)   # ZPixmap
    assert grabbed
    image = PNMImage(size.width, size.height)
    for y in range(size.height):
        for x in range(size.width):
            p = x11.XGetPixel(grabbed, x, y)
            image.setXelVal(x, y, (p >> 16) & 255, (p >> 8) & 255, p & 255)
    x11.XCloseDisplay(dpy)
    return image


@pytest.mark.parametrize("close, language", [("Return", "en"), ("Escape", "de"), ("OK", "en"), ("title bar", "en")])
def test_a_second_copy_started_without_a_terminal_says_why_in_a_window_until_closed(display, tmp_path, close,
                                                                                    language):
    """From a desktop icon there is no terminal to read "Can't start" in: a small window says it, in the
    game's language, until OK, Enter, Esc or the title bar's close button."""
    from panda3d.core import Filename
    from nmbr9.scene.screens.cant_start import SIZE
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"language": language}), encoding="utf-8")
    env = {**os.environ, "DISPLAY": display, "NMBR9_DATA": str(data), "NMBR9_TRACE": "1", "NMBR9_NO_AUDIO": "1",
           "LANGUAGE": "en", "PYTHONPATH": str(ROOT)}
    env.pop("NMBR9_NO_DIALOG")   # (the tests' own guard)
    holder = subprocess.Popen([sys.executable, "-c", "import time; from nmbr9.store import Store; "
                               "assert Store().hold(); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    second = None
    try:
        assert holder.stdout.readline().strip() == "held"
        # no terminal: stdin, stdout and stderr as a desktop launcher leaves them
        second = subprocess.Popen([sys.executable, str(ROOT / "run_game.py")], cwd=ROOT, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)
        said = second.stdout.readline().strip()
        opening = {"en": "Can't start: another copy", "de": "Start nicht möglich: Eine andere Instanz"}[language]
        assert said.startswith(opening) and str(data) in said, said
        assert second.stdout.readline().strip() == "trace: screen cant-start"
        window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "NMBR 9 3D"], env=env,
                                capture_output=True, text=True, timeout=20).stdout.split()[0]
        time.sleep(0.5)   # a few frames drawn
        image = window_pixels(display, window)
        image.write(Filename.fromOsSpecific(str(tmp_path / "cant-start.png")))
        w, h = SIZE
        assert (image.getXSize(), image.getYSize()) == (w, h)
        ink = sum(image.getBright(x, y) > 0.7 for x in range(0, w, 2) for y in range(0, int(h * 0.7), 2))
        assert ink > 100, "no message in the window"
        ok = image.getXel(w // 2 - 30, round(h * 0.87))   # the OK button, green
        assert ok[1] > 0.45 and ok[0] < 0.3, ok
        assert second.poll() is None   # it waits for the player
        if close == "title bar":
            close_as_a_window_manager_does(display, window)
        elif close == "OK":
            subprocess.run(["xdotool", "mousemove", "--window", window, str(w // 2), str(round(h * 0.87)),
                            "click", "1"], env=env, timeout=20)
        else:   # (the key's release may find the window gone: xdotool's complaint is no failure)
            subprocess.run(["xdotool", "key", "--window", window, close], env=env, timeout=20, capture_output=True)
        assert second.wait(15) == 2
    finally:
        for proc in (second, holder):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_rumbugz_two_humans_and_a_bot_play_a_round_with_a_bid_through_a_kill_to_its_results(game_factory, tmp_path):
    """RumBugz by the keyboard in a real window: Ann and Ben pass the computer (the hand-off between them), Carl,
    a hard bot, thinks beside the window. The humans do what a hard bot would advise from their own rack (read
    from the autosave, as they would read their rack; the trace says the rack's order); seed 52 brings a human's
    bid. Killed part way, Continue resumes at the last move; the round ends on its results."""
    from nmbr9.rumbugz.game import RumbugzGame
    from nmbr9.store.autosave import Autosave
    from tests.rumbugz_drive import advice_for, plan
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}, {"name": "Carl", "kind": "bot:hard"}]
    data = tmp_path / "data"
    data.mkdir()
    RumbugzGame.new(seats, seed=52, rounds=1, savers=[Autosave(data)])
    g = game_factory()
    g.key("Return")   # Continue: the saved RumBugz game
    g.wait_for("trace: rumbugz")
    names = {"backspace": "BackSpace", "enter": "Return"}
    bids, turns, killed = 0, 0, False
    while g.proc.poll() is None or not g.lines.empty():
        line = g.wait_for("trace: ", timeout=40)
        game = RumbugzGame.from_record(g.autosave())
        if line.startswith("trace: handoff"):
            time.sleep(1.0)   # (the hand-off takes no key for a moment)
            if g.proc.poll() is not None:
                break
            g.key("Return")
        elif line.startswith("trace: rb-bids"):
            humans = [int(p) for p in line.split("humans=")[1].split()[0].split(",")]
            wanting = [i for i, p in enumerate(humans) if advice_for(game, p)]
            bids += bool(wanting)
            g.key(str(wanting[0] + 1) if wanting else "Return")
        elif line.startswith("trace: rb-choose"):
            ways = [w.split(",") for w in line.split(" ", 2)[2].split(";")]
            g.key(str(ways.index(list(chosen["lay"])) + 1) if list(chosen["lay"]) in ways else "1")
        elif line.startswith("trace: rb-turn"):
            fields = dict(f.split("=", 1) for f in line.split()[2:])
            _what, presses, chosen = plan(game, int(fields["seat"]), fields["rack"].split(","), drags=False)
            for key in presses:
                g.key(names.get(key, key))
            turns += 1
            if turns == 8 and not killed:   # a kill -9 mid-round: Continue comes back to the last move
                g.wait_for("trace: rb-move")
                time.sleep(0.3)
                saved = g.autosave()
                g.kill()
                killed, g = True, game_factory()
                offered = next(line for line in g.seen if line.startswith("trace: continue-offered"))
                assert f"moves={len(saved['round']['moves'])}" in offered
                g.key("Return")
                assert f"moves={len(saved['round']['moves'])}" in g.wait_for("trace: rumbugz")
                assert g.autosave() == saved
        elif line.startswith("trace: rb-results"):
            break
    assert line.startswith("trace: rb-results"), "\n".join(g.seen[-40:])
    assert killed and bids >= 1
    totals = [int(t) for t in line.split("totals=")[1].split(",")]
    assert sorted(totals)[:2] == [0, 0] and max(totals) > 0 and "over=1" in line


def test_a_rumbugz_tournament_of_bots_started_from_new_tournament_stores_its_first_games_results(game_factory,
                                                                                                tmp_path):
    """Tournament, New tournament, its RumBugz tab: two bots, two games of one round each, started by the mouse
    and the keys in a real window; the bots play the first game on the RumBugz table to its final standings,
    which are the tournament's stored game (its round and totals), the second game next."""
    from nmbr9.store import Store
    from nmbr9.store.rumbugz import GAME_FORMAT
    data = tmp_path / "data"
    store = Store(data)   # no animations: the bots' moves follow each other without a pause
    store.save_settings(store.settings().changed(animation_speed=0.0))
    store.close()
    g = game_factory()

    def field(y: float, text: str) -> None:   # a number field in the page's left column: typed over
        g.click_at(-0.55, y + 0.015)
        time.sleep(0.3)
        g.xdotool("key", "--window", g.window, "--delay", "100", "ctrl+a", "BackSpace")
        g.xdotool("type", "--window", g.window, "--delay", "100", text)
        time.sleep(0.3)
    g.click_at(0.1, menu.button_y(2))                       # Tournament
    g.wait_for("trace: screen tournament")
    g.key("Return")                                          # New tournament (no tournament yet: the first button)
    g.wait_for("trace: screen setup")
    g.click_at(0.9, 0.852)                                   # the RumBugz tab: a medium bot joins as seat 2
    time.sleep(0.5)
    g.click_at(0.2, setup.ROW_TOP + 0.012)                   # seat 1: human -> easy bot
    time.sleep(0.4)
    field(-0.13, "2")                                        # Games
    field(-0.23, "1")                                        # Rounds (a game)
    g.key("Return")                                          # Start
    assert "round=1" in g.wait_for("trace: rumbugz")
    line = g.wait_for("trace: rb-results", timeout=120)
    assert "over=1" in line
    totals = [int(t) for t in line.split("totals=")[1].split(",")]
    store = Store(data)
    [summary] = store.tournaments()
    t = store.tournament(summary.id)
    assert t.game == "rumbugz" and t.games == 2 and t.ruleset.rounds == 1
    assert [s.kind for s in t.seats] == ["bot:easy", "bot:medium"]
    [first] = t.entries()
    assert first.finished and first.scores == totals and first.record["format"] == GAME_FORMAT
    assert len(first.record["rounds"]) == 1 and first.record["totals"] == totals
    store.close()
    if os.environ.get("SHOTS"):
        from panda3d.core import Filename
        shot = os.path.join(os.environ["SHOTS"], "window-rumbugz-tournament.png")
        g.screenshot().write(Filename.fromOsSpecific(shot))
    g.key("Return")                                          # Next game: the tournament's second
    assert "round=1" in g.wait_for("trace: rumbugz")
    assert g.autosave()["tournament"] == {"id": t.id, "game": 2}
