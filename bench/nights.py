"""Club night figures (docs/BENCHMARKS.md, issue 25).

- ``night_mixer_repeats`` (no server): the mixer's repeated pairs ÷ random seatings'.
- ``night_play_p99_ms`` / ``night_play_errors``: plays at a club night on the served app:
  20 tables of 4 logging a play each per second, while the board is open on 2 screens and 60
  phones follow (each screen asks for its live part every few seconds, as static/nights.js
  and the follow page do: half the phones the night page's, half their table's game's).
  The screens run in a process of their own (``bench/screens.py``: at a club they are other
  devices, and as threads here they took the tablets' GIL); the tablets' plays are timed
  here by round trip, as a tablet sees them, with the app's own time of each beside it.
- ``night_next_ms``: "Next stage" of a night of 20 tables whose games are all finished:
  the stage closed (its 20 results read and booked) and the next one seated, its 20 games
  made, in one request.

``python -m bench.nights [--quick]`` prints them; ``python -m bench`` reports them too.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import threading
import time
from typing import Any, TypedDict

from bench.driver import GameDriver
from bench.harness import Client, Server, bench_server, get, repo_env
from bench.parts import Part, Row, Sizes, median, percentile
from referee.nights.measure import (
    PLAYERS_FROM,
    PLAYERS_TO,
    STAGES,
    TABLE_SIZE,
    mixer_nights,
    night_mixer_repeats,
)

TARGET = 0.5  # the mixer's repeats at most half of random seatings' (issue 25)
PLAY_P99_MS = 50.0  # night_play_p99_ms (issue 25)
NEXT_MS = 200.0  # night_next_ms (issue 25)
TABLES = 20
BOARDS = 2
PHONES = 60
LOOK_EVERY = 3.0  # seconds between two looks of a screen (static/nights.js)


def bench_night_mixer() -> dict[str, float]:
    """``night_mixer_repeats``: the mixer's repeated pairs over every night of 8 to 40
    players at tables of 4 for 6 stages ÷ the average of random seatings."""
    started = time.perf_counter()
    nights = mixer_nights(PLAYERS_FROM, PLAYERS_TO, TABLE_SIZE, STAGES)
    seconds = time.perf_counter() - started
    return {
        "night_mixer_repeats": round(night_mixer_repeats(nights), 4),
        "night_mixer_repeated_pairs": float(sum(night.repeats for night in nights)),
        "night_random_repeated_pairs": round(sum(night.random_repeats for night in nights), 1),
        "night_mixer_stage_ms": round(1000 * seconds / (len(nights) * STAGES), 2),
    }


class NightPlay(TypedDict):
    plays: int
    errors: int
    error_samples: list[str]
    p50_ms: float
    p99_ms: float
    app_p99_ms: float
    slowest: list[tuple[float, float, float]]
    looks: int
    seconds: float


def night_body(players: int, mode: str, stages: int, rounds: int) -> dict[str, Any]:
    return {
        "name": "Bench club",
        "game": "mexican-train",
        "set": 12,
        "mode": mode,
        "players": [f"Player {number:03d}" for number in range(1, players + 1)],
        "table_size": 4,
        "stages": stages,
        "rounds_per_stage": rounds,
        "seating": "progressive",
    }


def create_night(client: Client, body: dict[str, Any]) -> dict[str, Any]:
    status, night, _, _ = client.post("/api/nights", body)
    if status != 201:
        raise RuntimeError(f"creating a night failed: {status} {night}")
    return dict(night)


def table_config(port: int, game_id: str) -> dict[str, Any]:
    """A table game's configuration as the API states it, for the driver's mirror."""
    status, _, raw = get(port, f"/api/games/{game_id}")
    if status != 200:
        raise RuntimeError(f"reading table game {game_id} failed: {status}")
    state = json.loads(raw)
    return {
        "game": state["game"],
        "set": state["set"],
        "mode": state["mode"],
        "players": state["players"],
        "options": state["options"],
    }


def bench_night_play(server: Server, seconds: float, tables: int = TABLES, seed: int = 25) -> NightPlay:
    """``tables`` tablets each log a legal play a second (at a random phase) for ``seconds``
    at one club night, while ``BOARDS`` boards and ``PHONES`` phones look every
    ``LOOK_EVERY`` s (``bench/screens.py``). Only the plays are timed, by round trip as the
    tablet sees it, with the app's own time of each (``Server-Timing``) beside it; a refused
    play is an error, as is a look answered anything but 200 or 204.

    The screens run in a process of their own (``python -m bench.screens``): at a club they
    are other devices, and as 62 threads of this process they took the tablets' GIL, so a
    play's round trip counted their work (a play the app answered in 3 ms was timed at 60 ms
    and more on a busy 2-core machine). The tablets stay threads here, each on its own
    keep-alive connection, so their plays are timed as a tablet sees them."""
    setup = Client(server.port)
    night = create_night(setup, night_body(4 * tables, "referee", 3, 4))
    setup.close()
    night_id = night["id"]
    games = [table["game"] for table in night["tables"]]
    master = random.Random(seed)
    drivers = []
    for game_id in games:
        rng = random.Random(master.random())
        drivers.append(
            (Client(server.port), GameDriver(rng, game_id, table_config(server.port, game_id)), rng)
        )
    for path in (
        f"/nights/{night_id}/live",
        f"/nights/{night_id}/live?view=board",
        f"/games/{games[0]}/follow/fragment",
    ):
        get(server.port, path)  # the first renders compile their templates: unmeasured
    screens = subprocess.Popen(
        [sys.executable, "-m", "bench.screens", str(server.port), night_id, json.dumps(games)]
        + [str(BOARDS), str(PHONES), str(LOOK_EVERY)],
        env=repo_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert screens.stdin is not None and screens.stdout is not None
    if screens.stdout.readline().strip() != "ready":
        screens.kill()
        raise RuntimeError("the screens' process did not start")
    latencies: list[float] = []
    app_times: list[float] = []
    slow: list[tuple[float, float, float]] = []  # (ms, the app's ms, seconds after the start)
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Event()

    def tablet(index: int) -> None:
        client, driver, rng = drivers[index]
        start.wait()
        begin = time.perf_counter() + rng.random()
        sent = 0
        while True:
            due = begin + sent
            if due - begun[0] >= seconds:
                break
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            sent += 1
            driver, took, inside, started = client.play_next(driver, rng, errors, lock)
            if took is not None:
                with lock:
                    latencies.append(took)
                    app_times.append(inside)
                    slow.append((round(took, 1), round(inside, 1), round(started - begun[0], 1)))
        client.close()

    begun = [0.0]
    threads = [threading.Thread(target=tablet, args=(index,), daemon=True) for index in range(tables)]
    for thread in threads:
        thread.start()
    begun[0] = time.perf_counter()
    screens.stdin.write("go\n")
    screens.stdin.flush()
    start.set()
    for thread in threads:
        thread.join(seconds + 60)
    try:
        out, _ = screens.communicate("stop\n", timeout=30)
        looked = json.loads(out.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError) as error:
        screens.kill()
        screens.communicate()
        looked = {"looks": 0, "errors": 1, "error_samples": [f"screens: {error!r}"]}
    errors += looked["error_samples"]
    return {
        "plays": len(latencies),
        "errors": len(errors) - len(looked["error_samples"]) + looked["errors"],
        "error_samples": errors[:3],
        "p50_ms": percentile(latencies, 0.5),
        "p99_ms": percentile(latencies, 0.99),
        "app_p99_ms": percentile(app_times, 0.99),
        "slowest": sorted(slow, reverse=True)[:5],
        "looks": int(looked["looks"]),
        "seconds": time.perf_counter() - begun[0],
    }


def bench_night_next(server: Server, repeats: int, tables: int = TABLES) -> list[float]:
    """The round trip of "Next stage" (``POST /api/nights/<id>/next``) at nights of
    ``tables`` tables of 4 whose score-pad games have each booked their one round."""
    client = Client(server.port)
    timings = []
    try:
        for repeat in range(repeats):
            night = create_night(client, night_body(4 * tables, "scores", 2, 1))
            for number, table in enumerate(night["tables"]):
                hands = {
                    name: (seat * 7 + number + repeat) % 40 for seat, name in enumerate(table["players"])
                }
                status, data, _, _ = client.post(
                    f"/api/games/{table['game']}/rounds/1/hands", {"hands": hands}
                )
                if status != 200:
                    raise RuntimeError(f"a table's round was refused: {status} {data}")
            status, data, trip, _ = client.post(f"/api/nights/{night['id']}/next", {})
            if status != 200 or data["stage"] != 2 or len(data["tables"]) != tables:
                raise RuntimeError(f"next stage failed: {status} {data}")
            timings.append(trip)
    finally:
        client.close()
    return timings


def run(sizes: Sizes, server: Server) -> Part:
    mixer = bench_night_mixer()
    tables = sizes.night_tables
    play = bench_night_play(server, sizes.night_seconds, tables)
    nexts = bench_night_next(server, sizes.night_nexts, tables)
    next_ms = median(nexts)
    figures = {
        "night_mixer_repeats": mixer["night_mixer_repeats"],
        "night_play_p99_ms": round(play["p99_ms"], 1),
        "night_play_errors": play["errors"],
        "night_next_ms": round(next_ms, 1),
    }
    rows = [
        Row(
            "night_mixer_repeats",
            f"{mixer['night_mixer_repeats']:.3f}",
            f"{mixer['night_mixer_repeated_pairs']:.0f} repeated pairs vs "
            f"{mixer['night_random_repeated_pairs']:.0f} random (goal <= {TARGET})",
        ),
        Row(
            "night_play_p99_ms",
            f"{play['p99_ms']:.1f}",
            f"{play['plays']} plays at {tables} tables, p50 {play['p50_ms']:.1f} ms, the app's p99 "
            f"{play['app_p99_ms']:.1f} ms; {BOARDS} boards and {PHONES} phones looked {play['looks']} times; "
            f"errors {play['errors']}; slowest (ms, app ms, s) {play['slowest'][:3]} (goal <= {PLAY_P99_MS:.0f})",
        ),
        Row(
            "night_next_ms",
            f"{next_ms:.1f}",
            f"median of {len(nexts)} stages of {tables} tables closed and seated (goal <= {NEXT_MS:.0f})",
        ),
    ]
    # (the goals are checked with the others: bench/report.py GOALS)
    misses = [f"night_play_errors: {play['error_samples']}"] if play["errors"] else []
    return Part(rows, figures, misses)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Club night benchmarks (issue 25).")
    parser.add_argument("--quick", action="store_true", help="a short run (about 15 seconds)")
    args = parser.parse_args(argv)
    from bench.parts import FULL, QUICK

    with bench_server() as server:
        part = run(QUICK if args.quick else FULL, server)
    goals = {
        "night_mixer_repeats": TARGET,
        "night_play_p99_ms": PLAY_P99_MS,
        "night_play_errors": 0,
        "night_next_ms": NEXT_MS,
    }
    missed = [name for name, most in goals.items() if (part.figures[name] or 0) > most]
    for row in part.rows:
        print(f"  {row.name:<22} {row.value:>10}  {row.detail}")
    print("  goals missed: " + ("; ".join(missed + part.misses) if missed or part.misses else "none"))
    print(json.dumps(dict(part.figures)))


if __name__ == "__main__":
    main()
