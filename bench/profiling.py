"""Where the time goes (``python -m bench --profile``): logged plays through the app, and the
engines' random rounds (``bench.engines.profile_engines``)."""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import random
import shutil
import tempfile
from collections.abc import Callable

from bench.driver import MT_GAME, GameDriver
from referee.web import create_app


def profile_plays(changes: int = 400, seed: int = 6) -> str:
    """A profile of logged Mexican Train changes through the app, in-process (Flask's
    test client, so no sockets): pyinstrument's call tree when it is installed (the
    ``bench`` extra), else cProfile's table."""
    try:
        from pyinstrument import Profiler  # optional: the "bench" extra
    except ImportError:
        profiler = cProfile.Profile()
        _log_changes(changes, seed, profiler.enable, profiler.disable)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
        return out.getvalue()
    sampler = Profiler(interval=0.0001)
    _log_changes(changes, seed, sampler.start, sampler.stop)
    tree: str = sampler.output_text(unicode=True, color=False, show_all=False)
    return tree


def _log_changes(changes: int, seed: int, start: Callable[[], object], stop: Callable[[], object]) -> None:
    """Log ``changes`` changes of Mexican Train games through a fresh app, each request
    between ``start()`` and ``stop()``."""
    workdir = tempfile.mkdtemp(prefix="referee-bench-")
    try:
        app = create_app({"DATABASE": os.path.join(workdir, "profile.db"), "SECRET_KEY": "bench-secret"})
        client = app.test_client()
        rng = random.Random(seed)
        driver = GameDriver(rng, client.post("/api/games", json=MT_GAME).get_json()["id"])
        for _ in range(changes):
            change = driver.next_change()
            if change is None:
                driver = GameDriver(rng, client.post("/api/games", json=MT_GAME).get_json()["id"])
                continue
            path, body = driver.request(*change)
            start()
            response = client.post(path, json=body)
            stop()
            if response.status_code != 200:
                raise RuntimeError(f"refused: {response.get_json()}")
            driver.accepted(*change)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
