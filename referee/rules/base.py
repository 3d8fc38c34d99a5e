"""What every game's rules share: the round engine contract and the game rules contract.

The actions (``referee.rules.actions``), the round ends and booked rounds
(``referee.rules.records``) and the results and standing (``referee.rules.results``) live
in modules of their own and are named here too, so that a game's rules import from one place.

Nothing here (or anywhere under ``referee.rules``) does I/O or knows about Flask or the
database: the rules are a pure core that the store and the web layer call. The refusals
(``RuleViolation``, ``BadRequest``) and ``Phrase`` live in ``referee.rules.refusals`` and
are named here too; a game's declaration and options in ``referee.rules.options``.

The engine and the rules are generic: ``RoundEngine[OptionsT, PlaceT, PlanT]`` over the
game's options, the places a tile is offered (a train's name, or a tile to play ``on``) and
what ``plan`` hands to ``perform``; ``GameRules[OptionsT]`` over the game's options.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from referee.rules.actions import ACTION_TYPES as ACTION_TYPES
from referee.rules.actions import DRAW as DRAW
from referee.rules.actions import END as END
from referee.rules.actions import LEAVE as LEAVE
from referee.rules.actions import PASS as PASS
from referee.rules.actions import PLAY as PLAY
from referee.rules.actions import START as START
from referee.rules.actions import UNDO as UNDO
from referee.rules.actions import Action as Action
from referee.rules.actions import ActionType as ActionType
from referee.rules.options import GameDeclaration, GameOptions
from referee.rules.records import EndReason as EndReason
from referee.rules.records import HandEntry as HandEntry
from referee.rules.records import JSONValue as JSONValue
from referee.rules.records import RoundEnd as RoundEnd
from referee.rules.records import RoundFacts as RoundFacts
from referee.rules.records import RoundRecord as RoundRecord
from referee.rules.records import StateData as StateData
from referee.rules.refusals import BadRequest as BadRequest
from referee.rules.refusals import Phrase as Phrase
from referee.rules.refusals import RuleViolation as RuleViolation
from referee.rules.refusals import bad_request as bad_request
from referee.rules.refusals import phrase as phrase
from referee.rules.refusals import refuse as refuse
from referee.rules.refusals import tile_error_text as tile_error_text
from referee.rules.results import GameResult as GameResult
from referee.rules.results import LedgerEntry as LedgerEntry
from referee.rules.results import LedgerRow as LedgerRow
from referee.rules.results import Standing as Standing
from referee.rules.results import StandingDetail as StandingDetail
from referee.rules.results import Team as Team
from referee.rules.results import lowest_totals as lowest_totals
from referee.rules.results import placings_by as placings_by
from referee.tiles import Tile, full_set, set_size

PLAYERS_MOST = 30  # the most players any game takes (names are checked in referee.match)

OptionsT = TypeVar("OptionsT", bound=GameOptions)  # a game's options dataclass
PlaceT = TypeVar("PlaceT")  # where an engine offers a tile: a train's name, a tile to play on
PlanT = TypeVar("PlanT")  # what an engine's ``plan`` hands to its ``perform``


@dataclass(frozen=True, slots=True)
class RoundSetup(Generic[OptionsT]):
    """Everything a round engine needs to start a round; built by the game's rules."""

    players: tuple[str, ...]
    highest: int
    options: OptionsT
    number: int
    double: Tile | None
    starter: str | None
    hand_size: int

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return full_set(self.highest)


class RoundEngine(Generic[OptionsT, PlaceT, PlanT]):
    """The contract of one round of play in referee mode.

    ``apply`` checks an action and changes the state only if it is accepted: a refused
    action raises ``RuleViolation`` (or ``BadRequest``) and leaves everything as it was.
    Undo is done by the caller, which replays the round's accepted actions on a fresh
    engine, so engines need no mutable history of their own.

    Every engine keeps the same few facts under the same names: ``players`` (in seat
    order), ``hands`` (how many tiles each holds: the engine never sees which),
    ``_boneyard`` (tiles left to draw) and ``_outcome`` (how the round ended, ``None``
    while it is played).
    """

    # Attributes an engine had under another name in snapshots pickled before (old: new).
    former_names: ClassVar[Mapping[str, str]] = {}

    def __init__(self, setup: RoundSetup[OptionsT]) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.hands: dict[str, int] = dict.fromkeys(self.players, setup.hand_size)
        self._boneyard: int = set_size(setup.highest) - setup.hand_size * len(self.players)  # not dealt
        self._outcome: RoundEnd | None = None

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickle a snapshot, taking attributes under their former names too."""
        for old, new in self.former_names.items():
            if old in state:
                state[new] = state.pop(old)
        self.__dict__.update(state)

    def apply(self, action: Action) -> None:
        """Check ``action`` and, once accepted, perform it: the dispatch every game shares."""
        self.perform(action, self.plan(action))

    def check(self, action: Action) -> None:
        """Raise what ``apply`` would raise, without changing anything."""
        self.plan(action)

    def plan(self, action: Action) -> PlanT:
        """Validate ``action`` against the state (raise its refusal) and return what
        ``perform`` needs to carry it out. Changes nothing."""
        raise NotImplementedError

    def perform(self, action: Action, plan: PlanT) -> None:
        """Carry out an action ``plan`` accepted."""
        raise NotImplementedError

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except (RuleViolation, BadRequest):
            return False
        return True

    def outcome(self) -> RoundEnd | None:
        return self._outcome

    def turn(self) -> str | None:
        raise NotImplementedError

    def boneyard(self) -> int:
        return self._boneyard

    def hand_sizes(self) -> dict[str, int]:
        return dict(self.hands)

    def tiles_on_table(self) -> frozenset[Tile]:
        raise NotImplementedError

    def targets(self) -> list[PlaceT]:
        """Every place a tile might be offered now (train names, or tiles to play ``on``;
        ``None`` for a first tile): with ``check`` this answers "can I play this here?"."""
        raise NotImplementedError

    def play_at(self, player: str | None, tile: Tile, place: PlaceT) -> Action:
        """The play of ``tile`` at ``place`` (one of ``targets()``): a tile to play ``on``
        (``None``: the first tile); Mexican Train names a ``train`` instead."""
        raise NotImplementedError

    def places_for(self, player: str | None, tile: Tile) -> tuple[PlaceT, ...]:
        """The places (of ``targets()``) where ``player`` may lay ``tile`` now: ``()`` if none."""
        if tile in self.tiles_on_table():
            return ()
        return tuple(
            place
            for place in self.targets()
            if self.may_fit(tile, place) and self.is_legal(self.play_at(player, tile, place))
        )

    def may_fit(self, tile: Tile, place: PlaceT) -> bool:
        """A quick necessary condition for ``tile`` at ``place`` (``False``: ``check``
        would refuse it): lets ``legal_plays`` skip most of the set. Engines may refine it."""
        return True

    def legal_plays(self, player: str | None = None) -> tuple[Action, ...]:
        """Every play the rules accept now from ``player`` (default: the player on turn),
        as python-chess's ``legal_moves``: each tile not on the table, at each place where
        ``check`` accepts it. The engine cannot see hands, so a tile listed may not be held."""
        player = player if player is not None else self.turn()
        if player is None or self.outcome() is not None:
            return ()
        on_table = self.tiles_on_table()
        places = self.targets()
        plays = []
        for tile in self.setup.tiles:
            if tile in on_table:
                continue
            for place in places:
                if not self.may_fit(tile, place):
                    continue
                action = self.play_at(player, tile, place)
                if self.is_legal(action):
                    plays.append(action)
        return tuple(plays)

    def refuse_turn(self, on_turn: str | None, player: str | None) -> RuleViolation:
        """The ``turn`` refusal every game shares: someone else is to play."""
        return refuse("turn", "It is {on_turn}'s turn, not {player}'s.", on_turn=on_turn, player=player)

    def extra_state(self) -> dict[str, JSONValue]:
        """Game-specific fields of the API's ``round`` object (``trains``, ``ends``, …)."""
        return {}

    def reminders(self) -> list[dict[str, str]]:
        """Rules the referee cannot enforce but shows (``mt.last-tile`` …): id and text."""
        return []

    def round_facts(self) -> RoundFacts:
        """What the table shows that a house rule scores (markers, a double going out …),
        kept with the booked round (``RoundRecord.facts``)."""
        return {}


class GameRules(Generic[OptionsT]):
    """One game's configuration and scoring (variants are configuration, as in chess).

    ``declaration`` describes the game once (``referee.rules.options``); ``name``,
    ``prefix``, ``title``, ``sets`` and ``default_set`` are read from it when the game's
    class is made, and its ``Options`` dataclass is checked against it."""

    declaration: ClassVar[GameDeclaration]
    name: ClassVar[str]
    prefix: ClassVar[str]
    title: ClassVar[str]
    default_set: ClassVar[int]
    sets: ClassVar[tuple[int, ...]]
    # The game's options dataclass and its round engine (whatever its places and plans).
    # Class attributes all the same: a ClassVar's type may not name the options' type variable.
    Options: type[OptionsT]
    Round: type[RoundEngine[OptionsT, Any, Any]]
    leaving: ClassVar[bool] = False  # a player may leave, ending and rating the game (kz.rating.left)
    out_rule: ClassVar[str]  # the rule that ends a round when a player goes out (mt.end.domino …)
    # A hand entered as 0 points is the hand of the player who went out: true where no hand
    # left can score 0 (Kozel); elsewhere a 0 may also be a lone 0-0 worth nothing.
    zero_is_out: ClassVar[bool] = False
    # The reminder that a player is down to one tile (mt.last-tile …): shown as a banner on
    # the table. None where the game has no such announcement.
    last_tile_rule: ClassVar[str | None] = None
    # A game won on rating points and lost by its goats (Kozel) has no places by totals.
    rated: ClassVar[bool] = False
    # What the score sheet calls the double that opens a round ("Engine"; a Phrase), or ""
    # where rounds do not start from one.
    round_double_name: ClassVar[str] = phrase("Double")

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        declaration = cls.__dict__.get("declaration")
        if isinstance(declaration, GameDeclaration):
            cls.name = declaration.key
            cls.prefix = declaration.prefix
            cls.title = declaration.title
            cls.default_set = declaration.default_set
            cls.sets = declaration.sets
            declaration.check_values(cls.Options)

    @classmethod
    def ends_first_turn(cls, options: OptionsT) -> bool:
        """True where a player ends their own first turn with an ``end`` action."""
        return False

    @classmethod
    def check_player_name(cls, name: str) -> None:
        """Refuse (400) a player name the game needs for something else; any other passes."""

    @classmethod
    def pad_round_end(cls, empty: str | None) -> RoundEnd:
        """How a score-pad round ended, as its hands tell it: ``empty`` emptied their hand."""
        return RoundEnd(EndReason.TABLE, empty)

    @classmethod
    def parse_options(cls, raw: object, highest: int, players: tuple[str, ...]) -> OptionsT:
        """The game's options from the ``options`` of a new game, checked against the
        declaration (400 for a wrong key, type or value) and then by ``check_options``."""
        options = cls.Options.from_json(cls.declaration.parse(raw, highest))
        cls.check_options(raw if isinstance(raw, Mapping) else {}, options, highest)
        return options

    @classmethod
    def check_options(cls, raw: Mapping[str, object], options: OptionsT, highest: int) -> None:
        """Checks between options (``BadRequest``); ``raw`` is what the request gave."""

    @classmethod
    def entry_fact_names(cls, options: OptionsT, referee: bool) -> tuple[str, ...]:
        """The facts a hands entry of this game may name beside the hands (``markers``)."""
        return ()

    @classmethod
    def entry_facts(
        cls, extra: Mapping[str, object], options: OptionsT, players: tuple[str, ...], referee: bool
    ) -> RoundFacts:
        """Facts a hands entry names beside ``hands`` (a score pad's ``markers``); a game
        without such a house rule in force takes none (400)."""
        for key in extra:
            raise bad_request("Unknown field {name!r} in the hands entry.", field=key, name=key)
        return {}

    @classmethod
    def round_points(
        cls, points: Mapping[str, int], end: RoundEnd, facts: RoundFacts, options: OptionsT
    ) -> dict[str, int]:
        """The round's points after the house rules that score the round as a whole (a
        bonus for going out, penalties); the hands' own points are ``hand_points``."""
        return dict(points)

    @classmethod
    def house_rules_in_force(cls, options: OptionsT, highest: int) -> list[dict[str, str]]:
        """The house rules switched on: ``{"rule", "label", "value", "help"}`` each."""
        return cls.declaration.in_force(options, highest)

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: OptionsT) -> None:
        raise NotImplementedError

    @classmethod
    def round_count(cls, highest: int, options: OptionsT) -> int | None:
        """How many rounds the game has, or ``None`` when it ends another way (kozel)."""
        raise NotImplementedError

    @classmethod
    def round_double(cls, number: int, highest: int, options: OptionsT) -> Tile | None:
        raise NotImplementedError

    @classmethod
    def round_setup(
        cls,
        number: int,
        players: tuple[str, ...],
        highest: int,
        options: OptionsT,
        finished: list[RoundRecord],
    ) -> RoundSetup[OptionsT]:
        raise NotImplementedError

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: OptionsT) -> int:
        raise NotImplementedError

    @classmethod
    def standing(
        cls,
        players: tuple[str, ...],
        highest: int,
        options: OptionsT,
        rounds: list[RoundRecord],
        left: str | None = None,
    ) -> Standing:
        raise NotImplementedError

    @classmethod
    def rules_in_force(cls, options: OptionsT) -> list[str]:
        """Lines for the scoresheet: the options that change scoring."""
        return []

    @classmethod
    def leaders(cls, standing: Standing) -> list[str]:
        """Who leads a game in progress: the lowest total (mt.winner, cf.score), nobody when
        everyone is level."""
        return lowest_totals(standing.totals)

    @classmethod
    def zero_note(cls, options: OptionsT) -> tuple[str, Phrase] | None:
        """What the double-blank counts in a hand left, as the hands page explains it: the
        rule id and one sentence."""
        return None

    @classmethod
    def tile_values(cls, highest: int, options: OptionsT) -> dict[Tile, tuple[int, int]]:
        """Each tile's points in a hand left, by ``hand_points``: alone in the hand, and
        beside other tiles (Kozel's 0-0 counts only alone). A page adds these up live."""
        values = {}
        for tile in full_set(highest):
            other = Tile(1, 1) if tile != Tile(1, 1) else Tile(1, 2)
            beside = cls.hand_points([tile, other], options) - cls.hand_points([other], options)
            values[tile] = (cls.hand_points([tile], options), beside)
        return values


# The rules or the round engine of whichever game: what the registry and a match hold.
AnyGameRules: TypeAlias = "type[GameRules[Any]]"
AnyRoundEngine: TypeAlias = "RoundEngine[Any, Any, Any]"


def face_points(tiles: Iterable[Tile], double_blank: int) -> int:
    """Pips in a hand with the double-blank worth ``double_blank`` (rule `pips`)."""
    return sum(double_blank if tile == Tile(0, 0) else tile.pips for tile in tiles)
