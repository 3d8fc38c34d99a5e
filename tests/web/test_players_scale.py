"""The players' lists are kept by the store with every write of a game (one row per player
and game, and their sums), so /players and the leaderboards read a few rows: also on the
first request of a freshly started app with 20,000 games, which used to summarize every
game (25 s)."""

from __future__ import annotations

import random
import sqlite3
import time
import unicodedata

import pytest

from bench.driver import GameDriver
from bench.stored import build_many_games
from referee.match import GameConfig
from referee.rules import GAMES
from referee.stats import player_key, player_stats, ranked, summarize
from referee.store import Store
from referee.web import create_app
from referee.web.companion.players import full_record, record

SUMS = (
    "name",
    "games",
    "finished",
    "wins",
    "rounds",
    "round_points",
    "best",
    "worst",
    "goat",
    "rating_points",
)
SUMS += ("last_played",)
POOL = ["Ana", "ana", "Ben", "Chloé", unicodedata.normalize("NFD", "CHLOÉ"), "Dara", "Eli", "Fay"]


def config_for(rng: random.Random) -> GameConfig:
    game = rng.choice(sorted(GAMES))
    names: list[str] = []
    while len(names) < rng.choice((2, 3, 4)):
        name = rng.choice(POOL)
        if all(player_key(name) != player_key(other) for other in names):
            names.append(name)
    body = {"game": game, "players": names, "mode": "scores"}
    if game == "mexican-train":
        body.update({"set": 9, "options": {"first_double": 2, "last_double": 0}})
    elif game == "chicken-foot":
        body["set"] = 9
    return GameConfig.from_json(body)


def expected(store: Store, kind: str | None = None):
    listed = [store.load(row["id"]) for row in store.list_games()]
    return player_stats([summarize(g.id, g.created, g.match) for g in listed], kind)


def kept(store: Store, scope: str = ""):
    return {row["key"]: record(row) for row in store.player_totals(scope)}


def same(left, right) -> None:
    assert set(left) == set(right)
    for key in left:
        for name in SUMS:
            assert getattr(left[key], name) == getattr(right[key], name), (key, name)


def test_the_kept_lists_are_what_the_games_add_up_to_after_any_change(tmp_path):
    """New games, hands entries (ties on purpose: points 0-4, equal dates), the trash,
    restores, deletes and imports: the kept sums always equal the statistics made from the
    games themselves, for all games and per kind, with each player's history and
    head-to-head."""
    rng = random.Random(17)
    store = Store(str(tmp_path / "lists.db"))
    store.migrate()
    ids: list[str] = []
    for step in range(160):
        choice = rng.random()
        if choice < 0.25 or not ids:
            ids.append(store.create(config_for(rng)).id)
        elif choice < 0.8:
            game = store.load(rng.choice(ids), trashed=True)
            hands = {name: rng.randrange(5) for name in game.match.players}
            hands[rng.choice(list(hands))] = 0
            try:
                store.change(game.id, "hands", {"round": game.match.number, "hands": hands})
            except Exception:  # a finished game, a game in the trash, a refused entry
                pass
        elif choice < 0.88:
            game_id = rng.choice(ids)
            if store.version_of(game_id) is not None:
                store.trash(game_id)
            else:
                store.restore(game_id)
        elif choice < 0.94:
            game_id = ids.pop(rng.randrange(len(ids)))
            store.delete(game_id)
        else:
            source = store.load(rng.choice(ids), trashed=True)
            events = [
                {"version": e.version, "kind": e.kind, "payload": e.payload, "created": e.created}
                for e in store.events(source.id)
            ]
            new_id = f"imported-{step}"
            store.insert_replayed([Store.replayed_rows(new_id, source.match, events, created=source.created)])
            ids.append(new_id)
        if step % 20 == 19:
            same(kept(store), expected(store))
    same(kept(store), expected(store))
    # a game logged play by play (referee mode) to its end: the lists follow its rounds
    config = {"game": "mexican-train", "players": ["Ana", "Eli", "Fay"], "set": 9}
    config["options"] = {"first_double": 2, "last_double": 0}
    driver = GameDriver(random.Random(5), store.create(GameConfig.from_json(config)).id, config)
    while (change := driver.next_change()) is not None:
        store.change(driver.id, *change)
        driver.accepted(*change)
        if change[0] == "hands":
            same(kept(store), expected(store))
    assert store.load(driver.id).match.finished
    for kind in GAMES:
        same(kept(store, kind), expected(store, kind))
        assert [r.key for r in ranked(kept(store, kind).values(), kind)] == [
            r.key for r in ranked(expected(store, kind).values(), kind)
        ]
    whole = expected(store)
    assert any(r.finished for r in whole.values()) and any(r.head_to_head for r in whole.values())
    for key, want in whole.items():
        found = full_record(store, key)
        assert found is not None
        player, by_game = found
        assert sorted(player.history, key=lambda g: g.id) == sorted(want.history, key=lambda g: g.id)
        assert player.head_to_head == want.head_to_head
        for kind in GAMES:
            mine = by_game[kind]
            theirs = player_stats(
                [
                    summarize(g.id, g.created, g.match)
                    for g in map(store.load, [r["id"] for r in store.list_games()])
                ],
                kind,
            ).get(key)
            assert (mine is None) == (theirs is None)
    store.close()


def test_a_play_that_books_nothing_leaves_the_lists_alone(tmp_path):
    """A play in the middle of a round neither summarizes the game nor touches its rows of
    the lists; a booked round moves the sums."""
    store = Store(str(tmp_path / "quiet.db"))
    store.migrate()
    config = {"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9}
    game = store.create(GameConfig.from_json(config))
    driver = GameDriver(random.Random(4), game.id, config)
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    for _ in range(6):
        kind, payload = driver.next_change()
        assert kind == "action"
        store.change(game.id, kind, payload)
        driver.accepted(kind, payload)
    assert not [s for s in statements if "player_" in s]
    store.db.conn.set_trace_callback(None)
    before = store.db.execute("select * from player_totals order by scope, key").fetchall()
    pad = store.create(GameConfig.from_json({"game": "kozel", "players": ["Ana", "Ben"], "mode": "scores"}))
    store.change(pad.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 9}})
    assert store.db.execute("select * from player_totals order by scope, key").fetchall() != before
    same(kept(store), expected(store))
    store.close()


def test_a_fresh_app_answers_the_lists_of_20000_games_from_the_kept_rows(tmp_path, monkeypatch):
    """The first /players and leaderboard requests of a newly started app on 20,000 games
    load no game at all (they read the kept rows), and answer well under the 0.2 s goal of
    the benchmark (the bound here is loose, for a busy machine)."""
    database = str(tmp_path / "club.db")
    build_many_games(database, 20_000)
    config = {"TESTING": True, "DATABASE": database, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}
    app = create_app(config)

    def no_loading(*args, **kwargs):
        raise AssertionError("a game was loaded to make the lists")

    monkeypatch.setattr(Store, "_rebuild", no_loading)
    client = app.test_client()
    started = time.perf_counter()
    page = client.get("/players")
    first = time.perf_counter() - started
    assert page.status_code == 200 and "Chloé" in page.get_data(as_text=True)
    for kind in GAMES:
        assert client.get(f"/leaderboard/{kind}").status_code == 200
    assert client.get("/players/Ana").status_code == 200
    assert first < 1.0, f"first /players of a fresh app took {first:.2f} s"


def test_the_migration_fills_the_lists_of_games_stored_before_them(tmp_path):
    """A database from before the kept lists: the migration makes every game's rows (and
    leaves a game that cannot be read out, with its reason)."""
    database = str(tmp_path / "old.db")
    store = Store(database)
    store.migrate()
    games = [
        store.create(GameConfig.from_json({"game": "kozel", "players": ["Ana", "Ben"]})),
        store.create(GameConfig.from_json({"game": "kozel", "players": ["Caro", "Dan"]})),
    ]
    for game in games:
        store.change(
            game.id, "hands", {"round": 1, "hands": {game.match.players[0]: 0, game.match.players[1]: 7}}
        )
    want = expected(store)
    store.close()
    db = sqlite3.connect(database)  # back to how the database was before the migration
    db.executescript(
        """
        drop index games_unsummarized;
        drop index games_unreadable;
        drop table player_games;
        drop table player_totals;
        alter table games drop column summary_version;
        alter table games drop column unreadable;
        delete from _sqlite_migrations where name = 'm011_player_lists';
        """
    )
    db.execute("update games set snapshot = null where id = ?", [games[1].id])
    db.execute(
        'update events set payload = \'{"round": 1, "hands": {"Zed": 0}}\' where version = 2 and game_id = ?',
        [games[1].id],
    )
    db.commit()
    db.close()
    store = Store(database)
    store.migrate()
    assert set(kept(store)) == {"ana", "ben"}
    same(kept(store), {key: value for key, value in want.items() if key in ("ana", "ben")})
    assert store.unreadable_games() == [games[1].id]
    assert store.unsummarized() == []
    store.close()


@pytest.mark.parametrize("path", ["/players", "/leaderboard/kozel"])
def test_the_lists_follow_every_change(app, client, api, path):
    """A new game, a booked round, a game thrown away and restored: the lists show it at once."""
    game = api.create(game="kozel", players=["Ana", "Ben"], mode="scores")
    assert "Ana" in client.get(path).get_data(as_text=True)
    other = api.create(game="kozel", players=["Caro", "Dan"])
    assert "Caro" in client.get(path).get_data(as_text=True)
    client.delete(f"/api/games/{other['id']}")
    assert "Caro" not in client.get(path).get_data(as_text=True)
    status, _ = api.hands(game["id"], 1, {"Ana": 0, "Ben": 12})
    assert status == 200
    assert client.get("/players/Ben").status_code == 200
    assert ">12<" in client.get("/players/Ben").get_data(as_text=True)
