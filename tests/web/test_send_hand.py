""" "Send my hand": a phone keeps a hand for the tablet to review; nothing is booked, the
table PIN still guards saving, and bad or excessive sends are refused clearly."""

from __future__ import annotations

import html
import re

import pytest

import referee.web.photo as photo
from tests.web.page_helpers import text as raw_text


def text(response) -> str:
    return html.unescape(raw_text(response))


def send(client, game_id, player, tiles, round_number="1", **extra):
    return client.post(
        f"/games/{game_id}/send-hand", data={"player": player, "tiles": tiles, "round": round_number, **extra}
    )


@pytest.fixture
def pad(api):
    return api.create(
        game="mexican-train", mode="scores", set=12, players=["Ana", "Ben", "Caro"], pin="2468"
    )["id"]


def test_a_sent_hand_is_kept_not_booked_and_fills_the_tablets_form(client, api, pad):
    response = send(client, pad, "Ben", "12-5 3-3")  # no PIN needed to send for review
    assert response.status_code == 303 and response.headers["Location"].endswith("player=Ben")
    assert "Ben's hand is sent" in text(client.get(response.headers["Location"]))
    assert api.state(pad)["version"] == 1
    page = text(client.get(f"/games/{pad}/rounds/1/hands"))
    assert re.search(r'name="p1" value="5-12 3-3"', page)
    assert re.search(r"Hands sent from phones:</strong> Ben\.\s*Still missing: Ana, Caro\.", page)
    # sending again replaces the hand; "out" is an empty hand
    send(client, pad, "Ben", "1-1")
    send(client, pad, "Caro", "out")
    page = text(client.get(f"/games/{pad}/rounds/1/hands"))
    assert 'name="p1" value="1-1"' in page and 'name="p2" value="out"' in page


def test_the_pin_still_guards_saving_the_round(client, api, pad):
    send(client, pad, "Ben", "1-1")
    response = client.post(f"/games/{pad}/rounds/1/hands", data={"p0": "3", "p1": "1-1", "p2": "out"})
    assert response.status_code == 422 and "table PIN" in text(response)
    assert api.state(pad)["version"] == 1
    with client.session_transaction() as session:
        session["unlocked"] = [pad]
    assert (
        client.post(f"/games/{pad}/rounds/1/hands", data={"p0": "3", "p1": "1-1", "p2": "out"}).status_code
        == 303
    )
    assert api.state(pad)["rounds"][0]["points"] == {"Ana": 3, "Ben": 2, "Caro": 0}
    # round 1 is saved: a phone still on it is told so; the page now offers round 2
    response = send(client, pad, "Ben", "1-1")
    assert response.status_code == 409 and "already saved" in text(response)
    assert 'name="round" value="2"' in text(client.get(f"/games/{pad}/send-hand"))


def test_a_finished_game_has_no_hand_to_send(client, api):
    game_id = api.create(game="kozel", mode="scores", players=["A", "B"])["id"]
    status, _ = api.post(f"/api/games/{game_id}/actions", {"type": "leave", "player": "B"})
    assert status == 200
    assert "There is no round waiting" in text(client.get(f"/games/{game_id}/send-hand"))
    assert "send-hand" not in text(client.get(f"/games/{game_id}/follow"))
    assert send(client, game_id, "A", "1-1").status_code == 409


@pytest.mark.parametrize(
    ("player", "tiles", "fragment"),
    [
        ("Zed", "1-1", "There is no player called"),
        ("Ben", "", "Take the photo or tap the tiles"),
        ("Ben", "1-1 banana", "banana is not a tile"),
        ("Ben", "1-13", "There is no 1-13 in a double-12 set"),
    ],
)
def test_bad_sends_are_refused_and_nothing_is_kept(client, api, pad, player, tiles, fragment):
    response = send(client, pad, player, tiles)
    assert response.status_code == 422
    assert fragment in text(response)
    assert "Hands sent from phones" not in text(client.get(f"/games/{pad}/rounds/1/hands"))


def test_a_stale_round_is_refused(client, pad):
    assert send(client, pad, "Ben", "1-1", round_number="2").status_code == 409


def test_sends_are_limited_per_minute(client, pad, monkeypatch):
    monkeypatch.setattr(photo, "SENDS_PER_MINUTE", 3)
    for _ in range(3):
        assert send(client, pad, "Ben", "1-1").status_code == 303
    response = send(client, pad, "Ana", "2-2")
    assert response.status_code == 422 and "Too many hands" in text(response)
    assert "Still missing: Ana, Caro." in text(client.get(f"/games/{pad}/rounds/1/hands"))


def test_the_send_form_needs_its_csrf_token(live_app):
    client = live_app.test_client()
    game_id = client.post(
        "/api/games", json={"game": "kozel", "players": ["A", "B"], "mode": "scores"}
    ).get_json()["id"]
    assert send(client, game_id, "A", "1-1").status_code == 400
    page = text(client.get(f"/games/{game_id}/send-hand"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert send(client, game_id, "A", "1-1", csrf_token=token).status_code == 303


def test_the_follow_page_offers_send_my_hand_while_a_round_waits(client, api, pad):
    assert f'href="/games/{pad}/send-hand"' in text(client.get(f"/games/{pad}/follow"))
    assert client.get("/games/nope/send-hand").status_code == 404


def test_the_store_keeps_one_hand_per_player_and_round_and_forgets_them_with_the_game(tmp_path):
    from referee.match import GameConfig
    from referee.store import Store

    store = Store(str(tmp_path / "s.db"))
    store.migrate()
    game = store.create(GameConfig.from_json({"game": "kozel", "players": ["A", "B"], "mode": "scores"}))
    store.send_hand(game.id, 1, "A", ["1-1"], 100.0)
    store.send_hand(game.id, 1, "A", ["2-2", "0-0"], 101.0)
    store.send_hand(game.id, 2, "B", [], 102.0)
    assert store.sent_hands(game.id, 1) == {"A": ["2-2", "0-0"]}
    assert store.sent_hands(game.id, 2) == {"B": []}
    assert store.sent_since(game.id, 100.5) == 2 and store.sent_since(game.id, 0) == 3
    assert store.load(game.id).version == 1
    store.delete(game.id)
    assert store.sent_hands(game.id, 1) == {} and store.sent_since(game.id, 0) == 0
    store.close()
