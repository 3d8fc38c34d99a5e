"""Many tablets at once on the served app (bench/harness.py).

- ``load_p99_ms_30_clients`` / ``load_errors``: 30 concurrent clients, each logging an
  action per second (its own game) for 30 s (5 s with ``--quick``).
- ``mixed_p99_ms`` / ``mixed_errors``: plays under everything at once: the tablets, phones
  following the games, and scoresheet PDFs asked for at the same moment.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from typing import TypedDict

from bench.driver import GameDriver
from bench.harness import Client, Server, get
from bench.parts import Part, Row, Sizes, percentile
from bench.screens import look_at_stream


class Load(TypedDict):
    requests: int
    errors: int
    error_samples: list[str]
    p50_ms: float
    p99_ms: float
    max_ms: float
    clients: int
    seconds: float


class MixedLoad(TypedDict):
    plays: int
    errors: int
    error_samples: list[str]
    p50_ms: float
    p99_ms: float
    max_ms: float
    pdf_status: dict[int, int]  # how many PDFs were answered with each HTTP status
    app_p99_ms: float
    slowest: list[tuple[int, float]]  # (ms, seconds after the start) of the slowest plays
    clients: int
    followers: int
    pdfs: int
    seconds: float
    acknowledged: dict[str, int]  # changes answered 200, by game (warm-up included)
    plays_while_pdfs: int  # plays answered between the PDFs' asking and the last PDF made


def bench_load(server: Server, clients: int, seconds: float, rate: float = 1.0, seed: int = 4) -> Load:
    """``clients`` threads, each with its own game and connection, each logging one change
    per 1/``rate`` s at a random phase, for ``seconds``; every change is a legal one."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    ready = threading.Barrier(clients + 1)
    master = random.Random(seed)
    seeds = [master.random() for _ in range(clients)]
    start_box: list[float] = []

    def run(index: int) -> None:
        rng = random.Random(seeds[index])
        client = Client(server.port)
        try:
            driver = GameDriver(rng, client.create_game())
        except Exception as error:  # counted below: a client that cannot start is an error
            with lock:
                errors.append(f"create: {error!r}")
            ready.wait()
            return
        ready.wait()
        begin = start_box[0] + rng.random() / rate
        sent = 0
        while True:
            due = begin + sent / rate
            if due - start_box[0] >= seconds:
                break
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            sent += 1
            driver, took, _, _ = client.play_next(driver, rng, errors, lock)
            if took is not None:
                with lock:
                    latencies.append(took)
        client.close()

    threads = [threading.Thread(target=run, args=(index,), daemon=True) for index in range(clients)]
    for thread in threads:
        thread.start()
    start_box.append(time.perf_counter() + 0.2)
    ready.wait()
    for thread in threads:
        thread.join(seconds + 60)
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "error_samples": errors[:3],
        "p50_ms": percentile(latencies, 0.5),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": max(latencies) if latencies else float("nan"),
        "clients": clients,
        "seconds": seconds,
    }


def bench_mixed(
    server: Server,
    clients: int = 30,
    followers: int = 100,
    pdfs: int = 20,
    plays_each: int = 20,
    rate: float = 4.0,
    warmup: int = 3,
    follow_seconds: float = 3.0,
    seed: int = 9,
) -> MixedLoad:
    """Plays under everything at once: ``clients`` tablets each log ``plays_each`` legal
    changes (``rate`` a second, after ``warmup`` unmeasured ones) while ``followers`` phones
    follow the games (event stream, then the fragment, again and again) and ``pdfs``
    scoresheet PDFs are asked for at the same moment. Only the plays are timed; a PDF may be
    answered 503 with Retry-After (the bound), anything else unexpected is an error."""
    latencies: list[float] = []
    errors: list[str] = []
    pdf_status: dict[int, int] = {}
    lock = threading.Lock()
    master = random.Random(seed)
    seeds = [master.random() for _ in range(clients)]
    games: list[str] = []
    drivers: list[tuple[Client, GameDriver]] = []
    for index in range(clients):  # set up and warm up, unmeasured
        client = Client(server.port)
        driver = GameDriver(random.Random(seeds[index]), client.create_game())
        for _ in range(warmup):
            client.step(driver)
        games.append(driver.id)
        drivers.append((client, driver))
    # warm the other paths up too (first renders compile their templates), unmeasured
    get(server.port, f"/games/{games[0]}/follow/fragment")
    get(server.port, f"/games/{games[0]}/scoresheet.pdf", 60)
    start = threading.Event()
    done = threading.Event()
    slow: list[tuple[float, float]] = []  # (ms, seconds after the start) of each play
    app_times: list[float] = []  # the app's own time of each play (Server-Timing)
    begun = [0.0]
    answered_at: list[float] = []  # when each play was answered (perf_counter)
    pdfs_made_at: list[float] = []  # when each PDF answered 200 arrived
    finals: dict[int, GameDriver] = {}

    def tablet(index: int) -> None:
        client, driver = drivers[index]
        rng = random.Random(seeds[index] + 1)
        start.wait()
        begin = time.perf_counter() + rng.random() / rate
        for sent in range(plays_each):
            pause = begin + sent / rate - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            driver, took, inside, started = client.play_next(driver, rng, errors, lock)
            if took is not None:
                with lock:
                    latencies.append(took)
                    app_times.append(inside)
                    slow.append((took, started - begun[0]))
                    answered_at.append(time.perf_counter())
        finals[index] = driver
        client.close()

    def follower(index: int) -> None:
        """A phone on the follow page (static/app.js): the event stream from the version it
        shows, the fragment when a newer version is announced, again after the retry."""
        game = games[index % len(games)]
        shown = 0
        start.wait()
        done.wait(index / followers)  # phones are not in step: their first looks spread over a second
        while not done.is_set():
            retry = 1.5
            try:
                retry, newer = look_at_stream(server.port, game, shown, follow_seconds)
                if newer is not None:
                    status, _, _ = get(server.port, f"/games/{game}/follow/fragment")
                    if status != 200:
                        with lock:
                            errors.append(f"fragment: {status}")
                    shown = newer
            except (OSError, http.client.HTTPException) as error:  # (a timeout is an error too)
                with lock:
                    errors.append(f"follow: {error!r}")
            done.wait(retry + (index % 10) / 20)

    def pdf(index: int) -> None:
        game = games[index % len(games)]
        start.wait()
        lang = ("en", "hi", "pa", "hu")[index % 4]
        try:
            status, headers, body = get(
                server.port, f"/games/{game}/scoresheet.pdf", 60, {"Accept-Language": lang}
            )
        except (OSError, http.client.HTTPException) as error:
            with lock:
                errors.append(f"pdf: {error!r}")
            return
        with lock:
            pdf_status[status] = pdf_status.get(status, 0) + 1
            if status == 200:
                pdfs_made_at.append(time.perf_counter())
            if status == 200 and not body.startswith(b"%PDF"):
                errors.append("pdf: not a PDF")
            elif status == 503 and not headers.get("Retry-After"):
                errors.append("pdf: 503 without Retry-After")
            elif status not in (200, 503):
                errors.append(f"pdf: {status}")

    threads = [threading.Thread(target=tablet, args=(i,), daemon=True) for i in range(clients)]
    threads += [threading.Thread(target=follower, args=(i,), daemon=True) for i in range(followers)]
    threads += [threading.Thread(target=pdf, args=(i,), daemon=True) for i in range(pdfs)]
    for thread in threads:
        thread.start()
    started = begun[0] = time.perf_counter()
    start.set()
    for thread in threads[:clients]:
        thread.join(plays_each / rate + 60)
    done.set()
    for thread in threads[clients:]:
        thread.join(follow_seconds + 60)
    last_pdf = max(pdfs_made_at, default=started)
    return {
        "plays": len(latencies),
        "errors": len(errors),
        "error_samples": errors[:3],
        "p50_ms": percentile(latencies, 0.5),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": max(latencies) if latencies else float("nan"),
        "pdf_status": pdf_status,
        "app_p99_ms": percentile(app_times, 0.99),
        "slowest": [(round(ms), round(at, 1)) for ms, at in sorted(slow, reverse=True)[:8]],
        "clients": clients,
        "followers": followers,
        "pdfs": pdfs,
        "seconds": time.perf_counter() - started,
        "acknowledged": {driver.id: driver.actions for driver in finals.values()},
        "plays_while_pdfs": sum(started <= at <= last_pdf for at in answered_at),
    }


def run(sizes: Sizes, server: Server) -> Part:
    load = bench_load(server, sizes.load_clients, sizes.load_seconds)
    full = sizes.load_clients >= 30  # (the smoke test runs a small copy)
    mixed = bench_mixed(
        server,
        clients=sizes.load_clients,
        followers=100 if full else 10,
        pdfs=20 if full else 3,
        plays_each=max(5, int(sizes.load_seconds)),
        rate=1.0,
    )
    rows = [
        Row(
            f"load: {sizes.load_clients} clients x 1 action/s",
            f"p99 {load['p99_ms']:.1f} ms",
            f"p50 {load['p50_ms']:.1f} ms, max {load['max_ms']:.1f} ms, "
            f"{load['requests']} requests in {load['seconds']:.0f} s, errors {load['errors']}"
            + (f" e.g. {load['error_samples'][0]}" if load["error_samples"] else ""),
        ),
        Row(
            f"plays under {mixed['pdfs']} PDFs + {mixed['followers']} followers",
            f"p99 {mixed['p99_ms']:.1f} ms",
            f"p50 {mixed['p50_ms']:.1f} ms, max {mixed['max_ms']:.1f} ms, {mixed['plays']} plays of "
            f"{mixed['clients']} tablets, PDFs {mixed['pdf_status']}, errors {mixed['errors']}",
        ),
    ]
    figures = {
        "load_p99_ms_30_clients": round(load["p99_ms"], 2),
        "load_errors": load["errors"],
        "mixed_p99_ms": round(mixed["p99_ms"], 2),
        "mixed_errors": mixed["errors"],
    }
    return Part(rows, figures)
