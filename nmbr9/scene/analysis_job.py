"""The after-game analysis in its own process, so the search never competes with the window for the GIL.

    job = AnalysisJob(deck, widest, layouts)    # starts at once
    job.poll()                         # each frame: updates job.progress, job.placements, job.error
    job.stop()                         # leaving the screen early

The child is `python -m nmbr9.scene.analysis_job WIDEST DIGIT...` (ai/analyse.py: the search's work, never
its time, so a deck's best is the same on a busy machine); it reads the
players' layouts (lists of placements, each [piece, rotation, x, y, level, flipped])
as one JSON list on stdin, so the best found is never less than a player laid; it prints
one JSON object a line: {"progress": f} (the first as soon as the search starts), then {"placements": [...]} or {"error": "..."}.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading

from ..i18n import _
from ..paths import ROOT


class AnalysisJob:
    def __init__(self, deck, widest: int, layouts=()):
        self.progress: float | None = None   # None until the child's first report (it starts slowly on a busy machine)
        self.placements = None
        self.error: str | None = None
        self._lines: queue.Queue = queue.Queue()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen([sys.executable, "-m", "nmbr9.scene.analysis_job", str(widest),
                                         *map(str, deck)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
        try:
            with self.process.stdin:
                json.dump([[list(p) for p in layout] for layout in layouts], self.process.stdin)
        except OSError:
            pass   # the child died at once: poll() reports its exit
        threading.Thread(target=self._read, name="nmbr9-analysis-reader", daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def poll(self) -> None:
        from ..rules import Placement
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                if self.placements is None and self.error is None:
                    self.error = _("the analysis stopped (exit code {code})").format(code=self.process.wait())
                return
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "progress" in msg:
                self.progress = msg["progress"]
            elif "placements" in msg:
                self.placements = [Placement(*p) for p in msg["placements"]]
            elif "error" in msg:
                self.error = msg["error"]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main(argv: list[str]) -> int:
    try:
        os.nice(10)   # the window comes first on a busy machine
    except (AttributeError, OSError):
        pass
    from ..ai.analyse import analyse
    from ..rules import Placement

    def say(**msg):
        print(json.dumps(msg), flush=True)
    try:
        widest, deck = int(argv[0]), [int(d) for d in argv[1:]]
        layouts = [[Placement(*p) for p in layout] for layout in json.loads(sys.stdin.read() or "[]")]
        found = analyse(deck, progress=lambda f: say(progress=f), widest=widest, layouts=layouts)
        say(placements=[list(p) for p in found])   # as the layouts came in: Placement's fields
    except Exception as e:   # shown to the player as a sentence
        say(error=str(e) or type(e).__name__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
