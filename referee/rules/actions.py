"""Actions: what a step at the table does (``ActionType``), and one logged step (``Action``)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple

from referee.rules.refusals import bad_request, tile_error_text
from referee.tiles import Tile, TileError


class ActionType(StrEnum):
    """What an action does (its JSON, and its comparisons, are the plain string)."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    END = "end"
    START = "start"
    LEAVE = "leave"
    UNDO = "undo"

    def __repr__(self) -> str:  # reads as before, as the string it was, in an Action and a refusal
        return repr(self.value)


ACTION_TYPES = tuple(ActionType)
_ACTION_TYPE_OF = {kind.value: kind for kind in ActionType}

# Each type as a name of its own: the engines compare an action's type by identity (``is``),
# and reading a member off its enum class costs more than a whole check of a play.
PLAY, DRAW, PASS, END, START, LEAVE, UNDO = (
    ActionType.PLAY,
    ActionType.DRAW,
    ActionType.PASS,
    ActionType.END,
    ActionType.START,
    ActionType.LEAVE,
    ActionType.UNDO,
)


class _ActionFields(NamedTuple):
    type: ActionType
    player: str | None
    tile: Tile | None
    train: str | None
    on: Tile | None


class Action(_ActionFields):
    """One logged step at the table, as the API describes it.

    An immutable tuple: a round's accepted actions are kept for undo and pickled with
    every snapshot, and tuples are the cheapest values to pickle. Its ``type`` is an
    ``ActionType``; one given as its plain string (``Action("draw", "Ana")``) is taken as
    that type, and a string that names none is a ``ValueError``."""

    __slots__ = ()

    def __new__(
        cls,
        type: ActionType | str,
        player: str | None = None,
        tile: Tile | None = None,
        train: str | None = None,
        on: Tile | None = None,
    ) -> Action:
        kind = _ACTION_TYPE_OF.get(type) or ActionType(type)
        return tuple.__new__(cls, (kind, player, tile, train, on))

    def to_json(self) -> dict[str, str]:
        data = {"type": str(self.type)}
        if self.player is not None:
            data["player"] = self.player
        if self.tile is not None:
            data["tile"] = str(self.tile)
        if self.train is not None:
            data["train"] = self.train
        if self.on is not None:
            data["on"] = str(self.on)
        return data

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Parse an action body; only its shape is checked here, not the rules."""
        if not isinstance(data, Mapping):
            raise bad_request("An action must be a JSON object.")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            raise bad_request(
                "Unknown action type {kind!r}: use one of {types}.",
                field="type",
                kind=kind,
                types=", ".join(ACTION_TYPES),
            )
        allowed = {"type", "player", "tile", "train", "on", "version"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise bad_request("Unknown field {name!r} in the action.", field=unknown[0], name=unknown[0])
        player = data.get("player")
        if kind == "undo":
            if player is not None and not isinstance(player, str):
                raise bad_request("'player' must be a player's name.", field="player")
        elif not isinstance(player, str):
            raise bad_request(
                "A {kind} action needs 'player': the name of a player.", field="player", kind=kind
            )
        tile = _optional_tile(data, "tile")
        if kind == "play" and tile is None:
            raise bad_request("A play needs 'tile', written like \"5-12\".", field="tile")
        train = data.get("train")
        if train is not None and not isinstance(train, str):
            raise bad_request("'train' must be a player's name or \"mexican\".", field="train")
        on = _optional_tile(data, "on")
        return cls(ActionType(kind), player, tile, train, on)


def _optional_tile(data: Mapping[str, object], key: str) -> Tile | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        return Tile.parse(value)
    except TileError as error:
        raise bad_request("'{key}': {error}", field=key, key=key, error=tile_error_text(error)) from None
