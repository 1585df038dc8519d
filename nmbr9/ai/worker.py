"""Thinking beside the window: the bots' moves and the hints worked out in processes of their own.

In a thread of the game's own process a bot shares the interpreter's lock with the window's
frames: in a 1280x720 window the expert's hints took 2.7 s on average against 0.6 s for the same
choices alone (`nmbr9 bench hints --games 2 --seed 1`, software GL, a quiet 2-core machine).
In a process of its own, with the frames capped (scene/base.py), they take 0.8 s.

    result = worker.run(functools.partial(make_bot("expert", seed).choose, view))

The hints have processes of their own: in a game with bots, a hint asked for as the card is turned
waited behind every bot's move of the round (4 bots, round 9: 8 s for a hint that takes 2).

    hint = worker.run(functools.partial(make_bot("expert", seed).choose, view), HINTS)

Work that can't be sent (not picklable) or whose process died (killed, out of memory) is
worked out in the calling thread instead: a move is never lost, only slower. The choices
are the same either way (bots are deterministic given their seed).
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

BOTS, HINTS = "bots", "hints"   # who the work is for: each has its own processes
PROCESSES = 2      # of each: the bots think side by side, and a second hint need not wait for a stale one
_pools: dict[str, ProcessPoolExecutor] = {}
_lock = threading.Lock()
_thinking: dict = {}   # (kind, the work as sent) -> its future, while it is worked out


def _executor(kind: str) -> ProcessPoolExecutor:
    with _lock:
        if kind not in _pools:
            # spawned, not forked: a fork would copy the window's graphics state
            _pools[kind] = ProcessPoolExecutor(PROCESSES, mp_context=multiprocessing.get_context("spawn"),
                                               initializer=_follow, initargs=(os.getpid(),))
        return _pools[kind]


def _follow(parent: int) -> None:
    """In a thinking process: end with the game. A game killed outright (kill -9, a crash) never
    tells its processes, and they would wait for work forever."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)
    threading.Thread(target=watch, name="nmbr9-follow", daemon=True).start()


def _finished(same) -> None:
    with _lock:
        _thinking.pop(same, None)


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
        try:
            future = pool.submit(work)
        except Exception:    # a process died while idle, or none could be started: think here, afresh next time
            _forget(pool)
            return work
        with _lock:
            _thinking[same] = future
        future.add_done_callback(lambda _done: _finished(same))

    def result():
        try:
            return future.result()
        except BrokenProcessPool:
            _forget(pool)
            return work()
    return result


def run(work, kind: str = BOTS):
    """work() worked out in one of `kind`'s thinking processes: its result, or its error raised."""
    return start(work, kind)()


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
    for pool in pools:
        # The executor would wait for a move in progress; Python 3.11 has no public way to end its
        # processes (3.14's terminate_workers).
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
