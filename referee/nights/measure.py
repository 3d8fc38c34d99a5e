"""The club night's benchmark figure ``night_mixer_repeats`` (docs/BENCHMARKS.md), for
``python -m bench`` to call: pure computation, no I/O.

The mixer's repeated pairs over every night of 8 to 40 players at tables of 4 for 6
stages, divided by what random seatings give on average. The average is exact, not
sampled: in a random seating of one stage a given pair sits together with probability
p = Σ s(s − 1) / (n(n − 1)) over the table sizes s, independently in each stage, so over
S stages it meets m ~ Binomial(S, p) times and counts E[max(m − 1, 0)] = S·p − 1 + (1 − p)^S.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.nights.config import table_sizes
from referee.nights.mixer import mixer_stage, night_repeats
from referee.nights.seating import Seating

PLAYERS_FROM, PLAYERS_TO = 8, 40
TABLE_SIZE = 4
STAGES = 6


@dataclass(frozen=True, slots=True)
class MixerNight:
    """One night of the measure: its size, the mixer's repeats and random seatings' average."""

    players: int
    sizes: tuple[int, ...]
    repeats: int
    random_repeats: float


def random_repeats(sizes: tuple[int, ...], stages: int) -> float:
    """The average repeats of ``stages`` random seatings at tables of ``sizes``."""
    count = sum(sizes)
    pairs = count * (count - 1) // 2
    together = sum(size * (size - 1) for size in sizes) / (count * (count - 1))
    return pairs * (stages * together - 1 + (1 - together) ** stages)


def mixer_night(players: int, table_size: int = TABLE_SIZE, stages: int = STAGES) -> tuple[Seating, ...]:
    """The mixer's stages for ``players`` players (named P1, P2, …)."""
    names = [f"P{number}" for number in range(1, players + 1)]
    sizes = table_sizes(players, table_size)
    seated: list[Seating] = []
    for _ in range(stages):
        seated.append(mixer_stage(names, sizes, seated))
    return tuple(seated)


def mixer_nights(
    low: int = PLAYERS_FROM, high: int = PLAYERS_TO, table_size: int = TABLE_SIZE, stages: int = STAGES
) -> tuple[MixerNight, ...]:
    """Every night of the measure, ``low`` to ``high`` players."""
    nights = []
    for players in range(low, high + 1):
        sizes = table_sizes(players, table_size)
        repeats = night_repeats(mixer_night(players, table_size, stages))
        nights.append(MixerNight(players, sizes, repeats, random_repeats(sizes, stages)))
    return tuple(nights)


def night_mixer_repeats(nights: tuple[MixerNight, ...] | None = None) -> float:
    """``night_mixer_repeats``: the mixer's repeats over all the nights ÷ random seatings'
    (lower is better; the target is at most 0.5)."""
    nights = mixer_nights() if nights is None else nights
    return sum(night.repeats for night in nights) / sum(night.random_repeats for night in nights)
