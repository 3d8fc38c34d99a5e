"""Reading games: their rows, their event log (the truth) and the match it makes.

A game is loaded from the match the cache lends, or else from its newest snapshot and the
few events after it, or else, when the snapshot cannot be read or does not fit, from the
whole log; a game whose log itself cannot be replayed raises ``GameUnreadable``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee.match import GameConfig, Match
from referee.rules.base import Action
from referee.store.connection import Connection
from referee.store.snapshots import SNAPSHOT_FORMAT, event_digest, read_snapshot

LIST_COLUMNS = "id, game, mode, players, status, created, updated, version, pin_hash, changed, trashed"
ROW_COLUMNS = "id, created, version, pin_hash, snapshot_version, trashed, summary_version"
# A game's row with the club night it belongs to (m013); a migration before m013 reads the former.
ROW_COLUMNS_WITH_NIGHT = ROW_COLUMNS + ", night_id, night_stage, night_table"


class GameNotFound(LookupError):
    pass


class GameUnreadable(Exception):
    """A stored game whose event log cannot be replayed (a damaged or hand-edited row): the
    game is reported on its own and left out of the lists, never guessed at."""

    def __init__(self, game_id: str, reason: str) -> None:
        self.game_id, self.reason = game_id, reason
        super().__init__(f"The game {game_id!r} cannot be read from its record: {reason}")


class VersionConflict(Exception):
    def __init__(self, expected: int, actual: int) -> None:
        self.expected, self.actual = expected, actual
        super().__init__(f"The game is at version {actual}, not {expected}: reload and try again.")


@dataclass(frozen=True, slots=True)
class Event:
    """One accepted change, as logged: ``create``, ``action`` or ``hands``."""

    version: int
    kind: str
    payload: dict[str, Any]
    created: str


@dataclass(slots=True)
class StoredGame:
    id: str
    created: str
    version: int
    match: Match
    pin_hash: str | None = None
    night: NightSeat | None = None  # where the game is played in a club night, if it is

    def state(self) -> dict[str, Any]:
        data = {"id": self.id, **self.match.state(), "version": self.version, "created": self.created}
        if self.night is not None:
            data["night"] = self.night.to_json()
        return data


@dataclass(frozen=True, slots=True)
class NightSeat:
    """A club night's table game: which night, stage and table (API.md, "Club nights")."""

    night_id: str
    stage: int
    table: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.night_id, "stage": self.stage, "table": self.table}

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> NightSeat | None:
        night_id = row.get("night_id")
        return None if night_id is None else cls(night_id, row["night_stage"], row["night_table"])


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def clock() -> str:
    """This server's time of a change, fine enough to order changes of the same second."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def apply_event(match: Match, kind: str, payload: dict[str, Any]) -> None:
    """The one place where a logged change is applied: live requests and replays alike."""
    if kind == "action":
        match.apply(Action.from_json(payload))
    elif kind == "hands":
        match.enter_hands(payload["round"], {key: value for key, value in payload.items() if key != "round"})
    else:
        raise ValueError(f"unknown event kind {kind!r}")


def _listed(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": r["id"],
        "game": r["game"],
        "players": json.loads(r["players"]),
        "status": r["status"],
        "created": r["created"],
        "updated": r["updated"],
        "version": r["version"],
        "mode": r["mode"],
        "protected": bool(r["pin_hash"]),
        "changed": r["changed"],
        "trashed": r["trashed"],
    }


class GameLog(Connection):
    """The games of a database as read from their rows, snapshots and event logs."""

    def _row(self, game_id: str, trashed: bool = False) -> dict[str, Any]:
        """The game's row; a game in the trash is not found unless ``trashed``."""
        columns = ROW_COLUMNS if self._migrating else ROW_COLUMNS_WITH_NIGHT
        rows = list(self.db.query(f"select {columns} from games where id = ?", [game_id]))
        if not rows or (rows[0]["trashed"] and not trashed):
            raise GameNotFound(game_id)
        return rows[0]

    def version_of(self, game_id: str) -> int | None:
        """The game's version (it grows with every change), or None when there is no such game."""
        row = self.db.execute(
            "select version from games where id = ? and trashed is null", [game_id]
        ).fetchone()
        return int(row[0]) if row else None

    def load(self, game_id: str, trashed: bool = False) -> StoredGame:
        with self.read():
            return self._load(self._row(game_id, trashed=trashed) if trashed else self._row(game_id))

    def _load(self, row: dict[str, Any]) -> StoredGame:
        game_id = row["id"]
        key = (row["version"], row["created"])
        held = self._lent.get(game_id)
        if held is not None and held[0] == key:
            match = held[1]
        else:
            cached = self.cache.lend(game_id, key) if self.cache is not None else None
            match = cached if cached is not None else self._rebuild(game_id, row)
            self._lent[game_id] = (key, match)
        return StoredGame(
            row["id"], row["created"], row["version"], match, row["pin_hash"], NightSeat.of_row(row)
        )

    def _rebuild(self, game_id: str, row: dict[str, Any]) -> Match:
        """The match from its newest snapshot and the few events after it, or, when the
        snapshot cannot be read or does not fit (another game's, another version's, damaged,
        or the later events do not apply to it), from the whole log."""
        snapshot = next(self.db.query("select snapshot, snapshot_format from games where id = ?", [game_id]))
        version = row["snapshot_version"]
        if snapshot["snapshot_format"] == SNAPSHOT_FORMAT and snapshot["snapshot"] and version:
            last = next(
                self.db.query(
                    "select kind, payload, created from events where game_id = ? and version = ?",
                    [game_id, version],
                ),
                None,
            )
            digest = (
                event_digest(last["kind"], json.loads(last["payload"]), last["created"]) if last else None
            )
            try:
                match = read_snapshot(snapshot["snapshot"], game_id, version, digest)
                if match is not None:
                    for event in self._events_after(game_id, version):
                        apply_event(match, event.kind, event.payload)
                    return match
            except Exception:  # a snapshot is only a cache: the log decides
                pass
        try:
            return self.replay(game_id)
        except GameNotFound:
            raise
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"
            self._found_unreadable[game_id] = reason
            raise GameUnreadable(game_id, reason) from error

    def _events_after(self, game_id: str, version: int) -> list[Event]:
        return [
            Event(r["version"], r["kind"], json.loads(r["payload"]), r["created"])
            for r in self.db.query(
                "select version, kind, payload, created from events "
                "where game_id = ? and version > ? order by version",
                [game_id, version],
            )
        ]

    def events(self, game_id: str) -> list[Event]:
        with self.read():
            self._row(game_id, trashed=True)
            return self._events_after(game_id, 0)

    def replay(self, game_id: str) -> Match:
        """The game rebuilt from its log alone: what the snapshot must always equal."""
        events = self.events(game_id)
        match = Match(GameConfig.from_json(events[0].payload))
        for event in events[1:]:
            apply_event(match, event.kind, event.payload)
        return match

    def list_games(self, trashed: bool = False) -> list[dict[str, Any]]:
        """Every game not in the trash (with ``trashed``, every game), last changed first."""
        where = "" if trashed else "where trashed is null "
        return [
            _listed(r)
            for r in self.db.query(
                f"select {LIST_COLUMNS} from games {where}order by changed desc, created desc, id"
            )
        ]

    def list_page(self, kind: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """One page of the games ``playing``, ``finished`` or in the ``trash`` (last changed,
        or last thrown away, first; among those playing, the games with something logged come
        before those not begun) and how many there are in all."""
        where, order = {
            # the games being played first (by their last change), then those not yet begun
            "playing": ("trashed is null and status = 'playing'", "version > 1 desc, changed desc, id"),
            "finished": ("trashed is null and status = 'finished'", "changed desc, id"),
            # a club night's tables go to the trash with their night, and are listed with it
            "trash": ("trashed is not null and night_id is null", "trashed desc, id"),
        }[kind]
        with self.read():
            total = self.db.execute(f"select count(*) from games where {where}").fetchone()[0]
            rows = [
                _listed(r)
                for r in self.db.query(
                    f"select {LIST_COLUMNS} from games where {where} order by {order} limit ? offset ?",
                    [limit, offset],
                )
            ]
        return rows, int(total)

    def _append(self, game_id: str, version: int, kind: str, payload: dict[str, Any], stamp: str) -> None:
        """Log one event (inside a write)."""
        self.db.execute(
            "insert into events (game_id, version, kind, payload, created) values (?, ?, ?, ?, ?)",
            [game_id, version, kind, json.dumps(payload, ensure_ascii=False), stamp],
        )
