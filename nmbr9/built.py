"""A built game (`python setup.py bdist_apps`) has no Python beside it: each of its programs holds the interpreter
and the game's modules, and sys.executable is the program itself. Python starts its helper processes with
sys.executable and an interpreter's arguments: multiprocessing's spawned workers (`--multiprocessing-fork ...`,
the bots' and hints' processes) and its resource tracker (`-c CODE`), and the results' analysis
(`-m nmbr9.scene.analysis_job`). run_game.py, the programs' start, hands such arguments here, to run as Python would;
without this a helper started the game again, which refused its arguments and the bots thought in the window's
process."""
from __future__ import annotations

import re
import sys

# the options multiprocessing repeats from the parent's interpreter (util._args_from_interpreter_flags): -OO -s ...
_FLAGS = re.compile(r"-[bBdEIOqsSuv]+")


def run_helper(argv: list[str]) -> bool:
    """Run the helper process that `argv` (sys.argv[1:]) asks for, as Python would; False when it asks for none
    (the game or the command line itself)."""
    args = list(argv)
    while args and (_FLAGS.fullmatch(args[0]) or args[0] in ("-X", "-W")):
        args = args[2:] if args[0] in ("-X", "-W") else args[1:]
    if args[:1] == ["--multiprocessing-fork"]:
        from multiprocessing import spawn
        sys.argv[1:] = args
        spawn.freeze_support()   # runs the worker and exits
        return True
    if len(args) >= 2 and args[0] == "-c":
        sys.argv[:] = ["-c", *args[2:]]
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
        return True
    if len(args) >= 2 and args[0] == "-m":
        import runpy
        sys.argv[:] = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return True
    return False
