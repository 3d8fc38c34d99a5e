"""Properties of whole nights (Hypothesis): every player seated exactly once per stage, the
tables' sizes as night.tables splits them at every stage, teams never split, the mixer no
worse than random seatings, and the standing's places."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.nights.config import NightConfig, table_sizes
from referee.nights.measure import random_repeats
from referee.nights.mixer import night_repeats
from referee.nights.night import Night, TableResult


def names(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


@st.composite
def nights(draw: Any, seatings: tuple[str, ...] = ("fixed", "progressive", "mixer", "teams")) -> NightConfig:
    """A night every game accepts: Mexican Train (set 12, tables of 2–8) or Kozel."""
    seating = draw(st.sampled_from(seatings))
    if seating == "teams":
        players = 4 * draw(st.integers(1, 12))
        body = {"game": "kozel", "table_size": 4, "options": {"teams": True}}
    elif draw(st.booleans()):
        table_size = draw(st.integers(2, 4))
        players = draw(st.integers(4, 48).filter(lambda count: min(table_sizes(count, table_size)) >= 2))
        body = {"game": "kozel", "table_size": table_size}
    else:
        table_size = draw(st.integers(2, 8))
        players = draw(st.integers(4, 60).filter(lambda count: min(table_sizes(count, table_size)) >= 2))
        body = {"game": "mexican-train", "table_size": table_size, "rounds_per_stage": 1}
    return NightConfig.from_json(
        {
            "name": "Club",
            "players": names(players),
            "stages": draw(st.integers(1, 6)),
            "seating": seating,
            **body,
        }
    )


def played(config: NightConfig, seed: int) -> Night:
    """The night played to its end with random results at every table."""
    draw = random.Random(seed)
    night = Night.start(config)
    while not night.finished:
        results = []
        for table in night.tables:
            totals = {name: draw.randrange(0, 120, 5) for name in table}
            if config.game == "kozel":
                goats = tuple(name for name in table if totals[name] > 100)
                rating = {name: draw.randrange(1, 10) for name in table if name not in goats}
                results.append(TableResult(totals, rating, goats))
            else:
                results.append(TableResult(totals))
        night = night.close_stage(results)
    return night


@given(nights(), st.integers())
def test_every_player_is_seated_once_per_stage_at_tables_as_split(config, seed):
    night = played(config, seed)
    assert len(night.history) == config.stages
    for record in night.history:
        seated = [name for table in record.tables for name in table]
        assert sorted(seated) == sorted(config.players)
        assert tuple(len(table) for table in record.tables) == config.sizes
    if config.seating == "fixed":
        assert {record.tables for record in night.history} == {night.history[0].tables}


@given(nights(("teams",)), st.integers())
def test_teams_are_never_split(config, seed):
    night = played(config, seed)
    partner = {name: config.players[index ^ 1] for index, name in enumerate(config.players)}
    for record in night.history:
        for table in record.tables:
            listed = config.game_players(table)
            # kz.teams: 1st and 3rd against 2nd and 4th
            assert partner[listed[0]] == listed[2] and partner[listed[1]] == listed[3]


@given(nights(("mixer",)), st.integers())
def test_the_mixer_is_no_worse_than_random(config, seed):
    night = played(config, seed)
    repeats = night_repeats([record.tables for record in night.history])
    assert repeats <= random_repeats(config.sizes, config.stages) + 1e-9


@given(nights(), st.integers())
def test_the_standing_places_everyone_and_ties_share(config, seed):
    night = played(config, seed)
    lines = night.standings()
    assert sorted(line.player for line in lines) == sorted(config.players)
    assert lines[0].place == 1
    best_first = [line.total for line in lines]
    assert best_first == sorted(best_first, reverse=config.game == "kozel")
    for before, after in combinations(lines, 2):
        if before.total == after.total:
            assert before.place == after.place
    for index, line in enumerate(lines):
        assert line.place == 1 + sum(
            1 for other in lines if other.total != line.total and lines.index(other) < index
        )
