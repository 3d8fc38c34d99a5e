"""Games on SQLite: an append-only event log (the truth), snapshots and a cache.

Every accepted change is one transaction that appends its event, and it is on the disk
before it is answered (``synchronous=FULL``), so neither a crash nor a power cut loses a
change that was answered. Reading a game never replays its whole history: a pickled
snapshot is written every ``SNAPSHOT_EVERY`` events (and when the game ends), so loading
replays at most that many events after it; and the app keeps the newest ``Match`` of
recently used games in memory (``MatchCache``), so the usual request neither unpickles nor
replays. A snapshot that cannot be read (an older format, a damaged row) or does not fit
(its header names another game or version, its event fingerprint or checksum differs, the
later events do not apply to it) is rebuilt from the events, so neither snapshot nor cache
ever decides anything on its own. A game whose log itself cannot be replayed raises
``GameUnreadable``.

One module per concern, each importing only those above it:

- ``snapshots``: the snapshot's format, header and pickle;
- ``cache``: ``MatchCache``, the newest matches kept between requests;
- ``connection``: a store's connection (its settings, transactions, borrowed matches),
  checkpoint and backup of the file;
- ``log``: reading a game from its row, snapshot and event log; ``apply_event``;
- ``players``: the players' lists kept with every write; ``pins``: wrong PINs and the
  app's settings; ``sent_hands``: hands sent from phones;
- ``nights``: club nights, their stages and their tables' games;
- ``migrations``: the recorded schema;
- ``games``: ``Store``, writing games (create, change, import, the trash);
- ``pool``: ``StorePool``, open stores lent to requests.
"""

from referee.store.cache import MatchCache
from referee.store.connection import backup_to, checkpoint
from referee.store.games import TRASH_DAYS, Store
from referee.store.log import (
    Event,
    GameNotFound,
    GameUnreadable,
    NightSeat,
    StoredGame,
    VersionConflict,
    apply_event,
    clock,
    now,
)
from referee.store.migrations import migrations
from referee.store.nights import NightNotFound, NightTable, StoredNight
from referee.store.players import PLAYER_GAME_COLUMNS, PLAYER_TOTAL_SUMS
from referee.store.pool import StorePool
from referee.store.snapshots import (
    SNAPSHOT_EVERY,
    SNAPSHOT_FORMAT,
    SNAPSHOT_MAGIC,
    event_digest,
    read_snapshot,
    snapshot_bytes,
)

__all__ = [
    "PLAYER_GAME_COLUMNS",
    "PLAYER_TOTAL_SUMS",
    "SNAPSHOT_EVERY",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_MAGIC",
    "TRASH_DAYS",
    "Event",
    "GameNotFound",
    "GameUnreadable",
    "MatchCache",
    "NightNotFound",
    "NightSeat",
    "NightTable",
    "Store",
    "StorePool",
    "StoredGame",
    "StoredNight",
    "VersionConflict",
    "apply_event",
    "backup_to",
    "checkpoint",
    "clock",
    "event_digest",
    "migrations",
    "now",
    "read_snapshot",
    "snapshot_bytes",
]
