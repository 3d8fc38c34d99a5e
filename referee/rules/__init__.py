"""The pure rules core: one module per game, sharing ``base``."""

from referee.rules.base import Action, BadRequest, RoundEnd, RoundRecord, RuleViolation, Standing
from referee.rules.chicken_foot import ChickenFoot
from referee.rules.kozel import Kozel
from referee.rules.mexican_train import MexicanTrain

GAMES = {rules.name: rules for rules in (MexicanTrain, ChickenFoot, Kozel)}

__all__ = ["GAMES", "Action", "BadRequest", "RoundEnd", "RoundRecord", "RuleViolation", "Standing"]
