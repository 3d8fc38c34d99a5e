"""What is fixed when a club night is created (API.md, "Club nights"), validated once.

A refused creation is a 400 that creates nothing: every refusal here is a ``BadRequest``;
those a club rule decides are a ``NightRefused``, which also names its ``night.*`` rule.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.look_alikes import skeletons
from referee.match import clean_player_names, game_and_mode, given_options, listing
from referee.rules import GAMES
from referee.rules.base import AnyGameRules, BadRequest, Phrase, RuleViolation, bad_request, phrase
from referee.tiles import Tile

NAME_MOST = 60
PLAYERS_FEWEST, PLAYERS_MOST = 4, 200
STAGES_MOST = 20
# A night's tables seat the players the game allows, at most 8 (API.md: 2-8 for Mexican
# Train and Chicken Foot, whose games allow more; Kozel's 2-4 are its own).
TABLE_MOST = 8
TEAMS_TABLE = 4  # kz.teams: two pairs of partners
SEATINGS = ("fixed", "progressive", "mixer", "teams")
FIELDS = (
    "name",
    "game",
    "set",
    "mode",
    "options",
    "players",
    "table_size",
    "stages",
    "rounds_per_stage",
    "seating",
)


class NightRefused(BadRequest):
    """A new night the club's rules refuse (a 400, API.md): a ``BadRequest`` that also
    names its rule (``night.tables`` …) as ``rule_id``, for the answer's ``rule``."""

    def __init__(
        self, rule_id: str, *, field: str | None, template: str, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(template.format(**dict(params or {})), field=field, template=template, params=params)
        self.rule_id = rule_id


def night_refusal(rule_id: str, template: str, *, field: str | None = None, **params: Any) -> NightRefused:
    """``raise night_refusal("night.tables", "…{count}…", field="table_size", count=3)``."""
    return NightRefused(rule_id, field=field, template=template, params=params)


def night_violation(rule_id: str | None, template: str, **params: Any) -> RuleViolation:
    """A night's request refused by its state (a 422): ``refuse``'s value, its template kept
    for translation (the catalogs take the night's sentences in with its pages)."""
    return RuleViolation(rule_id, template=template, params=params)


def _table_refused(sizes: tuple[int, ...], violation: RuleViolation) -> NightRefused:
    """A table game's own refusal (``mt.players`` …) as the night's (night.tables): its
    sentence kept (and translatable), the split of the tables said first."""
    reason = Phrase(violation.template, violation.params) if violation.template else violation.message
    return night_refusal(
        "night.tables",
        "Tables of {sizes} players cannot be played: {reason}",
        field="table_size",
        sizes=listing(list(sizes)),
        reason=reason,
    )


def _whole_number(body: Mapping[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request("'{key}' must be a whole number.", field=key, key=key)
    return value


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """night.tables: ``ceil(players / table_size)`` tables whose sizes differ by at most
    one, the larger tables first."""
    count = -(-players // table_size)
    small, larger = divmod(players, count)
    return tuple(small + 1 if table < larger else small for table in range(count))


def night_players(raw: Any, game: str) -> tuple[str, ...]:
    """The night's players: 4–200 names, each as a game's names are (``clean_player_names``),
    none twice and no two alike (``referee.look_alikes``)."""
    if not isinstance(raw, list):
        raise bad_request("'players' must be a list of names.", field="players")
    if not PLAYERS_FEWEST <= len(raw) <= PLAYERS_MOST:
        raise bad_request(
            "A club night is for {low} to {high} players, not {count}.",
            field="players",
            low=PLAYERS_FEWEST,
            high=PLAYERS_MOST,
            count=len(raw),
        )
    names: list[str] = []
    by_fold: dict[str, str] = {}
    by_look: dict[str, str] = {}
    for value in raw:
        (name,) = clean_player_names([value], game)
        if name.casefold() in by_fold:
            raise bad_request(
                "Two players are called {name!r}: names must be unique.", field="players", name=name
            )
        looks = skeletons(name)
        twin = next((by_look[look] for look in looks if look in by_look), None)
        if twin is not None:
            raise bad_request(
                "The names {name!r} and {other!r} look the same: choose names the table can tell apart.",
                field="players",
                name=name,
                other=twin,
            )
        by_fold[name.casefold()] = name
        by_look.update(dict.fromkeys(looks, name))
        names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class NightConfig:
    """A club night as created: every table plays ``game`` with the same set, options and
    mode; ``rounds_per_stage`` is ``None`` for Kozel (a stage is one whole game)."""

    name: str
    game: str
    highest: int
    mode: str
    options: Any  # the game's options (``GameOptions``), defaults included
    players: tuple[str, ...]
    table_size: int
    stages: int
    rounds_per_stage: int | None
    seating: str

    @property
    def rules(self) -> AnyGameRules:
        return GAMES[self.game]

    @property
    def teams(self) -> bool:
        """kz.teams: fixed partners, the 1st and 2nd player, the 3rd and 4th, …"""
        return bool(getattr(self.options, "teams", False))

    @property
    def sizes(self) -> tuple[int, ...]:
        """Each table's size, table 1 first (night.tables)."""
        return table_sizes(len(self.players), self.table_size)

    @property
    def table_count(self) -> int:
        return len(self.sizes)

    # ----- night.rounds ----------------------------------------------------------------

    def round_count(self) -> int | None:
        """The length of the night's sequence of doubles (``None``: Kozel, no rounds)."""
        return self.rules.round_count(self.highest, self.options)

    def stage_doubles(self, stage: int) -> tuple[Tile, ...]:
        """night.rounds: the doubles stage ``stage`` plays, the (s−1)·k+1 … s·k-th of the
        night's sequence (``()`` for Kozel, whose stage is one whole game)."""
        if not 1 <= stage <= self.stages:
            raise ValueError(f"the night has stages 1–{self.stages}, not {stage}")
        if self.rounds_per_stage is None:
            return ()
        first = (stage - 1) * self.rounds_per_stage + 1
        numbers = range(first, first + self.rounds_per_stage)
        doubles = (self.rules.round_double(number, self.highest, self.options) for number in numbers)
        return tuple(double for double in doubles if double is not None)

    def stage_options(self, stage: int) -> Any:
        """The options of stage ``stage``'s table games: the night's, with ``first_double``
        and ``last_double`` narrowed to the stage's doubles (Kozel: the night's as they are)."""
        doubles = self.stage_doubles(stage)
        if not doubles:
            return self.options
        return dataclasses.replace(self.options, first_double=doubles[0].high, last_double=doubles[-1].high)

    def game_players(self, table: tuple[str, ...]) -> tuple[str, ...]:
        """How a table's game lists its players: in the order of the night's ``players``;
        with teams, partners opposite: the first team's first, the second team's first, the
        first team's second, the second team's second (kz.teams)."""
        order = {name: index for index, name in enumerate(self.players)}
        listed = tuple(sorted(table, key=order.__getitem__))
        if self.teams and len(listed) == TEAMS_TABLE:
            return (listed[0], listed[2], listed[1], listed[3])
        return listed

    # ----- JSON ------------------------------------------------------------------------

    @classmethod
    def from_json(cls, body: Any) -> NightConfig:
        """The night a ``POST /api/nights`` body describes, or the 400 that refuses it."""
        if not isinstance(body, Mapping):
            raise bad_request("The body must be a JSON object describing the night.")
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise bad_request("Unknown field {name!r}.", field=unknown[0], name=unknown[0])
        name = _night_name(body.get("name"))
        game, rules, mode = game_and_mode(body)
        highest = _night_set(body, rules)
        players = night_players(body.get("players"), game)
        options = rules.parse_options(given_options(body), highest, players)
        seating = body.get("seating")
        if seating not in SEATINGS:
            raise bad_request(
                "'seating' must be one of {seatings}.", field="seating", seatings=", ".join(SEATINGS)
            )
        stages = _whole_number(body, "stages")
        if not 1 <= stages <= STAGES_MOST:
            raise bad_request("'stages' must be between 1 and {most}.", field="stages", most=STAGES_MOST)
        rounds_per_stage = _rounds_per_stage(body, rules, highest, options)
        table_size = _whole_number(body, "table_size")
        config = cls(
            name, game, highest, str(mode), options, players, table_size, stages, rounds_per_stage, seating
        )
        config.check()
        return config

    def check(self) -> None:
        """The checks between fields: table sizes (night.tables), the stages' rounds
        (night.rounds) and teams (night.teams)."""
        low, most = self.rules.declaration.players
        high = min(most, TABLE_MOST)
        if not low <= self.table_size <= high:
            raise night_refusal(
                "night.tables",
                "{game} tables seat {low} to {high} players, not {size}.",
                field="table_size",
                game=Phrase(self.rules.title),
                low=low,
                high=high,
                size=self.table_size,
            )
        self._check_teams()
        for size in sorted(set(self.sizes)):
            try:
                self.rules.check_table(tuple(self.players[:size]), self.highest, self.options)
            except RuleViolation as violation:
                raise _table_refused(self.sizes, violation) from None
        rounds = self.round_count()
        if (
            self.rounds_per_stage is not None
            and rounds is not None
            and self.stages * self.rounds_per_stage > rounds
        ):
            raise night_refusal(
                "night.rounds",
                "{stages} stages of {per_stage} rounds need {needed} rounds, but the night's "
                "doubles give only {rounds}: play fewer stages or fewer rounds per stage.",
                field="stages",
                stages=self.stages,
                per_stage=self.rounds_per_stage,
                needed=self.stages * self.rounds_per_stage,
                rounds=rounds,
            )

    def _check_teams(self) -> None:
        if self.seating == "teams" and not self.teams:
            raise night_refusal(
                "night.teams",
                "The 'teams' seating is for Kozel with the 'teams' option: "
                "fixed partners need a game of teams.",
                field="seating",
            )
        if not self.teams:
            return
        if self.seating not in ("teams", "fixed"):
            raise night_refusal(
                "night.teams",
                "With teams the partners stay together all night: choose the 'teams' or 'fixed' seating.",
                field="seating",
            )
        if len(self.players) % 2:
            raise night_refusal(
                "night.teams",
                "{count} players cannot make teams of two: a team night needs an even number of players.",
                field="players",
                count=len(self.players),
            )
        if self.table_size != TEAMS_TABLE:
            raise night_refusal(
                "night.teams",
                "A team night seats two teams of two at every table: tables of {four}, not {size}.",
                field="table_size",
                four=TEAMS_TABLE,
                size=self.table_size,
            )
        if len(self.players) % TEAMS_TABLE:
            raise night_refusal(
                "night.teams",
                "{count} players do not fill tables of {four}: "
                "a team night needs a multiple of {four} players.",
                field="players",
                count=len(self.players),
                four=TEAMS_TABLE,
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "set": self.highest,
            "mode": self.mode,
            "options": self.options.to_json(),
            "players": list(self.players),
            "table_size": self.table_size,
            "stages": self.stages,
            "rounds_per_stage": self.rounds_per_stage,
            "seating": self.seating,
        }


def _night_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise bad_request("'name' must be the night's name: text.", field="name")
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= NAME_MOST:
        raise bad_request("A night's name has 1 to {most} characters.", field="name", most=NAME_MOST)
    return name


def _night_set(body: Mapping[str, Any], rules: AnyGameRules) -> int:
    highest = body.get("set", rules.default_set)
    if isinstance(highest, bool) or not isinstance(highest, int):
        raise bad_request("'set' must be a whole number: the highest pip of the set.", field="set")
    if highest not in rules.sets:
        raise bad_request(
            "{game} is played with {sets}, not double-{highest}.",
            field="set",
            game=Phrase(rules.title),
            sets=listing([phrase("double-{highest}", highest=n) for n in rules.sets]),
            highest=highest,
        )
    return highest


def _rounds_per_stage(body: Mapping[str, Any], rules: AnyGameRules, highest: int, options: Any) -> int | None:
    if rules.round_count(highest, options) is None:  # kozel: a stage is one whole game (night.rounds)
        if body.get("rounds_per_stage") is not None:
            raise night_refusal(
                "night.rounds",
                "A Kozel stage is one whole game: leave out 'rounds_per_stage'.",
                field="rounds_per_stage",
            )
        return None
    if "rounds_per_stage" not in body:
        raise bad_request(
            "'rounds_per_stage' is required: the rounds of one stage.", field="rounds_per_stage"
        )
    rounds = _whole_number(body, "rounds_per_stage")
    if rounds < 1:
        raise bad_request("'rounds_per_stage' must be at least 1.", field="rounds_per_stage")
    return rounds
