"""Who sits at which table, stage by stage: ``fixed``, ``progressive`` and ``teams`` (the
``mixer`` has a module of its own), and the shuffle that draws a first seating.

A seating is a tuple of tables, table 1 first; each table lists its players in the order
of the night's ``players`` (``NightConfig.game_players`` gives a table game's own order).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

Seating = tuple[tuple[str, ...], ...]


def in_night_order(players: Sequence[str], tables: Sequence[Sequence[str]]) -> Seating:
    """``tables`` with each table's players in the order of ``players``."""
    order = {name: index for index, name in enumerate(players)}
    return tuple(tuple(sorted(table, key=order.__getitem__)) for table in tables)


def deal(players: Sequence[str], sizes: Sequence[int]) -> Seating:
    """Stage 1 (API.md): the players in the order given, the first ones to table 1."""
    if sum(sizes) != len(players):
        raise ValueError(f"tables of {list(sizes)} do not seat {len(players)} players")
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(players[start : start + size]))
        start += size
    return tuple(tables)


def shuffled(players: Sequence[str], seed: int | str, *, teams: bool = False) -> tuple[str, ...]:
    """The players in an order drawn from ``seed`` (the same seed, the same order): dealt
    in this order, it is a shuffled first seating. With ``teams`` the partners (1st and
    2nd, 3rd and 4th, …) stay side by side, as partners."""
    draw = random.Random(f"night-shuffle:{seed}")
    if not teams:
        order = list(players)
        draw.shuffle(order)
        return tuple(order)
    if len(players) % 2:
        raise ValueError("teams need an even number of players")
    pairs = [tuple(players[index : index + 2]) for index in range(0, len(players), 2)]
    draw.shuffle(pairs)
    return tuple(name for pair in pairs for name in pair)


def fixed_stage(first: Seating) -> Seating:
    """``fixed``: the tables of stage 1 all night."""
    return first


def progressive_stage(previous: Seating, rankings: Sequence[Sequence[str]]) -> Seating:
    """night.progressive: from each table's ranking of the stage just closed (best first,
    one per table, in table order), the best of every table moves up one table and the
    worst down one; table 1's best and the last table's worst stay. Sizes stay."""
    if len(rankings) != len(previous):
        raise ValueError("one ranking per table")
    for table, ranking in zip(previous, rankings):
        if sorted(table) != sorted(ranking):
            raise ValueError(f"a ranking of {list(ranking)} is not of the table {list(table)}")
    count = len(previous)
    tables: list[list[str]] = [list(ranking) for ranking in rankings]
    for index in range(count - 1):  # the border between table index+1 and index+2
        worst_above, best_below = rankings[index][-1], rankings[index + 1][0]
        tables[index][tables[index].index(worst_above)] = best_below
        tables[index + 1][tables[index + 1].index(best_below)] = worst_above
    order = [name for table in previous for name in table]
    return in_night_order(order, tables)


def _stage_pairs(teams: int, stage: int) -> list[tuple[int, int]]:
    """The circle method's pairing for round ``stage`` (0-based) of ``teams`` (even):
    team 0 stays, the others turn one place each round."""
    turning = list(range(1, teams))
    shift = stage % (teams - 1)
    circle = [0] + turning[shift:] + turning[:shift]
    return [(circle[index], circle[teams - 1 - index]) for index in range(teams // 2)]


def teams_stage(players: Sequence[str], stage: int) -> Seating:
    """night.teams: fixed partners (the 1st and 2nd player, the 3rd and 4th, …); stage
    ``stage`` (1-based) of a round robin of teams by the circle method, every team meeting
    every other once before any two meet again. Stage 1 is the deal: teams 1 and 2 at table 1,
    3 and 4 at table 2, …; each table lists the team entered earlier first."""
    if len(players) % 4:
        raise ValueError("a team night seats two teams of two at every table")
    count = len(players) // 2
    # Relabel the circle so that its first round is the deal (teams 1–2, 3–4, …).
    label: dict[int, int] = {}
    for table, (a, b) in enumerate(_stage_pairs(count, 0)):
        label[a], label[b] = 2 * table, 2 * table + 1
    pairs = [tuple(sorted((label[a], label[b]))) for a, b in _stage_pairs(count, stage - 1)]
    tables = []
    for first, second in sorted(pairs):
        tables.append(tuple(players[2 * first : 2 * first + 2]) + tuple(players[2 * second : 2 * second + 2]))
    return tuple(tables)


def moves(before: Seating, after: Seating) -> Mapping[str, tuple[int, int]]:
    """Where each player moves between two stages: ``{"Ana": (1, 2)}`` (table 1 → table 2),
    the players who change tables only."""
    table_before = {name: number for number, table in enumerate(before, 1) for name in table}
    moved = {}
    for number, table in enumerate(after, 1):
        for name in table:
            if table_before.get(name) != number:
                moved[name] = (table_before.get(name, 0), number)
    return moved
