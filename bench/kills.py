"""Writes kept across kills: the product itself (``python -m referee.serve``) killed with
SIGKILL while tablets log keyed changes to it (each sent again with its key until the
restarted product answers), restarted, killed again; then every acknowledged change is
looked up in the event log (``kills``, ``kill_acknowledged``, ``kill_lost``,
``kill_doubled``)."""

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

from bench.driver import MT_GAME, GameDriver
from bench.harness import Client, free_port, repo_env
from bench.parts import Part, Row, Sizes
from referee.store import Store


class Kills(TypedDict):
    kills: int
    acknowledged: int
    lost: int
    doubled: int
    retried: int


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


RETRY_FOR = 60.0  # seconds a tablet sends a change again before it gives up


def bench_kills(kills: int = 5, clients: int = 4, seconds: float = 2.0, seed: int = 12) -> Kills:
    """Writes kept across kills: ``clients`` tablets log legal Mexican Train changes (plays,
    draws, passes, hands entries) to the served product as fast as it answers, each change
    with a ``key`` of its own (API.md); every ``seconds`` the product is killed with SIGKILL
    and restarted, ``kills`` times. A change whose answer a kill cut off is sent again with
    the same key until the restarted product answers, as the table page does. Then every
    acknowledged change (a 200 answer with its version) is looked up in the event log:
    ``lost`` counts those missing or different, ``doubled`` the changes logged more often
    than they were acknowledged (the goals: 0 and 0); ``retried`` counts the sends again."""
    workdir = tempfile.mkdtemp(prefix="referee-bench-kills-")
    database = os.path.join(workdir, "kills.db")
    acknowledged: list[tuple[str, int, str, dict[str, Any]]] = []
    retried = 0
    failures: list[str] = []
    lock = threading.Lock()
    server = ProductServer(database)
    finished = threading.Event()

    def send(client: Client, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """``body`` sent until the product answers (again after a kill, to its new port)."""
        nonlocal retried
        deadline = time.monotonic() + RETRY_FOR
        while True:
            try:
                status, data, _, _ = client.post(path, body)
                return status, data
            except (OSError, http.client.HTTPException, json.JSONDecodeError):
                if time.monotonic() > deadline:
                    raise
                with lock:
                    retried += 1
                time.sleep(0.05)
                client.conn.close()
                client.port = server.port  # (the restarted product listens on another port)
                client.conn = http.client.HTTPConnection("127.0.0.1", client.port, timeout=30)

    def tablet(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        client = Client(server.port)
        sent = 0
        try:
            driver: GameDriver | None = None
            while not finished.is_set():
                change = driver.next_change() if driver is not None else None
                if change is None:  # a new game (a game cut off at its creation is left unused)
                    status, data = send(client, "/api/games", MT_GAME)
                    if status != 201:
                        raise RuntimeError(f"creating a game refused: {status} {data}")
                    driver = GameDriver(rng, data["id"])
                    continue
                assert driver is not None
                kind, payload = change
                path, body = driver.request(kind, payload)
                sent += 1
                status, data = send(client, path, {**body, "key": f"t{index}-{sent:06d}"})
                if status != 200:
                    raise RuntimeError(f"{path} refused: {status} {data}")
                driver.accepted(kind, payload)
                with lock:
                    acknowledged.append((driver.id, data["version"], kind, payload))
        except (OSError, http.client.HTTPException, json.JSONDecodeError) as error:
            with lock:
                failures.append(f"tablet {index}: no answer within {RETRY_FOR:g} s: {error}")
        except RuntimeError as error:
            with lock:
                failures.append(str(error))
        finally:
            client.close()

    try:
        server.start()
        threads = [threading.Thread(target=tablet, args=(i,)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for _burst in range(kills):
            time.sleep(seconds)
            server.kill()
            server.start()  # the app opens the database the kill left; the tablets send again
        time.sleep(min(seconds, 0.5))  # every tablet's retry answered
        finished.set()
        for thread in threads:
            thread.join(RETRY_FOR + 30)
        server.kill()
        store = Store(database)
        lost = doubled = 0
        try:
            per_game: dict[str, int] = {}
            for game_id, version, kind, payload in acknowledged:
                per_game[game_id] = per_game.get(game_id, 0) + 1
                row = store.db.execute(
                    "select kind, payload from events where game_id = ? and version = ?", [game_id, version]
                ).fetchone()
                if row is None or row[0] != kind or json.loads(row[1]) != payload:
                    lost += 1
            for game_id, changes in per_game.items():
                logged = store.db.execute(
                    "select count(*) from events where game_id = ?", [game_id]
                ).fetchone()[0]
                doubled += max(0, logged - 1 - changes)  # (its creation, then one event a change)
        finally:
            store.close()
        if failures:
            raise RuntimeError("kill bench: " + "; ".join(failures[:3]))
        return {
            "kills": kills,
            "acknowledged": len(acknowledged),
            "lost": lost,
            "doubled": doubled,
            "retried": retried,
        }
    finally:
        finished.set()
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)


def run(sizes: Sizes) -> Part:
    killed = bench_kills(sizes.kills, seconds=sizes.kill_after)
    row = Row(
        f"writes kept across {killed['kills']} kill -9",
        f"{killed['acknowledged'] - killed['lost']} of {killed['acknowledged']}",
        f"acknowledged changes found after the restarts, lost {killed['lost']}, logged twice "
        f"{killed['doubled']} (goals 0); {killed['retried']} sends again with the same key after a kill",
    )
    figures = {
        "kills": killed["kills"],
        "kill_acknowledged": killed["acknowledged"],
        "kill_lost": killed["lost"],
        "kill_doubled": killed["doubled"],
    }
    return Part([row], figures)
