"""Reading synthetic photos of the harder kinds: black tiles on a dark cloth, face-down tiles
with a printed back among the face-up ones (docs/VISION.md, steps 2 and 6)."""

from __future__ import annotations

from collections import Counter

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
