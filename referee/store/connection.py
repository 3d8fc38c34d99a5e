"""A store's connection to its database file: its settings, its transactions, the matches
it has borrowed from the cache; and the file-level operations (checkpoint, backup)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Self

from sqlite_utils import Database

from referee.match import Match
from referee.store.cache import MatchCache


def connect(path: str) -> Database:
    """A connection with the store's settings. ``synchronous=FULL``: every commit reaches
    the disk before it returns, so a power cut loses nothing that was answered; it costs a
    fraction of a millisecond of a logged play (docs/BENCHMARKS.md, "Durability")."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=30000")
    return db


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


class Connection:
    """One open database, used by one request (or one script) at a time, and what that
    request holds: the matches lent to it by the cache (given back when it is over), the
    games changed by the write transaction in progress, the games it could not read."""

    def __init__(self, path: str, cache: MatchCache | None = None) -> None:
        self.path = path
        self.cache = cache
        self._lent: dict[str, tuple[tuple[int, str], Match]] = {}
        self._writing = False
        self._written: set[str] = set()  # games a step of the open write transaction changed
        self._found_unreadable: dict[str, str] = {}  # games this store could not load: why
        self._migrating = False  # inside a migration: the schema may be older than the code's
        self.db = connect(path)

    @classmethod
    def inside(cls, db: Database) -> Self:
        """A store on a connection already inside a write transaction (a migration): its
        reads and writes join that transaction."""
        store = cls.__new__(cls)
        store.path, store.cache, store.db = "", None, db
        store._lent, store._writing, store._written, store._found_unreadable = {}, True, set(), {}
        store._migrating = True
        return store

    def give_back(self) -> None:
        """Return the matches this store borrowed to the cache (its request is over)."""
        if self.cache is not None:
            for game_id, (key, match) in self._lent.items():
                self.cache.give_back(game_id, key, match)
        self._lent.clear()

    def give_back_game(self, game_id: str) -> None:
        """Return one borrowed match to the cache now, once the request has read what it
        shows of it (a page of many games: a club night's tables). Held until the request
        ends, it would be missing from the cache while the page renders, and a play on that
        game meanwhile would rebuild it from its snapshot. Inside a write it stays lent."""
        if self._writing or self.cache is None:
            return
        held = self._lent.pop(game_id, None)
        if held is not None:
            self.cache.give_back(game_id, held[0], held[1])

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

    def _keep_lent(self, game_id: str, key: tuple[int, str], match: Match) -> None:
        """Keep the match a write just made, to give back to the cache; inside a larger
        write, note it, since a later step's failure rolls this one back too."""
        self._lent[game_id] = (key, match)
        if self._writing:
            self._written.add(game_id)

    def _forget(self, game_id: str) -> None:
        """The game is gone (or in the trash): neither this store nor the cache keeps it."""
        self._lent.pop(game_id, None)
        if self.cache is not None:
            self.cache.forget(game_id)
