"""Chicken Foot through the JSON API only (RULES.md §2, API.md), black-box."""

from __future__ import annotations

import pytest

from tests.helpers import (
    AB,
    ABC,
    game_maker,
    hands_ok,
    hands_refused,
    ok,
    play_on,
    refused,
    spinner_arms,
    without_version,
)

new = game_maker("chicken-foot", set=9)
play = play_on
spinner_down = spinner_arms


def on_spinner(data, spinner="9-9"):
    return [e for e in data["round"]["open_ends"] if e["on"] == spinner]


# ----- cf.players, state ---------------------------------------------------------------------


@pytest.mark.parametrize("highest, count", [(9, 2), (9, 7), (12, 4), (12, 13), (15, 8), (18, 27)])
def test_initial_state(api, highest, count):
    players = [f"P{i}" for i in range(count)]
    data = api.create(game="chicken-foot", players=players, set=highest)
    rnd = data["round"]
    size = (highest + 1) * (highest + 2) // 2
    assert rnd["number"] == 1 and rnd["double"] == f"{highest}-{highest}"
    assert rnd["status"] == "playing" and rnd["turn"] is None and rnd["end"] is None
    assert rnd["hands"] == {p: 7 for p in players}
    assert rnd["boneyard"] == size - 7 * count
    assert rnd["open_ends"] == [] and rnd["foot"] is None


@pytest.mark.parametrize("highest, count", [(9, 8), (12, 14)])
def test_players_times_seven_may_not_exceed_the_set(api, highest, count):
    got, data = api.post(
        "/api/games", {"game": "chicken-foot", "set": highest, "players": [f"P{i}" for i in range(count)]}
    )
    assert got == 422 and data["rule"] == "cf.players"


def test_default_set_is_double_nine_with_ten_rounds(api):
    data = api.create(game="chicken-foot", players=AB)
    assert data["set"] == 9 and data["round"]["double"] == "9-9"


# ----- cf.start --------------------------------------------------------------------------------


def test_only_the_rounds_double_starts(api):
    gid = new(api, ABC)
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-5"}, 422, "cf.start")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "8-8"}, 422, "cf.start")
    data = play(api, gid, "Ben", "9-9")
    rnd = data["round"]
    assert rnd["turn"] == "Caro"  # clockwise from the starter
    assert rnd["hands"] == {"Ana": 7, "Ben": 6, "Caro": 7}
    assert rnd["boneyard"] == 55 - 21  # the spinner comes out of a hand
    assert on_spinner(data) and all(e["value"] == 9 for e in rnd["open_ends"])
    assert rnd["foot"] is None


def test_draws_looking_for_the_spinner_count_against_the_yard(api):
    gid = new(api)
    data = ok(api, gid, type="draw", player="Ana")
    assert data["round"]["boneyard"] == 40 and data["round"]["hands"]["Ana"] == 8
    data = play(api, gid, "Ana", "9-9")
    assert data["round"]["hands"]["Ana"] == 7 and data["round"]["turn"] == "Ben"


def test_start_names_the_holder(api):
    gid = new(api, ABC)
    data = ok(api, gid, type="start", player="Caro")
    assert data["round"]["turn"] == "Caro"
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-9"}, 422)
    data = play(api, gid, "Caro", "9-9")
    assert data["round"]["turn"] == "Ana"


# ----- cf.match, cf.spinner, cf.one-tile -------------------------------------------------------


def test_next_to_the_spinner_the_touching_half_is_nine(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "5-4", "on": "9-9"}, 422, "cf.match")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-5", "on": "9-9"}, 422, "turn")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-9", "on": "9-9"}, 422, "unique")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-10", "on": "9-9"}, 422, "tiles")
    data = play(api, gid, "Ben", "5-9", "9-9")
    assert data["round"]["turn"] == "Ana"


def test_all_four_arms_before_a_second_tile(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-5", "9-9")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-3", "on": "9-5"}, 422, "cf.spinner")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-5", "on": "5-9"}, 422, "cf.spinner")
    refused(
        api,
        gid,
        {"type": "play", "player": "Ben", "tile": "9-4", "on": "9-9"},
        422,
        rules=("turn", "cf.one-tile"),
    )
    play(api, gid, "Ana", "9-4", "9-9")
    play(api, gid, "Ben", "9-3", "9-9")
    data = api.state(gid)
    assert all(e["on"] == "9-9" for e in data["round"]["open_ends"])
    data = play(api, gid, "Ana", "9-2", "9-9")
    ends = {(e["on"], e["value"]) for e in data["round"]["open_ends"]}
    assert ends == {("5-9", 5), ("4-9", 4), ("3-9", 3), ("2-9", 2)}
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-1", "on": "9-9"}, 422)
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "5-1", "on": "4-9"}, 422, "cf.match")
    data = play(api, gid, "Ben", "5-3", "9-5")
    ends = {(e["on"], e["value"]) for e in data["round"]["open_ends"]}
    assert ends == {("3-5", 3), ("4-9", 4), ("3-9", 3), ("2-9", 2)}


# ----- cf.draw --------------------------------------------------------------------------------


def test_draw_then_play_or_pass(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "pass", "player": "Ben"}, 422, "cf.draw")
    data = ok(api, gid, type="draw", player="Ben")
    assert data["round"]["boneyard"] == 40 and data["round"]["hands"]["Ben"] == 8
    assert data["round"]["turn"] == "Ben"
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422, "cf.draw")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["turn"] == "Ana"
    ok(api, gid, type="draw", player="Ana")
    data = play(api, gid, "Ana", "9-1", "9-9")  # the drawn tile fits
    assert data["round"]["turn"] == "Ben" and data["round"]["hands"]["Ana"] == 6


# ----- cf.double --------------------------------------------------------------------------------


def test_chicken_foot_needs_three_toes_first(api):
    gid = new(api)
    spinner_down(api, gid)  # Ben, Ana, Ben, Ana laid the arms
    data = play(api, gid, "Ben", "1-1", "1-9")  # a double on an arm
    assert data["round"]["turn"] == "Ana"  # one tile per turn, doubles included
    assert data["round"]["foot"] == {"double": "1-1", "toes": 0}
    assert {e["on"] for e in data["round"]["open_ends"]} == {"1-1"}
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "2-5", "on": "2-9"}, 422, "cf.double")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "2-5", "on": "1-1"}, 422, "cf.match")
    data = play(api, gid, "Ana", "1-5", "1-1")
    assert data["round"]["foot"] == {"double": "1-1", "toes": 1}
    play(api, gid, "Ben", "1-6", "1-1")
    data = play(api, gid, "Ana", "1-7", "1-1")
    assert data["round"]["foot"] is None
    ends = {(e["on"], e["value"]) for e in data["round"]["open_ends"]}
    assert ends == {("1-5", 5), ("1-6", 6), ("1-7", 7), ("2-9", 2), ("3-9", 3), ("4-9", 4)}
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "1-8", "on": "1-1"}, 422)
    data = play(api, gid, "Ben", "5-5", "1-5")  # a double on a toe starts a new foot
    assert data["round"]["foot"] == {"double": "5-5", "toes": 0}


def test_undo_a_play(api):
    gid = new(api)
    start = api.state(gid)
    spinner_down(api, gid)
    before = api.state(gid)
    play(api, gid, "Ben", "1-1", "1-9")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    for _ in range(5):
        data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(start)
    refused(api, gid, {"type": "undo"}, 422)


# ----- cf.end, cf.score, cf.rounds -----------------------------------------------------------------


def test_last_tile_ends_the_round(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    data = play(api, gid, "Ana", "9-2", "9-9")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    assert data["round"]["status"] == "scoring" and data["round"]["turn"] is None
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-3", "on": "9-9"}, 422)
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0"]})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 50}
    assert data["round"]["number"] == 2 and data["round"]["double"] == "8-8"
    assert data["round"]["turn"] is None and data["round"]["hands"] == {"Ana": 2, "Ben": 2}


def test_blocked_round(api):
    players = [f"P{i}" for i in range(5)]
    gid = new(api, players, hand_size=11)  # 55 tiles dealt: the yard is empty
    assert api.state(gid)["round"]["boneyard"] == 0
    play(api, gid, "P0", "9-9")
    refused(api, gid, {"type": "draw", "player": "P1"}, 422, "cf.draw")
    for name in players[1:]:
        data = ok(api, gid, type="pass", player=name)
        assert data["round"]["end"] is None
    data = ok(api, gid, type="pass", player="P0")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    assert data["round"]["status"] == "scoring"


def test_hands_checks_in_referee_mode(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    hands_refused(
        api, gid, 1, {"Ana": 3, "Ben": ["9-9", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7"]}, 422, "unique"
    )
    hands_refused(api, gid, 1, {"Ana": 3, "Ben": ["1-2"]}, 422)
    data = hands_ok(api, gid, 1, {"Ana": 3, "Ben": ["0-0", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7"]})
    assert data["rounds"][0]["points"] == {"Ana": 3, "Ben": 50 + 3 + 4 + 5 + 6 + 7 + 8}


def test_whole_game_and_tie_break(api):
    gid = new(api, ABC, mode="scores")
    data = api.state(gid)
    assert data["round"]["status"] == "scoring"
    ana = [0, 0, 0, 0, 0, 0, 0, 0, 5, 5]
    ben = [10, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # 9 zero rounds
    for number in range(1, 11):
        data = hands_ok(api, gid, number, {"Ana": ana[number - 1], "Ben": ben[number - 1], "Caro": 9})
    assert [r["double"] for r in data["rounds"]] == [f"{v}-{v}" for v in range(9, -1, -1)]
    assert data["status"] == "finished"
    assert data["totals"] == {"Ana": 10, "Ben": 10, "Caro": 90}
    assert data["winners"] == ["Ben"]


def test_tie_break_on_the_smallest_non_zero_round(api):
    gid = new(api, ABC, mode="scores")
    ana = [0, 0, 0, 0, 0, 0, 0, 0, 5, 5]
    ben = [1, 9, 0, 0, 0, 0, 0, 0, 0, 0]
    for number in range(1, 11):
        data = hands_ok(api, gid, number, {"Ana": ana[number - 1], "Ben": ben[number - 1], "Caro": 9})
    assert data["winners"] == ["Ben"]


def test_a_foot_with_every_other_tile_of_its_number_on_the_table_is_finished(api):
    """cf.foot.dead: all nine other 1s are on the table when 1-1 is laid."""
    gid = new(api, hand_size=20)
    play(api, gid, "Ana", "9-9")
    who = ["Ben", "Ana"]
    moves = [("9-1", "9-9"), ("9-2", "9-9"), ("9-3", "9-9"), ("9-4", "9-9")]
    chain = ["9-1", "1-0", "0-2", "2-1", "1-3", "3-4", "4-1", "1-5", "5-6", "6-1", "1-7", "7-8", "8-1"]
    moves += [(tile, previous) for previous, tile in zip(chain, chain[1:])]
    for i, (tile, on) in enumerate(moves):
        play(api, gid, who[i % 2], tile, on)
    player = api.state(gid)["round"]["turn"]
    data = play(api, gid, player, "1-1", "1-8")
    assert data["round"]["foot"] is None
    player = data["round"]["turn"]
    data = play(api, gid, player, "2-5", "2-9")
    assert data["round"]["foot"] is None


@pytest.mark.parametrize("double_blank, points", [(0, 3), (25, 28), (50, 53)])
def test_double_blank_option(api, double_blank, points):
    gid = new(api, mode="scores", double_blank=double_blank)
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0", "1-2"]})
    assert data["totals"]["Ben"] == points


def test_hands_while_playing_end_with_reason_table(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    data = hands_ok(api, gid, 1, {"Ana": 10, "Ben": 12})
    assert data["rounds"][0]["points"] == {"Ana": 10, "Ben": 12}
    assert data["rounds"][0].get("end", {"reason": "table"})["reason"] == "table"
    assert data["round"]["number"] == 2 and data["round"]["double"] == "8-8"
    assert data["round"]["status"] == "playing" and data["round"]["turn"] is None


def test_double_twelve_has_thirteen_rounds(api):
    gid = new(api, set=12, mode="scores")
    for number in range(1, 14):
        data = hands_ok(api, gid, number, {"Ana": 1, "Ben": 0})
    assert data["status"] == "finished" and data["rounds"][-1]["double"] == "0-0"
    assert data["winners"] == ["Ben"]
