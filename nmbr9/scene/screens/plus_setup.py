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
from .widgets import BUTTON, DIM, GO, SMALL


def power_row(screen, y: float, left: float, width: float, per_row: int) -> float:
    """The powers as toggles from height y down, `per_row` to a row across `width` from `left` (only with
    Breaking Rules on); returns the height below them."""
    if BREAKING_RULES not in screen.modules:
        return y
    hint = _("Powers (none chosen: two drawn at random):") if not screen.powers else _("Powers in play:")
    screen.label(hint, (left, y), scale=SMALL, align=TextNode.ALeft, fg=DIM, wrap=width / SMALL)
    step = width / per_row
    for i, power in enumerate(POWERS):
        on = power in screen.powers
        row, column = divmod(i, per_row)
        screen.button(f"{ICONS[power]} {power_name(power)}" + (" \u2713" if on else ""), toggle_power,
                      (left + step * (column + 0.5), y - 0.08 - row * 0.09), width=step - 0.02, scale=SMALL,
                      colour=GO if on else BUTTON, args=(screen, power))
    return y - 0.08 - (len(POWERS) - 1) // per_row * 0.09 - 0.06


def toggle_power(screen, power: str) -> None:
    screen._read()   # keep what was typed
    screen.powers = [p for p in POWERS if (p in screen.powers) != (p == power)]
    screen.relabel()


def chosen_powers(screen) -> tuple[str, ...]:
    """The powers the setup chose ((): drawn at random when Breaking Rules is on)."""
    return tuple(screen.powers) if BREAKING_RULES in screen.modules else ()
