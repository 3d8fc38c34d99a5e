"""The backup page: choose a file, see what it holds (games, players, rounds, table PINs,
refusals with their reason) before anything is written, then confirm — with CSRF, and the
owner PIN when one is set."""

from __future__ import annotations

import io
import json
import re

import pytest

from referee.web import create_app
from referee.web.safety import IMPORT_MAX_BODY


def make_app(tmp_path, name, csrf=False):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / f"{name}.db"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": csrf,
        }
    )


@pytest.fixture
def backup(api, client):
    """An export of three games: one with a table PIN and a round, one plain, one broken."""
    pad = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores", pin="2468")
    response = client.post(
        f"/api/games/{pad['id']}/rounds/1/hands",
        headers={"X-Table-Pin": "2468"},
        json={"hands": {"Ana": 0, "Ben": 7}},
    )
    assert response.status_code == 200, response.get_json()
    api.create(game="kozel", players=["Caro", "Dan", "Éva"])
    data = client.get("/api/export").get_json()
    assert len(data["games"]) == 2
    kozel = next(g for g in data["games"] if g["events"][0]["payload"]["game"] == "kozel")
    broken = json.loads(json.dumps(kozel))
    broken["id"] = "broken-one"
    broken["events"].append(
        {
            "version": len(broken["events"]) + 1,
            "kind": "action",
            "payload": {"type": "play", "player": "Caro", "tile": "12-12"},
        }
    )
    data["games"].append(broken)
    return {"data": data, "pad": pad["id"]}


def upload(client, data, name="club.json", url="/backup/import", extra=None):
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    form = {"backup": (io.BytesIO(raw), name), **(extra or {})}
    return client.post(url, data=form, content_type="multipart/form-data")


def token_of(html: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def test_the_page_offers_exports_and_an_import(client):
    html = client.get("/backup").get_data(as_text=True)
    assert 'type="file"' in html and 'enctype="multipart/form-data"' in html
    assert "/api/export" in html and "/backup/referee.db" in html
    assert "/backup" in client.get("/").get_data(as_text=True)


def test_preview_shows_the_summary_and_writes_nothing_then_confirm_imports(backup, tmp_path):
    target = make_app(tmp_path, "target").test_client()
    response = upload(target, backup["data"])
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert re.search(r'data-count="games">2<', html)
    assert re.search(r'data-count="rounds">1<', html)
    for name in ("Ana", "Ben", "Caro", "Dan", "Éva"):
        assert name in html
    assert re.search(r'data-count="protected">' + re.escape(backup["pad"]) + "<", html)
    refused = re.search(r'<ul class="refused">(.*?)</ul>', html, re.S).group(1)
    assert "broken-one" in refused and "event 2" in refused  # refused, with the reason
    assert target.get("/api/games").get_json()["games"] == []  # nothing written yet
    confirmed = target.post("/backup/import/confirm", data={"token": token_of(html)})
    assert confirmed.status_code == 303
    games = target.get("/api/games").get_json()["games"]
    assert len(games) == 2 and "broken-one" not in [g["id"] for g in games]
    # the table PIN came along
    assert target.post(f"/api/games/{backup['pad']}/undo").status_code == 403 or (
        target.post(f"/api/games/{backup['pad']}/actions", json={"type": "undo"}).status_code == 403
    )
    assert "2 games imported" in target.get("/backup").get_data(as_text=True)
    # a confirmation is used once
    again = target.post("/backup/import/confirm", data={"token": token_of(html)})
    assert again.status_code == 409
    assert len(target.get("/api/games").get_json()["games"]) == 2


def test_games_that_exist_are_listed_as_refused(client, backup):
    html = upload(client, backup["data"]).get_data(as_text=True)
    assert re.search(r'data-count="games">0<', html)
    assert "already exists" in html
    assert re.search(r"<button[^>]*disabled[^>]*>Import 0 games", html)


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"\xff\xfe not text", "not JSON"),
        (b'{"format": "other"}', "not a Domino Referee export"),
        (b"[]", "cannot be imported"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_with_a_sentence(client, raw, words):
    response = upload(client, raw)
    assert response.status_code == 400
    assert words in response.get_data(as_text=True)


def test_no_file_is_a_400(client):
    response = client.post("/backup/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose a backup file" in response.get_data(as_text=True)


def test_the_owner_pin_is_needed_when_one_is_set(backup, tmp_path):
    app = make_app(tmp_path, "owned")
    owner = app.test_client()
    assert owner.post("/owner", data={"action": "set", "set-new": "97531"}).status_code == 303
    stranger = app.test_client()
    page = stranger.get("/backup").get_data(as_text=True)
    assert "needs the owner PIN" in page
    refused = upload(stranger, backup["data"])
    assert refused.status_code == 403
    assert "owner PIN" in refused.get_data(as_text=True)
    html = upload(owner, backup["data"]).get_data(as_text=True)
    token = token_of(html)
    # the stranger cannot confirm the owner's preview either
    assert stranger.post("/backup/import/confirm", data={"token": token}).status_code == 403
    assert owner.post("/backup/import/confirm", data={"token": token}).status_code == 303
    assert len(owner.get("/api/games").get_json()["games"]) == 2


def test_both_steps_need_the_csrf_token(backup, tmp_path):
    app = make_app(tmp_path, "csrf", csrf=True)
    client = app.test_client()
    assert upload(client, backup["data"]).status_code == 400
    page = client.get("/backup").get_data(as_text=True)
    csrf = re.search(r'id="import-csrf" value="([^"]+)"', page).group(1)
    html = upload(client, backup["data"], extra={"csrf_token": csrf}).get_data(as_text=True)
    token = token_of(html)
    assert client.post("/backup/import/confirm", data={"token": token}).status_code == 400
    assert client.get("/api/games").get_json()["games"] == []
    confirm_csrf = re.search(r'id="confirm-csrf" value="([^"]+)"', html).group(1)
    assert (
        client.post("/backup/import/confirm", data={"token": token, "csrf_token": confirm_csrf}).status_code
        == 303
    )
    assert len(client.get("/api/games").get_json()["games"]) == 2


def test_a_file_above_the_limit_is_a_413_naming_the_limit(client):
    raw = b" " * (IMPORT_MAX_BODY + 1024)
    response = upload(client, raw)
    assert response.status_code == 413
    assert f"{IMPORT_MAX_BODY // (1024 * 1024)} MB" in response.get_data(as_text=True)


def test_the_api_refuses_a_body_above_the_limit_with_a_sentence(client):
    response = client.post("/api/import", data=b" " * (IMPORT_MAX_BODY + 1), content_type="application/json")
    assert response.status_code == 413
    assert f"at most {IMPORT_MAX_BODY // (1024 * 1024)} MB" in response.get_json()["error"]


def test_an_import_holds_the_write_lock_for_the_inserts_only(client, backup, tmp_path, monkeypatch):
    """The rules replay every event and the rows are made before the lock is taken; under
    the lock: one check of the ids and one insert per table (the benchmark times it for the
    largest accepted file, ``import_lock_ms``)."""
    import contextlib

    import referee.store.games as store_games
    import referee.web.backup as backup_module
    from referee.store import Store

    assert IMPORT_MAX_BODY <= 4 * 1024 * 1024  # what a tablet writes in well under a second
    locked = [False]
    under_lock: list[str] = []
    real_write = Store.write

    @contextlib.contextmanager
    def write(self):
        outer = locked[0]
        locked[0] = True
        try:
            with real_write(self):
                yield
        finally:
            locked[0] = outer

    def watch(module, name):
        real = getattr(module, name)

        def watched(*args, **kwargs):
            if locked[0]:
                under_lock.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, watched)

    monkeypatch.setattr(Store, "write", write)
    watch(backup_module, "apply_event")
    watch(store_games, "snapshot_bytes")  # where Store writes its snapshots
    watch(Store, "insert_replayed")
    target = make_app(tmp_path, "lock").test_client()
    body = backup["data"]
    body["games"] = body["games"][:2]
    assert target.post("/api/import", json=body).status_code == 201
    assert under_lock == ["insert_replayed"]
