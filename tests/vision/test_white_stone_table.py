"""Reading synthetic photos on a white stone table, as light as the faces: a walk from a bar
may then run through the table to the end of its range without meeting a tile's end
(docs/VISION.md, step 5)."""

from __future__ import annotations

from collections import Counter

from referee.vision import read_photo
from referee.vision.synthetic import make_photo


def _read(data: bytes) -> Counter[str]:
    return Counter(str(read.tile) for read in read_photo(data, 12).tiles)


def test_a_face_down_tile_whose_walks_meet_no_end_is_no_tile() -> None:
    # two face-down tiles with a printed name on a white stone table: from the rule under
    # the name the walks run through the back and the table to their full range; at a
    # tile's usual half length the halves hold the letters, so no tile is read there
    data, tiles, _ = make_photo(500_097, size=(1600, 1200), backs=2, table="marble")
    read = _read(data)
    assert not read - Counter(str(t) for t in tiles), read


def test_no_face_down_tile_is_read_in_a_side_view_on_a_white_stone_table() -> None:
    data, tiles, _ = make_photo(300_085, size=(1600, 1200), backs=2, tilt=0.12329654641967021, table="marble")
    read = _read(data)
    assert sum(read.values()) == len(tiles), read
    assert {"1-11", "3-5", "4-5"} <= set(read), read
