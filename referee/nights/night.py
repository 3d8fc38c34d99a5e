"""A club night as a pure value: its stages, their tables and results, the standing.

``Night.start`` seats stage 1; ``Night.close_stage`` takes every table's finished game
result, refuses while a table plays (night.stage.open), books the stage and seats the next
one by the night's seating. The store keeps the value; the web layer shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.match import listing
from referee.nights.config import NightConfig, night_violation
from referee.nights.mixer import mixer_stage
from referee.nights.seating import Seating, deal, fixed_stage, moves, progressive_stage, teams_stage
from referee.rules.base import Standing


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table's finished game, as the night reads it: each player's booked ``totals``;
    Kozel adds the ``rating`` points (kz.rating: every player but the goats, or but the
    player who ``left``) and the ``goats``."""

    totals: Mapping[str, int]
    rating: Mapping[str, int] = field(default_factory=dict)
    goats: tuple[str, ...] = ()
    left: str | None = None

    @classmethod
    def from_standing(cls, standing: Standing) -> TableResult:
        """The result of a finished game from its ``Standing`` (``Match.standing``)."""
        result = standing.result
        if result is None:
            raise ValueError("the game is not finished")
        return cls(dict(standing.totals), dict(result.rating), tuple(result.goats), result.left)

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> TableResult:
        """The result of a finished game from its API state (``totals``, and Kozel's
        ``rating``, ``goats``, ``left``)."""
        if state.get("status") != "finished":
            raise ValueError("the game is not finished")
        return cls(
            dict(state["totals"]),
            dict(state.get("rating") or {}),
            tuple(state.get("goats") or ()),
            state.get("left"),
        )

    def points(self, name: str, rated: bool) -> int:
        """night.standing: what the stage adds to ``name``'s night total (Kozel: the rating
        points, none for a goat or a player who left)."""
        return self.rating.get(name, 0) if rated else self.totals[name]

    def worst(self, name: str) -> bool:
        """night.progressive: a goat, or a player who left, is the table's worst."""
        return name in self.goats or name == self.left

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"totals": dict(self.totals)}
        if self.rating or self.goats or self.left:
            data.update(rating=dict(self.rating), goats=list(self.goats), left=self.left)
        return data


@dataclass(frozen=True, slots=True)
class StageRecord:
    """A closed stage: its tables (table 1 first) and each table's result."""

    stage: int
    tables: Seating
    results: tuple[TableResult, ...]


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the night's standing."""

    player: str
    total: int
    place: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "total": self.total, "place": self.place}


def standings(config: NightConfig, history: Sequence[StageRecord]) -> tuple[Placing, ...]:
    """night.standing over the stages closed: Mexican Train and Chicken Foot the sum of the
    game totals, lowest first; Kozel the sum of the rating points, highest first. Equal
    totals share a place (1, 2, 2, 4); inside a place, the order of ``players``."""
    rated = config.round_count() is None
    totals = dict.fromkeys(config.players, 0)
    for record in history:
        for table, result in zip(record.tables, record.results):
            for name in table:
                totals[name] += result.points(name, rated)
    sign = -1 if rated else 1
    ordered = sorted(config.players, key=lambda name: sign * totals[name])  # stable: the players' order
    lines: list[Placing] = []
    for position, name in enumerate(ordered, 1):
        place = lines[-1].place if lines and lines[-1].total == totals[name] else position
        lines.append(Placing(name, totals[name], place))
    return tuple(lines)


def table_ranking(
    config: NightConfig, table: Sequence[str], result: TableResult, standing: Sequence[Placing]
) -> tuple[str, ...]:
    """night.progressive: a table's players ranked once, best first: by the stage's game
    (lowest total; in Kozel a goat, or a player who left, last), equal results by the
    better night standing, then by the earlier place in ``players``."""
    place = {line.player: line.place for line in standing}
    entered = {name: index for index, name in enumerate(config.players)}
    return tuple(
        sorted(
            table,
            key=lambda name: (
                result.worst(name),
                result.totals[name],
                place.get(name, len(entered)),
                entered[name],
            ),
        )
    )


@dataclass(frozen=True, slots=True)
class Night:
    """A club night: the stage in play (``tables``, ``()`` once finished) and the stages
    closed (``history``, oldest first)."""

    config: NightConfig
    stage: int
    tables: Seating
    history: tuple[StageRecord, ...] = ()

    @classmethod
    def start(cls, config: NightConfig) -> Night:
        """Stage 1: the players dealt in the order given, the first ones to table 1."""
        return cls(config, 1, deal(config.players, config.sizes))

    @property
    def finished(self) -> bool:
        return not self.tables

    @property
    def status(self) -> str:
        return "finished" if self.finished else "playing"

    def standings(self) -> tuple[Placing, ...]:
        return standings(self.config, self.history)

    def close_stage(self, results: Sequence[TableResult | None]) -> Night:
        """The night once the stage in play is closed: ``results`` has one entry per table
        in table order, ``None`` for a game still playing (refused: night.stage.open, naming
        those tables). The next stage is seated by the night's seating; after the last
        stage the night is finished (its ``stage`` stays the last one)."""
        if self.finished:
            raise night_violation(None, "The night is finished: there is no stage left to close.")
        if len(results) != len(self.tables):
            raise ValueError(f"{len(self.tables)} tables, {len(results)} results")
        playing = [number for number, result in enumerate(results, 1) if result is None]
        if len(playing) > 1:  # each sentence written out whole, so the catalogs take it in
            raise night_violation(
                "night.stage.open",
                "Tables {tables} are still playing: a stage closes only when every table's game is finished.",
                tables=listing(playing),
            )
        if playing:
            raise night_violation(
                "night.stage.open",
                "Table {tables} is still playing: a stage closes only when every table's game is finished.",
                tables=listing(playing),
            )
        booked = tuple(result for result in results if result is not None)
        history = self.history + (StageRecord(self.stage, self.tables, booked),)
        if self.stage >= self.config.stages:
            return replace(self, tables=(), history=history)
        following = replace(self, history=history)
        return replace(following, stage=self.stage + 1, tables=following.next_seating())

    def next_seating(self) -> Seating:
        """The seating of the stage after the last one closed, by the night's seating."""
        config, last = self.config, self.history[-1]
        if config.seating == "fixed":
            return fixed_stage(self.history[0].tables)
        if config.seating == "teams":
            return teams_stage(config.players, last.stage + 1)
        if config.seating == "mixer":
            return mixer_stage(config.players, config.sizes, [record.tables for record in self.history])
        standing = self.standings()  # with the stage just closed: equal stage results rank alike either way
        rankings = [
            table_ranking(config, table, result, standing) for table, result in zip(last.tables, last.results)
        ]
        return progressive_stage(last.tables, rankings)

    def moves(self) -> Mapping[str, tuple[int, int]]:
        """Who moved to another table when the stage in play was seated: ``{"Ana": (1, 2)}``."""
        if not self.history or self.finished:
            return {}
        return moves(self.history[-1].tables, self.tables)
