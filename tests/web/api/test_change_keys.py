"""API.md's ``key``: a change sent again with the key the game already accepted (a retry after a
lost answer) changes nothing and answers 200 with the game as it is, even after an undo; a key
is checked before ``version``; a malformed key is a 400 that changes nothing."""

from __future__ import annotations

import pytest

from referee.web import create_app

PLAYERS = ["Ana", "Ben", "Caro"]


def events(api, game_id: str) -> list[dict]:
    status, data = api.get(f"/api/games/{game_id}/events")
    assert status == 200, data
    return data["events"] if isinstance(data, dict) else data


def test_an_action_sent_twice_with_its_key_is_logged_once(api):
    game = api.create(game="mexican-train", players=PLAYERS, set=12)
    draw = {"type": "draw", "player": "Ana", "key": "tap-0001-ana"}
    status, first = api.post(f"/api/games/{game['id']}/actions", draw)
    assert status == 200 and first["version"] == 2
    status, again = api.post(f"/api/games/{game['id']}/actions", draw)
    assert status == 200 and again == first
    assert len(events(api, game["id"])) == 2  # the creation and one draw


def test_a_key_is_remembered_after_its_action_is_undone(api):
    game = api.create(game="mexican-train", players=PLAYERS, set=12)
    url = f"/api/games/{game['id']}/actions"
    assert api.post(url, {"type": "draw", "player": "Ana", "key": "tap-0001-ana"})[0] == 200
    status, undone = api.post(url, {"type": "undo", "key": "tap-0002-undo"})
    assert status == 200 and undone["round"]["boneyard"] == game["round"]["boneyard"]
    status, retried = api.post(url, {"type": "draw", "player": "Ana", "key": "tap-0001-ana"})
    assert status == 200 and retried == undone  # the late retry does not draw again


def test_the_key_is_checked_before_the_version(api):
    game = api.create(game="mexican-train", players=PLAYERS, set=12)
    url = f"/api/games/{game['id']}/actions"
    draw = {"type": "draw", "player": "Ana", "version": 1, "key": "tap-0001-ana"}
    status, first = api.post(url, draw)
    assert status == 200 and first["version"] == 2
    assert api.post(url, draw) == (200, first)  # version 1 is stale, but the key answers first
    status, data = api.post(url, {**draw, "key": "tap-0002-ana"})
    assert status == 409, data  # a new key with a stale version is the conflict it always was


def test_a_refused_action_does_not_use_its_key(api):
    game = api.create(game="mexican-train", players=PLAYERS, set=12)
    url = f"/api/games/{game['id']}/actions"
    status, data = api.post(url, {"type": "draw", "player": "Ben", "key": "tap-0001-xx"})
    assert status == 422 and data["rule"], data  # not Ben's turn: nothing accepted
    status, data = api.post(url, {"type": "draw", "player": "Ana", "key": "tap-0001-xx"})
    assert status == 200 and data["version"] == 2


def test_keys_belong_to_their_game(api):
    one = api.create(game="mexican-train", players=PLAYERS, set=12)
    two = api.create(game="mexican-train", players=PLAYERS, set=12)
    draw = {"type": "draw", "player": "Ana", "key": "same-key-01"}
    for game in (one, two):
        status, data = api.post(f"/api/games/{game['id']}/actions", draw)
        assert status == 200 and data["version"] == 2


def test_a_hands_entry_sent_twice_with_its_key_is_booked_once(api):
    game = api.create(game="mexican-train", players=PLAYERS, set=12, mode="scores")
    url = f"/api/games/{game['id']}/rounds/1/hands"
    body = {"hands": {"Ana": [], "Ben": ["5-6"], "Caro": 17}, "key": "hands-round-1"}
    status, first = api.post(url, body)
    assert status == 200 and first["totals"] == {"Ana": 0, "Ben": 11, "Caro": 17}
    status, again = api.post(url, body)
    assert status == 200 and again == first
    assert len(first["rounds"]) == 1 and len(events(api, game["id"])) == 2


@pytest.mark.parametrize(
    "key",
    ["short", "x" * 65, "has space1", "dot.is.out", "ünïcode-key", 12345678, None, ["tap-0001"], ""],
)
def test_a_malformed_key_is_a_400_that_changes_nothing(api, key):
    game = api.create(game="mexican-train", players=PLAYERS, set=12)
    status, data = api.post(f"/api/games/{game['id']}/actions", {"type": "draw", "player": "Ana", "key": key})
    assert status == 400 and "'key'" in data["error"], data
    status, data = api.post(
        f"/api/games/{game['id']}/rounds/1/hands", {"hands": {"Ana": 0, "Ben": 0, "Caro": 0}, "key": key}
    )
    assert status == 400 and "'key'" in data["error"], data
    assert api.state(game["id"]) == game


def test_a_key_holds_across_a_restart(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "keys.db"), "SECRET_KEY": "k"}
    draw = {"type": "draw", "player": "Ana", "key": "tap-before-restart"}
    first_client = create_app(config).test_client()
    game = first_client.post("/api/games", json={"game": "mexican-train", "players": PLAYERS}).get_json()
    answered = first_client.post(f"/api/games/{game['id']}/actions", json=draw).get_json()
    restarted = create_app(config).test_client()
    response = restarted.post(f"/api/games/{game['id']}/actions", json=draw)
    assert response.status_code == 200 and response.get_json() == answered
