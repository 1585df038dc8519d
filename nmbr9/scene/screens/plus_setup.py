"""The NMBR 9 ++ rules picked before a game: the variant, the modules and the Breaking Rules powers in play.

New game (SetupScreen) and the online lobby's host (LobbyScreen) call `rules_rows`; the screen holds
`variant`, `modules` and `powers`, has `_read()` (keep what was typed) and `rules_changed()` (after a
pick). With Breaking Rules on the six powers show as toggles. None chosen: `Game.new` draws two at
random for each game; any number chosen: exactly those are in play.
"""
from __future__ import annotations

from panda3d.core import TextNode

from ...i18n import _
from ...i18n.terms import name as term
from ...rules.game import BREAKING_RULES, MODULES, POWERS, VARIANTS
from ..plus_hud import ICONS, power_name
from .widgets import BUTTON, DIM, GO, SMALL


class RulesPicker:
    """What a screen that picks the rules with `rules_rows` does on a click (New game, the online lobby).
    `variants`: the variants it offers, in the order a click walks them."""
    variants = tuple(VARIANTS)

    def cycle_variant(self) -> None:
        self._read()
        order = list(self.variants)
        self.variant = order[(order.index(self.variant) + 1) % len(order)] if self.variant in order else order[0]
        self.rules_changed()

    def toggle_module(self, module: str) -> None:
        self._read()
        self.modules = [m for m in self.modules if m != module] if module in self.modules else \
            [m for m in MODULES if m in self.modules or m == module]
        self.rules_changed()


def rules_rows(screen, y: float, left: float, width: float, per_row: int) -> float:
    """"Rules:" with the variant (each click the next), the modules as toggles and the powers under them,
    from height y down across `width` from `left` (`screen`: a RulesPicker); returns the height below them."""
    screen.label(_("Rules:"), (left, y), scale=0.042, align=TextNode.ALeft)
    screen.button(term(screen.variant), screen.cycle_variant, (left + 0.75, y + 0.012), width=0.7, scale=0.04)
    y -= 0.1
    third = width / 3
    for i, module in enumerate(MODULES):
        text = term(module) + ": " + (_("on") if module in screen.modules else _("off"))
        screen.button(text, screen.toggle_module, (left + third * (i + 0.5), y + 0.012), width=third - 0.03,
                      scale=SMALL, args=(module,))
    return power_row(screen, y - 0.1, left, width, per_row)


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
    screen.rules_changed()


def chosen_powers(screen) -> tuple[str, ...]:
    """The powers the setup chose ((): drawn at random when Breaking Rules is on)."""
    return tuple(screen.powers) if BREAKING_RULES in screen.modules else ()
