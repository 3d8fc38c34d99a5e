"""Club nights in the store (referee/store/nights.py, migration m013): a night and its
stage-1 games are made in one transaction; closing a stage is all or nothing; a table game's
row names its night; a database from before the nights migrates with its games."""

from __future__ import annotations

import json

import pytest
from sqlite_utils import Database

from referee.match import GameConfig
from referee.nights import NightConfig
from referee.rules.base import RuleViolation
from referee.store import NightNotFound, NightSeat, Store, migrations

PLAYERS = ["Ana", "Ben", "Caro", "Dee", "Eve", "Finn", "Gus", "Hana"]


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "store.db"))
    store.migrate()
    yield store
    store.close()


def night_config(**changes: object) -> NightConfig:
    body = {
        "name": "Tuesday club",
        "game": "mexican-train",
        "mode": "scores",
        "players": PLAYERS,
        "table_size": 4,
        "stages": 2,
        "rounds_per_stage": 1,
        "seating": "progressive",
        **changes,
    }
    return NightConfig.from_json(body)


def count(store: Store, table: str) -> int:
    return int(store.db.execute(f"select count(*) from {table}").fetchone()[0])


def test_a_night_and_its_games_are_made_together(store):
    stored = store.create_night(night_config())
    assert [table.players for table in stored.current] == [tuple(PLAYERS[:4]), tuple(PLAYERS[4:])]
    game = store.load(stored.current[1].game_id)
    assert game.night == NightSeat(stored.id, 1, 2)
    assert game.state()["night"] == {"id": stored.id, "stage": 1, "table": 2}
    assert store.load_night(stored.id) == stored


def test_a_failed_creation_leaves_nothing(store, monkeypatch):
    made = []
    create = Store.create

    def failing_second(self, config, *args, **kwargs):
        if made:
            raise RuntimeError("the disk failed")
        made.append(config)
        return create(self, config, *args, **kwargs)

    monkeypatch.setattr(Store, "create", failing_second)
    with pytest.raises(RuntimeError):
        store.create_night(night_config())
    assert (count(store, "nights"), count(store, "night_tables"), count(store, "games")) == (0, 0, 0)


def test_a_refused_stage_changes_nothing(store):
    stored = store.create_night(night_config())
    store.change(stored.current[0].game_id, "hands", {"round": 1, "hands": dict.fromkeys(PLAYERS[:4], 0)})
    with pytest.raises(RuleViolation) as refused:
        store.next_stage(stored.id, key="next-stage-01")
    assert refused.value.rule_id == "night.stage.open" and "Table 2 is" in refused.value.message
    assert count(store, "night_keys") == 0 and count(store, "games") == 2
    assert store.load_night(stored.id).night.stage == 1


def test_a_night_table_game_is_not_trashed_alone(store):
    stored = store.create_night(night_config())
    with pytest.raises(RuleViolation) as refused:
        store.trash(stored.current[0].game_id)
    assert refused.value.rule_id == "night.tables"
    assert store.load(stored.current[0].game_id).night is not None


def test_an_unknown_night(store):
    with pytest.raises(NightNotFound):
        store.load_night("nope")
    with pytest.raises(NightNotFound):
        store.next_stage("nope")


def test_a_database_from_before_the_nights_migrates_with_its_games(tmp_path):
    path = str(tmp_path / "old.db")
    db = Database(path)
    migrations.apply(db, stop_before="m011_player_lists")  # m011 reads every game stored before it
    config = GameConfig.from_json({"game": "mexican-train", "players": ["Ana", "Ben"], "mode": "scores"})
    stamp = "2026-01-01T00:00:00+00:00"
    db.table("games").insert(
        {"id": "old1", "game": "mexican-train", "mode": "scores", "players": json.dumps(["Ana", "Ben"])}
        | {"status": "playing", "created": stamp, "updated": stamp, "version": 1, "snapshot_version": 1}
        | {"changed": stamp}
    )
    db.table("events").insert(
        {"game_id": "old1", "version": 1, "kind": "create", "payload": json.dumps(config.to_json())}
        | {"created": stamp}
    )
    db.conn.close()
    store = Store(path)
    store.migrate()
    game = store.load("old1")
    assert game.night is None and "night" not in game.state()
    assert count(store, "player_games") == 2  # m011 summarized the old game
    store.close()
