"""Reading synthetic photos where one walk from a bar stops short of the tile's end (at a row
of a dense half's pips, or at the seam with a tile laid end to end), or a half's square takes
in a sliver of the next tile: a tile's halves are equally long and its pips of one size, and
the photo's usual half length settles which reading of the tile is kept (docs/VISION.md,
steps 5, 6, 8 and 9)."""

from __future__ import annotations

from collections import Counter

from referee.vision import read_photo
from referee.vision.synthetic import make_photo


def _read(data: bytes) -> Counter[str]:
    return Counter(str(read.tile) for read in read_photo(data, 12).tiles)


def test_the_reading_whose_halves_fit_the_photo_is_kept() -> None:
    # a 1-12 laid end to end with a 3-5: one bar finder's bar, grown into a pip, is the
    # longest, and its walk stopped at the 12's last row of pips (a 1-8, halves of 0.75 of
    # the photo's usual length); the readings of the tile's usual length read 1-12
    data, tiles, _ = make_photo(100_058, size=(1600, 1200), touching=2)
    assert sorted(map(str, tiles)) == ["1-12", "3-5"]
    assert _read(data) == Counter(["1-12", "3-5"])


def test_a_half_cut_short_on_the_likeness_pass_is_read_at_the_usual_length() -> None:
    # a 1-11 touching a 0-12 end to end, found only on the likeness to its face: the walk
    # into the 11 stopped a row of pips early (a 1-7); read again at the half length of the
    # photo's five other tiles it is a 1-11 (a 12 MP photo, as the benchmark's default set)
    data, tiles, _ = make_photo(100_049, size=(4000, 3000), touching=1)
    read = _read(data)
    assert read == Counter(str(t) for t in tiles), read


def test_a_sliver_of_the_next_tiles_pip_is_no_pip() -> None:
    # a 0-10 in a train of black tiles: its walks run through the train and it is read again
    # at the photo's usual half length; in one re-read the blank half's square takes in a
    # sliver of the next tile's pip at its border, a mark far smaller than the 10's pips,
    # and read 1-10 (a 12 MP photo, as the benchmark's default set)
    data, tiles, _ = make_photo(100_009, size=(4000, 3000), backs=2, touching=2)
    read = _read(data)
    assert read == Counter(str(t) for t in tiles), read


def test_a_half_far_shorter_than_the_other_is_read_as_long() -> None:
    # a 10-12 seen from the side: the walk into the 10 stopped at its last row of pips (a
    # 6-12, that half 0.8 of the other and of the photo's usual half); a tile's halves are
    # equally long, and read at the longer one's length it is a 10-12
    data, tiles, _ = make_photo(100_152, size=(1600, 1200), backs=2, tilt=0.2957264919129176)
    read = _read(data)
    assert read == Counter(str(t) for t in tiles), read


def test_a_reread_at_the_usual_length_does_not_fit_the_photo_by_construction() -> None:
    # thick tiles seen from a low angle, their apparent shape varying with their direction:
    # the less sure readings of an 8-9 and a 5-11 were read again at the photo's usual half
    # length (a 5-6 and a 3-7), and those re-reads, as long as the usual by construction,
    # must not win over the readings walked to the tiles' ends
    data, tiles, _ = make_photo(300_088, size=(1600, 1200), tilt=0.107, thick=0.245)
    assert {"8-9", "5-11"} <= set(map(str, tiles))
    read = _read(data)
    assert {"8-9", "5-11"} <= set(read), read
    assert not read & Counter(["5-6", "3-7"]), read
