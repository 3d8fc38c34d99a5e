"""Smoke test of the benchmark (bench/report.py and the modules it runs) at tiny sizes.

No timing is asserted: only that every measurement runs, that the bots' actions are all
accepted by the engines and the served app, and that the JSON figures are all there and sane.
"""

from __future__ import annotations

import enum
import json
import os
import random

import pytest

from bench.browser import CHROMIUM, bench_table_page, bench_tap_to_paint, bench_taps
from bench.driver import MT_GAME, GameDriver
from bench.engines import KOZEL_PLAYERS, bench_dominoes, bench_kozel, bench_mt, kozel_round, mt_round
from bench.harness import BARE_PATH, Server, make_bench_app
from bench.parts import Sizes
from bench.profiling import profile_plays
from bench.report import run
from referee.match import GameConfig
from referee.store import Store, read_snapshot, snapshot_bytes

FIGURES = {
    "engine_kozel_vs_dominoes",
    "engine_mt_rounds_per_s",
    "play_vs_bare_flask",
    "late_vs_early",
    "table_page_kb",
    "table_page_requests",
    "taps_per_play",
    "taps_per_hands_entry",
    "tap_to_paint_ms",
    "load_p99_ms_30_clients",
    "load_errors",
    "mixed_p99_ms",
    "mixed_errors",
    "players_ms_300",
    "leaderboard_ms_300",
    "players_cold_ms_300",
    "leaderboard_cold_ms_300",
    "kills",
    "kill_acknowledged",
    "kill_lost",
    "kill_doubled",
    "import_lock_ms",
    "import_mb",
    "photo_storm_play_p99_ratio",
    "photo_read_peak_mb",
    "halfopen_play_ms",
    "slow_play_ms",
    "pdf_storm_play_p99_ratio",
    "night_mixer_repeats",
    "night_play_p99_ms",
    "night_play_errors",
    "night_next_ms",
}
TINY = Sizes(
    "tiny",
    engine_seconds=0.1,
    plays=3,
    late_plays=2,
    late_at=25,
    load_clients=3,
    load_seconds=1.0,
    page=False,
    players_games=300,
    import_mb=0.2,
    kills=1,
    kill_after=0.5,
    photo_size=(640, 480),
    storm_photos=4,
    png_size=(2000, 2000),
    peak_reads=2,
    halfopen=50,
    night_tables=2,
    night_seconds=1.0,
    night_nexts=1,
)


def test_kozel_bots_see_the_ends_the_engine_sees():
    rng = random.Random(7)
    leader = None
    reasons = set()
    for number in range(1, 41):
        outcome, actions = kozel_round(rng, (number - 1) % 5 + 1, leader, check_view=True)
        assert outcome.reason in ("domino", "fish") and outcome.player in KOZEL_PLAYERS
        assert 7 <= actions <= 60
        reasons.add(outcome.reason)
        leader = outcome.player
    assert "domino" in reasons


def test_mexican_train_rounds_end_and_every_action_is_accepted():
    rng = random.Random(8)
    for number in (1, 5, 13):
        outcome, actions = mt_round(rng, number)
        assert outcome.reason in ("domino", "blocked")
        assert actions > 9


def test_engine_rates_are_positive():
    kozel = bench_kozel(0.05)
    mt = bench_mt(0.05)
    assert kozel["rounds"] >= 1 and kozel["per_s"] > 0
    assert mt["rounds"] >= 1 and mt["per_s"] > 0
    dom = bench_dominoes(0.05)
    if dom is not None:  # the optional "bench" extra
        assert dom["rounds"] >= 1 and dom["per_s"] > 0


def test_the_driver_plays_a_whole_game_through_the_store(tmp_path):
    """Every change the bench's driver makes is accepted, up to the end of the game, and
    the snapshot read back equals the game replayed from its log."""
    store = Store(str(tmp_path / "bench.db"))
    store.migrate()
    config = dict(MT_GAME, options={"first_double": 2})  # three rounds: 2-2, 1-1, 0-0
    game = store.create(GameConfig.from_json(config))
    driver = GameDriver(random.Random(9), game.id, config)
    while (change := driver.next_change()) is not None:
        store.change(game.id, *change)
        driver.accepted(*change)
    stored = store.load(game.id)
    assert stored.match.finished and len(stored.match.rounds) == 3
    assert stored.state()["totals"] == driver.match.state()["totals"]
    assert stored.match.state() == store.replay(game.id).state()
    assert snapshot_round_trip(stored.match).state() == stored.match.state()
    store.close()


def test_the_bare_endpoint_is_only_in_the_bench_app(tmp_path):
    app = make_bench_app(str(tmp_path / "bare.db"))
    response = app.test_client().post(BARE_PATH, json={"type": "play"})
    assert response.status_code == 200 and response.get_json()["ok"] is True
    assert response.headers["Server-Timing"].startswith("app;dur=")
    from referee.web import create_app

    product = create_app({"TESTING": True, "DATABASE": str(tmp_path / "product.db"), "SECRET_KEY": "x"})
    assert product.test_client().post(BARE_PATH, json={}).status_code in (404, 405)


def test_a_tiny_run_prints_the_table_and_all_figures(capsys):
    lines: list[str] = []
    figures = run(TINY, out=lines.append)
    assert set(figures) == FIGURES
    json.dumps(figures)
    assert figures["load_errors"] == 0
    assert figures["players_ms_300"] > 0 and figures["leaderboard_ms_300"] > 0
    assert figures["players_cold_ms_300"] > 0 and figures["leaderboard_cold_ms_300"] > 0
    assert figures["kills"] == 1 and figures["kill_acknowledged"] > 0 and figures["kill_lost"] == 0
    assert figures["kill_doubled"] == 0  # each change sent again with its key after the kill
    assert 0 < figures["import_mb"] <= 0.2 and figures["import_lock_ms"] > 0
    assert figures["engine_mt_rounds_per_s"] > 0
    assert figures["photo_storm_play_p99_ratio"] > 0 and figures["photo_read_peak_mb"] >= 0
    assert 0 < figures["halfopen_play_ms"] < 10_000 and 0 < figures["slow_play_ms"] < 10_000
    assert figures["pdf_storm_play_p99_ratio"] > 0
    assert figures["night_play_errors"] == 0 and 0 < figures["night_play_p99_ms"] < 30_000
    assert 0 < figures["night_next_ms"] < 30_000 and 0 <= figures["night_mixer_repeats"] <= 0.5
    assert figures["play_vs_bare_flask"] > 1  # a logged play does more than a bare endpoint
    assert 0 < figures["late_vs_early"] < 20
    assert 0 < figures["load_p99_ms_30_clients"] < 30_000
    assert figures["table_page_kb"] is None and figures["table_page_requests"] is None
    assert figures["taps_per_play"] is None and figures["taps_per_hands_entry"] is None  # page=False
    assert figures["tap_to_paint_ms"] is None
    ratio = figures["engine_kozel_vs_dominoes"]
    assert ratio is None or ratio > 0
    assert lines[0].startswith("Domino Referee benchmark (tiny")
    assert any("play_vs_bare_flask" in line for line in lines)
    assert lines[-1].startswith("  goals missed:")


@pytest.mark.browser
def test_table_page_measure(tmp_path):
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    pytest.importorskip("playwright.sync_api")
    import concurrent.futures

    server = Server(str(tmp_path / "page.db"))
    try:
        # Its own thread: the session's browser fixture may hold Playwright's event loop
        # in this one, and the sync API refuses to start inside a running loop.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            page = pool.submit(bench_table_page, server).result(timeout=120)
            paints = pool.submit(bench_tap_to_paint, server, 3).result(timeout=120)
    finally:
        server.stop()
    assert paints is not None and len(paints) == 3 and all(0 < ms < 10_000 for ms in paints)
    assert page is not None
    assert page["requests"] >= 1 and page["bytes"] > 0
    assert any(url.endswith("/table") for url, _ in page["sizes"])
    assert page["external"] == []


@pytest.mark.browser
def test_taps_measure(tmp_path):
    """The taps figures: a whole Mexican Train round through the table page, its hands too."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    pytest.importorskip("playwright.sync_api")
    import concurrent.futures

    server = Server(str(tmp_path / "taps.db"))
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            taps = pool.submit(bench_taps, server).result(timeout=300)
    finally:
        server.stop()
    assert taps is not None and taps["plays"] >= 5
    assert 1 <= taps["taps_per_play"] <= 2 and taps["one_tap"] >= 1
    # the link, one tap per tile left, save: a few taps per hand, no switching between hands
    assert 0 < taps["taps_per_hands_entry"] <= 8


# ----- the performance changes made for the benchmark (referee/store/) ----------------------


def snapshot_round_trip(match):
    """The match as a snapshot of it reads back (the header names game "g", version 1)."""
    restored = read_snapshot(snapshot_bytes(match, "g", 1, "e"), "g", 1, "e")
    assert restored is not None
    return restored


def _same(a, b, path="match"):
    """Deep equality of two object graphs (attributes, slots, containers)."""
    assert type(a) is type(b), path
    if isinstance(a, enum.Enum):  # members are singletons: their class is not walked
        assert a is b, path
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for index, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{index}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for key in a:
            _same(a[key], b[key], f"{path}[{key!r}]")
    elif hasattr(a, "__dict__"):
        assert list(vars(a)) == list(vars(b)), path
        for key in vars(a):
            _same(getattr(a, key), getattr(b, key), f"{path}.{key}")
    elif hasattr(type(a), "__slots__") and type(a).__module__.startswith("referee"):
        for key in type(a).__slots__:
            _same(getattr(a, key), getattr(b, key), f"{path}.{key}")
    else:
        assert a == b, path


@pytest.mark.parametrize(
    "config",
    [
        {"game": "mexican-train", "players": ["Ana", "Ben", "Cy"]},
        {"game": "chicken-foot", "players": ["Ana", "Ben", "Cy"]},
        {"game": "kozel", "players": ["Ana", "Ben", "Cy", "Di"]},
        {"game": "kozel", "mode": "scores", "players": ["Ana", "Ben"]},
    ],
)
def test_snapshot_pickle_reads_back_the_same_match(config):
    from referee.match import Match

    match = Match(GameConfig.from_json(config))
    _same(match, snapshot_round_trip(match))


def test_snapshot_pickle_mid_game():
    driver = GameDriver(random.Random(10), "x")
    for step in range(400):
        driver.accepted(*driver.next_change())
        if step % 97 == 0:
            _same(driver.match, snapshot_round_trip(driver.match))


def test_a_database_file_replaced_under_the_same_path_is_opened_afresh(tmp_path):
    path = str(tmp_path / "again.db")
    store = Store(path)
    store.migrate()
    first = store.create(GameConfig.from_json(MT_GAME))
    store.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    store = Store(path)
    store.migrate()
    assert store.list_games() == []
    second = store.create(GameConfig.from_json(MT_GAME))
    store.close()
    reader = Store(path)
    assert [game["id"] for game in reader.list_games()] == [second.id] != [first.id]
    reader.close()


def test_the_profile_of_plays_shows_the_api_view():
    report = profile_plays(changes=12)
    assert "post_action" in report or "post_hands" in report
