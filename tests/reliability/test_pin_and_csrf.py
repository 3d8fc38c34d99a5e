"""Table PIN: others may watch but not change a protected game; the unlock page; CSRF on
every page form (the served app, with CSRF on, refuses a form posted without its token)."""

from __future__ import annotations

import re

import requests

from tests.conftest import Api
from tests.reliability.helpers import assert_refusal, snapshot

PLAYERS = ["Ana", "Ben", "Caro"]
HANDS = {"hands": {"Ana": 0, "Ben": 4, "Caro": 9}}


def protected(api, pin="2468", **extra):
    body = {"game": "mexican-train", "players": PLAYERS, "set": 9, "mode": "scores", "pin": pin, **extra}
    return api.create(**body)


def test_without_the_pin_others_watch_but_cannot_change(app, client, api):
    game = protected(api)
    assert "pin" not in game and "pin_hash" not in game
    url = f"/api/games/{game['id']}"
    before = snapshot(client)
    for headers in ({}, {"X-Table-Pin": "1357"}, {"X-Table-Pin": "24680"}):
        assert_refusal(client.post(f"{url}/rounds/1/hands", json=HANDS, headers=headers), 403)
        assert_refusal(client.post(f"{url}/actions", json={"type": "undo"}, headers=headers), 403)
    assert snapshot(client) == before
    for address in (
        url,
        f"{url}/events",
        f"{url}/scoresheet.csv",
        f"{url}/export",
        f"/games/{game['id']}",
        f"/games/{game['id']}/export.json",
    ):
        assert client.get(address).status_code == 200, address  # watching stays open
    response = client.post(f"{url}/rounds/1/hands", json=HANDS, headers={"X-Table-Pin": "2468"})
    assert response.status_code == 200 and response.get_json()["totals"] == HANDS["hands"]


def test_a_game_without_a_pin_is_open(client, api):
    game = api.create(game="mexican-train", players=PLAYERS, set=9, mode="scores")
    assert client.post(f"/api/games/{game['id']}/rounds/1/hands", json=HANDS).status_code == 200
    page = client.get(f"/games/{game['id']}/unlock")
    assert page.status_code == 200 and "no table PIN" in page.get_data(as_text=True)


def test_the_unlock_page_unlocks_this_browser_only_and_this_game_only(app, client, api):
    game, other = protected(api), protected(api, pin="1111")
    page = client.get(f"/games/{game['id']}/unlock")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'type="password"' in html and 'inputmode="numeric"' in html and "Ana · Ben · Caro" in html
    wrong = client.post(f"/games/{game['id']}/unlock", data={"pin": "1111"})
    assert wrong.status_code == 403 and "not this game" in wrong.get_data(as_text=True)
    assert client.post(f"/api/games/{game['id']}/rounds/1/hands", json=HANDS).status_code == 403
    right = client.post(f"/games/{game['id']}/unlock", data={"pin": "2468"})
    assert right.status_code == 303 and right.headers["Location"] == f"/games/{game['id']}"
    with client.session_transaction() as session:
        assert session["unlocked"] == [game["id"]]
    assert client.post(f"/api/games/{game['id']}/rounds/1/hands", json=HANDS).status_code == 200
    assert client.post(f"/api/games/{other['id']}/rounds/1/hands", json=HANDS).status_code == 403
    stranger = app.test_client()  # another tablet: no session
    assert stranger.post(f"/api/games/{game['id']}/actions", json={"type": "undo"}).status_code == 403
    assert "unlocked on this device" in client.get(f"/games/{game['id']}/unlock").get_data(as_text=True)


def test_the_page_forms_honour_the_pin(client, api):
    game = protected(api)
    before = snapshot(client)
    response = client.post(
        f"/games/{game['id']}/rounds/1/hands", data={"version": "1", "p0": "0", "p1": "4", "p2": "9"}
    )
    assert 400 <= response.status_code < 500
    assert snapshot(client) == before
    client.post(f"/games/{game['id']}/unlock", data={"pin": "2468"})
    response = client.post(
        f"/games/{game['id']}/rounds/1/hands", data={"version": "1", "p0": "0", "p1": "4", "p2": "9"}
    )
    assert response.status_code == 303
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 2


def test_unlock_goes_back_only_within_the_app(client, api):
    game = protected(api)
    for target, expected in (
        ("/games/x/table", "/games/x/table"),
        ("//evil.example/", f"/games/{game['id']}"),
        ("https://evil.example/", f"/games/{game['id']}"),
        ("/\\evil.example", f"/games/{game['id']}"),
    ):
        response = client.post(
            f"/games/{game['id']}/unlock?next={requests.utils.quote(target)}", data={"pin": "2468"}
        )
        assert response.status_code == 303 and response.headers["Location"] == expected


def test_unknown_game_unlock_is_404(client):
    assert client.get("/games/nope/unlock").status_code == 404
    assert client.get("/games/nope/export.json").status_code == 404


# ----- CSRF (the served app: CSRF on) ----------------------------------------------------------


def token_from(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html
    )
    assert match, "the form carries no CSRF token"
    return match.group(1)


def test_page_forms_without_the_csrf_token_are_refused(live_server):
    base = live_server.url
    game = requests.post(
        f"{base}/api/games",
        json={"game": "mexican-train", "players": PLAYERS, "set": 9, "mode": "scores", "pin": "2468"},
        timeout=10,
    ).json()
    tablet = requests.Session()
    tablet.get(f"{base}/games/{game['id']}/unlock", timeout=10)  # a session cookie, but no token sent
    refused = tablet.post(
        f"{base}/games/{game['id']}/unlock", data={"pin": "2468"}, timeout=10, allow_redirects=False
    )
    assert refused.status_code == 400
    assert (
        tablet.post(f"{base}/api/games/{game['id']}/rounds/1/hands", json=HANDS, timeout=10).status_code
        == 403
    )
    refused = tablet.post(
        f"{base}/games/new",
        timeout=10,
        allow_redirects=False,
        data={"game": "kozel", "players-0": "A", "players-1": "B", "mode": "referee", "start": "1"},
    )
    assert refused.status_code == 400
    refused = tablet.post(
        f"{base}/games/{game['id']}/rounds/1/hands",
        timeout=10,
        allow_redirects=False,
        data={"version": "1", "p0": "0", "p1": "4", "p2": "9"},
    )
    assert refused.status_code == 400
    forged = tablet.post(
        f"{base}/games/{game['id']}/unlock",
        timeout=10,
        allow_redirects=False,
        data={"pin": "2468", "csrf_token": "forged"},
    )
    assert forged.status_code == 400
    games = requests.get(f"{base}/api/games", timeout=10).json()["games"]
    assert [g["id"] for g in games] == [game["id"]]
    assert requests.get(f"{base}/api/games/{game['id']}", timeout=10).json()["version"] == 1
    # with the token of the page it was given, the same form works
    token = token_from(tablet.get(f"{base}/games/{game['id']}/unlock", timeout=10).text)
    accepted = tablet.post(
        f"{base}/games/{game['id']}/unlock",
        data={"pin": "2468", "csrf_token": token},
        timeout=10,
        allow_redirects=False,
    )
    assert accepted.status_code == 303
    assert (
        tablet.post(f"{base}/api/games/{game['id']}/rounds/1/hands", json=HANDS, timeout=10).status_code
        == 200
    )
    # another browser's token does not unlock this one
    other = requests.Session()
    other.get(f"{base}/games/{game['id']}/unlock", timeout=10)
    assert (
        other.post(
            f"{base}/games/{game['id']}/unlock",
            data={"pin": "2468", "csrf_token": token},
            timeout=10,
            allow_redirects=False,
        ).status_code
        == 400
    )


def test_json_needs_no_token_but_must_be_json(live_server):
    base = live_server.url
    assert (
        requests.post(
            f"{base}/api/games", json={"game": "kozel", "players": ["A", "B"]}, timeout=10
        ).status_code
        == 201
    )
    assert (
        requests.post(f"{base}/api/games", data={"game": "kozel", "players": "A"}, timeout=10).status_code
        == 415
    )
    assert requests.post(f"{base}/api/import", data={"games": "x"}, timeout=10).status_code == 415


def test_guessing_the_pin_is_throttled(client, api, monkeypatch):
    from referee.web import service

    clock = [1000.0]
    monkeypatch.setattr(service.time, "time", lambda: clock[0])
    game = protected(api, pin="8642")
    url = f"/api/games/{game['id']}/rounds/1/hands"
    for guess in range(service.PIN_FAILURES_ALLOWED):
        refusal = assert_refusal(client.post(url, json=HANDS, headers={"X-Table-Pin": f"{guess:04d}"}), 403)
        assert "Too many" not in refusal["error"]
    # now even the right PIN waits, on the API and on the unlock page
    refusal = assert_refusal(client.post(url, json=HANDS, headers={"X-Table-Pin": "8642"}), 403)
    assert "Too many wrong table PINs" in refusal["error"]
    page = client.post(f"/games/{game['id']}/unlock", data={"pin": "8642"})
    assert page.status_code == 429 and "Too many wrong table PINs" in page.get_data(as_text=True)
    other = protected(api, pin="8642")  # other games are not affected
    assert (
        client.post(
            f"/api/games/{other['id']}/rounds/1/hands", json=HANDS, headers={"X-Table-Pin": "8642"}
        ).status_code
        == 200
    )
    clock[0] += service.PIN_FAILURE_WINDOW + 1
    assert client.post(url, json=HANDS, headers={"X-Table-Pin": "8642"}).status_code == 200


def test_the_pin_guessing_limit_survives_a_restart(tmp_path):
    """The wrong PINs are kept in the database: restarting the app (or a second server
    process on the same file) does not give a guesser a fresh set of tries."""
    from referee.web import create_app, service

    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "pins.db"),
        "SECRET_KEY": "s",
        "WTF_CSRF_ENABLED": False,
    }
    first = create_app(config).test_client()
    game = protected(Api(first), pin="8642")
    url = f"/api/games/{game['id']}/rounds/1/hands"
    for guess in range(service.PIN_FAILURES_ALLOWED):
        assert first.post(url, json=HANDS, headers={"X-Table-Pin": f"{guess:04d}"}).status_code == 403
    from referee.store import Store

    on_disk = Store(config["DATABASE"])
    try:
        assert on_disk.pin_failures_since(game["id"], 0) == service.PIN_FAILURES_ALLOWED
    finally:
        on_disk.close()
    restarted = create_app(config).test_client()
    refusal = assert_refusal(restarted.post(url, json=HANDS, headers={"X-Table-Pin": "8642"}), 403)
    assert "Too many wrong table PINs" in refusal["error"]
    assert Api(restarted).state(game["id"])["version"] == 1  # nothing was entered meanwhile
