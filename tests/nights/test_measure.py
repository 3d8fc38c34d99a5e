"""The benchmark figure ``night_mixer_repeats`` (referee/nights/measure.py)."""

from __future__ import annotations

import random

import pytest

from referee.nights.config import table_sizes
from referee.nights.measure import mixer_night, mixer_nights, night_mixer_repeats, random_repeats
from referee.nights.mixer import night_repeats
from referee.nights.seating import deal


def test_night_mixer_repeats_is_at_most_a_half():
    nights = mixer_nights()
    assert [night.players for night in nights] == list(range(8, 41))
    assert night_mixer_repeats(nights) <= 0.5


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7])
def test_zero_where_a_seating_without_repeats_exists(q):
    """API.md: q² players at q tables of q, for up to q + 1 stages."""
    assert night_repeats(mixer_night(q * q, table_size=q, stages=q + 1)) == 0


def test_zero_in_the_measure_where_no_pair_need_meet_twice():
    night = mixer_night(16)  # 16 players at 4 tables of 4: 5 stages without a repeat
    assert night_repeats(night[:5]) == 0


@pytest.mark.parametrize("players", [8, 13, 22, 40])
def test_the_random_average_is_what_random_seatings_give(players):
    """The exact average against 3000 random nights (dealt from shuffles)."""
    sizes = table_sizes(players, 4)
    names = [f"P{number}" for number in range(players)]
    draw = random.Random(players)
    total = 0
    for _ in range(3000):
        stages = []
        for _stage in range(6):
            order = names[:]
            draw.shuffle(order)
            stages.append(deal(order, sizes))
        total += night_repeats(stages)
    assert total / 3000 == pytest.approx(random_repeats(sizes, 6), rel=0.05)


def test_the_bench_reports_the_figure():
    from bench.nights import TARGET, bench_night_mixer

    figures = bench_night_mixer()
    assert figures["night_mixer_repeats"] <= TARGET
    assert figures["night_mixer_repeated_pairs"] < figures["night_random_repeated_pairs"]
