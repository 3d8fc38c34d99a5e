"""Reading synthetic photos of the harder kinds: black tiles on a dark cloth, face-down tiles
with a printed back among the face-up ones, tiles side by side (docs/VISION.md, steps 2, 6
and 9)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee.vision import read_photo
from referee.vision.synthetic import make_photo


def _read(data: bytes) -> Counter[str]:
    return Counter(str(read.tile) for read in read_photo(data, 12).tiles)


@pytest.mark.parametrize(("seed", "touching"), [(300015, 1), (500042, 2)])
def test_black_tiles_on_a_cloth_nearly_as_dark_stand_out_from_it(seed: int, touching: int) -> None:
    # black faces (about 25 levels) on a dark cloth (about 55): the table differs from the
    # face by less than the 40 levels asked of a white face, but by more than its own
    # brightness; laid end to end, neither tile is lost nor are the two read as one
    data, tiles, _ = make_photo(seed, size=(960, 720), touching=touching)
    assert _read(data) == Counter(str(t) for t in tiles)


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (300078, {"backs": 1, "tilt": 0.22, "table": "marble"}),
        (500016, {"backs": 1, "touching": 2}),
        (500020, {"backs": 2}),
        (500030, {"backs": 2}),
        (500113, {"backs": 2, "touching": 2}),
    ],
)
def test_a_printed_name_read_from_the_rule_under_it_is_no_tile(seed: int, options: dict[str, Any]) -> None:
    # the rule under a face-down tile's printed name looks like a bar; the letters beside it,
    # large and not round, would read as a low tile (0-2, 0-3): every face-up tile is read
    # and nothing else
    data, tiles, _ = make_photo(seed, size=(1280, 960), **options)
    assert _read(data) == Counter(str(t) for t in tiles)


def test_round_pips_are_not_letters() -> None:
    # the marks of low tiles (0-1, 1-2, 0-3 ...) are round: none of them is taken for a name
    for seed in range(6):
        data, tiles, _ = make_photo(seed, size=(960, 720), count=1, easy=True, highest=3)
        assert _read(data) == Counter(str(t) for t in tiles)


def test_the_seam_of_two_tiles_side_by_side_is_no_bar() -> None:
    # a 4-9 and a 5-10 lie side by side: the seam along their long sides looks like a bar,
    # and the "tile" read on it (7-11) holds the bar of one of them in each half
    data, tiles, _ = make_photo(500036, size=(960, 720))
    assert {"4-9", "5-10"} <= {str(t) for t in tiles}
    assert _read(data) == Counter(str(t) for t in tiles)


def test_tiles_laid_end_to_end_are_not_taken_for_a_seam() -> None:
    # three tiles in a train: the middle one has a neighbour's bar beyond each of its ends,
    # never inside its halves, and is read
    for seed in (3, 7):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, touching=2, count=3)
        assert _read(data) == Counter(str(t) for t in tiles)
