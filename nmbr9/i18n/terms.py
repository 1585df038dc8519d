"""The names players read for the rules' codes: variants, modules and Breaking Rules powers.

Menus, the HUD and the rules page all take these names from here, so a power
is called the same everywhere in every language:

    from nmbr9.i18n.terms import name, power_rule
    name("two_of_three")   # "2 aus 3" in German
    power_rule("bridge")   # what the Bridge power allows, one sentence

The codes are the ones in nmbr9/rules/game.py (tests check they match).
"""
from __future__ import annotations

from . import N_, _

NAMES = {
    # variants
    "classic": N_("Base game"),
    "two_of_three": N_("2 of 3"),
    "level_to_level": N_("Level to Level"),
    # NMBR 9 ++ modules
    "start_tiles": N_("New start tiles"),
    "gap_fillers": N_("Gap fillers"),
    "breaking_rules": N_("Breaking Rules"),
    # Breaking Rules powers
    "relocate": N_("Relocate"),
    "flip": N_("Flip"),
    "single_support": N_("Single support"),
    "bridge": N_("Bridge"),
    "loner": N_("Loner"),
    "reserve": N_("Reserve"),
}

POWER_RULES = {
    "relocate": N_("Move one of your built tiles that has nothing on top of it to its own level or a lower "
                   "one, following the placement rules, before or after placing the new tile."),
    "flip": N_("Lay the tile black side up, so it shows its mirror image. It scores 0."),
    "single_support": N_("The tile may rest on just one tile."),
    "bridge": N_("The tile may span a hole of any size, provided the hole is closed (surrounded by tiles of "
                 "its level) and the tile covers it completely. It still must not overhang at the outside."),
    "loner": N_("From level 1 upwards, the tile need not touch a tile of its own level."),
    "reserve": N_("Set the tile aside instead of building it; in one of your later turns you build it as a "
                  "second tile."),
}

NAMED_RULE = N_("{name}: {rule}")


def name(code: str) -> str:
    """The name of a variant, module or power in the current language (the code itself if unknown)."""
    return _(NAMES[code]) if code in NAMES else code


def power_rule(code: str) -> str:
    """What a Breaking Rules power allows, in the current language."""
    return _(POWER_RULES[code])


def named_power_rule(code: str, translate=_) -> str:
    """'Bridge: The tile may span ...' as the rules page lists the powers."""
    return translate(NAMED_RULE).format(name=translate(NAMES[code]), rule=translate(POWER_RULES[code]))
