"""The referee's checks of a hand that is not booked (a photo read, a hand sent): the same
rules as the hands entry, as warnings, and the hand's points by the game's own scoring."""

from __future__ import annotations

import pytest

from referee.match import GameConfig, Match, UnknownRound
from referee.rules.base import Action, RuleViolation
from referee.tiles import Tile


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


@pytest.fixture
def match() -> Match:
    """Mexican Train, double-12, referee mode: Ana has laid 12-5 on her train (15 tiles left)."""
    m = Match(GameConfig.from_json({"game": "mexican-train", "players": ["Ana", "Ben", "Caro"], "set": 12}))
    m.apply(Action.from_json({"type": "play", "player": "Ana", "tile": "12-5", "train": "Ana"}))
    return m


@pytest.mark.parametrize(
    ("read", "player", "others", "expected"),
    [
        (["3-4", "5-6"], None, {}, []),
        (["5-12", "3-4"], None, {}, [("5-12", "unique", "5-12 is already on the table")]),
        (["5-12"], "Ben", {}, [("5-12", "unique", "cannot be in Ben's hand"), (None, "hidden", "16 tiles")]),
        (["3-13"], None, {}, [("3-13", "tiles", "There is no 3-13 in a double-12 set")]),
        (["3-4", "4-3"], None, {}, [("3-4", "unique", "3-4 is read twice")]),
        (["3-4"], None, {"Ben": ["3-4"]}, [("3-4", "unique", "3-4 is also in Ben's hand")]),
        (
            ["3-4"],
            "Caro",
            {"Ben": ["3-4"]},
            [("3-4", "unique", "both Ben's and Caro's"), (None, "hidden", "")],
        ),
        (
            ["3-4"],
            "Ben",
            {"Ben": ["3-4"]},
            [(None, "hidden", "Ben holds 16 tiles by the log, but 1 was entered")],
        ),
    ],
)
def test_warnings_name_the_tile_and_the_rule(match, read, player, others, expected):
    check = match.check_hand(1, tiles(*read), player, {k: tiles(*v) for k, v in others.items()})
    got = [(str(t) if t else None, v.rule_id, v.message) for t, v in check.warnings]
    assert [(t, r) for t, r, _ in got] == [(t, r) for t, r, _ in expected]
    for (_, _, message), (_, _, fragment) in zip(got, expected):
        assert fragment in message


def test_a_hand_of_the_tracked_size_has_no_count_warning(match):
    hand = [t for t in tiles(*[f"{a}-{b}" for a in range(0, 4) for b in range(a, 12)])][:15]
    check = match.check_hand(1, hand, "Ana")
    assert check.warnings == ()
    assert check.tracked == 15


@pytest.mark.parametrize(
    ("options", "hand", "points"),
    [
        ({}, ["0-0"], 50),
        ({"double_blank": 0}, ["0-0"], 0),
        ({}, ["0-0", "5-6"], 61),
        ({"double_blank": 25}, ["0-0", "5-6"], 36),
        ({}, ["5-12", "3-3"], 23),
    ],
)
def test_points_use_the_games_own_scoring(options, hand, points):
    m = Match(GameConfig.from_json({"game": "mexican-train", "players": ["A", "B"], "options": options}))
    assert m.check_hand(1, tiles(*hand)).points == points


def test_the_check_changes_nothing(match):
    before = match.state()
    match.check_hand(1, tiles("5-12", "5-12", "0-13"), "Ben", {"Caro": tiles("1-1")})
    assert match.state() == before


def test_the_hands_entry_refuses_what_the_check_warns(match):
    """Both use the same checks: the first warning is the refusal of the entry."""
    check = match.check_hand(1, tiles("5-12"), "Ben")
    with pytest.raises(RuleViolation) as refused:
        match.enter_hands(1, {"hands": {"Ana": 0, "Ben": ["5-12"], "Caro": 3}})
    assert refused.value.rule_id == check.warnings[0][1].rule_id == "unique"
    assert refused.value.message == check.warnings[0][1].message


@pytest.mark.parametrize("number", [0, 2, "1", True])
def test_an_unknown_round_is_refused(match, number):
    with pytest.raises(UnknownRound):
        match.check_hand(number, tiles("1-2"))


def test_an_unknown_player_is_refused(match):
    with pytest.raises(RuleViolation):
        match.check_hand(1, tiles("1-2"), "Zed")


def test_a_score_pad_tracks_no_sizes():
    m = Match(GameConfig.from_json({"game": "kozel", "players": ["A", "B"], "mode": "scores"}))
    check = m.check_hand(1, tiles("0-0", "6-6"), "A")
    assert check.warnings == () and check.tracked is None
