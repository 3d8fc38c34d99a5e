"""The benchmark's report (issue 8): ``python -m bench [--quick] [--profile]``.

Runs every measuring module in turn (the engines, the stored games, the kills, then on one
served app: logged plays, the table page in Chromium, the load), prints a table and, as its
last line, one JSON object with the figures, each measured in this run. What each figure
means is said in its module and in docs/BENCHMARKS.md, with the goals.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from bench import browser, engines, kills, load, nights, served, stored, trust
from bench.engines import profile_engines
from bench.harness import bench_server, serve_main
from bench.parts import FULL, QUICK, Figure, Part, Sizes
from bench.profiling import profile_plays
from bench.stored import lists_first_requests

GOALS = {
    "engine_kozel_vs_dominoes": (">=", 2),
    "play_vs_bare_flask": ("<=", 3),
    "late_vs_early": ("<=", 1.3),
    "table_page_kb": ("<=", 100),
    "table_page_requests": ("<=", 6),
    "tap_to_paint_ms": ("<=", 100),
    "load_errors": ("<=", 0),
    "kill_lost": ("<=", 0),
    "kill_doubled": ("<=", 0),
    "players_ms_20000": ("<=", 200),
    "leaderboard_ms_20000": ("<=", 200),
    "players_cold_ms_20000": ("<=", 200),
    "leaderboard_cold_ms_20000": ("<=", 200),
    "photo_storm_play_p99_ratio": ("<=", 2),
    "photo_read_peak_mb": ("<=", 300),
    "halfopen_play_ms": ("<=", 1000),
    "slow_play_ms": ("<=", 1000),
    "pdf_storm_play_p99_ratio": ("<=", 2),
    "night_mixer_repeats": ("<=", 0.5),
    "night_play_p99_ms": ("<=", 50),
    "night_play_errors": ("<=", 0),
    "night_next_ms": ("<=", 200),
}


def figure_names(sizes: Sizes) -> tuple[str, ...]:
    """The figures of the JSON line, in its order."""
    games = sizes.players_games
    return (
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
        f"players_ms_{games}",
        f"leaderboard_ms_{games}",
        f"players_cold_ms_{games}",
        f"leaderboard_cold_ms_{games}",
        "import_lock_ms",
        "kills",
        "kill_acknowledged",
        "kill_lost",
        "kill_doubled",
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
    )


def measure(sizes: Sizes) -> list[Part]:
    """Every measuring module, in the order of the table."""
    parts = [engines.run(sizes), stored.run(sizes), kills.run(sizes)]
    with bench_server() as server:
        parts += [served.run(sizes, server), browser.run(sizes, server), load.run(sizes, server)]
        parts.append(nights.run(sizes, server))  # a club night on the same served app
    with bench_server() as server:  # a server of its own: its memory and its readers start afresh
        parts.append(trust.run(sizes, server))
    return parts


def missed(figures: dict[str, Figure]) -> list[str]:
    """The figures that miss their goal."""
    misses = []
    for name, (op, goal) in GOALS.items():
        value = figures.get(name)
        if value is not None and not (value >= goal if op == ">=" else value <= goal):
            misses.append(name)
    return misses


def run(sizes: Sizes = FULL, out: Callable[[str], None] = print) -> dict[str, Figure]:
    """Measure everything, print the table through ``out`` and return the figures."""
    load_before = os.getloadavg()[0]
    parts = measure(sizes)
    found = {name: value for part in parts for name, value in part.figures.items()}
    names = figure_names(sizes)
    assert set(found) == set(names), set(found) ^ set(names)
    figures = {name: found[name] for name in names}
    rows = [row for part in parts for row in part.rows]
    width = max(len(row.name) for row in rows)
    out(
        f"Domino Referee benchmark ({sizes.name}; {os.cpu_count()} CPUs, "
        f"Python {sys.version.split()[0]}, load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after)"
    )
    for row in rows:
        out(f"  {row.name:<{width}}  {row.value:>12}  {row.detail}".rstrip())
    misses = missed(figures) + [miss for part in parts for miss in part.misses]
    out("  goals missed: " + ("; ".join(misses) if misses else "none"))
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Domino Referee benchmarks (issue 8).")
    parser.add_argument("--quick", action="store_true", help="a short smoke run (about half a minute)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print profiles of logged plays through the app and of the engines instead",
    )
    parser.add_argument("--serve", nargs=3, metavar=("DB", "PORT", "THREADS"), help=argparse.SUPPRESS)
    parser.add_argument("--lists-cold", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.lists_cold:
        print(json.dumps(lists_first_requests(args.lists_cold)), flush=True)
        return
    if args.serve:
        serve_main(args.serve[0], int(args.serve[1]), int(args.serve[2]))
        return
    if args.profile:
        print(profile_plays())
        print(profile_engines())
        return
    sizes = QUICK if args.quick else FULL
    figures = run(sizes)
    print(json.dumps(figures), flush=True)
