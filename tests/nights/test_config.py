"""A club night's configuration (referee/nights/config.py): what API.md "Club nights"
accepts, the tables' split (night.tables), the stages' rounds (night.rounds), and every
refusal: a 400 that names its field and, where a club rule decides, its rule."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.nights.config import NightConfig, NightRefused, table_sizes
from referee.rules.base import BadRequest
from referee.tiles import Tile


def names(count: int) -> list[str]:
    return [f"Player {number}" for number in range(1, count + 1)]


def body(**changes: Any) -> dict[str, Any]:
    night: dict[str, Any] = {
        "name": "Tuesday club",
        "game": "mexican-train",
        "players": names(8),
        "table_size": 4,
        "stages": 4,
        "rounds_per_stage": 3,
        "seating": "progressive",
    }
    night.update(changes)
    return {key: value for key, value in night.items() if value is not ...}


def kozel(**changes: Any) -> dict[str, Any]:
    return body(**{"game": "kozel", "rounds_per_stage": ..., **changes})


def teams(**changes: Any) -> dict[str, Any]:
    return kozel(**{"seating": "teams", "options": {"teams": True}, **changes})


def test_a_night_as_api_md_shows_it():
    config = NightConfig.from_json(body())
    assert config.to_json() == {
        "name": "Tuesday club",
        "game": "mexican-train",
        "set": 12,
        "mode": "referee",
        "options": config.options.to_json(),
        "players": names(8),
        "table_size": 4,
        "stages": 4,
        "rounds_per_stage": 3,
        "seating": "progressive",
    }
    assert config.options.to_json()["double_blank"] == 50  # every option in force, defaults included
    assert config.sizes == (4, 4)


def test_names_are_trimmed_and_options_null_is_the_default():
    config = NightConfig.from_json(
        body(name="  Club  ", players=[" Ana", "Ben ", "Caro", "Dee"], options={"double_blank": None})
    )
    assert config.name == "Club"
    assert config.players == ("Ana", "Ben", "Caro", "Dee")
    assert config.options.double_blank == 50


def test_kozel_has_no_rounds_per_stage_and_teams_are_read_from_the_options():
    assert NightConfig.from_json(kozel()).rounds_per_stage is None
    config = NightConfig.from_json(teams())
    assert config.teams and config.to_json()["rounds_per_stage"] is None


@pytest.mark.parametrize(
    "players, table_size, sizes",
    [
        (8, 4, (4, 4)),
        (10, 4, (4, 3, 3)),
        (9, 4, (3, 3, 3)),
        (11, 4, (4, 4, 3)),
        (13, 6, (5, 4, 4)),
        (200, 8, (8,) * 25),
        (5, 2, (2, 2, 1)),
    ],
)
def test_tables_split_larger_first(players, table_size, sizes):
    assert table_sizes(players, table_size) == sizes


@given(st.integers(4, 200), st.integers(2, 8))
def test_tables_differ_by_at_most_one(players, table_size):
    sizes = table_sizes(players, table_size)
    assert sum(sizes) == players
    assert len(sizes) == -(-players // table_size)
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= table_size
    assert list(sizes) == sorted(sizes, reverse=True)


def test_the_stages_play_the_next_doubles_highest_first():
    config = NightConfig.from_json(body(stages=4, rounds_per_stage=3))
    assert [[tile.high for tile in config.stage_doubles(stage)] for stage in (1, 2, 3, 4)] == [
        [12, 11, 10],
        [9, 8, 7],
        [6, 5, 4],
        [3, 2, 1],
    ]
    options = config.stage_options(2)
    assert (options.first_double, options.last_double) == (9, 7)
    assert options.double_blank == config.options.double_blank


def test_the_sequence_follows_first_and_last_double():
    config = NightConfig.from_json(
        body(
            game="chicken-foot",
            set=9,
            options={"first_double": 8, "last_double": 3},
            stages=2,
            rounds_per_stage=3,
        )
    )
    assert config.stage_doubles(1) == (Tile(8, 8), Tile(7, 7), Tile(6, 6))
    assert config.stage_doubles(2) == (Tile(5, 5), Tile(4, 4), Tile(3, 3))


def test_the_whole_sequence_may_be_played():
    config = NightConfig.from_json(body(stages=13, rounds_per_stage=1))
    assert config.stage_doubles(13) == (Tile(0, 0),)


def test_a_kozel_stage_is_one_whole_game():
    config = NightConfig.from_json(kozel(stages=20))
    assert config.stage_doubles(1) == ()
    assert config.stage_options(3) == config.options


def test_a_table_game_lists_its_players_in_the_nights_order_partners_opposite():
    config = NightConfig.from_json(body())
    assert config.game_players(("Player 3", "Player 1", "Player 2")) == ("Player 1", "Player 2", "Player 3")
    team_night = NightConfig.from_json(teams())
    # teams (1, 2) and (5, 6): the first team's first, the second's first, …
    assert team_night.game_players(("Player 6", "Player 1", "Player 5", "Player 2")) == (
        "Player 1",
        "Player 5",
        "Player 2",
        "Player 6",
    )


# ----- refusals: (body, what is refused, the rule or None, words of the sentence) ---------------

REFUSALS = [
    ("not an object", [], None, None, "JSON object"),
    ("unknown key", body(colour="red"), "colour", None, "Unknown field"),
    ("name missing", body(name=...), "name", None, "name"),
    ("name empty", body(name="   "), "name", None, "1 to 60"),
    ("name too long", body(name="x" * 61), "name", None, "1 to 60"),
    ("name not text", body(name=7), "name", None, "name"),
    ("unknown game", body(game="chess"), "game", None, "mexican-train"),
    ("set not allowed", kozel(set=9), "set", None, "double-9"),
    ("set not a number", body(set="12"), "set", None, "whole number"),
    ("unknown mode", body(mode="fast"), "mode", None, "referee"),
    ("unknown option", body(options={"colour": 1}), "options", None, "colour"),
    ("wrong option", body(options={"double_blank": 7}), "double_blank", None, "double_blank"),
    ("players not a list", body(players="Ana, Ben"), "players", None, "list"),
    ("too few players", body(players=names(3)), "players", None, "4 to 200"),
    ("too many players", body(players=names(201), table_size=8), "players", None, "4 to 200"),
    ("a name not text", body(players=[*names(4), 5]), "players", None, "string"),
    ("a name empty", body(players=[*names(4), " "]), "players", None, "empty"),
    ("a name too long", body(players=[*names(4), "x" * 41]), "players", None, "40"),
    ("the same name", body(players=[*names(4), "player 2"]), "players", None, "unique"),
    ("look-alike names", body(players=["Ana", "Аna", "Ben", "Caro"]), "players", None, "look the same"),
    ("mexican is the train", body(players=[*names(4), "Mexican"]), "players", None, "Mexican train"),
    ("seating unknown", body(seating="random"), "seating", None, "fixed"),
    ("stages missing", body(stages=...), "stages", None, "whole number"),
    ("stages zero", body(stages=0), "stages", None, "1 and 20"),
    ("stages too many", kozel(stages=21), "stages", None, "1 and 20"),
    ("stages not a number", body(stages=True), "stages", None, "whole number"),
    ("rounds missing", body(rounds_per_stage=...), "rounds_per_stage", None, "required"),
    ("rounds zero", body(rounds_per_stage=0), "rounds_per_stage", None, "at least 1"),
    ("rounds not a number", body(rounds_per_stage=2.5), "rounds_per_stage", None, "whole number"),
    ("kozel rounds", kozel(rounds_per_stage=3), "rounds_per_stage", "night.rounds", "one whole game"),
    ("too many stages", body(stages=5, rounds_per_stage=3), "stages", "night.rounds", "13"),
    (
        "too many stages for first/last double",
        body(options={"first_double": 6, "last_double": 2}, stages=3, rounds_per_stage=2),
        "stages",
        "night.rounds",
        "only 5",
    ),
    ("table size missing", body(table_size=...), "table_size", None, "whole number"),
    ("table of one", body(table_size=1), "table_size", "night.tables", "2 to 8"),
    ("table of nine", body(table_size=9), "table_size", "night.tables", "2 to 8"),
    ("kozel table of five", kozel(table_size=5), "table_size", "night.tables", "2 to 4"),
    ("a table of one left", body(players=names(5), table_size=2), "table_size", "night.tables", "2, 2, 1"),
    (
        "a size the set refuses",
        body(set=9, table_size=6, players=names(12)),
        "table_size",
        "night.tables",
        "2–4",
    ),
    (
        "hand size too big",
        body(table_size=8, options={"hand_size": 12}),
        "table_size",
        "night.tables",
        "tiles",
    ),
    ("teams odd", teams(players=names(9)), "players", "night.teams", "even number"),
    ("teams not of four", teams(players=names(10)), "players", "night.teams", "multiple of 4"),
    ("teams at tables of two", teams(table_size=2), "table_size", "night.teams", "tables of 4, not 2"),
    ("teams seating without teams", kozel(seating="teams"), "seating", "night.teams", "'teams' option"),
    ("teams seating, not kozel", body(seating="teams"), "seating", "night.teams", "'teams' option"),
    ("teams split by the mixer", teams(seating="mixer"), "seating", "night.teams", "together"),
    ("teams split by progress", teams(seating="progressive"), "seating", "night.teams", "together"),
]


@pytest.mark.parametrize(
    "raw, field, rule, words", [case[1:] for case in REFUSALS], ids=[case[0] for case in REFUSALS]
)
def test_refusals(raw, field, rule, words):
    with pytest.raises(BadRequest) as refused:
        NightConfig.from_json(raw)
    error = refused.value
    assert isinstance(error, ValueError)
    assert words in error.message
    assert error.field == field
    assert getattr(error, "rule_id", None) == rule
    assert isinstance(error, NightRefused) == (rule is not None)
    assert error.message.endswith((".", "!", "?")) and error.message.count(". ") == 0  # one sentence
    if error.template is not None:
        assert error.template.format(**error.params) == error.message  # translatable as it is


def test_fixed_seating_keeps_teams():
    assert NightConfig.from_json(teams(seating="fixed")).teams


@pytest.mark.parametrize("count", [4, 8, 12, 200])
def test_team_nights_of_a_multiple_of_four(count):
    assert NightConfig.from_json(teams(players=names(count))).sizes == (4,) * (count // 4)
