"""The newest ``Match`` of recently used games, kept in memory between requests."""

from __future__ import annotations

import threading
from collections import OrderedDict

from referee.match import Match


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
