"""Chicken Foot (`cf.*`): its declaration and options (``declaration``), its round engine
(``engine``) and its game-level rules and scoring (``game``)."""

from referee.rules.chicken_foot.declaration import DECLARATION, TOES_PER_FOOT, ChickenFootOptions
from referee.rules.chicken_foot.engine import ChickenFootRound
from referee.rules.chicken_foot.game import ChickenFoot

__all__ = ["DECLARATION", "TOES_PER_FOOT", "ChickenFoot", "ChickenFootOptions", "ChickenFootRound"]
