"""The JSON API's conventions (API.md) met by unusual requests: content types, huge and broken
bodies, unknown addresses, the version's type and its precedence over the rules."""

from __future__ import annotations

import json

import pytest

from tests.helpers import AB, MAOS, game_maker, is_refusal, ok, refused

new = game_maker("kozel")
pad = game_maker("kozel", mode="scores", players=MAOS)


# ----- API.md: conventions -------------------------------------------------------------------------


def test_json_with_charset_parameter_is_json(api, client):
    body = json.dumps({"game": "kozel", "players": AB})
    response = client.post("/api/games", data=body, content_type="application/json; charset=utf-8")
    assert response.status_code == 201, response.get_json()
    gid = response.get_json()["id"]
    response = client.post(
        f"/api/games/{gid}/actions",
        data=json.dumps({"type": "start", "player": "Ben"}),
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 200 and response.get_json()["round"]["turn"] == "Ben"


def test_no_content_type_is_415(api, client):
    gid = new(api)
    before = api.state(gid)
    for url in ["/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/rounds/1/hands"]:
        response = client.post(url, data=b'{"type": "undo"}')
        assert response.status_code == 415, url
        assert is_refusal(response.get_json())
    assert api.state(gid) == before


@pytest.mark.parametrize("url_kind", ["create", "action", "hands"])
def test_huge_json_body_is_refused_with_the_error_shape(api, client, url_kind):
    gid = new(api, mode="scores")
    before = api.state(gid)
    url = {
        "create": "/api/games",
        "action": f"/api/games/{gid}/actions",
        "hands": f"/api/games/{gid}/rounds/1/hands",
    }[url_kind]
    big = {
        "game": "kozel",
        "players": AB,
        "type": "undo",
        "hands": {"Ana": 1, "Ben": 0},
        "padding": "x" * (4 * 1024 * 1024),
    }
    response = client.post(url, data=json.dumps(big), content_type="application/json")
    assert 400 <= response.status_code < 500, response.status_code
    assert is_refusal(response.get_json())
    assert api.state(gid) == before
    assert len(api.get("/api/games")[1]["games"]) == 1


def test_huge_deeply_nested_json_is_400_not_500(api, client):
    gid = new(api)
    before = api.state(gid)
    body = "[" * 50000 + "]" * 50000
    response = client.post(f"/api/games/{gid}/actions", data=body, content_type="application/json")
    assert 400 <= response.status_code < 500
    assert is_refusal(response.get_json())
    assert api.state(gid) == before


@pytest.mark.parametrize("raw", [b"", b"\xff\xfe{}", b'{"type": "undo"', b"null"])
def test_bad_json_bytes_are_400(api, client, raw):
    gid = new(api)
    before = api.state(gid)
    response = client.post(f"/api/games/{gid}/actions", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert is_refusal(response.get_json()) and response.get_json()["rule"] is None
    assert api.state(gid) == before


def test_scoresheet_of_unknown_game_has_the_error_body(client):
    response = client.get("/api/games/nope/scoresheet.csv")
    assert response.status_code == 404
    data = response.get_json(silent=True)
    assert is_refusal(data) and data["rule"] is None


def test_rules_of_unknown_game_has_the_error_body(api):
    status, data = api.get("/api/rules/chess")
    assert status == 404 and is_refusal(data) and data["rule"] is None


@pytest.mark.parametrize("number", ["x", "-1", "1.0"])
def test_hands_for_a_non_number_round_is_404(api, number):
    gid = pad(api, AB)
    before = api.state(gid)
    status, data = api.post(f"/api/games/{gid}/rounds/{number}/hands", {"hands": {"Ana": 1, "Ben": 0}})
    assert status == 404 and is_refusal(data)
    assert api.state(gid) == before


# ----- version / 409 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1", 1.0, True, None, [1]])
def test_version_of_the_wrong_type_is_400(api, version):
    gid = new(api)
    before = api.state(gid)
    status, data = api.act(gid, type="start", player="Ben", version=version)
    if version is None:  # a JSON null may fairly be read as "no version"
        assert status in (200, 400)
        return
    assert status == 400 and is_refusal(data) and data["rule"] is None
    assert api.state(gid) == before


def test_current_version_is_accepted_and_grows_by_one_on_every_kind_of_change(api):
    gid = new(api)
    data = ok(api, gid, type="play", player="Ana", tile="2-6", version=1)
    assert data["version"] == 2
    data = ok(api, gid, type="draw", player="Ben", version=2)
    data = ok(api, gid, type="undo", version=3)
    assert data["version"] == 4
    refused(api, gid, {"type": "draw", "player": "Ben", "version": 3}, 409)
    # a rule refusal with the right version is still 422, and does not bump the version
    refused(api, gid, {"type": "pass", "player": "Ben", "version": 4}, 422, "kz.bazaar")
    assert api.state(gid)["version"] == 4


def test_409_wins_over_a_rule_refusal(api):
    gid = new(api)
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-9", "version": 7}, 409)
