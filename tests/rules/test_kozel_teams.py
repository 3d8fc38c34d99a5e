"""Kozel in teams (`kz.teams`): partners opposite (1st + 3rd against 2nd + 4th) share one
account; booking, refusals and the API's additions, in both modes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.match import GameConfig, Match
from referee.rules.base import Action, BadRequest, RoundEnd, RoundRecord, RuleViolation
from referee.rules.kozel import Kozel, KozelOptions, rating_points, teams_of
from referee.tiles import Tile

FOUR = ("Ana", "Ben", "Caro", "Dan")  # teams: Ana + Caro against Ben + Dan


def went_out(number: int, player: str, **points: int) -> RoundRecord:
    return RoundRecord(number, None, {player: 0, **points}, RoundEnd("domino", player))


def fish(number: int, **points: int) -> RoundRecord:
    return RoundRecord(number, None, dict(points), RoundEnd("fish", None))


def book(rounds, left=None, **options):
    return Kozel.standing(FOUR, 6, KozelOptions(teams=True, **options), rounds, left)


def teams(standing):
    return [(team.players, team.total, team.remembered, team.open) for team in standing.detail.teams]


def test_partners_sit_opposite():
    assert teams_of(FOUR, KozelOptions(teams=True)) == (("Ana", "Caro"), ("Ben", "Dan"))
    assert teams_of(FOUR, KozelOptions()) == (("Ana",), ("Ben",), ("Caro",), ("Dan",))


# ----- scored: (rounds, options, team A (total, remembered, open), team B (…)) ------------------
SCORED = [
    # the team of the player who went out scores 0 and is reset; the other adds its two hands
    ([went_out(1, "Ana", Caro=10, Ben=5, Dan=9)], {}, (0, 0, False), (14, 0, True)),
    # a team's score of 12 or less is remembered (kz.score.remember), over 12 opens it
    ([went_out(1, "Ben", Ana=6, Caro=6, Dan=30)], {}, (0, 12, False), (0, 0, False)),
    ([went_out(1, "Ben", Ana=6, Caro=7, Dan=30)], {}, (13, 0, True), (0, 0, False)),
    # fish for all: both teams book their sums, nobody is reset
    (
        [went_out(1, "Ana", Caro=10, Ben=5, Dan=9), fish(2, Ana=3, Caro=4, Ben=2, Dan=1)],
        {},
        (0, 7, False),
        (17, 0, True),
    ),
    # fish to one: the higher team takes both sums, the other team's remembered points reset
    (
        [went_out(1, "Ben", Ana=3, Caro=2, Dan=1), fish(2, Ana=3, Caro=4, Ben=2, Dan=1)],
        {"fish": "one"},
        (0, 15, False),
        (0, 0, False),
    ),
    (
        [went_out(1, "Ana", Caro=0, Ben=3, Dan=2), fish(2, Ana=3, Caro=4, Ben=2, Dan=1)],
        {"fish": "one"},
        (0, 10, False),
        (0, 0, False),
    ),
    # equal sums in a fish to one: a pot (kz.fish.pot) that the next single-highest team takes
    (
        [fish(1, Ana=3, Caro=4, Ben=5, Dan=2), went_out(2, "Ben", Ana=6, Caro=2, Dan=4)],
        {"fish": "one"},
        (22, 0, True),
        (0, 0, False),
    ),
]


@pytest.mark.parametrize(("rounds", "options", "first", "second"), SCORED)
def test_team_booking(rounds, options, first, second):
    standing = book(rounds, **options)
    assert teams(standing) == [(("Ana", "Caro"), *first), (("Ben", "Dan"), *second)]
    assert standing.totals == {"Ana": first[0], "Caro": first[0], "Ben": second[0], "Dan": second[0]}
    assert standing.detail.remembered == {
        "Ana": first[1],
        "Caro": first[1],
        "Ben": second[1],
        "Dan": second[1],
    }


def test_the_pot_waits_in_a_drawn_fish():
    standing = book([fish(1, Ana=3, Caro=4, Ben=5, Dan=2)], fish="one")
    # team_points: each team's own score for the round (API.md), before the pot takes them
    assert standing.detail.pot == 14 and standing.detail.ledger[-1]["team_points"] == [7, 7]


def test_kz_score_zero_applies_to_each_hand_of_a_team():
    match = Match(
        GameConfig.from_json(
            {"game": "kozel", "mode": "scores", "players": list(FOUR), "options": {"teams": True}}
        )
    )
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["0-0"], "Caro": ["3-4"], "Dan": ["1-2", "0-1"]}})
    # Ben's lone 0-0 counts 10 in his own hand: 10 + 4 = 14 opens the team; Ana went out, so
    # her team scores 0 whatever Caro holds
    assert match.state()["teams"] == [
        {"players": ["Ana", "Caro"], "total": 0, "remembered": 0},
        {"players": ["Ben", "Dan"], "total": 14, "remembered": 0},
    ]
    assert match.state()["rounds"][0]["team_points"] == [0, 14]
    assert match.state()["rounds"][0]["points"] == {"Ana": 0, "Ben": 10, "Caro": 7, "Dan": 4}


def test_the_goat_team_and_ratings_from_the_team_account():
    standing = book([went_out(1, "Ben", Ana=20, Caro=10, Dan=4)], lose_at=30)
    result = standing.result
    assert result is not None and result.goats == ("Ana", "Caro")
    assert dict(result.rating) == {"Ben": rating_points(0), "Dan": rating_points(0)}
    assert result.placings == (("Ben", "Dan"), ("Ana", "Caro"))  # a team game counts for both


def test_a_player_leaving_a_team_game_rates_the_other_team_from_the_accounts():
    standing = book([went_out(1, "Ben", Ana=20, Caro=10, Dan=4)], left="Caro")
    result = standing.result
    assert result is not None and result.left == "Caro"
    assert dict(result.rating) == {"Ben": rating_points(0, 30), "Dan": rating_points(0, 30)}
    assert result.placings[-1] == ("Ana", "Caro")


# ----- refused and accepted at creation --------------------------------------------------------
@pytest.mark.parametrize("players", [["Ana", "Ben"], ["Ana", "Ben", "Caro"]])
def test_teams_need_four_players(players):
    with pytest.raises(RuleViolation) as refused:
        GameConfig.from_json({"game": "kozel", "players": players, "options": {"teams": True}})
    assert refused.value.rule_id == "kz.teams"


@pytest.mark.parametrize("value", ["yes", 1, 0])
def test_teams_is_true_or_false(value):
    with pytest.raises(BadRequest):
        GameConfig.from_json({"game": "kozel", "players": list(FOUR), "options": {"teams": value}})


@pytest.mark.parametrize("mode", ["referee", "scores"])
def test_teams_accepted_in_both_modes_and_echoed(mode):
    config = GameConfig.from_json(
        {"game": "kozel", "mode": mode, "players": list(FOUR), "options": {"teams": True}}
    )
    assert config.to_json()["options"]["teams"] is True
    plain = GameConfig.from_json({"game": "kozel", "players": list(FOUR)})
    assert plain.to_json()["options"]["teams"] is False
    assert "teams" not in Match(plain).state()  # the state adds teams only when played in teams


def test_referee_mode_books_a_round_for_the_teams():
    match = Match(
        GameConfig.from_json(
            {"game": "kozel", "mode": "referee", "players": list(FOUR), "options": {"teams": True}}
        )
    )
    match.apply(Action("play", "Ana", tile=Tile(1, 1)))  # kz.lead.first: all tiles are dealt
    match.enter_hands(1, {"hands": {"Ana": 0, "Ben": 9, "Caro": 20, "Dan": 7}})
    state = match.state()
    assert state["teams"][1] == {"players": ["Ben", "Dan"], "total": 16, "remembered": 0}
    assert state["totals"] == {"Ana": 0, "Ben": 16, "Caro": 0, "Dan": 16}


# ----- random games in teams: partners always share one account ----------------------------------
@given(seed=st.integers(0, 2**32 - 1), fish_rule=st.sampled_from(["all", "one"]))
def test_random_team_games(seed, fish_rule):
    rng = random.Random(seed)
    match = Match(
        GameConfig.from_json(
            {
                "game": "kozel",
                "mode": "scores",
                "players": list(FOUR),
                "options": {"teams": True, "fish": fish_rule, "lose_at": 60},
            }
        )
    )
    for number in range(1, 30):
        if match.finished:
            break
        out = rng.choice([None, *FOUR])
        hands = {name: (0 if name == out else rng.randint(1, 25)) for name in FOUR}
        match.enter_hands(number, {"hands": hands})
        state = match.state()
        team_a, team_b = state["teams"]
        for team in (team_a, team_b):
            first, second = team["players"]
            assert state["totals"][first] == state["totals"][second] == team["total"]
            assert state["remembered"][first] == state["remembered"][second] == team["remembered"]
        assert len(state["rounds"][-1]["team_points"]) == 2
        if out is not None and not match.finished:  # kz.score.reset for the team that went out
            partners = team_a if out in team_a["players"] else team_b
            assert partners["remembered"] == 0
    if match.finished:
        result = match.result
        assert result is not None
        assert set(result.goats) in ({"Ana", "Caro"}, {"Ben", "Dan"}, set(FOUR))  # whole teams
        assert all(len(place) % 2 == 0 for place in result.placings)  # partners share a place
        # undo restores the game before the last entry
        before = [r.to_json() for r in match.rounds[:-1]]
        match.undo()
        assert [r.to_json() for r in match.rounds] == before and not match.finished


def test_team_points_are_the_rounds_own_score_not_the_pot_it_took():
    """API.md: ``team_points`` is each team's score for the round as kz.teams defines it,
    before fish-to-one transfers and the pot; the pot taken is its own entry of the ledger."""
    drawn = fish(1, Ana=5, Caro=5, Ben=6, Dan=4)  # 10 against 10 in a fish to one: a pot of 20
    standing = book([drawn, went_out(2, "Ben", Ana=3, Caro=4, Dan=9)], fish="one")
    last = standing.detail.ledger[-1]
    assert last["team_points"] == [7, 0]  # Ana and Caro scored 7; Ben went out: 0
    assert last["players"]["Ana"]["points"] == 27 and last["players"]["Ana"]["pot_taken"] == 20
    assert last["players"]["Ben"]["pot_taken"] == 0 and standing.detail.pot == 0
    assert standing.totals["Ana"] == 27
