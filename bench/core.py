"""Benchmarks (issue 8): ``python -m bench [--quick] [--profile]``.

Prints a table and, as its last line, one JSON object with the figures of issue 8, each
measured in this run (see docs/BENCHMARKS.md for what each one means and the goals):

- ``engine_kozel_vs_dominoes``: random full Kozel rounds/s (4 players, hidden hands, bots
  that play the first legal tile, every action applied through ``KozelRound.apply``, which
  validates it) divided by random full games/s of the PyPI ``dominoes`` library (4 players,
  double-six, random valid moves); ``null`` when ``dominoes`` is not installed.
- ``engine_mt_rounds_per_s``: the same for Mexican Train (8 players, double-12).
- ``play_vs_bare_flask``: median server time of a logged Mexican Train play through the
  served app (waitress in a subprocess, real HTTP) divided by that of a bare Flask JSON
  endpoint added to the same app, in the same server, by this script only.
- ``late_vs_early``: median server time of a logged play after 500 actions in the game
  divided by one after 5.
- ``table_page_kb`` / ``table_page_requests``: bytes (headers and bodies) and requests of a
  first load of ``/games/<id>/table`` in Chromium; ``null`` without Chromium or Playwright.
- ``taps_per_play`` / ``taps_per_hands_entry``: taps a person needs at the table page in
  Chromium (1024×768) per logged play, and per player's hand at the round's end (a Mexican
  Train round from a known deal, bench/taps.py; every tap checked to need no scrolling);
  ``null`` without Chromium or Playwright.
- ``load_p99_ms_30_clients`` / ``load_errors``: 30 concurrent clients, each logging an
  action per second (its own game) for 30 s (5 s with ``--quick``).

"Server time" is measured inside the server process by a WSGI wrapper (the time from the
request reaching the Flask app to its response headers, sent back in ``Server-Timing``);
the client round trip over a keep-alive HTTP connection is shown beside it in the table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.match import GameConfig, Match
from referee.rules.base import Action
from referee.rules.kozel import Kozel, KozelOptions, KozelRound, lead_order
from referee.rules.mexican_train import MexicanTrain, MexicanTrainOptions, MexicanTrainRound
from referee.serve import THREADS as SERVE_THREADS
from referee.store import apply_event
from referee.tiles import full_set

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
KOZEL_PLAYERS = ("Ana", "Boris", "Vera", "Gleb")
MT_PLAYERS = ("Ana", "Ben", "Chloé", "Dara", "Eli", "Fay", "Gus", "Hana")
MT_GAME = {"game": "mexican-train", "set": 12, "players": list(MT_PLAYERS)}
BARE_PATH = "/bench/bare"
GOALS = {
    "engine_kozel_vs_dominoes": (">=", 2),
    "play_vs_bare_flask": ("<=", 3),
    "late_vs_early": ("<=", 1.3),
    "table_page_kb": ("<=", 100),
    "table_page_requests": ("<=", 6),
    "load_errors": ("<=", 0),
    "kill_lost": ("<=", 0),
    "players_ms_20000": ("<=", 200),
    "leaderboard_ms_20000": ("<=", 200),
    "players_cold_ms_20000": ("<=", 200),
    "leaderboard_cold_ms_20000": ("<=", 200),
}


# ----- engines ---------------------------------------------------------------------------


def _timed_loop(seconds: float, one: Callable[[], int]) -> tuple[int, int, float]:
    """Call ``one`` (which returns the actions it took) until ``seconds`` have passed."""
    count = actions = 0
    start = time.perf_counter()
    while True:
        actions += one()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, actions, elapsed


_KOZEL_TILES = full_set(6)  # ordered as sorted: 0-0, 0-1, … 6-6
_KOZEL_LOW = tuple(tile.low for tile in _KOZEL_TILES)
_KOZEL_HIGH = tuple(tile.high for tile in _KOZEL_TILES)
_LEAD_ORDER = tuple(_KOZEL_TILES.index(tile) for tile in lead_order())
_KOZEL_SETUPS: dict[tuple[int, str | None], Any] = {}
# Actions are immutable values, made once: _KOZEL_PLAYS[seat][tile][on + 1] (on -1: none).
_KOZEL_PLAYS = tuple(
    tuple(
        tuple(
            Action("play", name, tile, None, _KOZEL_TILES[on] if on >= 0 else None)
            for on in range(-1, len(_KOZEL_TILES))
        )
        for tile in _KOZEL_TILES
    )
    for name in KOZEL_PLAYERS
)
_KOZEL_PASSES = tuple(Action("pass", name) for name in KOZEL_PLAYERS)
_KOZEL_SEATS = {name: seat for seat, name in enumerate(KOZEL_PLAYERS)}


def _kozel_setup(number: int, leader: str | None):
    """The (immutable) round set-up, made once per round number and leader."""
    key = (number, leader if number > 1 else None)
    setup = _KOZEL_SETUPS.get(key)
    if setup is None:
        setup = Kozel.round_setup(number, KOZEL_PLAYERS, 6, KozelOptions(), [])
        if number > 1:
            setup = replace(setup, starter=leader)
        setup = _KOZEL_SETUPS.setdefault(key, setup)
    return setup


def kozel_round(
    rng: random.Random, number: int, leader: str | None, check_view: bool = False
) -> tuple[Any, int]:
    """One random full Kozel round, 4 players, all 28 tiles dealt (hidden from the engine).

    The bots see the table as players do (they track the two ends of the line from the
    plays they make) and each plays the first tile of its sorted hand that fits an end, or
    knocks. Every action goes through ``KozelRound.apply``, which validates it (a refusal
    raises). Round 1 is led by the first tile of the kz.lead.first order; later rounds by
    the player who went out or made the fish last round. ``check_view`` compares the
    bots' view of the ends with the engine's after every action (for the smoke test).
    The bots hold tiles as their index in the set, and reuse immutable actions.
    """
    order = list(range(len(_KOZEL_TILES)))
    rng.shuffle(order)
    hands = [sorted(order[seat * 7 : (seat + 1) * 7]) for seat in range(4)]
    engine = KozelRound(_kozel_setup(number, leader))
    low, high, seats = _KOZEL_LOW, _KOZEL_HIGH, _KOZEL_SEATS
    ends: list[list[int]] = []  # the bots' view: [tile at the end, value it shows] for both ends
    actions = 0
    while engine.outcome() is None:
        player = engine.turn()
        end = position = None
        if player is None:  # round 1: whoever holds the first tile in the lead order
            seat_of = {index: seat for seat, hand in enumerate(hands) for index in hand}
            first = next(index for index in _LEAD_ORDER if index in seat_of)
            seat = seat_of[first]
            position = hands[seat].index(first)
            action = _KOZEL_PLAYS[seat][first][0]
        else:
            seat = seats[player]
            hand = hands[seat]
            if not ends:
                position = 0
                action = _KOZEL_PLAYS[seat][hand[0]][0]
            else:
                action = _KOZEL_PASSES[seat]
                first_value, second_value = ends[0][1], ends[1][1]
                for index, tile in enumerate(hand):
                    if low[tile] == first_value or high[tile] == first_value:
                        end = 0
                    elif low[tile] == second_value or high[tile] == second_value:
                        end = 1
                    else:
                        continue
                    position = index
                    action = _KOZEL_PLAYS[seat][tile][ends[end][0] + 1]
                    break
        engine.apply(action)
        if position is not None:
            tile = hands[seat].pop(position)
            if end is None:
                ends = [[tile, low[tile]], [tile, high[tile]]]
            else:
                shown = ends[end][1]
                ends[end] = [tile, high[tile] if low[tile] == shown else low[tile]]
        actions += 1
        if check_view and engine.outcome() is None:
            assert engine.extra_state()["ends"] == [value for _, value in ends], (ends, engine.extra_state())
            assert engine.targets() == list(dict.fromkeys(_KOZEL_TILES[tile] for tile, _ in ends))
    return engine.outcome(), actions


def bench_kozel(seconds: float, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    state: dict[str, Any] = {"round": 0, "leader": None}

    def one() -> int:
        number = state["round"] % 5 + 1  # a game of five rounds, then a fresh game
        outcome, actions = kozel_round(rng, number, state["leader"])
        state["round"] += 1
        state["leader"] = outcome.player
        return actions

    count, actions, elapsed = _timed_loop(seconds, one)
    return {"rounds": count, "actions": actions, "seconds": elapsed, "per_s": count / elapsed}


def bench_kozel_engine_only(seconds: float, rounds: int = 500, seed: int = 11) -> dict[str, float]:
    """The engine's share of ``bench_kozel``: the actions of ``rounds`` recorded rounds
    applied again on fresh engines (no dealing, no choosing), for ``seconds``."""
    rng = random.Random(seed)
    recorded = []
    leader = None
    for index in range(rounds):
        number = index % 5 + 1
        log: list[Action] = []
        engine_apply = KozelRound.apply

        def recording(self, action, log=log, engine_apply=engine_apply):
            log.append(action)
            engine_apply(self, action)

        KozelRound.apply = recording  # type: ignore[method-assign]
        try:
            outcome, _ = kozel_round(rng, number, leader)
        finally:
            KozelRound.apply = engine_apply  # type: ignore[method-assign]
        setup = Kozel.round_setup(number, KOZEL_PLAYERS, 6, KozelOptions(), [])
        recorded.append((replace(setup, starter=leader) if number > 1 else setup, log))
        leader = outcome.player
    state = {"next": 0}

    def one() -> int:
        setup, log = recorded[state["next"] % rounds]
        state["next"] += 1
        engine = KozelRound(setup)
        for action in log:
            engine.apply(action)
        return len(log)

    count, actions, elapsed = _timed_loop(seconds, one)
    return {
        "rounds": count,
        "actions": actions,
        "seconds": elapsed,
        "per_s": count / elapsed,
        "us_per_action": elapsed / actions * 1e6,
    }


def bench_dominoes(seconds: float, seed: int = 1) -> dict[str, Any] | None:
    """Random full games of the PyPI ``dominoes`` library (4 players, double-six)."""
    try:
        import dominoes  # type: ignore[import-untyped]
    except ImportError:
        return None
    random.seed(seed)  # the library deals and chooses with the module-level random

    def one() -> int:
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            game.make_move(*game.valid_moves[0])
        return len(game.moves)

    count, actions, elapsed = _timed_loop(seconds, one)
    return {
        "rounds": count,
        "actions": actions,
        "seconds": elapsed,
        "per_s": count / elapsed,
        "version": _version("dominoes"),
    }


def _version(package: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(package)
    except Exception:
        return None


class MexicanTrainHands:
    """What the engine never sees in a Mexican Train round: the hands and the boneyard; and
    the table as the players see it (each train's open end, tracked from the plays)."""

    def __init__(self, rng: random.Random, setup, players: tuple[str, ...], trains: list[str]) -> None:
        tiles = [tile for tile in full_set(setup.highest) if tile != setup.double]
        rng.shuffle(tiles)
        size = setup.hand_size
        self.hands = {
            name: sorted(tiles[seat * size : (seat + 1) * size]) for seat, name in enumerate(players)
        }
        self.pool = tiles[len(players) * size :]
        self.open = {key: setup.double.high for key in trains}

    def next_action(self, engine: MexicanTrainRound) -> Action:
        """The first tile of the hand that the engine accepts (``is_legal``) on a train
        whose open end it matches, else a draw when the engine allows one, else a pass."""
        player = engine.turn()
        assert player is not None
        ends = self.open.items()
        for tile in self.hands[player]:
            for key, value in ends:
                if tile.has(value):
                    action = Action("play", player, tile, key)
                    if engine.is_legal(action):
                        return action
        draw = Action("draw", player)
        if self.pool and engine.is_legal(draw):
            return draw
        return Action("pass", player)

    def took(self, action: Action) -> None:
        """Book an accepted action in the hidden hands and the table."""
        assert action.player is not None
        if action.type == "play":
            assert action.tile is not None and action.train is not None
            self.hands[action.player].remove(action.tile)
            self.open[action.train] = action.tile.other(self.open[action.train])
        elif action.type == "draw":
            self.hands[action.player].append(self.pool.pop())

    def left(self) -> dict[str, list[str]]:
        return {name: [str(tile) for tile in hand] for name, hand in self.hands.items()}


def mt_round(rng: random.Random, number: int) -> tuple[Any, int]:
    """One random full Mexican Train round: 8 players, double-12, every action validated."""
    options = MexicanTrainOptions(first_double=12)
    setup = MexicanTrain.round_setup(number, MT_PLAYERS, 12, options, [])
    engine = MexicanTrainRound(setup)
    hidden = MexicanTrainHands(rng, setup, MT_PLAYERS, engine.targets())
    actions = 0
    while engine.outcome() is None:
        action = hidden.next_action(engine)
        engine.apply(action)
        hidden.took(action)
        actions += 1
    return engine.outcome(), actions


def bench_mt(seconds: float, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    state = {"round": 0}

    def one() -> int:
        number = state["round"] % 13 + 1
        state["round"] += 1
        return mt_round(rng, number)[1]

    count, actions, elapsed = _timed_loop(seconds, one)
    return {"rounds": count, "actions": actions, "seconds": elapsed, "per_s": count / elapsed}


# ----- a client that plays a whole Mexican Train game through the store or the API ----------


class GameDriver:
    """Keeps a mirror of one game (a ``Match``) and the hidden hands, and says what to log
    next: an action while the round is played, the hands left once it is over."""

    def __init__(self, rng: random.Random, game_id: str, config: dict[str, Any] = MT_GAME) -> None:
        self.rng = rng
        self.id = game_id
        self.match = Match(GameConfig.from_json(config))
        self.hidden = self._deal()
        self.actions = 0

    def _deal(self) -> MexicanTrainHands:
        match = self.match
        assert match.engine is not None
        return MexicanTrainHands(self.rng, match.setup, match.players, match.engine.targets())

    def next_change(self) -> tuple[str, dict[str, Any]] | None:
        match = self.match
        if match.finished:
            return None
        if match.round_status() == "playing":
            assert isinstance(match.engine, MexicanTrainRound)
            return "action", self.hidden.next_action(match.engine).to_json()
        return "hands", {"round": match.number, "hands": self.hidden.left()}

    def accepted(self, kind: str, payload: dict[str, Any]) -> None:
        number = self.match.number
        apply_event(self.match, kind, payload)
        self.actions += 1
        if kind == "action":
            self.hidden.took(Action.from_json(payload))
        elif self.match.number != number:
            self.hidden = self._deal()

    def request(self, kind: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if kind == "action":
            return f"/api/games/{self.id}/actions", payload
        return f"/api/games/{self.id}/rounds/{payload['round']}/hands", {"hands": payload["hands"]}


# ----- the served app --------------------------------------------------------------------


def make_bench_app(database: str):
    """The product's app plus, for this benchmark only, a bare JSON endpoint and a WSGI
    wrapper that reports the app's own time of each request in ``Server-Timing``."""
    from flask import jsonify, request

    from referee.web import create_app
    from referee.web.extensions import csrf

    app = create_app({"DATABASE": database, "SECRET_KEY": "bench-secret"})

    @app.post(BARE_PATH)
    def bench_bare():
        body = request.get_json(silent=True)
        return jsonify({"ok": True, "echo": body})

    csrf.exempt(bench_bare)  # like the API: JSON only

    inner = app.wsgi_app

    def timed(environ, start_response):
        started = time.perf_counter()

        def respond(status, headers, exc_info=None):
            headers.append(("Server-Timing", f"app;dur={(time.perf_counter() - started) * 1000:.4f}"))
            return start_response(status, headers, exc_info)

        return inner(environ, respond)

    app.wsgi_app = timed  # type: ignore[method-assign]
    return app


def serve_main(database: str, port: int, threads: int) -> None:
    from waitress import serve  # type: ignore[import-untyped]

    if os.environ.get("REFEREE_BENCH_WHAT_IF") == "sync-full":
        _what_if_sync_full()
    if os.environ.get("REFEREE_BENCH_SLOW_PLAY_MS"):
        _what_if_slow_plays(float(os.environ["REFEREE_BENCH_SLOW_PLAY_MS"]))
    serve(
        make_bench_app(database),
        host="127.0.0.1",
        port=port,
        threads=threads,
        ident="domino-referee-bench",
        _quiet=True,
    )


def _what_if_sync_full() -> None:
    """``--what-if-sync-full``: the served app syncs the WAL at every commit
    (``synchronous=FULL``) instead of within 0.1 s of it (``WalSyncer``): what durability
    against a power cut at the very moment of the answer would cost. Not the product."""
    from referee import store as store_module

    original = store_module.Store.__init__

    def patched(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        self.db.execute("PRAGMA synchronous=FULL")

    store_module.Store.__init__ = patched  # type: ignore[method-assign]


def _what_if_slow_plays(ms: float) -> None:
    """A deliberately slow app (for the test that the load test fails when plays are
    slow): every logged change waits ``ms`` inside its write transaction. Not the product."""
    from referee import store as store_module

    original = store_module.Store._append

    def slow(self, *args, **kwargs) -> None:
        time.sleep(ms / 1000)
        original(self, *args, **kwargs)

    store_module.Store._append = slow  # type: ignore[method-assign]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env() -> dict[str, str]:
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
        env = _env()
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


class Client:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: Any) -> tuple[int, Any, float, float]:
        """POST JSON; returns (status, json, round trip ms, server ms)."""
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
        return data["id"]

    def next_request(
        self, driver: GameDriver, rng: random.Random
    ) -> tuple[GameDriver, str, dict[str, Any], str, Any]:
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


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]


def bench_play_vs_bare(server: Server, plays: int, seed: int = 2) -> dict[str, float]:
    """Logged plays of a live Mexican Train game, interleaved with bare endpoint calls."""
    client = Client(server.port)
    rng = random.Random(seed)
    for _ in range(20):  # warm both paths up
        client.post(BARE_PATH, {"type": "play"})
    play_trip: list[float] = []
    play_server: list[float] = []
    bare_trip: list[float] = []
    bare_server: list[float] = []
    driver = GameDriver(rng, client.create_game())
    while len(play_server) < plays:
        result = client.step(driver)
        if result is None:
            driver = GameDriver(rng, client.create_game())
            continue
        kind, _, trip, took = result
        if kind != "play":
            continue
        play_trip.append(trip)
        play_server.append(took)
        _status, _, trip, took = client.post(
            BARE_PATH, {"type": "play", "player": "Ana", "tile": "5-12", "train": "mexican"}
        )
        bare_trip.append(trip)
        bare_server.append(took)
    client.close()
    return {
        "play_server_ms": _median(play_server),
        "bare_server_ms": _median(bare_server),
        "play_trip_ms": _median(play_trip),
        "bare_trip_ms": _median(bare_trip),
        "ratio": _median(play_server) / _median(bare_server),
        "ratio_trip": _median(play_trip) / _median(bare_trip),
        "samples": len(play_server),
    }


def bench_late_vs_early(
    server: Server, plays: int, late_at: int = 500, early_at: int = 5, seed: int = 3, per_early_game: int = 8
) -> dict[str, float]:
    """Median server time of logged plays in a game past ``late_at`` actions vs in games
    just past ``early_at`` (a fresh early game every ``per_early_game`` plays, so that
    "early" stays early), measured interleaved; every game is played through the API."""
    client = Client(server.port)
    rng = random.Random(seed)

    def game_at(actions: int) -> GameDriver:
        driver = GameDriver(rng, client.create_game())
        while driver.actions < actions:
            if client.step(driver) is None:
                raise RuntimeError("the game finished before reaching the point to measure")
        return driver

    late = game_at(late_at)
    late_start = late.actions
    early = game_at(early_at)
    early_spans: list[tuple[int, int]] = []
    early_start, early_plays = early.actions, 0
    times: dict[str, list[float]] = {"late": [], "early": []}
    trips: dict[str, list[float]] = {"late": [], "early": []}
    while min(len(times["late"]), len(times["early"])) < plays:
        for name in ("late", "early"):
            if len(times[name]) >= plays:
                continue
            driver = late if name == "late" else early
            step = client.step(driver)
            assert step is not None
            kind, _, trip, took = step
            if kind != "play":
                continue
            times[name].append(took)
            trips[name].append(trip)
            if name == "early":
                early_plays += 1
                if early_plays == per_early_game:
                    early_spans.append((early_start, early.actions))
                    early = game_at(early_at)
                    early_start, early_plays = early.actions, 0
    if early_plays:
        early_spans.append((early_start, early.actions))
    client.close()
    late_ms, early_ms = _median(times["late"]), _median(times["early"])
    return {
        "late_ms": late_ms,
        "early_ms": early_ms,
        "ratio": late_ms / early_ms,
        "late_trip_ms": _median(trips["late"]),
        "early_trip_ms": _median(trips["early"]),
        "late_from": late_start,
        "late_to": late.actions,
        "early_from": min(span[0] for span in early_spans),
        "early_to": max(span[1] for span in early_spans),
        "early_games": len(early_spans),
        "samples": plays,
    }


def bench_load(
    server: Server, clients: int, seconds: float, rate: float = 1.0, seed: int = 4
) -> dict[str, Any]:
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
        "p50_ms": _percentile(latencies, 0.5),
        "p99_ms": _percentile(latencies, 0.99),
        "max_ms": max(latencies) if latencies else float("nan"),
        "clients": clients,
        "seconds": seconds,
    }


def _get(
    port: int, path: str, timeout: float = 30, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


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
) -> dict[str, Any]:
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
    _get(server.port, f"/games/{games[0]}/follow/fragment")
    _get(server.port, f"/games/{games[0]}/scoresheet.pdf", 60)
    start = threading.Event()
    done = threading.Event()
    slow: list[tuple[float, float]] = []  # (ms, seconds after the start) of each play
    app_times: list[float] = []  # the app's own time of each play (Server-Timing)
    begun = [0.0]

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
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=follow_seconds)
                conn.request("GET", f"/games/{game}/events/stream?since={shown}")
                response = conn.getresponse()
                text = response.read1(256).decode()  # "retry: …"
                if "4000" in text:
                    retry = 4.0
                try:
                    text += response.read1(256).decode()  # the newer version, if any
                except TimeoutError:  # a held stream with nothing new: the phone waits on
                    pass
                conn.close()
                versions = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
                if versions and versions[-1] != shown:
                    status, _, _ = _get(server.port, f"/games/{game}/follow/fragment")
                    if status != 200:
                        with lock:
                            errors.append(f"fragment: {status}")
                    shown = versions[-1]
            except (OSError, http.client.HTTPException) as error:  # (a timeout is an error too)
                with lock:
                    errors.append(f"follow: {error!r}")
            done.wait(retry + (index % 10) / 20)

    def pdf(index: int) -> None:
        game = games[index % len(games)]
        start.wait()
        lang = ("en", "hi", "pa", "hu")[index % 4]
        try:
            status, headers, body = _get(
                server.port, f"/games/{game}/scoresheet.pdf", 60, {"Accept-Language": lang}
            )
        except (OSError, http.client.HTTPException) as error:
            with lock:
                errors.append(f"pdf: {error!r}")
            return
        with lock:
            pdf_status[status] = pdf_status.get(status, 0) + 1
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
    return {
        "plays": len(latencies),
        "errors": len(errors),
        "error_samples": errors[:3],
        "p50_ms": _percentile(latencies, 0.5),
        "p99_ms": _percentile(latencies, 0.99),
        "max_ms": max(latencies) if latencies else float("nan"),
        "pdf_status": pdf_status,
        "app_p99_ms": _percentile(app_times, 0.99),
        "slowest": [(round(ms), round(at, 1)) for ms, at in sorted(slow, reverse=True)[:8]],
        "clients": clients,
        "followers": followers,
        "pdfs": pdfs,
        "seconds": time.perf_counter() - started,
    }


def bench_table_page(server: Server) -> dict[str, Any] | None:
    """First load of /games/<id>/table in Chromium (a fresh context: nothing cached)."""
    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    client = Client(server.port)
    driver = GameDriver(random.Random(5), client.create_game())
    for _ in range(12):  # a table with a few tiles on it
        client.step(driver)
    client.close()
    url = f"{server.url}/games/{driver.id}/table"
    requests: list[Any] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1024, "height": 768})
            page = context.new_page()
            page.on("requestfinished", lambda request: requests.append(request))
            failed: list[Any] = []
            page.on("requestfailed", lambda request: failed.append(request))
            response = page.goto(url, wait_until="load")
            page.wait_for_load_state("networkidle")
            status = response.status if response else None
            sizes_by_url = []
            for request in requests:
                sizes = request.sizes()
                size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
                sizes_by_url.append((request.url.replace(server.url, ""), size))
            sizes_by_url.sort(key=lambda pair: not pair[0].endswith("/table"))  # the page first
            total = sum(size for _, size in sizes_by_url)
            external = [
                r.url for r in requests + failed if not r.url.startswith((server.url, "data:", "blob:"))
            ]
            context.close()
        finally:
            browser.close()
    return {
        "status": status,
        "bytes": total,
        "kb": total / 1024,
        "requests": len(requests) + len(failed),
        "external": external,
        "sizes": sizes_by_url,
    }


def bench_taps(server: Server, seed: int = 11) -> dict[str, Any] | None:
    """Taps at the table (bench/taps.py): a Mexican Train round (double-6, two players of
    seven tiles, a known deal) logged through the table page in Chromium at 1024×768, then
    its hands entered by tapping tiles. ``taps_per_play``: taps per logged play (1 when the
    tile fits one place, 2 otherwise); ``taps_per_hands_entry``: taps on the hands entry
    (the link, each tile, save) per player's hand. Every tap is checked to need no scrolling."""
    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    from bench.taps import TablePlayer

    players = ["Ana", "Ben"]
    rng = random.Random(seed)
    tiles = [str(t) for t in full_set(6) if str(t) != "6-6"]
    rng.shuffle(tiles)
    hands = {p: tiles[i * 7 : (i + 1) * 7] for i, p in enumerate(players)}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=server.url)
            page = context.new_page()
            page.set_default_timeout(20_000)
            body = {"game": "mexican-train", "set": 6, "players": players, "options": {"hand_size": 7}}
            game_id = page.request.post("/api/games", data=body).json()["id"]
            page.goto(f"/games/{game_id}/table")
            player = TablePlayer(page, hands, tiles[14:], rng)
            taps = player.play_round()
            player.enter_hands(players)
            context.close()
        finally:
            browser.close()
    return {
        "plays": taps.plays,
        "one_tap": taps.one_tap_plays,
        "taps_per_play": taps.play_taps / taps.plays,
        "taps_per_hands_entry": taps.hands_taps / taps.hands_entries,
        "hands_taps": taps.hands_taps,
        "other_taps": taps.other_taps,
    }


# ----- profiling -------------------------------------------------------------------------


def profile_plays(changes: int = 400, seed: int = 6) -> str:
    """A profile of logged Mexican Train changes through the app, in-process (Flask's
    test client, so no sockets): pyinstrument's call tree when it is installed (the
    ``bench`` extra), else cProfile's table."""
    from referee.web import create_app

    workdir = tempfile.mkdtemp(prefix="referee-bench-")
    try:
        app = create_app({"DATABASE": os.path.join(workdir, "profile.db"), "SECRET_KEY": "bench-secret"})
        client = app.test_client()
        rng = random.Random(seed)
        driver = GameDriver(rng, client.post("/api/games", json=MT_GAME).get_json()["id"])
        try:
            from pyinstrument import Profiler  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            Profiler = None
        if Profiler is not None:
            profiler = Profiler(interval=0.0001)
            start, stop = profiler.start, profiler.stop
        else:
            import cProfile

            profiler = cProfile.Profile()
            start, stop = profiler.enable, profiler.disable
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
        if Profiler is not None:
            return profiler.output_text(unicode=True, color=False, show_all=False)
        import io
        import pstats

        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
        return out.getvalue()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def profile_engines(seconds: float = 2.0) -> str:
    import cProfile
    import io
    import pstats

    out = io.StringIO()
    for name, bench in (("Kozel", bench_kozel), ("Mexican Train", bench_mt)):
        profiler = cProfile.Profile()
        profiler.enable()
        bench(seconds)
        profiler.disable()
        out.write(f"=== {name} engine ===\n")
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def build_many_games(database: str, count: int, seed: int = 5) -> None:
    """``count`` finished games in one transaction, fast: a few template games are played
    through the store, then their rows and events are copied under new ids (a club's years)."""
    from referee.store import PLAYER_GAME_COLUMNS, Store

    rng = random.Random(seed)
    pool = ["Ana", "Ben", "Chloé", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jana", "Kai", "Lena"]
    store = Store(database)
    store.migrate()
    templates: list[str] = []
    with store.write():
        for index in range(12):
            players = rng.sample(pool, 3 + index % 2)
            kind = ("kozel", "mexican-train")[index % 2]
            body: dict[str, Any] = {"game": kind, "players": players, "mode": "scores"}
            if kind == "mexican-train":
                body["set"] = 9
            game = store.create(GameConfig.from_json(body), game_id=f"template-{index}")
            number = 1
            while not game.match.finished and number <= 30:
                hands = {name: rng.randrange(1, 40) for name in players}
                hands[rng.choice(players)] = 0
                game = store.change(game.id, "hands", {"round": number, "hands": hands})
                number += 1
            templates.append(game.id)
        rows = {t: store.db.execute("select * from games where id = ?", [t]).fetchone() for t in templates}
        columns = [d[0] for d in store.db.execute("select * from games limit 0").description]
        events = {
            t: store.db.execute(
                "select version, kind, payload, created from events where game_id = ? order by version", [t]
            ).fetchall()
            for t in templates
        }
        marks = ", ".join("?" for _ in columns)
        player_columns = ", ".join(c for c in PLAYER_GAME_COLUMNS if c != "game_id")
        id_at = columns.index("id")
        for number in range(count - len(templates)):
            template = templates[number % len(templates)]
            new_id = f"bench-{number:06d}"
            row = list(rows[template])
            row[id_at] = new_id
            store.db.execute(f"insert into games ({', '.join(columns)}) values ({marks})", row)
            store.db.conn.executemany(
                "insert into events (game_id, version, kind, payload, created) values (?, ?, ?, ?, ?)",
                [(new_id, *event) for event in events[template]],
            )
            store.db.execute(  # its players' rows of the lists, as the store writes them
                f"insert into player_games select ?, {player_columns} from player_games where game_id = ?",
                [new_id, template],
            )
    store.rebuild_player_totals()
    store.close()


def lists_first_requests(database: str, repeats: int = 0) -> dict[str, float]:
    """In a newly started app on ``database``: the first ``/players`` and leaderboard
    requests (ms), then the median of ``repeats`` more of each."""
    from referee.web import create_app

    app = create_app({"DATABASE": database, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    figures: dict[str, float] = {}
    for name, path in (("players", "/players"), ("leaderboard", "/leaderboard/kozel")):
        times = []
        for _ in range(repeats + 1):
            t0 = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200, (path, response.status_code)
        figures[f"{name}_first_ms"] = times[0]
        if repeats:
            figures[f"{name}_ms"] = _median(times[1:])
    return figures


def bench_players(games: int = 20_000, repeats: int = 5) -> dict[str, float]:
    """``/players`` and a leaderboard with ``games`` stored games. Cold: the first requests
    of a new app process on that database (nothing of it in memory); warm: the median of the
    next ones in a running app (a player opening the page)."""
    workdir = tempfile.mkdtemp(prefix="referee-bench-players-")
    try:
        database = os.path.join(workdir, "players.db")
        started = time.perf_counter()
        build_many_games(database, games)
        built = time.perf_counter() - started
        cold = subprocess.run(
            [sys.executable, "-m", "bench", "--lists-cold", database],
            env=_env(),
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
        figures: dict[str, float] = {"games": games, "build_s": built}
        figures.update({f"cold_{k}": v for k, v in json.loads(cold.stdout.strip().splitlines()[-1]).items()})
        figures.update(lists_first_requests(database, repeats))
        return figures
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


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
            env={**_env(), "REFEREE_DB": self.database},
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


def bench_kills(kills: int = 5, clients: int = 4, seconds: float = 2.0, seed: int = 12) -> dict[str, Any]:
    """Writes kept across kills: ``clients`` tablets log legal Mexican Train changes (plays,
    draws, passes, hands entries) to the served product as fast as it answers; after
    ``seconds`` it is killed with SIGKILL, restarted, and so on ``kills`` times. Then every
    acknowledged change (a 200 answer with its version) is looked up in the event log:
    ``lost`` counts those missing or different (the goal: 0). A request cut off by a kill
    (``cut_off``) was never acknowledged, so it may or may not be there."""
    from referee.store import Store

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


def import_body(database: str, target_bytes: int, seed: int = 9) -> dict[str, Any]:
    """An export of about ``target_bytes``: played games copied under new ids."""
    from referee.store import Store
    from referee.web.backup import envelope, game_export

    build_many_games(database, 12, seed)
    store = Store(database)
    base = [game_export(store, row) for row in store.list_games()]
    store.close()
    one = sum(len(json.dumps(g, ensure_ascii=False, indent=1)) for g in base) / len(base)
    games = []
    for number in range(max(1, int(target_bytes / one))):
        game = dict(base[number % len(base)])
        game["id"] = f"imported-{number:06d}"
        games.append(game)
    return envelope(games)


def bench_import_lock(mb: float | None = None) -> dict[str, float]:
    """How long the write lock is held by the largest import the app accepts (or one of
    ``mb`` MB): the check and the rows are made first without the lock (``parse_ms``,
    ``rows_ms``), then the games are written at once (``lock_ms``)."""
    from referee.store import Store
    from referee.web.backup import IMPORT_MAX_BODY, ImportRefused, parse_backup

    target = int(mb * 1024 * 1024) if mb else IMPORT_MAX_BODY
    workdir = tempfile.mkdtemp(prefix="referee-bench-import-")
    try:
        body = import_body(os.path.join(workdir, "source.db"), target)
        size = len(json.dumps(body, ensure_ascii=False, indent=1).encode())
        while size > target and len(body["games"]) > 1:  # as large as accepted, not more
            del body["games"][-max(1, len(body["games"]) // 50) :]
            size = len(json.dumps(body, ensure_ascii=False, indent=1).encode())
        t0 = time.perf_counter()
        games = parse_backup(body)
        t1 = time.perf_counter()
        rows = [
            Store.replayed_rows(
                g["id"], g["match"], g["events"], pin_hash=g["pin_hash"], created=g["created"]
            )
            for g in games
        ]
        t2 = time.perf_counter()
        store = Store(os.path.join(workdir, "target.db"))
        store.migrate()
        try:
            with store.write():  # as write_games: the check of the ids, then the inserts
                existing = {row["id"] for row in store.list_games(trashed=True)}
                if any(g["id"] in existing for g in games):
                    raise ImportRefused(409, "taken")
                store.insert_replayed(rows)
            t3 = time.perf_counter()
        finally:
            store.close()
        return {
            "mb": size / (1024 * 1024),
            "games": len(games),
            "parse_ms": (t1 - t0) * 1000,
            "rows_ms": (t2 - t1) * 1000,
            "lock_ms": (t3 - t2) * 1000,
            "limit_mb": IMPORT_MAX_BODY / (1024 * 1024),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def bench_kozel_vs_dominoes(seconds: float, slices: int = 10) -> tuple[dict, dict | None]:
    """Both engines in alternating slices, so that a machine shared with other work slows
    both alike; returns their totals."""
    kozel = {"rounds": 0, "actions": 0, "seconds": 0.0}
    dom: dict[str, Any] | None = {"rounds": 0, "actions": 0, "seconds": 0.0}
    for index in range(slices):
        part = bench_kozel(seconds / slices, seed=index + 1)
        for key in kozel:
            kozel[key] += part[key]
        other = bench_dominoes(seconds / slices, seed=index + 1)
        if other is None:
            dom = None
        elif dom is not None:
            for key in ("rounds", "actions", "seconds"):
                dom[key] += other[key]
            dom["version"] = other["version"]
    kozel["per_s"] = kozel["rounds"] / kozel["seconds"]
    if dom is not None:
        dom["per_s"] = dom["rounds"] / dom["seconds"]
    return kozel, dom


@dataclass(frozen=True)
class Sizes:
    """How much each measurement does: FULL for the figures, QUICK for a smoke run."""

    name: str
    engine_seconds: float
    plays: int  # logged plays timed against the bare endpoint
    late_plays: int  # plays timed at each of the early and the late point
    late_at: int  # the late point (actions in the game)
    load_clients: int
    load_seconds: float
    page: bool = True
    players_games: int = 20_000  # stored games behind /players and the leaderboards
    import_mb: float | None = None  # the import timed (None: the largest accepted)
    kills: int = 5  # kill -9 bursts of the served app
    kill_after: float = 2.0  # seconds of logging before each kill


FULL = Sizes(
    "full", engine_seconds=5.0, plays=150, late_plays=60, late_at=500, load_clients=30, load_seconds=30.0
)
QUICK = Sizes(
    "quick",
    engine_seconds=1.0,
    plays=40,
    late_plays=20,
    late_at=500,
    load_clients=30,
    load_seconds=5.0,
    kills=2,
    kill_after=1.0,
)


# ----- the report ------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    value: str
    detail: str = ""


def run(sizes: Sizes = FULL, out: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure everything, print the table through ``out`` and return the figures."""
    rows: list[Row] = []
    load_before = os.getloadavg()[0]
    kozel, dom = bench_kozel_vs_dominoes(sizes.engine_seconds)
    alone = bench_kozel_engine_only(sizes.engine_seconds / 5)
    mt = bench_mt(sizes.engine_seconds)
    ratio = kozel["per_s"] / dom["per_s"] if dom else None
    rows.append(
        Row(
            "Kozel rounds/s (4 players)",
            _fmt(kozel["per_s"], 0),
            f"{kozel['actions'] / kozel['rounds']:.1f} actions/round",
        )
    )
    rows.append(
        Row(
            "  of which the engine alone could do",
            _fmt(alone["per_s"], 0),
            f"rounds/s replaying recorded actions, {alone['us_per_action']:.2f} us/action",
        )
    )
    rows.append(
        Row(
            "dominoes games/s (4 players, d6)",
            _fmt(dom["per_s"], 0) if dom else "n/a",
            f"dominoes {dom['version']}" if dom else "pip install dominoes",
        )
    )
    rows.append(Row("engine_kozel_vs_dominoes", _fmt(ratio), "goal >= 2"))
    rows.append(
        Row(
            "engine_mt_rounds_per_s (8 players, d12)",
            _fmt(mt["per_s"], 0),
            f"{mt['actions'] / mt['rounds']:.1f} actions/round",
        )
    )

    many = bench_players(sizes.players_games)
    rows.append(
        Row(
            f"/players with {many['games']:,} games",
            f"{many['players_ms']:.1f} ms",
            f"leaderboard {many['leaderboard_ms']:.1f} ms; cold (first requests of a new app process) "
            f"{many['cold_players_first_ms']:.1f} / {many['cold_leaderboard_first_ms']:.1f} ms; goal < 200 ms; "
            f"built in {many['build_s']:.1f} s",
        )
    )
    imported = bench_import_lock(sizes.import_mb)
    rows.append(
        Row(
            f"import of {imported['mb']:.1f} MB ({imported['games']} games)",
            f"{imported['lock_ms']:.0f} ms",
            f"write lock held while it is written (the largest accepted file: "
            f"{imported['limit_mb']:.0f} MB); checked first in {imported['parse_ms']:.0f} ms without the lock",
        )
    )
    killed = bench_kills(sizes.kills, seconds=sizes.kill_after)
    rows.append(
        Row(
            f"writes kept across {killed['kills']} kill -9",
            f"{killed['acknowledged'] - killed['lost']} of {killed['acknowledged']}",
            f"acknowledged changes found after the restarts, lost {killed['lost']} (goal 0); "
            f"{killed['cut_off']} requests cut off by the kills (never acknowledged)",
        )
    )
    workdir = tempfile.mkdtemp(prefix="referee-bench-")
    server = Server(os.path.join(workdir, "bench.db"))
    try:
        bare = bench_play_vs_bare(server, sizes.plays)
        rows.append(
            Row(
                "logged MT play, server ms (median)",
                _fmt(bare["play_server_ms"], 3),
                f"round trip {bare['play_trip_ms']:.3f} ms",
            )
        )
        rows.append(
            Row(
                "bare Flask JSON, server ms (median)",
                _fmt(bare["bare_server_ms"], 3),
                f"round trip {bare['bare_trip_ms']:.3f} ms",
            )
        )
        rows.append(
            Row(
                "play_vs_bare_flask",
                _fmt(bare["ratio"]),
                f"goal <= 3; by round trip {bare['ratio_trip']:.2f}",
            )
        )
        late = bench_late_vs_early(server, sizes.late_plays, late_at=sizes.late_at)
        rows.append(
            Row(
                "play after 5 actions, server ms",
                _fmt(late["early_ms"], 3),
                f"actions {late['early_from']}..{late['early_to']} of "
                f"{late['early_games']} games, "
                f"round trip {late['early_trip_ms']:.3f} ms",
            )
        )
        rows.append(
            Row(
                f"play after {sizes.late_at} actions, server ms",
                _fmt(late["late_ms"], 3),
                f"actions {late['late_from']}..{late['late_to']}, round trip {late['late_trip_ms']:.3f} ms",
            )
        )
        rows.append(Row("late_vs_early", _fmt(late["ratio"]), "goal <= 1.3"))
        page = bench_table_page(server) if sizes.page else None
        if page:
            rows.append(
                Row(
                    "table page first load",
                    f"{page['kb']:.1f} KB",
                    f"{page['requests']} requests, HTTP {page['status']}, "
                    f"{len(page['external'])} external; goal <= 100 KB, <= 6 requests",
                )
            )
            for url, size in page["sizes"]:
                rows.append(Row(f"  {url[:60]}", f"{size / 1024:.1f} KB"))
        else:
            rows.append(
                Row("table page first load", "n/a", "skipped" if not sizes.page else "no Chromium/Playwright")
            )
        taps = bench_taps(server) if sizes.page else None
        if taps:
            rows.append(
                Row(
                    "taps per logged play",
                    f"{taps['taps_per_play']:.2f}",
                    f"{taps['plays']} plays, {taps['one_tap']} by one tap; draws/passes {taps['other_taps']} taps",
                )
            )
            rows.append(
                Row(
                    "taps per hands entry",
                    f"{taps['taps_per_hands_entry']:.2f}",
                    f"{taps['hands_taps']} taps for the round's hands (link, tiles, save)",
                )
            )
        load = bench_load(server, sizes.load_clients, sizes.load_seconds)
        rows.append(
            Row(
                f"load: {sizes.load_clients} clients x 1 action/s",
                f"p99 {load['p99_ms']:.1f} ms",
                f"p50 {load['p50_ms']:.1f} ms, max {load['max_ms']:.1f} ms, "
                f"{load['requests']} requests in {load['seconds']:.0f} s, errors {load['errors']}"
                + (f" e.g. {load['error_samples'][0]}" if load["error_samples"] else ""),
            )
        )
        full = sizes.load_clients >= 30  # (the smoke test runs a small copy)
        mixed = bench_mixed(
            server,
            clients=sizes.load_clients,
            followers=100 if full else 10,
            pdfs=20 if full else 3,
            plays_each=max(5, int(sizes.load_seconds)),
            rate=1.0,
        )
        rows.append(
            Row(
                f"plays under {mixed['pdfs']} PDFs + {mixed['followers']} followers",
                f"p99 {mixed['p99_ms']:.1f} ms",
                f"p50 {mixed['p50_ms']:.1f} ms, max {mixed['max_ms']:.1f} ms, {mixed['plays']} plays of "
                f"{mixed['clients']} tablets, PDFs {mixed['pdf_status']}, errors {mixed['errors']}",
            )
        )
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    figures: dict[str, Any] = {
        "engine_kozel_vs_dominoes": round(ratio, 3) if ratio is not None else None,
        "engine_mt_rounds_per_s": round(mt["per_s"], 1),
        "play_vs_bare_flask": round(bare["ratio"], 3),
        "late_vs_early": round(late["ratio"], 3),
        "table_page_kb": round(page["kb"], 1) if page else None,
        "table_page_requests": page["requests"] if page else None,
        "taps_per_play": round(taps["taps_per_play"], 2) if taps else None,
        "taps_per_hands_entry": round(taps["taps_per_hands_entry"], 2) if taps else None,
        "load_p99_ms_30_clients": round(load["p99_ms"], 2),
        "load_errors": load["errors"],
        "mixed_p99_ms": round(mixed["p99_ms"], 2),
        "mixed_errors": mixed["errors"],
        f"players_ms_{sizes.players_games}": round(many["players_ms"], 1),
        f"leaderboard_ms_{sizes.players_games}": round(many["leaderboard_ms"], 1),
        f"players_cold_ms_{sizes.players_games}": round(many["cold_players_first_ms"], 1),
        f"leaderboard_cold_ms_{sizes.players_games}": round(many["cold_leaderboard_first_ms"], 1),
        "import_lock_ms": round(imported["lock_ms"], 1),
        "kills": killed["kills"],
        "kill_acknowledged": killed["acknowledged"],
        "kill_lost": killed["lost"],
        "import_mb": round(imported["mb"], 2),
    }
    width = max(len(row.name) for row in rows)
    out(
        f"Domino Referee benchmark ({sizes.name}; {os.cpu_count()} CPUs, "
        f"Python {sys.version.split()[0]}, load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after)"
    )
    for row in rows:
        out(f"  {row.name:<{width}}  {row.value:>12}  {row.detail}".rstrip())
    misses = [
        name
        for name, (op, goal) in GOALS.items()
        if figures.get(name) is not None
        and not (figures[name] >= goal if op == ">=" else figures[name] <= goal)
    ]
    if page and page["external"]:
        misses.append("table page: external requests " + ", ".join(page["external"]))
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
    parser.add_argument(
        "--what-if-sync-full",
        action="store_true",
        help="experiment: serve with PRAGMA synchronous=FULL (not the product's "
        "setting); engines shortened, no table page",
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
    if args.what_if_sync_full:
        os.environ["REFEREE_BENCH_WHAT_IF"] = "sync-full"
        sizes = replace(sizes, name=sizes.name + ", what if synchronous=FULL", engine_seconds=0.2, page=False)
    figures = run(sizes)
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
