"""PINs: the wrong table PINs given (so the guessing limit holds across restarts and
processes, per client) and the app's own settings (the owner PIN's hash)."""

from __future__ import annotations

from referee.store.connection import Connection


class Pins(Connection):
    """Wrong PINs per game and client, and the app's settings."""

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

    def any_table_pin(self) -> bool:
        """Whether any game (in the trash too) has a table PIN."""
        row = self.db.execute("select 1 from games where pin_hash is not null limit 1").fetchone()
        return row is not None

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
        self,
        game_id: str,
        at: float,
        since: float,
        limit: int,
        client: str,
        session: str | None,
        *,
        game_since: float | None = None,
        game_limit: int | None = None,
    ) -> int | None:
        """Count this attempt as a failure in advance, in one transaction with the check of
        the limits, so concurrent attempts can never pass more than ``limit`` for the client
        since ``since`` (nor ``game_limit`` for the game from all clients since
        ``game_since``): the row's id, or None when no attempt is left. ``forgive`` takes it
        back if right."""
        forget_before = min(since, game_since) if game_since is not None else since
        with self.write():
            self.db.execute("delete from pin_failures where at < ?", [forget_before])
            if (
                game_since is not None
                and game_limit is not None
                and self.pin_failures_since(game_id, game_since) >= game_limit
            ):
                return None
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
