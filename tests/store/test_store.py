"""The store: recorded migrations, the append-only log, snapshots equal to replays."""

from __future__ import annotations

import json
import pickle

import pytest

from referee.match import GameConfig, Match
from referee.rules.base import RuleViolation
from referee.store import (
    SNAPSHOT_EVERY,
    SNAPSHOT_FORMAT,
    SNAPSHOT_MAGIC,
    GameNotFound,
    GameUnreadable,
    MatchCache,
    Store,
    StorePool,
    VersionConflict,
    event_digest,
    snapshot_bytes,
)
from referee.web import create_app


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "store.db"))
    store.migrate()
    yield store
    store.close()


def pad_config():
    return GameConfig.from_json(
        {"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"}
    )


def test_migrations_are_recorded_once(store):
    names = [row["name"] for row in store.db.query("select name from _sqlite_migrations")]
    assert names[:8] == [
        "m001_games_and_events",
        "m002_table_pin",
        "m003_snapshot_version",
        "m004_pin_failures",
        "m005_changed_here",
        "m006_trash",
        "m007_settings",
        "m008_pin_failure_clients",
    ]
    assert names[-5:] == [
        "m011_player_lists",
        "m012_change_keys",
        "m013_nights",
        "m014_phone_hands",
        "m015_games_by_activity",
    ]
    assert len(set(names)) == len(names)
    store.migrate()
    assert len(list(store.db.query("select name from _sqlite_migrations"))) == len(names)
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


def other(store, cache=None):
    """Another store on the same file, as the next request (or another process) has."""
    return Store(store.path, cache=cache)


def test_a_damaged_or_outdated_snapshot_is_rebuilt_from_the_log(store):
    game = store.create(pad_config())
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 7}})
    store.db.execute("update games set snapshot = ? where id = ?", [b"garbage", game.id])
    assert other(store).load(game.id).match.standing.totals == {"Ana": 0, "Ben": 7}
    store.db.execute("update games set snapshot_format = ? where id = ?", [SNAPSHOT_FORMAT - 1, game.id])
    assert other(store).load(game.id).match.standing.totals == {"Ana": 0, "Ben": 7}


def correct_round_one(store, game_id, times):
    for points in range(times):
        store.change(game_id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": points}})


def test_a_cold_load_replays_only_the_events_after_the_newest_snapshot(store, monkeypatch):
    game = store.create(pad_config())
    correct_round_one(store, game.id, 2 * SNAPSHOT_EVERY + 5)
    row = next(store.db.query("select version, snapshot_version from games where id = ?", [game.id]))
    assert row["version"] == 2 * SNAPSHOT_EVERY + 6
    assert row["snapshot_version"] == 2 * SNAPSHOT_EVERY + 1
    replayed = []
    enter_hands = Match.enter_hands
    monkeypatch.setattr(
        Match,
        "enter_hands",
        lambda match, number, body: replayed.append(number) or enter_hands(match, number, body),
    )
    loaded = other(store).load(game.id)
    assert len(replayed) == 5
    assert loaded.match.state() == store.replay(game.id).state()
    assert loaded.match.standing.totals == {"Ana": 0, "Ben": 2 * SNAPSHOT_EVERY + 4}


def test_a_finished_game_is_snapshotted_at_its_last_version(store):
    game = store.create(pad_config())
    for number in range(1, 11):  # double-9: rounds 9-9 … 0-0
        store.change(game.id, "hands", {"round": number, "hands": {"Ana": 0, "Ben": 3}})
    row = next(store.db.query("select version, snapshot_version, status from games where id = ?", [game.id]))
    assert row["status"] == "finished" and row["snapshot_version"] == row["version"] == 11


def test_the_cache_lends_a_match_to_one_store_at_a_time(store):
    cache = MatchCache()
    game = store.create(pad_config())
    first, second = other(store, cache), other(store, cache)
    lent = first.load(game.id).match
    assert second.load(game.id).match is not lent  # rebuilt, not shared between requests
    assert first.load(game.id).match is lent
    first.close()
    second.close()  # the same version is already back: the cache keeps one
    third = other(store, cache)
    assert third.load(game.id).match is lent  # given back when its store closed
    third.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 4}})
    third.close()
    assert other(store, cache).load(game.id).match is lent
    assert lent.standing.totals == {"Ana": 0, "Ben": 4}


def test_a_match_read_for_a_page_of_many_games_goes_back_before_the_request_ends(store):
    cache = MatchCache()
    game = store.create(pad_config())
    page = other(store, cache)
    lent = page.load(game.id).match
    page.give_back_game(game.id)  # (a club night's page, its table read)
    play = other(store, cache)
    assert play.load(game.id).match is lent  # a play meanwhile finds it: no rebuild
    play.close()
    writing = other(store, cache)
    with writing.write():
        held = writing.load(game.id).match
        writing.give_back_game(game.id)  # inside a write it stays lent
        assert other(store, cache).load(game.id).match is not held
    page.close()
    writing.close()


def test_a_game_changed_elsewhere_is_not_read_from_the_cache(store):
    cache = MatchCache()
    game = store.create(pad_config())
    mine = other(store, cache)
    mine.load(game.id)
    mine.close()
    other(store).change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 9}})  # another process
    loaded = other(store, cache).load(game.id)
    assert loaded.version == 2 and loaded.match.standing.totals == {"Ana": 0, "Ben": 9}


def test_a_refused_or_failed_change_gives_nothing_back(store, monkeypatch):
    cache = MatchCache()
    game = store.create(pad_config())
    first = other(store, cache)
    with pytest.raises(RuleViolation):
        first.change(game.id, "hands", {"round": 1, "hands": {"Ana": ["1-2"], "Ben": ["2-1"]}})

    def half_applied(match, number, body):
        match.rounds.append("half-done")
        raise OSError("disk gone")

    second = other(store, cache)
    monkeypatch.setattr(Match, "enter_hands", half_applied)
    with pytest.raises(OSError):
        second.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 1}})
    monkeypatch.undo()
    first.close()
    second.close()
    loaded = other(store, cache).load(game.id)
    assert "half-done" not in loaded.match.rounds and loaded.version == 1


def test_a_deleted_game_is_forgotten(store):
    cache = MatchCache()
    game = store.create(pad_config())
    first = other(store, cache)
    first.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 5}})
    first.close()
    second = other(store, cache)
    second.delete(game.id)
    second.create(pad_config(), game_id=game.id, created=game.created)  # a backup brought back
    second.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 1}})
    second.close()
    assert other(store, cache).load(game.id).match.standing.totals == {"Ana": 0, "Ben": 1}


def test_snapshot_is_the_pickled_match_with_what_it_belongs_to(store):
    game = store.create(pad_config())
    row = next(store.db.query("select snapshot from games where id = ?", [game.id]))
    blob = row["snapshot"]
    assert blob.startswith(SNAPSHOT_MAGIC)
    header = json.loads(blob[len(SNAPSHOT_MAGIC) :].split(b"\n", 1)[0])
    assert header["game"] == game.id and header["version"] == 1 and len(header["sha256"]) == 64
    body = blob[len(SNAPSHOT_MAGIC) :].split(b"\n", 1)[1]
    assert pickle.loads(body).state() == game.match.state()


def finished_pair(store):
    """Two games whose snapshots are at the same version but hold different scores."""
    first, second = store.create(pad_config()), store.create(pad_config())
    for number in range(1, 11):
        store.change(first.id, "hands", {"round": number, "hands": {"Ana": 0, "Ben": 3}})
        store.change(second.id, "hands", {"round": number, "hands": {"Ana": 5, "Ben": 0}})
    return first, second


def test_a_snapshot_copied_from_another_game_is_not_believed(store):
    first, second = finished_pair(store)
    store.db.execute(
        "update games set snapshot = (select snapshot from games where id = ?) where id = ?",
        [first.id, second.id],
    )
    assert other(store).load(second.id).match.standing.totals == {"Ana": 50, "Ben": 0}


def test_a_snapshot_with_its_header_rewritten_is_caught_by_its_event_fingerprint(store):
    first, second = finished_pair(store)
    blob = next(store.db.query("select snapshot from games where id = ?", [first.id]))["snapshot"]
    forged = blob.replace(first.id.encode(), second.id.encode(), 1)
    store.db.execute("update games set snapshot = ? where id = ?", [forged, second.id])
    assert other(store).load(second.id).match.standing.totals == {"Ana": 50, "Ben": 0}


def test_a_snapshot_whose_pickle_was_changed_fails_its_checksum(store):
    game = store.create(pad_config())
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 7}})
    blob = next(store.db.query("select snapshot from games where id = ?", [game.id]))["snapshot"]
    store.db.execute("update games set snapshot = ? where id = ?", [blob[:-3] + b"xyz", game.id])
    assert other(store).load(game.id).match.standing.totals == {"Ana": 0, "Ben": 7}


def test_a_snapshot_that_does_not_fit_the_later_events_is_rebuilt_from_the_log(store):
    game = store.create(pad_config())
    correct_round_one(store, game.id, SNAPSHOT_EVERY + 2)  # a snapshot at version 33
    row = next(store.db.query("select snapshot_version from games where id = ?", [game.id]))
    assert row["snapshot_version"] == SNAPSHOT_EVERY + 1
    # A snapshot labelled as this game at its version, but of a match with other players:
    # the events after it cannot apply to it.
    stranger = Match(
        GameConfig.from_json({"game": "mexican-train", "players": ["Ana", "Cy"], "set": 9, "mode": "scores"})
    )
    last = next(
        store.db.query(
            "select kind, payload, created from events where game_id = ? and version = ?",
            [game.id, row["snapshot_version"]],
        )
    )
    blob = snapshot_bytes(
        stranger,
        game.id,
        row["snapshot_version"],
        event_digest(last["kind"], json.loads(last["payload"]), last["created"]),
    )
    store.db.execute("update games set snapshot = ? where id = ?", [blob, game.id])
    assert other(store).load(game.id).match.standing.totals == {"Ana": 0, "Ben": SNAPSHOT_EVERY + 1}


def test_a_game_whose_log_cannot_be_replayed_is_unreadable_not_a_crash(store):
    game = store.create(pad_config())
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 7}})
    store.db.execute("update games set snapshot = null where id = ?", [game.id])
    store.db.execute(
        "update events set payload = ? where game_id = ? and version = 2",
        ['{"round": 1, "hands": {"Zed": 0}}', game.id],
    )
    with pytest.raises(GameUnreadable) as caught:
        other(store).load(game.id)
    assert caught.value.game_id == game.id


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


def test_a_pool_reuses_its_stores_and_gives_their_matches_back(tmp_path):
    path = str(tmp_path / "pool.db")
    Store(path).migrate()
    pool = StorePool(path, cache=MatchCache())
    first = pool.acquire()
    game = first.create(pad_config())
    pool.release(first)
    again = pool.acquire()
    assert again is first  # the connection is reused, not reopened
    assert again.load(game.id).match is game.match  # the cache had it back
    beside = pool.acquire()
    assert beside is not again and beside.load(game.id).match is not game.match
    pool.release(again)
    pool.release(beside)
    pool.close()


def test_every_commit_is_on_the_disk_before_it_is_answered(store):
    """``synchronous=FULL`` in the app's pooled stores as in scripts' own: a power cut loses
    no change that was answered (docs/BENCHMARKS.md, "Durability")."""
    pool = StorePool(store.path, cache=MatchCache())
    pooled = pool.acquire()
    for opened in (store, pooled):
        assert opened.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert opened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    pool.release(pooled)
    pool.close()


def referee_turns(store, game_id, count):
    """``count`` accepted actions of a referee-mode round: each player draws, else passes."""
    for _ in range(count):
        turn = store.load(game_id).match.state()["round"]["turn"]
        try:
            store.change(game_id, "action", {"type": "draw", "player": turn})
        except RuleViolation:
            store.change(game_id, "action", {"type": "pass", "player": turn})


def test_a_load_reads_one_moment_even_while_another_store_writes_and_snapshots(store):
    """The row, the snapshot and the events after it come from one read transaction:
    a writer that moves the snapshot on between them must not make the reader apply
    events twice (a refusal on a plain GET) or answer a state newer than its version."""
    game = store.create(
        GameConfig.from_json({"game": "mexican-train", "players": ["Ana", "Ben", "Caro"], "set": 12})
    )
    referee_turns(store, game.id, SNAPSHOT_EVERY - 4)
    reader = other(store)  # no cache: it rebuilds from the snapshot and the log
    read_row = reader._row

    def row_then_writes(game_id):
        row = read_row(game_id)
        referee_turns(store, game_id, 10)  # crosses the next snapshot meanwhile
        return row

    reader._row = row_then_writes
    loaded = reader.load(game.id)
    assert loaded.version == SNAPSHOT_EVERY - 3
    reader._row = read_row
    expected = other(store)
    assert loaded.match.state() == replay_to(expected, game.id, loaded.version).state()
    assert store.load(game.id).version == SNAPSHOT_EVERY + 7


def replay_to(store, game_id, version):
    from referee.match import Match
    from referee.store import apply_event

    events = store.events(game_id)
    match = Match(GameConfig.from_json(events[0].payload))
    for event in events[1:version]:
        apply_event(match, event.kind, event.payload)
    return match


def test_writes_inside_a_larger_write_stand_or_fall_with_it(store):
    cache = MatchCache()
    writer = Store(store.path, cache=cache)
    game = writer.create(pad_config())
    writer.give_back()
    with pytest.raises(RuntimeError), writer.write():
        writer.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 5}})
        other_game = writer.create(pad_config())
        raise RuntimeError("a later step fails")
    writer.give_back()
    assert other(store).load(game.id).version == 1  # the change was rolled back with the rest
    with pytest.raises(GameNotFound):
        other(store).load(other_game.id)
    assert cache.lend(game.id, (2, game.created)) is None  # the rolled-back match was not kept
    again = writer.load(game.id)
    assert again.version == 1 and again.match.standing.totals == {"Ana": 0, "Ben": 0}
    writer.close()


def test_a_failed_commit_is_rolled_back_and_the_store_stays_usable(store):
    import sqlite3

    game = store.create(pad_config())
    with pytest.raises(sqlite3.IntegrityError), store.write():
        store.db.execute("PRAGMA defer_foreign_keys=ON")  # the check happens at COMMIT
        store.db.execute(
            "insert into events (game_id, version, kind, payload, created) "
            "values ('no-such-game', 1, 'create', '{}', 'now')"
        )
    assert not store.db.conn.in_transaction
    store.change(game.id, "hands", {"round": 1, "hands": {"Ana": 0, "Ben": 5}})
    assert other(store).load(game.id).version == 2
    assert store.db.execute("select count(*) from events where game_id = 'no-such-game'").fetchone()[0] == 0
