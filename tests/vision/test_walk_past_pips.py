"""The walk to a tile's end does not stop inside its pips: a tile's pips lie inside its face
with a margin of face around them, so a stop that cuts pips (on light falling off along the
face, or on a column of a dense half's pips taken for a seam) is not the tile's end
(docs/VISION.md, step 3)."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from referee.vision import read_photo
from referee.vision.overlaps import drop_overlaps
from referee.vision.shapes import Bar, Found, Half
from referee.vision.synthetic import make_photo
from referee.vision.walk import end_distance

FACE, DARK = 220.0, 20.0
# the face: two halves of 80 x 80 (x 100..260, y 80..160) on a dark cloth, the bar upright
# at x = 180; the right half holds a dense grid of pips, its last column near the tile's end
BAR = Bar(np.array([180.0, 120.0], np.float32), np.array([0.0, 1.0], np.float32),
          np.array([1.0, 0.0], np.float32), 64.0, 5.0, 0.0)  # fmt: skip
COLUMNS = (196, 214, 232, 250)
ROWS = (96, 120, 144)


def _tile(falloff: float = 0.0, side: int = 0, side_shade: float = 0.7) -> np.ndarray:
    """The grey image: the face's light falls off along its right half by ``falloff``; a
    thick tile's shaded end side ``side`` pixels deep lies beyond the face's right end."""
    value = np.full((240, 400), 70, np.uint8)
    for x in range(100, 260):
        k = 1.0 if x < 180 else 1.0 - falloff * (x - 180) / 80
        value[80:160, x] = round(FACE * k)
    value[80:160, 260 : 260 + side] = round(FACE * side_shade)
    value[88:152, 178:183] = round(DARK)
    for cx in COLUMNS:
        for cy in ROWS:
            cv2.circle(value, (cx, cy), 6, 30, -1)
    return value


def _walk(value: np.ndarray, side: int = 1) -> float:
    rgb = cv2.cvtColor(value, cv2.COLOR_GRAY2RGB)
    closed = cv2.morphologyEx(value, cv2.MORPH_CLOSE, np.ones((25, 25), np.uint8))
    colour = np.array([FACE, FACE, FACE])
    return float(end_distance(rgb, value, closed, BAR, FACE, DARK, side, 80.0, colour))


@pytest.mark.parametrize("falloff", [0.25, 0.3])
def test_light_falling_off_along_a_dense_half_does_not_end_it_among_its_pips(falloff: float) -> None:
    # the face darkens gradually below 0.88 of its brightness by the bar, among the last
    # pips: the walk goes on past them to the face's end (80 from the bar)
    assert 76 <= _walk(_tile(falloff)) <= 82
    assert 76 <= _walk(_tile(falloff), side=-1) <= 82  # the plain half, lit evenly


def test_a_shaded_side_beyond_the_last_pips_still_ends_the_face() -> None:
    # a thick tile's end side in the shade beyond the face: no pip is cut there
    assert 76 <= _walk(_tile(side=16)) <= 82


def test_a_column_of_dense_pips_is_not_a_seam() -> None:
    # a column of large pips across the half with the face between them shaded (below the
    # face's level, as on the likeness image around coloured pips): dark across the whole
    # row, as a seam between two tiles is, but with face between the pips
    value = np.full((240, 400), 70, np.uint8)
    value[80:160, 100:260] = round(FACE)
    value[88:152, 178:183] = round(DARK)
    value[80:160, 218:233] = 130
    for cy in (92, 120, 148):
        cv2.circle(value, (225, cy), 10, 25, -1)
    assert 76 <= _walk(value) <= 82


def _reading(pips: tuple[int, int], sure: float, length: float, shift: float) -> Found:
    bar = Bar(np.array([200.0 + shift, 200.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), length, 5.0, 0.0)  # fmt: skip
    return Found(bar, (100.0, 100.0), 100.0, (Half(pips[0], sure), Half(pips[1], 0.95)))


def test_the_surer_reading_of_a_tile_goes_before_the_longer_bar() -> None:
    # one tile found by two bar finders: the longer bar's half was outlined over a corner of
    # the table, counted as an odd-sized tenth pip (less sure, 0.75 against 0.85)
    found = [_reading((10, 4), 0.75, 101.0, 0.0), _reading((9, 4), 0.85, 100.0, 1.0)]
    kept = drop_overlaps(found)
    assert [(item.halves[0].pips, item.halves[1].pips) for item in kept] == [(9, 4)]
    # at equal sureness the longer bar still goes first
    found = [_reading((10, 4), 0.85, 101.0, 0.0), _reading((9, 4), 0.85, 100.0, 1.0)]
    assert [(item.halves[0].pips, item.halves[1].pips) for item in drop_overlaps(found)] == [(10, 4)]


def test_light_falling_off_along_the_tiles_is_drawn_only_when_asked() -> None:
    plain = make_photo(4, size=(640, 480))
    assert make_photo(4, size=(640, 480), falloff=0.0) == plain
    faded, tiles, _ = make_photo(4, size=(640, 480), falloff=0.35)
    assert faded != plain[0] and tiles == plain[1]
    reading = read_photo(faded, 12)
    assert Counter(str(read.tile) for read in reading.tiles) == Counter(str(t) for t in tiles)
