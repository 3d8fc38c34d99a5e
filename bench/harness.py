"""The served app as the benchmark sees it: the product's app in a waitress subprocess (its
own interpreter and GIL), with a bare endpoint and the app's own time of each request added
by the benchmark only; and the HTTP clients that talk to it.

"Server time" is measured inside the server process by a WSGI wrapper (the time from the
request reaching the Flask app to its response headers, sent back in ``Server-Timing``);
the client round trip over a keep-alive HTTP connection is shown beside it in the table.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from waitress import serve

from bench.driver import MT_GAME, GameDriver
from referee.serve import THREADS as SERVE_THREADS
from referee.serve import server_options
from referee.store import Store
from referee.web import create_app
from referee.web.extensions import csrf

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

BARE_PATH = "/bench/bare"


def make_bench_app(database: str) -> Flask:
    """The product's app plus, for this benchmark only, a bare JSON endpoint and a WSGI
    wrapper that reports the app's own time of each request in ``Server-Timing``."""
    app = create_app({"DATABASE": database, "SECRET_KEY": "bench-secret"})

    @app.post(BARE_PATH)
    def bench_bare() -> ResponseReturnValue:
        body = request.get_json(silent=True)
        return jsonify({"ok": True, "echo": body})

    csrf.exempt(bench_bare)  # like the API: JSON only

    inner = app.wsgi_app

    def timed(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()

        def respond(
            status: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            headers.append(("Server-Timing", f"app;dur={(time.perf_counter() - started) * 1000:.4f}"))
            return start_response(status, headers, exc_info)

        return inner(environ, respond)

    app.wsgi_app = timed  # type: ignore[method-assign]  # Flask's documented way to wrap the WSGI app
    return app


def serve_main(database: str, port: int, threads: int) -> None:
    """The bench server's process (``python -m bench --serve DB PORT THREADS``)."""
    if os.environ.get("REFEREE_BENCH_SLOW_PLAY_MS"):
        _what_if_slow_plays(float(os.environ["REFEREE_BENCH_SLOW_PLAY_MS"]))
    serve(
        make_bench_app(database),
        host="127.0.0.1",
        port=port,
        ident="domino-referee-bench",
        _quiet=True,
        **server_options(threads),
    )


def _what_if_slow_plays(ms: float) -> None:
    """A deliberately slow app (for the test that the load test fails when plays are
    slow): every logged change waits ``ms`` inside its write transaction. Not the product."""
    original = Store._append

    def slow(self: Store, *args: Any, **kwargs: Any) -> None:
        time.sleep(ms / 1000)
        original(self, *args, **kwargs)

    Store._append = slow  # type: ignore[method-assign,assignment]  # the test's slow app, in its own process only


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def repo_env() -> dict[str, str]:
    """This environment, with the repository on the path (for ``python -m bench``)."""
    root = Path(__file__).resolve().parents[1]
    return dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    )


class Server:
    """The bench app served by waitress in a subprocess (its own interpreter and GIL)."""

    def __init__(self, database: str, threads: int = SERVE_THREADS, slow_play_ms: float = 0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = repo_env()
        if slow_play_ms:
            env["REFEREE_BENCH_SLOW_PLAY_MS"] = str(slow_play_ms)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench", "--serve", database, str(self.port), str(threads)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("bench server died: " + self._stderr()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("bench server did not start")

    def _stderr(self) -> str:
        return self.process.stderr.read().decode() if self.process.stderr else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()


@contextmanager
def bench_server() -> Iterator[Server]:
    """A bench server on a fresh database file, removed with it afterwards."""
    workdir = tempfile.mkdtemp(prefix="referee-bench-")
    try:
        with Server(os.path.join(workdir, "bench.db")) as server:
            yield server
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


class Client:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: object) -> tuple[int, Any, float, float]:
        """POST JSON; returns (status, the answer's JSON, round trip ms, server ms)."""
        data = json.dumps(body).encode()
        started = time.perf_counter()
        try:
            self.conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
            response = self.conn.getresponse()
            raw = response.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            raise
        trip = (time.perf_counter() - started) * 1000
        timing = response.getheader("Server-Timing") or "app;dur=nan"
        server = float(timing.split("dur=")[1])
        return response.status, json.loads(raw or b"null"), trip, server

    def create_game(self, config: dict[str, Any] = MT_GAME) -> str:
        status, data, _, _ = self.post("/api/games", config)
        if status != 201:
            raise RuntimeError(f"creating a game failed: {status} {data}")
        game_id: str = data["id"]
        return game_id

    def next_request(
        self, driver: GameDriver, rng: random.Random
    ) -> tuple[GameDriver, str, dict[str, Any], str, dict[str, Any]]:
        """The driver's next change as a request, on a new game once that one is finished:
        (the driver now in use, kind, payload, path, body)."""
        change = driver.next_change()
        if change is None:
            driver = GameDriver(rng, self.create_game())
            change = driver.next_change()
        assert change is not None
        kind, payload = change
        path, body = driver.request(kind, payload)
        return driver, kind, payload, path, body

    def play_next(
        self, driver: GameDriver, rng: random.Random, errors: list[str], lock: threading.Lock
    ) -> tuple[GameDriver, float | None, float, float]:
        """Send the driver's next change as a tablet under load does: (the driver now in use,
        the round trip in ms or None when the request failed, the server's ms, when it was
        sent). A failure or a refusal is added to ``errors``; an accepted change moves the
        driver on."""
        driver, kind, payload, path, body = self.next_request(driver, rng)
        started = time.perf_counter()
        try:
            status, data, _, inside = self.post(path, body)
        except Exception as error:
            with lock:
                errors.append(f"{path}: {error!r}")
            return driver, None, float("nan"), started
        took = (time.perf_counter() - started) * 1000
        if status == 200:
            driver.accepted(kind, payload)
        else:
            with lock:
                errors.append(f"{path}: {status} {data}")
        return driver, took, inside, started

    def step(self, driver: GameDriver) -> tuple[str, int, float, float] | None:
        """Log the driver's next change; returns (action type or "hands", status, trip, server)."""
        change = driver.next_change()
        if change is None:
            return None
        kind, payload = change
        path, body = driver.request(kind, payload)
        status, data, trip, server = self.post(path, body)
        if status != 200:
            raise RuntimeError(f"{path} {body} refused: {status} {data}")
        driver.accepted(kind, payload)
        return (payload["type"] if kind == "action" else "hands"), status, trip, server

    def close(self) -> None:
        self.conn.close()


def get(
    port: int, path: str, timeout: float = 30, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One GET on a connection of its own: (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()
