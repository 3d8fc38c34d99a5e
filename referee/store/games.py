"""Writing games: every accepted change is one transaction that appends its event to the
game's log, brings its row (and, every ``SNAPSHOT_EVERY`` events or when it ends, its
snapshot) and its players' rows up to date; and the trash, where a deleted game waits."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from referee.match import GameConfig, Match
from referee.stats import PlayerGame, player_games, summarize
from referee.store.log import GameNotFound, NightSeat, StoredGame, VersionConflict, apply_event, clock, now
from referee.store.migrations import migrations
from referee.store.nights import Nights, table_not_deleted
from referee.store.pins import Pins
from referee.store.players import PlayerLists, read_by_lists
from referee.store.sent_hands import SentHands
from referee.store.snapshots import SNAPSHOT_EVERY, SNAPSHOT_FORMAT, event_digest, snapshot_bytes

TRASH_DAYS = 30  # how long a deleted game can be restored before it is purged


class Store(PlayerLists, Pins, SentHands, Nights):
    """The games of one database file, used by one request (or one script) at a time."""

    def migrate(self) -> None:
        migrations.apply(self.db)

    def create(
        self,
        config: GameConfig,
        pin_hash: str | None = None,
        game_id: str | None = None,
        created: str | None = None,
        night: NightSeat | None = None,
    ) -> StoredGame:
        """A new game (``night``: a club night's table game, made by the night's write)."""
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
                    "night_id": night.night_id if night else None,
                    "night_stage": night.stage if night else None,
                    "night_table": night.table if night else None,
                }
            )
            self._append(game_id, 1, "create", config.to_json(), stamp)
            self._replace_player_games(game_id, player_games(summarize(game_id, stamp, match)))
        self._keep_lent(game_id, (1, stamp), match)
        return StoredGame(game_id, stamp, 1, match, pin_hash, night)

    def change(
        self,
        game_id: str,
        kind: str,
        payload: dict[str, Any],
        expected_version: int | None = None,
        guard: Callable[[StoredGame], None] | None = None,
        stamp: str | None = None,
        key: str | None = None,
    ) -> StoredGame:
        """Apply one change (an action or a hands entry) and log it, all or nothing.

        ``stamp`` is the event's time when it is not now (a backup being imported). A change
        whose ``key`` the game has already accepted changes nothing and gives the game as it
        is (API.md: a retry after a lost answer), whatever its version says."""
        with self.write():
            row = self._row(game_id)
            game = self._load(row)
            if guard is not None:
                guard(game)
            if (
                key is not None
                and self.db.execute(
                    "select 1 from change_keys where game_id = ? and key = ?", [game_id, key]
                ).fetchone()
            ):
                return game
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(expected_version, game.version)
            # From here the lent match is changed in place: if anything below fails, it is
            # dropped (the next load rebuilds it), never given back half-changed.
            del self._lent[game_id]
            before = read_by_lists(game.match)
            apply_event(game.match, kind, payload)
            game.version += 1
            stamp = stamp or now()
            self._append(game_id, game.version, kind, payload, stamp)
            if key is not None:
                self.db.execute(
                    "insert into change_keys (game_id, key, version) values (?, ?, ?)",
                    [game_id, key, game.version],
                )
            after = read_by_lists(game.match)
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
        """Move the game to the trash (restorable for ``TRASH_DAYS``); a club night's table
        game is refused (its night's stages and standing are made of its tables)."""
        with self.write():
            game = self._load(self._row(game_id))
            if guard is not None:
                guard(game)
            if game.night is not None:
                raise table_not_deleted(game.night)
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
            query = "select id from games where trashed is not null and night_id is null"
            args: list[Any] = []
            if older_than is not None:
                query += " and trashed < ?"
                args.append(older_than)
            ids = [r[0] for r in self.db.execute(query, args).fetchall()]
            for game_id in ids:
                self.delete(game_id)
        return len(ids)

    def delete(self, game_id: str) -> None:
        """Delete the game and its history for ever (in or out of the trash)."""
        with self.write():
            self._row(game_id, trashed=True)
            self.db.execute("delete from events where game_id = ?", [game_id])
            self.db.execute("delete from pin_failures where game_id = ?", [game_id])
            self.db.execute("delete from phone_hands where game_id = ?", [game_id])
            self.db.execute("delete from change_keys where game_id = ?", [game_id])
            self._replace_player_games(game_id, [])
            self.db.execute("delete from games where id = ?", [game_id])
        self._forget(game_id)
