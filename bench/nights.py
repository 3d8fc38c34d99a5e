"""Club night figures (docs/BENCHMARKS.md) that need no server: ``night_mixer_repeats``.

``bench_night_mixer()`` returns the figure with what it is made of, as the other
``bench_*`` functions return theirs; ``python -m bench.nights`` prints it.
"""

from __future__ import annotations

import time

from referee.nights.measure import (
    PLAYERS_FROM,
    PLAYERS_TO,
    STAGES,
    TABLE_SIZE,
    mixer_nights,
    night_mixer_repeats,
)

TARGET = 0.5  # the mixer's repeats at most half of random seatings' (issue 25)


def bench_night_mixer() -> dict[str, float]:
    """``night_mixer_repeats``: the mixer's repeated pairs over every night of 8 to 40
    players at tables of 4 for 6 stages ÷ the average of random seatings."""
    started = time.perf_counter()
    nights = mixer_nights(PLAYERS_FROM, PLAYERS_TO, TABLE_SIZE, STAGES)
    seconds = time.perf_counter() - started
    return {
        "night_mixer_repeats": round(night_mixer_repeats(nights), 4),
        "night_mixer_repeated_pairs": float(sum(night.repeats for night in nights)),
        "night_random_repeated_pairs": round(sum(night.random_repeats for night in nights), 1),
        "night_mixer_stage_ms": round(1000 * seconds / (len(nights) * STAGES), 2),
    }


if __name__ == "__main__":
    for name, value in bench_night_mixer().items():
        print(f"{name}: {value}")
