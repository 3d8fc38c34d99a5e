"""The answers that come from the server's side (a full disk, a read-only database, a game
whose stored record is damaged, a Host it does not serve) are in the OpenAPI document, on
every operation that can give them: each is provoked here, and its status must be listed
for that operation, with a JSON ``{"error", "rule"}`` body (a plain-text one for 421)."""

from __future__ import annotations

import io
import sqlite3
from contextlib import contextmanager

import pytest

from referee.store import GameUnreadable, Store
from referee.web import create_app

PLAYERS = ["Ana", "Ben"]
NIGHT = {
    "name": "Tuesday club",
    "game": "kozel",
    "mode": "scores",
    "players": ["Ana", "Ben", "Caro", "Dee"],
    "table_size": 4,
    "stages": 2,
    "seating": "fixed",
}


def operations(app) -> dict[tuple[str, str], dict]:
    document = app.test_client().get("/api/openapi.json").get_json()
    return {
        (method.upper(), path): operation
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    }


def documented(app, method: str, path: str, status: int) -> bool:
    return str(status) in operations(app)[(method, path)]["responses"]


def requests_of(client) -> list[tuple[str, str, str, dict]]:
    """(method, documented path, url, request arguments) of an example of every operation."""
    game = client.post("/api/games", json={"game": "mexican-train", "players": PLAYERS, "set": 9}).get_json()
    pad = client.post("/api/games", json={"game": "kozel", "players": PLAYERS, "mode": "scores"}).get_json()
    export = client.get(f"/api/games/{pad['id']}/export").get_json()
    export["games"][0]["id"] = "restored-one"
    night = client.post("/api/nights", json=NIGHT).get_json()
    g, p, n = game["id"], pad["id"], night["id"]
    turn = game["round"]["turn"]
    photo = {"photo": (io.BytesIO(b"\x89PNG\r\n\x1a\n" + b"0" * 64), "hand.png"), "player": "Ana"}
    return [
        ("GET", "/api/games", "/api/games", {}),
        ("POST", "/api/games", "/api/games", {"json": {"game": "kozel", "players": PLAYERS}}),
        ("GET", "/api/games/{game_id}", f"/api/games/{g}", {}),
        (
            "POST",
            "/api/games/{game_id}/actions",
            f"/api/games/{g}/actions",
            {"json": {"type": "draw", "player": turn}},
        ),
        (
            "POST",
            "/api/games/{game_id}/rounds/{number}/hands",
            f"/api/games/{p}/rounds/1/hands",
            {"json": {"hands": {"Ana": 0, "Ben": 9}}},
        ),
        ("GET", "/api/games/{game_id}/events", f"/api/games/{g}/events", {}),
        ("GET", "/api/games/{game_id}/scoresheet.csv", f"/api/games/{p}/scoresheet.csv", {}),
        ("GET", "/api/games/{game_id}/export", f"/api/games/{p}/export", {}),
        ("GET", "/api/export", "/api/export", {}),
        ("POST", "/api/import", "/api/import", {"json": export}),
        ("GET", "/api/rules/{game}", "/api/rules/kozel", {}),
        (
            "POST",
            "/api/games/{game_id}/rounds/{number}/photo",
            f"/api/games/{p}/rounds/1/photo",
            {"data": photo, "content_type": "multipart/form-data"},
        ),
        (
            "POST",
            "/api/games/{game_id}/rounds/{number}/check",
            f"/api/games/{p}/rounds/1/check",
            {"json": {"player": "Ana", "tiles": ["1-2"]}},
        ),
        ("DELETE", "/api/games/{game_id}", f"/api/games/{g}", {}),
        ("GET", "/api/nights", "/api/nights", {}),
        ("POST", "/api/nights", "/api/nights", {"json": NIGHT}),
        ("GET", "/api/nights/{night_id}", f"/api/nights/{n}", {}),
        ("POST", "/api/nights/{night_id}/next", f"/api/nights/{n}/next", {"json": {}}),
    ]


@pytest.fixture
def fresh(tmp_path):
    def make():
        return create_app(
            {
                "TESTING": True,
                "DATABASE": str(tmp_path / "answers.db"),
                "SECRET_KEY": "x",
                "WTF_CSRF_ENABLED": False,
            }
        )

    return make


def test_every_operation_of_the_app_is_exercised_here(fresh):
    app = fresh()
    assert {(m, p) for m, p, _url, _kw in requests_of(app.test_client())} == set(operations(app)) - {
        ("GET", "/api/openapi.json")
    }


@pytest.mark.parametrize(
    "message, code, status",
    [("database or disk is full", 13, 507), ("attempt to write a readonly database", 8, 503)],
)
def test_a_full_or_read_only_disk_is_documented_where_it_can_happen(
    fresh, monkeypatch, message, code, status
):
    app = fresh()
    examples = requests_of(app.test_client())

    @contextmanager
    def failing(self):
        error = sqlite3.OperationalError(message)
        error.sqlite_errorcode = code
        raise error
        yield

    monkeypatch.setattr(Store, "write", failing)
    client = app.test_client()
    seen = set()
    for method, path, url, kwargs in examples:
        response = client.open(url, method=method, **kwargs)
        if response.status_code >= 500:
            seen.add(path)
            assert response.status_code == status, (method, path, response.status_code)
            assert documented(app, method, path, status), (method, path, status)
            assert set(response.get_json()) >= {"error", "rule"}
    assert {"/api/games", "/api/games/{game_id}/actions", "/api/import"} <= seen


def test_a_damaged_game_is_documented_where_it_can_happen(fresh, monkeypatch):
    examples = requests_of(fresh().test_client())
    app = fresh()  # a new start: nothing of the games held in memory

    def damaged(self, game_id, row):
        raise GameUnreadable(game_id, "damaged on purpose")

    monkeypatch.setattr(Store, "_rebuild", damaged)
    client = app.test_client()
    seen = set()
    for method, path, url, kwargs in examples:
        response = client.open(url, method=method, **kwargs)
        if response.status_code >= 500:
            seen.add(path)
            assert response.status_code == 500, (method, path, response.status_code)
            assert documented(app, method, path, 500), (method, path)
            assert "cannot be read" in response.get_json()["error"]
    assert {"/api/games/{game_id}", "/api/games/{game_id}/actions"} <= seen


def test_a_host_it_does_not_serve_is_documented_everywhere(fresh):
    app = fresh()
    client = app.test_client()
    for method, path, url, kwargs in requests_of(client):
        response = client.open(url, method=method, headers={"Host": "evil.example"}, **kwargs)
        assert response.status_code == 421 and response.mimetype == "text/plain", (method, path)
        assert documented(app, method, path, 421), (method, path)


def test_the_document_says_what_each_server_answer_means(fresh):
    for (method, path), operation in operations(fresh()).items():
        answers = operation["responses"]
        assert "500" in answers and "421" in answers, (method, path)
        if method in ("POST", "DELETE") and operation["operationId"] not in ("readHandPhoto", "checkHand"):
            assert "507" in answers and "disk is full" in answers["507"]["description"], (method, path)
            assert "503" in answers and "read-only" in answers["503"]["description"], (method, path)
