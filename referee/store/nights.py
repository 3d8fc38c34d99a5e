"""Club nights (API.md, "Club nights"): the night as created, its stages and which game is
played at which table of which stage; every table game is an ordinary game of the store.

A night's writes are each one transaction: creating a night makes its stage-1 games with
it, and closing a stage books its results, seats the next stage and makes its games, all
or nothing. A table game's row names its night, stage and table (``NightSeat``).
"""

from __future__ import annotations

import json
import secrets
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.match import GameConfig
from referee.nights import Night, NightConfig, StageRecord, TableResult
from referee.nights.config import night_violation
from referee.rules.base import RuleViolation
from referee.store.log import GameLog, NightSeat, StoredGame, clock, now


class NightNotFound(LookupError):
    """No night by this id (or it is in the trash)."""


def new_id() -> str:
    """An id like a game's: 11 URL-safe characters, no '-' or '_' (easy to read out)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def table_not_deleted(seat: NightSeat) -> RuleViolation:
    """A club night's table game deleted on its own (a 422): the night's stages, moves and
    standing are made of its tables' games, so they go to the trash with their night only."""
    return night_violation(
        "night.tables",
        "This game is table {table} of stage {stage} of a club night: a night's tables cannot be "
        "deleted one by one, only with their night.",
        table=seat.table,
        stage=seat.stage,
    )


def _result(raw: str | None) -> TableResult | None:
    if raw is None:
        return None
    data: Mapping[str, Any] = json.loads(raw)
    return TableResult(
        dict(data["totals"]),
        dict(data.get("rating") or {}),
        tuple(data.get("goats") or ()),
        data.get("left"),
    )


@dataclass(frozen=True, slots=True)
class NightTable:
    """One table of one stage: its game, its players (in the night's order), the game's
    status and, once the stage is closed, its result."""

    stage: int
    number: int
    game_id: str
    players: tuple[str, ...]
    status: str
    result: TableResult | None


@dataclass(frozen=True, slots=True)
class StoredNight:
    """A night as stored: the pure value (``Night``) and the games of its tables."""

    id: str
    created: str
    night: Night
    tables: tuple[NightTable, ...]  # every stage's, oldest stage first, table 1 first

    @property
    def current(self) -> tuple[NightTable, ...]:
        """The tables of the stage in play (none once the night is finished)."""
        return tuple(table for table in self.tables if table.result is None)

    def state(self) -> dict[str, Any]:
        """The night's state (API.md): its config, the stage in play, the stages closed and
        the standing over them."""
        config, night = self.night.config, self.night
        history: dict[int, list[dict[str, Any]]] = {}
        for table in self.tables:
            if table.result is not None:
                history.setdefault(table.stage, []).append(
                    {
                        "table": table.number,
                        "players": list(config.game_players(table.players)),
                        "game": table.game_id,
                        "totals": dict(table.result.totals),
                    }
                )
        return {
            "id": self.id,
            **config.to_json(),
            "stage": night.stage,
            "status": night.status,
            "created": self.created,
            "tables": [
                {
                    "table": table.number,
                    "players": list(config.game_players(table.players)),
                    "game": table.game_id,
                    "status": table.status,
                }
                for table in self.current
            ],
            "history": [{"stage": stage, "tables": tables} for stage, tables in sorted(history.items())],
            "standings": [line.to_json() for line in night.standings()],
        }


class Nights(GameLog):
    """The club nights of a database (a part of ``Store``)."""

    @abstractmethod
    def create(
        self,
        config: GameConfig,
        pin_hash: str | None = None,
        game_id: str | None = None,
        created: str | None = None,
        night: NightSeat | None = None,
    ) -> StoredGame:
        """A new game (``Store.create``)."""

    def create_night(self, config: NightConfig, night_id: str | None = None) -> StoredNight:
        """A new night and its stage-1 games, in one transaction."""
        night = Night.start(config)
        night_id = night_id or new_id()
        stamp = now()
        with self.write():
            self.db.table("nights").insert(
                {
                    "id": night_id,
                    "name": config.name,
                    "game": config.game,
                    "config": json.dumps(config.to_json(), ensure_ascii=False),
                    "stage": night.stage,
                    "status": night.status,
                    "created": stamp,
                    "changed": clock(),
                    "trashed": None,
                }
            )
            self._seat(night_id, night)
            return self._night(night_id)

    def load_night(self, night_id: str) -> StoredNight:
        with self.read():
            return self._night(night_id)

    def list_nights(self) -> list[dict[str, Any]]:
        """Every night not in the trash, last changed first."""
        return list(
            self.db.query(
                "select id, name, game, status, created from nights where trashed is null "
                "order by changed desc, created desc, id"
            )
        )

    def next_stage(self, night_id: str, key: str | None = None) -> StoredNight:
        """Close the stage in play and seat the next one (API.md ``POST …/next``), all or
        nothing: refused (night.stage.open) while a table plays, and on a finished night. A
        ``key`` the night has already accepted changes nothing and gives the night as it is."""
        with self.write():
            stored = self._night(night_id)
            if (
                key is not None
                and self.db.execute(
                    "select 1 from night_keys where night_id = ? and key = ?", [night_id, key]
                ).fetchone()
            ):
                return stored
            results: list[TableResult | None] = []
            for table in stored.current:
                if table.status != "finished":
                    results.append(None)
                    continue
                standing = self._load(self._row(table.game_id)).match.standing
                results.append(TableResult.from_standing(standing))
            night = stored.night.close_stage(results)
            closed: StageRecord = night.history[-1]
            self.db.conn.executemany(
                "update night_tables set result = ? where night_id = ? and stage = ? and number = ?",
                [
                    (json.dumps(result.to_json(), ensure_ascii=False), night_id, closed.stage, number)
                    for number, result in enumerate(closed.results, 1)
                ],
            )
            if not night.finished:
                self._seat(night_id, night)
            self.db.execute(
                "update nights set stage = ?, status = ?, changed = ? where id = ?",
                [night.stage, night.status, clock(), night_id],
            )
            if key is not None:
                self.db.execute(
                    "insert into night_keys (night_id, key, stage) values (?, ?, ?)",
                    [night_id, key, closed.stage],
                )
            return self._night(night_id)

    def _seat(self, night_id: str, night: Night) -> None:
        """Make the games of the stage in play and note their tables (inside a write)."""
        config = night.config
        options = config.stage_options(night.stage)
        for number, players in enumerate(night.tables, 1):
            game_config = GameConfig(
                config.game, config.mode, config.highest, config.game_players(players), options
            )
            game = self.create(game_config, night=NightSeat(night_id, night.stage, number))
            self.db.execute(
                "insert into night_tables (night_id, stage, number, game_id, players, result) "
                "values (?, ?, ?, ?, ?, null)",
                [night_id, night.stage, number, game.id, json.dumps(list(players), ensure_ascii=False)],
            )

    def _night(self, night_id: str) -> StoredNight:
        """The night and its tables (inside a read or a write)."""
        row = self.db.execute(
            "select config, stage, created from nights where id = ? and trashed is null", [night_id]
        ).fetchone()
        if row is None:
            raise NightNotFound(night_id)
        config = NightConfig.from_json(json.loads(row[0]))
        tables = tuple(
            NightTable(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], _result(r[5]))
            for r in self.db.execute(
                "select t.stage, t.number, t.game_id, t.players, g.status, t.result "
                "from night_tables t join games g on g.id = t.game_id "
                "where t.night_id = ? order by t.stage, t.number",
                [night_id],
            )
        )
        history: list[StageRecord] = []
        for stage in sorted({table.stage for table in tables if table.result is not None}):
            closed = [table for table in tables if table.stage == stage]
            history.append(
                StageRecord(
                    stage,
                    tuple(table.players for table in closed),
                    tuple(table.result for table in closed if table.result is not None),
                )
            )
        current = tuple(table.players for table in tables if table.result is None)
        night = Night(config, int(row[1]), current, tuple(history))
        return StoredNight(night_id, str(row[2]), night, tables)
