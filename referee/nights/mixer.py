"""The ``mixer`` seating (night.mixer): each stage seats the players so that as few pairs
as possible meet again at one table.

A night's repeats count, for every pair of players seated together in m stages, m − 1.
Where a seating without repeats is known — q² players at q tables of q, for up to q + 1
stages, q a prime power (API.md lists q = 2, 3, 4, 5, 7) — the stages are the parallel
classes of the affine plane of order q: the players are the points of a q × q grid (the
i-th player at row i // q, column i % q), a stage's tables are the lines of one direction,
and two lines of different directions share exactly one point, so no pair meets twice.
Otherwise a deterministic search seats each stage: a greedy deal, then a tabu search of
swaps between tables on the pairs that meet again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

from referee.nights.seating import Seating, deal, in_night_order

# Meeting a player again weighs far more than anything else; meeting one a third time
# weighs a little more than a second time, so repeats spread over many pairs.
REPEAT_WEIGHT = 1000
SEARCH_STEPS = 400  # the tabu search's moves per stage, at most
# Seats looked at while weighing swaps, per stage, at most: a stage is seated in well under 200 ms.
SEARCH_WORK = 150_000


def night_repeats(stages: Sequence[Seating]) -> int:
    """night.mixer's count: every pair seated together in m stages counts m − 1."""
    met: dict[tuple[str, str], int] = {}
    for seating in stages:
        for table in seating:
            for a, b in combinations(sorted(table), 2):
                met[a, b] = met.get((a, b), 0) + 1
    return sum(times - 1 for times in met.values())


# ----- the affine plane ----------------------------------------------------------------


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p ** k`` for a prime ``p``, or ``None``."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


@cache
def _field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] | None:
    """Addition and multiplication tables of the field of ``q`` elements (``None`` if
    there is none). An element is a polynomial over GF(p) of degree < k, written as its
    digits in base p; products are reduced by the first monic polynomial of degree k that
    leaves no zero divisors (an irreducible one)."""
    found = _prime_power(q)
    if found is None:
        return None
    p, k = found
    digits = [tuple((value // p**i) % p for i in range(k)) for value in range(q)]

    def number(coefficients: Sequence[int]) -> int:
        return sum(c * p**i for i, c in enumerate(coefficients))

    add = tuple(
        tuple(number([(x + y) % p for x, y in zip(digits[a], digits[b])]) for b in range(q)) for a in range(q)
    )
    for low in product(range(p), repeat=k):  # the modulus: x^k + low[k-1]·x^(k-1) + … + low[0]
        mul = tuple(tuple(_times(digits[a], digits[b], low, p) for b in range(q)) for a in range(q))
        table = tuple(tuple(number(c) for c in row) for row in mul)
        if all(table[a][b] for a in range(1, q) for b in range(1, q)):
            return add, table
    return None


def _times(a: Sequence[int], b: Sequence[int], low: Sequence[int], p: int) -> tuple[int, ...]:
    """``a · b`` modulo ``x^k + low``, coefficients modulo ``p``."""
    k = len(a)
    product_ = [0] * (2 * k - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product_[i + j] = (product_[i + j] + x * y) % p
    for degree in range(2 * k - 2, k - 1, -1):  # x^degree = −low · x^(degree−k)
        top = product_[degree]
        if top:
            product_[degree] = 0
            for i, c in enumerate(low):
                product_[degree - k + i] = (product_[degree - k + i] - top * c) % p
    return tuple(product_[:k])


def affine_stages(q: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """The q + 1 parallel classes of the affine plane of order ``q`` on the points 0 …
    q² − 1 (point i at row i // q, column i % q): first the rows (the deal), then the
    columns, then the lines of each other slope. ``None`` where ``q`` is no prime power."""
    tables = _field(q)
    if tables is None:
        return None
    add, mul = tables
    negative = [next(z for z in range(q) if add[x][z] == 0) for x in range(q)]
    classes = [tuple(tuple(row * q + column for column in range(q)) for row in range(q))]
    for slope in range(q):  # the line y = slope·x + b holds the points whose b = y − slope·x
        lines: list[list[int]] = [[] for _ in range(q)]
        for point in range(q * q):
            row, column = divmod(point, q)
            lines[add[column][negative[mul[slope][row]]]].append(point)
        classes.append(tuple(tuple(line) for line in lines))
    return tuple(classes)


def _plane_stage(players: Sequence[str], sizes: Sequence[int], previous: Sequence[Seating]) -> Seating | None:
    """The next stage from the affine plane, where the night is one (q² players at q
    tables of q) and its stages so far are the plane's; else ``None``."""
    q = len(sizes)
    if q < 2 or any(size != q for size in sizes) or len(players) != q * q or len(previous) >= q + 1:
        return None
    classes = affine_stages(q)
    if classes is None:
        return None
    as_names = [
        in_night_order(players, [[players[point] for point in line] for line in stage]) for stage in classes
    ]
    for made, seen in zip(as_names, previous):
        if {frozenset(table) for table in made} != {frozenset(table) for table in seen}:
            return None
    return as_names[len(previous)]


# ----- the search ----------------------------------------------------------------------


def mixer_stage(players: Sequence[str], sizes: Sequence[int], previous: Sequence[Seating]) -> Seating:
    """night.mixer: the next stage's seating after the stages ``previous`` (stage 1, with
    none before it, is the deal). Deterministic: the same night seats the same way."""
    if not previous:
        return deal(players, sizes)
    planned = _plane_stage(players, sizes, previous)
    if planned is not None:
        return planned
    index = {name: number for number, name in enumerate(players)}
    count = len(players)
    met = [[0] * count for _ in range(count)]
    for seating in previous:
        for table in seating:
            for a, b in combinations([index[name] for name in table], 2):
                met[a][b] += 1
                met[b][a] += 1
    tables = _search(met, sizes, random.Random(f"night-mixer:{count}:{len(previous)}"))
    return in_night_order(players, [[players[i] for i in table] for table in tables])


def _weights(stages: int) -> list[int]:
    """The weight of seating a pair that has met ``k`` times before: 0 for a first meeting."""
    return [0] + [REPEAT_WEIGHT + k for k in range(1, stages + 2)]


def _search(met: list[list[int]], sizes: Sequence[int], draw: random.Random) -> list[list[int]]:
    count = len(met)
    weight = _weights(max(max(row) for row in met))
    tables = _greedy(met, sizes, weight, draw)
    where = [0] * count
    for number, table in enumerate(tables):
        for player in table:
            where[player] = number

    def cost_with(player: int, table: list[int], leaving: int) -> int:
        row = met[player]
        return sum(weight[row[other]] for other in table if other != leaving and other != player)

    def total() -> int:
        return sum(weight[met[a][b]] for table in tables for a, b in combinations(table, 2))

    cost = total()
    best, best_cost = [list(table) for table in tables], cost
    here = [cost_with(player, tables[where[player]], -1) for player in range(count)]  # each one's repeats
    tabu: dict[int, int] = {}
    work = 0
    for step in range(SEARCH_STEPS):
        if best_cost == 0 or work > SEARCH_WORK:
            break
        choice: tuple[int, int, int] | None = None
        for a in [player for player in range(count) if here[player]]:
            if work > SEARCH_WORK and choice is not None:
                break
            ta = tables[where[a]]
            for b in range(count):
                tb = tables[where[b]]
                if tb is ta:
                    continue
                delta = cost_with(b, ta, a) - here[a] + cost_with(a, tb, b) - here[b]
                work += len(ta) + len(tb)
                allowed = tabu.get(a, -1) < step and tabu.get(b, -1) < step
                if not allowed and cost + delta >= best_cost:  # aspiration: a new best is never tabu
                    continue
                if choice is None or delta < choice[0] or (delta == choice[0] and draw.random() < 0.3):
                    choice = (delta, a, b)
        if choice is None:
            break
        delta, a, b = choice
        ta_number, tb_number = where[a], where[b]
        tables[ta_number][tables[ta_number].index(a)] = b
        tables[tb_number][tables[tb_number].index(b)] = a
        where[a], where[b] = tb_number, ta_number
        for player in tables[ta_number] + tables[tb_number]:
            here[player] = cost_with(player, tables[where[player]], -1)
        cost += delta
        tabu[a] = tabu[b] = step + 3 + draw.randrange(4)
        if cost < best_cost:
            best, best_cost = [list(table) for table in tables], cost
    return best


def _greedy(
    met: list[list[int]], sizes: Sequence[int], weight: list[int], draw: random.Random
) -> list[list[int]]:
    """A first seating: players, most met first, each to the open table where they meet
    the fewest again (the emptiest of those)."""
    count = len(met)
    order = sorted(range(count), key=lambda p: (-sum(1 for k in met[p] if k), draw.random()))
    tables: list[list[int]] = [[] for _ in sizes]
    for player in order:
        row = met[player]
        open_tables = [n for n, size in enumerate(sizes) if len(tables[n]) < size]
        tables[
            min(
                open_tables,
                key=lambda n: (sum(weight[row[other]] for other in tables[n]), len(tables[n]) - sizes[n], n),
            )
        ].append(player)
    return tables
