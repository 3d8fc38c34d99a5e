"""Bad input everywhere is a clear 4xx with {"error", "rule"} and changes nothing
(state, version, events and the list of games compared before and after)."""

from __future__ import annotations

import json

import pytest

from tests.reliability.helpers import assert_refusal, snapshot

PLAYERS = ["Ana", "Ben", "Caro"]


@pytest.fixture
def games(api):
    """One referee game of each kind and a score pad, a few steps in."""
    mt = api.create(game="mexican-train", players=PLAYERS, set=9)
    assert api.act(mt["id"], type="play", player="Ana", tile="9-4", train="Ana")[0] == 200
    pad = api.create(game="mexican-train", players=PLAYERS, set=9, mode="scores")
    assert api.hands(pad["id"], 1, {"Ana": 0, "Ben": 12, "Caro": 30})[0] == 200
    kz = api.create(game="kozel", players=PLAYERS)
    cf = api.create(game="chicken-foot", players=PLAYERS)
    return {"mt": mt["id"], "pad": pad["id"], "kz": kz["id"], "cf": cf["id"]}


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


BAD_ACTIONS = [
    # (game, raw body or JSON value, status, rule)
    ("mt", "{nope", 400, None),
    ("mt", '{"type": "draw", "player": "Ben"', 400, None),
    ("mt", b"\xff\xfe{}", 400, None),
    ("mt", "", 400, None),
    ("mt", "null", 400, None),
    ("mt", [], 400, None),
    ("mt", "draw", 400, None),
    ("mt", 17, 400, None),
    ("mt", {}, 400, None),
    ("mt", {"type": "jump", "player": "Ben"}, 400, None),
    ("mt", {"type": ["draw"], "player": "Ben"}, 400, None),
    ("mt", {"type": "draw"}, 400, None),
    ("mt", {"type": "draw", "player": 3}, 400, None),
    ("mt", {"type": "draw", "player": ["Ben"]}, 400, None),
    ("mt", {"type": "draw", "player": {"name": "Ben"}}, 400, None),
    ("mt", {"type": "play", "player": "Ben"}, 400, None),
    ("mt", {"type": "play", "player": "Ben", "tile": "abc", "train": "Ben"}, 400, None),
    ("mt", {"type": "play", "player": "Ben", "tile": 94, "train": "Ben"}, 400, None),
    ("mt", {"type": "play", "player": "Ben", "tile": [9, 4], "train": "Ben"}, 400, None),
    ("mt", {"type": "play", "player": "Ben", "tile": "-1-3", "train": "Ben"}, 400, None),
    ("mt", {"type": "play", "player": "Ben", "tile": "4-5", "train": 1}, 400, None),
    ("mt", {"type": "draw", "player": "Ben", "version": "2"}, 400, None),
    ("mt", {"type": "draw", "player": "Ben", "version": True}, 400, None),
    ("mt", {"type": "draw", "player": "Ben", "version": 2.5}, 400, None),
    ("mt", {"type": "draw", "player": "Ben", "colour": "red"}, 400, None),
    ("mt", {"type": "draw", "player": "Ben", "version": 1}, 409, None),
    ("mt", {"type": "draw", "player": "Ben", "version": 10**30}, 409, None),
    ("mt", {"type": "draw", "player": "Zed"}, 422, None),
    ("mt", {"type": "draw", "player": "ben "}, 422, None),
    ("mt", {"type": "play", "player": "Ben", "tile": "10-10", "train": "Ben"}, 422, "tiles"),
    ("mt", {"type": "play", "player": "Ben", "tile": "99-99", "train": "Ben"}, 422, "tiles"),
    ("mt", {"type": "play", "player": "Ben", "tile": "4-9", "train": "Ben"}, 422, None),
    ("mt", {"type": "play", "player": "Ben", "tile": "5-9", "train": "Zed"}, 422, None),
    ("mt", {"type": "draw", "player": "Ana"}, 422, None),
    ("kz", {"type": "play", "player": "Ana", "tile": "7-7"}, 422, "tiles"),
    ("kz", {"type": "play", "player": "Ana", "tile": "1-1", "on": "5-5"}, 422, None),
    ("cf", {"type": "play", "player": "Ana", "tile": "9-9", "on": "12-12"}, 422, "tiles"),
    ("pad", {"type": "draw", "player": "Ana"}, 422, None),
    ("mt", deep(30_000), 400, None),
    ("mt", '{"type": "draw", "player": ' + deep(20_000) + "}", 400, None),
    ("mt", '{"type": "draw", "player": ' + deep(500) + "}", 400, None),
]


def post_raw(client, url, body, content_type="application/json"):
    if isinstance(body, (str, bytes)):
        data = body
    else:
        data = json.dumps(body)
    return client.post(url, data=data, content_type=content_type)


@pytest.mark.parametrize("game, body, status, rule", BAD_ACTIONS)
def test_bad_actions_are_refused_and_change_nothing(client, games, game, body, status, rule):
    before = snapshot(client)
    response = post_raw(client, f"/api/games/{games[game]}/actions", body)
    refusal = assert_refusal(response, status)
    if rule is not None:
        assert refusal["rule"] == rule
    assert snapshot(client) == before


BAD_HANDS = [
    ("pad", 2, {"hands": {"Ana": -1, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": 10**12, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": 1.5, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": "7", "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": None, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": False, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": ["x"], "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": [[1, 2]], "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": {"tiles": []}, "Ben": 0, "Caro": 3}}, 400, None),
    ("pad", 2, {"hands": {"Ana": ["12-12"], "Ben": 0, "Caro": 3}}, 422, "tiles"),
    ("pad", 2, {"hands": {"Ana": ["1-2", "2-1"], "Ben": 0, "Caro": 3}}, 422, "unique"),
    ("pad", 2, {"hands": {"Ana": 1, "Ben": 0, "Zed": 3}}, 422, None),
    ("pad", 2, {"hands": {"Ana": 1, "Ben": 0}}, 422, None),
    ("pad", 2, {"hands": [1, 2, 3]}, 400, None),
    ("pad", 2, {"hands": "Ana 1"}, 400, None),
    ("pad", 2, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}, "extra": 1}, 400, None),
    ("pad", 2, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}, "version": "x"}, 400, None),
    ("pad", 2, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}, "version": 1}, 409, None),
    ("pad", 2, {}, 400, None),
    ("pad", 2, "{", 400, None),
    ("pad", 3, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}}, 404, None),
    ("pad", 0, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}}, 404, None),
    ("pad", "-1", {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}}, 404, None),
    ("pad", "1e3", {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}}, 404, None),
    ("pad", "9" * 40, {"hands": {"Ana": 1, "Ben": 0, "Caro": 3}}, 404, None),
    ("mt", 1, {"hands": {"Ana": ["9-4"], "Ben": 0, "Caro": 3}}, 422, "unique"),
    ("mt", 1, {"hands": {"Ana": ["1-2"], "Ben": 0, "Caro": 3}}, 422, "hidden"),
]


@pytest.mark.parametrize("game, number, body, status, rule", BAD_HANDS)
def test_bad_hands_are_refused_and_change_nothing(client, games, game, number, body, status, rule):
    before = snapshot(client)
    response = post_raw(client, f"/api/games/{games[game]}/rounds/{number}/hands", body)
    refusal = assert_refusal(response, status)
    if rule is not None:
        assert refusal["rule"] == rule
    assert snapshot(client) == before


BAD_CREATES = [
    ({"game": "kozel", "players": ["Ana", "<script>alert(1)</script>"]}, 400),
    ({"game": "kozel", "players": ["Ana", "<b>Ben</b>"]}, 400),
    ({"game": "kozel", "players": ["Ana", "B" * 41]}, 400),
    ({"game": "kozel", "players": ["Ana", "B" * 100_00]}, 400),
    ({"game": "kozel", "players": ["Ana", "   "]}, 400),
    ({"game": "kozel", "players": ["Ana", "Be\u0000n"]}, 400),
    ({"game": "kozel", "players": ["Ana", "Be\nn"]}, 400),
    ({"game": "kozel", "players": ["Ana", "Be\u202en"]}, 400),
    ({"game": "kozel", "players": ["Ana", "ana"]}, 400),
    ({"game": "kozel", "players": ["Ana", None]}, 400),
    ({"game": "kozel", "players": [f"P{i}" for i in range(31)]}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "set": -6}, 422),
    ({"game": "kozel", "players": ["Ana", "Ben"], "set": 10**20}, 422),
    ({"game": "kozel", "players": ["Ana", "Ben"], "set": 6.0}, 400),
    ({"game": {"x": 1}, "players": ["Ana", "Ben"]}, 400),
    ({"game": ["kozel"], "players": ["Ana", "Ben"]}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "mode": ["scores"]}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "options": {"lose_at": -5}}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "options": {"lose_at": "101"}}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "options": []}, 400),
    ({"game": "mexican-train", "players": ["Ana", "Ben"], "options": {"hand_size": -1}}, 400),
    ({"game": "mexican-train", "players": ["Ana", "Ben"], "options": {"double_blank": 10**9}}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "pin": "12"}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "pin": 1234}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "pin": "12a4"}, 400),
    ({"game": "kozel", "players": ["Ana", "Ben"], "pin": "١٢٣٤"}, 400),
]


@pytest.mark.parametrize("body, status", BAD_CREATES)
def test_bad_games_are_refused_and_create_nothing(client, games, body, status):
    before = snapshot(client)
    assert_refusal(post_raw(client, "/api/games", body), status)
    assert snapshot(client) == before


@pytest.mark.parametrize(
    "url", ["/api/games", "/api/games/{mt}/actions", "/api/games/{pad}/rounds/2/hands", "/api/import"]
)
def test_every_json_endpoint_refuses_other_types_huge_and_deep_bodies(client, games, url):
    url = url.format(**games)
    before = snapshot(client)
    assert_refusal(
        client.post(url, data="type=draw&player=Ben", content_type="application/x-www-form-urlencoded"), 415
    )
    assert_refusal(client.post(url, data='{"type": "draw"}', content_type="text/plain"), 415)
    assert_refusal(client.post(url), 415)
    assert_refusal(post_raw(client, url, "{broken"), 400)
    assert_refusal(post_raw(client, url, deep(30_000)), 400)
    if url != "/api/import":  # the import takes whole backups: its limit is 4 MiB
        huge = json.dumps({"type": "draw", "player": "Ben", "hands": {"Ana": "x" * 70_000}})
        assert_refusal(post_raw(client, url, huge), 413)
    assert snapshot(client) == before


def test_import_has_its_own_limit(client, games):
    before = snapshot(client)
    huge = json.dumps({"games": [{"id": "x", "events": [], "pad": "x" * (17 * 1024 * 1024)}]})
    assert_refusal(post_raw(client, "/api/import", huge), 413)
    assert snapshot(client) == before


def test_a_refused_pin_change_changes_nothing(client, api):
    game = api.create(game="mexican-train", players=PLAYERS, set=9, mode="scores", pin="4321")
    before = snapshot(client)
    for headers in ({}, {"X-Table-Pin": "1234"}, {"X-Table-Pin": ""}, {"X-Table-Pin": "4321 "}):
        response = client.post(
            f"/api/games/{game['id']}/rounds/1/hands",
            headers=headers,
            json={"hands": {"Ana": 0, "Ben": 1, "Caro": 2}},
        )
        assert_refusal(response, 403)
    assert snapshot(client) == before


# ----- forms -----------------------------------------------------------------------------------


def test_new_game_form_refuses_bad_names_and_creates_nothing(client, games):
    before = snapshot(client)
    for names in (
        ["Ana", "<script>alert(1)</script>"],
        ["Ana", "B" * 41],
        ["Ana", "ana"],
        ["Ana", "Be\u0000n"],
    ):
        data = {
            "game": "kozel",
            "mode": "referee",
            "set": "",
            "start": "Start the game",
            **{f"players-{i}": name for i, name in enumerate(names)},
        }
        response = client.post("/games/new", data=data)
        assert 400 <= response.status_code < 500, (names, response.status_code)
        assert "<script>alert" not in response.get_data(as_text=True)
    for data in (
        {"game": "poker", "players-0": "A", "players-1": "B", "mode": "referee", "start": "1"},
        {"game": "kozel", "players-0": "A", "players-1": "B", "mode": "x", "start": "1"},
        {"game": "kozel", "players-0": "A", "players-1": "B", "mode": "referee", "set": "7", "start": "1"},
    ):
        response = client.post("/games/new", data=data)
        assert 400 <= response.status_code < 500, (data, response.status_code)
    assert snapshot(client) == before


@pytest.mark.parametrize(
    "entries",
    [
        {"p0": "-3", "p1": "0", "p2": "4"},
        {"p0": "99999999999", "p1": "0", "p2": "4"},
        {"p0": "12-12", "p1": "0", "p2": "4"},
        {"p0": "banana", "p1": "0", "p2": "4"},
        {"p0": "1-2 2-1", "p1": "0", "p2": "4"},
        {"p0": "x" * 5000, "p1": "0", "p2": "4"},
    ],
)
def test_hands_form_refuses_bad_entries_and_changes_nothing(client, games, entries):
    game_id = games["pad"]
    before = snapshot(client)
    version = before[game_id][0]["version"]
    response = client.post(f"/games/{game_id}/rounds/2/hands", data={"version": str(version), **entries})
    assert 400 <= response.status_code < 500, response.status_code
    assert snapshot(client) == before


@pytest.mark.parametrize("pin", ["", "12", "abcd", "1234567890123", "<script>"])
def test_unlock_form_refuses_malformed_pins(client, api, pin):
    game = api.create(game="kozel", players=PLAYERS, pin="2468")
    response = client.post(f"/games/{game['id']}/unlock", data={"pin": pin})
    assert response.status_code == 400
    assert "<script>" not in response.get_data(as_text=True).split("<main", 1)[1].replace(
        'pattern="[0-9]{4,12}"', ""
    )
    with client.session_transaction() as session:
        assert game["id"] not in session.get("unlocked", [])


@pytest.mark.parametrize(
    "form",
    [
        {"type": "jump", "player": "Ben"},
        {"type": "play", "player": "Ben", "tile": "abc", "place": "Ben"},
        {"type": "play", "player": "Ben", "tile": "10-10", "place": "Ben"},
        {"type": "play", "player": "Ben", "tile": "9-5", "place": "<script>"},
        {"type": "play", "player": "Zed", "tile": "9-5", "place": "Zed"},
        {"type": "draw", "player": "x" * 500},
        {"type": "draw", "player": "Ben", "version": "abc"},
        {"type": "draw", "player": "Ben", "version": "1"},
        {"type": "draw", "player": "Ana"},
        {},
    ],
)
def test_table_form_refuses_bad_taps_and_changes_nothing(client, games, form):
    game_id = games["mt"]
    before = snapshot(client)
    data = {"version": str(before[game_id][0]["version"]), **form}
    response = client.post(f"/games/{game_id}/table/act", data=data)
    assert 400 <= response.status_code < 500, response.status_code
    assert "<script>" not in response.get_data(as_text=True)
    assert snapshot(client) == before
