"""Mexican Train through the JSON API only (RULES.md §1, API.md), black-box."""

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

new = game_maker("mexican-train", set=9, mode=None)
play = play_train


# ----- mt.deal / hidden: the deal and the boneyard ----------------------------------------

DEAL = [(12, n, h) for n, h in {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9}.items()] + [
    (9, n, h) for n, h in {2: 15, 3: 13, 4: 10}.items()
]


@pytest.mark.parametrize("highest, count, hand", DEAL)
def test_deal_table_and_boneyard(api, highest, count, hand):
    players = [f"P{i}" for i in range(count)]
    data = api.create(game="mexican-train", players=players, set=highest)
    size = (highest + 1) * (highest + 2) // 2
    assert data["round"]["hands"] == {p: hand for p in players}
    assert data["round"]["boneyard"] == size - 1 - count * hand  # the engine is set aside
    assert data["round"]["double"] == f"{highest}-{highest}"


@pytest.mark.parametrize("highest, count", [(15, 9), (15, 12), (18, 9), (18, 12)])
def test_big_sets_default_to_eleven(api, highest, count):
    players = [f"P{i}" for i in range(count)]
    data = api.create(game="mexican-train", players=players, set=highest)
    size = (highest + 1) * (highest + 2) // 2
    assert set(data["round"]["hands"].values()) == {11}
    assert data["round"]["boneyard"] == size - 1 - 11 * count


def test_hand_size_override_and_its_limit(api):
    # players × hand + 1 ≤ tiles in the set
    status, data = api.post(
        "/api/games", {"game": "mexican-train", "players": AB, "set": 9, "options": {"hand_size": 27}}
    )
    assert status == 201 and data["round"]["boneyard"] == 0
    status, data = api.post(
        "/api/games", {"game": "mexican-train", "players": AB, "set": 9, "options": {"hand_size": 28}}
    )
    assert status == 422 and data["rule"] in ("mt.deal", "mt.players")


def test_initial_state(api):
    data = api.create(game="mexican-train", players=ABC, set=12)
    rnd = data["round"]
    assert data["version"] == 1 and data["status"] == "playing" and data["mode"] == "referee"
    assert rnd["number"] == 1 and rnd["status"] == "playing" and rnd["turn"] == "Ana"
    assert rnd["end"] is None and rnd["double"] == "12-12"
    assert set(rnd["trains"]) == {"Ana", "Ben", "Caro", "mexican"}
    for train in rnd["trains"].values():
        assert train == {"tiles": [], "open": 12, "marker": False} or (
            train["tiles"] == [] and train["open"] == 12 and train["marker"] is False
        )
    assert rnd["open_doubles"] == []
    assert data["rounds"] == [] and data["totals"] == {"Ana": 0, "Ben": 0, "Caro": 0}
    assert data["winners"] == []


# ----- mt.match, mt.train.available, turn, unique, tiles ----------------------------------


def test_a_play_turns_the_tile_and_moves_the_turn(api):
    gid = new(api, ABC, set=12)
    data = play(api, gid, "Ana", "12-5", "Ana")
    rnd = data["round"]
    assert rnd["trains"]["Ana"]["tiles"] == ["5-12"]  # smaller half first
    assert rnd["trains"]["Ana"]["open"] == 5
    assert rnd["hands"] == {"Ana": 15, "Ben": 16, "Caro": 16}
    assert rnd["boneyard"] == 91 - 1 - 48
    assert rnd["turn"] == "Ben"
    data = play(api, gid, "Ben", "12-3", "mexican")
    assert (
        data["round"]["trains"]["mexican"] == {"tiles": ["3-12"], "open": 3, "marker": False}
        or data["round"]["trains"]["mexican"]["open"] == 3
    )
    assert data["round"]["turn"] == "Caro"
    data = play(api, gid, "Caro", "3-4", "mexican")
    assert data["round"]["trains"]["mexican"]["tiles"] == ["3-12", "3-4"]
    assert data["round"]["trains"]["mexican"]["open"] == 4
    assert data["round"]["turn"] == "Ana"  # clockwise, in the order entered


@pytest.mark.parametrize(
    "action, rule",
    [
        ({"type": "play", "player": "Ana", "tile": "5-4", "train": "Ana"}, "mt.match"),
        ({"type": "play", "player": "Ana", "tile": "5-4", "train": "mexican"}, "mt.match"),
        ({"type": "play", "player": "Ana", "tile": "9-4", "train": "Ben"}, "mt.train.available"),
        ({"type": "play", "player": "Ben", "tile": "9-4", "train": "Ben"}, "turn"),
        ({"type": "draw", "player": "Ben"}, "turn"),
        ({"type": "pass", "player": "Ben"}, "turn"),
        ({"type": "play", "player": "Ana", "tile": "9-9", "train": "Ana"}, "unique"),
        ({"type": "play", "player": "Ana", "tile": "10-9", "train": "Ana"}, "tiles"),
        ({"type": "pass", "player": "Ana"}, "mt.marker.place"),
    ],
)
def test_refused_plays_at_the_start(api, action, rule):
    gid = new(api)
    refused(api, gid, action, 422, rule)


def test_unknown_train_is_refused(api):
    gid = new(api)
    got, data = api.act(gid, type="play", player="Ana", tile="9-4", train="Zed")
    assert got in (400, 422) and data["error"]


def test_a_tile_already_on_the_table_is_refused(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "5-9", "train": "Ben"}, 422, "unique")


def test_one_tile_per_turn(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": "5-4", "train": "Ana"},
        422,
        rules=("mt.one-tile", "turn"),
    )


# ----- mt.draw, mt.marker.place / remove ---------------------------------------------------


def test_draw_then_pass_marks_the_train(api):
    gid = new(api)
    data = ok(api, gid, type="draw", player="Ana")
    assert data["round"]["boneyard"] == 23 and data["round"]["hands"]["Ana"] == 16
    assert data["round"]["turn"] == "Ana"
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422, "mt.draw")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert data["round"]["turn"] == "Ben"
    assert data["round"]["boneyard"] == 23 and data["round"]["hands"]["Ana"] == 16


def test_a_drawn_tile_may_be_played_at_once(api):
    gid = new(api)
    ok(api, gid, type="draw", player="Ana")
    data = play(api, gid, "Ana", "9-2", "Ana")
    assert data["round"]["hands"]["Ana"] == 15 and data["round"]["turn"] == "Ben"


def test_marked_train_is_open_to_everyone_until_its_owner_plays_on_it(api):
    gid = new(api, ABC)
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")
    data = play(api, gid, "Ben", "9-5", "Ana")  # marked: Ben may play on it
    assert data["round"]["trains"]["Ana"]["marker"] is True  # playing elsewhere leaves it on
    refused(
        api, gid, {"type": "play", "player": "Caro", "tile": "9-4", "train": "Ben"}, 422, "mt.train.available"
    )
    play(api, gid, "Caro", "5-4", "Ana")
    data = play(api, gid, "Ana", "9-3", "mexican")
    assert data["round"]["trains"]["Ana"]["marker"] is True  # the owner played elsewhere
    play(api, gid, "Ben", "9-8", "Ben")
    play(api, gid, "Caro", "9-7", "Caro")
    data = play(api, gid, "Ana", "4-1", "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is False  # mt.marker.remove
    assert data["round"]["trains"]["Ana"]["tiles"] == ["5-9", "4-5", "1-4"]


def test_empty_boneyard_no_draw_but_pass(api):
    gid = new(api, hand_size=27)
    assert api.state(gid)["round"]["boneyard"] == 0
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422, "mt.draw")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True and data["round"]["turn"] == "Ben"


# ----- doubles -------------------------------------------------------------------------------


def opening(api, gid):
    """Ana's train open at 5, the Mexican train open at 4; Ana to play."""
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "mexican")


def test_a_double_plays_again_and_the_follow_up_may_go_anywhere_available(api):
    gid = new(api)
    opening(api, gid)
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["turn"] == "Ana"
    assert data["round"]["open_doubles"] == ["5-5"]  # the current turn's included
    assert data["round"]["hands"]["Ana"] == 13
    data = play(api, gid, "Ana", "4-1", "mexican")  # not on the double: allowed
    assert data["round"]["turn"] == "Ben"
    assert data["round"]["open_doubles"] == ["5-5"]  # now open (mt.double.open)
    refused(
        api, gid, {"type": "play", "player": "Ben", "tile": "1-2", "train": "mexican"}, 422, "mt.double.open"
    )
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-2", "train": "Ben"}, 422, "mt.double.open")
    data = play(api, gid, "Ben", "5-2", "Ana")  # satisfies it, even on Ana's unmarked train
    assert data["round"]["open_doubles"] == []
    assert data["round"]["trains"]["Ana"]["tiles"] == ["5-9", "5-5", "2-5"]
    assert data["round"]["trains"]["Ana"]["marker"] is False
    play(api, gid, "Ana", "1-3", "mexican")  # the usual rules resume


def test_after_a_double_one_more_draw_and_pass_only_after_it(api):
    gid = new(api)
    opening(api, gid)
    ok(api, gid, type="draw", player="Ana")
    play(api, gid, "Ana", "5-5", "Ana")  # the drawn tile, a double
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422, "mt.marker.place")
    ok(api, gid, type="draw", player="Ana")  # a second draw: one more after each double
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422, "mt.draw")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == ["5-5"]
    ok(api, gid, type="draw", player="Ben")
    ok(api, gid, type="pass", player="Ben")
    # its own player is bound by it on a later turn
    refused(
        api, gid, {"type": "play", "player": "Ana", "tile": "4-1", "train": "mexican"}, 422, "mt.double.open"
    )
    data = play(api, gid, "Ana", "5-6", "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is False  # the owner played on it


def test_double_on_a_marked_train_binds_everyone_and_keeps_the_marker(api):
    gid = new(api, ABC)
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")  # Ana's train marked
    play(api, gid, "Ben", "9-5", "Ana")
    play(api, gid, "Caro", "5-5", "Ana")  # a double on Ana's marked train
    ok(api, gid, type="draw", player="Caro")
    ok(api, gid, type="pass", player="Caro")
    refused(
        api, gid, {"type": "play", "player": "Ana", "tile": "9-1", "train": "mexican"}, 422, "mt.double.open"
    )
    data = play(api, gid, "Ana", "5-1", "Ana")  # the owner satisfies it
    assert data["round"]["trains"]["Ana"]["marker"] is False
    assert data["round"]["open_doubles"] == []


def test_marker_stays_when_someone_else_satisfies_a_double_on_a_marked_train(api):
    gid = new(api, ABC)
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")
    play(api, gid, "Ben", "9-5", "Ana")
    play(api, gid, "Caro", "5-5", "Ana")
    ok(api, gid, type="draw", player="Caro")
    ok(api, gid, type="pass", player="Caro")
    ok(api, gid, type="draw", player="Ana")
    ok(api, gid, type="pass", player="Ana")
    data = play(api, gid, "Ben", "5-1", "Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    assert data["round"]["open_doubles"] == []


def two_doubles(api, order):
    gid = new(api, doubles_order=order)
    opening(api, gid)
    play(api, gid, "Ana", "5-5", "Ana")
    data = play(api, gid, "Ana", "4-4", "mexican")
    assert data["round"]["turn"] == "Ana"
    return gid, data


def test_two_doubles_in_a_turn_oldest(api):
    gid, data = two_doubles(api, "oldest")
    assert data["round"]["open_doubles"] == ["5-5", "4-4"]
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": "4-1", "train": "mexican"},
        422,
        rules=("mt.double.follow", "mt.double.order"),
    )
    data = play(api, gid, "Ana", "5-1", "Ana")
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == ["4-4"]


def test_two_doubles_in_a_turn_newest(api):
    gid, data = two_doubles(api, "newest")
    assert data["round"]["open_doubles"] == ["4-4", "5-5"]
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": "5-1", "train": "Ana"},
        422,
        rules=("mt.double.follow", "mt.double.order"),
    )
    data = play(api, gid, "Ana", "4-1", "mexican")
    assert data["round"]["turn"] == "Ben" and data["round"]["open_doubles"] == ["5-5"]


@pytest.mark.parametrize(
    "order, first, second",
    [("oldest", ("5-1", "Ana"), ("4-1", "mexican")), ("newest", ("4-1", "mexican"), ("5-1", "Ana"))],
)
def test_open_doubles_from_an_earlier_turn_in_order(api, order, first, second):
    gid, _ = two_doubles(api, order)
    ok(api, gid, type="draw", player="Ana")
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["trains"]["Ana"]["marker"] is True
    refused(
        api,
        gid,
        {"type": "play", "player": "Ben", "tile": second[0], "train": second[1]},
        422,
        "mt.double.order",
    )
    data = play(api, gid, "Ben", first[0], first[1])
    assert len(data["round"]["open_doubles"]) == 1
    assert data["round"]["turn"] == "Ana"


def test_dead_double_does_not_restrict(api):
    """mt.double.dead: every other 5 is on the table when 5-5 is laid."""
    gid = new(api)
    ok(api, gid, type="draw", player="Ana")  # Ana holds 16: she will not go out
    chain = ["9-5", "5-0", "0-1", "1-5", "5-2", "2-3", "3-5", "5-4", "4-6", "6-5", "5-7", "7-8", "8-5"]
    for tile in chain:
        play(api, gid, "Ana", tile, "Ana")
        ok(api, gid, type="draw", player="Ben")
        ok(api, gid, type="pass", player="Ben")
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["open_doubles"] == []
    player = data["round"]["turn"]
    play(api, gid, player, "9-0", "mexican")
    player = api.state(gid)["round"]["turn"]
    data = play(api, gid, player, "0-2", "mexican")
    assert data["round"]["open_doubles"] == []


def test_dead_double_is_skipped_when_two_doubles_need_a_follow_up(api):
    gid = new(api)
    ok(api, gid, type="draw", player="Ana")
    chain = ["9-5", "5-0", "0-1", "1-5", "5-2", "2-3", "3-5", "5-4", "4-6", "6-5", "5-7", "7-8", "8-5"]
    for number, tile in enumerate(chain):
        if number == 1:
            ok(api, gid, type="draw", player="Ana")  # Ana holds 17: she will not go out
        play(api, gid, "Ana", tile, "Ana")
        if number == 0:
            play(api, gid, "Ben", "9-6", "mexican")
        else:
            ok(api, gid, type="draw", player="Ben")
            ok(api, gid, type="pass", player="Ben")
    play(api, gid, "Ana", "5-5", "Ana")  # dead at once
    data = play(api, gid, "Ana", "6-6", "mexican")
    assert data["round"]["open_doubles"] == ["6-6"] and data["round"]["turn"] == "Ana"
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": "9-0", "train": "Ben"},
        422,
        rules=("mt.double.follow", "mt.double.order"),
    )
    data = play(api, gid, "Ana", "6-2", "mexican")
    assert data["round"]["open_doubles"] == [] and data["round"]["turn"] == "Ben"


# ----- end of round ------------------------------------------------------------------------


def test_last_tile_ends_the_round_domino(api):
    gid = new(api, hand_size=1)
    data = play(api, gid, "Ana", "9-5", "Ana")
    rnd = data["round"]
    assert rnd["status"] == "scoring" and rnd["turn"] is None
    assert rnd["end"] == {"reason": "domino", "player": "Ana"}
    assert rnd["hands"] == {"Ana": 0, "Ben": 1}
    refused(api, gid, {"type": "play", "player": "Ben", "tile": "9-4", "train": "Ben"}, 422)
    refused(api, gid, {"type": "draw", "player": "Ben"}, 422)


def test_a_last_double_needs_no_follow_up(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["end"] == {"reason": "domino", "player": "Ana"}
    assert data["round"]["status"] == "scoring" and data["round"]["turn"] is None


def test_blocked_when_everyone_passed_with_an_empty_boneyard(api):
    gid = new(api, hand_size=27)
    ok(api, gid, type="pass", player="Ana")
    data = play(api, gid, "Ben", "9-1", "Ben")
    assert data["round"]["status"] == "playing"
    data = ok(api, gid, type="pass", player="Ana")
    assert data["round"]["status"] == "playing" and data["round"]["end"] is None
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["end"] == {"reason": "blocked", "player": None}
    assert data["round"]["status"] == "scoring" and data["round"]["turn"] is None
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422)


def test_blocked_when_the_boneyard_empties_during_the_passes(api):
    gid = new(api, hand_size=26)  # boneyard 2
    for player in AB:
        ok(api, gid, type="draw", player=player)
        data = ok(api, gid, type="pass", player=player)
    assert data["round"]["boneyard"] == 0
    assert data["round"]["end"] == {"reason": "blocked", "player": None}


def test_not_blocked_while_the_boneyard_has_tiles(api):
    gid = new(api, hand_size=25)  # boneyard 4
    for player in AB:
        ok(api, gid, type="draw", player=player)
        data = ok(api, gid, type="pass", player=player)
    assert data["round"]["boneyard"] == 2
    assert data["round"]["end"] is None and data["round"]["status"] == "playing"


# ----- undo and version ---------------------------------------------------------------------


def test_play_then_undo_equals_before(api):
    gid = new(api, ABC)
    ok(api, gid, type="draw", player="Ana")
    before = api.state(gid)
    ok(api, gid, type="pass", player="Ana")
    play(api, gid, "Ben", "9-5", "Ana")
    data = ok(api, gid, type="undo")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)
    assert data["version"] == before["version"] + 4


def test_undo_down_to_the_round_start_and_no_further(api):
    gid = new(api)
    start = api.state(gid)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "mexican")
    play(api, gid, "Ana", "5-5", "Ana")
    for _ in range(3):
        data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(start)
    refused(api, gid, {"type": "undo"}, 422)


def test_undo_after_the_round_ended(api):
    gid = new(api, hand_size=1)
    before = api.state(gid)
    play(api, gid, "Ana", "9-5", "Ana")
    data = ok(api, gid, type="undo")
    assert without_version(data) == without_version(before)


def test_version_guard(api):
    gid = new(api)
    refused(api, gid, {"type": "draw", "player": "Ana", "version": 5}, 409)
    data = ok(api, gid, type="draw", player="Ana", version=1)
    assert data["version"] == 2
    refused(api, gid, {"type": "pass", "player": "Ana", "version": 1}, 409)


# ----- mt.start -------------------------------------------------------------------------------


def test_start_names_the_starter_before_the_first_play(api):
    gid = new(api, ABC)
    data = ok(api, gid, type="start", player="Caro")
    assert data["round"]["turn"] == "Caro"
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "9-5", "train": "Ana"}, 422, "turn")
    play(api, gid, "Caro", "9-5", "Caro")
    assert api.state(gid)["round"]["turn"] == "Ana"
    refused(api, gid, {"type": "start", "player": "Ben"}, 422, "mt.start")


def test_next_rounds_engine_and_starter_rotate(api):
    gid = new(api, ABC, hand_size=1)
    expected = [("9-9", "Ana"), ("8-8", "Ben"), ("7-7", "Caro"), ("6-6", "Ana")]
    for number, (double, starter) in enumerate(expected, start=1):
        data = api.state(gid)
        assert data["round"]["number"] == number
        assert data["round"]["double"] == double and data["round"]["turn"] == starter
        assert data["round"]["hands"] == {"Ana": 1, "Ben": 1, "Caro": 1}
        assert data["round"]["boneyard"] == 55 - 1 - 3
        assert all(
            t["open"] == int(double[0]) and t["tiles"] == [] and not t["marker"]
            for t in data["round"]["trains"].values()
        )
        value = int(double[0])
        play(api, gid, starter, f"{value}-{(value + 1) % 10 if value < 9 else 0}", starter)
        rest = {p: 3 for p in ABC}
        rest[starter] = []
        hands_ok(api, gid, number, rest)
    assert [r["double"] for r in api.state(gid)["rounds"]] == ["9-9", "8-8", "7-7", "6-6"]


def test_table_names_another_starter_in_a_later_round(api):
    gid = new(api, ABC, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": 4, "Caro": 5})
    data = ok(api, gid, type="start", player="Ana")
    assert data["round"]["turn"] == "Ana"


# ----- hands left -----------------------------------------------------------------------------


def test_hands_after_a_domino_book_the_round(api):
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0"]})
    assert data["rounds"][0]["number"] == 1 and data["rounds"][0]["double"] == "9-9"
    assert data["rounds"][0]["points"] == {"Ana": 0, "Ben": 50}
    assert data["totals"] == {"Ana": 0, "Ben": 50}
    assert data["round"]["number"] == 2 and data["round"]["status"] == "playing"
    assert data["round"]["double"] == "8-8" and data["round"]["turn"] == "Ben"
    assert data["round"]["end"] is None


@pytest.mark.parametrize("double_blank, expected", [(0, 0 + 11), (25, 25 + 11), (50, 50 + 11)])
def test_double_blank_in_a_referee_hand(api, double_blank, expected):
    gid = new(api, hand_size=2, double_blank=double_blank)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    play(api, gid, "Ana", "5-3", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-0"]})
    assert data["totals"]["Ben"] == double_blank
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["5-6"]})
    assert data["totals"]["Ben"] == 11


@pytest.mark.parametrize(
    "hands, status, rule",
    [
        ({"Ana": ["9-5"], "Ben": 3}, 422, "unique"),  # on the table
        ({"Ana": ["9-9"], "Ben": 3}, 422, "unique"),  # the engine is on the table
        ({"Ana": ["1-2"], "Ben": ["2-1", "3-4"]}, 422, "unique"),
        ({"Ana": ["1-10"], "Ben": 3}, 422, "tiles"),
        ({"Ana": ["1-2", "1-3"], "Ben": 3}, 422, ...),  # Ana holds 1 tile by the log
        ({"Ana": 3, "Ben": ["1-2"]}, 422, ...),  # Ben holds 2
        ({"Ana": 3}, (400, 422), ...),  # one entry for every player
        ({"Ana": 3, "Ben": 3, "Zed": 1}, (400, 422), ...),
        ({"Ana": "3", "Ben": 3}, 400, None),
        ({"Ana": ["x"], "Ben": 3}, 400, None),
    ],
)
def test_hands_entry_refusals_while_playing(api, hands, status, rule):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_refused(api, gid, 1, hands, status, rule)


def test_hands_while_playing_end_the_round_with_reason_table(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": ["1-2"], "Ben": ["2-3", "3-4"]})
    assert data["rounds"][0]["points"] == {"Ana": 3, "Ben": 12}
    assert data["rounds"][0].get("end", {"reason": "table"})["reason"] == "table"
    assert data["round"]["number"] == 2 and data["round"]["turn"] == "Ben"


def test_hands_while_playing_with_integers(api):
    gid = new(api, hand_size=2)
    play(api, gid, "Ana", "9-5", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": 7, "Ben": 12})
    assert data["totals"] == {"Ana": 7, "Ben": 12}


def test_hands_for_a_round_not_reached_is_404(api):
    gid = new(api)
    hands_refused(api, gid, 2, {"Ana": 1, "Ben": 2}, 404)


def test_correction_of_an_earlier_round_recomputes_totals(api):
    gid = new(api, hand_size=1)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": ["1-2"]})
    play(api, gid, "Ben", "8-1", "Ben")
    hands_ok(api, gid, 2, {"Ana": ["3-4"], "Ben": []})
    data = hands_ok(api, gid, 1, {"Ana": [], "Ben": ["0-6"]})
    assert data["totals"] == {"Ana": 7, "Ben": 6}
    assert [r["points"] for r in data["rounds"]] == [{"Ana": 0, "Ben": 6}, {"Ana": 7, "Ben": 0}]
    assert data["round"]["number"] == 3
    # still checked against that round's table: 9-5 was played in round 1
    hands_refused(api, gid, 1, {"Ana": [], "Ben": ["5-9"]}, 422, "unique")


def test_a_round_not_over_cannot_be_corrected_as_the_next(api):
    gid = new(api, hand_size=1)
    hands_refused(api, gid, 2, {"Ana": 0, "Ben": 1}, 404)


def test_short_game_ends_with_the_lowest_total_winning(api):
    gid = new(api, hand_size=1, first_double=9, last_double=8)
    play(api, gid, "Ana", "9-5", "Ana")
    hands_ok(api, gid, 1, {"Ana": [], "Ben": ["1-2"]})
    data = api.state(gid)
    assert data["status"] == "playing" and data["winners"] == []
    play(api, gid, "Ben", "8-1", "Ben")
    data = hands_ok(api, gid, 2, {"Ana": ["3-4"], "Ben": []})
    assert data["status"] == "finished" and data["winners"] == ["Ben"]
    assert data["totals"] == {"Ana": 7, "Ben": 3}
    assert data["round"]["number"] == 2 and data["round"]["status"] == "done"
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    got, _ = api.hands(gid, 3, {"Ana": 1, "Ben": 1})
    assert got in (404, 422)


def test_equal_lowest_totals_share_the_win(api):
    gid = new(api, hand_size=1, first_double=9, last_double=9)
    play(api, gid, "Ana", "9-5", "Ana")
    data = hands_ok(api, gid, 1, {"Ana": 0, "Ben": 0})
    assert data["status"] == "finished" and data["winners"] == ["Ana", "Ben"]


# ----- first_turn = build -------------------------------------------------------------------


def test_build_first_turn_lays_a_chain_and_ends_with_end(api):
    gid = new(api, first_turn="build")
    play(api, gid, "Ana", "9-5", "Ana")
    data = play(api, gid, "Ana", "5-3", "Ana")
    assert data["round"]["turn"] == "Ana" and data["round"]["trains"]["Ana"]["open"] == 3
    refused(
        api, gid, {"type": "play", "player": "Ana", "tile": "9-1", "train": "mexican"}, 422, "mt.first-turn"
    )
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    refused(api, gid, {"type": "pass", "player": "Ana"}, 422)
    data = ok(api, gid, type="end", player="Ana")
    assert data["round"]["turn"] == "Ben" and data["round"]["hands"]["Ana"] == 13
    refused(api, gid, {"type": "end", "player": "Ben"}, 422)  # laid nothing yet
    refused(
        api, gid, {"type": "play", "player": "Ben", "tile": "9-1", "train": "mexican"}, 422, "mt.first-turn"
    )


def test_build_player_who_cannot_start_draws_once(api):
    gid = new(api, first_turn="build")
    ok(api, gid, type="draw", player="Ana")
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    play(api, gid, "Ana", "9-2", "Ana")  # the drawn tile fits
    play(api, gid, "Ana", "2-3", "Ana")  # and may go on building
    data = ok(api, gid, type="end", player="Ana")
    assert data["round"]["turn"] == "Ben"
    ok(api, gid, type="draw", player="Ben")
    data = ok(api, gid, type="pass", player="Ben")
    assert data["round"]["trains"]["Ben"]["marker"] is True
    # from the second turn on, one tile at a time, on any available train
    data = play(api, gid, "Ana", "9-1", "Ben")
    assert data["round"]["turn"] == "Ben"


def test_build_first_turn_double_restricts_only_after_everyone_started(api):
    gid = new(api, first_turn="build")
    play(api, gid, "Ana", "9-5", "Ana")
    data = play(api, gid, "Ana", "5-5", "Ana")
    assert data["round"]["open_doubles"] == []
    data = ok(api, gid, type="end", player="Ana")
    assert data["round"]["open_doubles"] == []
    data = play(api, gid, "Ben", "9-4", "Ben")  # not bound by Ana's 5-5
    assert data["round"]["open_doubles"] == []
    data = ok(api, gid, type="end", player="Ben")
    assert data["round"]["open_doubles"] == ["5-5"]
    refused(
        api, gid, {"type": "play", "player": "Ana", "tile": "9-1", "train": "mexican"}, 422, "mt.double.open"
    )
    play(api, gid, "Ana", "5-1", "Ana")


def test_end_is_refused_outside_a_build_first_turn(api):
    gid = new(api)
    play(api, gid, "Ana", "9-5", "Ana")
    refused(api, gid, {"type": "end", "player": "Ben"}, 422)


# ----- mt.players: other combinations need a hand size and enough tiles ---------------------------


@pytest.mark.parametrize(
    "highest, count, options, status",
    [
        (15, 4, {}, 422),
        (15, 4, {"hand_size": 11}, 201),
        (18, 13, {}, 422),
        (12, 9, {"hand_size": 10}, 201),
        (12, 13, {"hand_size": 7}, 422),
        (9, 5, {}, 422),
        (18, 12, {"hand_size": 15}, 201),
        (18, 12, {"hand_size": 16}, 422),
    ],
)
def test_other_combinations(api, highest, count, options, status):
    got, data = api.post(
        "/api/games",
        {
            "game": "mexican-train",
            "set": highest,
            "options": options,
            "players": [f"P{i}" for i in range(count)],
        },
    )
    assert got == status, data
    if status == 422:
        assert data["rule"] in ("mt.players", "mt.deal")
    else:
        size = (highest + 1) * (highest + 2) // 2
        assert data["round"]["boneyard"] == size - 1 - count * options["hand_size"]


@pytest.mark.parametrize("first, last, doubles", [(12, 10, ["12-12", "11-11", "10-10"]), (5, 5, ["5-5"])])
def test_shorter_game_engines(api, first, last, doubles):
    gid = new(api, ABC, set=12, first_double=first, last_double=last)
    data = api.state(gid)
    assert data["round"]["double"] == doubles[0]
    assert all(t["open"] == first for t in data["round"]["trains"].values())
    for number in range(1, len(doubles) + 1):
        assert api.state(gid)["round"]["double"] == doubles[number - 1]
        data = hands_ok(api, gid, number, {"Ana": 1, "Ben": 2, "Caro": 0})
    assert data["status"] == "finished" and data["winners"] == ["Caro"]
    assert [r["double"] for r in data["rounds"]] == doubles


@pytest.mark.parametrize("order, expected", [("oldest", ["5-5", "4-4"]), ("newest", ["4-4", "5-5"])])
def test_first_turn_doubles_join_in_order_once_everyone_started(api, order, expected):
    gid = new(api, first_turn="build", doubles_order=order)
    play(api, gid, "Ana", "9-5", "Ana")
    play(api, gid, "Ana", "5-5", "Ana")
    ok(api, gid, type="end", player="Ana")
    play(api, gid, "Ben", "9-4", "Ben")
    data = play(api, gid, "Ben", "4-4", "Ben")
    assert data["round"]["open_doubles"] == []
    data = ok(api, gid, type="end", player="Ben")
    assert data["round"]["open_doubles"] == expected and data["round"]["turn"] == "Ana"
    first, second = expected
    tile = {"5-5": ("5-1", "Ana"), "4-4": ("4-1", "Ben")}
    refused(
        api,
        gid,
        {"type": "play", "player": "Ana", "tile": tile[second][0], "train": tile[second][1]},
        422,
        "mt.double.order",
    )
    data = play(api, gid, "Ana", *tile[first])
    assert data["round"]["open_doubles"] == [second]


def test_a_whole_double_twelve_game_has_thirteen_rounds(api):
    gid = api.create(game="mexican-train", players=AB, set=12, mode="scores")["id"]
    for number in range(1, 14):
        assert api.state(gid)["round"]["double"] == f"{13 - number}-{13 - number}"
        data = hands_ok(api, gid, number, {"Ana": 2, "Ben": 1})
    assert data["status"] == "finished" and data["totals"] == {"Ana": 26, "Ben": 13}
    assert data["winners"] == ["Ben"]


def test_correcting_a_finished_game_recomputes_the_winners(api):
    gid = api.create(
        game="mexican-train", players=AB, set=9, mode="scores", options={"first_double": 9, "last_double": 8}
    )["id"]
    hands_ok(api, gid, 1, {"Ana": 5, "Ben": 0})
    data = hands_ok(api, gid, 2, {"Ana": 0, "Ben": 3})
    assert data["status"] == "finished" and data["winners"] == ["Ben"]
    data = hands_ok(api, gid, 1, {"Ana": 2, "Ben": 0})
    assert data["status"] == "finished" and data["winners"] == ["Ana"]
    assert data["totals"] == {"Ana": 2, "Ben": 3}
