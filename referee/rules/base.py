"""What every game's rules share: actions, refusals, round ends, the round engine contract.

Nothing here (or anywhere under ``referee.rules``) does I/O or knows about Flask or the
database: the rules are a pure core that the store and the web layer call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from referee.tiles import Tile, TileError, full_set, set_size

if TYPE_CHECKING:
    from referee.rules.options import GameDeclaration

PLAYERS_MOST = 30  # the most players any game takes (names are checked in referee.match)

ACTION_TYPES = ("play", "draw", "pass", "end", "start", "leave", "undo")


class Phrase(str):
    """An English sentence or phrase that can be translated later.

    It *is* the formatted English text (a ``str``: JSON, logs and tests see plain English),
    and it also keeps ``template`` (the English msgid with ``{named}`` placeholders, as
    the message catalogs list it) and ``params`` (the values). A value may itself be a
    ``Phrase`` ("the Mexican train"), translated in its turn. The web layer translates with
    ``referee.web.i18n.translate_text``; the rules stay free of Flask and of catalogs.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None) -> Phrase:
        values = dict(params or {})
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template = template
        text.params = values
        return text

    def __reduce__(self) -> tuple[type[Phrase], tuple[str, dict[str, Any]]]:  # keeps the template
        return (Phrase, (self.template, self.params))


def phrase(template: str, **params: Any) -> Phrase:
    """A translatable phrase: ``phrase("{name}'s train", name=key)`` (extracted by pybabel)."""
    return Phrase(template, params)


class RuleViolation(ValueError):
    """A well-formed request that the rules or the state forbid (HTTP 422).

    ``rule_id`` is the id from RULES.md (``mt.double.open``) or ``None`` for refusals that
    no rule names (an unknown player, nothing left to undo); ``message`` is one sentence a
    player understands (English: the API's ``error``).

    ``template`` and ``params`` let the sentence be translated: ``template`` is the English
    msgid with ``{named}`` placeholders and ``message == template.format(**params)``. Build
    one with ``refuse(rule_id, template, **params)``, which also marks the template for
    pybabel's extraction.
    """

    def __init__(
        self,
        rule_id: str | None,
        message: str | None = None,
        *,
        action: Any = None,
        template: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        if message is None:
            if template is None:
                raise TypeError("RuleViolation needs a message or a template")
            message = Phrase(template, params)
        self.rule_id = rule_id
        self.message = str(message)
        self.template = template
        self.params = dict(params or {})
        self.action = action
        super().__init__(f"[{rule_id}] {self.message}" if rule_id else self.message)


def refuse(rule_id: str | None, template: str, **params: Any) -> RuleViolation:
    """``raise refuse("turn", "It is {on_turn}'s turn, not {player}'s.", on_turn=…, player=…)``.

    The English ``message`` is ``template.format(**params)``; the web layer translates the
    template (``referee.web.i18n.translate_violation``). Values may be ``Phrase`` objects.
    """
    return RuleViolation(rule_id, template.format(**params), template=template, params=params)


class BadRequest(ValueError):
    """Input that is malformed or of the wrong type (HTTP 400): nothing to rule on.

    Like ``RuleViolation``, it may carry ``template`` and ``params`` (the English msgid and
    its values, ``message == template.format(**params)``) so that the pages can show it in
    the reader's language; the JSON API keeps the English ``message``. Build one with
    ``bad_request(template, field=…, **params)``, which also marks the template for pybabel
    (or pass a ``Phrase`` as the message).
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        field: str | None = None,
        template: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        if message is None:
            if template is None:
                raise TypeError("BadRequest needs a message or a template")
            message = Phrase(template, params)
        elif template is None and isinstance(message, Phrase):  # a phrase carries its template
            template, params = message.template, message.params
        self.message = str(message)
        self.field = field
        self.template = template
        self.params = dict(params or {})
        super().__init__(self.message)


def bad_request(template: str, *, field: str | None = None, **params: Any) -> BadRequest:
    """``raise bad_request("Unknown option {name!r} for this game.", field="options", name=…)``.

    The English ``message`` is ``template.format(**params)`` (so literal braces are written
    ``{{ }}``, or better passed as a value); the pages translate the template
    (``referee.web.i18n.translate_violation``), the API answers in English.
    """
    return BadRequest(template.format(**params), field=field, template=template, params=params)


def tile_error_text(error: Exception) -> str:
    """A ``TileError``'s sentence as a translatable ``Phrase`` (its English unchanged)."""
    candidate = phrase(
        '{text!r} is not a tile: write it as two numbers like "5-12".', text=getattr(error, "text", None)
    )
    return candidate if str(candidate) == str(error) else str(error)


class Action(NamedTuple):
    """One logged step at the table, as the API describes it.

    An immutable tuple: a round's accepted actions are kept for undo and pickled with
    every snapshot, and tuples are the cheapest values to pickle."""

    type: str
    player: str | None = None
    tile: Tile | None = None
    train: str | None = None
    on: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
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
    def from_json(cls, data: Mapping[str, Any]) -> Action:
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
        return cls(kind, player, tile, train, on)


def _optional_tile(data: Mapping[str, Any], key: str) -> Tile | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        return Tile.parse(value)
    except TileError as error:
        raise bad_request("'{key}': {error}", field=key, key=key, error=tile_error_text(error)) from None


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

    def to_json(self) -> dict[str, Any]:
        return {"reason": str(self.reason), "player": self.player}


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """Everything a round engine needs to start a round; built by the game's rules."""

    players: tuple[str, ...]
    highest: int
    options: Any
    number: int
    double: Tile | None
    starter: str | None
    hand_size: int

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return full_set(self.highest)


class RoundEngine:
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

    def __init__(self, setup: RoundSetup) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.hands: dict[str, int] = dict.fromkeys(self.players, setup.hand_size)
        self._boneyard: int = set_size(setup.highest) - setup.hand_size * len(self.players)  # not dealt
        self._outcome: RoundEnd | None = None

    def __setstate__(self, state: dict[str, Any]) -> None:
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

    def plan(self, action: Action) -> Any:
        """Validate ``action`` against the state (raise its refusal) and return what
        ``perform`` needs to carry it out. Changes nothing."""
        raise NotImplementedError

    def perform(self, action: Action, plan: Any) -> None:
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

    def targets(self) -> list[Any]:
        """Every place a tile might be offered now (train names, or tiles to play ``on``;
        ``None`` for a first tile): with ``check`` this answers "can I play this here?"."""
        raise NotImplementedError

    def play_at(self, player: str | None, tile: Tile, place: Any) -> Action:
        """The play of ``tile`` at ``place`` (one of ``targets()``): a tile to play ``on``
        (``None``: the first tile); Mexican Train names a ``train`` instead."""
        return Action("play", player, tile, on=place)

    def places_for(self, player: str | None, tile: Tile) -> tuple[Any, ...]:
        """The places (of ``targets()``) where ``player`` may lay ``tile`` now: ``()`` if none."""
        if tile in self.tiles_on_table():
            return ()
        return tuple(
            place
            for place in self.targets()
            if self.may_fit(tile, place) and self.is_legal(self.play_at(player, tile, place))
        )

    def may_fit(self, tile: Tile, place: Any) -> bool:
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

    def extra_state(self) -> dict[str, Any]:
        """Game-specific fields of the API's ``round`` object (``trains``, ``ends``, …)."""
        return {}

    def reminders(self) -> list[dict[str, str]]:
        """Rules the referee cannot enforce but shows (``mt.last-tile`` …): id and text."""
        return []

    def round_facts(self) -> dict[str, Any]:
        """What the table shows that a house rule scores (markers, a double going out …),
        kept with the booked round (``RoundRecord.facts``)."""
        return {}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round as booked: each player's hand points and how it ended."""

    number: int
    double: Tile | None
    points: Mapping[str, int]
    end: RoundEnd
    hands: Mapping[str, Any] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)  # RoundEngine.round_facts / the entry

    def to_json(self) -> dict[str, Any]:
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


def placings_by(players: Iterable[str], key: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
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

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "total": self.total, "remembered": self.remembered}


class StandingDetail:
    """What a game books beside the totals (Kozel's account, its ``KozelBook``).

    The core keeps it opaque: the game state (``Match.state``) asks it for its fields, and the
    game's presenter reads it for the pages."""

    __slots__ = ()

    def add_to_state(self, data: dict[str, Any], result: GameResult | None) -> None:
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


class GameRules:
    """One game's configuration and scoring (variants are configuration, as in chess).

    ``declaration`` describes the game once (``referee.rules.options``); ``name``,
    ``prefix``, ``title``, ``sets`` and ``default_set`` are read from it when the game's
    class is made."""

    declaration: ClassVar[GameDeclaration]
    name: ClassVar[str]
    prefix: ClassVar[str]
    title: ClassVar[str]
    default_set: ClassVar[int]
    sets: ClassVar[tuple[int, ...]]
    Options: ClassVar[Any]  # the options' class: ``from_json(raw, highest, count)``, ``to_json()``
    Round: ClassVar[type[RoundEngine]]
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declaration = cls.__dict__.get("declaration")
        if declaration is not None:
            cls.name = declaration.key
            cls.prefix = declaration.prefix
            cls.title = declaration.title
            cls.default_set = declaration.default_set
            cls.sets = declaration.sets

    @classmethod
    def ends_first_turn(cls, options: Any) -> bool:
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
    def parse_options(cls, raw: Any, highest: int, players: tuple[str, ...]) -> Any:
        """The game's options from the ``options`` of a new game, checked against the
        declaration (400 for a wrong key, type or value) and then by ``check_options``."""
        values = cls.declaration.parse(raw, highest)
        cls.check_options(raw or {}, values, highest)
        return cls.Options(**values)

    @classmethod
    def check_options(cls, raw: Mapping[str, Any], values: Mapping[str, Any], highest: int) -> None:
        """Checks between options (``BadRequest``); ``raw`` is what the request gave."""

    @classmethod
    def entry_fact_names(cls, options: Any, referee: bool) -> tuple[str, ...]:
        """The facts a hands entry of this game may name beside the hands (``markers``)."""
        return ()

    @classmethod
    def entry_facts(
        cls, extra: Mapping[str, Any], options: Any, players: tuple[str, ...], referee: bool
    ) -> dict[str, Any]:
        """Facts a hands entry names beside ``hands`` (a score pad's ``markers``); a game
        without such a house rule in force takes none (400)."""
        for key in extra:
            raise bad_request("Unknown field {name!r} in the hands entry.", field=key, name=key)
        return {}

    @classmethod
    def round_points(
        cls, points: Mapping[str, int], end: RoundEnd, facts: Mapping[str, Any], options: Any
    ) -> dict[str, int]:
        """The round's points after the house rules that score the round as a whole (a
        bonus for going out, penalties); the hands' own points are ``hand_points``."""
        return dict(points)

    @classmethod
    def house_rules_in_force(cls, options: Any, highest: int) -> list[dict[str, str]]:
        """The house rules switched on: ``{"rule", "label", "value", "help"}`` each."""
        return cls.declaration.in_force(options, highest)

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: Any) -> None:
        raise NotImplementedError

    @classmethod
    def round_count(cls, highest: int, options: Any) -> int | None:
        """How many rounds the game has, or ``None`` when it ends another way (kozel)."""
        raise NotImplementedError

    @classmethod
    def round_double(cls, number: int, highest: int, options: Any) -> Tile | None:
        raise NotImplementedError

    @classmethod
    def round_setup(
        cls, number: int, players: tuple[str, ...], highest: int, options: Any, finished: list[RoundRecord]
    ) -> RoundSetup:
        raise NotImplementedError

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: Any) -> int:
        raise NotImplementedError

    @classmethod
    def standing(
        cls,
        players: tuple[str, ...],
        highest: int,
        options: Any,
        rounds: list[RoundRecord],
        left: str | None = None,
    ) -> Standing:
        raise NotImplementedError

    @classmethod
    def rules_in_force(cls, options: Any) -> list[str]:
        """Lines for the scoresheet: the options that change scoring."""
        return []

    @classmethod
    def leaders(cls, standing: Standing) -> list[str]:
        """Who leads a game in progress: the lowest total (mt.winner, cf.score), nobody when
        everyone is level."""
        return lowest_totals(standing.totals)

    @classmethod
    def zero_note(cls, options: Any) -> tuple[str, Phrase] | None:
        """What the double-blank counts in a hand left, as the hands page explains it: the
        rule id and one sentence."""
        return None

    @classmethod
    def tile_values(cls, highest: int, options: Any) -> dict[Tile, tuple[int, int]]:
        """Each tile's points in a hand left, by ``hand_points``: alone in the hand, and
        beside other tiles (Kozel's 0-0 counts only alone). A page adds these up live."""
        values = {}
        for tile in full_set(highest):
            other = Tile(1, 1) if tile != Tile(1, 1) else Tile(1, 2)
            beside = cls.hand_points([tile, other], options) - cls.hand_points([other], options)
            values[tile] = (cls.hand_points([tile], options), beside)
        return values


def lowest_totals(totals: Mapping[str, int]) -> list[str]:
    """Who has the lowest total; nobody when everyone is level (no one leads)."""
    if not totals:
        return []
    best = min(totals.values())
    leaders = [name for name, total in totals.items() if total == best]
    return [] if len(leaders) == len(totals) else leaders


def face_points(tiles: Iterable[Tile], double_blank: int) -> int:
    """Pips in a hand with the double-blank worth ``double_blank`` (rule `pips`)."""
    return sum(double_blank if tile == Tile(0, 0) else tile.pips for tile in tiles)
