"""Small builders shared by the rules tests."""
from __future__ import annotations

import random

from nmbr9.rules import Board, Game, Placement, Seat, new_deck


def board_of(*placements) -> Board:
    """A board built from (digit, rotation, x, y) tuples, each resting where it lands."""
    b = Board()
    for d, r, x, y in placements:
        b.place(Placement(d, r, x, y))
    return b


def random_game(seed: int, players: int = 1, upward: float = 0.7) -> Game:
    """A complete game where every player picks a random legal placement, preferring height."""
    rng = random.Random(seed)
    game = Game([Seat(f"P{i}") for i in range(players)], new_deck(random.Random(seed)))
    while not game.over:
        for player in game.waiting():
            options = game.boards[player].legal_placements(game.card)
            if rng.random() < upward:
                top = max(p.level for p in options)
                options = [p for p in options if p.level == top]
            assert game.play(player, rng.choice(options))
    return game
