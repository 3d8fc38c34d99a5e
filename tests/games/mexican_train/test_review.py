"""Review of Mexican Train (RULES.md §0 and §1, API.md), black-box through the JSON API only.

Cases not covered by test_mexican_train_api.py: edge cases of doubles, markers, the first turn,
blocked rounds, scoring in both modes, winners with the tie-break, undo, options and refusals.
"""

from __future__ import annotations

import pytest

from tests.helpers import (
    AB,
    ABC,
    game_maker,
    hands_ok,
    hands_refused,
    ok,
    play_train,
    refused,
    without_version,
)

new = game_maker("mexican-train", set=9)
pad = game_maker("mexican-train", set=9, mode="scores")
play = play_train


def mark(api, gid, player):
    ok(api, gid, type="draw", player=player)
    return ok(api, gid, type="pass", player=player)


def all_tiles(highest):
    return [f"{a}-{b}" for a in range(highest + 1) for b in range(a, highest + 1)]


def pips(tile, double_blank=50):
    a, b = (int(x) for x in tile.split("-"))
    return double_blank if a == b == 0 else a + b


# ----- mt.players / mt.deal / options -------------------------------------------------------


def test_one_player_is_refused(api):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": ["Ana"], "set": 9})
    assert got in (400, 422) and data["error"]
    assert api.get("/api/games")[1]["games"] == []


def test_double_six_with_a_hand_size_that_fits_is_accepted(api):
    """mt.players: other combinations are refused *unless* the table overrides the hand size
    and the tiles suffice (double-6: 28 tiles; 2 × 7 + 1 = 15 ≤ 28)."""
    got, data = api.post(
        "/api/games", {"game": "mexican-train", "players": AB, "set": 6, "options": {"hand_size": 7}}
    )
    assert got == 201, data
    assert data["round"]["double"] == "6-6"
    assert data["round"]["hands"] == {"Ana": 7, "Ben": 7}
    assert data["round"]["boneyard"] == 28 - 1 - 14


def test_double_six_without_a_hand_size_is_refused(api):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": AB, "set": 6})
    assert got == 422 and data["rule"] in ("mt.players", "mt.deal")


@pytest.mark.parametrize("count, hand, status", [(3, 30, 201), (3, 31, 422), (8, 11, 201), (8, 12, 422)])
def test_hand_size_override_in_a_standard_combination(api, count, hand, status):
    players = [f"P{i}" for i in range(count)]
    got, data = api.post(
        "/api/games", {"game": "mexican-train", "players": players, "set": 12, "options": {"hand_size": hand}}
    )
    assert got == status, data
    if status == 201:
        assert set(data["round"]["hands"].values()) == {hand}
        assert data["round"]["boneyard"] == 91 - 1 - count * hand
    else:
        assert data["rule"] in ("mt.deal", "mt.players")


@pytest.mark.parametrize(
    "options",
    [
        {"double_blank": False},
        {"double_blank": "50"},
        {"double_blank": 50.0},
        {"hand_size": True},
        {"hand_size": "11"},
        {"hand_size": 1.5},
        {"first_double": "9"},
        {"last_double": True},
        {"first_turn": "Build"},
        {"doubles_order": 1},
        {"tie_break": True},
    ],
)
def test_badly_typed_options_are_400(api, options):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": AB, "set": 9, "options": options})
    assert got == 400 and data["error"] and data["rule"] is None
    assert api.get("/api/games")[1]["games"] == []


@pytest.mark.parametrize(
    "options",
    [
        {"first_double": 10},
        {"first_double": 5, "last_double": 6},
        {"last_double": -1},
        {"hand_size": 0},
        {"hand_size": -3},
    ],
)
def test_impossible_option_values_are_refused(api, options):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": AB, "set": 9, "options": options})
    assert got in (400, 422) and data["error"] and "rule" in data
    assert api.get("/api/games")[1]["games"] == []


@pytest.mark.parametrize("hand", [200, 1000])
def test_a_hand_size_far_too_big_is_refused_by_mt_deal(api, hand):
    """mt.deal: the referee checks players × hand + 1 ≤ tiles; a well-formed value against the
    rules is a 422 (API.md), as it is for hand_size 28 on a double-9 set."""
    got, data = api.post(
        "/api/games", {"game": "mexican-train", "players": AB, "set": 9, "options": {"hand_size": hand}}
    )
    assert got == 422 and data["rule"] in ("mt.deal", "mt.players"), (got, data)


def test_unknown_mode_is_400(api):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": AB, "mode": "score"})
    assert got == 400 and data["rule"] is None


def test_double_fifteen_engine_and_trains(api):
    players = [f"P{i}" for i in range(9)]
    data = api.create(game="mexican-train", players=players, set=15)
    assert data["round"]["double"] == "15-15" and data["round"]["turn"] == "P0"
    assert all(t["open"] == 15 for t in data["round"]["trains"].values())
    gid = data["id"]
    data = play(api, gid, "P0", "15-12", "P0")
    assert data["round"]["trains"]["P0"]["tiles"] == ["12-15"] and data["round"]["turn"] == "P1"


# ----- mt.match / mt.train.available / unique / turn ----------------------------------------


def test_a_tile_must_match_the_open_end_not_the_inner_end(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-3", "train": "Ana"}, 422, "mt.match")


def test_four_players_turn_wraps_clockwise(api):
    gid = new(api, ["A", "B", "C", "D"])
    turns = []
    for player, tile in [("A", "9-1"), ("B", "9-2"), ("C", "9-3"), ("D", "9-4")]:
        turns.append(api.state(gid)["round"]["turn"])
        play(api, gid, player, tile, player)
    assert turns == ["A", "B", "C", "D"]
    assert api.state(gid)["round"]["turn"] == "A"
    data = mark(api, gid, "A")
    assert data["round"]["turn"] == "B"


def test_the_previous_rounds_engine_is_playable_and_this_rounds_is_not(api):
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": ["1-2"]})
    state = api.state(gid)
    assert state["round"]["double"] == "8-8" and state["round"]["turn"] == "Ben"
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "8-8", "train": "Ben"}, 422, "unique")
    play(api, gid, "Ben", "8-9", "Ben")
    # round 2's table is not round 1's: 9-5 is back in play, 8-8 is the engine
    hands_refused(api, gid, 2, {"Ana": ["8-8"], "Ben": []}, 422, "unique")
    data = hands_ok(api, gid, 2, {"Ana": ["9-9"], "Ben": []})
    assert data["rounds"][1]["points"] == {"Ana": 18, "Ben": 0}


def test_start_names_only_a_player_of_the_game(api):
    gid = new(api)
    got, data = api.act(gid, type="start", player="Zed")
    assert 400 <= got < 500 and data["error"]
    assert api.state(gid)["round"]["turn"] == "Ana"


# ----- doubles ------------------------------------------------------------------------------


def test_single_double_follow_up_may_not_go_on_an_unmarked_train(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    play(api, gid, "Ana", "5-5", "Ana")
    refused(
        api, gid, {"type": "play", "player": "Ana", "tile": "4-1", "train": "Ben"}, 422, "mt.train.available"
    )


def test_single_double_follow_up_may_go_on_a_marked_train(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    mark(api, gid, "Ben")
    play(api, gid, "Ana", "5-5", "Ana")
    data = play(api, gid, "Ana", "9-1", "Ben")
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == ["5-5"]
    assert data["round"]["trains"]["Ben"]["marker"] is True


def test_open_double_closes_the_players_own_matching_train(api):
    gid = new(api)
    play(api, gid, "Ana", "9-4", "mexican")
    play(api, gid, "Ben", "9-3", "Ben")  # Ben's train open at 3
    play(api, gid, "Ana", "4-3", "mexican")  # Mexican open at 3
    play(api, gid, "Ben", "3-3", "mexican")  # a double on the Mexican train
    mark(api, gid, "Ben")  # cannot follow: draws, passes
    data = api.state(gid)
    assert data["round"]["open_doubles"] == ["3-3"] and data["round"]["turn"] == "Ana"
    assert data["round"]["trains"]["Ben"]["marker"] is True
    mark(api, gid, "Ana")
    # Ben's own train is open at 3 too, but only the 3-3 may be played on
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "3-6", "train": "Ben"}, 422, "mt.double.open")
    data = play(api, gid, "Ben", "3-6", "mexican")
    assert data["round"]["open_doubles"] == []
    assert data["round"]["trains"]["Ben"]["marker"] is True  # played elsewhere: marker stays


def test_double_without_a_draw_then_one_draw_then_pass(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    data = play(api, gid, "Ana", "5-5", "Ana")
    bone = data["round"]["boneyard"]
    data = ok(api, gid, type="draw", player="Ana")
    assert data["round"]["boneyard"] == bone - 1 and data["round"]["turn"] == "Ana"
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422, "mt.draw")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert data["round"]["open_doubles"] == ["5-5"] and data["round"]["turn"] == "Ben"
    # the next player may draw and play the drawn tile on the double
    ok(api, gid, type="draw", player="Ben")
    data = play(api, gid, "Ben", "5-8", "Ana")
    assert data["round"]["open_doubles"] == [] and data["round"]["turn"] == "Ana"
    assert data["round"]["trains"]["Ana"]["marker"] is True


def test_a_double_with_an_empty_boneyard_may_pass_without_drawing(api):
    gid = new(api, hand_size=27)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    play(api, gid, "Ana", "5-5", "Ana")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert data["round"]["open_doubles"] == ["5-5"] and data["round"]["turn"] == "Ben"
    assert data["round"]["status"] == "playing"


@pytest.mark.parametrize(
    "order, follow, wrong, after",
    [
        ("oldest", ("5-1", "Ana"), ("3-1", "Ben"), ["3-3"]),
        ("newest", ("3-1", "Ben"), ("5-1", "Ana"), ["5-5"]),
    ],
)
def test_two_doubles_the_second_on_a_marked_train(api, order, follow, wrong, after):
    gid = new(api, doubles_order=order)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-3", "Ben")
    mark(api, gid, "Ana")
    mark(api, gid, "Ben")  # Ben's train open at 3 and marked
    assert api.state(gid)["round"]["turn"] == "Ana"
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is False  # mt.marker.remove
    data = play(api, gid, "Ana", "3-3", "Ben")
    expected = ["5-5", "3-3"] if order == "oldest" else ["3-3", "5-5"]
    assert data["round"]["open_doubles"] == expected and data["round"]["turn"] == "Ana"
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": "9-1", "train": "mexican"},
        422,
        rules=("mt.double.follow", "mt.double.order"),
    )
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": wrong[0], "train": wrong[1]},
        422,
        rules=("mt.double.follow", "mt.double.order"),
    )
    data = play(api, gid, "Ana", *follow)
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == after
    assert data["round"]["trains"]["Ben"]["marker"] is True
    # Ben owes the remaining double, wherever it is; his own train is closed to him meanwhile
    if order == "oldest":
        data = play(api, gid, "Ben", "3-6", "Ben")
        assert data["round"]["trains"]["Ben"]["marker"] is False
    else:
        refused(
            api, gid, {"type": "play", "player": "Ben", "tile": "3-6", "train": "Ben"}, 422, "mt.double.open"
        )
        data = play(api, gid, "Ben", "5-6", "Ana")
        assert data["round"]["trains"]["Ben"]["marker"] is True
    assert data["round"]["open_doubles"] == []


def dead_by_satisfaction(api, order):
    """Every 5 but 4-5 and 5-5 on the table; Ana's train and the Mexican train open at 5;
    Ben's train open at 4 and marked. Ana to play."""
    gid = new(api, doubles_order=order)
    ana = ["9-5", "5-0", "0-1", "1-5", "5-2", "2-3", "3-5"]
    ben = ["9-6", "6-5", "5-7", "7-8", "8-5"]
    for number, tile in enumerate(ana):
        play(api, gid, "Ana", tile, "Ana")
        if number < len(ben):
            play(api, gid, "Ben", ben[number], "mexican")
        elif number == len(ben):
            play(api, gid, "Ben", "9-4", "Ben")
        else:
            mark(api, gid, "Ben")
    state = api.state(gid)["round"]
    assert state["turn"] == "Ana" and state["trains"]["Ben"]["marker"] is True
    assert state["trains"]["Ben"]["open"] == 4 and state["trains"]["Ana"]["open"] == 5
    return gid


def test_a_double_dies_when_its_last_tile_satisfies_another_double(api):
    """mt.double.dead with `newest`: 4-5 satisfies the 4-4 and was the last 5 off the table."""
    gid = dead_by_satisfaction(api, "newest")
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["open_doubles"] == ["5-5"]
    data = play(api, gid, "Ana", "4-4", "Ben")
    assert data["round"]["open_doubles"] == ["4-4", "5-5"]
    data = play(api, gid, "Ana", "4-5", "Ben")
    assert data["round"]["turn"] == "Ben"
    assert data["round"]["open_doubles"] == []  # the 5-5 can never be satisfied now
    # nothing restricts Ben: he draws (and may pass) as on any turn
    data = ok(api, gid, type="draw", player="Ben")
    assert data["round"]["open_doubles"] == []


def test_oldest_first_satisfying_the_first_double_leaves_the_second(api):
    gid = dead_by_satisfaction(api, "oldest")
    play(api, gid, "Ana", "5-5", "Ana")
    play(api, gid, "Ana", "4-4", "Ben")
    data = play(api, gid, "Ana", "5-4", "Ana")  # the last 5: 5-5 satisfied, 4-4 still open
    assert data["round"]["open_doubles"] == ["4-4"] and data["round"]["turn"] == "Ben"


def test_domino_by_satisfying_an_open_double(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    ok(api, gid, type="draw", player="Ana")
    play(api, gid, "Ana", "5-5", "Ana")
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")  # 5-5 open, Ana holds 2
    data = play(api, gid, "Ben", "5-1", "Ana")  # Ben's last tile
    assert data["round"]["end"] == {"reason": "domino", "player": "Ben"}
    assert data["round"]["status"] == "scoring" and data["round"]["hands"] == {"Ana": 2, "Ben": 0}


# ----- first_turn = build --------------------------------------------------------------------


def test_build_no_play_on_a_marked_train_during_the_first_turns(api):
    gid = new(api, first_turn="build")
    data = mark(api, gid, "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True and data["round"]["turn"] == "Ben"
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-3", "train": "Ana"}, 422, "mt.first-turn")
    play(api, gid, "Ben", "9-3", "Ben")
    data = ok(api, gid, type="end", player="Ben")
    # from the second turn on the marked train is open to everyone
    assert data["round"]["turn"] == "Ana"
    mark(api, gid, "Ana")
    data = play(api, gid, "Ben", "9-2", "Ana")
    assert data["round"]["turn"] == "Ana"


def test_build_first_turn_last_tile_ends_the_round(api):
    gid = new(api, first_turn="build", hand_size=3)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ana", "5-4", "Ana")
    data = play(api, gid, "Ana", "4-4", "Ana")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    assert data["round"]["status"] == "scoring" and data["round"]["turn"] is None
    refused(api, gid, {"type": "end", "player": "Ana"}, 422)


def test_build_end_only_by_the_player_on_turn(api):
    gid = new(api, first_turn="build")
    play(api, gid, "Ana", "9-5", "Ana")
    refused(api, gid, {"type": "end", "player": "Ben"}, 422, "turn")


def test_build_drawn_tile_laid_then_no_pass(api):
    gid = new(api, first_turn="build")
    ok(api, gid, type="draw", player="Ana")
    play(api, gid, "Ana", "9-2", "Ana")
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422)
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    data = ok(api, gid, type="end", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is False and data["round"]["turn"] == "Ben"


# ----- end of round ------------------------------------------------------------------------


def test_blocked_after_a_double_then_passes(api):
    gid = new(api, hand_size=27)  # empty boneyard
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    play(api, gid, "Ana", "5-5", "Ana")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["status"] == "playing"
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    assert data["round"]["status"] == "scoring"


def test_three_players_blocked_when_the_last_tile_is_drawn_during_the_passes(api):
    gid = new(api, ABC, hand_size=17)  # boneyard 3
    for player in ABC:
        data = mark(api, gid, player)
    assert data["round"]["boneyard"] == 0
    assert data["round"]["end"] == {"reason": "blocked", "player": None}


def test_blocked_round_scores_everyone(api):
    gid = new(api, hand_size=27)
    ok(api, gid, type="pass", player="Ana")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    rest = [t for t in all_tiles(9) if t != "9-9"]
    ana, ben = rest[:27], rest[27:]
    data = hands_ok(api, gid, 1, {"Ana": ana, "Ben": ben})
    assert data["rounds"][0]["points"] == {"Ana": sum(map(pips, ana)), "Ben": sum(map(pips, ben))}
    assert "0-0" in ana and data["rounds"][0]["points"]["Ana"] == sum(pips(t, 0) for t in ana) + 50
    assert data["round"]["number"] == 2


def test_blocked_round_actions_are_refused(api):
    gid = new(api, hand_size=27)
    ok(api, gid, type="pass", player="Ana")
    ok(api, gid, type="pass", player="Ben")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-1", "train": "Ana"}, 422)
    refused(api, gid, {"type": "start", "player": "Ben"}, 422)


# ----- scoring (referee mode) ----------------------------------------------------------------


def test_the_player_who_went_out_scores_zero(api):
    """mt.score: after a domino, a non-zero count for the player who went out is not booked."""
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    got, data = api.hands(gid, 1, {"Ana": 5, "Ben": 3})
    if got == 200:
        assert data["rounds"][0]["points"]["Ana"] == 0
    else:
        assert got == 422 and data["error"]


def test_domino_with_integers_books_the_points(api):
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": 0, "Ben": 50})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 50}
    assert data["totals"] == {"Ana": 0, "Ben": 50}


def test_double_twelve_hand_pips(api):
    gid = new(api, AB, set=12, hand_size=3)
    play(api, gid, "Ana", "12-5", "Ana")
    play(api, gid, "Ben", "12-4", "Ben")
    play(api, gid, "Ana", "5-1", "Ana")
    ok(api, gid, type="draw", player="Ben")
    play(api, gid, "Ben", "4-2", "Ben")
    data = play(api, gid, "Ana", "1-0", "Ana")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["11-12", "0-0"]})
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 23 + 50}
    assert data["round"]["double"] == "11-11"


def test_totals_add_up_over_rounds(api):
    gid = new(api, ABC, hand_size=1, first_double=9, last_double=7)
    points = []
    for number, (starter, tile) in enumerate([("Ana", "9-1"), ("Ben", "8-1"), ("Caro", "7-1")], 1):
        play(api, gid, starter, tile, starter)
        others = {"Ana": ["2-3"], "Ben": ["4-5"], "Caro": ["0-0"]}
        others[starter] = []
        data = hands_ok(api, gid, number, others)
        points.append(data["rounds"][-1]["points"])
    assert points == [
        {"Ana": 0, "Ben": 9, "Caro": 50},
        {"Ana": 5, "Ben": 0, "Caro": 50},
        {"Ana": 5, "Ben": 9, "Caro": 0},
    ]
    assert data["totals"] == {"Ana": 10, "Ben": 18, "Caro": 100}
    assert data["status"] == "finished" and data["winners"] == ["Ana"]
    assert data["round"]["status"] == "done" and data["round"]["number"] == 3


def test_last_round_engine_is_the_double_blank(api):
    gid = new(api, hand_size=1, first_double=0, last_double=0)
    state = api.state(gid)
    assert state["round"]["double"] == "0-0"
    assert all(t["open"] == 0 for t in state["round"]["trains"].values())
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "0-0", "train": "Ana"}, 422, "unique")
    play(api, gid, "Ana", "0-5", "Ana")
    hands_refused(api, gid, 1, {"Ana": [], "Ben": ["0-0"]}, 422, "unique")
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["9-9"]})
    assert data["status"] == "finished" and data["winners"] == ["Ana"]


# ----- scores mode ---------------------------------------------------------------------------


def test_scores_mode_state(api):
    gid = pad(api, ABC, set=12)
    data = api.state(gid)
    assert data["mode"] == "scores" and data["round"]["status"] == "scoring"
    assert data["round"]["double"] == "12-12" and data["round"]["end"] is None


@pytest.mark.parametrize("double_blank", [0, 25, 50])
def test_scores_mode_tile_lists_use_the_double_blank_option(api, double_blank):
    gid = pad(api, double_blank=double_blank)
    data = hands_ok(api, gid, 1, {"Ana": ["0-0", "1-2"], "Ben": []})
    assert data["rounds"][0]["points"] == {"Ana": double_blank + 3, "Ben": 0}
    assert data["totals"] == {"Ana": double_blank + 3, "Ben": 0}


def test_scores_mode_integers_are_taken_as_counted(api):
    gid = pad(api, double_blank=0)
    data = hands_ok(api, gid, 1, {"Ana": 50, "Ben": 0})
    assert data["totals"] == {"Ana": 50, "Ben": 0}


@pytest.mark.parametrize(
    "hands, status, rule",
    [
        ({"Ana": ["1-2"], "Ben": ["2-1"]}, 422, "unique"),
        ({"Ana": ["1-2", "1-2"], "Ben": []}, 422, "unique"),
        ({"Ana": ["1-10"], "Ben": []}, 422, "tiles"),
        ({"Ana": True, "Ben": 0}, 400, None),
        ({"Ana": 2.5, "Ben": 0}, 400, None),
        ({"Ana": [1, 2], "Ben": 0}, 400, None),
        ({"Ana": None, "Ben": 0}, 400, None),
    ],
)
def test_scores_mode_hand_refusals(api, hands, status, rule):
    gid = pad(api)
    hands_refused(api, gid, 1, hands, status, rule)


def test_scores_mode_negative_points_refused(api):
    gid = pad(api)
    hands_refused(api, gid, 1, {"Ana": -3, "Ben": 0}, (400, 422))


def test_scores_mode_rounds_in_order(api):
    gid = pad(api)
    hands_refused(api, gid, 2, {"Ana": 1, "Ben": 0}, 404)
    hands_refused(api, gid, 0, {"Ana": 1, "Ben": 0}, 404)
    got, _data = api.post(f"/api/games/{gid}/rounds/one/hands", {"hands": {"Ana": 1, "Ben": 0}})
    assert got == 404


@pytest.mark.parametrize("highest, count, rounds", [(9, 2, 10), (15, 9, 16), (18, 12, 19)])
def test_whole_game_round_count(api, highest, count, rounds):
    players = [f"P{i}" for i in range(count)]
    gid = pad(api, players, set=highest)
    for number in range(1, rounds + 1):
        state = api.state(gid)
        assert state["status"] == "playing"
        assert state["round"]["double"] == f"{highest + 1 - number}-{highest + 1 - number}"
        entry = {p: 1 for p in players}
        entry["P1"] = 0
        data = hands_ok(api, gid, number, entry)
    assert data["status"] == "finished" and data["winners"] == ["P1"]
    assert data["round"]["double"] == "0-0" and len(data["rounds"]) == rounds
    hands_refused(api, gid, rounds + 1, {p: 0 for p in players}, (404, 422))
    games = {g["id"]: g for g in api.get("/api/games")[1]["games"]}
    assert games[gid]["status"] == "finished"


# ----- mt.winner / tie_break ----------------------------------------------------------------


def two_round_pad(api, tie_break=None, players=AB):
    options = {"first_double": 9, "last_double": 8}
    if tie_break:
        options["tie_break"] = tie_break
    return pad(api, players, **options)


@pytest.mark.parametrize(
    "tie_break, winners", [(None, ["Ana", "Ben"]), ("share", ["Ana", "Ben"]), ("chicken-foot", ["Ana"])]
)
def test_tie_decided_by_zero_point_rounds(api, tie_break, winners):
    gid = two_round_pad(api, tie_break)
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 5})
    data = hands_ok(api, gid, 2, {"Ana": 10, "Ben": 5})
    assert data["totals"] == {"Ana": 10, "Ben": 10}
    assert data["status"] == "finished" and sorted(data["winners"]) == winners


def test_tie_decided_by_the_lowest_non_zero_round(api):
    gid = pad(api, first_double=9, last_double=7, tie_break="chicken-foot")
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 0})
    hands_ok(api, gid, 2, {"Ana": 4, "Ben": 5})
    data = hands_ok(api, gid, 3, {"Ana": 6, "Ben": 5})
    assert data["totals"] == {"Ana": 10, "Ben": 10}
    assert data["winners"] == ["Ana"]


def test_tie_break_still_equal_shares(api):
    gid = two_round_pad(api, "chicken-foot")
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 4})
    data = hands_ok(api, gid, 2, {"Ana": 4, "Ben": 0})
    assert sorted(data["winners"]) == ["Ana", "Ben"]


def test_three_way_share(api):
    gid = two_round_pad(api, players=ABC)
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 3, "Caro": 1})
    data = hands_ok(api, gid, 2, {"Ana": 3, "Ben": 0, "Caro": 2})
    assert sorted(data["winners"]) == ABC


def test_tie_break_only_among_the_lowest(api):
    gid = two_round_pad(api, "chicken-foot", players=ABC)
    hands_ok(api, gid, 1, {"Ana": 0, "Ben": 6, "Caro": 0})
    data = hands_ok(api, gid, 2, {"Ana": 6, "Ben": 0, "Caro": 9})
    # Ana and Ben tie on 6 with one zero round each; Ana's lowest non-zero (6) = Ben's (6)
    assert sorted(data["winners"]) == ["Ana", "Ben"]


# ----- undo ------------------------------------------------------------------------------------


def test_undo_puts_a_removed_marker_back(api):
    gid = new(api)
    mark(api, gid, "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    before = api.state(gid)
    data = play(api, gid, "Ana", "9-5", "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is False
    data = ok(api, gid, type="undo")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert without_version(data) == without_version(before)


def test_undo_a_double_and_a_start(api):
    gid = new(api, ABC)
    ok(api, gid, type="start", player="Ben")
    play(api, gid, "Ben", "9-5", "Ben")
    before = api.state(gid)
    data = play(api, gid, "Caro", "9-6", "Caro")
    data = play(api, gid, "Ana", "9-8", "Ana")
    data = play(api, gid, "Ben", "5-5", "Ben")
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == ["5-5"]
    for _ in range(3):
        data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    ok(api, gid, type="undo")
    data = ok(api, gid, type="undo")  # the start
    assert data["round"]["turn"] == "Ana"
    refused(api, gid, {"type": "undo"}, 422)


def test_undo_with_a_stale_version_is_409(api):
    gid = new(api)
    ok(api, gid, type="draw", player="Ana")
    refused(api, gid, {"type": "undo", "version": 1}, 409)
    data = ok(api, gid, type="undo", version=2)
    assert data["round"]["boneyard"] == 24 and data["round"]["hands"]["Ana"] == 15


def test_undo_at_the_start_of_a_later_round_is_refused(api):
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": 3})
    refused(api, gid, {"type": "undo"}, 422)


def test_version_that_is_not_a_number_is_400(api):
    gid = new(api)
    refused(api, gid, {"type": "draw", "player": "Ana", "version": "1"}, 400)
    refused(api, gid, {"type": "draw", "player": "Ana", "version": True}, 400)


# ----- action shapes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "player": "Ana", "train": "Ana"},
        {"type": "play", "player": "Ana", "tile": 95, "train": "Ana"},
        {"type": "play", "player": "Ana", "tile": "9", "train": "Ana"},
        {"type": "play", "player": "Ana", "tile": "9-5-1", "train": "Ana"},
        {"type": "play", "player": "Ana", "tile": ["9", "5"], "train": "Ana"},
        {"type": "draw"},
        {"type": "draw", "player": 1},
        {"type": "jump", "player": "Ana"},
    ],
)
def test_malformed_actions_are_400(api, action):
    gid = new(api)
    refused(api, gid, action, 400, None)


def test_play_without_a_train_is_refused(api):
    gid = new(api)
    got, data = api.act(gid, type="play", player="Ana", tile="9-5")
    assert got in (400, 422) and data["error"]
    assert api.state(gid)["version"] == 1


def test_leave_is_not_a_mexican_train_action(api):
    gid = new(api)
    got, data = api.act(gid, type="leave", player="Ana")
    assert got in (400, 422) and data["error"]
    assert api.state(gid)["status"] == "playing"


# ----- hands entries in referee mode ---------------------------------------------------------


def test_correcting_round_one_leaves_the_round_in_progress_alone(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    play(api, gid, "Ana", "5-1", "Ana")  # Ana went out
    hands_ok(api, gid, 1, {"Ana": [], "Ben": ["2-3"]})
    data = play(api, gid, "Ben", "8-2", "mexican")  # round 2, Ben starts
    before = data["round"]
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0"]})
    assert data["round"] == before
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 50} and data["totals"] == {"Ana": 0, "Ben": 50}
    # still checked against round 1's log: Ben held one tile, Ana none
    hands_refused(api, gid, 1, {"Ana": [], "Ben": ["0-0", "1-2"]}, 422)
    hands_refused(api, gid, 1, {"Ana": ["1-2"], "Ben": ["0-0"]}, 422)


def test_hands_while_playing_book_every_hand(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    data = hands_ok(api, gid, 1, {"Ana": ["5-1"], "Ben": ["4-4"]})
    assert data["rounds"][0]["points"] == {"Ana": 6, "Ben": 8}
    assert data["round"]["number"] == 2 and data["round"]["status"] == "playing"


def test_undo_of_a_blocking_pass_reopens_the_round(api):
    gid = new(api, hand_size=27)
    ok(api, gid, type="pass", player="Ana")
    before = api.state(gid)
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["status"] == "scoring"
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    assert data["round"]["status"] == "playing" and data["round"]["end"] is None
