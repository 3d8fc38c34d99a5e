"""Club nights (API.md, "Club nights"): the night as created, its stages and which game is
played at which table of which stage; every table game is an ordinary game of the store.

A night's writes are each one transaction: creating a night makes its stage-1 games with
it, and closing a stage books its results, seats the next stage and makes its games, all
or nothing. A table game's row names its night, stage and table (``NightSeat``).
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.match import GameConfig
from referee.nights import Night, NightConfig, StageRecord, TableResult
from referee.nights.config import night_violation
from referee.rules.base import RuleViolation
from referee.stats import PlayerGame
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
    def summarize_game(self, game_id: str) -> None:
        """Make the game's rows of the players' lists again (``PlayerLists``)."""

    @abstractmethod
    def delete(self, game_id: str) -> None:
        """Delete a game and its history for ever (``Store.delete``)."""

    @abstractmethod
    def _replace_player_games(self, game_id: str, rows: list[PlayerGame]) -> None:
        """The game's rows of the players' lists (``PlayerLists``)."""

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

    # ----- the pages' looks, the trash, the players -------------------------------------

    def night_mark(self, night_id: str) -> tuple[Any, ...] | None:
        """What changes whenever anything shown of the night changes: its stage and the
        versions of its tables' games (one query; ``None``: no such night)."""
        with self.read():
            row = self.db.execute(
                "select stage, status, changed from nights where id = ? and trashed is null", [night_id]
            ).fetchone()
            if row is None:
                return None
            versions = self.db.execute(
                "select g.id, g.version from night_tables t join games g on g.id = t.game_id "
                "where t.night_id = ? and t.stage = ? order by t.number",
                [night_id, row[0]],
            ).fetchall()
        return (tuple(row), tuple((str(r[0]), int(r[1])) for r in versions))

    def trash_night(self, night_id: str) -> None:
        """The whole night to the trash, its tables' games with it (they leave the lists and
        the players' records), in one transaction; ``NightNotFound`` when there is none."""
        with self.write():
            found = self.db.execute(
                "select 1 from nights where id = ? and trashed is null", [night_id]
            ).fetchone()
            if found is None:
                raise NightNotFound(night_id)
            stamp = clock()
            games = self._night_games(night_id)
            self.db.execute("update nights set trashed = ? where id = ?", [stamp, night_id])
            for game_id in games:
                self.db.execute("update games set trashed = ? where id = ?", [stamp, game_id])
                self._replace_player_games(game_id, [])
        for game_id in games:
            self._forget(game_id)

    def restore_night(self, night_id: str) -> None:
        """The night and its tables' games back out of the trash, as they were."""
        with self.write():
            found = self.db.execute(
                "select 1 from nights where id = ? and trashed is not null", [night_id]
            ).fetchone()
            if found is None:
                raise NightNotFound(night_id)
            stamp = clock()
            games = self._night_games(night_id)
            self.db.execute("update nights set trashed = null, changed = ? where id = ?", [stamp, night_id])
            for game_id in games:
                self.db.execute("update games set trashed = null, changed = ? where id = ?", [stamp, game_id])
                self.summarize_game(game_id)

    def purge_nights(self, older_than: str | None = None, night_id: str | None = None) -> int:
        """Delete for ever the nights in the trash (thrown away before ``older_than``, or the
        one ``night_id``), with their tables' games; returns how many nights."""
        with self.write():
            query, args = "select id from nights where trashed is not null", []
            if older_than is not None:
                query += " and trashed < ?"
                args.append(older_than)
            if night_id is not None:
                query += " and id = ?"
                args.append(night_id)
            ids = [str(r[0]) for r in self.db.execute(query, args).fetchall()]
            for found in ids:
                games = self._night_games(found)
                self.db.execute("delete from night_keys where night_id = ?", [found])
                self.db.execute("delete from night_tables where night_id = ?", [found])
                for game_id in games:
                    self.delete(game_id)
                self.db.execute("delete from nights where id = ?", [found])
        return len(ids)

    def trashed_nights(self) -> list[dict[str, Any]]:
        """The nights in the trash, last thrown away first, with their players."""
        with self.read():
            rows = self.db.query(
                "select id, name, game, status, created, trashed, config from nights "
                "where trashed is not null order by trashed desc, id"
            )
            return [
                {
                    **{k: v for k, v in row.items() if k != "config"},
                    "players": json.loads(row["config"])["players"],
                }
                for row in rows
            ]

    def nights_of_player(self, key: str) -> list[dict[str, Any]]:
        """The nights (not in the trash) a player is in, newest first: its id, name, game,
        status, created, how many players, and the player's place and total so far."""
        found: list[dict[str, Any]] = []
        with self.read():
            rows = list(
                self.db.execute(
                    "select id, config from nights where trashed is null order by created desc, id"
                ).fetchall()
            )
            for night_id, raw in rows:
                names = json.loads(raw)["players"]
                name = next((n for n in names if unicodedata.normalize("NFC", n).casefold() == key), None)
                if name is None:
                    continue
                stored = self._night(str(night_id))
                line = next(p for p in stored.night.standings() if p.player == name)
                found.append(
                    {
                        "id": stored.id,
                        "name": stored.night.config.name,
                        "game": stored.night.config.game,
                        "status": stored.night.status,
                        "created": stored.created,
                        "players": len(names),
                        "place": line.place,
                        "total": line.total,
                        "stages": len(stored.night.history),
                    }
                )
        return found

    def _night_games(self, night_id: str) -> list[str]:
        return [
            str(r[0])
            for r in self.db.execute("select game_id from night_tables where night_id = ?", [night_id])
        ]
