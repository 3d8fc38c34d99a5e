"""What a careless or curious guest on a club's Wi-Fi must not manage: leave through the
unlock page to another site, reach the app under a foreign host name (DNS rebinding),
smuggle a formula into the CSV; and what a normal stop must leave: every write in the
database file itself, plus a one-file backup taken while the app runs."""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from bench.harness import free_port

ROOT = Path(__file__).resolve().parents[2]


def protected(api, pin="2468"):
    return api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores", pin=pin)


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example/x",
        "/%09/evil.example/x",
        "/\n/evil.example",
        "/\r\n/evil.example",
        "/ /evil.example",
    ],
)
def test_unlock_never_sends_a_player_to_another_site(client, api, target):
    game = protected(api)
    response = client.post(
        f"/games/{game['id']}/unlock?next={quote(target, safe='/%')}", data={"pin": "2468"}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game['id']}"


def test_unlock_follows_only_pages_of_the_app(client, api):
    game = protected(api)
    for target, expected in (
        (f"/games/{game['id']}/scoresheet", f"/games/{game['id']}/scoresheet"),
        ("/players?x=1", "/players?x=1"),
        ("/no/such/page", f"/games/{game['id']}"),
    ):
        response = client.post(f"/games/{game['id']}/unlock?next={quote(target)}", data={"pin": "2468"})
        assert response.headers["Location"] == expected


def test_undo_from_a_locked_page_returns_to_the_game_after_the_pin(client, api):
    game = protected(api)
    refused = client.post(f"/games/{game['id']}/undo", data={"version": "1"})
    assert refused.status_code == 303
    unlock = refused.headers["Location"]
    assert "/unlock" in unlock
    after = client.post(unlock, data={"pin": "2468"})
    assert after.status_code == 303
    assert client.get(after.headers["Location"]).status_code == 200  # not a 405


def test_a_foreign_host_name_is_refused(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben"])
    for host in ("evil.example", "evil.example:5000", "192.168.1.66"):
        response = client.get(f"/games/{game['id']}", headers={"Host": host})
        assert response.status_code == 421, host
        assert "address" in response.get_data(as_text=True)
        assert (
            client.post(
                "/api/games", json={"game": "kozel", "players": ["A", "B"]}, headers={"Host": host}
            ).status_code
            == 421
        )
    for host in ("localhost", "localhost:5000", "127.0.0.1:5000", "[::1]:5000", "tablet.localhost"):
        assert client.get(f"/games/{game['id']}", headers={"Host": host}).status_code == 200, host


def test_more_host_names_can_be_allowed(app, client):
    app.config["ALLOWED_HOSTS"] = ["club.example"]
    assert client.get("/", headers={"Host": "club.example:8080"}).status_code == 200
    assert client.get("/", headers={"Host": "other.example"}).status_code == 421


def test_csv_cells_cannot_be_formulas(client, api):
    names = ['=HYPERLINK("http://evil.example","x")', "+1+1", "@SUM(A1)", "Ana"]
    game = api.create(game="mexican-train", players=names, set=9, mode="scores")
    hands = {name: 5 for name in names}
    hands["Ana"] = 0
    assert api.hands(game["id"], 1, hands)[0] == 200
    rows = list(
        csv.reader(io.StringIO(client.get(f"/api/games/{game['id']}/scoresheet.csv").get_data(as_text=True)))
    )
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells), rows
    assert '\'=HYPERLINK("http://evil.example","x")' in rows[0]
    assert "5" in rows[1]  # numbers stay numbers


def serve(database: Path, port: int) -> subprocess.Popen:
    env = dict(os.environ, REFEREE_DB=str(database), PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.serve", "--port", str(port), "--threads", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except requests.ConnectionError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(process.stdout.read().decode())


def test_a_normal_stop_leaves_every_write_in_the_database_file(tmp_path):
    database = tmp_path / "club.db"
    port = free_port()
    process = serve(database, port)
    try:
        ids = []
        for index in range(5):
            response = requests.post(
                f"http://127.0.0.1:{port}/api/games",
                json={"game": "kozel", "players": [f"A{index}", "B"]},
                timeout=10,
            )
            assert response.status_code == 201
            ids.append(response.json()["id"])
        # a one-file backup while the app runs (the backup page's download)
        download = requests.get(f"http://127.0.0.1:{port}/backup/referee.db", timeout=30)
        assert download.status_code == 200
        (tmp_path / "download.db").write_bytes(download.content)
    finally:
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=30)[0].decode()
    assert process.returncode == 0, output
    wal = Path(str(database) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    copy = tmp_path / "copied" / "club.db"  # the .db alone, as people copy it
    copy.parent.mkdir()
    shutil.copy(database, copy)
    found = {row[0] for row in sqlite3.connect(copy).execute("select id from games")}
    assert found == set(ids)
    downloaded = {row[0] for row in sqlite3.connect(tmp_path / "download.db").execute("select id from games")}
    assert downloaded == set(ids)


def test_the_backup_command_copies_the_whole_database_into_one_file(app, api, tmp_path):
    ids = {api.create(game="kozel", players=["Ana", "Ben"])["id"] for _ in range(3)}
    out = tmp_path / "backup.db"
    done = subprocess.run(
        [sys.executable, "-m", "referee.backup_db", str(out), "--db", app.config["DATABASE"]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not Path(str(out) + "-wal").exists()
    assert {row[0] for row in sqlite3.connect(out).execute("select id from games")} == ids
    again = subprocess.run(
        [sys.executable, "-m", "referee.backup_db", str(out), "--db", app.config["DATABASE"]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 2 and "exists" in again.stderr
