"""The players' lists: one row per player of every game not in the trash (``player_games``)
and their sums per player (``player_totals``), kept with every write of a game, in its
transaction, so that /players and the leaderboards read a few rows however many games
there are. A game that cannot be read is left out of them, with the reason."""

from __future__ import annotations

import sqlite3
from typing import Any

from referee.match import Match
from referee.stats import PlayerGame, player_games, summarize
from referee.store.log import GameLog, GameUnreadable

PLAYER_GAME_COLUMNS = tuple(PlayerGame.__dataclass_fields__)
PLAYER_TOTAL_SUMS = ("games", "finished", "wins", "rounds", "round_points", "goat", "rating_points")


def read_by_lists(match: Match) -> tuple[object, ...]:
    """What the players' lists read of ``match`` (its standing, which the match makes anew
    whenever a round is booked, changed or undone; its rounds; who left), held as the objects
    themselves: when none is replaced by a change, the game's rows of the lists stay as they
    are (a play in the middle of a round), and nothing is summarized."""
    rounds = match.rounds
    return (match.standing, rounds, len(rounds), rounds[-1] if rounds else None, match.left)


class PlayerLists(GameLog):
    """The players' lists of a database: their queries, and their rows kept up to date."""

    def give_back(self) -> None:
        """Besides returning the borrowed matches, leave the games this store found
        unreadable out of the players' lists."""
        super().give_back()
        found, self._found_unreadable = self._found_unreadable, {}
        if found and not self.db.conn.in_transaction:
            try:
                with self.write():
                    for game_id, reason in found.items():
                        self._leave_out(game_id, reason)
            except sqlite3.Error:  # (a full disk): found again at the next load
                pass

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
