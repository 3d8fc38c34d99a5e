"""How a round ended (``EndReason``, ``RoundEnd``), what the table showed that a house rule
scores (``RoundFacts``), and a finished round as booked (``RoundRecord``); the JSON shapes they share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias, TypedDict

from referee.tiles import Tile

# A value as JSON writes it: what an engine shows of its table (``extra_state``).
JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
# The game state of the API as ``Match.state`` builds it: nested JSON whose shape API.md gives.
StateData: TypeAlias = "dict[str, Any]"

# A hand as a booked round keeps it: its tiles as text, or the points a score pad entered.
HandEntry: TypeAlias = "list[str] | int"


class EndReason(StrEnum):
    """Why a round ended (its JSON is the plain string)."""

    DOMINO = "domino"  # that player went out
    BLOCKED = "blocked"  # no one could play or draw
    FISH = "fish"  # kz.fish: that player made it
    TABLE = "table"  # hands were entered before the referee saw the end


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended, and the player it names (who went out, who made the fish)."""

    reason: EndReason
    player: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.reason, EndReason):  # a plain string from an old snapshot or a test
            object.__setattr__(self, "reason", EndReason(self.reason))

    def to_json(self) -> dict[str, JSONValue]:
        return {"reason": str(self.reason), "player": self.player}


class RoundFacts(TypedDict, total=False):
    """What the table showed that a house rule scores, kept with the booked round: the
    players whose own train carries a marker (``mt.house.marker``), whether the player who
    went out laid a double last (``cf.house.double-out``) and who laid each foot still
    waiting for its toes (``cf.house.foot``)."""

    markers: list[str]
    out_on_double: bool
    open_feet: list[str]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round as booked: each player's hand points and how it ended."""

    number: int
    double: Tile | None
    points: Mapping[str, int]
    end: RoundEnd
    hands: Mapping[str, HandEntry] = field(default_factory=dict)
    facts: RoundFacts = field(default_factory=RoundFacts)  # RoundEngine.round_facts / the entry

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "number": self.number,
            "double": str(self.double) if self.double else None,
            "points": dict(self.points),
            "end": self.end.to_json(),
        }

    def went_out(self) -> str | None:
        """The player who emptied their hand, if the round says so."""
        if self.end.reason == "domino":
            return self.end.player
        empty = [name for name, hand in self.hands.items() if hand == [] or hand == 0]
        return empty[0] if len(empty) == 1 and self.end.reason == "table" else None
