"""The database's schema: sqlite-utils migrations, each recorded once it has run (in
``_sqlite_migrations``), applied in order by ``Store.migrate``. Recorded migrations are
never edited: a change of the schema is a new one."""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.store.log import now
from referee.store.players import PLAYER_TOTAL_SUMS, PlayerLists

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
    store = PlayerLists.inside(db)  # the rows of the games already stored, in this transaction
    for (game_id,) in db.execute("select id from games where trashed is null").fetchall():
        store.summarize_game(game_id)


@migrations()
def m012_change_keys(db: Database) -> None:
    # API.md's "key": the keys a game has accepted, so that a change sent again (a retry
    # after a lost answer) is never logged twice, even after it was undone.
    db.table("change_keys").create(
        {"game_id": str, "key": str, "version": int},
        pk=("game_id", "key"),
        foreign_keys=[("game_id", "games", "id")],
    )


@migrations()
def m013_nights(db: Database) -> None:
    # Club nights (API.md): the night as created (``config``, its JSON), the stage in play;
    # every table of every stage with its game, its players and, once the stage is closed,
    # its result; the keys of the "next stage" requests accepted. A table game's row names its
    # night, stage and table, so its state says so without another query.
    db.table("nights").create(
        {
            "id": str,
            "name": str,
            "game": str,
            "config": str,
            "stage": int,
            "status": str,
            "created": str,
            "changed": str,
            "trashed": str,
        },
        pk="id",
    )
    db.table("nights").create_index(["trashed", "changed"])
    db.table("night_tables").create(
        {"night_id": str, "stage": int, "number": int, "game_id": str, "players": str, "result": str},
        pk=("night_id", "stage", "number"),
        foreign_keys=[("night_id", "nights", "id"), ("game_id", "games", "id")],
    )
    db.table("night_tables").create_index(["game_id"], unique=True)
    db.table("night_keys").create(
        {"night_id": str, "key": str, "stage": int},
        pk=("night_id", "key"),
        foreign_keys=[("night_id", "nights", "id")],
    )
    db.table("games").add_column("night_id", str)
    db.table("games").add_column("night_stage", int)
    db.table("games").add_column("night_table", int)


@migrations()
def m014_phone_hands(db: Database) -> None:
    # Every hand sent from a phone is kept (a second send for the same player stays beside the
    # first, for the person at the tablet to pick), with the phone (its browser session) and
    # the address that sent it: the send limits hold per phone, not per game, so one guest
    # cannot use up everybody's sends. Replaces ``sent_hands`` and ``hand_sends``.
    db.table("phone_hands").create(
        {
            "id": int,
            "game_id": str,
            "round": int,
            "player": str,
            "tiles": str,
            "sent": float,
            "device": str,
            "address": str,
        },
        pk="id",
    )
    db.table("phone_hands").create_index(["game_id", "round"])
    db.table("phone_hands").create_index(["device", "sent"])
    db.table("phone_hands").create_index(["address", "sent"])
    db.execute(
        "insert into phone_hands (game_id, round, player, tiles, sent, device, address) "
        "select game_id, round, player, tiles, sent, '', '' from sent_hands order by sent"
    )
    db.table("sent_hands").drop()
    db.table("hand_sends").drop()


@migrations()
def m015_games_by_activity(db: Database) -> None:
    # The home page lists the games being played first (something logged, by their last
    # change), then those not begun: an index in that order keeps a page of 20,000 games quick.
    db.execute("create index if not exists games_by_activity on games (status, version > 1, changed)")
