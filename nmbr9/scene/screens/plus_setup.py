"""New game, NMBR 9 ++: the Breaking Rules powers in play, chosen in setup or drawn at random.

SetupScreen calls `power_row` under its module toggles; with Breaking Rules on it shows the six
powers as toggles. None chosen: `Game.new` draws two at random for each game; any number chosen:
exactly those are in play.
"""
from __future__ import annotations

from panda3d.core import TextNode

from ...i18n import _
from ...rules.game import BREAKING_RULES, POWERS
from ..plus_hud import ICONS, power_name
from .widgets import BUTTON, DIM, GO


def power_row(screen, y: float) -> None:
    """The powers as toggles at height y (only with Breaking Rules on)."""
    if BREAKING_RULES not in screen.modules:
        return
    hint = _("Powers (none chosen: two drawn at random):") if not screen.powers else _("Powers in play:")
    # wrapped to two lines left of the toggles: on one it ran under them in every language
    screen.label(hint, (-1.2, y + 0.016), scale=0.03, align=TextNode.ALeft, fg=DIM, wrap=26)
    for i, power in enumerate(POWERS):
        on = power in screen.powers
        screen.button(f"{ICONS[power]} {power_name(power)}" + (" \u2713" if on else ""), toggle_power,
                      (-0.17 + i * 0.31, y + 0.01), width=0.3, scale=0.029, colour=GO if on else BUTTON,
                      args=(screen, power))


def toggle_power(screen, power: str) -> None:
    screen._read()   # keep what was typed
    screen.powers = [p for p in POWERS if (p in screen.powers) != (p == power)]
    screen.relabel()


def chosen_powers(screen) -> tuple[str, ...]:
    """The powers the setup chose ((): drawn at random when Breaking Rules is on)."""
    return tuple(screen.powers) if BREAKING_RULES in screen.modules else ()
