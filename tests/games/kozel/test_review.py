"""Review: Kozel (RULES.md §3) through the JSON API (API.md), black-box only.

Cases not covered by test_api.py (the API's general conventions are in tests/web/api/).
"""

from __future__ import annotations

import csv
import io

import pytest

from tests.helpers import (
    AB,
    MAOS,
    game_maker,
    hands_ok,
    hands_refused,
    is_refusal,
    ok,
    play_on,
    refused,
    rounds,
    without_version,
)

new = game_maker("kozel")
pad = game_maker("kozel", mode="scores", players=MAOS)
play = play_on


def knock(api, gid, *names):
    for name in names:
        ok(api, gid, type="pass", player=name)


# ----- malformed bodies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "player": 3, "tile": "2-6"},
        {"type": "play", "player": "Ana", "tile": 26},
        {"type": "play", "player": "Ana", "tile": ["2", "6"]},
        {"type": "play", "player": "Ana", "tile": "2-6", "on": 5},
        {"type": "play", "player": "Ana"},
        {"type": "draw"},
        {"type": "Play", "player": "Ana", "tile": "2-6"},
        {"type": "play", "player": "Ana", "tile": "2-6", "colour": "red"},
    ],
)
def test_malformed_kozel_actions_are_400(api, action):
    gid = new(api)
    before = api.state(gid)
    status, data = api.act(gid, **action)
    assert status == 400, (action, status, data)
    assert is_refusal(data) and data["rule"] is None
    assert api.state(gid) == before


@pytest.mark.parametrize("value", [True, 5.5, "5", None, {"points": 5}, [1, 2]])
def test_hand_of_the_wrong_type_is_400(api, value):
    gid = pad(api, AB)
    before = api.state(gid)
    status, data = api.hands(gid, 1, {"Ana": value, "Ben": 0})
    assert status == 400, (value, status, data)
    assert is_refusal(data) and data["rule"] is None
    assert api.state(gid) == before


@pytest.mark.parametrize("hands", [{"Ana": 5}, {"Ana": 5, "Ben": 0, "Zed": 3}])
def test_hands_missing_or_unknown_player_refused(api, hands):
    gid = pad(api, AB)
    before = api.state(gid)
    status, data = api.hands(gid, 1, hands)
    assert status in (400, 422) and is_refusal(data)
    assert api.state(gid) == before


@pytest.mark.parametrize(
    "body",
    [
        {"players": AB},
        {"game": "dominoes", "players": AB},
        {"game": "kozel", "players": AB, "mode": "pad"},
        {"game": "kozel", "players": AB, "set": "6"},
        {"game": "kozel", "players": AB, "set": True},
        {"game": "kozel", "players": AB, "options": []},
        {"game": "kozel", "players": AB, "options": {"lose_at": True}},
        {"game": "kozel", "players": AB, "options": {"lose_at": 50.5}},
        {"game": "kozel", "players": AB, "options": {"zero_zero": "10"}},
        {"game": "kozel", "players": AB, "options": {"zero_zero": True}},
        {"game": "kozel", "players": AB, "options": {"fish": 1}},
        {"game": "kozel", "players": AB, "options": {"fish": "ALL"}},
        {"game": "kozel"},
        {"game": "kozel", "players": None},
        [],
    ],
)
def test_malformed_kozel_tables_are_400(api, body):
    status, data = api.post("/api/games", body)
    assert status == 400, (body, status, data)
    assert is_refusal(data) and data["rule"] is None
    assert api.get("/api/games")[1]["games"] == []


# ----- games, state ---------------------------------------------------------------------------------


def test_kozel_created_with_explicit_set_6_and_its_defaults(api):
    status, data = api.post("/api/games", {"game": "kozel", "players": AB, "set": 6})
    assert status == 201 and data["set"] == 6
    assert data["round"]["double"] is None
    assert data["winners"] == [] and data["totals"] == {"Ana": 0, "Ben": 0}


def test_games_list_shows_a_left_kozel_game_finished(api):
    gid = new(api, MAOS)
    ok(api, gid, type="leave", player="Alex")
    listed = {g["id"]: g for g in api.get("/api/games")[1]["games"]}
    assert listed[gid]["status"] == "finished" and listed[gid]["game"] == "kozel"
    assert listed[gid]["players"] == MAOS
    assert isinstance(listed[gid]["created"], str) and listed[gid]["created"]


def test_state_after_a_referee_round_has_a_fresh_round(api):
    gid = new(api, MAOS[:3])
    play(api, gid, "Olya", "1-1")
    data = hands_ok(api, gid, 1, {"Masha": 20, "Alex": 0, "Olya": 6})
    rnd = data["round"]
    assert rnd["number"] == 2 and rnd["status"] == "playing" and rnd["end"] is None
    assert rnd["hands"] == {"Masha": 7, "Alex": 7, "Olya": 7} and rnd["boneyard"] == 7
    assert rnd["ends"] == [] and rnd["double"] is None and rnd["turn"] == "Alex"
    assert data["rounds"] == [
        {**data["rounds"][0], "number": 1, "points": {"Masha": 20, "Alex": 0, "Olya": 6}}
    ]
    assert data["totals"] == {"Masha": 20, "Alex": 0, "Olya": 0}
    assert data["remembered"] == {"Masha": 0, "Alex": 0, "Olya": 6}


# ----- scoresheet CSV ------------------------------------------------------------------------------


def test_scoresheet_quotes_names_and_totals_are_the_booked_ones(api, client):
    players = ['O"Neil, Jr', "Zoë", "Ана"]
    gid = api.create(game="kozel", players=players, mode="scores")["id"]
    data = rounds(
        api,
        gid,
        {players[0]: 20, players[1]: [], players[2]: 5},
        {players[0]: 3, players[1]: 30, players[2]: []},
    )
    response = client.get(f"/api/games/{gid}/scoresheet.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = [r for r in csv.reader(io.StringIO(response.get_data(as_text=True))) if r]
    header = rows[0]
    for name in players:
        assert header.count(name) == 1, header
    columns = [header.index(name) for name in players]
    assert len(rows) == 1 + 2 + 1
    assert [int(rows[-1][c]) for c in columns] == [data["totals"][n] for n in players] == [23, 30, 0]


# ===== Kozel ==========================================================================================

# ----- lead and turn ---------------------------------------------------------------------------------


def test_turn_wraps_clockwise_from_the_last_seat(api):
    gid = new(api, MAOS)
    data = play(api, gid, "Serg", "1-1")
    assert data["round"]["turn"] == "Masha"
    data = play(api, gid, "Masha", "1-3", "1-1")
    assert data["round"]["turn"] == "Alex"


def test_start_does_not_lift_the_round_1_lead_rule(api):
    gid = new(api, MAOS)
    ok(api, gid, type="start", player="Olya")
    refused(api, gid, {"type": "play", "player": "Olya", "tile": "2-2"}, 422, "kz.lead.first")
    play(api, gid, "Olya", "1-1")


def test_double_lead_takes_tiles_on_both_sides(api):
    gid = new(api)
    data = play(api, gid, "Ana", "3-3")
    assert data["round"]["ends"] == [3, 3]
    data = play(api, gid, "Ben", "3-5", "3-3")
    assert sorted(data["round"]["ends"]) == [3, 5]
    data = play(api, gid, "Ana", "4-3", "3-3")  # the other side of the double
    assert sorted(data["round"]["ends"]) == [4, 5]
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "3-6", "on": "3-3"}, 422, "kz.match")


def test_on_may_be_written_either_way(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    data = play(api, gid, "Ben", "5-6", "6-2")
    assert sorted(data["round"]["ends"]) == [2, 5]
    data = play(api, gid, "Ana", "2-1", "6-2")
    assert sorted(data["round"]["ends"]) == [1, 5]


def test_on_a_tile_inside_the_line_is_refused(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    play(api, gid, "Ben", "5-6", "2-6")
    play(api, gid, "Ana", "2-1", "2-6")
    # 2-6 is now inside the line: its free half is covered on both sides
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "6-6", "on": "2-6"}, 422, "kz.match")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "4-4", "on": "4-0"}, 422, "kz.match")


def test_turn_rule_for_draw_and_knock(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    refused(api, gid, {"type": "pass", "player": "Olya"}, 422, "turn")
    gid2 = new(api)
    play(api, gid2, "Ana", "2-6")
    refused(api, gid2, {"type": "draw", "player": "Ana"}, 422, "turn")


def test_later_round_any_tile_leads_even_with_four_players(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    hands_ok(api, gid, 1, {"Masha": 10, "Alex": 3, "Olya": 0, "Serg": 7})
    data = api.state(gid)
    assert data["round"]["turn"] == "Olya"
    refused(api, gid, {"type": "play", "player": "Serg", "tile": "1-1"}, 422)
    data = play(api, gid, "Olya", "0-1")  # would be refused in round 1
    assert data["round"]["turn"] == "Serg"


def test_unknown_leader_anyone_may_lead_without_start(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    hands_ok(api, gid, 1, {"Masha": 10, "Alex": 3, "Olya": 5, "Serg": 7})  # a fish, entered as hands
    data = play(api, gid, "Alex", "2-5")
    assert data["round"]["turn"] == "Olya"


def test_undo_of_a_later_rounds_lead_gives_the_turn_back_to_the_leader(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 20})
    start = api.state(gid)
    assert start["round"]["turn"] == "Ana"
    play(api, gid, "Ana", "3-4")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(start)


# ----- kz.out / kz.fish in referee mode --------------------------------------------------------------


def went_out_game(api):
    """4 players; Masha goes out with her 7th tile."""
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    play(api, gid, "Alex", "1-2", "1-1")
    play(api, gid, "Olya", "1-4", "1-1")
    knock(api, gid, "Serg")
    play(api, gid, "Masha", "2-6", "1-2")
    play(api, gid, "Alex", "2-4", "1-4")
    knock(api, gid, "Olya", "Serg")
    for tile, on in [("0-6", "2-6"), ("0-2", "0-6"), ("2-3", "0-2"), ("3-5", "2-3")]:
        play(api, gid, "Masha", tile, on)
        knock(api, gid, "Alex", "Olya", "Serg")
    data = play(api, gid, "Masha", "2-5", "3-5")
    return gid, data


def test_round_over_after_going_out(api):
    gid, data = went_out_game(api)
    rnd = data["round"]
    assert rnd["status"] == "scoring" and rnd["turn"] is None
    assert rnd["end"] == {"reason": "domino", "player": "Masha"}
    assert rnd["hands"] == {"Masha": 0, "Alex": 5, "Olya": 6, "Serg": 7}
    refused(api, gid, {"type": "pass", "player": "Alex"}, 422, "kz.out")
    refused(api, gid, {"type": "play", "player": "Alex", "tile": "5-5", "on": "2-5"}, 422, "kz.out")


def test_after_going_out_the_hands_must_agree(api):
    gid, _ = went_out_game(api)
    hands_refused(api, gid, 1, {"Masha": 5, "Alex": 5, "Olya": 6, "Serg": 7}, 422, "kz.out")
    hands_refused(api, gid, 1, {"Masha": 0, "Alex": 0, "Olya": 6, "Serg": 7}, 422)
    hands_refused(api, gid, 1, {"Masha": [], "Alex": ["0-0"], "Olya": 6, "Serg": 7}, 422)  # Alex holds 5
    data = hands_ok(api, gid, 1, {"Masha": [], "Alex": 20, "Olya": 6, "Serg": 7})
    assert data["rounds"][0]["points"] == {"Masha": 0, "Alex": 20, "Olya": 6, "Serg": 7}
    assert data["round"]["number"] == 2 and data["round"]["turn"] == "Masha"
    assert data["totals"] == {"Masha": 0, "Alex": 20, "Olya": 0, "Serg": 0}
    assert data["remembered"] == {"Masha": 0, "Alex": 0, "Olya": 6, "Serg": 7}


def test_undo_takes_back_the_play_that_went_out(api):
    gid, _data = went_out_game(api)
    ok(api, gid, type="undo")
    state = api.state(gid)
    assert state["round"]["status"] == "playing" and state["round"]["end"] is None
    assert state["round"]["turn"] == "Masha" and state["round"]["hands"]["Masha"] == 1


FISH = [
    ("Ana", "2-6", None),
    ("Ben", "1-2", "2-6"),
    ("Ana", "0-6", "2-6"),
    ("Ben", "0-2", "0-6"),
    ("Ana", "1-4", "1-2"),
    ("Ben", "2-3", "0-2"),
    ("Ana", "3-5", "2-3"),
    ("Ben", "2-4", "1-4"),
    ("Ana", "2-5", "3-5"),
]


def fish_game(api, **options):
    gid = new(api, **options)
    for player, tile, on in FISH:
        data = play(api, gid, player, tile, on)
    assert data["round"]["end"] == {"reason": "fish", "player": "Ana"}
    return gid


def test_after_a_fish_no_hand_list_can_be_empty(api):
    """The referee saw a fish made by Ana with tiles left: nobody went out (kz.fish)."""
    gid = fish_game(api)
    hands_refused(api, gid, 1, {"Ana": [], "Ben": 20}, 422)


def test_after_a_fish_no_hand_can_be_entered_as_0(api):
    """API.md: "kozel: the player whose hand is empty ([] or 0) went out". After the referee saw
    Ana's fish, Ben (3 tiles by the log) cannot have gone out; 0 points is no hand of tiles either
    (a lone 0-0 counts 10, anything else has pips)."""
    gid = fish_game(api)
    assert api.state(gid)["round"]["hands"]["Ben"] == 3
    hands_refused(api, gid, 1, {"Ana": 5, "Ben": 0}, 422)


def test_fish_to_one_in_referee_mode(api):
    gid = fish_game(api, fish="one")
    data = hands_ok(api, gid, 1, {"Ana": ["0-0", "1-1"], "Ben": ["3-3", "4-4", "5-5"]})
    assert data["totals"] == {"Ana": 0, "Ben": 26}
    assert data["remembered"] == {"Ana": 0, "Ben": 0}
    assert data["round"]["turn"] == "Ana"  # the fisherman leads, whoever took the fish


def test_undo_takes_back_the_fish(api):
    gid = fish_game(api)
    data = ok(api, gid, type="undo")
    assert data["round"]["status"] == "playing" and data["round"]["end"] is None
    assert data["round"]["turn"] == "Ana" and data["round"]["ends"] != [2, 2]


def test_bazaar_with_three_players(api):
    gid = new(api, MAOS[:3])
    play(api, gid, "Masha", "1-1")
    for left in range(6, -1, -1):
        data = ok(api, gid, type="draw", player="Alex")
        assert data["round"]["boneyard"] == left
    refused(api, gid, {"type": "draw", "player": "Alex"}, 422, "kz.bazaar")
    data = ok(api, gid, type="pass", player="Alex")
    assert data["round"]["turn"] == "Olya" and data["round"]["hands"]["Alex"] == 14


# ----- scoring ---------------------------------------------------------------------------------------


def test_lone_zero_zero_of_25_opens_the_account(api):
    gid = pad(api, AB, zero_zero=25)
    data = rounds(api, gid, {"Ana": ["0-0"], "Ben": []})
    assert data["totals"]["Ana"] == 25 and data["remembered"]["Ana"] == 0


def test_lone_zero_zero_of_10_is_remembered(api):
    gid = pad(api, AB)
    data = rounds(api, gid, {"Ana": ["0-0"], "Ben": []})
    assert data["totals"]["Ana"] == 0 and data["remembered"]["Ana"] == 10


def test_fish_to_one_with_lone_zero_zero(api):
    gid = pad(api, AB, fish="one")
    data = rounds(api, gid, {"Ana": ["0-0"], "Ben": ["1-2"]})  # 10 against 3
    assert data["rounds"][0]["points"] == {"Ana": 10, "Ben": 3}
    assert data["remembered"] == {"Ana": 0, "Ben": 0}
    assert data["totals"] == {"Ana": 13, "Ben": 0}


def test_small_pot_taken_is_remembered(api):
    gid = pad(api, AB, fish="one")
    data = rounds(api, gid, {"Ana": 1, "Ben": 1})
    assert data["pot"] == 2 and data["totals"] == {"Ana": 0, "Ben": 0}
    data = rounds(api, gid, {"Ana": 3, "Ben": []})
    assert data["pot"] == 0
    assert data["remembered"] == {"Ana": 5, "Ben": 0} and data["totals"] == {"Ana": 0, "Ben": 0}


def test_correction_recomputes_the_pot(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 2, "Alex": 7, "Olya": 13, "Serg": 13})  # tie: pot 35
    data = rounds(api, gid, {"Masha": 1, "Alex": [], "Olya": 3, "Serg": 4})
    assert data["pot"] == 0 and data["totals"]["Serg"] == 39
    data = hands_ok(api, gid, 1, {"Masha": 2, "Alex": 7, "Olya": 13, "Serg": 14})  # no tie now
    assert data["pot"] == 0
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 36 + 4}  # open: 4 booked
    assert data["remembered"] == {"Masha": 1, "Alex": 0, "Olya": 3, "Serg": 0}


def test_account_of_exactly_lose_at_minus_one_is_no_goat(api):
    gid = pad(api, AB)
    data = rounds(api, gid, {"Ana": 100, "Ben": []})
    assert data["status"] == "playing" and data["totals"]["Ana"] == 100
    data = rounds(api, gid, {"Ana": 1, "Ben": []})  # open account: 1 is booked at once
    assert data["status"] == "finished" and data["goats"] == ["Ana"]
    assert data["rating"] == {"Ben": 10}


def test_rating_uses_booked_points_only_and_is_at_least_one(api):
    gid = pad(api, ["Ana", "Ben", "Caro"], lose_at=150)
    data = rounds(api, gid, {"Ana": 12, "Ben": 120, "Caro": []})
    assert data["remembered"]["Ana"] == 12 and data["status"] == "playing"
    data = rounds(api, gid, {"Ana": 5, "Ben": 30, "Caro": []})
    assert data["status"] == "finished" and data["goats"] == ["Ben"]
    assert data["rating"] == {"Ana": 10, "Caro": 10}


def test_rating_of_a_player_over_100_is_one(api):
    gid = pad(api, ["Ana", "Ben", "Caro"], lose_at=150)
    data = rounds(api, gid, {"Ana": 120, "Ben": 150, "Caro": []})
    assert data["goats"] == ["Ben"] and data["rating"] == {"Ana": 1, "Caro": 10}


def test_goat_can_come_from_a_fish_to_one(api):
    gid = pad(api, AB, fish="one", lose_at=30)
    data = rounds(api, gid, {"Ana": 20, "Ben": 11})
    assert data["status"] == "finished" and data["goats"] == ["Ana"]
    assert data["totals"] == {"Ana": 31, "Ben": 0} and data["rating"] == {"Ben": 10}


# ----- leaving ---------------------------------------------------------------------------------------


def test_leave_rating_rounds_half_up(api):
    gid = pad(api)
    hands_ok(api, gid, 1, {"Masha": 30, "Alex": 32, "Olya": 17, "Serg": 0})
    data = rounds(api, gid, {"Masha": [], "Alex": 5, "Olya": 5, "Serg": 7})
    assert data["totals"] == {"Masha": 30, "Alex": 37, "Olya": 22, "Serg": 0}
    data = ok(api, gid, type="leave", player="Alex")
    # (37-30)/10=0.7→1, (37-22)/10=1.5→2, (37-0)/10=3.7→4
    assert data["rating"] == {"Masha": 1, "Olya": 2, "Serg": 4}
    assert data["goats"] == [] and data["left"] == "Alex"


def test_leave_at_the_very_start(api):
    gid = new(api, MAOS[:3])
    data = ok(api, gid, type="leave", player="Masha")
    assert data["status"] == "finished" and data["left"] == "Masha" and data["goats"] == []
    assert data["rating"] == {"Alex": 1, "Olya": 1}
    refused(api, gid, {"type": "play", "player": "Alex", "tile": "1-1"}, 422)
    refused(api, gid, {"type": "start", "player": "Alex"}, 422)


def test_leave_by_an_unknown_player_changes_nothing(api):
    gid = new(api)
    refused(api, gid, {"type": "leave", "player": "Zed"}, 422)
    assert api.state(gid)["status"] == "playing"


def test_leave_after_the_goat_is_refused(api):
    gid = pad(api, AB)
    rounds(api, gid, {"Ana": 120, "Ben": []})
    refused(api, gid, {"type": "leave", "player": "Ben"}, 422)


# ----- the finished game's last round; undo in a pad ----------------------------------------------


def test_goat_from_hands_entered_mid_round_shows_the_last_round(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    data = hands_ok(api, gid, 1, {"Ana": 120, "Ben": 0})
    assert data["status"] == "finished" and data["goats"] == ["Ana"] and data["rating"] == {"Ben": 10}
    rnd = data["round"]
    assert rnd["number"] == 1 and rnd["status"] == "done"
    assert rnd["end"] == {"reason": "table", "player": "Ben"}
    assert rnd["turn"] is None
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "6-6", "on": "2-6"}, 422)


def test_undo_in_a_kozel_pad_takes_back_the_entry_and_the_goat(api):
    gid = pad(api, AB)
    first = rounds(api, gid, {"Ana": 12, "Ben": []})
    data = rounds(api, gid, {"Ana": 100, "Ben": []})
    assert data["status"] == "finished" and data["goats"] == ["Ana"]
    data = ok(api, gid, type="undo")
    assert data["status"] == "playing" and data["round"]["number"] == 2
    assert data["remembered"] == first["remembered"] == {"Ana": 12, "Ben": 0}
    assert data["totals"] == {"Ana": 0, "Ben": 0} and len(data["rounds"]) == 1


@pytest.mark.parametrize("name", ["🙂", "Ōtsuka & Co.", "ਜਸਪ੍ਰੀਤ", "Zoë"])
def test_player_names_are_any_characters(api, name):
    """API.md: names are "unique, 1–40 characters, any script" (markup, '<' or '>', is
    refused as bad input: tests/reliability)."""
    status, data = api.post("/api/games", {"game": "kozel", "players": [name, "Ben2"]})
    assert status == 201, data
    assert data["players"] == [name, "Ben2"]
    hands_ok(api, data["id"], 1, {name: 0, "Ben2": 5})
