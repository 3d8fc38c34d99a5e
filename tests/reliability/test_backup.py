"""Backup: export one game or everything as JSON, import it into a fresh database, and get
the identical games back (state and event log); a bad import changes nothing."""

from __future__ import annotations

import json
import re

import pytest

from referee.web import create_app
from tests.conftest import Api
from tests.reliability.helpers import assert_refusal, snapshot

PAD_PIN = "2468"

PLAYERS = ["Ana", "Ben", "Caro"]


def ok(result):
    status, data = result
    assert status == 200, data
    return data


@pytest.fixture
def played(api):
    """Games of every kind with plays, draws, undos, hands entries and a correction."""
    ids = {}
    mt = api.create(game="mexican-train", players=PLAYERS, set=9, options={"double_blank": 25})
    ok(api.act(mt["id"], type="play", player="Ana", tile="9-4", train="Ana"))
    ok(api.act(mt["id"], type="draw", player="Ben"))
    ok(api.act(mt["id"], type="undo"))
    ok(api.act(mt["id"], type="draw", player="Ben"))
    ok(api.act(mt["id"], type="pass", player="Ben"))
    ok(api.hands(mt["id"], 1, {"Ana": 3, "Ben": 40, "Caro": 11}))
    ids["mt"] = mt["id"]
    pad = api.create(
        game="mexican-train", players=["Éva", "Tom & Jerry", "अनीता"], set=9, mode="scores", pin="2468"
    )

    def pad_hands(number, points):
        response = api.client.post(
            f"/api/games/{pad['id']}/rounds/{number}/hands",
            headers={"X-Table-Pin": "2468"},
            json={"hands": dict(zip(pad["players"], points))},
        )
        assert response.status_code == 200, response.get_json()

    for number, points in enumerate(([0, 5, 9], [4, 0, 2], [7, 7, 0]), start=1):
        pad_hands(number, points)
    pad_hands(1, [1, 5, 9])  # a correction
    ids["pad"] = pad["id"]
    kz = api.create(game="kozel", players=PLAYERS)
    ok(api.act(kz["id"], type="play", player="Ana", tile="1-1"))
    ok(api.act(kz["id"], type="play", player="Ben", tile="1-3", on="1-1"))
    ids["kz"] = kz["id"]
    kzpad = api.create(game="kozel", players=PLAYERS, mode="scores")
    ok(api.hands(kzpad["id"], 1, {"Ana": 0, "Ben": 30, "Caro": 12}))
    ids["kzpad"] = kzpad["id"]
    cf = api.create(game="chicken-foot", players=PLAYERS)
    ok(api.act(cf["id"], type="play", player="Ana", tile="9-9"))
    ok(api.act(cf["id"], type="play", player="Ben", tile="9-3", on="9-9"))
    ids["cf"] = cf["id"]
    return ids


def fresh(tmp_path, name):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / f"{name}.db"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
        }
    )
    return app.test_client()


def test_export_all_then_import_into_a_fresh_database_is_identical(client, played, tmp_path):
    response = client.get("/api/export")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    backup = response.get_json()
    assert backup["format"] == "domino-referee" and backup["format_version"] == 1
    assert len(backup["games"]) == len(played)
    other = fresh(tmp_path, "restored")
    answer = other.post("/api/import", json=backup)
    assert answer.status_code == 201, answer.get_json()
    assert sorted(g["id"] for g in answer.get_json()["imported"]) == sorted(played.values())
    assert snapshot(other) == snapshot(client)
    # the PIN's hash comes along: the restored games are protected as they were
    assert other.get("/api/export").get_json()["games"] == backup["games"]


def test_one_game_export_is_a_download_and_round_trips(client, played, tmp_path):
    game_id = played["mt"]
    api_export = client.get(f"/api/games/{game_id}/export")
    page_export = client.get(f"/games/{game_id}/export.json")
    for response in (api_export, page_export):
        assert response.status_code == 200
        assert response.headers["Content-Disposition"] == f'attachment; filename="domino-{game_id}.json"'
    assert page_export.get_json()["games"] == api_export.get_json()["games"]
    backup = api_export.get_json()
    assert [e["kind"] for e in backup["games"][0]["events"]] == ["create"] + ["action"] * 5 + ["hands"]
    other = fresh(tmp_path, "one")
    assert other.post("/api/import", json=backup).status_code == 201
    original = client.get(f"/api/games/{game_id}").get_json()
    assert other.get(f"/api/games/{game_id}").get_json() == original
    assert (
        other.get(f"/api/games/{game_id}/events").get_json()
        == client.get(f"/api/games/{game_id}/events").get_json()
    )
    assert other.get("/api/games").get_json()["games"] == [
        g for g in client.get("/api/games").get_json()["games"] if g["id"] == game_id
    ]


def test_an_imported_game_plays_on_like_the_original(client, played, tmp_path):
    other = fresh(tmp_path, "on")
    other.post("/api/import", json=client.get("/api/export").get_json())
    for target in (client, other):
        response = Api(target).act(played["kz"], type="play", player="Caro", tile="3-6", on="1-3")
        assert response[0] in (200, 422)
    assert (
        other.get(f"/api/games/{played['kz']}").get_json()
        == client.get(f"/api/games/{played['kz']}").get_json()
    )


def test_a_restore_keeps_the_table_pin_and_the_summary_says_so(client, played, tmp_path):
    backup = client.get(f"/api/games/{played['pad']}/export").get_json()
    assert backup["games"][0]["protected"] is True
    assert "pin" not in backup["games"][0] and re.match(
        r"^scrypt\$16384\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$", backup["games"][0]["pin_hash"]
    )
    other = fresh(tmp_path, "pin")
    answer = other.post("/api/import", json=backup)
    assert answer.status_code == 201
    assert [g["protected"] for g in answer.get_json()["imported"]] == [True]
    url = f"/api/games/{played['pad']}/actions"
    assert other.post(url, json={"type": "undo"}).status_code == 403
    assert other.post(url, json={"type": "undo"}, headers={"X-Table-Pin": PAD_PIN}).status_code == 200


def test_a_new_pin_can_be_given_on_import(client, played, tmp_path):
    backup = client.get(f"/api/games/{played['pad']}/export").get_json()
    other = fresh(tmp_path, "newpin")
    backup["games"][0]["pin"] = "9753"
    assert other.post("/api/import", json=backup).status_code == 201
    url = f"/api/games/{played['pad']}/actions"
    assert other.post(url, json={"type": "undo"}, headers={"X-Table-Pin": PAD_PIN}).status_code == 403
    assert other.post(url, json={"type": "undo"}, headers={"X-Table-Pin": "9753"}).status_code == 200


@pytest.mark.parametrize(
    "stamp",
    ["9999-12-31T00:00:00", "2999-01-01", "2026-01-01T00:00:00\r\nX-Evil: 1", "\ud800", "yesterday", ""],
)
def test_import_refuses_time_stamps_in_the_future_or_not_time_stamps(client, played, tmp_path, stamp):
    backup = client.get(f"/api/games/{played['pad']}/export").get_json()
    other = fresh(tmp_path, "stamp")
    for where in ("game", "event"):
        changed = json.loads(json.dumps(backup))
        if where == "game":
            changed["games"][0]["created"] = stamp
        else:
            changed["games"][0]["events"][1]["created"] = stamp
        body = json.dumps(changed)
        answer = other.post("/api/import", data=body, content_type="application/json")
        assert answer.status_code == 400, (where, stamp, answer.get_data(as_text=True)[:200])
        error = answer.get_json()["error"]
        # a lone surrogate is refused for the whole body, before the stamps are read
        assert "time stamp" in error or "future" in error or "lone surrogate" in error
    assert other.get("/api/games").get_json()["games"] == []


def test_importing_games_that_exist_is_409_and_changes_nothing(client, played):
    backup = client.get("/api/export").get_json()
    before = snapshot(client)
    assert_refusal(client.post("/api/import", json=backup), 409)
    assert snapshot(client) == before


def tampered(backup, change):
    backup = json.loads(json.dumps(backup))
    change(backup)
    return backup


def _illegal_play(b):
    b["games"][-1]["events"].append(
        {
            "version": len(b["games"][-1]["events"]) + 1,
            "kind": "action",
            "payload": {"type": "play", "player": "Ana", "tile": "9-8", "on": "5-5"},
            "created": None,
        }
    )


@pytest.mark.parametrize(
    "change, status",
    [
        (lambda b: b.update(format="something-else"), 400),
        (lambda b: b.update(format_version=2), 400),
        (lambda b: b.update(games=[]), 400),
        (lambda b: b.update(games="all"), 400),
        (lambda b: b.update(extra=1), 400),
        (lambda b: b["games"][0].update(id="has space"), 400),
        (lambda b: b["games"][0].update(id=""), 400),
        (lambda b: b["games"][1].update(id=b["games"][0]["id"]), 400),
        (lambda b: b["games"][0].update(events=[]), 400),
        (lambda b: b["games"][0].update(pin="12"), 400),
        (lambda b: b["games"][0].update(protected="yes"), 400),
        (lambda b: b["games"][0]["events"][1].update(version=7), 400),
        (lambda b: b["games"][0]["events"][0].update(kind="action"), 400),
        (lambda b: b["games"][0]["events"][1].update(kind="create"), 400),
        (lambda b: b["games"][0]["events"][1].update(payload=[]), 400),
        (lambda b: b["games"][0]["events"][1].update(extra=1), 400),
        (lambda b: b["games"][0]["events"][1].update(created="x" * 100), 400),
        (lambda b: b["games"][0]["events"][0]["payload"].update(game="poker"), 400),
        (lambda b: b["games"][0]["events"][0]["payload"]["players"].append("<script>x</script>"), 400),
        (lambda b: b["games"][-1]["events"][1]["payload"].update(type="jump"), 400),
        (lambda b: b["games"][-1]["events"][1]["payload"].update(player="Zed"), 422),
        (lambda b: b["games"][-1]["events"][2]["payload"].update(tile="9-9"), 422),
        (_illegal_play, 422),
    ],
)
def test_a_bad_import_is_refused_whole_and_changes_nothing(client, played, tmp_path, change, status):
    other = fresh(tmp_path, "bad")
    other.post("/api/games", json={"game": "kozel", "players": ["X", "Y"]})
    before = snapshot(other)
    backup = client.get("/api/export").get_json()
    backup["games"].sort(key=lambda g: g["id"] == played["cf"])  # the chicken-foot game last
    assert_refusal(other.post("/api/import", json=tampered(backup, change)), status)
    assert snapshot(other) == before


def test_export_all_is_one_moment_while_another_tablet_deletes_and_plays(app, client, played, monkeypatch):
    """Between listing the games and reading each, another connection deletes one game and
    plays on in another: the backup is the database as it was when the export began."""
    from referee.store import Store

    before = client.get("/api/export").get_json()["games"]
    list_games = Store.list_games

    def list_then_others_write(self):
        rows = list_games(self)
        elsewhere = Store(app.config["DATABASE"])
        try:
            elsewhere.delete(played["cf"])
            elsewhere.change(
                played["kz"], "action", {"type": "play", "player": "Caro", "tile": "3-3", "on": "1-3"}
            )
        finally:
            elsewhere.close()
        return rows

    monkeypatch.setattr(Store, "list_games", list_then_others_write)
    response = client.get("/api/export")
    monkeypatch.undo()
    assert response.status_code == 200, response.get_data(as_text=True)[:200]
    assert response.get_json()["games"] == before  # not a mix of two moments
    after = client.get("/api/export").get_json()["games"]
    assert played["cf"] not in {g["id"] for g in after}
    assert (
        len(next(g for g in after if g["id"] == played["kz"])["events"])
        == len(next(g for g in before if g["id"] == played["kz"])["events"]) + 1
    )


def test_an_import_is_one_transaction_invisible_until_whole(client, played, tmp_path, monkeypatch):
    """With every row of an import written, before its commit, another connection sees
    none of it (so a crash of the app there leaves nothing behind); a failure then leaves
    nothing either,
    and the cache hands out nothing of the rolled-back games afterwards."""
    from referee.store import Store

    backup = client.get("/api/export").get_json()
    target = tmp_path / "target.db"
    importer = create_app(
        {"TESTING": True, "DATABASE": str(target), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    ).test_client()
    seen_midway: list[int] = []
    insert = Store.insert_replayed

    def insert_and_look(self, games):
        insert(self, games)  # every row written, the transaction not yet committed
        elsewhere = Store(str(target))
        try:
            seen_midway.append(len(elsewhere.list_games()))
        finally:
            elsewhere.close()
        if fail[0]:
            raise RuntimeError("the power went out")

    fail = [True]
    monkeypatch.setattr(Store, "insert_replayed", insert_and_look)
    importer.application.config["PROPAGATE_EXCEPTIONS"] = False
    assert importer.post("/api/import", json=backup).status_code == 500
    assert seen_midway == [0]
    assert importer.get("/api/games").get_json()["games"] == []
    for game in backup["games"]:
        assert importer.get(f"/api/games/{game['id']}").status_code == 404
    fail[0], seen_midway[:] = False, []
    assert importer.post("/api/import", json=backup).status_code == 201
    assert seen_midway == [0]  # still invisible half-way the second time
    assert len(importer.get("/api/games").get_json()["games"]) == len(backup["games"])
