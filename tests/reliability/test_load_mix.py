"""Plays are served while phones follow the games and scoresheet PDFs are asked for, all at
once, against the app served by waitress in its own process (as ``scripts/serve`` does):
30 tablets log 15 legal changes each (after a warm-up), 100 phones follow, 20 PDFs are
asked for at the same moment.

What is asserted is behaviour, never a time: every play is answered 200 and is in the game
afterwards (nothing lost, nothing refused wrongly), every PDF is made or answered 503 with
``Retry-After`` (nothing else), at least one PDF is made, and plays are answered while the
PDFs are being made (the PDFs never hold the plays back until they are done).

Why no time. The plays' p99 under this load (goal: under 100 ms) depends on the machine as
much as on the app: on a shared 2-core machine, a burst of someone else's work stalls the
server for a few hundred milliseconds and lands in the handful of plays that make the p99,
and no second pass makes that certain. The timing claim lives in the benchmark, where its
figure is taken with the machine's load beside it: ``mixed_p99_ms`` of ``python -m bench``
(bench/load.py, the same measure) and the storms' ratios of bench/trust.py."""

from __future__ import annotations

import json
from pathlib import Path

from bench.harness import Client, Server, get
from bench.load import bench_mixed
from referee.serve import THREADS as SERVE_THREADS

TABLETS, PLAYS_EACH, WARMUP, PDFS = 30, 15, 3, 20


def test_plays_are_served_and_kept_while_pdfs_are_made_and_phones_follow(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "load.db"), threads=SERVE_THREADS)
    try:
        figures = bench_mixed(
            server, clients=TABLETS, followers=100, pdfs=PDFS, plays_each=PLAYS_EACH, rate=1.0, warmup=WARMUP
        )
        print(
            f"load: p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms (not asserted), "
            f"{figures['plays']} plays, {figures['plays_while_pdfs']} while PDFs were made, "
            f"PDFs {figures['pdf_status']}, errors {figures['errors']} {figures['error_samples']}"
        )
        assert figures["errors"] == 0, figures["error_samples"]
        assert figures["plays"] == TABLETS * PLAYS_EACH
        # nothing lost: every change answered 200 is in its game (versions grow by one each,
        # from the version of a game just created)
        fresh = Client(server.port)
        status, _headers, body = get(server.port, f"/api/games/{fresh.create_game()}")
        fresh.close()
        created = json.loads(body)["version"]
        assert len(figures["acknowledged"]) == TABLETS
        for game_id, acknowledged in figures["acknowledged"].items():
            status, _headers, body = get(server.port, f"/api/games/{game_id}")
            assert status == 200
            assert json.loads(body)["version"] == created + acknowledged == created + WARMUP + PLAYS_EACH
        assert sum(figures["pdf_status"].values()) == PDFS
        assert set(figures["pdf_status"]) <= {200, 503}
        assert figures["pdf_status"].get(200, 0) >= 1, figures["pdf_status"]
        assert figures["plays_while_pdfs"] >= 1, figures  # the plays did not wait for the PDFs
    finally:
        server.stop()
