"""Deleting a game to the trash (API and page, with confirmation), the home page's three
lists with paging in this server's order, the owner PIN over the trash and imports, and a
game's table PIN set, changed and removed from its page."""

from __future__ import annotations

import re

import pytest

from referee.store import Store
from tests.conftest import Api


def game(api, pin=None, players=("Ana", "Ben")):
    body = {"game": "kozel", "players": list(players)}
    if pin:
        body["pin"] = pin
    return api.create(**body)


def test_delete_moves_a_game_to_the_trash_and_restore_brings_it_back(client, api):
    g = game(api)
    assert client.delete(f"/api/games/{g['id']}").status_code == 204
    assert client.get(f"/api/games/{g['id']}").status_code == 404
    assert g["id"] not in [x["id"] for x in client.get("/api/games").get_json()["games"]]
    assert client.delete(f"/api/games/{g['id']}").status_code == 404
    trash = client.get("/trash").get_data(as_text=True)
    assert "Ana, Ben" in trash
    assert client.post(f"/trash/{g['id']}/restore").status_code == 303
    assert client.get(f"/api/games/{g['id']}").status_code == 200


def test_delete_of_a_pin_game_needs_its_pin(client, api):
    g = game(api, pin="2468")
    assert client.delete(f"/api/games/{g['id']}").status_code == 403
    assert client.delete(f"/api/games/{g['id']}", headers={"X-Table-PIN": "1111"}).status_code == 403
    assert client.get(f"/api/games/{g['id']}").status_code == 200
    assert client.delete(f"/api/games/{g['id']}", headers={"X-Table-PIN": "2468"}).status_code == 204


def test_the_page_asks_before_deleting(client, api):
    g = game(api)
    page = client.get(f"/games/{g['id']}").get_data(as_text=True)
    assert f"/games/{g['id']}/delete" in page
    confirm = client.get(f"/games/{g['id']}/delete")
    assert confirm.status_code == 200 and "Move to the trash" in confirm.get_data(as_text=True)
    assert client.get(f"/api/games/{g['id']}").status_code == 200  # asking changed nothing
    done = client.post(f"/games/{g['id']}/delete")
    assert done.status_code == 303
    assert client.get(f"/api/games/{g['id']}").status_code == 404


def test_home_lists_playing_finished_and_trash_apart_and_pages_through_all(app, client, api):
    ids = [game(api, players=(f"P{i}", "Zed"))["id"] for i in range(45)]
    client.delete(f"/api/games/{ids[0]}")
    html = client.get("/").get_data(as_text=True)
    assert "In progress" in html and "Trash" in html and "(44)" in html
    seen = set()
    for number in (1, 2, 3):
        page = client.get(f"/?playing={number}").get_data(as_text=True)
        seen |= set(re.findall(r'href="/games/([\w-]+)"', page))
    assert seen - {"new"} == set(ids[1:])
    first = client.get("/").get_data(as_text=True)
    assert first.index(f"/games/{ids[-1]}") < first.index(f"/games/{ids[-2]}")  # newest first


def test_an_imported_future_stamp_cannot_pin_a_game_on_top(app, client, api):
    """The lists follow this server's clock: a game changed here last is listed first,
    whatever its own time stamps say."""
    old = game(api, players=("Old", "Game"))
    with app.app_context():
        store = Store(app.config["DATABASE"])
        store.db.execute(
            "update games set created = '9999-12-31T00:00:00', updated = '9999-12-31T00:00:00' where id = ?",
            [old["id"]],
        )
        store.close()
    new = game(api, players=("New", "Game"))
    html = client.get("/").get_data(as_text=True)
    assert html.index(f"/games/{new['id']}") < html.index(f"/games/{old['id']}")


def test_the_owner_pin_guards_the_trash_and_imports(app, client, api):
    g = game(api)
    client.delete(f"/api/games/{g['id']}")
    assert client.post("/owner", data={"action": "set", "set-new": "97531"}).status_code == 303
    stranger = app.test_client()
    assert stranger.post(f"/trash/{g['id']}/restore").status_code == 303
    assert stranger.post("/trash/empty").status_code == 303
    assert stranger.get(f"/api/games/{g['id']}").status_code == 404  # still in the trash
    assert "Ana, Ben" in stranger.get("/trash").get_data(as_text=True)
    backup = client.get(f"/api/games/{game(api)['id']}/export").get_json()
    backup["games"][0]["id"] = "imported-1"
    assert stranger.post("/api/import", json=backup).status_code == 403
    assert stranger.post("/api/import", json=backup, headers={"X-Owner-Pin": "97531"}).status_code == 201
    assert stranger.post("/owner", data={"action": "unlock", "unlock-pin": "11111"}).status_code == 403
    assert stranger.post("/owner", data={"action": "unlock", "unlock-pin": "97531"}).status_code == 303
    assert stranger.post(f"/trash/{g['id']}/restore").status_code == 303
    assert stranger.get(f"/api/games/{g['id']}").status_code == 200
    # changing the owner PIN needs the current one
    assert (
        stranger.post("/owner", data={"action": "set", "set-current": "1234", "set-new": "2222"}).status_code
        == 403
    )
    assert (
        stranger.post("/owner", data={"action": "set", "set-current": "97531"}).status_code == 303
    )  # removed
    backup["games"][0]["id"] = "imported-2"
    assert app.test_client().post("/api/import", json=backup).status_code == 201


def test_the_owner_pin_can_come_from_the_environment(tmp_path, monkeypatch):
    from referee.web import create_app

    monkeypatch.setenv("REFEREE_OWNER_PIN", "4321")
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}
    )
    client = app.test_client()
    exported = f"/api/games/{game(Api(client))['id']}/export"
    assert client.get(exported).status_code == 403  # a backup holds the PINs: the owner's
    backup = client.get(exported, headers={"X-Owner-Pin": "4321"}).get_json()
    backup["games"][0]["id"] = "imported-1"
    assert client.post("/api/import", json=backup).status_code == 403
    assert client.post("/api/import", json=backup, headers={"X-Owner-Pin": "4321"}).status_code == 201


def test_purge_deletes_only_games_in_the_trash(client, api):
    kept, thrown = game(api), game(api)
    client.delete(f"/api/games/{thrown['id']}")
    assert client.post(f"/trash/{kept['id']}/purge").status_code == 404
    assert client.post(f"/trash/{thrown['id']}/purge").status_code == 303
    assert client.post(f"/trash/{thrown['id']}/restore").status_code == 404
    assert client.get(f"/api/games/{kept['id']}").status_code == 200


@pytest.mark.parametrize("where", ["game page"])
def test_a_table_pin_is_set_changed_and_removed_on_the_games_page(client, api, where):
    g = game(api)
    url = f"/games/{g['id']}/pin"
    assert "Set a table PIN" in client.get(f"/games/{g['id']}").get_data(as_text=True)
    assert client.post(url, data={"new": "12"}).status_code == 400
    assert client.post(url, data={"new": "2468"}).status_code == 303
    other = client.application.test_client()
    act = f"/api/games/{g['id']}/rounds/1/hands"
    assert other.post(f"/api/games/{g['id']}/actions", json={"type": "undo"}).status_code == 403
    # changing needs the current PIN, even on the device that set it
    assert client.post(url, data={"current": "1111", "new": "1357"}).status_code == 403
    assert client.post(url, data={"current": "2468", "new": "1357"}).status_code == 303
    assert (
        other.post(
            f"/api/games/{g['id']}/actions", json={"type": "undo"}, headers={"X-Table-Pin": "2468"}
        ).status_code
        == 403
    )
    assert client.post(url, data={"current": "1357", "new": ""}).status_code == 303
    assert other.post(f"/api/games/{g['id']}/actions", json={"type": "undo"}).status_code != 403
    assert act


def test_the_new_game_page_sets_a_table_pin(client, api):
    from tests.web.test_pages import new_game

    response = new_game(client, ["Ana", "Ben"], table_pin="2468")
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    stranger = client.application.test_client()
    assert stranger.post(f"/api/games/{game_id}/actions", json={"type": "undo"}).status_code == 403
    assert "Change the table PIN" in client.get(f"/games/{game_id}").get_data(as_text=True)
    before = client.get("/api/games").get_json()["games"]
    refused = new_game(client, ["Ana", "Ben"], table_pin="12ab")
    assert 400 <= refused.status_code < 500
    assert "4 to 12 digits" in refused.get_data(as_text=True)
    assert client.get("/api/games").get_json()["games"] == before
