"""Games on SQLite: an append-only event log (the truth) and a snapshot (a cache).

Every accepted change is one transaction that appends its event and rewrites the game's
snapshot, so a request costs the same after 500 actions as after 5, and a crash loses at
most the request in flight. The snapshot is rebuilt from the events whenever it cannot be
read (an older format, a damaged row), so it never decides anything on its own.
"""
from __future__ import annotations

import copyreg
import dataclasses
import io
import json
import os
import pickle
import queue
import secrets
import sqlite3
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.match import GameConfig, Match
from referee.rules.base import Action
from referee.tiles import Tile

SNAPSHOT_FORMAT = 2  # bump when Match's pickled shape changes: old snapshots are rebuilt


# ----- the snapshot's pickle --------------------------------------------------------------
# A snapshot is a standard pickle of the Match, written with two shortcuts that make it
# about 1.5x faster to read and write (docs/BENCHMARKS.md): tiles are rebuilt by
# ``_tile`` (one dict look-up of an interned, immutable tile instead of ``Tile.__init__``'s
# checks) and frozen slots dataclasses (actions, round records, setups …) by ``_restore``
# (the fields set directly, as dataclasses' own ``__setstate__`` does, without its
# per-object ``fields()`` call). The objects read back are equal to the ones written.

_TILES: dict[tuple[int, int], Tile] = {}
_SLOT_FIELDS: dict[type, tuple[str, ...]] = {}


def _tile(low: int, high: int) -> Tile:
    tile = _TILES.get((low, high))
    if tile is None:
        tile = _TILES.setdefault((low, high), Tile(low, high))
    return tile


def _restore(cls: type, values: tuple) -> Any:
    obj = object.__new__(cls)
    names = _SLOT_FIELDS.get(cls) or _slot_fields(cls)
    for name, value in zip(names, values):
        object.__setattr__(obj, name, value)
    return obj


def _slot_fields(cls: type) -> tuple[str, ...]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    _SLOT_FIELDS[cls] = names
    return names


def _reduce_tile(tile: Tile) -> tuple:
    return _tile, (tile.low, tile.high)


def _default_reduce(obj: Any) -> Any:
    return obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


class _Reducers(dict):
    """The pickler's dispatch table, filled per class on first sight."""

    def __missing__(self, cls: type) -> Callable[[Any], Any]:
        reducer: Callable[[Any], Any] = _default_reduce
        getstate = getattr(cls, "__getstate__", None)
        if (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__
                and getattr(getstate, "__qualname__", "") == "_dataclass_getstate"
                and "__reduce__" not in cls.__dict__ and "__reduce_ex__" not in cls.__dict__):
            names = _slot_fields(cls)

            def reducer(obj: Any, names: tuple[str, ...] = names) -> tuple:
                return _restore, (type(obj), tuple([getattr(obj, name) for name in names]))
        self[cls] = reducer
        return reducer


_REDUCERS = _Reducers(copyreg.dispatch_table)
_REDUCERS[Tile] = _reduce_tile


def snapshot_bytes(match: Match) -> bytes:
    """The pickled snapshot of ``match`` (read back with ``pickle.loads``)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(match)
    return out.getvalue()

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


# ----- one idle connection kept open per database file -----------------------------------
# Each request opens its own Store and closes it at the end. In WAL mode, the close of the
# last connection to a file checkpoints the WAL into the database and deletes it, and the
# next open makes a new one: about 0.7 ms of every logged play (docs/BENCHMARKS.md). An
# idle connection kept open per recently used file makes those closes ordinary; the WAL
# is then checkpointed by SQLite's automatic checkpoint (every 1000 pages) and when the
# process ends. It never reads or writes after joining, and holds no transaction open.

KEEPERS_MAX = 8
_KEEPERS: OrderedDict[str, tuple[sqlite3.Connection, tuple[int, int]]] = OrderedDict()
_KEEPERS_LOCK = threading.Lock()


def _file_id(path: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _drop_stale_keeper(path: str) -> None:
    """Close the keeper of ``path`` if the file there is no longer the one it holds."""
    key = os.path.abspath(path)
    with _KEEPERS_LOCK:
        entry = _KEEPERS.get(key)
        if entry is None or entry[1] == _file_id(key):
            return
        del _KEEPERS[key]
    entry[0].close()


def _keep_open(path: str) -> None:
    if KEEPERS_MAX <= 0:
        return
    key = os.path.abspath(path)
    with _KEEPERS_LOCK:
        if key in _KEEPERS:
            _KEEPERS.move_to_end(key)
            return
    file_id = _file_id(key)
    if file_id is None:
        return
    conn = sqlite3.connect(key, timeout=30, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA schema_version").fetchall()  # joins the WAL's shared memory
    except sqlite3.Error:
        conn.close()
        return
    evicted: list[sqlite3.Connection] = [conn]
    with _KEEPERS_LOCK:
        if key not in _KEEPERS:
            _KEEPERS[key] = (conn, file_id)
            evicted = []
            while len(_KEEPERS) > KEEPERS_MAX:
                evicted.append(_KEEPERS.popitem(last=False)[1][0])
    for old in evicted:
        old.close()


# ----- the next snapshot, read back ahead of time ---------------------------------------
# A logged play used to unpickle the game's snapshot inside its transaction (0.1-0.4 ms,
# more as the game grows). After each change, a background thread now reads the new
# snapshot back into a spare Match; the next change of that game takes the spare if, and
# only if, the snapshot in the row is byte for byte the one it was read from (otherwise it
# unpickles as before). A spare is handed out once and then belongs to that change alone.

SPARES_MAX = 64


class _Spares:
    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, str], tuple[bytes, Match]] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[tuple[str, str], bytes]] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None

    def take(self, key: tuple[str, str], snapshot: bytes) -> Match | None:
        with self._lock:
            entry = self._items.pop(key, None)
        if entry is not None and entry[0] == snapshot:
            return entry[1]
        return None

    def offer(self, key: tuple[str, str], snapshot: bytes) -> None:
        if SPARES_MAX <= 0:
            return
        if self._worker is None:
            with self._lock:
                if self._worker is None:
                    self._worker = threading.Thread(target=self._work, name="snapshot-spares", daemon=True)
                    self._worker.start()
        self._queue.put((key, snapshot))

    def _work(self) -> None:
        while True:
            key, snapshot = self._queue.get()
            try:
                match = pickle.loads(snapshot)
            except Exception:  # the change's own load will read it (or rebuild it) instead
                continue
            with self._lock:
                self._items[key] = (snapshot, match)
                self._items.move_to_end(key)
                while len(self._items) > SPARES_MAX:
                    self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_SPARES = _Spares()


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        on_disk = path not in ("", ":memory:") and not path.startswith("file:")
        if on_disk:
            _drop_stale_keeper(path)
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db = Database(conn)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL" if path == ":memory:" else "PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")
        self._spare_path = os.path.abspath(path) if on_disk else None
        if on_disk:
            _keep_open(path)

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

    def load(self, game_id: str, spare: bool = False) -> StoredGame:
        """The game as stored; ``spare`` (for ``change`` only) may take the spare Match
        read back ahead of time from this very snapshot."""
        row = self._row(game_id)
        match = None
        if row["snapshot_format"] == SNAPSHOT_FORMAT and row["snapshot"]:
            if spare and self._spare_path is not None:
                match = _SPARES.take((self._spare_path, game_id), row["snapshot"])
            try:
                match = match if match is not None else pickle.loads(row["snapshot"])
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
            game = self.load(game_id, spare=True)
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
        if self._spare_path is not None:
            _SPARES.offer((self._spare_path, game_id), snapshot)
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
