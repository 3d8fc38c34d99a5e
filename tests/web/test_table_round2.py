"""The table page, round 2 of the family's trials (issues 23 and 27), through the test
client: a tap sent again with its key is logged once; the error pages the table can reach
speak the player's language; a rule id appears only as the link to its rule."""

from __future__ import annotations

import re

import pytest

MT = {"game": "mexican-train", "set": 9, "players": ["Ana", "Ben", "Caro"]}


@pytest.fixture
def mt(api):
    return api.create(**MT)


def actions(api, game_id: str) -> list[dict]:
    status, data = api.get(f"/api/games/{game_id}/events")
    assert status == 200
    return [e["payload"] for e in data["events"] if e["kind"] == "action"]


def test_a_table_tap_sent_again_with_its_key_is_logged_once(client, api, mt):
    tap = {"version": 1, "type": "draw", "player": "Ana", "key": "tap-0123456789abcdef"}
    first = client.post(f"/games/{mt['id']}/table/act", data=tap, headers={"X-Table-Fetch": "1"})
    assert first.status_code == 200
    again = client.post(f"/games/{mt['id']}/table/act", data=tap, headers={"X-Table-Fetch": "1"})
    assert again.status_code == 200  # the lost answer's retry: the table as it is, no 409
    assert 'data-version="2"' in again.get_data(as_text=True)
    assert [a["type"] for a in actions(api, mt["id"])] == ["draw"]


def test_a_malformed_key_is_refused_and_changes_nothing(client, api, mt):
    tap = {"version": 1, "type": "draw", "player": "Ana", "key": "bad key!"}
    response = client.post(f"/games/{mt['id']}/table/act", data=tap)
    assert response.status_code == 400
    assert actions(api, mt["id"]) == []


@pytest.mark.parametrize(
    ("method", "path", "english"),
    [
        ("get", "/games/{id}/table/act", "This address cannot be used that way"),
        ("get", "/games/nope/table", "No such game"),
        ("get", "/games/{id}/table/nothing", "There is nothing at this address"),
    ],
)
def test_the_error_pages_the_table_can_reach_speak_hungarian(client, mt, method, path, english):
    client.set_cookie("lang", "hu")
    response = getattr(client, method)(path.format(id=mt["id"]))
    html = response.get_data(as_text=True)
    assert response.status_code in (404, 405)
    assert '<html lang="hu">' in html
    assert english not in html


def test_chicken_foot_fits_nowhere_also_cites_the_foot_that_closes_the_other_ends(client, api):
    game = api.create(game="chicken-foot", set=9, players=["Ana", "Ben"])
    steps = [("Ana", "9-9", None), ("Ben", "1-9", "9-9"), ("Ana", "2-9", "9-9"), ("Ben", "3-9", "9-9")]
    steps += [("Ana", "4-9", "9-9"), ("Ben", "1-1", "1-9")]
    for player, tile, on in steps:
        body = {"type": "play", "player": player, "tile": tile, **({"on": on} if on else {})}
        status, data = api.act(game["id"], **body)
        assert status == 200, data
    client.set_cookie("lang", "hu")
    html = client.get(f"/games/{game['id']}/table?tile=3-4").get_data(as_text=True)
    box = re.search(r'<div class="refusal nowhere" role="alert">(.*?)</div>', html, re.S).group(1)
    assert re.findall(r'<a class="rule-id" href="([^"]+)"[^>]*>([^<]+)</a>', box) == [
        ("/rules/chicken-foot#rule-cf-match", "cf.match"),
        ("/rules/chicken-foot#rule-cf-double", "cf.double"),
    ]
    assert "duplának előbb mind a(z) 3 ujja kell" in box  # the sentence, in Hungarian


def test_the_table_carries_the_last_round_score_for_its_announcement(client, api):
    from referee.tiles import Tile
    from tests.web.test_table import _bot_round

    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"])
    hands = _bot_round(api, game["id"], 3, ["Ana", "Ben"], 15, 9, Tile(9, 9))
    status, data = api.hands(game["id"], 1, {p: [str(t) for t in h] for p, h in hands.items()})
    assert status == 200, data
    points = data["rounds"][0]["points"]
    client.set_cookie("lang", "hu")
    html = client.get(f"/games/{game['id']}/table").get_data(as_text=True)
    said = re.search(r'data-round-score="[^"]+-1">(.*?)</p>', html, re.S).group(1)
    assert " ".join(said.split()) == f"A(z) 1. kör pontjai: Ana {points['Ana']}, Ben {points['Ben']}."
