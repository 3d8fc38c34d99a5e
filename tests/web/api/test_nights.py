"""Club nights through the API (API.md, "Club nights"; RULES.md section 5): creating a night
with each seating, its state, its tables' games being ordinary games, "next" refused while a
table plays and accepted once every table has finished, the progressive moves, the standing
and its shared places, the last stage finishing the night, ``key``, bad input and a restart."""

from __future__ import annotations

from typing import Any

import pytest

from referee.web import create_app

EIGHT = ["Ana", "Ben", "Caro", "Dee", "Eve", "Finn", "Gus", "Hana"]


def night_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Tuesday club",
        "game": "mexican-train",
        "mode": "scores",
        "players": EIGHT,
        "table_size": 4,
        "stages": 3,
        "rounds_per_stage": 1,
        "seating": "progressive",
    }
    body.update(changes)
    return {key: value for key, value in body.items() if value is not ...}


def kozel_body(**changes: Any) -> dict[str, Any]:
    return night_body(**{"game": "kozel", "rounds_per_stage": ..., **changes})


def create(api, **changes: Any) -> dict[str, Any]:
    response = api.client.post("/api/nights", json=night_body(**changes))
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    assert response.headers["Location"].endswith(f"/api/nights/{night['id']}")
    return night


def next_stage(api, night_id: str, body: Any = None) -> tuple[int, Any]:
    return api.post(f"/api/nights/{night_id}/next", {} if body is None else body)


def finish_table(api, table: dict[str, Any], points: dict[str, int]) -> dict[str, Any]:
    """Finish a score-pad Mexican Train table of one round: each player's points."""
    status, game = api.post(
        f"/api/games/{table['game']}/rounds/1/hands", {"hands": {p: points[p] for p in table["players"]}}
    )
    assert status == 200 and game["status"] == "finished", game
    return game


def finish_kozel(api, table: dict[str, Any]) -> dict[str, Any]:
    """Finish a score-pad Kozel table: its first player books 30 a round until a goat."""
    first, second, *others = table["players"]
    for number in range(1, 20):
        hands = {first: 30, second: [], **{name: 5 for name in others}}
        status, game = api.post(f"/api/games/{table['game']}/rounds/{number}/hands", {"hands": hands})
        assert status == 200, game
        if game["status"] == "finished":
            return game
    raise AssertionError("no goat")


def seats(night: dict[str, Any]) -> list[list[str]]:
    return [table["players"] for table in night["tables"]]


# ----- creation and state --------------------------------------------------------------------


def test_a_night_is_created_with_its_stage_one_games(api):
    night = create(api, players=EIGHT + ["Ivy", "Jo"], stages=2, rounds_per_stage=3)
    assert {
        key: night[key] for key in ("name", "game", "set", "table_size", "stages", "rounds_per_stage")
    } == {
        "name": "Tuesday club",
        "game": "mexican-train",
        "set": 12,
        "table_size": 4,
        "stages": 2,
        "rounds_per_stage": 3,
    }
    assert (night["seating"], night["stage"], night["status"], night["history"]) == (
        "progressive",
        1,
        "playing",
        [],
    )
    assert night["options"]["double_blank"] == 50  # every option in force, defaults included
    # 10 players at tables of 4: 3 tables of 4, 3, 3, the first ones to table 1
    assert seats(night) == [EIGHT[:4], EIGHT[4:7], [EIGHT[7], "Ivy", "Jo"]]
    assert [table["table"] for table in night["tables"]] == [1, 2, 3]
    assert all(table["status"] == "playing" for table in night["tables"])
    assert night["standings"] == [{"player": name, "total": 0, "place": 1} for name in night["players"]]
    assert api.get(f"/api/nights/{night['id']}") == (200, night)
    status, listed = api.get("/api/nights")
    assert status == 200 and listed["nights"] == [
        {key: night[key] for key in ("id", "name", "game", "status", "created")}
    ]
    for number, table in enumerate(night["tables"], 1):
        game = api.state(table["game"])  # an ordinary game, with its night
        assert game["night"] == {"id": night["id"], "stage": 1, "table": number}
        assert game["players"] == table["players"] and game["mode"] == "scores"
        assert game["round_count"] == 3 and game["round"]["double"] == "12-12"  # stage 1: rounds 1-3
    games = {game["id"] for game in api.get("/api/games")[1]["games"]}
    assert games == {table["game"] for table in night["tables"]}


@pytest.mark.parametrize("seating", ["fixed", "progressive", "mixer"])
def test_each_seating_deals_stage_one_in_order(api, seating):
    night = create(api, seating=seating)
    assert night["seating"] == seating and seats(night) == [EIGHT[:4], EIGHT[4:]]


def test_a_team_night_seats_partners_opposite(api):
    night = api.client.post(
        "/api/nights", json=kozel_body(seating="teams", stages=3, options={"teams": True})
    ).get_json()
    assert night["rounds_per_stage"] is None and night["options"]["teams"] is True
    # teams Ana+Ben and Caro+Dee at table 1: Ana, Caro, Ben, Dee (kz.teams)
    assert seats(night) == [["Ana", "Caro", "Ben", "Dee"], ["Eve", "Gus", "Finn", "Hana"]]
    assert api.state(night["tables"][0]["game"])["players"] == ["Ana", "Caro", "Ben", "Dee"]
    for table in night["tables"]:
        finish_kozel(api, table)
    status, night = next_stage(api, night["id"])
    assert status == 200 and night["stage"] == 2
    # the round robin: every team meets another team than in stage 1
    assert seats(night) == [["Ana", "Eve", "Ben", "Finn"], ["Caro", "Gus", "Dee", "Hana"]]


def test_a_table_game_is_an_ordinary_game(api):
    night = create(api, mode="referee")
    table = night["tables"][0]["game"]
    game = api.state(table)
    turn = game["round"]["turn"]
    status, drawn = api.act(table, type="draw", player=turn)
    assert status == 200 and drawn["version"] == 2 and drawn["night"] == game["night"]
    status, undone = api.act(table, type="undo")
    assert status == 200 and undone["night"]["table"] == 1


def test_a_table_game_cannot_be_deleted_on_its_own(api):
    night = create(api)
    table = night["tables"][1]["game"]
    response = api.client.delete(f"/api/games/{table}")
    refusal = response.get_json()
    assert response.status_code == 422 and refusal["rule"] == "night.tables"
    assert "table 2 of stage 1 of a club night" in refusal["error"]
    assert api.state(table)["night"]["table"] == 2  # still there
    assert api.get(f"/api/nights/{night['id']}") == (200, night)


# ----- stages -------------------------------------------------------------------------------


def test_next_is_refused_while_a_table_plays_and_names_it(api):
    night = create(api, players=EIGHT + ["Ivy", "Jo", "Kim", "Lou"])
    status, refused = next_stage(api, night["id"])
    assert status == 422 and refused["rule"] == "night.stage.open"
    assert refused["error"].startswith("Tables 1, 2, 3 are still playing")
    finish_table(api, night["tables"][0], {"Ana": 0, "Ben": 5, "Caro": 10, "Dee": 15})
    finish_table(api, night["tables"][2], {"Ivy": 0, "Jo": 5, "Kim": 10, "Lou": 15})
    status, refused = next_stage(api, night["id"])
    assert status == 422 and refused["error"].startswith("Table 2 is still playing")
    now = api.get(f"/api/nights/{night['id']}")[1]
    assert now["stage"] == 1 and now["history"] == []  # a refusal changes nothing
    assert [table["status"] for table in now["tables"]] == ["finished", "playing", "finished"]


def test_a_progressive_night_moves_players_and_keeps_the_standing(api):
    night = create(api, stages=2)
    points = {"Ana": 10, "Ben": 0, "Caro": 20, "Dee": 30, "Eve": 0, "Finn": 10, "Gus": 25, "Hana": 40}
    first = [finish_table(api, table, points) for table in night["tables"]]
    status, night = next_stage(api, night["id"])
    assert status == 200 and (night["stage"], night["status"]) == (2, "playing")
    # night.progressive: table 1's best (Ben) stays, its worst (Dee) moves down; table 2's
    # best (Eve) moves up, its worst (Hana) stays
    assert seats(night) == [["Ana", "Ben", "Caro", "Eve"], ["Dee", "Finn", "Gus", "Hana"]]
    assert night["history"] == [
        {
            "stage": 1,
            "tables": [
                {"table": number, "players": game["players"], "game": game["id"], "totals": game["totals"]}
                for number, game in enumerate(first, 1)
            ],
        }
    ]
    # the standing over the stage closed: lowest first, equal totals share a place
    assert [(line["player"], line["total"], line["place"]) for line in night["standings"]] == [
        ("Ben", 0, 1),
        ("Eve", 0, 1),
        ("Ana", 10, 3),
        ("Finn", 10, 3),
        ("Caro", 20, 5),
        ("Gus", 25, 6),
        ("Dee", 30, 7),
        ("Hana", 40, 8),
    ]
    # stage 2 plays the next double of the night's sequence
    game = api.state(night["tables"][1]["game"])
    assert game["night"] == {"id": night["id"], "stage": 2, "table": 2}
    assert game["round"]["double"] == "11-11" and game["round_count"] == 1


def test_the_last_stage_finishes_the_night(api):
    night = create(api, seating="fixed", stages=2)
    night_id = night["id"]
    for stage in (1, 2):
        assert night["stage"] == stage
        for table in night["tables"]:
            finish_table(api, table, {name: 5 * index for index, name in enumerate(table["players"])})
        status, night = next_stage(api, night_id)
        assert status == 200, night
    assert (night["status"], night["stage"], night["tables"]) == ("finished", 2, [])
    assert [record["stage"] for record in night["history"]] == [1, 2]
    assert night["history"][1]["tables"][0]["players"] == EIGHT[:4]  # fixed: the same tables
    # Ana and Eve went out twice; Dee and Hana booked 15 twice
    assert [(line["player"], line["total"], line["place"]) for line in night["standings"]][:2] == [
        ("Ana", 0, 1),
        ("Eve", 0, 1),
    ]
    assert night["standings"][-1] == {"player": "Hana", "total": 30, "place": 7}
    status, refused = next_stage(api, night_id)
    assert status == 422 and "finished" in refused["error"]
    assert api.get("/api/nights")[1]["nights"][0]["status"] == "finished"


def test_a_kozel_night_stands_by_rating_points(api):
    response = api.client.post("/api/nights", json=kozel_body(seating="fixed", stages=1))
    night = response.get_json()
    assert response.status_code == 201, night
    games = [finish_kozel(api, table) for table in night["tables"]]
    status, night = next_stage(api, night["id"])
    assert status == 200 and night["status"] == "finished"
    expected = {name: sum(game.get("rating", {}).get(name, 0) for game in games) for name in EIGHT}
    totals = {line["player"]: line["total"] for line in night["standings"]}
    assert totals == expected
    assert [line["total"] for line in night["standings"]] == sorted(expected.values(), reverse=True)
    assert night["standings"][-1]["player"] in ("Ana", "Eve")  # the goats rate nothing


# ----- key ------------------------------------------------------------------------------------


def test_next_sent_again_with_its_key_is_answered_with_the_night_as_it_is(api):
    night = create(api, stages=3)
    for table in night["tables"]:
        finish_table(api, table, {name: 5 * index for index, name in enumerate(table["players"])})
    status, second = next_stage(api, night["id"], {"key": "next-stage-0001"})
    assert status == 200 and second["stage"] == 2
    # the retry is not a second "next" (which stage 2, still playing, would refuse)
    assert next_stage(api, night["id"], {"key": "next-stage-0001"}) == (200, second)
    status, refused = next_stage(api, night["id"], {"key": "next-stage-0002"})
    assert status == 422 and refused["rule"] == "night.stage.open"


@pytest.mark.parametrize("body", [{"key": "short"}, {"key": 12345678}, {"kye": "next-stage-01"}, [1]])
def test_a_malformed_next_is_a_400_that_changes_nothing(api, body):
    night = create(api, stages=2)
    for table in night["tables"]:
        finish_table(api, table, {name: 5 * index for index, name in enumerate(table["players"])})
    before = api.get(f"/api/nights/{night['id']}")[1]
    status, refused = next_stage(api, night["id"], body)
    assert status == 400 and refused["error"]
    assert api.get(f"/api/nights/{night['id']}") == (200, before)


def test_next_may_come_without_a_body(api, client):
    night = create(api, stages=2)
    for table in night["tables"]:
        finish_table(api, table, {name: 5 * index for index, name in enumerate(table["players"])})
    response = client.post(f"/api/nights/{night['id']}/next")
    assert response.status_code == 200 and response.get_json()["stage"] == 2
    response = client.post(f"/api/nights/{night['id']}/next", data="key=x", content_type="text/plain")
    assert response.status_code == 415


def test_an_unknown_night_is_a_404(api):
    status, refused = api.get("/api/nights/nope")
    assert status == 404 and "nope" in refused["error"]
    assert next_stage(api, "nope")[0] == 404


# ----- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, rule",
    [
        (night_body(colour="red"), None),
        (night_body(name=""), None),
        (night_body(name="x" * 61), None),
        (night_body(players=EIGHT[:3]), None),
        (night_body(players=EIGHT[:7] + ["ana"]), None),
        (night_body(players=EIGHT[:7] + ["Ana "]), None),
        (night_body(players=EIGHT[:7] + ["\u0410na"]), None),  # a Cyrillic А: looks like "Ana"
        (night_body(table_size=9), "night.tables"),
        (night_body(stages=0), None),
        (night_body(stages=21), None),
        (night_body(stages=5, rounds_per_stage=3), "night.rounds"),  # 15 rounds of 13
        (night_body(rounds_per_stage=...), None),
        (night_body(seating="random"), None),
        (night_body(seating="teams"), "night.teams"),
        (kozel_body(rounds_per_stage=2), "night.rounds"),
        (kozel_body(table_size=5), "night.tables"),
        (kozel_body(seating="teams", options={"teams": True}, players=EIGHT[:6]), "night.teams"),
        (kozel_body(seating="teams", options={"teams": True}, players=EIGHT[:7]), "night.teams"),  # odd
        (
            kozel_body(
                seating="teams",
                options={"teams": True},
                players=EIGHT + ["Ivy", "Jo", "Kim", "Lou"],
                table_size=3,
            ),
            "night.teams",
        ),  # tables not of four
        (night_body(players="Ana, Ben"), None),
        (["Ana"], None),
    ],
)
def test_a_refused_night_is_a_400_that_creates_nothing(api, body, rule):
    status, refused = api.post("/api/nights", body)
    assert status == 400 and refused["error"] and refused["rule"] == rule, refused
    assert api.get("/api/nights")[1] == {"nights": []}
    assert api.get("/api/games")[1] == {"games": []}


def test_a_night_that_is_not_json_is_refused(api):
    response = api.client.post("/api/nights", data="name=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


# ----- restart ---------------------------------------------------------------------------------


def test_a_night_survives_a_restart(app, api):
    night = create(api, stages=2)
    for table in night["tables"]:
        finish_table(api, table, {name: 5 * index for index, name in enumerate(table["players"])})
    status, night = next_stage(api, night["id"], {"key": "next-stage-0001"})
    assert status == 200
    again = create_app({**app.config, "TESTING": True})
    client = again.test_client()
    assert client.get(f"/api/nights/{night['id']}").get_json() == night
    table = night["tables"][0]
    assert client.get(f"/api/games/{table['game']}").get_json()["night"] == {
        "id": night["id"],
        "stage": 2,
        "table": 1,
    }
    repeated = client.post(f"/api/nights/{night['id']}/next", json={"key": "next-stage-0001"})
    assert repeated.status_code == 200 and repeated.get_json() == night


def test_the_delete_page_of_a_table_game_says_why_and_changes_nothing(api, client):
    night = create(api)
    table = night["tables"][0]["game"]
    response = client.post(f"/games/{table}/delete")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{table}/table")
    page = client.get(response.headers["Location"], follow_redirects=True).get_data(as_text=True)
    assert "cannot be deleted one by one" in page
    assert api.state(table)["night"]["table"] == 1
