"""A whole game as a pure value: its table (``config``), its rounds, the current round and undo
(``game``), and the checks of a hand's tiles (``hands``).

The names the rest of the app imports are named here.
"""

from referee.match.config import (
    MODES,
    NAME_MAX,
    PLAYERS_MAX,
    GameConfig,
    UnknownRound,
    clean_player_names,
    game_and_mode,
    given_options,
    listing,
    name_skeleton,
)
from referee.match.game import Match
from referee.match.hands import HANDS_SHAPE, HandCheck, size_problem, tile_problem

__all__ = [
    "HANDS_SHAPE",
    "MODES",
    "NAME_MAX",
    "PLAYERS_MAX",
    "GameConfig",
    "HandCheck",
    "Match",
    "UnknownRound",
    "clean_player_names",
    "game_and_mode",
    "given_options",
    "listing",
    "name_skeleton",
    "size_problem",
    "tile_problem",
]
