"""The hand-off screen between two humans at one computer, for both games: it covers the table (NMBR 9's
boards, RumBugz's secret hands), says whom to pass to, and shows the table again only when that player clicks
(or presses Enter, after a moment: the last player's Enter pressed once more shows nothing)."""
from __future__ import annotations

import time

from ...i18n import _
from .widgets import ACCENT, DIM, WARN, take_off

HANDOFF_LINE = 1.8    # the width of the hand-off's lines (aspect2d units): a long name wraps, not runs off
HANDOFF_BACK = (0.09, 0.1, 0.11, 1)


class HandOff:
    """Built on `screen` (a Screen): `ready()` once HANDOFF_PAUSE has passed lights the "I am ..." button."""

    def __init__(self, screen, name: str, subtitle: str, button_text: str, on_show, on_menu,
                 warning: str | None = None, hidden: str | None = None):
        self.screen, self.name, self.button_text, self.on_show = screen, name, button_text, on_show
        frame = self.frame = screen.backdrop(HANDOFF_BACK)
        wrap = HANDOFF_LINE
        title = screen.label(_("Pass to {name}").format(name=name), (0, 0.3), scale=0.09, bold=True, parent=frame,
                             fg=ACCENT, wrap=wrap / 0.09)
        # a long name's lines go above the first, not down over the round's line
        text = title.component("text0").textNode
        title.setZ(0.3 + (text.getNumRows() - 1) * text.getLineHeight() * 0.09)
        screen.label(subtitle, (0, 0.1), scale=0.05, parent=frame, fg=DIM, wrap=wrap / 0.05)
        hidden = hidden or _("The table stays hidden until {name} clicks or presses Enter.").format(name=name)
        screen.label(hidden, (0, -0.32), scale=0.042, parent=frame, fg=DIM, wrap=wrap / 0.042)
        if warning:   # the table's status line is hidden with the table: said here too
            screen.label(warning, (0, -0.5), scale=0.042, parent=frame, fg=WARN, wrap=wrap / 0.042)
        screen.button(_("Menu (Esc)"), on_menu, (0, -0.8), width=0.5, scale=0.05, parent=frame)
        # greyed a moment, Enter not yet taken: the last player's Enter (or click) pressed once more neither
        # shows them the next player's table nor makes the next player's move
        self.button, self.shown_at, self.is_ready = None, time.monotonic(), False
        self._button(False)
        screen.ignore("enter")

    def _button(self, ready: bool) -> None:
        if self.button is not None:
            self.button.destroy()
        self.button = self.screen.button(self.button_text, self.on_show, (0, -0.12), width=HANDOFF_LINE,
                                         scale=0.055, parent=self.frame, enabled=ready)
        self.is_ready = ready
        if ready:
            self.screen.accept("enter", self.on_show)

    def ready(self, pause: float) -> None:
        """Light the button once `pause` seconds have passed since the hand-off showed."""
        if not self.is_ready and time.monotonic() - self.shown_at >= pause:
            self._button(True)

    def remove(self) -> None:
        take_off(self.frame)
