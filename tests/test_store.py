"""The store: recorded migrations, the append-only log, snapshots equal to replays."""
from __future__ import annotations

import pickle

import pytest

from referee.match import GameConfig
from referee.rules.base import RuleViolation
from referee.store import SNAPSHOT_FORMAT, GameNotFound, Store, VersionConflict
from referee.web import create_app


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "store.db"))
    store.migrate()
    yield store
    store.close()


def pad_config():
    return GameConfig.from_json({"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"})


def test_migrations_are_recorded_once(store):
    names = [row["name"] for row in store.db.query("select name from _sqlite_migrations")]
    assert names == ["m001_games_and_events", "m002_table_pin"]
    store.migrate()
    assert len(list(store.db.query("select name from _sqlite_migrations"))) == 2
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_changes_append_events_and_bump_the_version(store):
    game = store.create(pad_config())
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 12}})
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 13}})
    loaded = store.load(game.id)
    assert loaded.version == 3
    assert [e.kind for e in store.events(game.id)] == ["create", "hands", "hands"]
    assert [e.version for e in store.events(game.id)] == [1, 2, 3]
    assert loaded.match.standing.totals == {"Ana": 0, "Ben": 13}
    assert store.replay(game.id).state() == loaded.match.state()


def test_refused_changes_leave_no_trace(store):
    game = store.create(pad_config())
    with pytest.raises(RuleViolation):
        store.change(game.id, "hands", {"round": 1, "hands": {"Ana": ["1-2"], "Ben": ["2-1"]}})
    with pytest.raises(VersionConflict):
        store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 1}}, expected_version=5)
    assert store.load(game.id).version == 1
    assert len(store.events(game.id)) == 1


def test_a_damaged_or_outdated_snapshot_is_rebuilt_from_the_log(store):
    game = store.create(pad_config())
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 7}})
    store.db.execute("update games set snapshot = ? where id = ?", [b"garbage", game.id])
    assert store.load(game.id).match.standing.totals == {"Ana": 0, "Ben": 7}
    store.db.execute("update games set snapshot_format = ? where id = ?", [SNAPSHOT_FORMAT - 1, game.id])
    assert store.load(game.id).match.standing.totals == {"Ana": 0, "Ben": 7}


def test_snapshot_is_the_pickled_match(store):
    game = store.create(pad_config())
    row = next(store.db.query("select snapshot from games where id = ?", [game.id]))
    assert pickle.loads(row["snapshot"]).state() == game.match.state()


def test_unknown_games(store):
    with pytest.raises(GameNotFound):
        store.load("missing")
    with pytest.raises(GameNotFound):
        store.change("missing", "hands", {"round": 1, "hands": {}})


def test_database_file_comes_from_referee_db(tmp_path, monkeypatch):
    path = tmp_path / "chosen.db"
    monkeypatch.setenv("REFEREE_DB", str(path))
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["DATABASE"] == str(path) and path.exists()
    monkeypatch.delenv("REFEREE_DB")
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["DATABASE"].startswith(app.instance_path)
