"""A long command's progress on stderr."""
from __future__ import annotations

import sys


class Progress:
    """On a terminal, one line written over in place as the work goes on; elsewhere (a log file, a pipe) a whole
    line at each tenth done: carriage returns there left one long line in the log."""

    def __init__(self, out=None):
        self.out = sys.stderr if out is None else out
        self.tty = self.out.isatty()
        self.tenths = -1   # the last tenth told, off a terminal

    def __call__(self, fraction: float, text: str) -> None:
        if self.tty:
            self.out.write("\r" + text + ("\n" if fraction >= 1 else ""))
        elif int(10 * fraction) > self.tenths:
            self.tenths = int(10 * fraction)
            self.out.write(text + "\n")
        else:
            return
        self.out.flush()
