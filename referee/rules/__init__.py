"""The pure rules core: one package per game (its declaration, engine and game-level rules),
all sharing ``base``.

``GAMES`` is the registry the rest of the app reads: each game's rules class, whose
``declaration`` (``referee.rules.options.GameDeclaration``) describes the game once.
"""

from referee.rules.base import Action, ActionType, AnyGameRules, RoundEnd, RoundRecord, Standing
from referee.rules.chicken_foot import ChickenFoot
from referee.rules.kozel import Kozel
from referee.rules.mexican_train import MexicanTrain
from referee.rules.options import GameDeclaration, GameOptions, Option
from referee.rules.refusals import BadRequest, Phrase, RuleViolation

GAMES: dict[str, AnyGameRules] = {rules.name: rules for rules in (MexicanTrain, ChickenFoot, Kozel)}

# The game a new table starts with and whose rule book the home page opens: the first registered.
DEFAULT_GAME = next(iter(GAMES))


def game_rules(key: str) -> AnyGameRules:
    """The rules of the game called ``key`` (``KeyError`` if there is none)."""
    return GAMES[key]


def declaration(key: str) -> GameDeclaration:
    """How the game called ``key`` is described: title, sets, players, options."""
    return GAMES[key].declaration


def title(key: str) -> str:
    """The game's title (a translatable ``Phrase``), or the key itself for an unknown game."""
    return GAMES[key].declaration.title if key in GAMES else key


__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "Action",
    "ActionType",
    "BadRequest",
    "GameDeclaration",
    "GameOptions",
    "Option",
    "Phrase",
    "RoundEnd",
    "RoundRecord",
    "RuleViolation",
    "Standing",
    "declaration",
    "game_rules",
    "title",
]
