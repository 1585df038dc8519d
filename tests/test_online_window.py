"""Play online in real windows (issue 39): two games (`run_game.py`), each under an X server of its own, join
one game on a real server on 127.0.0.1 and play it to the end, driven by xdotool with the keys a player
uses; a window plays on through its server being killed and started again, and Continue takes its seat
again after the window was closed."""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

from nmbr9.net.bench import ServerProcess
from nmbr9.net.client import ClientThread
from tests.helpers import xvfb
from tests.test_window_e2e import MISSING, RunningGame

pytestmark = pytest.mark.window
if MISSING:
    pytest.skip(f"needs {' and '.join(MISSING)}", allow_module_level=True)
SIZE = "800x600"
SHOTS = Path(os.environ["NMBR9_SHOTS"]) if os.environ.get("NMBR9_SHOTS") else None   # pictures to look at


def open_game(display: str, data) -> RunningGame:
    data.mkdir(parents=True, exist_ok=True)
    # no settling drop to wait for
    (data / "settings.json").write_text(json.dumps({"animation_speed": 0, "window_size": [800, 600]}))
    g = RunningGame(display, data, sized=False)
    g.wait_for("trace: screen menu", timeout=60)
    g.find_window()
    time.sleep(0.5)
    return g


def keys(g: RunningGame, *names: str) -> None:
    g.xdotool("key", "--window", g.window, "--delay", "120", *names)
    time.sleep(0.3)


def write(g: RunningGame, text: str) -> None:
    g.xdotool("type", "--window", g.window, "--delay", "120", text)
    time.sleep(0.3)


def to_play_online(g: RunningGame, name: str, down: int = 3) -> None:
    """Menu -> Play online (the item `down` from the top), the name typed."""
    keys(g, *["Down"] * down, "Return")
    g.wait_for("trace: screen online")
    keys(g, "shift+Tab")          # the name's field
    write(g, name)
    keys(g, "Tab")                # back on Host on this computer


def join(g: RunningGame, address: str, code: str) -> None:
    keys(g, "Tab", "Tab")         # past Host for the network, to the address
    write(g, address)
    keys(g, "Tab")
    write(g, code)
    keys(g, "Return")             # Enter in the code's field joins


def lay(g: RunningGame, seat: int, rounds) -> None:
    """Each round's tile where it is dealt (a legal spot beside the build), confirmed with Enter."""
    for r in rounds:
        g.wait_for(f"trace: turn seat={seat} round={r} ", timeout=30)
        keys(g, "Return")
        try:
            g.wait_for(f"trace: placed seat={seat} round={r} ", timeout=6)
        except AssertionError:   # the table's first frames (seconds with software GL): an Enter so soon after
            keys(g, "Return")    # the table shows is let go by as a stray one (play.HANDOFF_PAUSE)
            g.wait_for(f"trace: placed seat={seat} round={r} ", timeout=30)


@pytest.fixture
def displays():
    with xvfb(SIZE) as one, xvfb(SIZE) as two:
        yield one, two


def test_two_windows_play_one_online_game_to_the_end(displays, tmp_path):
    started = time.monotonic()
    a = open_game(displays[0], tmp_path / "a")
    b = open_game(displays[1], tmp_path / "b")
    try:
        to_play_online(a, "Ana")
        keys(a, "space")                                           # Host on this computer
        line = a.wait_for("trace: lobby ", timeout=30)
        words = dict(w.split("=", 1) for w in line.split()[2:])
        to_play_online(b, "Ben")
        join(b, words["address"], words["code"].lower())           # a code read out: any case will do
        b.wait_for("trace: screen lobby")
        a.wait_for("trace: lobby code=%s address=%s seats=2" % (words["code"], words["address"]))
        keys(a, "Return")                                          # Start the game
        a.wait_for("trace: screen online-play")
        b.wait_for("trace: screen online-play")
        time.sleep(1)   # (a stray Enter just after the table shows is not taken for a tile)
        lay(a, 0, range(1, 21))                                    # Ana plays ahead, at her own pace ...
        a.wait_for("trace: online-waiting")                        # ... and waits only at the end
        lay(b, 1, range(1, 21))
        ends = [g.wait_for("trace: results", timeout=60) for g in (a, b)]
    finally:
        a.kill()
        b.kill()
    scores = [dict(w.split("=", 1) for w in end.split()[2:]) for end in ends]
    assert scores[0] == scores[1] and set(scores[0]) == {"Ana", "Ben"}
    print(f"two windows, one online game of 20 rounds: {time.monotonic() - started:.1f} s")


def test_a_window_plays_on_through_a_server_restart_and_continue_takes_the_seat_again(displays, tmp_path):
    server = ServerProcess(tmp_path / "server")
    port = server.start()
    host = ClientThread(f"ws://127.0.0.1:{port}", rng=random.Random(1))   # a player at another computer
    g = open_game(displays[0], tmp_path / "b")
    try:
        host.connect().result(10)
        code = host.host("Ana").result(10)["code"]
        to_play_online(g, "Ben")
        join(g, f"127.0.0.1:{port}", code)
        g.wait_for("trace: lobby code=%s" % code)
        host.start().result(10)
        g.wait_for("trace: screen online-play")
        time.sleep(1)
        lay(g, 1, [1, 2])
        g.wait_for("trace: turn seat=1 round=3 ")
        server.kill()                                              # the server goes down mid-game
        g.wait_for("trace: online-connection lost", timeout=20)
        shot = g.screenshot()                                      # the notice, not a modal: the table plays on
        keys(g, "Return")                                          # a tile laid while the server is away
        g.wait_for("trace: placed seat=1 round=3 ")
        server.start()                                             # the same port, the same data
        g.wait_for("trace: turn seat=1 round=4 ", timeout=30)      # the tile was kept: the next card came
        if "trace: online-connection back" not in g.seen:          # (said in the same frame, or just after)
            g.wait_for("trace: online-connection back")
        g.kill()                                                   # the window closed; back later:
        g = open_game(displays[0], tmp_path / "b")
        keys(g, "Return")                                          # Continue online (the first item)
        session = g.wait_for("trace: session ", timeout=30)
        g.wait_for("trace: screen online-play")
        lay(g, 1, [4])
    finally:
        g.kill()
        host.stop()
        server.stop()
    assert "round=4" in session and "tiles=3" in session
    if SHOTS:
        shot.write(str(SHOTS / "online-reconnecting.png"))
