"""Games on SQLite: an append-only event log (the truth), snapshots and a cache.

Every accepted change is one transaction that appends its event, so a crash loses at most
the request in flight. Reading a game never replays its whole history: a pickled snapshot
is written every ``SNAPSHOT_EVERY`` events (and when the game ends), so loading replays at
most that many events after it; and the app keeps the newest ``Match`` of recently used
games in memory (``MatchCache``), so the usual request neither unpickles nor replays. A
snapshot that cannot be read (an older format, a damaged row) or does not fit (its header
names another game or version, its event fingerprint or checksum differs, the later events
do not apply to it) is rebuilt from the events, so neither snapshot nor cache ever decides
anything on its own. A game whose log itself cannot be replayed raises ``GameUnreadable``.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.match import GameConfig, Match
from referee.rules.base import Action
from referee.stats import PlayerGame, player_games, summarize

SNAPSHOT_FORMAT = 5  # bump when Match's pickled shape changes: old snapshots are rebuilt
SNAPSHOT_EVERY = 32  # events between snapshots: the most a cold load replays
SNAPSHOT_MAGIC = b"referee-snapshot\n"


def event_digest(kind: str, payload: Any, created: str) -> str:
    """The fingerprint of one logged event, as a snapshot made after it records it."""
    text = json.dumps([kind, payload, created], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def snapshot_bytes(match: Match, game_id: str, version: int, last_event: str) -> bytes:
    """The snapshot of ``match``: a header saying what it belongs to (the game, the version,
    the fingerprint of the event at that version, a checksum of the pickle), then the pickle.
    ``read_snapshot`` believes it only when all of them fit."""
    body = pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)
    header = {
        "game": game_id,
        "version": version,
        "event": last_event,
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    return SNAPSHOT_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + body


def read_snapshot(blob: bytes, game_id: str, version: int, last_event: str | None) -> Match | None:
    """The match in ``blob`` when it is this game's snapshot at ``version`` (made after the
    event whose fingerprint is ``last_event``) and undamaged; otherwise None."""
    if not blob.startswith(SNAPSHOT_MAGIC):
        return None
    head, _, body = blob[len(SNAPSHOT_MAGIC) :].partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        return None
    if (
        not isinstance(header, dict)
        or header.get("game") != game_id
        or header.get("version") != version
        or header.get("event") != last_event
        or header.get("sha256") != hashlib.sha256(body).hexdigest()
    ):
        return None
    match = pickle.loads(body)
    return match if isinstance(match, Match) else None


migrations = Migrations("referee")


@migrations()
def m001_games_and_events(db: Database) -> None:
    db.table("games").create(
        {
            "id": str,
            "game": str,
            "mode": str,
            "players": str,
            "status": str,
            "created": str,
            "updated": str,
            "version": int,
            "snapshot": bytes,
            "snapshot_format": int,
        },
        pk="id",
    )
    db.table("events").create(
        {
            "id": int,
            "game_id": str,
            "version": int,
            "kind": str,
            "payload": str,
            "created": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("events").create_index(["game_id", "version"], unique=True)


@migrations()
def m002_table_pin(db: Database) -> None:
    db.table("games").add_column("pin_hash", str)


@migrations()
def m003_snapshot_version(db: Database) -> None:
    # Until now every change rewrote the snapshot, so each one is at its game's version.
    db.table("games").add_column("snapshot_version", int)
    db.execute("update games set snapshot_version = version")


@migrations()
def m004_pin_failures(db: Database) -> None:
    # Wrong table PINs, so the guessing limit holds across restarts and processes.
    db.table("pin_failures").create({"game_id": str, "at": float})
    db.table("pin_failures").create_index(["game_id", "at"])


def checkpoint(path: str) -> None:
    """Fold the write-ahead log into the database file and empty it (a clean shutdown)."""
    if path == ":memory:":
        return
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def backup_to(path: str, target: str) -> None:
    """A consistent copy of the whole database in one file, taken while the app runs
    (SQLite's online backup API): no ``-wal`` file is needed beside it."""
    source = sqlite3.connect(path, timeout=30)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()


@migrations()
def m005_changed_here(db: Database) -> None:
    # When the game was last changed by this server, by its own clock: the lists' order.
    # (``updated`` may come from an imported backup, whose clock is not ours.)
    db.table("games").add_column("changed", str)
    db.execute("update games set changed = min(coalesce(updated, created), ?)", [now()])
    db.table("games").create_index(["status", "changed"])


@migrations()
def m006_trash(db: Database) -> None:
    # A deleted game waits in the trash (``trashed`` = when) for TRASH_DAYS, then is purged.
    db.table("games").add_column("trashed", str)
    db.table("games").create_index(["trashed"])


@migrations()
def m007_settings(db: Database) -> None:
    # The app's own settings (the owner PIN's hash).
    db.table("settings").create({"key": str, "value": str}, pk="key")


@migrations()
def m008_pin_failure_clients(db: Database) -> None:
    # Wrong PINs are counted per client (its address, and its browser session), so a guesser
    # elsewhere cannot lock the rightful players out of their own game.
    db.table("pin_failures").add_column("client", str)
    db.table("pin_failures").add_column("session", str)
    db.table("pin_failures").create_index(["game_id", "client", "at"])


TRASH_DAYS = 30
LIST_COLUMNS = "id, game, mode, players, status, created, updated, version, pin_hash, changed, trashed"


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


@migrations()
def m010_sent_hands(db: Database) -> None:
    # Hands sent from the players' phones for the tablet to review: never booked by
    # themselves (the person at the tablet saves the round with the usual hands entry).
    db.table("sent_hands").create(
        {"game_id": str, "round": int, "player": str, "tiles": str, "sent": float},
        pk=("game_id", "round", "player"),
    )
    db.table("hand_sends").create({"game_id": str, "at": float})  # every send, for the rate limit
    db.table("hand_sends").create_index(["game_id", "at"])


PLAYER_GAME_COLUMNS = tuple(PlayerGame.__dataclass_fields__)
PLAYER_TOTAL_SUMS = ("games", "finished", "wins", "rounds", "round_points", "goat", "rating_points")


@migrations()
def m011_player_lists(db: Database) -> None:
    # What the players' lists add up, kept with every write of a game (in its transaction),
    # so that /players and the leaderboards read a few rows, even on a cold start with
    # 20,000 games: ``player_games`` has one row per player of every game not in the trash,
    # ``player_totals`` their sums per player, for all games (scope '') and per kind of game.
    # ``games.summary_version`` is the version those rows were made at; ``games.unreadable``
    # says why a game whose log cannot be replayed is left out of the lists.
    db.table("player_games").create(
        {
            "game_id": str,
            "key": str,
            "name": str,
            "game": str,
            "created": str,
            "finished": int,
            "won": int,
            "total": int,
            "place": int,
            "rounds": int,
            "round_points": int,
            "best": int,
            "best_round": int,
            "worst": int,
            "worst_round": int,
            "goat": int,
            "rating": int,
        },
        pk=("game_id", "key"),
    )
    for scope in ((), ("game",)):
        cols = ", ".join(("key", *scope))
        db.execute(f"create index player_games_last_{len(scope)} on player_games ({cols}, created, game_id)")
        db.execute(
            f"create index player_games_best_{len(scope)} on player_games ({cols}, best, created desc, game_id desc)"
        )
        db.execute(
            f"create index player_games_worst_{len(scope)} on player_games ({cols}, worst, created, game_id)"
        )
    db.table("player_totals").create(
        {
            "scope": str,
            "key": str,
            **dict.fromkeys(PLAYER_TOTAL_SUMS, int),
            "name": str,
            "last_played": str,
            "best": int,
            "best_game_id": str,
            "best_game": str,
            "best_round": int,
            "worst": int,
            "worst_game_id": str,
            "worst_game": str,
            "worst_round": int,
        },
        pk=("scope", "key"),
    )
    db.table("games").add_column("summary_version", int)
    db.table("games").add_column("unreadable", str)
    # Both lists of exceptions are read on every request of the lists: partial indexes keep
    # them to the few games concerned (none, usually) instead of a scan of every game.
    db.execute("create index games_unsummarized on games (id) where summary_version is not version")
    db.execute("create index games_unreadable on games (id) where unreadable is not null")
    store = Store.inside(db)  # the rows of the games already stored, in this transaction
    for (game_id,) in db.execute("select id from games where trashed is null").fetchall():
        store.summarize_game(game_id)


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

    def state(self) -> dict[str, Any]:
        return {"id": self.id, **self.match.state(), "version": self.version, "created": self.created}


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


def _summed(match: Match) -> tuple[object, ...]:
    """What the players' lists read of ``match`` (its standing, which the match makes anew
    whenever a round is booked, changed or undone; its rounds; who left), held as the objects
    themselves: when none is replaced by a change, the game's rows of the lists stay as they
    are (a play in the middle of a round), and nothing is summarized."""
    rounds = match.rounds
    return (match.standing, rounds, len(rounds), rounds[-1] if rounds else None, match.left)


class MatchCache:
    """The newest ``Match`` of recently used games, kept by the app between requests.

    A match is lent to one ``Store`` (one request) at a time and given back when that
    store closes, so no two threads ever touch the same object, and a change can apply
    itself to the lent match in place. Entries are checked against the game's version
    (and creation time) read from the database, so a game changed by another process is
    only a miss.
    """

    def __init__(self, capacity: int = 64) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[tuple[int, str], Match]] = OrderedDict()

    def lend(self, game_id: str, key: tuple[int, str]) -> Match | None:
        with self._lock:
            entry = self._entries.pop(game_id, None)
        return entry[1] if entry is not None and entry[0] == key else None

    def give_back(self, game_id: str, key: tuple[int, str], match: Match) -> None:
        with self._lock:
            held = self._entries.get(game_id)
            if held is not None and held[0][1] == key[1] and held[0][0] >= key[0]:
                return  # a newer version came back first
            self._entries[game_id] = (key, match)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._entries.pop(game_id, None)


class WalSyncer:
    """Makes every commit durable against a power cut within ``delay`` seconds.

    Connections commit with ``synchronous=NORMAL``: in WAL mode a commit is safe from a
    crash of the app (and of a request) as soon as it returns, but only reaches the disk
    at the next checkpoint. Syncing the WAL file once per commit (``synchronous=FULL``)
    costs a third of a logged play; instead this thread syncs it shortly after commits,
    once for all the commits of that moment, the way databases offer asynchronous commit.
    At a table, where a turn takes seconds, the window is never in play.
    """

    def __init__(self, path: str, delay: float = 0.1, idle: float = 10.0) -> None:
        self.wal_path, self.delay, self.idle = path + "-wal", delay, idle
        self._due = threading.Event()
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.synced = 0  # how many syncs have run (for the tests)

    def nudge(self) -> None:
        """A commit happened: sync within ``delay``."""
        if self._closed.is_set():  # a store outlived its pool: no thread to wait for
            self.sync()
            return
        self._due.set()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="referee-wal-sync", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Sync what is pending now and stop the thread, so a shutdown loses nothing."""
        self._closed.set()
        self._due.set()  # wake the thread if it waits for commits
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            if not self._due.wait(timeout=self.idle):
                with self._lock:  # nothing to do for a while: stop, unless a commit just came
                    if not self._due.is_set():
                        self._thread = None
                        return
                continue
            self._closed.wait(self.delay)  # gather the commits of this moment into one sync
            self._due.clear()
            self.sync()
            if self._closed.is_set():
                with self._lock:
                    self._thread = None
                return

    def sync(self) -> None:
        try:
            fd = os.open(self.wal_path, os.O_RDONLY)
        except FileNotFoundError:  # checkpointed and removed: already in the database file
            return
        try:
            os.fsync(fd)  # flushes the file's pages, whichever connection wrote them
        finally:
            os.close(fd)
        self.synced += 1


class StorePool:
    """Open stores of one database, reused request after request: opening a connection
    and setting its pragmas cost more than the rest of a logged play. While one stays
    open, SQLite also keeps the WAL file instead of checkpointing and deleting it."""

    def __init__(self, path: str, cache: MatchCache | None = None, keep: int = 16) -> None:
        self.path, self.cache, self.keep = path, cache, keep
        self.syncer = WalSyncer(path) if path != ":memory:" else None
        self._lock = threading.Lock()
        self._idle: list[Store] = []

    def acquire(self) -> Store:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return Store(self.path, cache=self.cache, syncer=self.syncer)

    def release(self, store: Store) -> None:
        store.give_back()
        if store.db.conn.in_transaction:  # cannot happen through Store.write; never reuse one
            store.close()
            return
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(store)
                return
        store.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for store in idle:
            store.close()
        if self.syncer is not None:
            self.syncer.close()


class Store:
    """The games of one database file, used by one request (or one script) at a time."""

    def __init__(self, path: str, cache: MatchCache | None = None, syncer: WalSyncer | None = None) -> None:
        self.path = path
        self.cache = cache
        self.syncer = syncer
        self._lent: dict[str, tuple[tuple[int, str], Match]] = {}
        self._writing = False
        self._written: set[str] = set()  # games a step of the open write transaction changed
        self._found_unreadable: dict[str, str] = {}  # games this store could not load: why
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db = Database(conn)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Without a syncer (scripts, tests) every commit is synced; with one, see WalSyncer.
        self.db.execute(
            "PRAGMA synchronous=NORMAL" if syncer or path == ":memory:" else "PRAGMA synchronous=FULL"
        )
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")

    @classmethod
    def inside(cls, db: Database) -> Store:
        """A store on a connection already inside a write transaction (a migration): its
        reads and writes join that transaction."""
        store = cls.__new__(cls)
        store.path, store.cache, store.syncer, store.db = "", None, None, db
        store._lent, store._writing, store._written, store._found_unreadable = {}, True, set(), {}
        return store

    def migrate(self) -> None:
        migrations.apply(self.db)

    def give_back(self) -> None:
        """Return the matches this store borrowed to the cache (its request is over), and
        leave the games it found unreadable out of the players' lists."""
        if self.cache is not None:
            for game_id, (key, match) in self._lent.items():
                self.cache.give_back(game_id, key, match)
        self._lent.clear()
        found, self._found_unreadable = self._found_unreadable, {}
        if found and not self.db.conn.in_transaction:
            try:
                with self.write():
                    for game_id, reason in found.items():
                        self._leave_out(game_id, reason)
            except sqlite3.Error:  # (a full disk): found again at the next load
                pass

    def close(self) -> None:
        self.give_back()
        self.db.conn.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        """One write transaction, taken before reading so concurrent writers queue up.

        Nested uses join the outermost one, so a write of many steps (an import of many
        games) is all or nothing: only the outermost commits or rolls back."""
        conn = self.db.conn
        if self._writing:
            yield
            return
        conn.execute("BEGIN IMMEDIATE")
        self._writing = True
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # (a failed COMMIT may have rolled back already)
                conn.execute("ROLLBACK")
            for game_id in self._written:  # changed by steps that were rolled back with the rest
                self._lent.pop(game_id, None)
            raise
        finally:
            self._writing = False
            self._written.clear()
        if self.syncer is not None:
            self.syncer.nudge()

    @contextmanager
    def read(self) -> Iterator[None]:
        """One read transaction, so that a game's row, its snapshot and the events after it
        are of one moment even while another connection writes (WAL readers see the
        database as it was at their first read)."""
        conn = self.db.conn
        if conn.in_transaction:  # inside write(): already one moment
            yield
            return
        conn.execute("BEGIN")
        try:
            yield
        finally:
            conn.execute("COMMIT")  # read only: nothing to keep or undo

    # ----- reading -------------------------------------------------------------------------

    def _row(self, game_id: str, trashed: bool = False) -> dict[str, Any]:
        """The game's row; a game in the trash is not found unless ``trashed``."""
        rows = list(
            self.db.query(
                "select id, created, version, pin_hash, snapshot_version, trashed, summary_version "
                "from games where id = ?",
                [game_id],
            )
        )
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
        return StoredGame(row["id"], row["created"], row["version"], match, row["pin_hash"])

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
        or last thrown away, first) and how many there are in all."""
        where, order = {
            "playing": ("trashed is null and status = 'playing'", "changed desc, id"),
            "finished": ("trashed is null and status = 'finished'", "changed desc, id"),
            "trash": ("trashed is not null", "trashed desc, id"),
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

    # ----- writing -------------------------------------------------------------------------

    def create(
        self,
        config: GameConfig,
        pin_hash: str | None = None,
        game_id: str | None = None,
        created: str | None = None,
    ) -> StoredGame:
        match = Match(config)
        game_id = game_id or secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")
        stamp = created or now()
        with self.write():
            self.db.table("games").insert(
                {
                    "id": game_id,
                    "game": config.game,
                    "mode": config.mode,
                    "players": json.dumps(list(config.players), ensure_ascii=False),
                    "status": "playing",
                    "created": stamp,
                    "updated": stamp,
                    "version": 1,
                    "snapshot": snapshot_bytes(
                        match, game_id, 1, event_digest("create", config.to_json(), stamp)
                    ),
                    "snapshot_format": SNAPSHOT_FORMAT,
                    "pin_hash": pin_hash,
                    "snapshot_version": 1,
                    "changed": clock(),
                    "summary_version": 1,
                }
            )
            self._append(game_id, 1, "create", config.to_json(), stamp)
            self._replace_player_games(game_id, player_games(summarize(game_id, stamp, match)))
        self._keep_lent(game_id, (1, stamp), match)
        return StoredGame(game_id, stamp, 1, match, pin_hash)

    def change(
        self,
        game_id: str,
        kind: str,
        payload: dict[str, Any],
        expected_version: int | None = None,
        guard: Callable[[StoredGame], None] | None = None,
        stamp: str | None = None,
    ) -> StoredGame:
        """Apply one change (an action or a hands entry) and log it, all or nothing.

        ``stamp`` is the event's time when it is not now (a backup being imported)."""
        with self.write():
            row = self._row(game_id)
            game = self._load(row)
            if guard is not None:
                guard(game)
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(expected_version, game.version)
            # From here the lent match is changed in place: if anything below fails, it is
            # dropped (the next load rebuilds it), never given back half-changed.
            del self._lent[game_id]
            before = _summed(game.match)
            apply_event(game.match, kind, payload)
            game.version += 1
            stamp = stamp or now()
            self._append(game_id, game.version, kind, payload, stamp)
            after = _summed(game.match)
            if row["summary_version"] != row["version"] or any(
                a is not b for a, b in zip(before, after, strict=True)
            ):
                self._replace_player_games(
                    game_id, player_games(summarize(game_id, game.created, game.match))
                )
            finished = game.match.finished
            if finished or game.version - row["snapshot_version"] >= SNAPSHOT_EVERY:
                self.db.execute(
                    "update games set version = ?, status = ?, updated = ?, snapshot = ?, "
                    "snapshot_format = ?, snapshot_version = ?, changed = ?, summary_version = version + 1 "
                    "where id = ?",
                    [
                        game.version,
                        "finished" if finished else "playing",
                        stamp,
                        snapshot_bytes(game.match, game_id, game.version, event_digest(kind, payload, stamp)),
                        SNAPSHOT_FORMAT,
                        game.version,
                        clock(),
                        game_id,
                    ],
                )
            else:
                self.db.execute(
                    "update games set version = ?, status = ?, updated = ?, changed = ?, "
                    "summary_version = version + 1 where id = ?",
                    [game.version, "playing", stamp, clock(), game_id],
                )
        self._keep_lent(game_id, (game.version, game.created), game.match)
        return game

    @staticmethod
    def replayed_rows(
        game_id: str,
        match: Match,
        events: list[dict[str, Any]],
        pin_hash: str | None = None,
        created: str | None = None,
    ) -> tuple[list[Any], list[tuple[Any, ...]], list[PlayerGame]]:
        """A whole game's rows, made before any lock is taken: its ``games`` row (the state
        of ``match``, its log already replayed), its ``events`` rows (``events``: version,
        kind, payload, created; the first one its ``create``) and its players' rows of the
        lists. See ``insert_replayed``."""
        version = len(events)
        moment = now()
        stamp = created or events[0]["created"] or moment
        last = events[-1]
        last_created = last["created"] or (stamp if last["version"] == 1 else moment)
        game_row = [
            game_id,
            match.config.game,
            match.config.mode,
            json.dumps(list(match.config.players), ensure_ascii=False),
            "finished" if match.finished else "playing",
            stamp,
            events[-1]["created"] or moment,
            version,
            snapshot_bytes(
                match, game_id, version, event_digest(last["kind"], last["payload"], last_created)
            ),
            SNAPSHOT_FORMAT,
            pin_hash,
            version,
        ]
        event_rows = [
            (
                game_id,
                e["version"],
                e["kind"],
                json.dumps(e["payload"], ensure_ascii=False),
                e["created"] or (stamp if e["version"] == 1 else moment),
            )
            for e in events
        ]
        return game_row, event_rows, player_games(summarize(game_id, stamp, match))

    def insert_replayed(self, games: list[tuple[list[Any], list[tuple[Any, ...]], list[PlayerGame]]]) -> None:
        """Store whole games (``replayed_rows``) in one transaction: one insert per table,
        not one change per event, so that an import holds the write lock for the inserts
        alone."""
        with self.write():
            changed = clock()
            self.db.conn.executemany(
                "insert into games (id, game, mode, players, status, created, updated, version, "
                "snapshot, snapshot_format, pin_hash, snapshot_version, changed, summary_version) "
                "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [[*row, changed, row[7]] for row, _events, _players in games],
            )
            self.db.conn.executemany(
                "insert into events (game_id, version, kind, payload, created) values (?, ?, ?, ?, ?)",
                [event for _row, events, _players in games for event in events],
            )
            rows = [player for _row, _events, players in games for player in players]
            self._insert_player_games(rows)
            self._add_to_totals([(None, player) for player in rows])

    def _keep_lent(self, game_id: str, key: tuple[int, str], match: Match) -> None:
        """Keep the match a write just made, to give back to the cache; inside a larger
        write, note it, since a later step's failure rolls this one back too."""
        self._lent[game_id] = (key, match)
        if self._writing:
            self._written.add(game_id)

    def set_pin(
        self, game_id: str, pin_hash: str | None, guard: Callable[[StoredGame], None] | None = None
    ) -> None:
        """Set, change (``pin_hash``) or remove (None) the game's table PIN; ``guard`` checks
        the one who asks, inside the same transaction."""
        with self.write():
            game = self._load(self._row(game_id))
            if guard is not None:
                guard(game)
            self.db.execute("update games set pin_hash = ? where id = ?", [pin_hash, game_id])

    def trash(self, game_id: str, guard: Callable[[StoredGame], None] | None = None) -> None:
        """Move the game to the trash (restorable for ``TRASH_DAYS``)."""
        with self.write():
            game = self._load(self._row(game_id))
            if guard is not None:
                guard(game)
            self.db.execute("update games set trashed = ? where id = ?", [clock(), game_id])
            self._replace_player_games(game_id, [])
        self._forget(game_id)

    def restore(self, game_id: str) -> None:
        """Take the game out of the trash, as it was."""
        with self.write():
            if not self._row(game_id, trashed=True)["trashed"]:
                raise GameNotFound(game_id)
            self.db.execute("update games set trashed = null, changed = ? where id = ?", [clock(), game_id])
            self.summarize_game(game_id)

    def purge_trash(self, older_than: str | None = None) -> int:
        """Delete for ever the games in the trash (those thrown away before ``older_than``
        only, when given); returns how many."""
        with self.write():
            query = "select id from games where trashed is not null"
            args: list[Any] = []
            if older_than is not None:
                query += " and trashed < ?"
                args.append(older_than)
            ids = [r[0] for r in self.db.execute(query, args).fetchall()]
            for game_id in ids:
                self.delete(game_id)
        return len(ids)

    def _forget(self, game_id: str) -> None:
        self._lent.pop(game_id, None)
        if self.cache is not None:
            self.cache.forget(game_id)

    def setting(self, key: str) -> str | None:
        row = self.db.execute("select value from settings where key = ?", [key]).fetchone()
        return str(row[0]) if row else None

    def set_setting(self, key: str, value: str | None) -> None:
        with self.write():
            if value is None:
                self.db.execute("delete from settings where key = ?", [key])
            else:
                self.db.execute(
                    "insert into settings (key, value) values (?, ?) "
                    "on conflict(key) do update set value = excluded.value",
                    [key, value],
                )

    def delete(self, game_id: str) -> None:
        """Delete the game and its history for ever (in or out of the trash)."""
        with self.write():
            self._row(game_id, trashed=True)
            self.db.execute("delete from events where game_id = ?", [game_id])
            self.db.execute("delete from pin_failures where game_id = ?", [game_id])
            self.db.execute("delete from sent_hands where game_id = ?", [game_id])
            self.db.execute("delete from hand_sends where game_id = ?", [game_id])
            self._replace_player_games(game_id, [])
            self.db.execute("delete from games where id = ?", [game_id])
        self._lent.pop(game_id, None)
        if self.cache is not None:
            self.cache.forget(game_id)

    def pin_failures_since(
        self, game_id: str, since: float, client: str | None = None, session: str | None = None
    ) -> int:
        """Wrong table PINs given for ``game_id`` at ``since`` (seconds since the epoch) or
        later: all of them, or those of one client (its address, or its session)."""
        if client is None and session is None:
            query, args = "select count(*) from pin_failures where game_id = ? and at >= ?", [game_id, since]
        else:
            query = (
                "select count(*) from pin_failures where game_id = ? and at >= ? "
                "and (client = ? or (session is not null and session = ?))"
            )
            args = [game_id, since, client, session]
        return int(self.db.execute(query, args).fetchone()[0])

    def record_pin_failure(
        self,
        game_id: str,
        at: float,
        forget_before: float,
        client: str | None = None,
        session: str | None = None,
    ) -> None:
        """Note a wrong PIN; failures older than ``forget_before`` no longer matter."""
        with self.write():
            self.db.execute("delete from pin_failures where at < ?", [forget_before])
            self.db.execute(
                "insert into pin_failures (game_id, at, client, session) values (?, ?, ?, ?)",
                [game_id, at, client, session],
            )

    def reserve_pin_attempt(
        self, game_id: str, at: float, since: float, limit: int, client: str, session: str | None
    ) -> int | None:
        """Count this attempt as a failure in advance, in one transaction with the check of
        the limit, so concurrent attempts can never pass more than ``limit``: the row's id,
        or None when the client has no attempt left. ``forgive`` takes it back if right."""
        with self.write():
            self.db.execute("delete from pin_failures where at < ?", [since])
            if self.pin_failures_since(game_id, since, client, session) >= limit:
                return None
            cursor = self.db.execute(
                "insert into pin_failures (game_id, at, client, session) values (?, ?, ?, ?)",
                [game_id, at, client, session],
            )
            return int(cursor.lastrowid or 0)

    def forgive_pin_attempt(self, attempt: int) -> None:
        with self.write():
            self.db.execute("delete from pin_failures where rowid = ?", [attempt])

    # ----- hands sent from the players' phones (reviewed at the tablet, never booked here) -----

    def sent_since(self, game_id: str, since: float) -> int:
        """How many hands were sent for ``game_id`` at ``since`` (epoch seconds) or later."""
        count: int = self.db.execute(
            "select count(*) from hand_sends where game_id = ? and at >= ?", [game_id, since]
        ).fetchone()[0]
        return count

    def send_hand(self, game_id: str, number: int, player: str, tiles: list[str], at: float) -> None:
        """Keep ``player``'s hand for round ``number`` (a later one replaces it); the game
        itself is not changed. Sends older than an hour are forgotten by the rate limit."""
        with self.write():
            self._row(game_id)
            self.db.execute("delete from hand_sends where at < ?", [at - 3600])
            self.db.execute("insert into hand_sends (game_id, at) values (?, ?)", [game_id, at])
            self.db.execute(
                "insert or replace into sent_hands (game_id, round, player, tiles, sent) values (?, ?, ?, ?, ?)",
                [game_id, number, player, json.dumps(tiles, ensure_ascii=False), at],
            )

    def sent_hands(self, game_id: str, number: int) -> dict[str, list[str]]:
        """The hands sent for round ``number`` of ``game_id``, by player."""
        return {
            row["player"]: json.loads(row["tiles"])
            for row in self.db.query(
                "select player, tiles from sent_hands where game_id = ? and round = ? order by sent",
                [game_id, number],
            )
        }

    # ----- the players' lists (rows kept with every write of a game) -----------------------

    def summarize_game(self, game_id: str) -> None:
        """Make the game's rows of the players' lists again from the game itself (a game
        stored before they were kept, or restored from the trash); a game that cannot be
        read is left out of them, with the reason."""
        with self.write():
            row = self.db.execute("select trashed from games where id = ?", [game_id]).fetchone()
            if row is None or row[0]:
                return
            try:
                game = self._load(self._row(game_id))
            except GameUnreadable as error:
                self._found_unreadable.pop(game_id, None)
                self._leave_out(game_id, error.reason)
                return
            self._replace_player_games(game.id, player_games(summarize(game.id, game.created, game.match)))
            self.db.execute(
                "update games set summary_version = ?, unreadable = null where id = ?",
                [game.version, game.id],
            )

    def _leave_out(self, game_id: str, reason: str) -> None:
        """The game cannot be read: out of the lists (until it changes), with the reason."""
        if self.db.execute("select 1 from games where id = ?", [game_id]).fetchone() is None:
            return
        self._replace_player_games(game_id, [])
        self.db.execute(
            "update games set unreadable = ?, summary_version = version where id = ?", [reason, game_id]
        )

    def unsummarized(self) -> list[str]:
        """Games whose rows of the lists are behind them (none, unless written by hand)."""
        return [
            r[0]
            for r in self.db.execute(
                "select id from games indexed by games_unsummarized "
                "where summary_version is not version and trashed is null"
            ).fetchall()
        ]

    def unreadable_games(self) -> list[str]:
        """The games left out of the players' lists because they cannot be read."""
        return [
            r[0]
            for r in self.db.execute(
                "select id from games indexed by games_unreadable "
                "where unreadable is not null and trashed is null order by id"
            ).fetchall()
        ]

    def player_totals(self, scope: str = "") -> list[dict[str, Any]]:
        """Every player's sums over all games (``scope`` ''), or over one kind of game."""
        return list(self.db.query("select * from player_totals where scope = ?", [scope]))

    def player_totals_of(self, key: str) -> dict[str, dict[str, Any]]:
        """One player's sums, by scope ('' for all games)."""
        return {r["scope"]: r for r in self.db.query("select * from player_totals where key = ?", [key])}

    def player_history(self, key: str) -> list[dict[str, Any]]:
        """One player's rows, with the game's players (names in turn order, JSON)."""
        return list(
            self.db.query(
                "select p.*, g.players from player_games p join games g on g.id = p.game_id "
                "where p.key = ? order by p.created desc, p.game_id desc",
                [key],
            )
        )

    def opponents_of(self, key: str) -> list[tuple[str, str, int, int]]:
        """(the other's key, their name, my place, their place) for every other player of every
        finished game of the player ``key``; the name is the one their sums carry, so the
        player page need not read every player's sums to name a few opponents."""
        return [
            (r[0], r[1], r[2], r[3])
            for r in self.db.execute(
                "select other.key, coalesce(t.name, other.key), me.place, other.place "
                "from player_games me join player_games other "
                "on other.game_id = me.game_id and other.key != me.key "
                "left join player_totals t on t.scope = '' and t.key = other.key "
                "where me.key = ? and me.finished",
                [key],
            ).fetchall()
        ]

    def rebuild_player_totals(self) -> None:
        """The sums made again from every player row (after rows were copied by hand)."""
        with self.write():
            self.db.execute("delete from player_totals")
            self._add_to_totals(
                [
                    (None, PlayerGame(*r))
                    for r in self.db.execute(
                        f"select {', '.join(PLAYER_GAME_COLUMNS)} from player_games"
                    ).fetchall()
                ]
            )

    def _replace_player_games(self, game_id: str, rows: list[PlayerGame]) -> None:
        """Put ``rows`` (none: the game leaves the lists) in place of the game's rows, and
        bring the sums of the players concerned up to date. Inside a write."""
        old = {
            r[1]: PlayerGame(*r)
            for r in self.db.execute(
                f"select {', '.join(PLAYER_GAME_COLUMNS)} from player_games where game_id = ?", [game_id]
            ).fetchall()
        }
        new = {row.key: row for row in rows}
        if old == new:  # (a play in the middle of a round changes nothing here)
            return
        self.db.execute("delete from player_games where game_id = ?", [game_id])
        self._insert_player_games(rows)
        self._add_to_totals([(old.get(key), new.get(key)) for key in {*old, *new}])

    def _insert_player_games(self, rows: list[PlayerGame]) -> None:
        marks = ", ".join("?" for _ in PLAYER_GAME_COLUMNS)
        self.db.conn.executemany(
            f"insert into player_games ({', '.join(PLAYER_GAME_COLUMNS)}) values ({marks})",
            [tuple(getattr(row, name) for name in PLAYER_GAME_COLUMNS) for row in rows],
        )

    def _add_to_totals(self, changes: list[tuple[PlayerGame | None, PlayerGame | None]]) -> None:
        """Move the sums of each player and scope by (new row - old row), then take their
        name, last game, best and worst rounds from their rows (one index lookup each)."""

        def counts(row: PlayerGame | None) -> tuple[int, ...]:
            if row is None:
                return (0,) * len(PLAYER_TOTAL_SUMS)
            return (
                1,
                int(row.finished),
                int(row.won),
                row.rounds,
                row.round_points,
                int(row.goat),
                row.rating,
            )

        deltas: dict[tuple[str, str], list[int]] = {}
        for old, new in changes:
            some = new or old
            assert some is not None
            for scope in ("", some.game):
                delta = deltas.setdefault((scope, some.key), [0] * len(PLAYER_TOTAL_SUMS))
                for index, (before, after) in enumerate(zip(counts(old), counts(new), strict=True)):
                    delta[index] += after - before
        sums = ", ".join(PLAYER_TOTAL_SUMS)
        for (scope, key), delta in deltas.items():
            self.db.execute(
                f"insert into player_totals (scope, key, {sums}) values (?, ?, {', '.join('?' * len(delta))}) "
                "on conflict(scope, key) do update set "
                + ", ".join(f"{name} = {name} + excluded.{name}" for name in PLAYER_TOTAL_SUMS),
                [scope, key, *delta],
            )
            where, args = ("key = ? and game = ?", [key, scope]) if scope else ("key = ?", [key])
            last = self.db.execute(
                f"select name, created from player_games where {where} order by created desc, game_id desc limit 1",
                args,
            ).fetchone()
            if last is None:
                self.db.execute("delete from player_totals where scope = ? and key = ?", [scope, key])
                continue
            best = (
                self.db.execute(
                    f"select best, game_id, game, best_round from player_games where {where} and best is not null "
                    "order by best, created desc, game_id desc limit 1",
                    args,
                ).fetchone()
                or (None,) * 4
            )
            worst = (
                self.db.execute(
                    f"select worst, game_id, game, worst_round from player_games where {where} and worst is not null "
                    "order by worst desc, created desc, game_id desc limit 1",
                    args,
                ).fetchone()
                or (None,) * 4
            )
            self.db.execute(
                "update player_totals set name = ?, last_played = ?, best = ?, best_game_id = ?, best_game = ?, "
                "best_round = ?, worst = ?, worst_game_id = ?, worst_game = ?, worst_round = ? "
                "where scope = ? and key = ?",
                [*last, *best, *worst, scope, key],
            )

    def _append(self, game_id: str, version: int, kind: str, payload: dict[str, Any], stamp: str) -> None:
        self.db.execute(
            "insert into events (game_id, version, kind, payload, created) values (?, ?, ?, ?, ?)",
            [game_id, version, kind, json.dumps(payload, ensure_ascii=False), stamp],
        )
