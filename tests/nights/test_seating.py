"""The seatings (referee/nights/seating.py): the deal, the shuffle, ``fixed``,
``progressive`` (night.progressive), ``teams`` (night.teams, the circle method) and the moves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.nights.config import table_sizes
from referee.nights.seating import (
    deal,
    fixed_stage,
    in_night_order,
    moves,
    progressive_stage,
    shuffled,
    teams_stage,
)

PLAYERS = tuple("ABCDEFGHIJ")


def test_stage_one_deals_in_the_order_given():
    assert deal(PLAYERS, (4, 3, 3)) == (tuple("ABCD"), tuple("EFG"), tuple("HIJ"))
    with pytest.raises(ValueError):
        deal(PLAYERS, (4, 4))


def test_fixed_keeps_stage_one():
    first = deal(PLAYERS, (4, 3, 3))
    assert fixed_stage(first) == first


def test_shuffle_is_drawn_from_its_seed():
    assert shuffled(PLAYERS, 7) == shuffled(PLAYERS, 7)
    assert sorted(shuffled(PLAYERS, 7)) == sorted(PLAYERS)
    assert len({shuffled(PLAYERS, seed) for seed in range(20)}) > 1
    assert shuffled(PLAYERS, "a") == shuffled(PLAYERS, "a")


@given(st.integers(1, 50), st.integers())
def test_shuffle_keeps_partners_side_by_side(teams, seed):
    players = [f"P{number}" for number in range(2 * teams)]
    order = shuffled(players, seed, teams=True)
    assert sorted(order) == sorted(players)
    pairs = {frozenset(order[index : index + 2]) for index in range(0, len(order), 2)}
    assert pairs == {frozenset(players[index : index + 2]) for index in range(0, len(players), 2)}
    with pytest.raises(ValueError):
        shuffled(players[:-1] if teams else ["x"], seed, teams=True)


def test_progressive_moves_the_best_up_and_the_worst_down():
    before = (tuple("ABCD"), tuple("EFG"), tuple("HIJ"))
    rankings = [tuple("CABD"), tuple("GEF"), tuple("JIH")]  # best first
    after = progressive_stage(before, rankings)
    # table 1 keeps its best (C), sends D down and takes G; table 2 sends G up, F down, takes
    # D and J; the last table keeps its worst (H), sends J up and takes F.
    assert after == (tuple("ABCG"), tuple("DEJ"), tuple("FHI"))
    assert moves(before, after) == {"G": (2, 1), "D": (1, 2), "J": (3, 2), "F": (2, 3)}


def test_progressive_with_one_table_keeps_it():
    assert progressive_stage((tuple("ABCD"),), [tuple("DCBA")]) == (tuple("ABCD"),)


def test_progressive_at_tables_of_two_swaps_across_every_border():
    before = (("A", "B"), ("C", "D"), ("E", "F"))
    after = progressive_stage(before, [("A", "B"), ("C", "D"), ("E", "F")])
    assert after == (("A", "C"), ("B", "E"), ("D", "F"))


def test_progressive_refuses_a_ranking_of_another_table():
    with pytest.raises(ValueError):
        progressive_stage((tuple("AB"), tuple("CD")), [tuple("AC"), tuple("BD")])
    with pytest.raises(ValueError):
        progressive_stage((tuple("AB"), tuple("CD")), [tuple("AB")])


@given(st.integers(4, 60), st.integers(2, 8), st.randoms(use_true_random=False))
def test_progressive_keeps_sizes_and_moves_one_table_at_most(count, table_size, draw):
    players = [f"P{number}" for number in range(count)]
    before = deal(players, table_sizes(count, table_size))
    rankings = [draw.sample(table, len(table)) for table in before]
    after = progressive_stage(before, rankings)
    assert [len(table) for table in after] == [len(table) for table in before]
    assert sorted(name for table in after for name in table) == sorted(players)
    last = len(before)
    for name, (was, now) in moves(before, after).items():
        ranking = rankings[was - 1]
        assert abs(was - now) == 1
        assert name == (ranking[0] if now < was else ranking[-1])
        assert not (was == 1 and now == 0) and not (was == last and now > last)
    assert after == in_night_order(players, after)


def test_teams_stage_one_is_the_deal():
    players = [f"P{number}" for number in range(1, 13)]
    assert teams_stage(players, 1) == deal(players, (4, 4, 4))


@pytest.mark.parametrize("teams", [2, 4, 6, 8, 10, 20])
def test_teams_round_robin_every_team_once_before_any_twice(teams):
    players = [f"P{number}" for number in range(1, 2 * teams + 1)]
    partners = {players[index]: players[index ^ 1] for index in range(len(players))}
    met: dict[frozenset[int], int] = {}
    stages = 2 * (teams - 1) + 1
    for stage in range(1, stages + 1):
        seating = teams_stage(players, stage)
        assert sorted(name for table in seating for name in table) == sorted(players)
        for table in seating:
            assert len(table) == 4
            first, second = table[:2], table[2:]
            assert partners[first[0]] == first[1] and partners[second[0]] == second[1]  # never split
            assert players.index(first[0]) < players.index(second[0])  # the earlier team first
            pair = frozenset((players.index(first[0]) // 2, players.index(second[0]) // 2))
            met[pair] = met.get(pair, 0) + 1
        rounds_done = stage // (teams - 1)  # complete round robins so far
        if stage % (teams - 1) == 0:
            assert len(met) == teams * (teams - 1) // 2
            assert set(met.values()) == {rounds_done}
        else:
            assert max(met.values()) <= rounds_done + 1 and min(met.values()) >= rounds_done


def test_teams_need_tables_of_four():
    with pytest.raises(ValueError):
        teams_stage(list("ABCDEF"), 1)


def test_moves_name_only_the_players_who_change_tables():
    assert moves((("A", "B"), ("C", "D")), (("A", "B"), ("C", "D"))) == {}
    assert moves((("A", "B"), ("C", "D")), (("A", "C"), ("B", "D"))) == {"C": (2, 1), "B": (1, 2)}
