"""One rule for every whole number a form carries: only the ASCII digits 0-9 are digits.
Python's ``int`` reads "١" (an Arabic-Indic one) as 1, "1_0" as 10 and "+5" as 5; each of
them, in every form, is a 4xx with a sentence, and nothing is changed."""

from __future__ import annotations

import html
import sqlite3

import pytest

from referee.web.forms import NotANumber, whole_number
from tests.web.page_helpers import MT_FORM, text

ODD = ["١", "٣", "²", "1_0", "+5", "５", "1.0", "-1"]


@pytest.mark.parametrize("raw, number", [("0", 0), (" 12 ", 12), ("007", 7), ("", None), (None, None)])
def test_whole_numbers_are_ascii_digits(raw, number):
    assert whole_number(raw, 3) == number


@pytest.mark.parametrize("raw", [*ODD, "1234", "1 2", "1\n"])
def test_anything_else_is_not_a_number(raw):
    with pytest.raises(NotANumber):
        whole_number(raw, 3)


def games(client) -> list:
    return client.get("/api/games").get_json()["games"]


@pytest.mark.parametrize("value", ODD)
@pytest.mark.parametrize("field", ["mt_last_double", "mt_hand_size", "mt_out_bonus", "kz_lose_at"])
def test_the_new_game_form_reads_only_ascii_digits(client, field, value):
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "Ben", field: value})
    if field == "kz_lose_at":
        data["game"] = "kozel"
        data.pop("set")
    response = client.post("/games/new", data=data)
    assert response.status_code == 400, (field, value, response.status_code)
    page = html.unescape(text(response))
    assert page.count("Write a whole number with the digits 0-9") == 1
    assert "Number must be between" not in page  # one sentence, not a range of nothing
    assert games(client) == []


def test_the_new_game_form_still_takes_ascii_digits(client):
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "Ben", "mt_last_double": " 1 "})
    assert client.post("/games/new", data=data).status_code == 303
    game_id = games(client)[0]["id"]
    assert client.get(f"/api/games/{game_id}").get_json()["options"]["last_double"] == 1


@pytest.mark.parametrize("version", ["١", "٢", "1_0", "+1", "１"])
def test_the_hands_form_version_reads_only_ascii_digits(client, api, version):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    response = client.post(
        f"/games/{game['id']}/rounds/1/hands", data={"p0": "0", "p1": "7", "version": version}
    )
    assert response.status_code == 400
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("version", ["١", "1_0", "+1"])
def test_the_table_form_version_reads_only_ascii_digits(client, api, version):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"])
    state = api.state(game["id"])
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"type": "draw", "player": state["round"]["turn"], "version": version},
    )
    assert response.status_code == 400
    assert "Write a whole number with the digits 0-9" in html.unescape(text(response))
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("tile", ["٥-٦", "5-٦", "٥ ٦"])
def test_a_tile_tapped_with_other_digits_is_not_a_tile(client, api, tile):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"])
    state = api.state(game["id"])
    turn = state["round"]["turn"]
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"type": "play", "player": turn, "tile": tile, "place": turn, "version": "1"},
    )
    assert 400 <= response.status_code < 500
    assert api.state(game["id"])["version"] == 1


PINS = ["١٢٣٤", "۱۲۳۴", "２４６８", "2468\n", "24 68"]


def failures(app) -> int:
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from pin_failures").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("pin", PINS)
def test_the_unlock_form_refuses_other_digits_without_counting_a_try(app, client, api, pin):
    game = api.create(game="kozel", players=["Ana", "Ben"], pin="2468")
    response = client.post(f"/games/{game['id']}/unlock", data={"pin": pin})
    assert response.status_code == 400
    assert "A table PIN is 4 to 12 digits" in html.unescape(text(response))
    assert failures(app) == 0
    with client.session_transaction() as session:
        assert game["id"] not in session.get("unlocked", [])


@pytest.mark.parametrize("pin", PINS)
def test_the_table_pin_form_refuses_other_digits(client, api, pin):
    game = api.create(game="kozel", players=["Ana", "Ben"])
    response = client.post(f"/games/{game['id']}/pin", data={"new": pin})
    assert response.status_code == 400
    assert "A PIN is 4 to 12 digits" in html.unescape(text(response))
    assert client.get(f"/api/games/{game['id']}").get_json().get("protected") is not True
    assert (
        client.post(f"/api/games/{game['id']}/actions", json={"type": "pass", "player": "Ana"}).status_code
        != 403
    )


@pytest.mark.parametrize("pin", PINS)
def test_the_new_game_form_refuses_a_table_pin_in_other_digits(client, pin):
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "Ben", "table_pin": pin})
    response = client.post("/games/new", data=data)
    assert 400 <= response.status_code < 500
    assert "A table PIN is 4 to 12 digits" in html.unescape(text(response))
    assert games(client) == []


@pytest.mark.parametrize("pin", PINS)
def test_the_owner_pin_form_refuses_other_digits(app, client, pin):
    response = client.post("/owner", data={"set-new": pin})
    assert response.status_code == 400
    assert "A PIN is 4 to 12 digits" in html.unescape(text(response))
    db = sqlite3.connect(app.config["DATABASE"])
    assert db.execute("select count(*) from settings").fetchone()[0] == 0
    db.close()


@pytest.mark.parametrize("page", ["١", "²", "1_0"])
def test_a_page_number_in_other_digits_is_the_first_page(client, page):
    assert client.get(f"/trash?page={page}").status_code == 200
