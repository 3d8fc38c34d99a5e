"""Open stores of one database, lent to one request at a time."""

from __future__ import annotations

import threading

from referee.store.cache import MatchCache
from referee.store.games import Store


class StorePool:
    """Open stores of one database, reused request after request: opening a connection
    and setting its pragmas cost more than the rest of a logged play. While one stays
    open, SQLite also keeps the WAL file instead of checkpointing and deleting it."""

    def __init__(self, path: str, cache: MatchCache | None = None, keep: int = 16) -> None:
        self.path, self.cache, self.keep = path, cache, keep
        self._lock = threading.Lock()
        self._idle: list[Store] = []

    def acquire(self) -> Store:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return Store(self.path, cache=self.cache)

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
