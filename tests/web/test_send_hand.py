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


def code_of(client, game_id) -> str:
    """The send code the table's QR carries (the share page's follow address)."""
    page = text(client.get(f"/games/{game_id}/share"))
    return re.search(r"/follow\?code=([a-z0-9]+)", page).group(1)


def send(client, game_id, player, tiles, round_number="1", code=None, **extra):
    code = code_of(client, game_id) if code is None else code
    return client.post(
        f"/games/{game_id}/send-hand",
        data={"player": player, "tiles": tiles, "round": round_number, "code": code, **extra},
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
    assert 'name="round" value="2"' in text(client.get(f"/games/{pad}/send-hand"))  # (the code is kept)


def test_a_finished_game_has_no_hand_to_send(client, api):
    game_id = api.create(game="kozel", mode="scores", players=["A", "B"])["id"]
    status, _ = api.post(f"/api/games/{game_id}/actions", {"type": "leave", "player": "B"})
    assert status == 200
    code = code_of(client, game_id)
    assert "There is no round waiting" in text(client.get(f"/games/{game_id}/send-hand?code={code}"))
    assert "send-hand" not in text(client.get(f"/games/{game_id}/follow?code={code}"))
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


def test_one_guest_cannot_use_up_everybody_s_sends(app, api, pad, monkeypatch):
    """The limits count per phone (its session) and per address, never per game: a guest
    who sends as fast as it can is stopped, the players' own phones still send."""
    monkeypatch.setattr(photo, "SENDS_PER_MINUTE", 3)
    monkeypatch.setattr(photo, "SENDS_PER_ADDRESS_MINUTE", 5)
    guest = app.test_client()
    code = code_of(guest, pad)
    for _ in range(3):
        assert send(guest, pad, "Ben", "1-1", code=code).status_code == 303
    assert send(guest, pad, "Ben", "1-1", code=code).status_code == 422  # this phone: 3 a minute
    for _ in range(2):  # the guest's cookies cleared: a fresh session, the same address
        fresh = app.test_client()
        assert send(fresh, pad, "Ben", "1-1", code=code).status_code == 303
    assert send(app.test_client(), pad, "Ben", "1-1", code=code).status_code == 422  # the address: 5
    ana = app.test_client()
    ana.environ_base["REMOTE_ADDR"] = "10.0.0.21"
    assert send(ana, pad, "Ana", "2-2", code=code).status_code == 303  # another phone sends


def test_only_a_phone_that_scanned_the_table_s_qr_can_send(app, client, api, pad):
    """The QR (and the follow address it carries) holds the game's send code; a guest who
    only knows the game's id can follow the game but not send, and nothing is kept."""
    code = code_of(client, pad)
    follow_svg = client.get(f"/games/{pad}/follow/qr.svg").get_data(as_text=True)
    assert f"/games/{pad}/follow?code={code}" in follow_svg
    guest = app.test_client()
    page = guest.get(f"/games/{pad}/follow")
    assert page.status_code == 200 and f"/games/{pad}/send-hand" not in text(page)
    assert "scan the QR code" in text(page)
    refused = guest.get(f"/games/{pad}/send-hand")
    assert refused.status_code == 403 and "scan the QR code" in text(refused)
    for wrong in ("", "nope", code[:-1] + ("a" if code[-1] != "a" else "b")):
        response = send(guest, pad, "Ben", "1-1", code=wrong)
        assert response.status_code == 403 and "scan the QR code" in text(response)
    assert "Hands sent from phones" not in text(client.get(f"/games/{pad}/rounds/1/hands"))
    # the phone that scanned the QR keeps the code: it sends later without it in the address
    phone = app.test_client()
    assert phone.get(f"/games/{pad}/follow?code={code}").status_code == 200
    assert phone.get(f"/games/{pad}/send-hand").status_code == 200
    assert send(phone, pad, "Ben", "1-1", code="").status_code == 303
    # another game's code does not open this one
    other = api.create(game="kozel", mode="scores", players=["A", "B"])["id"]
    assert send(app.test_client(), pad, "Ben", "1-1", code=code_of(client, other)).status_code == 403


def test_a_second_send_is_kept_beside_the_first_and_the_tablet_picks(client, api, pad):
    """A guest cannot silently replace a player's hand: the tablet lists every send with when
    it came, marks a second one for the same player, and fills in the one it picks."""
    send(client, pad, "Ben", "12-5 3-3")
    send(client, pad, "Ben", "1-1")
    page = text(client.get(f"/games/{pad}/rounds/1/hands"))
    sends = re.findall(r'<li data-sent="(\d+)"( class="sent-again")?>', page)
    assert len(sends) == 2 and sends[0][1] and not sends[1][1]  # newest first, marked "sent again"
    assert page.count("sent again") == 1 and "just now" in page and "<time datetime=" in page
    assert 'name="p1" value="1-1"' in page  # the latest is filled in
    first = sends[1][0]
    assert f"use={first}" in page
    chosen = text(client.get(f"/games/{pad}/rounds/1/hands?use={first}"))
    assert 'name="p1" value="5-12 3-3"' in chosen
    assert api.state(pad)["version"] == 1  # nothing booked


def test_the_send_form_needs_its_csrf_token(live_app):
    client = live_app.test_client()
    game_id = client.post(
        "/api/games", json={"game": "kozel", "players": ["A", "B"], "mode": "scores"}
    ).get_json()["id"]
    code = code_of(client, game_id)
    assert send(client, game_id, "A", "1-1", code=code).status_code == 400
    page = text(client.get(f"/games/{game_id}/send-hand?code={code}"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert send(client, game_id, "A", "1-1", code=code, csrf_token=token).status_code == 303


def test_the_follow_page_offers_send_my_hand_while_a_round_waits(client, api, pad):
    code = code_of(client, pad)
    assert f'href="/games/{pad}/send-hand?code={code}"' in text(
        client.get(f"/games/{pad}/follow?code={code}")
    )
    assert client.get("/games/nope/send-hand").status_code == 404


def test_the_store_keeps_every_send_and_forgets_them_with_the_game(tmp_path):
    from referee.match import GameConfig
    from referee.store import Store

    store = Store(str(tmp_path / "s.db"))
    store.migrate()
    game = store.create(GameConfig.from_json({"game": "kozel", "players": ["A", "B"], "mode": "scores"}))
    store.send_hand(game.id, 1, "A", ["1-1"], 100.0, device="d1", address="10.0.0.1")
    store.send_hand(game.id, 1, "A", ["2-2", "0-0"], 101.0, device="d1", address="10.0.0.1")
    store.send_hand(game.id, 2, "B", [], 102.0, device="d2", address="10.0.0.1")
    assert store.sent_hands(game.id, 1) == {"A": ["2-2", "0-0"]}  # the latest, for the form
    assert [(s.tiles, s.sent, s.again) for s in store.hand_sends(game.id, 1)] == [
        (["1-1"], 100.0, False),
        (["2-2", "0-0"], 101.0, True),
    ]
    assert store.sent_hands(game.id, 2) == {"B": []}
    assert store.sends_since(100.5, device="d1") == 1 and store.sends_since(0, device="d1") == 2
    assert store.sends_since(0, address="10.0.0.1") == 3
    assert store.load(game.id).version == 1
    store.delete(game.id)
    assert store.sent_hands(game.id, 1) == {} and store.sends_since(0, address="10.0.0.1") == 0
    store.close()


def test_the_share_page_says_a_phone_can_send_its_hand(client, pad):
    page = text(client.get(f"/games/{pad}/share"))
    assert "can only watch" not in page
    assert "can send its player’s hand" in page
