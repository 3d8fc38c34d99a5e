"""Plays stay quick while phones follow the games and scoresheet PDFs are asked for, all at
once, against the app served by waitress in its own process (as ``scripts/serve`` does):
30 tablets log 15 legal changes each (after a warm-up), 100 phones follow, 20 PDFs are
asked for at the same moment. Only the plays are timed, as the tablets see them.

Why a second pass. The suite runs on shared machines (two cores, other programs' test runs
beside it): a burst of someone else's work can stall the server process for a few hundred
milliseconds, which lands in the handful of plays that make the p99 (5 of 450). So a first
pass whose p99 misses 100 ms is followed by a second, fresh pass; the bound holds when one
pass meets it on its own, and every error check applies to both passes. Both passes are
always printed (``-s`` or a failure shows them).

Why it still fails when plays are slow. A slow play is slow in every pass: the slowness
comes from the app (a lock held, a costly write), not from a moment of the machine, so both
passes miss and the test fails. ``test_slow_plays_fail_the_load_test`` shows it: the same
measure and verdict against an app whose every change takes 150 ms inside its write fail,
after the second pass. Each pass is a fixed workload (seeded games, fixed rates), so the
test's length does not depend on luck: two passes of about 20 s at most."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bench.harness import Server
from bench.load import bench_mixed
from referee.serve import THREADS as SERVE_THREADS

BOUND_MS = 100


def run(path: Path, slow_play_ms: float = 0, small: bool = False) -> dict:
    server = Server(str(path), threads=SERVE_THREADS, slow_play_ms=slow_play_ms)
    try:
        if small:
            return bench_mixed(server, clients=4, followers=0, pdfs=0, plays_each=6, rate=4.0)
        return bench_mixed(server, clients=30, followers=100, pdfs=20, plays_each=15, rate=1.0)
    finally:
        server.stop()


def passes(folder: Path, measure: Callable[[Path], dict]) -> list[dict]:
    """One pass, and a second when the first misses the bound; both printed."""
    runs = [measure(folder / "pass-1.db")]
    if runs[0]["p99_ms"] >= BOUND_MS:
        runs.append(measure(folder / "pass-2.db"))
    for number, figures in enumerate(runs, start=1):
        print(
            f"load pass {number}: p99 {figures['p99_ms']:.1f} ms, p50 {figures['p50_ms']:.1f} ms, "
            f"max {figures['max_ms']:.1f} ms, {figures['plays']} plays, errors {figures['errors']}, "
            f"PDFs {figures['pdf_status']}, slowest {figures['slowest'][:3]}"
        )
    return runs


def verdict(runs: list[dict]) -> None:
    """The bound holds when one pass meets it on its own."""
    summary = [(round(f["p99_ms"], 1), f["slowest"][:3]) for f in runs]
    assert min(f["p99_ms"] for f in runs) < BOUND_MS, f"p99 of every pass (ms, slowest plays): {summary}"


def test_plays_stay_under_100_ms_at_p99_under_pdfs_and_followers(tmp_path):
    runs = passes(tmp_path, run)
    for figures in runs:
        assert figures["errors"] == 0, figures
        assert figures["plays"] == 30 * 15
        assert sum(figures["pdf_status"].values()) == 20
        assert set(figures["pdf_status"]) <= {200, 503}
        assert figures["pdf_status"].get(200, 0) >= 1, figures  # PDFs were made meanwhile
        assert figures["seconds"] < 30, figures
    verdict(runs)


def test_slow_plays_fail_the_load_test(tmp_path):
    """The guard against a busy machine does not hide a slow app: with every change slowed
    by 150 ms (inside its write, as a real costly play would be), both passes miss and the
    verdict fails."""
    runs = passes(tmp_path, lambda path: run(path, slow_play_ms=150, small=True))
    assert len(runs) == 2
    assert all(f["errors"] == 0 and f["plays"] == 4 * 6 for f in runs), runs
    with pytest.raises(AssertionError, match="p99 of every pass"):
        verdict(runs)
