"""What the measuring modules of the benchmark share: how much each measures (``Sizes``),
what each reports (``Part``: its rows of the printed table and its figures of the JSON line),
and the few statistics they take of their timings."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field

Figure = float | int | None  # one value of the JSON line (None: not measured in this run)


@dataclass(frozen=True)
class Sizes:
    """How much each measurement does: FULL for the figures, QUICK for a smoke run."""

    name: str
    engine_seconds: float
    plays: int  # logged plays timed against the bare endpoint
    late_plays: int  # plays timed at each of the early and the late point
    late_at: int  # the late point (actions in the game)
    load_clients: int
    load_seconds: float
    page: bool = True
    players_games: int = 20_000  # stored games behind /players and the leaderboards
    import_mb: float | None = None  # the import timed (None: the largest accepted)
    kills: int = 5  # kill -9 bursts of the served app
    kill_after: float = 2.0  # seconds of logging before each kill
    photo_size: tuple[int, int] = (4000, 3000)  # the synthetic JPEG sent in the photo storm (12 MP)
    storm_photos: int = 16  # photos sent at once while plays go on
    png_size: tuple[int, int] = (7000, 7000)  # the transparent PNG of the memory measure
    peak_reads: int = 8  # of each photo sent at once in the memory measure
    halfopen: int = 300  # half-open connections held while a play is timed
    night_tables: int = 20  # tables of 4 at the club night measured (bench/nights.py)
    night_seconds: float = 30.0  # of plays at the club night, its boards and phones looking
    night_nexts: int = 5  # "Next stage" timed at this many nights


FULL = Sizes(
    "full", engine_seconds=5.0, plays=150, late_plays=60, late_at=500, load_clients=30, load_seconds=30.0
)
QUICK = Sizes(
    "quick",
    engine_seconds=1.0,
    plays=40,
    late_plays=20,
    late_at=500,
    load_clients=30,
    load_seconds=5.0,
    kills=2,
    kill_after=1.0,
    night_seconds=6.0,
    night_nexts=1,
)


@dataclass
class Row:
    """One line of the printed table."""

    name: str
    value: str
    detail: str = ""


@dataclass
class Part:
    """What one measuring module found: its table rows, its figures, and the goals it missed
    that the figures alone do not show."""

    rows: list[Row]
    figures: Mapping[str, Figure]
    misses: list[str] = field(default_factory=list)


def fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]
