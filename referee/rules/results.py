"""A game's result and standing: places (``placings_by``), ``GameResult``, Kozel's ``Team`` and
ledger rows, ``Standing`` and what a game books beside the totals (``StandingDetail``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, TypeVar

from referee.rules.records import JSONValue, StateData

KeyT = TypeVar("KeyT", int, tuple[int, int])  # how players are placed: a total, or a pair of them


def placings_by(players: Iterable[str], key: Mapping[str, KeyT]) -> tuple[tuple[str, ...], ...]:
    """Players grouped into places, best first: a smaller ``key`` is a better place, equal
    keys share one; players keep their seat order inside a place."""
    order = sorted({key[name] for name in players})
    return tuple(tuple(name for name in players if key[name] == value) for value in order)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's result, as the rules decide it.

    ``winners`` are the game's winners as the API names them (Mexican Train, Chicken Foot;
    none in Kozel, which has a goat). ``placings`` puts every player in a place, 1st to
    last (tied players share one): in Kozel by rating points, goats and a leaver last.
    """

    placings: tuple[tuple[str, ...], ...]
    winners: tuple[str, ...] = ()
    goats: tuple[str, ...] = ()
    rating: Mapping[str, int] = field(default_factory=dict)
    left: str | None = None
    tie_break: str | None = None  # how a tie-break decided (a translatable sentence)

    @property
    def first(self) -> tuple[str, ...]:
        """The players in first place: who won, for the statistics (in every game)."""
        return self.placings[0] if self.placings else ()

    def place_of(self, name: str) -> int | None:
        """1 for the first place; a place shared by two players makes the next one 3rd."""
        place = 1
        for group in self.placings:
            if name in group:
                return place
            place += len(group)
        return None


@dataclass(frozen=True, slots=True)
class Team:
    """kz.teams: two partners and their team's account (kz.score.*)."""

    players: tuple[str, ...]
    total: int
    remembered: int
    open: bool

    def to_json(self) -> dict[str, JSONValue]:
        return {"players": list[JSONValue](self.players), "total": self.total, "remembered": self.remembered}


class LedgerEntry(TypedDict):
    """One player's line in a round of Kozel's ledger (kz.score.*)."""

    before: int
    hand: int
    points: int
    after: int
    open: bool
    remembered: int
    took_pot: bool
    pot_taken: int  # the pot this player's account took this round, inside ``points``


class LedgerRow(TypedDict):
    """One booked round of Kozel's ledger: each player's line, the pot, and with kz.teams
    each team's points."""

    number: int
    fish: bool
    pot: int
    players: dict[str, LedgerEntry]
    team_points: NotRequired[list[int]]


class StandingDetail:
    """What a game books beside the totals (Kozel's account, its ``KozelBook``).

    The core keeps it opaque: the game state (``Match.state``) asks it for its fields, and the
    game's presenter reads it for the pages."""

    __slots__ = ()

    def add_to_state(self, data: StateData, result: GameResult | None) -> None:
        """Add the game's own fields to the API state ``data`` (none by default)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """The game's booked result so far, computed from the finished rounds alone."""

    totals: Mapping[str, int]
    result: GameResult | None = None  # set once the game is finished
    detail: StandingDetail | None = None  # a game's own account (Kozel's); the others book totals only

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def winners(self) -> tuple[str, ...]:
        return self.result.winners if self.result else ()


def lowest_totals(totals: Mapping[str, int]) -> list[str]:
    """Who has the lowest total; nobody when everyone is level (no one leads)."""
    if not totals:
        return []
    best = min(totals.values())
    leaders = [name for name, total in totals.items() if total == best]
    return [] if len(leaders) == len(totals) else leaders
