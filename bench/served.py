"""A logged play through the served app (waitress, real HTTP; bench/harness.py), one at a time.

- ``play_vs_bare_flask``: median server time of a logged Mexican Train play divided by that
  of a bare Flask JSON endpoint added to the same app, in the same server, by the benchmark
  only.
- ``late_vs_early``: median server time of a logged play after 500 actions in the game
  divided by one after 5.
"""

from __future__ import annotations

import random
from typing import TypedDict

from bench.driver import GameDriver
from bench.harness import BARE_PATH, Client, Server
from bench.parts import Part, Row, Sizes, fmt, median


class PlayVsBare(TypedDict):
    play_server_ms: float
    bare_server_ms: float
    play_trip_ms: float
    bare_trip_ms: float
    ratio: float
    ratio_trip: float
    samples: int


class LateVsEarly(TypedDict):
    late_ms: float
    early_ms: float
    ratio: float
    late_trip_ms: float
    early_trip_ms: float
    late_from: int
    late_to: int
    early_from: int
    early_to: int
    early_games: int
    samples: int


def bench_play_vs_bare(server: Server, plays: int, seed: int = 2) -> PlayVsBare:
    """Logged plays of a live Mexican Train game, interleaved with bare endpoint calls."""
    client = Client(server.port)
    rng = random.Random(seed)
    for _ in range(20):  # warm both paths up
        client.post(BARE_PATH, {"type": "play"})
    play_trip: list[float] = []
    play_server: list[float] = []
    bare_trip: list[float] = []
    bare_server: list[float] = []
    driver = GameDriver(rng, client.create_game())
    while len(play_server) < plays:
        result = client.step(driver)
        if result is None:
            driver = GameDriver(rng, client.create_game())
            continue
        kind, _, trip, took = result
        if kind != "play":
            continue
        play_trip.append(trip)
        play_server.append(took)
        _status, _, trip, took = client.post(
            BARE_PATH, {"type": "play", "player": "Ana", "tile": "5-12", "train": "mexican"}
        )
        bare_trip.append(trip)
        bare_server.append(took)
    client.close()
    return {
        "play_server_ms": median(play_server),
        "bare_server_ms": median(bare_server),
        "play_trip_ms": median(play_trip),
        "bare_trip_ms": median(bare_trip),
        "ratio": median(play_server) / median(bare_server),
        "ratio_trip": median(play_trip) / median(bare_trip),
        "samples": len(play_server),
    }


def bench_late_vs_early(
    server: Server, plays: int, late_at: int = 500, early_at: int = 5, seed: int = 3, per_early_game: int = 8
) -> LateVsEarly:
    """Median server time of logged plays in a game past ``late_at`` actions vs in games
    just past ``early_at`` (a fresh early game every ``per_early_game`` plays, so that
    "early" stays early), measured interleaved; every game is played through the API."""
    client = Client(server.port)
    rng = random.Random(seed)

    def game_at(actions: int) -> GameDriver:
        driver = GameDriver(rng, client.create_game())
        while driver.actions < actions:
            if client.step(driver) is None:
                raise RuntimeError("the game finished before reaching the point to measure")
        return driver

    late = game_at(late_at)
    late_start = late.actions
    early = game_at(early_at)
    early_spans: list[tuple[int, int]] = []
    early_start, early_plays = early.actions, 0
    times: dict[str, list[float]] = {"late": [], "early": []}
    trips: dict[str, list[float]] = {"late": [], "early": []}
    while min(len(times["late"]), len(times["early"])) < plays:
        for name in ("late", "early"):
            if len(times[name]) >= plays:
                continue
            driver = late if name == "late" else early
            step = client.step(driver)
            assert step is not None
            kind, _, trip, took = step
            if kind != "play":
                continue
            times[name].append(took)
            trips[name].append(trip)
            if name == "early":
                early_plays += 1
                if early_plays == per_early_game:
                    early_spans.append((early_start, early.actions))
                    early = game_at(early_at)
                    early_start, early_plays = early.actions, 0
    if early_plays:
        early_spans.append((early_start, early.actions))
    client.close()
    late_ms, early_ms = median(times["late"]), median(times["early"])
    return {
        "late_ms": late_ms,
        "early_ms": early_ms,
        "ratio": late_ms / early_ms,
        "late_trip_ms": median(trips["late"]),
        "early_trip_ms": median(trips["early"]),
        "late_from": late_start,
        "late_to": late.actions,
        "early_from": min(span[0] for span in early_spans),
        "early_to": max(span[1] for span in early_spans),
        "early_games": len(early_spans),
        "samples": plays,
    }


def run(sizes: Sizes, server: Server) -> Part:
    bare = bench_play_vs_bare(server, sizes.plays)
    late = bench_late_vs_early(server, sizes.late_plays, late_at=sizes.late_at)
    rows = [
        Row(
            "logged MT play, server ms (median)",
            fmt(bare["play_server_ms"], 3),
            f"round trip {bare['play_trip_ms']:.3f} ms",
        ),
        Row(
            "bare Flask JSON, server ms (median)",
            fmt(bare["bare_server_ms"], 3),
            f"round trip {bare['bare_trip_ms']:.3f} ms",
        ),
        Row("play_vs_bare_flask", fmt(bare["ratio"]), f"goal <= 3; by round trip {bare['ratio_trip']:.2f}"),
        Row(
            "play after 5 actions, server ms",
            fmt(late["early_ms"], 3),
            f"actions {late['early_from']}..{late['early_to']} of {late['early_games']} games, "
            f"round trip {late['early_trip_ms']:.3f} ms",
        ),
        Row(
            f"play after {sizes.late_at} actions, server ms",
            fmt(late["late_ms"], 3),
            f"actions {late['late_from']}..{late['late_to']}, round trip {late['late_trip_ms']:.3f} ms",
        ),
        Row("late_vs_early", fmt(late["ratio"]), "goal <= 1.3"),
    ]
    figures = {"play_vs_bare_flask": round(bare["ratio"], 3), "late_vs_early": round(late["ratio"], 3)}
    return Part(rows, figures)
