"""Review of Chicken Foot against RULES.md §0/§2 and API.md, black-box (JSON API only)."""

from __future__ import annotations

import random as _random

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
arms = spinner_arms


def ends(data):
    return {(e["on"], e["value"]) for e in data["round"]["open_ends"]}


# ----- cf.players / options ---------------------------------------------------------------------


def test_one_player_is_refused(api):
    got, data = api.post("/api/games", {"game": "chicken-foot", "players": ["Ana"], "set": 9})
    assert got == 422 and data["rule"] == "cf.players", (got, data)
    assert api.get("/api/games")[1]["games"] == []


def test_hand_size_option_counts_in_the_players_check(api):
    # 4 × 14 = 56 > 55 tiles of a double-9 set
    got, data = api.post(
        "/api/games",
        {"game": "chicken-foot", "players": ["A", "B", "C", "D"], "set": 9, "options": {"hand_size": 14}},
    )
    assert got == 422 and data["rule"] == "cf.players", (got, data)
    data = api.create(game="chicken-foot", players=["A", "B", "C", "D"], set=9, options={"hand_size": 13})
    assert data["round"]["hands"] == {p: 13 for p in "ABCD"}
    assert data["round"]["boneyard"] == 55 - 52


def test_exactly_the_set_is_allowed(api):
    data = api.create(
        game="chicken-foot", players=[f"P{i}" for i in range(7)], set=9, options={"hand_size": 7}
    )
    assert data["round"]["boneyard"] == 55 - 49


def test_default_options_are_reported(api):
    data = api.create(game="chicken-foot", players=AB)
    opts = data["options"]
    # API.md: double_blank default 50, arms default 4, hand_size default 7
    assert opts.get("double_blank", 50) == 50
    assert opts.get("arms", 4) == 4
    assert opts.get("hand_size", 7) == 7


@pytest.mark.parametrize(
    "options",
    [
        {"first_turn": "build"},
        {"tie_break": "share"},
        {"lose_at": 50},
        {"zero_zero": 10},
        {"doubles_order": "newest"},
    ],
)
def test_other_games_options_are_400(api, options):
    got, data = api.post("/api/games", {"game": "chicken-foot", "players": AB, "options": options})
    assert got == 400 and data["rule"] is None, (options, got, data)


@pytest.mark.parametrize("arms_", ["4", True, [4]])
def test_arms_of_wrong_type_is_400(api, arms_):
    got, data = api.post("/api/games", {"game": "chicken-foot", "players": AB, "options": {"arms": arms_}})
    assert got == 400, (arms_, got, data)


@pytest.mark.parametrize("highest, rounds", [(15, 16), (18, 19)])
def test_rounds_of_big_sets(api, highest, rounds):
    gid = new(api, set=highest, mode="scores")
    for number in range(1, rounds + 1):
        data = api.state(gid)
        assert data["round"]["number"] == number
        assert data["round"]["double"] == f"{highest - number + 1}-{highest - number + 1}"
        data = hands_ok(api, gid, number, {"Ana": 2, "Ben": 1})
    assert data["status"] == "finished" and len(data["rounds"]) == rounds
    assert data["totals"] == {"Ana": 2 * rounds, "Ben": rounds}
    assert data["winners"] == ["Ben"]
    status, _ = api.hands(gid, rounds + 1, {"Ana": 0, "Ben": 0})
    assert status == 404


# ----- cf.start ---------------------------------------------------------------------------------


def test_spinner_alone_is_one_turn_then_clockwise_wraps(api):
    gid = new(api, ABC)
    play(api, gid, "Caro", "9-9")
    data = api.state(gid)
    assert data["round"]["turn"] == "Ana"  # clockwise from Caro wraps to Ana
    refused(api, gid, {"type": "play", "player": "Caro", "tile": "9-1", "on": "9-9"}, 422, "turn")
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422, "turn")
    refused(api, gid, {"type": "pass", "player": "Ben"}, 422, "turn")


def test_start_after_spinner_is_refused(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "start", "player": "Ben"}, 422)


def test_start_in_scores_mode_is_refused(api):
    gid = new(api, mode="scores")
    refused(api, gid, {"type": "start", "player": "Ben"}, 422)


def test_unknown_player_is_refused(api):
    gid = new(api)
    before = api.state(gid)
    got, data = api.act(gid, type="play", player="Zed", tile="9-9")
    assert got in (400, 422) and data["error"], (got, data)
    assert api.state(gid) == before


def test_second_round_starts_with_eight_eight(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    data = hands_ok(api, gid, 1, {"Ana": 5, "Ben": 6})
    rnd = data["round"]
    assert rnd["number"] == 2 and rnd["double"] == "8-8" and rnd["status"] == "playing"
    assert rnd["hands"] == {"Ana": 7, "Ben": 7} and rnd["boneyard"] == 41
    assert rnd["open_ends"] == [] and rnd["foot"] is None and rnd["end"] is None
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-9"}, 422, "cf.start")
    data = play(api, gid, "Ben", "8-8")
    assert data["round"]["turn"] == "Ana"
    assert all(e["value"] == 8 for e in data["round"]["open_ends"])
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-1", "on": "8-8"}, 422, "cf.match")
    play(api, gid, "Ana", "8-1", "8-8")


def test_last_round_spinner_is_double_blank(api):
    gid = new(api)
    for number in range(1, 10):
        hands_ok(api, gid, number, {"Ana": 1, "Ben": 2})
    data = api.state(gid)
    assert data["round"]["number"] == 10 and data["round"]["double"] == "0-0"
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "1-1"}, 422, "cf.start")
    play(api, gid, "Ana", "0-0")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "1-2", "on": "0-0"}, 422, "cf.match")
    play(api, gid, "Ben", "0-5", "0-0")
    data = hands_ok(api, gid, 10, {"Ana": 3, "Ben": 5})
    assert data["status"] == "finished"
    assert data["totals"] == {"Ana": 12, "Ben": 23}
    assert data["winners"] == ["Ana"]
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-6", "on": "0-5"}, 422)


# ----- cf.match / tiles / unique ------------------------------------------------------------------


def test_play_on_a_tile_not_on_the_table(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "5-3", "on": "9-5"}, 422)


def test_turned_tile_cannot_use_its_touching_half(api):
    gid = new(api)
    arms(api, gid)
    # arm 9-1: its open end is 1; a 9 does not fit any more
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-5", "on": "9-1"}, 422)
    data = play(api, gid, "Ben", "1-5", "9-1")
    assert ("1-5", 5) in ends(data)
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "1-6", "on": "1-5"}, 422, "cf.match")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-6", "on": "9-1"}, 422)


def test_tile_answered_smaller_half_first(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-3", "9-9")
    play(api, gid, "Ana", "9-2", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    data = play(api, gid, "Ana", "9-4", "9-9")
    assert {e["on"] for e in data["round"]["open_ends"]} == {"1-9", "2-9", "3-9", "4-9"}
    data = play(api, gid, "Ben", "3-8", "9-3")  # `on` in either order
    assert ("3-8", 8) in ends(data)


def test_tile_already_played_is_unique(api):
    gid = new(api)
    arms(api, gid)
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "1-9", "on": "2-9"}, 422, "unique")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "2-9", "on": "9-2"}, 422, "unique")


def test_tile_not_in_the_set(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "10-9", "on": "9-9"}, 422, "tiles")
    gid12 = new(api, set=12)
    refused(api, gid12, {"type": "play", "player": "Ben", "tile": "13-13"}, 422)


# ----- cf.spinner -------------------------------------------------------------------------------


def test_spinner_open_ends_until_all_arms(api):
    gid = new(api)
    data = play(api, gid, "Ana", "9-9")
    assert ends(data) == {("9-9", 9)}
    data = play(api, gid, "Ben", "9-1", "9-9")
    assert ends(data) == {("9-9", 9)}


def test_six_arms_spinner_needs_six(api):
    gid = new(api, arms=6)
    arms(api, gid)
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "1-5", "on": "1-9"}, 422, "cf.spinner")
    data = play(api, gid, "Ben", "9-5", "9-9")
    assert ends(data) == {("9-9", 9)}
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-5", "on": "5-9"}, 422, "cf.spinner")
    data = play(api, gid, "Ana", "9-6", "9-9")
    assert ends(data) == {("1-9", 1), ("2-9", 2), ("3-9", 3), ("4-9", 4), ("5-9", 5), ("6-9", 6)}
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-7", "on": "9-9"}, 422)
    data = play(api, gid, "Ben", "1-5", "1-9")
    assert data["round"]["turn"] == "Ana"


# ----- cf.one-tile / cf.double --------------------------------------------------------------------


def test_layer_of_the_double_may_not_lay_the_first_toe(api):
    gid = new(api)
    arms(api, gid)
    play(api, gid, "Ben", "1-1", "1-9")
    refused(
        api,
        gid,
        {"type": "play", "player": "Ben", "tile": "1-5", "on": "1-1"},
        422,
        rules=("turn", "cf.one-tile"),
    )


def test_other_double_elsewhere_during_a_foot_is_refused(api):
    gid = new(api)
    arms(api, gid)
    play(api, gid, "Ben", "1-1", "1-9")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "2-2", "on": "2-9"}, 422, "cf.double")


def test_draw_and_pass_during_a_foot_count_no_toe(api):
    gid = new(api)
    arms(api, gid)
    play(api, gid, "Ben", "1-1", "1-9")
    ok(api, gid, type="draw", player="Ana")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["foot"] == {"double": "1-1", "toes": 0}
    assert data["round"]["turn"] == "Ben"
    data = play(api, gid, "Ben", "1-5", "1-1")  # the double's player, on a later turn
    assert data["round"]["foot"] == {"double": "1-1", "toes": 1}
    assert {e["on"] for e in data["round"]["open_ends"]} == {"1-1"}
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-6", "on": "1-5"}, 422, "cf.double")


def test_toes_of_the_spinner_are_not_a_foot(api):
    gid = new(api)
    data = play(api, gid, "Ana", "9-9")
    assert data["round"]["foot"] is None


def test_double_on_a_toe_then_old_toes_closed_until_three_toes(api):
    gid = new(api, hand_size=10)
    arms(api, gid)
    play(api, gid, "Ben", "1-1", "1-9")
    play(api, gid, "Ana", "1-5", "1-1")
    play(api, gid, "Ben", "1-6", "1-1")
    play(api, gid, "Ana", "1-7", "1-1")
    play(api, gid, "Ben", "6-6", "1-6")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "7-8", "on": "1-7"}, 422, "cf.double")
    play(api, gid, "Ana", "6-0", "6-6")
    play(api, gid, "Ben", "6-2", "6-6")
    data = play(api, gid, "Ana", "6-3", "6-6")
    assert data["round"]["foot"] is None
    assert ends(data) == {
        ("1-5", 5),
        ("1-7", 7),
        ("0-6", 0),
        ("2-6", 2),
        ("3-6", 3),
        ("2-9", 2),
        ("3-9", 3),
        ("4-9", 4),
    }


# ----- cf.draw / hidden ----------------------------------------------------------------------------


def test_draw_from_empty_yard_refused_then_pass(api):
    gid = new(api, hand_size=27)  # 54 dealt, 1 in the yard
    assert api.state(gid)["round"]["boneyard"] == 1
    play(api, gid, "Ana", "9-9")
    data = ok(api, gid, type="draw", player="Ben")
    assert data["round"]["boneyard"] == 0 and data["round"]["hands"]["Ben"] == 28
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] is None
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422, "cf.draw")
    data = ok(api, gid, type="pass", player="Ana")  # everyone passed in a row, yard empty
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    assert data["round"]["status"] == "scoring"


def test_a_play_between_passes_resets_the_block(api):
    gid = new(api, ABC, hand_size=18)  # 54 dealt, 1 in the yard
    play(api, gid, "Ana", "9-9")
    ok(api, gid, type="draw", player="Ben")
    ok(api, gid, type="pass", player="Ben")
    play(api, gid, "Caro", "9-1", "9-9")
    data = ok(api, gid, type="pass", player="Ana")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] is None
    data = ok(api, gid, type="pass", player="Caro")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}


def test_passes_while_the_yard_is_not_empty_do_not_block(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    for name in ["Ben", "Ana", "Ben", "Ana"]:
        ok(api, gid, type="draw", player=name)
        data = ok(api, gid, type="pass", player=name)
        assert data["round"]["end"] is None and data["round"]["status"] == "playing"
    assert data["round"]["boneyard"] == 41 - 4
    assert data["round"]["hands"] == {"Ana": 8, "Ben": 9}


def test_draw_then_play_then_turn_passes(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    ok(api, gid, type="draw", player="Ben")
    data = play(api, gid, "Ben", "9-4", "9-9")
    assert data["round"]["turn"] == "Ana" and data["round"]["hands"]["Ben"] == 7
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422, "cf.draw")


def test_hand_list_length_follows_draws(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    ok(api, gid, type="draw", player="Ben")
    seven = ["1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8"]
    hands_refused(api, gid, 1, {"Ana": 5, "Ben": seven}, 422)
    data = hands_ok(api, gid, 1, {"Ana": ["2-3", "2-4", "2-5", "2-6", "2-7", "2-8"], "Ben": seven + ["0-0"]})
    assert data["rounds"][0]["points"] == {
        "Ana": 5 + 6 + 7 + 8 + 9 + 10,
        "Ben": 3 + 4 + 5 + 6 + 7 + 8 + 9 + 50,
    }


# ----- cf.end ----------------------------------------------------------------------------------


def test_spinner_as_last_tile_ends_the_round(api):
    gid = new(api, hand_size=1)
    data = play(api, gid, "Ana", "9-9")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    assert data["round"]["status"] == "scoring"


def test_double_as_last_tile_ends_the_round(api):
    gid = new(api, hand_size=4)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    play(api, gid, "Ana", "9-2", "9-9")
    play(api, gid, "Ben", "9-3", "9-9")
    play(api, gid, "Ana", "9-4", "9-9")
    play(api, gid, "Ben", "1-5", "9-1")
    data = play(api, gid, "Ana", "2-2", "9-2")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    assert data["round"]["status"] == "scoring"
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "2-3", "on": "2-2"}, 422)
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422)
    refused(api, gid, {"type": "pass", "player": "Ben"}, 422)
    hands_refused(api, gid, 1, {"Ana": ["0-0"], "Ben": ["3-4"]}, 422)
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["3-4"]})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 7}
    assert data["totals"] == {"Ana": 0, "Ben": 7}


def test_undo_the_winning_play_reopens_the_round(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    before = api.state(gid)
    play(api, gid, "Ana", "9-2", "9-9")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    assert data["round"]["status"] == "playing" and data["round"]["turn"] == "Ana"


def test_undo_a_blocking_pass(api):
    gid = new(api, hand_size=27)
    play(api, gid, "Ana", "9-9")
    ok(api, gid, type="draw", player="Ben")
    ok(api, gid, type="pass", player="Ben")
    before = api.state(gid)
    ok(api, gid, type="pass", player="Ana")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)


def test_undo_draw_restores_the_yard(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    before = api.state(gid)
    ok(api, gid, type="draw", player="Ben")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    assert data["round"]["boneyard"] == 41 and data["round"]["hands"]["Ben"] == 7


def test_undo_a_start(api):
    gid = new(api)
    before = api.state(gid)
    ok(api, gid, type="start", player="Ben")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    assert data["round"]["turn"] is None


def test_undo_with_stale_version_is_409(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    refused(api, gid, {"type": "undo", "version": 1}, 409)


# ----- cf.score / hands -------------------------------------------------------------------------


def test_hand_with_a_tile_outside_the_set(api):
    gid = new(api, mode="scores")
    hands_refused(api, gid, 1, {"Ana": ["9-10"], "Ben": []}, 422, "tiles")


def test_same_tile_in_two_hands(api):
    gid = new(api, mode="scores")
    hands_refused(api, gid, 1, {"Ana": ["3-4"], "Ben": ["4-3"]}, 422, "unique")


def test_same_tile_twice_in_one_hand(api):
    gid = new(api, mode="scores")
    hands_refused(api, gid, 1, {"Ana": ["3-4", "3-4"], "Ben": []}, 422, "unique")


def test_hands_missing_a_player(api):
    gid = new(api, mode="scores")
    before = api.state(gid)
    got, data = api.hands(gid, 1, {"Ana": 3})
    assert got in (400, 422) and data["error"]
    assert api.state(gid) == before


def test_hands_unknown_player(api):
    gid = new(api, mode="scores")
    before = api.state(gid)
    got, data = api.hands(gid, 1, {"Ana": 3, "Ben": 0, "Zed": 1})
    assert got in (400, 422) and data["error"]
    assert api.state(gid) == before


def test_double_blank_counts_fifty_by_default_with_other_tiles(api):
    gid = new(api, mode="scores")
    data = hands_ok(api, gid, 1, {"Ana": ["0-0", "0-1", "9-9"], "Ben": ["0-2"]})
    assert data["rounds"][0]["points"] == {"Ana": 50 + 1 + 18, "Ben": 2}
    assert data["rounds"][0]["number"] == 1 and data["rounds"][0]["double"] == "9-9"


def test_scores_mode_rounds_are_scoring_from_the_start(api):
    gid = new(api, mode="scores")
    hands_ok(api, gid, 1, {"Ana": 4, "Ben": 0})
    data = api.state(gid)
    assert data["round"]["number"] == 2 and data["round"]["status"] == "scoring"
    assert data["round"]["double"] == "8-8"
    assert data["status"] == "playing" and data["winners"] == []


def test_correction_of_an_earlier_round(api):
    gid = new(api, mode="scores")
    hands_ok(api, gid, 1, {"Ana": 4, "Ben": 0})
    hands_ok(api, gid, 2, {"Ana": 1, "Ben": 9})
    data = hands_ok(api, gid, 1, {"Ana": 4, "Ben": 30})
    assert data["rounds"][0]["points"] == {"Ana": 4, "Ben": 30}
    assert data["totals"] == {"Ana": 5, "Ben": 39}
    assert data["round"]["number"] == 3 and len(data["rounds"]) == 2


def test_correction_after_the_end_changes_the_winner(api):
    gid = new(api, mode="scores")
    for number in range(1, 11):
        data = hands_ok(api, gid, number, {"Ana": 1, "Ben": 2})
    assert data["status"] == "finished" and data["winners"] == ["Ana"]
    data = hands_ok(api, gid, 1, {"Ana": 30, "Ben": 2})
    assert data["totals"] == {"Ana": 39, "Ben": 20}
    assert data["winners"] == ["Ben"] and data["status"] == "finished"


def test_game_not_finished_before_last_round(api):
    gid = new(api, mode="scores")
    for number in range(1, 10):
        data = hands_ok(api, gid, number, {"Ana": 1, "Ben": 2})
    assert data["status"] == "playing" and data["winners"] == []
    assert data["round"]["number"] == 10 and data["round"]["double"] == "0-0"


def test_referee_mode_hands_for_a_round_that_is_not_yet_current(api):
    gid = new(api)
    status, data = api.hands(gid, 2, {"Ana": 1, "Ben": 0})
    assert status == 404 and data["rule"] is None


# ----- cf.tie / winners ---------------------------------------------------------------------------


def run(api, gid, table):
    names = list(table)
    for number in range(1, 11):
        data = hands_ok(api, gid, number, {n: table[n][number - 1] for n in names})
    return data


def test_full_tie_is_shared(api):
    gid = new(api, ABC, mode="scores")
    data = run(api, gid, {"Ana": [0] * 8 + [3, 7], "Ben": [0] * 8 + [7, 3], "Caro": [9] * 10})
    assert data["totals"] == {"Ana": 10, "Ben": 10, "Caro": 90}
    assert sorted(data["winners"]) == ["Ana", "Ben"]


def test_tie_break_only_among_the_lowest(api):
    gid = new(api, ABC, mode="scores")
    # Caro has the most zero rounds but not the lowest total
    data = run(api, gid, {"Ana": [1] * 10, "Ben": [0] * 9 + [10], "Caro": [0] * 9 + [50]})
    assert data["totals"] == {"Ana": 10, "Ben": 10, "Caro": 50}
    assert data["winners"] == ["Ben"]


def test_tie_break_on_lowest_non_zero_with_equal_zero_rounds(api):
    gid = new(api, ABC, mode="scores")
    data = run(
        api, gid, {"Ana": [0] * 7 + [2, 4, 4], "Ben": [0] * 7 + [3, 3, 4], "Caro": [0] * 7 + [5, 5, 5]}
    )
    assert data["totals"] == {"Ana": 10, "Ben": 10, "Caro": 15}
    assert data["winners"] == ["Ana"]


def test_single_lowest_total_wins_even_with_fewer_zero_rounds(api):
    gid = new(api, AB, mode="scores")
    data = run(api, gid, {"Ana": [1] * 10, "Ben": [0] * 9 + [11]})
    assert data["winners"] == ["Ana"]


def test_tie_break_uses_points_after_double_blank_rule(api):
    gid = new(api, AB, mode="scores", double_blank=0)
    # Ana: 0-0 left in round 1 counts 0 with this option: a zero-point round
    data = hands_ok(api, gid, 1, {"Ana": ["0-0"], "Ben": ["0-1"]})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 1}
    for number in range(2, 11):
        data = hands_ok(api, gid, number, {"Ana": 1 if number == 2 else 0, "Ben": 0})
    assert data["totals"] == {"Ana": 1, "Ben": 1}
    assert sorted(data["winners"]) == ["Ana", "Ben"]


# ----- scoresheet ------------------------------------------------------------------------------


def test_scoresheet_csv_rows(api, client):
    import csv
    import io

    gid = new(api, mode="scores")
    hands_ok(api, gid, 1, {"Ana": ["0-0"], "Ben": 4})
    hands_ok(api, gid, 2, {"Ana": 3, "Ben": 0})
    response = client.get(f"/api/games/{gid}/scoresheet.csv")
    assert response.status_code == 200
    rows = [r for r in csv.reader(io.StringIO(response.get_data(as_text=True))) if r]
    header = rows[0]
    a, b = header.index("Ana"), header.index("Ben")
    assert [(int(r[a]), int(r[b])) for r in rows[1:]] == [(50, 4), (3, 0), (53, 4)]


# ----- actions of other games ---------------------------------------------------------------------


@pytest.mark.parametrize("action", [{"type": "end", "player": "Ana"}, {"type": "leave", "player": "Ana"}])
def test_other_games_actions_are_refused(api, action):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    before = api.state(gid)
    got, data = api.act(gid, **action)
    assert got in (400, 422) and data["error"] and "rule" in data, (got, data)
    assert api.state(gid) == before


# ----- more: finished state, referee-mode corrections, undo bounds, draws before the spinner -------


def test_finished_state_shows_the_last_round_done(api):
    gid = new(api)
    for number in range(1, 11):
        data = hands_ok(api, gid, number, {"Ana": 2, "Ben": 1})
    assert data["status"] == "finished"
    assert data["round"]["number"] == 10 and data["round"]["status"] == "done"
    assert data["round"]["double"] == "0-0" and data["round"]["turn"] is None
    assert data["winners"] == ["Ben"] and data["totals"] == {"Ana": 20, "Ben": 10}
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "0-0"}, 422)
    refused(api, gid, {"type": "start", "player": "Ana"}, 422)
    refused(api, gid, {"type": "undo"}, 422)


def test_referee_correction_checks_the_old_rounds_table(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    six = ["2-3", "2-4", "2-5", "2-6", "2-7", "2-8"]
    hands_ok(api, gid, 1, {"Ana": six, "Ben": 10})
    play(api, gid, "Ben", "8-8")
    # round 1's table had 9-1; Ana held 6 tiles
    hands_refused(api, gid, 1, {"Ana": ["1-9", "2-4", "2-5", "2-6", "2-7", "2-8"], "Ben": 10}, 422, "unique")
    hands_refused(api, gid, 1, {"Ana": ["2-3"], "Ben": 10}, 422)
    data = hands_ok(api, gid, 1, {"Ana": ["0-0", "2-4", "2-5", "2-6", "2-7", "2-8"], "Ben": 10})
    assert data["rounds"][0]["points"] == {"Ana": 50 + 6 + 7 + 8 + 9 + 10, "Ben": 10}
    assert data["round"]["number"] == 2 and data["round"]["status"] == "playing"
    assert data["round"]["hands"] == {"Ana": 7, "Ben": 6} and data["round"]["turn"] == "Ana"


def test_referee_correction_keeps_the_domino(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-9")
    play(api, gid, "Ben", "9-1", "9-9")
    play(api, gid, "Ana", "9-2", "9-9")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": ["3-4"]})
    hands_refused(api, gid, 1, {"Ana": ["3-5"], "Ben": ["3-4"]}, 422)
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0"]})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 50}
    assert data["rounds"][0]["end"] == {"reason": "domino", "player": "Ana"}


def test_undo_stops_at_the_rounds_start(api):
    gid = new(api)
    play(api, gid, "Ana", "9-9")
    hands_ok(api, gid, 1, {"Ana": 3, "Ben": 4})
    start = api.state(gid)
    play(api, gid, "Ben", "8-8")
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="undo")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(start)
    refused(api, gid, {"type": "undo"}, 422)
    assert api.state(gid)["totals"] == {"Ana": 3, "Ben": 4}


def test_draws_before_the_spinner(api):
    gid = new(api, ABC)
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="draw", player="Ben")
    data = ok(api, gid, type="draw", player="Caro")
    assert data["round"]["turn"] is None and data["round"]["boneyard"] == 55 - 21 - 3
    data = play(api, gid, "Caro", "9-9")
    assert data["round"]["hands"] == {"Ana": 8, "Ben": 8, "Caro": 7}
    assert data["round"]["turn"] == "Ana"
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422, "cf.draw")  # no draw yet this turn


def test_pass_before_the_spinner_is_refused(api):
    gid = new(api)
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422)


def test_spinner_with_on_is_refused(api):
    gid = new(api)
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-9", "on": "9-9"}, 422)


def test_blocked_while_a_foot_waits(api):
    gid = new(api, hand_size=27)  # 1 tile in the yard
    arms(api, gid)
    play(api, gid, "Ben", "1-1", "1-9")
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    data = hands_ok(api, gid, 1, {"Ana": 11, "Ben": 9})
    assert data["rounds"][0]["end"] == {"reason": "blocked", "player": None}
    assert data["rounds"][0]["points"] == {"Ana": 11, "Ben": 9}


# ----- model-based random rounds: legality, open ends and feet against a small model -------------


def _tile(a, b):
    a, b = min(a, b), max(a, b)
    return f"{a}-{b}"


class _Model:
    def __init__(self, highest, arms_):
        self.highest, self.arms = highest, arms_
        self.outer, self.kids, self.order = {}, {}, []
        self.spinner = None
        self.newest_double = None

    def cap(self, t):
        a, b = map(int, t.split("-"))
        if t == self.spinner:
            return self.arms
        return 3 if a == b else 1

    def dead(self, d):
        # cf.foot.dead: a foot keeps its claim while any tile of its number is off the table
        n = int(d.split("-")[0])
        on_table = sum(1 for t in self.order if n in map(int, t.split("-")))
        return on_table == self.highest + 1

    def foot(self):
        d = self.newest_double
        if d is None or self.kids[d] >= 3 or self.dead(d):
            return None
        return d

    def places(self):
        if self.spinner is None:
            return []
        if self.kids[self.spinner] < self.arms:
            return [self.spinner]
        f = self.foot()
        if f:
            return [f]
        return [t for t in self.order if self.kids[t] < self.cap(t)]

    def legal(self, tile, on):
        if tile in self.outer or on not in self.places():
            return False
        return self.outer[on] in map(int, tile.split("-"))

    def lay(self, tile, on):
        a, b = map(int, tile.split("-"))
        if on is None:
            self.spinner, self.outer[tile] = tile, a
        else:
            v = self.outer[on]
            self.outer[tile] = b if a == v else a
            self.kids[on] += 1
            if a == b:
                self.newest_double = tile
        self.kids[tile] = 0
        self.order.append(tile)


@pytest.mark.parametrize("seed", range(12))
def test_random_rounds_against_a_model(api, seed):
    rng = _random.Random(seed)
    highest = 9
    n = rng.choice([2, 3, 4])
    arms_ = rng.choice([4, 6])
    names = [f"P{i}" for i in range(n)]
    gid = new(api, names, arms=arms_)
    tiles = [_tile(a, b) for a in range(highest + 1) for b in range(a, highest + 1)]
    rng.shuffle(tiles)
    hands = {p: [tiles.pop() for _ in range(7)] for p in names}
    yard = tiles
    model = _Model(highest, arms_)
    spinner = f"{highest}-{highest}"
    holder = next((p for p in names if spinner in hands[p]), None)
    i = 0
    while holder is None:
        p = names[i % n]
        st, data = api.act(gid, type="draw", player=p)
        assert st == 200, data
        hands[p].append(yard.pop())
        if spinner in hands[p]:
            holder = p
        i += 1
    st, data = api.act(gid, type="play", player=holder, tile=spinner)
    assert st == 200, data
    hands[holder].remove(spinner)
    model.lay(spinner, None)
    turn = (names.index(holder) + 1) % n
    for _ in range(400):
        if data["round"]["end"] is not None:
            break
        p = names[turn]
        assert data["round"]["turn"] == p
        assert {e["on"] for e in data["round"]["open_ends"]} == set(model.places()), model.order
        for e in data["round"]["open_ends"]:
            assert e["value"] == model.outer[e["on"]]
        f = model.foot()
        assert data["round"]["foot"] == (None if f is None else {"double": f, "toes": model.kids[f]})
        # an illegal attempt, sometimes
        if rng.random() < 0.5 and hands[p]:
            tile = rng.choice(hands[p])
            on = rng.choice(model.order)
            if not model.legal(tile, on):
                before = api.state(gid)
                st, refusal = api.act(gid, type="play", player=p, tile=tile, on=on)
                assert st == 422, (tile, on, refusal, model.order)
                assert api.state(gid) == before
        moves = [(t, o) for t in hands[p] for o in model.places() if model.legal(t, o)]
        if not moves and yard:
            st, data = api.act(gid, type="draw", player=p)
            assert st == 200, data
            hands[p].append(yard.pop())
            moves = [(t, o) for t in hands[p][-1:] for o in model.places() if model.legal(t, o)]
        if moves:
            tile, on = rng.choice(moves)
            st, data = api.act(gid, type="play", player=p, tile=tile, on=on)
            assert st == 200, (tile, on, data, model.order)
            hands[p].remove(tile)
            model.lay(tile, on)
        else:
            st, data = api.act(gid, type="pass", player=p)
            assert st == 200, data
        assert data["round"]["hands"] == {q: len(hands[q]) for q in names}
        assert data["round"]["boneyard"] == len(yard)
        turn = (turn + 1) % n
    end = data["round"]["end"]
    assert end is not None
    if end["reason"] == "domino":
        assert hands[end["player"]] == []
    else:
        assert end["reason"] == "blocked" and not yard
    data = hands_ok(api, gid, 1, {q: hands[q] for q in names})

    def zz(t):
        return 50 if t == "0-0" else sum(map(int, t.split("-")))

    assert data["rounds"][0]["points"] == {q: sum(zz(t) for t in hands[q]) for q in names}


def test_named_starter_only_may_act_before_the_spinner(api):
    gid = new(api, ABC)
    ok(api, gid, type="start", player="Ben")
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    refused(api, gid, {"type": "play", "player": "Caro", "tile": "9-9"}, 422)
    data = play(api, gid, "Ben", "9-9")
    assert data["round"]["turn"] == "Caro"


def test_games_list_shows_finished(api):
    gid = new(api, mode="scores")
    for number in range(1, 11):
        hands_ok(api, gid, number, {"Ana": 0, "Ben": 1})
    status, data = api.get("/api/games")
    assert status == 200
    entry = next(g for g in data["games"] if g["id"] == gid)
    assert entry["game"] == "chicken-foot" and entry["status"] == "finished"
    assert entry["players"] == ["Ana", "Ben"]
