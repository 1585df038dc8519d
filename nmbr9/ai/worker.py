"""Thinking beside the window: the bots' moves and the hints worked out in processes of their own.

In a thread of the game's own process a bot shares the interpreter's lock with the window's
frames: in a 1280x720 window the hints (the "expert" bot's choices then) took 2.7 s on average against
0.6 s for the same choices alone (`nmbr9 bench hints --games 2 --seed 1`, software GL, a quiet 2-core machine).
In a process of its own, with the frames capped (scene/base.py), they take 0.8 s.

    result = worker.run(functools.partial(make_bot("hard", seed).choose, view))

The hints have processes of their own: in a game with bots, a hint asked for as the card is turned
waited behind every bot's move of the round (4 bots, round 9: 8 s for a hint that takes 2).

    hint = worker.run(functools.partial(make_bot("hard", seed).choose, view), HINTS)

A hint given up on (the tile laid before it came) is abandoned: it stops within a moment in its
process, which takes the next hint at once. (It ran to its end, and under load the next hint
waited behind it for nothing.)

    worker.abandon(HINTS)

Work that can't be sent (not picklable) or whose process died (killed, out of memory) is
worked out in the calling thread instead: a move is never lost, only slower. The choices
are the same either way (bots are deterministic given their seed).
"""
from __future__ import annotations

import _thread
import functools
import multiprocessing
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

BOTS, HINTS = "bots", "hints"   # who the work is for: each has its own processes
PROCESSES = 2      # of each: the bots think side by side, and a second hint need not wait for a stale one
_pools: dict[str, ProcessPoolExecutor] = {}
_lock = threading.Lock()
_thinking: dict = {}   # (kind, the work as sent) -> its future, while it is worked out
_issued = 0            # the last work's number (each piece of work sent is numbered, in order)
_abandoned: dict = {}  # kind -> a number shared with its processes: the work up to it is no longer wanted
WATCH = 0.05           # how often (s) a thinking process looks whether its work was abandoned


class Abandoned(Exception):
    """The result of work abandoned (worker.abandon) before it was done."""


def _executor(kind: str) -> ProcessPoolExecutor:
    with _lock:
        if kind not in _pools:
            # spawned, not forked: a fork would copy the window's graphics state
            context = multiprocessing.get_context("spawn")
            _abandoned[kind] = context.Value("q", 0, lock=False)
            _pools[kind] = ProcessPoolExecutor(PROCESSES, mp_context=context, initializer=_follow,
                                               initargs=(os.getpid(), _abandoned[kind]))
        return _pools[kind]


# in a thinking process: the number of the work in hand (0: none), and up to which number work is abandoned
_working, _given_up = 0, None


def _follow(parent: int, given_up) -> None:
    """In a thinking process: end with the game, and stop work abandoned. A game killed outright
    (kill -9, a crash) never tells its processes, and they would wait for work forever."""
    global _given_up
    _given_up = given_up
    # the work is interrupted in this main thread, between two steps of Python (as Ctrl+C would)
    signal.signal(signal.SIGINT, _stop_if_abandoned)

    def watch():
        while os.getppid() == parent:
            if 0 < _working <= given_up.value:
                _thread.interrupt_main(signal.SIGINT)
            time.sleep(WATCH)
        os._exit(0)
    threading.Thread(target=watch, name="nmbr9-follow", daemon=True).start()


def _stop_if_abandoned(*_signal) -> None:
    # asked from the watching thread, answered here: the work it saw may be done, and the next begun
    if 0 < _working <= _given_up.value:
        raise Abandoned()


def _numbered(number: int, work):
    """work(), sent as the `number`th piece of work: interrupted (Abandoned) once abandoned."""
    global _working
    _working = number
    try:
        _stop_if_abandoned()   # abandoned while it waited for a process: not begun
        return work()
    finally:
        _working = 0


def _finished(same, future) -> None:
    with _lock:
        if _thinking.get(same) is future:   # (the same work abandoned, then asked again: the new one stays)
            del _thinking[same]


def _forget(pool) -> None:
    with _lock:
        for kind in [k for k, p in _pools.items() if p is pool]:
            del _pools[kind]


def start(work, kind: str = BOTS):
    """Start work() in one of `kind`'s thinking processes; returns a function that waits for its
    result (or raises its error). The same work (as sent) still being worked out is not started again:
    a game continued from the menu while its bots thought (the saved game loaded anew, each visit
    of the menu too) queued their moves again behind the first ones, and waited for both."""
    try:
        # here, not in the pool's feeder thread, so a failure is ours to see
        same = (kind, pickle.dumps(work))
    except Exception:    # pickling fails in several ways (PicklingError, TypeError, AttributeError)
        return work
    pool = _executor(kind)
    with _lock:
        future = _thinking.get(same)
    if future is None:
        global _issued
        with _lock:
            _issued += 1
            number = _issued
        try:
            future = pool.submit(_numbered, number, work)
        except Exception:    # a process died while idle, or none could be started: think here, afresh next time
            _forget(pool)
            return work
        with _lock:
            _thinking[same] = future
        future.add_done_callback(lambda done: _finished(same, done))

    def result():
        try:
            return future.result()
        except BrokenProcessPool:
            _forget(pool)
            return work()
    return result


def in_background(work, kind: str = BOTS, name: str = "result"):
    """work() started in `kind`'s processes (sent from this thread: abandon() reaches it at once) and waited
    for by a thread, so the window draws on: (the thread, a dict that gets result[name] or result["error"])."""
    result: dict = {}
    answer = start(work, kind)

    def wait() -> None:
        try:
            result[name] = answer()
        except Exception as e:   # said by the caller, as a sentence: the game goes on
            result["error"] = e
    thread = threading.Thread(target=wait, name=f"nmbr9-{kind}", daemon=True)
    thread.start()
    return thread, result


def run(work, kind: str = BOTS):
    """work() worked out in one of `kind`'s thinking processes: its result, or its error raised."""
    return start(work, kind)()


def abandon(kind: str = HINTS) -> None:
    """The work sent for `kind` so far is no longer wanted (a hint for a tile laid meanwhile): it
    stops within a moment (its result: Abandoned), and the same work asked again starts afresh."""
    with _lock:
        if kind in _abandoned:
            _abandoned[kind].value = _issued
        for same in [same for same in _thinking if same[0] == kind]:
            del _thinking[same]


def _ready(_process: int) -> int:
    from . import bots  # noqa: F401  (the import is the work: numpy and the bots loaded)
    return os.getpid()


def warm() -> None:
    """Start the processes now (they take about a second to load), so the first move waits less."""
    for kind in (BOTS, HINTS):
        for n in range(PROCESSES):   # (numbered: the same work twice would be started once)
            start(functools.partial(_ready, n), kind)


def stop() -> None:
    """Quitting: end the processes at once, mid-move too (a bot's move not yet committed is
    worked out again after Continue)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
        _abandoned.clear()
    for pool in pools:
        # The executor would wait for a move in progress; Python 3.11 has no public way to end its
        # processes (3.14's terminate_workers).
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
