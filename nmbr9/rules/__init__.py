"""The rules of NMBR 9: pure Python and numpy, no window (a test keeps it so)."""
from .board import (ALLOW_BRIDGE, ALLOW_LONER, ALLOW_SINGLE_SUPPORT, Board, IllegalPlacement,
                    Placement, Verdict, REFUSAL_CODES, canonical, tile_points)
from .game import Game, Move, Ruleset, Seat, new_deck
from .tiles import COLOURS, SHAPES, distinct_orientations, orientation

__all__ = ["ALLOW_BRIDGE", "ALLOW_LONER", "ALLOW_SINGLE_SUPPORT", "Board", "IllegalPlacement",
           "Placement", "Verdict", "REFUSAL_CODES", "canonical", "tile_points", "Game", "Move",
           "Ruleset", "Seat", "new_deck", "COLOURS", "SHAPES", "distinct_orientations", "orientation"]
