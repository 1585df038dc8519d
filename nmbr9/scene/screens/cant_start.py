"""Why the game does not start, in a small window of its own: started from a desktop icon there is no
terminal to read the message in. OK, Enter, Esc or closing the window ends it.

No GameApp here (the data folder may be the trouble): the screen gets the fonts and the window only.
"""
from __future__ import annotations

import os
import sys
from types import SimpleNamespace

from panda3d.core import TextNode

from ...i18n import _
from .widgets import ANY, GO, Screen

SIZE = (720, 300)


def wanted() -> bool:
    """A window only for a player with no terminal (and none in tests: NMBR9_NO_DIALOG=1): there is a
    display, and none of stdin, stdout and stderr is a terminal."""
    if os.environ.get("NMBR9_NO_DIALOG") == "1":
        return False
    display = sys.platform in ("win32", "darwin") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    return bool(display) and not any(os.isatty(fd) for fd in (0, 1, 2))


class CantStartScreen(Screen):
    name = "cant-start"
    layouts = (ANY,)

    def __init__(self, app, text: str, close):
        super().__init__(app)
        self.text, self.close = text, close

    def build(self) -> None:
        w, h = self.room
        self.backdrop()
        scale = 0.085
        text = self.label(self.text, (0, 0), scale=scale, align=TextNode.ACenter, wrap=2 * (w - 0.2) / scale)
        rows = text.component("text0").textNode.getNumRows()
        text.setZ(0.3 + (rows - 1) * scale * 0.6)   # the lines centred above the button
        self.ok = self.button(_("OK"), self.close, (0, 0.25 - h), width=0.6, scale=0.07, colour=GO)
        for key in ("enter", "escape", "space"):
            self.accept(key, self.close)


def show(text: str) -> None:
    """The message and an OK button, until the player closes it (nothing if no window opens)."""
    from ..base import make_base
    from ..hud import load_fonts
    try:
        base = make_base(offscreen=False, size=SIZE)
    except Exception:   # no window to be had: the message went to the terminal's output anyway
        return
    if base.win is None:
        return
    closed = []
    base.userExit = lambda: closed.append(True)   # the window closed: ShowBase would exit the process
    font, bold = load_fonts(base)
    screen = CantStartScreen(SimpleNamespace(base=base, font=font, bold=bold), text, lambda: closed.append(True))
    screen.enter()
    screen.accept("window-event", lambda win: screen.window_changed())   # after ShowBase's own handler
    if os.environ.get("NMBR9_TRACE") == "1":
        print("trace: screen", screen.name, flush=True)
    while not closed:
        base.taskMgr.step()
    screen.exit()
    base.destroy()
