"""The mixer (referee/nights/mixer.py, night.mixer): the count of repeats, the affine
planes (no pair meets twice where API.md says it can be done) and the search elsewhere."""

from __future__ import annotations

from itertools import combinations

import pytest

from referee.nights.config import table_sizes
from referee.nights.measure import random_repeats
from referee.nights.mixer import affine_stages, mixer_stage, night_repeats
from referee.nights.seating import Seating, deal


def names(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


def night(players: list[str], sizes: tuple[int, ...], stages: int) -> list[Seating]:
    seated: list[Seating] = []
    for _ in range(stages):
        seated.append(mixer_stage(players, sizes, seated))
    return seated


def test_repeats_count_m_minus_one_per_pair():
    assert night_repeats([]) == 0
    assert night_repeats([(("A", "B"), ("C", "D"))]) == 0
    assert night_repeats([(("A", "B"), ("C", "D"))] * 3) == 4  # two pairs, three times each
    assert night_repeats([(("A", "B", "C"),), (("B", "A"), ("C",))]) == 1


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8])
def test_the_affine_plane_is_a_resolvable_design(q):
    classes = affine_stages(q)
    assert classes is not None and len(classes) == q + 1
    met: set[frozenset[int]] = set()
    for stage in classes:
        assert sorted(point for line in stage for point in line) == list(range(q * q))
        assert all(len(line) == q for line in stage)
        for line in stage:
            for pair in combinations(line, 2):
                assert frozenset(pair) not in met
                met.add(frozenset(pair))
    assert len(met) == q * q * (q * q - 1) // 2  # every pair meets exactly once


def test_no_plane_where_q_is_no_prime_power():
    assert affine_stages(6) is None and affine_stages(10) is None and affine_stages(1) is None


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7])
def test_q_squared_players_never_meet_twice_in_q_plus_one_stages(q):
    players = names(q * q)
    seated = night(players, (q,) * q, q + 1)
    assert seated[0] == deal(players, (q,) * q)
    assert night_repeats(seated) == 0
    assert len(
        {frozenset(pair) for stage in seated for table in stage for pair in combinations(table, 2)}
    ) == (q * q * (q * q - 1) // 2)


def test_after_the_plane_the_search_goes_on():
    players = names(16)
    seated = night(players, (4,) * 4, 6)
    assert night_repeats(seated[:5]) == 0
    assert night_repeats(seated) == 24  # every pair has met: a sixth stage repeats all its 24 pairs


def test_a_night_that_left_the_plane_is_searched():
    players = names(9)
    other_second = (
        (players[0], players[4], players[8]),
        (players[1], players[5], players[6]),
        tuple(players[2:4]) + (players[7],),
    )
    first = deal(players, (3, 3, 3))
    third = mixer_stage(players, (3, 3, 3), [first, other_second])
    assert sorted(name for table in third for name in table) == sorted(players)
    assert night_repeats([first, other_second, third]) == 0


def test_the_mixer_is_deterministic():
    players = names(22)
    sizes = table_sizes(22, 4)
    assert night(players, sizes, 5) == night(players, sizes, 5)


@pytest.mark.parametrize("count, table_size", [(8, 4), (10, 4), (13, 4), (20, 4), (31, 4), (24, 6), (30, 3)])
def test_the_mixer_beats_random_seatings(count, table_size):
    sizes = table_sizes(count, table_size)
    seated = night(names(count), sizes, 6)
    for stage in seated:
        assert tuple(len(table) for table in stage) == sizes
        assert sorted(name for table in stage for name in table) == sorted(names(count))
    assert night_repeats(seated) <= random_repeats(sizes, 6)


@pytest.mark.parametrize("count, stages, fewest", [(8, 6, 44), (10, 6, 27), (16, 6, 24), (12, 6, 42)])
def test_the_mixer_reaches_the_fewest_repeats_possible(count, stages, fewest):
    """Where every pair is bound to meet again, the count of meetings beyond the pairs is
    the least possible: the mixer reaches it."""
    sizes = table_sizes(count, 4)
    assert night_repeats(night(names(count), sizes, stages)) == fewest


def test_one_table_meets_everyone_every_stage():
    assert night_repeats(night(names(4), (4,), 3)) == 12
