"""Bots. One interface for every strength: a bot sees its own board, the rules
in force and the cards turned so far (so the remaining deck's composition),
never the order of the cards to come.

    bot = make_bot("hard", seed=7)
    placement = bot.choose(View(board, card, seen, ruleset))
"""
from __future__ import annotations

from dataclasses import dataclass

from ..rules import Board, Placement, Ruleset

STRENGTHS = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class View:
    """What a bot may know when it chooses where to lay `card`."""
    board: Board
    card: int
    seen: tuple[int, ...]          # cards turned so far, this round's included
    ruleset: Ruleset = Ruleset()
    deck_size: int = 20


def make_bot(strength: str, seed: int = 0):
    """A bot of that strength, deterministic given the seed."""
    from .bots import BOTS  # written by the bots work (issue 5)
    return BOTS[strength](seed)
