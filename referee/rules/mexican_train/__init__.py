"""Mexican Train (`mt.*`): its declaration and options (``declaration``), its round engine
(``engine``) and its game-level rules and scoring (``game``)."""

from referee.rules.mexican_train.declaration import (
    BIG_SET_HAND,
    DEAL,
    DECLARATION,
    MEXICAN,
    MexicanTrainOptions,
    standard_hand_size,
)
from referee.rules.mexican_train.engine import MexicanTrainRound, Train, UncoveredDouble
from referee.rules.mexican_train.game import MexicanTrain

__all__ = [
    "BIG_SET_HAND",
    "DEAL",
    "DECLARATION",
    "MEXICAN",
    "MexicanTrain",
    "MexicanTrainOptions",
    "MexicanTrainRound",
    "Train",
    "UncoveredDouble",
    "standard_hand_size",
]
