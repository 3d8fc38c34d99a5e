"""A club night as a value (referee/nights/night.py): the stage sequence, closing a stage
(night.stage.open), the standing and its ties (night.standing), the progressive ranking
(night.progressive), and the results a finished game gives."""

from __future__ import annotations

from typing import Any

import pytest

from referee.match import GameConfig, Match
from referee.nights.config import NightConfig
from referee.nights.night import Night, Placing, StageRecord, TableResult, standings, table_ranking
from referee.rules.base import Action, RuleViolation


def names(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


def config(**changes: Any) -> NightConfig:
    body: dict[str, Any] = {
        "name": "Tuesday club",
        "game": "mexican-train",
        "players": names(8),
        "table_size": 4,
        "stages": 3,
        "rounds_per_stage": 2,
        "seating": "progressive",
    }
    body.update(changes)
    return NightConfig.from_json({key: value for key, value in body.items() if value is not ...})


def kozel(**changes: Any) -> NightConfig:
    return config(**{"game": "kozel", "rounds_per_stage": ..., **changes})


def totals(table: tuple[str, ...], points: dict[str, int]) -> TableResult:
    return TableResult({name: points[name] for name in table})


def test_a_night_starts_at_stage_one_with_the_deal():
    night = Night.start(config(players=names(10)))
    assert (night.stage, night.status, night.history) == (1, "playing", ())
    assert night.tables == (tuple(names(4)), tuple(names(7)[4:]), tuple(names(10)[7:]))
    assert night.standings() == tuple(Placing(name, 0, 1) for name in names(10))
    assert night.moves() == {}


def test_a_stage_closes_only_when_every_table_is_finished():
    night = Night.start(config(players=names(12)))
    done = TableResult(dict.fromkeys(names(4), 0))
    with pytest.raises(RuleViolation) as refused:
        night.close_stage([done, None, None])
    assert refused.value.rule_id == "night.stage.open"
    assert refused.value.message == (
        "Tables 2, 3 are still playing: a stage closes only when every table's game is finished."
    )
    with pytest.raises(RuleViolation, match=r"Table 1 is still playing") as refused:
        night.close_stage([None, done, done])
    assert refused.value.template.format(**refused.value.params) == refused.value.message
    assert night.stage == 1 and night.history == ()  # a refusal changes nothing


def test_the_stages_run_to_the_last_and_the_night_finishes():
    night = Night.start(config(seating="fixed", stages=3))
    first = night.tables
    for stage in (1, 2, 3):
        assert night.stage == stage and night.tables == first
        night = night.close_stage([TableResult(dict.fromkeys(table, stage)) for table in night.tables])
    assert (night.status, night.stage, night.tables) == ("finished", 3, ())
    assert [record.stage for record in night.history] == [1, 2, 3]
    assert night.standings()[0] == Placing("P1", 6, 1)
    with pytest.raises(RuleViolation, match="finished"):
        night.close_stage([])


def test_standing_sums_game_totals_lowest_first_and_ties_share_a_place():
    night_config = config(players=names(4), table_size=4)
    record = StageRecord(1, (tuple(names(4)),), (TableResult({"P1": 30, "P2": 10, "P3": 20, "P4": 10}),))
    again = StageRecord(2, (tuple(names(4)),), (TableResult({"P1": 0, "P2": 15, "P3": 5, "P4": 30}),))
    assert standings(night_config, [record]) == (
        Placing("P2", 10, 1),
        Placing("P4", 10, 1),
        Placing("P3", 20, 3),
        Placing("P1", 30, 4),
    )
    assert [(line.player, line.total, line.place) for line in standings(night_config, [record, again])] == [
        ("P2", 25, 1),
        ("P3", 25, 1),
        ("P1", 30, 3),
        ("P4", 40, 4),
    ]
    assert standings(night_config, [record])[0].to_json() == {"player": "P2", "total": 10, "place": 1}


def test_kozel_standing_sums_rating_points_highest_first():
    night_config = kozel(players=names(8))
    table_1, table_2 = tuple(names(4)), tuple(names(8)[4:])
    record = StageRecord(
        1,
        (table_1, table_2),
        (
            TableResult({"P1": 20, "P2": 104, "P3": 40, "P4": 60}, {"P1": 8, "P3": 6, "P4": 4}, ("P2",)),
            TableResult({"P5": 10, "P6": 30, "P7": 50, "P8": 10}, {"P5": 5, "P6": 3, "P8": 6}, (), left="P7"),
        ),
    )
    assert [(line.player, line.total, line.place) for line in standings(night_config, [record])] == [
        ("P1", 8, 1),
        ("P3", 6, 2),
        ("P8", 6, 2),
        ("P5", 5, 4),
        ("P4", 4, 5),
        ("P6", 3, 6),
        ("P2", 0, 7),  # a goat rates nothing
        ("P7", 0, 7),  # nor does a player who left
    ]


def test_the_progressive_ranking_breaks_ties_by_standing_then_entry():
    night_config = config(players=names(4))
    standing = (Placing("P3", 5, 1), Placing("P4", 9, 2), Placing("P1", 9, 2), Placing("P2", 12, 4))
    result = TableResult({"P1": 10, "P2": 10, "P3": 10, "P4": 3})
    # P4 has the lowest total; P1, P2, P3 tie: P3 stands best, then P1 (tied with P4 in the
    # standing, but P4 is not in the tie), then P2
    assert table_ranking(night_config, names(4), result, standing) == ("P4", "P3", "P1", "P2")
    level = (Placing("P1", 9, 1), Placing("P2", 9, 1), Placing("P3", 9, 1), Placing("P4", 9, 1))
    assert table_ranking(night_config, names(4), TableResult(dict.fromkeys(names(4), 0)), level) == tuple(
        names(4)
    )


def test_kozel_progressive_ranks_a_goat_or_a_leaver_last():
    night_config = kozel(players=names(4))
    level = tuple(Placing(name, 0, 1) for name in names(4))
    goat = TableResult({"P1": 104, "P2": 0, "P3": 110, "P4": 50}, {"P2": 9, "P4": 5}, ("P1", "P3"))
    assert table_ranking(night_config, names(4), goat, level) == ("P2", "P4", "P1", "P3")
    leaver = TableResult({"P1": 20, "P2": 0, "P3": 10, "P4": 50}, {"P2": 9, "P3": 8, "P4": 5}, left="P2")
    assert table_ranking(night_config, names(4), leaver, level)[-1] == "P2"


def test_a_progressive_night_moves_players_by_their_games():
    night = Night.start(config(players=names(12), stages=2))
    points = {"P1": 40, "P2": 10, "P3": 20, "P4": 30, "P5": 5, "P6": 50, "P7": 15, "P8": 25}
    points.update({"P9": 0, "P10": 60, "P11": 60, "P12": 1})
    night = night.close_stage([totals(table, points) for table in night.tables])
    assert night.stage == 2
    # table 1: P2 best stays, P1 worst down; table 2: P5 up, P6 down; table 3: P9 up, P10 and
    # P11 tie for worst: P10 entered earlier, so P11 is ranked last and stays (last table)
    assert night.tables == (("P2", "P3", "P4", "P5"), ("P1", "P7", "P8", "P9"), ("P6", "P10", "P11", "P12"))
    assert night.moves() == {"P5": (2, 1), "P1": (1, 2), "P9": (3, 2), "P6": (2, 3)}


def test_a_mixer_night_and_a_team_night_seat_their_stages():
    mixer = Night.start(config(players=names(9), table_size=3, seating="mixer", stages=4, rounds_per_stage=3))
    seen: set[frozenset[str]] = set()
    while not mixer.finished:
        for table in mixer.tables:
            for a in table:
                for b in table:
                    if a < b:
                        assert frozenset((a, b)) not in seen
                        seen.add(frozenset((a, b)))
        mixer = mixer.close_stage([TableResult(dict.fromkeys(table, 0)) for table in mixer.tables])
    team_night = Night.start(kozel(players=names(8), seating="teams", options={"teams": True}, stages=3))
    team_night = team_night.close_stage(
        [TableResult(dict.fromkeys(table, 0), dict.fromkeys(table, 1)) for table in team_night.tables]
    )
    assert team_night.tables == (("P1", "P2", "P5", "P6"), ("P3", "P4", "P7", "P8"))


def test_results_are_read_from_a_finished_game():
    match = Match(
        GameConfig.from_json({"game": "kozel", "players": ["Ana", "Ben", "Caro"], "mode": "scores"})
    )
    with pytest.raises(ValueError):
        TableResult.from_standing(match.standing)
    match.apply(Action("leave", "Ben"))
    result = TableResult.from_standing(match.standing)
    assert result.left == "Ben" and "Ben" not in result.rating and result.worst("Ben")
    assert set(result.totals) == {"Ana", "Ben", "Caro"}
    state = {"status": "finished", "totals": {"Ana": 3}, "rating": {"Ana": 9}, "goats": [], "left": None}
    assert TableResult.from_state(state) == TableResult({"Ana": 3}, {"Ana": 9})
    assert TableResult.from_state(state).to_json() == {
        "totals": {"Ana": 3},
        "rating": {"Ana": 9},
        "goats": [],
        "left": None,
    }
    with pytest.raises(ValueError):
        TableResult.from_state({**state, "status": "playing"})
    assert TableResult({"Ana": 3}).to_json() == {"totals": {"Ana": 3}}


def test_results_of_a_finished_mexican_train_game():
    game = {"game": "mexican-train", "players": ["Ana", "Ben"], "mode": "scores"}
    match = Match(GameConfig.from_json({**game, "options": {"first_double": 1, "last_double": 0}}))
    match.enter_hands(1, {"hands": {"Ana": 0, "Ben": 12}})
    match.enter_hands(2, {"hands": {"Ana": 7, "Ben": 0}})
    assert TableResult.from_standing(match.standing) == TableResult({"Ana": 7, "Ben": 12})


def test_a_night_survives_pickling():
    import pickle

    night = Night.start(config(players=names(9), table_size=3, seating="mixer", rounds_per_stage=1))
    night = night.close_stage([TableResult(dict.fromkeys(table, 1)) for table in night.tables])
    assert pickle.loads(pickle.dumps(night)) == night
