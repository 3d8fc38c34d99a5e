"""Kozel through the JSON API only (RULES.md §3, API.md), black-box."""

from __future__ import annotations

import pytest

from tests.helpers import (
    AB,
    MAOS,
    game_maker,
    hands_ok,
    hands_refused,
    ok,
    play_on,
    refused,
    rounds,
    without_version,
)

new = game_maker("kozel")
pad = game_maker("kozel", mode="scores", players=MAOS)
play = play_on


# ----- state, kz.players ---------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_initial_state(api, count):
    players = MAOS[:count]
    data = api.create(game="kozel", players=players)
    assert data["set"] == 6 and data["version"] == 1 and data["status"] == "playing"
    rnd = data["round"]
    assert rnd["number"] == 1 and rnd["double"] is None and rnd["status"] == "playing"
    assert rnd["turn"] is None  # round 1: until the lead is placed
    assert rnd["hands"] == {p: 7 for p in players}
    assert rnd["boneyard"] == 28 - 7 * count
    assert rnd["ends"] == [] and rnd["end"] is None
    assert data["remembered"] == {p: 0 for p in players} and data["pot"] == 0
    assert data["totals"] == {p: 0 for p in players}


def test_scores_mode_round_is_scoring_from_the_start(api):
    data = api.state(pad(api))
    assert data["round"]["status"] == "scoring" and data["round"]["turn"] is None


@pytest.mark.parametrize(
    "body, status, rule",
    [
        ({"game": "kozel", "players": ["A", "B"], "set": 9}, 422, "kz.players"),
        ({"game": "kozel", "players": ["A"]}, 422, "kz.players"),
        ({"game": "kozel", "players": ["A", "B", "C", "D", "E"]}, 422, "kz.players"),
        ({"game": "kozel", "players": ["A", "B"], "options": {"fish": "none"}}, 400, None),
        ({"game": "kozel", "players": ["A", "B"], "options": {"zero_zero": 50}}, 400, None),
        ({"game": "kozel", "players": ["A", "B"], "options": {"arms": 4}}, 400, None),
    ],
)
def test_kozel_tables_refused(api, body, status, rule):
    got, data = api.post("/api/games", body)
    assert got == status and data["rule"] == rule
    assert api.get("/api/games")[1]["games"] == []


# ----- kz.lead.first ------------------------------------------------------------------------


def test_four_players_only_1_1_can_lead(api):
    gid = new(api, MAOS)
    refused(api, gid, {"type": "play", "player": "Olya", "tile": "2-2"}, 422, "kz.lead.first")
    refused(api, gid, {"type": "play", "player": "Olya", "tile": "5-6"}, 422, "kz.lead.first")
    data = play(api, gid, "Olya", "1-1")
    assert data["round"]["turn"] == "Serg"  # clockwise from the leader
    assert sorted(data["round"]["ends"]) == [1, 1]
    assert data["round"]["hands"]["Olya"] == 6 and data["round"]["boneyard"] == 0


@pytest.mark.parametrize(
    "tile, allowed",
    [
        ("1-1", True),
        ("6-6", True),
        ("0-0", True),
        ("5-6", True),  # 7 tiles ahead at most
        ("4-6", False),
        ("1-2", False),  # more ahead than the bazaar
    ],
)
def test_three_players_lead_what_the_bazaar_could_explain(api, tile, allowed):
    gid = new(api, MAOS[:3])  # bazaar 7
    action = {"type": "play", "player": "Alex", "tile": tile}
    if allowed:
        data = ok(api, gid, **action)
        assert data["round"]["turn"] == "Olya"
    else:
        refused(api, gid, action, 422, "kz.lead.first")


@pytest.mark.parametrize("tile, allowed", [("0-0", True), ("2-5", True), ("3-4", False), ("0-1", False)])
def test_two_players_lead_order_reading(api, tile, allowed):
    """Bazaar 14: 1-1…6-6, 0-0, 5-6, 4-6, 3-6, 4-5, 2-6, 3-5, 1-6 come before 2-5 (14 tiles)."""
    gid = new(api)
    action = {"type": "play", "player": "Ben", "tile": tile}
    if allowed:
        ok(api, gid, **action)
    else:
        refused(api, gid, action, 422, "kz.lead.first")


def test_start_names_the_leader_in_round_1(api):
    gid = new(api, MAOS[:3])
    data = ok(api, gid, type="start", player="Olya")
    assert data["round"]["turn"] == "Olya"
    refused(api, gid, {"type": "play", "player": "Masha", "tile": "1-1"}, 422, "turn")
    play(api, gid, "Olya", "1-1")
    refused(api, gid, {"type": "start", "player": "Masha"}, 422)


def test_no_draw_or_knock_before_the_lead(api):
    gid = new(api)
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422)


# ----- kz.match, unique, turn -------------------------------------------------------------------


def test_line_ends_and_matching(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    data = play(api, gid, "Ben", "1-2", on="2-6")
    assert sorted(data["round"]["ends"]) == [1, 6]
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "3-4", "on": "1-2"}, 422, "kz.match")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "5-5", "on": "2-6"}, 422, "kz.match")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "4-6", "on": "3-3"}, 422, "kz.match")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "2-6", "on": "1-2"}, 422, "unique")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "6-6", "on": "2-6"}, 422, "turn")
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "6-7", "on": "2-6"}, 422, "tiles")
    data = play(api, gid, "Ana", "6-6", on="2-6")  # a double in line, like any tile
    assert sorted(data["round"]["ends"]) == [1, 6]
    data = play(api, gid, "Ben", "6-4", on="6-6")
    assert sorted(data["round"]["ends"]) == [1, 4]
    assert data["round"]["hands"] == {"Ana": 5, "Ben": 5}


def test_lead_takes_no_on(api):
    gid = new(api)
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "2-6", "on": "1-1"}, 422)


# ----- kz.bazaar ---------------------------------------------------------------------------------


def test_draw_from_the_bazaar_until_a_tile_fits(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    refused(api, gid, {"type": "pass", "player": "Ben"}, 422, "kz.bazaar")
    for count in range(1, 4):
        data = ok(api, gid, type="draw", player="Ben")
        assert data["round"]["boneyard"] == 14 - count and data["round"]["hands"]["Ben"] == 7 + count
        assert data["round"]["turn"] == "Ben"
    data = play(api, gid, "Ben", "6-5", on="2-6")
    assert data["round"]["hands"]["Ben"] == 9 and data["round"]["turn"] == "Ana"


def test_empty_bazaar_knock_but_no_draw(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    refused(api, gid, {"type": "draw", "player": "Alex"}, 422, "kz.bazaar")
    data = ok(api, gid, type="pass", player="Alex")
    assert data["round"]["turn"] == "Olya" and data["round"]["hands"]["Alex"] == 7


def test_bazaar_emptied_by_draws_then_knock(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    for _ in range(14):
        ok(api, gid, type="draw", player="Ben")
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422, "kz.bazaar")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["turn"] == "Ana" and data["round"]["boneyard"] == 0


# ----- kz.fish, kz.out ------------------------------------------------------------------------

SEED_FISH = [
    ("Ana", "2-6", None),
    ("Ben", "1-2", "2-6"),
    ("Ana", "0-6", "2-6"),
    ("Ben", "0-2", "0-6"),
    ("Ana", "1-4", "1-2"),
    ("Ben", "2-3", "0-2"),
    ("Ana", "3-5", "2-3"),
    ("Ben", "2-4", "1-4"),
]


def test_fish_from_the_table_seed_example(api):
    """1-2, 2-6, 0-2, 2-3 inside, 2-4 and 2-5 at the ends: a fish, even with 2-2 unseen."""
    gid = new(api)
    for player, tile, on in SEED_FISH:
        data = play(api, gid, player, tile, on)
        assert data["round"]["status"] == "playing"
    data = play(api, gid, "Ana", "2-5", "3-5")
    rnd = data["round"]
    assert rnd["ends"] == [2, 2]
    assert rnd["end"] == {"reason": "fish", "player": "Ana"}
    assert rnd["status"] == "scoring" and rnd["turn"] is None
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422)
    # the fisherman leads the next round
    data = hands_ok(api, gid, 1, {"Ana": ["0-0", "1-1"], "Ben": ["3-3", "4-4", "5-5"]})
    assert data["rounds"][0]["points"] == {"Ana": 2, "Ben": 24}
    assert data["round"]["number"] == 2 and data["round"]["turn"] == "Ana"
    assert data["remembered"] == {"Ana": 2, "Ben": 0} and data["totals"] == {"Ana": 0, "Ben": 24}
    refused(api, gid, {"type": "start", "player": "Ben"}, 422, "kz.lead.next")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "3-4"}, 422)
    data = play(api, gid, "Ana", "3-4")  # any tile
    assert data["round"]["turn"] == "Ben"


def test_no_fish_while_a_non_double_of_the_number_is_out(api):
    gid = new(api)
    for player, tile, on in SEED_FISH[:4]:
        data = play(api, gid, player, tile, on)
    # ends now 1 and 2; make them 2 and 2 without all the twos
    data = play(api, gid, "Ana", "1-5", "1-2")
    data = play(api, gid, "Ben", "5-2", "1-5")
    assert data["round"]["ends"] == [2, 2]
    assert data["round"]["end"] is None and data["round"]["status"] == "playing"


def test_fish_made_with_the_last_tile_is_a_domino(api):
    gid = new(api, MAOS)
    knock = lambda *names: [ok(api, gid, type="pass", player=n) for n in names]  # noqa: E731
    play(api, gid, "Masha", "1-1")
    play(api, gid, "Alex", "1-2", "1-1")
    play(api, gid, "Olya", "1-4", "1-1")
    knock("Serg")
    play(api, gid, "Masha", "2-6", "1-2")
    play(api, gid, "Alex", "2-4", "1-4")
    knock("Olya", "Serg")
    for tile, on in [("0-6", "2-6"), ("0-2", "0-6"), ("2-3", "0-2"), ("3-5", "2-3")]:
        data = play(api, gid, "Masha", tile, on)
        assert data["round"]["status"] == "playing"
        knock("Alex", "Olya", "Serg")
    data = play(api, gid, "Masha", "2-5", "3-5")
    assert data["round"]["ends"] == [2, 2]
    assert data["round"]["end"] == {"reason": "domino", "player": "Masha"}
    assert data["round"]["hands"]["Masha"] == 0


def test_went_out_player_leads_next_round(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    data = hands_ok(api, gid, 1, {"Masha": 10, "Alex": 0, "Olya": 5, "Serg": 7})
    assert data["round"]["end"] is None and data["round"]["number"] == 2
    assert data["round"]["turn"] == "Alex"
    refused(api, gid, {"type": "start", "player": "Olya"}, 422, "kz.lead.next")
    data = ok(api, gid, type="start", player="Alex")
    assert data["round"]["turn"] == "Alex"
    play(api, gid, "Alex", "5-5")


def test_fish_entered_as_hands_leaves_the_next_leader_unknown(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    data = hands_ok(api, gid, 1, {"Masha": 10, "Alex": 3, "Olya": 5, "Serg": 7})
    assert data["round"]["number"] == 2 and data["round"]["turn"] is None


def test_hands_in_referee_mode_are_checked(api):
    gid = new(api)
    play(api, gid, "Ana", "2-6")
    hands_refused(
        api,
        gid,
        1,
        {"Ana": ["6-2"] + ["1-1"] * 0 + ["0-1", "0-3", "0-4", "0-5", "1-3"], "Ben": 5},
        422,
        "unique",
    )
    hands_refused(api, gid, 1, {"Ana": ["0-1"], "Ben": 5}, 422)  # Ana holds 6
    hands_refused(
        api, gid, 1, {"Ana": 5, "Ben": ["0-1", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]}, 422, "unique"
    )
    hands_refused(
        api, gid, 1, {"Ana": 5, "Ben": ["0-7", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]}, 422, "tiles"
    )
    data = hands_ok(
        api,
        gid,
        1,
        {
            "Ana": ["0-1", "0-3", "0-4", "0-5", "1-3", "1-4"],
            "Ben": ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
        },
    )
    assert data["rounds"][0]["points"] == {"Ana": 1 + 3 + 4 + 5 + 4 + 5, "Ben": 42}


# ----- scoring: kz.score.* --------------------------------------------------------------------


def worked_example_before(api, **options):
    gid = pad(api, **options)
    # Masha +19, Alex 0, Olya +7, Serg +4 (Alex went out twice)
    data = rounds(
        api,
        gid,
        {"Masha": 12, "Alex": [], "Olya": 3, "Serg": 2},
        {"Masha": 7, "Alex": 0, "Olya": 4, "Serg": 2},
    )
    assert data["remembered"] == {"Masha": 19, "Alex": 0, "Olya": 7, "Serg": 4}
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    return gid


def test_worked_example_someone_went_out(api):
    gid = worked_example_before(api)
    data = rounds(api, gid, {"Masha": [], "Alex": 3, "Olya": 13, "Serg": 5})
    assert data["rounds"][-1]["points"] == {"Masha": 0, "Alex": 3, "Olya": 13, "Serg": 5}
    assert data["remembered"]["Masha"] == 0  # kz.score.reset
    assert data["remembered"]["Alex"] == 3
    assert data["totals"]["Olya"] == 20  # kz.score.open
    assert data["remembered"].get("Olya", 0) == 0
    assert data["remembered"]["Serg"] == 9
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 20, "Serg": 0}
    # an open account books every score at once, however small; going out leaves it alone
    data = rounds(api, gid, {"Masha": 1, "Alex": 2, "Olya": 2, "Serg": 0})
    assert data["totals"]["Olya"] == 22 and data["remembered"]["Serg"] == 0
    data = rounds(api, gid, {"Masha": 1, "Alex": 2, "Olya": [], "Serg": 1})
    assert data["totals"]["Olya"] == 22 and data["remembered"]["Alex"] == 7


def test_twelve_is_remembered_thirteen_opens(api):
    gid = pad(api, AB)
    data = rounds(api, gid, {"Ana": 12, "Ben": []})
    assert data["remembered"]["Ana"] == 12 and data["totals"]["Ana"] == 0
    data = rounds(api, gid, {"Ana": 12, "Ben": []})
    assert data["remembered"]["Ana"] == 24 and data["totals"]["Ana"] == 0
    data = rounds(api, gid, {"Ana": 13, "Ben": []})
    assert data["totals"]["Ana"] == 37 and data["remembered"].get("Ana", 0) == 0


@pytest.mark.parametrize(
    "hand, option, points",
    [
        (["0-0"], None, 10),
        (["0-0"], 25, 25),
        (["0-0"], 10, 10),
        (["0-0", "1-2"], None, 3),
        (["0-0", "0-1"], 25, 1),
        (["6-6", "5-6"], None, 23),
    ],
)
def test_zero_zero(api, hand, option, points):
    gid = pad(api, AB, **({"zero_zero": option} if option else {}))
    data = rounds(api, gid, {"Ana": hand, "Ben": []})
    assert data["rounds"][0]["points"]["Ana"] == points


def test_kozel_pad_checks_tiles(api):
    gid = pad(api, AB)
    hands_refused(api, gid, 1, {"Ana": ["1-2", "2-1"], "Ben": []}, 422, "unique")
    hands_refused(api, gid, 1, {"Ana": ["1-2"], "Ben": ["2-1"]}, 422, "unique")
    hands_refused(api, gid, 1, {"Ana": ["1-9"], "Ben": []}, 422, "tiles")
    hands_refused(api, gid, 1, {"Ana": [], "Ben": 0}, 422)  # only one player goes out


# ----- fish scoring ----------------------------------------------------------------------------


def test_fish_for_all_is_the_default_and_resets_nobody(api):
    gid = worked_example_before(api)
    data = rounds(api, gid, {"Masha": 2, "Alex": 3, "Olya": 13, "Serg": 5})
    assert data["remembered"] == {"Masha": 21, "Alex": 3, "Olya": 0, "Serg": 9}
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 20, "Serg": 0}
    assert data["pot"] == 0


def test_fish_to_one_seed_example(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 4, "Alex": [], "Olya": 7, "Serg": 5})
    data = rounds(api, gid, {"Masha": 2, "Alex": 3, "Olya": 13, "Serg": 5})
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 30, "Serg": 0}
    assert data["remembered"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    assert data["rounds"][-1]["points"] == {"Masha": 2, "Alex": 3, "Olya": 13, "Serg": 5}


def test_fish_to_one_small_sum_is_remembered(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 4, "Alex": [], "Olya": 1, "Serg": 2})
    data = rounds(api, gid, {"Masha": 2, "Alex": 3, "Olya": 4, "Serg": 1})
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    assert data["remembered"] == {"Masha": 0, "Alex": 0, "Olya": 11, "Serg": 0}


def test_fish_pot_then_taken_by_the_single_highest_after_a_domino(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 4, "Alex": [], "Olya": 7, "Serg": 5})
    data = rounds(api, gid, {"Masha": 2, "Alex": 7, "Olya": 13, "Serg": 13})
    assert data["pot"] == 35
    assert data["remembered"] == {"Masha": 4, "Alex": 0, "Olya": 7, "Serg": 5}  # nobody books
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    data = rounds(api, gid, {"Masha": 4, "Alex": [], "Olya": 6, "Serg": 8})
    assert data["pot"] == 0
    assert data["totals"] == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 5 + 8 + 35}
    assert data["remembered"] == {"Masha": 8, "Alex": 0, "Olya": 13, "Serg": 0}


def test_fish_pot_grows_after_a_tied_fish_and_waits_after_a_tied_domino(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 2, "Alex": 7, "Olya": 13, "Serg": 13})  # pot 35
    data = rounds(api, gid, {"Masha": 5, "Alex": 5, "Olya": 1, "Serg": 2})  # tie again
    assert data["pot"] == 35 + 13
    assert data["remembered"] == {n: 0 for n in MAOS}
    data = rounds(api, gid, {"Masha": 6, "Alex": [], "Olya": 6, "Serg": 1})  # tie, went out
    assert data["pot"] == 48
    assert data["remembered"] == {"Masha": 6, "Alex": 0, "Olya": 6, "Serg": 1}  # booked as usual
    data = rounds(api, gid, {"Masha": 1, "Alex": 9, "Olya": 3, "Serg": []})  # Alex single highest
    assert data["pot"] == 0
    assert data["totals"]["Alex"] == 9 + 48
    assert data["remembered"] == {"Masha": 7, "Alex": 0, "Olya": 9, "Serg": 0}


def test_pot_is_taken_in_a_fish_to_one_round(api):
    gid = pad(api, fish="one")
    rounds(api, gid, {"Masha": 2, "Alex": 7, "Olya": 13, "Serg": 13})  # pot 35
    data = rounds(api, gid, {"Masha": 1, "Alex": 2, "Olya": 3, "Serg": 4})  # Serg single highest
    assert data["pot"] == 0 and data["totals"]["Serg"] == 10 + 35


# ----- kz.goat and kz.rating -----------------------------------------------------------------


def test_goat_and_rating(api):
    gid = pad(api)
    rounds(api, gid, {"Masha": 25, "Alex": [], "Olya": 60, "Serg": 60})
    data = rounds(api, gid, {"Masha": 1, "Alex": [], "Olya": 39, "Serg": 50})
    assert data["totals"] == {"Masha": 26, "Alex": 0, "Olya": 99, "Serg": 110}
    assert data["status"] == "finished"
    assert data["goats"] == ["Serg"]
    assert data["rating"] == {"Masha": 7, "Alex": 10, "Olya": 1}  # 7.4 → 7, 10, 0.1 → at least 1
    refused(api, gid, {"type": "leave", "player": "Masha"}, 422)
    got, _ = api.hands(gid, 3, {"Masha": 1, "Alex": [], "Olya": 1, "Serg": 1})
    assert got in (404, 422)
    assert api.state(gid)["status"] == "finished"


@pytest.mark.parametrize("own, rating", [(25, 8), (75, 3), (85, 2), (15, 9), (35, 7), (95, 1)])
def test_rating_rounds_half_up(api, own, rating):
    gid = pad(api, AB)
    data = rounds(api, gid, {"Ana": own, "Ben": 101})
    assert data["goats"] == ["Ben"] and data["rating"] == {"Ana": rating}


def test_remembered_points_do_not_make_a_goat(api):
    gid = pad(api, AB, lose_at=30)
    for _ in range(3):
        data = rounds(api, gid, {"Ana": 12, "Ben": []})
    assert data["remembered"]["Ana"] == 36 and data["status"] == "playing"
    data = rounds(api, gid, {"Ana": 1, "Ben": 29})
    assert data["status"] == "playing"
    data = rounds(api, gid, {"Ana": 13, "Ben": []})  # opens with 36 + 1 + 13 = 50
    assert data["status"] == "finished" and data["goats"] == ["Ana"]
    assert data["totals"]["Ana"] == 50


@pytest.mark.parametrize(
    "hands, goats",
    [
        ({"Masha": 40, "Alex": [], "Olya": 35, "Serg": 1}, ["Masha"]),
        ({"Masha": 40, "Alex": [], "Olya": 40, "Serg": 1}, ["Masha", "Olya"]),
    ],
)
def test_several_reach_lose_at(api, hands, goats):
    gid = pad(api, lose_at=30)
    data = rounds(api, gid, hands)
    assert data["status"] == "finished" and sorted(data["goats"]) == sorted(goats)
    assert set(data["rating"]) == set(MAOS) - set(goats)


@pytest.mark.parametrize("mode", ["scores", "referee"])
def test_leave(api, mode):
    gid = new(api, MAOS, mode=mode)
    hands = {"Masha": 30, "Alex": 32, "Olya": 13, "Serg": 0}
    data = hands_ok(api, gid, 1, hands)
    assert data["totals"] == {"Masha": 30, "Alex": 32, "Olya": 13, "Serg": 0}
    data = ok(api, gid, type="leave", player="Alex")
    assert data["status"] == "finished" and data["goats"] == [] and data["left"] == "Alex"
    assert data["rating"] == {"Masha": 1, "Olya": 2, "Serg": 3}
    refused(api, gid, {"type": "leave", "player": "Masha"}, 422)
    got, _ = api.hands(gid, 2, {"Masha": 1, "Alex": 1, "Olya": 1, "Serg": 0})
    assert got in (404, 422)


def test_leave_is_kozel_only(api):
    gid = api.create(game="mexican-train", players=AB, set=9)["id"]
    refused(api, gid, {"type": "leave", "player": "Ana"}, 422)


# ----- corrections --------------------------------------------------------------------------------


def test_correction_recomputes_later_bookings(api):
    gid = pad(api, AB)
    rounds(api, gid, {"Ana": 10, "Ben": []}, {"Ana": 5, "Ben": []})
    data = api.state(gid)
    assert data["remembered"]["Ana"] == 15 and data["totals"]["Ana"] == 0
    data = hands_ok(api, gid, 1, {"Ana": 20, "Ben": []})
    assert data["totals"]["Ana"] == 25 and data["remembered"]["Ana"] == 0
    assert data["round"]["number"] == 3


def test_correction_changes_who_went_out(api):
    gid = pad(api, AB)
    rounds(api, gid, {"Ana": 10, "Ben": []}, {"Ana": 5, "Ben": 3}, {"Ana": 4, "Ben": []})
    assert api.state(gid)["remembered"] == {"Ana": 19, "Ben": 0}
    data = hands_ok(api, gid, 3, {"Ana": [], "Ben": 4})
    assert data["remembered"] == {"Ana": 0, "Ben": 7}


def test_undo_in_a_kozel_round(api):
    gid = new(api)
    start = api.state(gid)
    play(api, gid, "Ana", "2-6")
    ok(api, gid, type="draw", player="Ben")
    ok(api, gid, type="undo")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(start)
    refused(api, gid, {"type": "undo"}, 422)


def test_unknown_leader_can_be_named_by_start(api):
    gid = new(api, MAOS)
    play(api, gid, "Masha", "1-1")
    hands_ok(api, gid, 1, {"Masha": 10, "Alex": 3, "Olya": 5, "Serg": 7})
    data = ok(api, gid, type="start", player="Olya")
    assert data["round"]["turn"] == "Olya"
    data = play(api, gid, "Olya", "0-3")  # later rounds: any tile leads
    assert data["round"]["turn"] == "Serg"


def test_finished_game_shows_the_last_round(api):
    gid = pad(api, AB)
    rounds(api, gid, {"Ana": 5, "Ben": []})
    data = rounds(api, gid, {"Ana": 120, "Ben": []})
    assert data["status"] == "finished" and data["round"]["number"] == 2
    assert data["round"]["status"] == "done" and len(data["rounds"]) == 2


def test_referee_correction_of_an_earlier_kozel_round(api):
    gid = new(api, AB)
    play(api, gid, "Ana", "2-6")
    hands_ok(api, gid, 1, {"Ana": 5, "Ben": 0})  # Ben went out
    play(api, gid, "Ben", "3-4")
    hands_ok(api, gid, 2, {"Ana": 10, "Ben": 0})
    assert api.state(gid)["remembered"] == {"Ana": 15, "Ben": 0}
    hands_refused(
        api, gid, 1, {"Ana": ["2-6", "0-1", "0-2", "0-3", "0-4", "0-5"], "Ben": 0}, 422, "unique"
    )  # 2-6 was on round 1's table
    data = hands_ok(api, gid, 1, {"Ana": 20, "Ben": 0})
    assert data["totals"] == {"Ana": 30, "Ben": 0} and data["remembered"]["Ana"] == 0
    assert data["round"]["number"] == 3


def test_leave_mid_round_in_referee_mode(api):
    gid = new(api, AB)
    play(api, gid, "Ana", "2-6")
    data = ok(api, gid, type="leave", player="Ben")
    assert data["status"] == "finished" and data["left"] == "Ben" and data["goats"] == []
    assert data["rating"] == {"Ana": 1}
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "6-6", "on": "2-6"}, 422)


def test_correction_can_take_back_a_goat(api):
    gid = pad(api, AB)
    rounds(api, gid, {"Ana": 50, "Ben": []})
    data = rounds(api, gid, {"Ana": 60, "Ben": []})
    assert data["status"] == "finished" and data["goats"] == ["Ana"]
    data = hands_ok(api, gid, 2, {"Ana": 6, "Ben": []})
    assert data["status"] == "playing" and data["totals"]["Ana"] == 56
    assert data["round"]["number"] == 3
    data = hands_ok(api, gid, 3, {"Ana": 45, "Ben": []})
    assert data["status"] == "finished" and data["goats"] == ["Ana"] and data["rating"] == {"Ben": 10}


def test_undo_after_a_leave_takes_back_the_leave_or_is_refused(api):
    gid = pad(api, ["Alex", "Masha", "Olya"])
    before = hands_ok(api, gid, 1, {"Alex": 30, "Masha": 0, "Olya": 20})
    ok(api, gid, type="leave", player="Alex")
    left = api.state(gid)
    status, data = api.act(gid, type="undo")
    if status == 200:
        assert without_version(data) == without_version(before)
    else:
        assert status == 422 and api.state(gid) == left
