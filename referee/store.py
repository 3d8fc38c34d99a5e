"""Games on SQLite: an append-only event log (the truth) and a snapshot (a cache).

Every accepted change is one transaction that appends its event and rewrites the game's
snapshot, so a request costs the same after 500 actions as after 5, and a crash loses at
most the request in flight. The snapshot is rebuilt from the events whenever it cannot be
read (an older format, a damaged row), so it never decides anything on its own.
"""
from __future__ import annotations

import json
import pickle
import secrets
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.match import GameConfig, Match
from referee.rules.base import Action

SNAPSHOT_FORMAT = 2  # bump when Match's pickled shape changes: old snapshots are rebuilt


def snapshot_bytes(match: Match) -> bytes:
    """The snapshot of ``match``: a pickle, read back with ``pickle.loads``."""
    return pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)


migrations = Migrations("referee")


@migrations()
def m001_games_and_events(db: Database) -> None:
    db["games"].create({
        "id": str, "game": str, "mode": str, "players": str, "status": str, "created": str,
        "updated": str, "version": int, "snapshot": bytes, "snapshot_format": int,
    }, pk="id")
    db["events"].create({
        "id": int, "game_id": str, "version": int, "kind": str, "payload": str, "created": str,
    }, pk="id", foreign_keys=[("game_id", "games", "id")])
    db["events"].create_index(["game_id", "version"], unique=True)


@migrations()
def m002_table_pin(db: Database) -> None:
    db["games"].add_column("pin_hash", str)


class GameNotFound(LookupError):
    pass


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

    def state(self) -> dict[str, Any]:
        return {"id": self.id, **self.match.state(), "version": self.version, "created": self.created}


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def apply_event(match: Match, kind: str, payload: dict[str, Any]) -> None:
    """The one place where a logged change is applied: live requests and replays alike."""
    if kind == "action":
        match.apply(Action.from_json(payload))
    elif kind == "hands":
        match.enter_hands(payload["round"], {"hands": payload["hands"]})
    else:
        raise ValueError(f"unknown event kind {kind!r}")


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db = Database(conn)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL" if path == ":memory:" else "PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")

    def migrate(self) -> None:
        migrations.apply(self.db)

    def close(self) -> None:
        self.db.conn.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        """One write transaction, taken before reading so concurrent writers queue up."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # ----- reading -------------------------------------------------------------------------

    def _row(self, game_id: str) -> dict[str, Any]:
        rows = list(self.db.query("select * from games where id = ?", [game_id]))
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    def load(self, game_id: str) -> StoredGame:
        row = self._row(game_id)
        match = None
        if row["snapshot_format"] == SNAPSHOT_FORMAT and row["snapshot"]:
            try:
                match = pickle.loads(row["snapshot"])
            except Exception:  # a damaged or outdated snapshot is only a cache: rebuild it
                match = None
        if match is None:
            match = self.replay(game_id)
        return StoredGame(row["id"], row["created"], row["version"], match, row.get("pin_hash"))

    def events(self, game_id: str) -> list[Event]:
        self._row(game_id)
        return [Event(r["version"], r["kind"], json.loads(r["payload"]), r["created"])
                for r in self.db.query(
                    "select version, kind, payload, created from events where game_id = ? order by version",
                    [game_id])]

    def replay(self, game_id: str) -> Match:
        """The game rebuilt from its log alone: what the snapshot must always equal."""
        events = self.events(game_id)
        match = Match(GameConfig.from_json(events[0].payload))
        for event in events[1:]:
            apply_event(match, event.kind, event.payload)
        return match

    def list_games(self) -> list[dict[str, Any]]:
        return [
            {"id": r["id"], "game": r["game"], "players": json.loads(r["players"]),
             "status": r["status"], "created": r["created"], "updated": r["updated"],
             "version": r["version"], "mode": r["mode"]}
            for r in self.db.query(
                "select id, game, mode, players, status, created, updated, version from games "
                "order by updated desc, created desc")
        ]

    # ----- writing -------------------------------------------------------------------------

    def create(self, config: GameConfig, pin_hash: str | None = None,
               game_id: str | None = None, created: str | None = None) -> StoredGame:
        match = Match(config)
        game_id = game_id or secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")
        stamp = created or now()
        with self.write():
            self.db["games"].insert({
                "id": game_id, "game": config.game, "mode": config.mode,
                "players": json.dumps(list(config.players), ensure_ascii=False),
                "status": "playing", "created": stamp, "updated": stamp, "version": 1,
                "snapshot": snapshot_bytes(match),
                "snapshot_format": SNAPSHOT_FORMAT, "pin_hash": pin_hash,
            })
            self._append(game_id, 1, "create", config.to_json(), stamp)
        return StoredGame(game_id, stamp, 1, match, pin_hash)

    def change(self, game_id: str, kind: str, payload: dict[str, Any],
               expected_version: int | None = None,
               guard: Callable[[StoredGame], None] | None = None,
               stamp: str | None = None) -> StoredGame:
        """Apply one change (an action or a hands entry) and log it, all or nothing.

        ``stamp`` is the event's time when it is not now (a backup being imported)."""
        with self.write():
            game = self.load(game_id)
            if guard is not None:
                guard(game)
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(expected_version, game.version)
            apply_event(game.match, kind, payload)
            game.version += 1
            stamp = stamp or now()
            self._append(game_id, game.version, kind, payload, stamp)
            snapshot = snapshot_bytes(game.match)
            self.db.execute(
                "update games set version = ?, status = ?, updated = ?, snapshot = ?, "
                "snapshot_format = ? where id = ?",
                [game.version, "finished" if game.match.finished else "playing", stamp,
                 snapshot, SNAPSHOT_FORMAT, game_id])
        return game

    def set_pin(self, game_id: str, pin_hash: str | None) -> None:
        with self.write():
            self._row(game_id)
            self.db.execute("update games set pin_hash = ? where id = ?", [pin_hash, game_id])

    def delete(self, game_id: str) -> None:
        with self.write():
            self._row(game_id)
            self.db.execute("delete from events where game_id = ?", [game_id])
            self.db.execute("delete from games where id = ?", [game_id])

    def _append(self, game_id: str, version: int, kind: str, payload: dict[str, Any], stamp: str) -> None:
        self.db.execute(
            "insert into events (game_id, version, kind, payload, created) values (?, ?, ?, ?, ?)",
            [game_id, version, kind, json.dumps(payload, ensure_ascii=False), stamp])
