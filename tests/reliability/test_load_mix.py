"""Plays stay quick while phones follow the games and scoresheet PDFs are asked for, all at
once, against the app served by waitress in its own process (as ``scripts/serve`` does):
30 tablets log 15 legal changes each (after a warm-up), 100 phones follow, 20 PDFs are
asked for at the same moment. Only the plays are timed.

The machine running the suite may be busy with other work: a run whose p99 misses the
bound is run once more, and the better run must hold (both are shown when it fails)."""

from __future__ import annotations

from bench import core as bench


def run(path) -> dict:
    server = bench.Server(str(path), threads=bench.SERVE_THREADS)
    try:
        return bench.bench_mixed(server, clients=30, followers=100, pdfs=20, plays_each=15, rate=1.0)
    finally:
        server.stop()


def test_plays_stay_under_100_ms_at_p99_under_pdfs_and_followers(tmp_path):
    runs = [run(tmp_path / "mix-1.db")]
    if runs[0]["p99_ms"] >= 100:
        runs.append(run(tmp_path / "mix-2.db"))
    for figures in runs:
        assert figures["errors"] == 0, figures
        assert figures["plays"] == 30 * 15
        assert sum(figures["pdf_status"].values()) == 20
        assert set(figures["pdf_status"]) <= {200, 503}
        assert figures["pdf_status"].get(200, 0) >= 1, figures  # PDFs were made meanwhile
        assert figures["seconds"] < 30, figures
    assert min(f["p99_ms"] for f in runs) < 100, runs
