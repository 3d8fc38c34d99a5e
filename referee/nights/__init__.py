"""Club nights: many tables, players moving between them, one standing for the evening.

The pure core (no I/O, immutable values): ``NightConfig`` (a night as created, validated as
API.md "Club nights" says), the seatings (``fixed``, ``progressive``, ``mixer``, ``teams``),
``Night`` (its stages, their results, the standing) and the benchmark figure
``night_mixer_repeats``. Refusals cite the club's rules, ``night.*`` (RULES.md section 5).
"""

from referee.nights.config import NightConfig, NightRefused, table_sizes
from referee.nights.measure import night_mixer_repeats
from referee.nights.mixer import mixer_stage, night_repeats
from referee.nights.night import Night, Placing, StageRecord, TableResult, standings, table_ranking
from referee.nights.seating import Seating, deal, moves, progressive_stage, shuffled, teams_stage

__all__ = [
    "Night",
    "NightConfig",
    "NightRefused",
    "Placing",
    "Seating",
    "StageRecord",
    "TableResult",
    "deal",
    "mixer_stage",
    "moves",
    "night_mixer_repeats",
    "night_repeats",
    "progressive_stage",
    "shuffled",
    "standings",
    "table_ranking",
    "table_sizes",
    "teams_stage",
]
