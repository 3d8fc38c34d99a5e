"""What a game is, declared once: its key, title, sets, player range and options.

Each game's rules module declares one ``GameDeclaration``; everything else reads it: the
JSON validation of ``options`` (``GameDeclaration.parse``), the new-game form, the OpenAPI
document, the scoresheet's list of house rules in force, the titles of pages, stats and
leaderboards. Adding an option to a game is one ``Option(...)`` in its module and the
typed field of the same name in its options dataclass (plus the rule it changes and the
translations of its texts); the game's rules class checks that the two agree.

An ``Option`` is a small immutable value:

- ``flag``: ``true`` / ``false``;
- ``choice``: one of ``choices`` (strings or whole numbers, each with a label);
- ``range``: a whole number from ``low`` to ``high`` (``high`` may be ``SET_HIGHEST``: the
  highest pip of the game's set; ``None``: no upper bound, the game checks it).

``default`` is the value when the option is absent or ``null``; ``SET_HIGHEST`` means the
highest pip of the set, ``None`` that the game decides (``hand_size``: the usual deal).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import ClassVar, Literal, Self, TypeAlias

from referee.rules.refusals import bad_request

FLAG, CHOICE, RANGE = "flag", "choice", "range"
KINDS = (FLAG, CHOICE, RANGE)
SET_HIGHEST = "highest pip of the set"  # a bound or default that follows the set

# An option's value as the API reads and echoes it.
OptionValue: TypeAlias = bool | int | str | None


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of a ``choice`` option and how the form names it."""

    value: str | int
    label: str


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game, as the API names it (API.md) and the rule book explains it."""

    name: str
    kind: str
    default: OptionValue
    rule: str
    label: str
    help: str
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | str | None = None
    house: bool = False  # a house rule (RULES.md section 4): listed under "House rules"
    players: int | None = None  # offered only for exactly this many players (kz.teams: 4)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        if self.kind == CHOICE and self.default not in self.values:
            raise ValueError(f"option {self.name}: default {self.default!r} is not a choice")
        if isinstance(self.high, str) and self.high != SET_HIGHEST:
            raise ValueError(f"option {self.name}: unknown bound {self.high!r}")

    @property
    def values(self) -> tuple[str | int, ...]:
        """The allowed values of a ``choice`` option (``(False, True)`` for a flag)."""
        if self.kind == FLAG:
            return (False, True)
        return tuple(choice.value for choice in self.choices)

    @property
    def numeric(self) -> bool:
        """Whether the option's values are whole numbers (a range, or a choice of numbers)."""
        return self.kind == RANGE or (self.kind == CHOICE and all(isinstance(v, int) for v in self.values))

    def resolved_default(self, highest: int) -> OptionValue:
        return highest if self.default == SET_HIGHEST else self.default

    @property
    def unset(self) -> OptionValue:
        """The value of an options dataclass's field left out: the default, or ``None`` where
        the default follows the set."""
        return None if self.default == SET_HIGHEST else self.default

    def upper(self, highest: int) -> int | None:
        """The highest value allowed with a double-``highest`` set (``None``: no bound)."""
        return highest if isinstance(self.high, str) else self.high  # a string bound is SET_HIGHEST

    def label_of(self, value: OptionValue) -> str:
        """How a value reads on a page: its choice label, or the number."""
        for choice in self.choices:
            if choice.value == value:
                return choice.label
        return str(value)

    def parse(self, raw: Mapping[str, object], highest: int) -> OptionValue:
        """The option's value from an ``options`` object (absent or ``null``: the default).

        Raises ``BadRequest`` (400) naming the option when the value is of the wrong type
        or not allowed."""
        key = self.name
        value = raw.get(key)
        if value is None:
            return self.resolved_default(highest)
        if self.kind == FLAG:
            if not isinstance(value, bool):
                raise bad_request("Option {key!r} must be true or false.", field=key, key=key)
            return value
        if self.numeric and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad_request("Option {key!r} must be a whole number.", field=key, key=key)
        if self.kind == CHOICE:
            for allowed in self.values:
                if allowed == value and not isinstance(value, bool):
                    return allowed
            raise bad_request(
                "Option {key!r} must be one of {allowed}.",
                field=key,
                key=key,
                allowed=", ".join(
                    map(str, sorted(int(v) for v in self.values) if self.numeric else self.values)
                ),
            )
        assert isinstance(value, int)  # a range is numeric: checked above
        low, high = self.low, self.upper(highest)
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                raise bad_request("Option {key!r} must be at least {low}.", field=key, key=key, low=low)
            raise bad_request(
                "Option {key!r} must be between {low} and {high}.", field=key, key=key, low=low, high=high
            )
        return value


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The options a game was created with: one frozen dataclass per game, one typed field
    per declared option (``GameDeclaration.check_values`` holds them to the declaration).

    ``MexicanTrainOptions(draw="until")`` builds one directly (absent options take their
    declared default; a default that follows the set stays ``None``); ``to_json()`` is the
    API's ``options`` object and ``from_json`` reads it back."""

    declaration: ClassVar[GameDeclaration]

    @classmethod
    def from_json(cls, values: Mapping[str, OptionValue]) -> Self:
        """The options named in ``values`` (``TypeError`` for a name the game does not have)."""
        return cls(**values)

    def to_json(self) -> dict[str, OptionValue]:
        """Every option by name, in the declaration's order (the API's ``options``)."""
        return {option.name: getattr(self, option.name) for option in self.declaration.options}

    def __reduce__(
        self,
    ) -> tuple[Callable[..., GameOptions], tuple[type[GameOptions], dict[str, OptionValue]]]:
        # Pickled by name: a snapshot taken before an option was added reads back with its default.
        return (_rebuild, (type(self), self.to_json()))


def _rebuild(cls: type[GameOptions], values: dict[str, OptionValue]) -> GameOptions:
    return cls.from_json(values)


@dataclass(frozen=True, slots=True)
class GameDeclaration:
    """A game, described once: everything outside its rules module reads this."""

    key: str
    prefix: str
    title: str  # a Phrase: translated on the pages
    sets: tuple[int, ...]
    default_set: int
    players: tuple[int, int]  # fewest, most
    options: tuple[Option, ...]
    choice_label: str = ""  # the game's name on the new-game page, when it says more than the title
    # How the game is shown: "module:Class" of its presenter (``referee.presenters``), looked
    # up by name so that the rules import no presentation code.
    presenter: str = "referee.presenters.base:Presenter"

    def __post_init__(self) -> None:
        names = [option.name for option in self.options]
        if len(names) != len(set(names)):
            raise ValueError(f"{self.key}: an option is declared twice")
        if self.default_set not in self.sets:
            raise ValueError(f"{self.key}: the default set is not one of the sets")

    @property
    def label(self) -> str:
        return self.choice_label or self.title

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    @property
    def house_rules(self) -> tuple[Option, ...]:
        return tuple(option for option in self.options if option.house)

    @property
    def table_options(self) -> tuple[Option, ...]:
        return tuple(option for option in self.options if not option.house)

    def parse(self, raw: object, highest: int) -> dict[str, OptionValue]:
        """Every declared option's value from the ``options`` object of a new game.

        ``None`` is no options; an unknown key, a wrong type or a value not allowed is a
        ``BadRequest`` (400) naming the option."""
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise bad_request("'options' must be a JSON object.", field="options")
        known = {option.name for option in self.options}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise bad_request("Unknown option {name!r} for this game.", field="options", name=unknown[0])
        return {option.name: option.parse(raw, highest) for option in self.options}

    def in_force(self, options: GameOptions, highest: int) -> list[dict[str, str]]:
        """The house rules switched on (not at their default): rule id and one line each."""
        values = options.to_json()
        lines = []
        for option in self.house_rules:
            default = option.resolved_default(highest)
            value = values.get(option.name, default)
            if value == default or value is None:
                continue
            shown = "" if option.kind == FLAG else option.label_of(value)
            lines.append({"rule": option.rule, "label": option.label, "value": shown, "help": option.help})
        return lines

    def check_values(self, options: type[GameOptions]) -> None:
        """Make sure the game's options dataclass has one field per declared option, each
        with the option's default (``None`` where it follows the set) and, for a choice
        written as a ``Literal``, exactly the choice's values."""
        if options.declaration is not self:
            raise TypeError(f"{options.__name__}: declared by another game than {self.key}")
        declared = {option.name: option.unset for option in self.options}
        found = {field.name: field.default for field in fields(options)}
        if found != declared:
            raise TypeError(f"{options.__name__}: its fields {found} are not the options of {self.key}")
        hints = typing.get_type_hints(options)
        for option in self.options:
            hint = hints[option.name]
            literal = option.kind == CHOICE and typing.get_origin(hint) is Literal
            if literal and set(typing.get_args(hint)) != set(option.values):
                raise TypeError(f"{options.__name__}.{option.name}: not the choices of the declaration")
