"""A club's years of games in the store: the players' lists and the leaderboards with
20,000 stored games (``players_ms_20000``, ``leaderboard_ms_20000`` and their ``_cold_``
twins), and how long the largest import holds the write lock (``import_lock_ms``,
``import_mb``)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench.harness import repo_env
from bench.parts import Part, Row, Sizes, median
from referee.match import GameConfig
from referee.store import PLAYER_GAME_COLUMNS, Store
from referee.web import create_app
from referee.web.backup import ImportRefused, envelope, game_export, parse_backup
from referee.web.safety import IMPORT_MAX_BODY


def build_many_games(database: str, count: int, seed: int = 5) -> None:
    """``count`` finished games in one transaction, fast: a few template games are played
    through the store, then their rows and events are copied under new ids (a club's years)."""
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
            figures[f"{name}_ms"] = median(times[1:])
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
            env=repo_env(),
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


def import_body(database: str, target_bytes: int, seed: int = 9) -> dict[str, Any]:
    """An export of about ``target_bytes``: played games copied under new ids."""
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


def run(sizes: Sizes) -> Part:
    many = bench_players(sizes.players_games)
    imported = bench_import_lock(sizes.import_mb)
    rows = [
        Row(
            f"/players with {many['games']:,} games",
            f"{many['players_ms']:.1f} ms",
            f"leaderboard {many['leaderboard_ms']:.1f} ms; cold (first requests of a new app process) "
            f"{many['cold_players_first_ms']:.1f} / {many['cold_leaderboard_first_ms']:.1f} ms; goal < 200 ms; "
            f"built in {many['build_s']:.1f} s",
        ),
        Row(
            f"import of {imported['mb']:.1f} MB ({imported['games']} games)",
            f"{imported['lock_ms']:.0f} ms",
            f"write lock held while it is written (the largest accepted file: "
            f"{imported['limit_mb']:.0f} MB); checked first in {imported['parse_ms']:.0f} ms without the lock",
        ),
    ]
    games = sizes.players_games
    figures = {
        f"players_ms_{games}": round(many["players_ms"], 1),
        f"leaderboard_ms_{games}": round(many["leaderboard_ms"], 1),
        f"players_cold_ms_{games}": round(many["cold_players_first_ms"], 1),
        f"leaderboard_cold_ms_{games}": round(many["cold_leaderboard_first_ms"], 1),
        "import_lock_ms": round(imported["lock_ms"], 1),
        "import_mb": round(imported["mb"], 2),
    }
    return Part(rows, figures)
