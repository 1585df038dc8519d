"""The rules of NMBR 9: pure Python and numpy, no window (a test keeps it so)."""
from .board import (ALLOW_BRIDGE, ALLOW_LONER, ALLOW_SINGLE_SUPPORT, HIGHEST_LEVEL, Board, IllegalPlacement,
                    Placement, Verdict, REFUSAL_CODES, canonical, tile_points)
from .game import (BREAKING_RULES, CLASSIC, GAP_FILLERS, GAME_REFUSAL_CODES, LEVEL_TO_LEVEL, MODULES, POWERS,
                   START_TILES_MODULE, TWO_OF_THREE, VARIANTS, Game, Move, Options, Ruleset, Seat, deal_start_tiles,
                   draw_powers, new_deck)
from .tiles import COLOURS, FILLERS, SHAPES, START_TILES, distinct_orientations, orientation

__all__ = ["ALLOW_BRIDGE", "ALLOW_LONER", "ALLOW_SINGLE_SUPPORT", "HIGHEST_LEVEL", "Board", "IllegalPlacement",
           "Placement", "Verdict", "REFUSAL_CODES", "canonical", "tile_points",
           "BREAKING_RULES", "CLASSIC", "GAP_FILLERS", "GAME_REFUSAL_CODES", "LEVEL_TO_LEVEL", "MODULES", "POWERS",
           "START_TILES_MODULE", "TWO_OF_THREE", "VARIANTS", "Game", "Move", "Options", "Ruleset", "Seat",
           "deal_start_tiles", "draw_powers", "new_deck",
           "COLOURS", "FILLERS", "SHAPES", "START_TILES", "distinct_orientations", "orientation"]
