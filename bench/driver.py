"""A client's mind for a whole Mexican Train game played through the store or the API: a
mirror of the game and the hidden hands, and the next change to log."""

from __future__ import annotations

import random
from typing import Any

from bench.engines import MT_PLAYERS, MexicanTrainHands
from referee.match import GameConfig, Match
from referee.rules.base import Action
from referee.rules.mexican_train import MexicanTrainRound
from referee.store import apply_event

MT_GAME: dict[str, Any] = {"game": "mexican-train", "set": 12, "players": list(MT_PLAYERS)}

# A change to log: its kind ("action" or "hands") and its JSON payload, as the store takes it.
Change = tuple[str, dict[str, Any]]


class GameDriver:
    """Keeps a mirror of one game (a ``Match``) and the hidden hands, and says what to log
    next: an action while the round is played, the hands left once it is over."""

    def __init__(self, rng: random.Random, game_id: str, config: dict[str, Any] = MT_GAME) -> None:
        self.rng = rng
        self.id = game_id
        self.match = Match(GameConfig.from_json(config))
        self.hidden = self._deal()
        self.actions = 0

    def _deal(self) -> MexicanTrainHands:
        match = self.match
        assert match.engine is not None and match.setup is not None
        return MexicanTrainHands(self.rng, match.setup, match.players, match.engine.targets())

    def next_change(self) -> Change | None:
        match = self.match
        if match.finished:
            return None
        if match.round_status() == "playing":
            assert isinstance(match.engine, MexicanTrainRound)
            return "action", self.hidden.next_action(match.engine).to_json()
        return "hands", {"round": match.number, "hands": self.hidden.left()}

    def accepted(self, kind: str, payload: dict[str, Any]) -> None:
        number = self.match.number
        apply_event(self.match, kind, payload)
        self.actions += 1
        if kind == "action":
            self.hidden.took(Action.from_json(payload))
        elif self.match.number != number:
            self.hidden = self._deal()

    def request(self, kind: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The API's path and JSON body for the change."""
        if kind == "action":
            return f"/api/games/{self.id}/actions", payload
        return f"/api/games/{self.id}/rounds/{payload['round']}/hands", {"hands": payload["hands"]}
