"""Bots. One interface for every strength: a bot sees its own board, the rules
in force and the cards turned so far (so the remaining deck's composition),
never the order of the cards to come.

    bot = make_bot("hard", seed=7)
    placement = bot.choose(View(board, card, seen, ruleset))
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..rules import Board, Game, Ruleset, Seat

STRENGTHS = ("easy", "medium", "hard")
# the strongest bot: the hints are its choices
STRONGEST = STRENGTHS[-1]
# strengths older versions offered, and the one that plays their seats now: "expert" played hard's game
# (its hints gave hard's board, 20 moves of 20, in two puzzles; 91.2 against hard's 89.5 on 40 decks, noise,
# at five times the time), so records, saves, settings and tournaments naming bot:expert are played by hard
FORMER_STRENGTHS = {"expert": "hard"}


def current_strength(strength: str) -> str:
    """The strength that plays a seat of this strength now ("hard" for a former "expert")."""
    return FORMER_STRENGTHS.get(strength, strength)


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
    from .bots import BOTS
    return BOTS[current_strength(strength)](seed)


def solo_game(strength: str, deck: list[int], seed: int = 0, each=None):
    """A bot's solo game on this deck: (the game, seconds each choice took). A refused
    move ends it early (the game is then not over). each() is called after every move."""
    game = Game([Seat("bot", f"bot:{strength}")], list(deck))
    bot = make_bot(strength, seed)
    times = []
    while not game.over:
        view = View(game.boards[0].copy(), game.card, tuple(game.seen()), game.ruleset, len(game.deck))
        t = time.perf_counter()
        p = bot.choose(view)
        times.append(time.perf_counter() - t)
        if not game.play(0, p):
            break
        if each:
            each()
    return game, times
