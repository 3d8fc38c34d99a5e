"""Writes kept across kills: the product itself (``python -m referee.serve``) killed with
SIGKILL while tablets log changes to it, restarted, killed again; then every acknowledged
change is looked up in the event log (``kills``, ``kill_acknowledged``, ``kill_lost``)."""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, TypedDict

from bench.driver import GameDriver
from bench.harness import Client, free_port, repo_env
from bench.parts import Part, Row, Sizes
from referee.store import Store


class Kills(TypedDict):
    kills: int
    acknowledged: int
    lost: int
    cut_off: int


class ProductServer:
    """The product itself, ``python -m referee.serve``, on a database file: started, and
    killed with SIGKILL (no clean shutdown, no checkpoint: as a power cut for the app)."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee.serve", "--port", str(self.port), "--no-prompt"],
            env={**repo_env(), "REFEREE_DB": self.database},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the served app died on start")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/api/games")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the served app did not start within 30 s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL
            self.process.wait(10)


def bench_kills(kills: int = 5, clients: int = 4, seconds: float = 2.0, seed: int = 12) -> Kills:
    """Writes kept across kills: ``clients`` tablets log legal Mexican Train changes (plays,
    draws, passes, hands entries) to the served product as fast as it answers; after
    ``seconds`` it is killed with SIGKILL, restarted, and so on ``kills`` times. Then every
    acknowledged change (a 200 answer with its version) is looked up in the event log:
    ``lost`` counts those missing or different (the goal: 0). A request cut off by a kill
    (``cut_off``) was never acknowledged, so it may or may not be there."""
    workdir = tempfile.mkdtemp(prefix="referee-bench-kills-")
    database = os.path.join(workdir, "kills.db")
    acknowledged: list[tuple[str, int, str, dict[str, Any]]] = []
    cut_off = 0
    failures: list[str] = []
    lock = threading.Lock()
    server = ProductServer(database)
    try:
        for burst in range(kills):
            server.start()
            stop = threading.Event()

            def tablet(index: int, burst: int = burst, stop: threading.Event = stop) -> None:
                nonlocal cut_off
                rng = random.Random(seed * 1000 + burst * 100 + index)
                client = Client(server.port)
                try:
                    driver = GameDriver(rng, client.create_game())
                    while not stop.is_set():
                        driver, kind, payload, path, body = client.next_request(driver, rng)
                        status, data, _, _ = client.post(path, body)
                        if status != 200:
                            raise RuntimeError(f"{path} refused: {status} {data}")
                        driver.accepted(kind, payload)
                        with lock:
                            acknowledged.append((driver.id, data["version"], kind, payload))
                except (OSError, http.client.HTTPException, json.JSONDecodeError):
                    with lock:
                        if stop.is_set():
                            cut_off += 1
                        else:
                            failures.append(f"tablet {index}: the connection failed before the kill")
                except RuntimeError as error:
                    with lock:
                        failures.append(str(error))
                finally:
                    client.close()

            threads = [threading.Thread(target=tablet, args=(i,)) for i in range(clients)]
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            server.kill()
            for thread in threads:
                thread.join(30)
        server.start()  # a last start: the app opens the database the kills left
        server.kill()
        store = Store(database)
        lost = 0
        try:
            for game_id, version, kind, payload in acknowledged:
                row = store.db.execute(
                    "select kind, payload from events where game_id = ? and version = ?", [game_id, version]
                ).fetchone()
                if row is None or row[0] != kind or json.loads(row[1]) != payload:
                    lost += 1
        finally:
            store.close()
        if failures:
            raise RuntimeError("kill bench: " + "; ".join(failures[:3]))
        return {"kills": kills, "acknowledged": len(acknowledged), "lost": lost, "cut_off": cut_off}
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)


def run(sizes: Sizes) -> Part:
    killed = bench_kills(sizes.kills, seconds=sizes.kill_after)
    row = Row(
        f"writes kept across {killed['kills']} kill -9",
        f"{killed['acknowledged'] - killed['lost']} of {killed['acknowledged']}",
        f"acknowledged changes found after the restarts, lost {killed['lost']} (goal 0); "
        f"{killed['cut_off']} requests cut off by the kills (never acknowledged)",
    )
    figures = {
        "kills": killed["kills"],
        "kill_acknowledged": killed["acknowledged"],
        "kill_lost": killed["lost"],
    }
    return Part([row], figures)
