"""Large, near tiles seen from a low angle: a half outlined a little wider than the face takes
in the tile's dark lower rim and the table along one of its long sides, which must not join
the pips into one broad mark taken for print (docs/VISION.md, step 6)."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision import read_photo
from referee.vision.checks import one_face
from referee.vision.pips import count_pips
from referee.vision.shapes import Bar
from referee.vision.synthetic import make_photo

IVORY_IN_SHADE = (130, 118, 95)
RIM = (54, 44, 31)  # the tile's rounded lower rim, turned away from the light
SHADOW = (35, 32, 26)  # the table in the tile's shadow, just below it
TABLE = (205, 207, 202)
GREEN = (20, 60, 30)


def _near_half(count_rows: tuple[float, ...] = (0.22, 0.5, 0.78)) -> tuple[np.ndarray, Bar]:
    """An ivory face in the shade (y 100 to 182) with its bar upright at x = 150 and a five on
    the right half, whose lower pips touch the dark lower rim (y 182 to 190); below it the
    tile's shadow on the table, then the table."""
    rgb = np.zeros((300, 400, 3), np.uint8)
    rgb[:] = TABLE
    rgb[100:182, 55:246] = IVORY_IN_SHADE
    rgb[182:190, 55:246] = RIM
    rgb[190:212, 50:252] = SHADOW
    rgb[104:178, 148:153] = (15, 15, 15)  # the bar
    top, bottom = 112, 173  # the rows of pips: the lower ones reach into the rim
    for x, y in ((175, top), (225, top), (200, (top + bottom) // 2), (175, bottom), (225, bottom)):
        cv2.circle(rgb, (x, y), 10, GREEN, -1, lineType=cv2.LINE_AA)
    bar = Bar(np.array([150.0, 150.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 74.0, 5.0, 0.0)  # fmt: skip
    return rgb, bar


def test_the_dark_rim_along_a_half_does_not_join_its_pips_into_print() -> None:
    rgb, bar = _near_half()
    # the width taken from the bar's length (74 / 0.74): 100, wider than the face (82), so the
    # half's square runs from y 100 to 200 and takes in the rim and the shadow
    half = count_pips(rgb, bar, 1, 95.0, 100.0)
    assert not half.foreign
    assert half.pips == 5


def test_a_half_outlined_on_the_face_is_read_as_before() -> None:
    rgb, bar = _near_half()
    centred = Bar(np.array([150.0, 141.0], np.float32), bar.along, bar.normal, bar.length, 5.0, 0.0)
    half = count_pips(rgb, centred, 1, 95.0, 82.0)
    assert (half.pips, half.foreign) == (5, False)


def test_print_beside_the_rim_is_still_print() -> None:
    # a face-down tile's printed name: a broad letter stays broad when the band is cleared
    rgb, bar = _near_half()
    rgb[100:182, 155:246] = IVORY_IN_SHADE
    cv2.putText(rgb, "O", (168, 176), cv2.FONT_HERSHEY_DUPLEX, 2.2, (50, 60, 85), 6, cv2.LINE_AA)
    half = count_pips(rgb, bar, 1, 95.0, 100.0)
    assert half.foreign


def _bar_between(above: tuple[int, int, int], below: tuple[int, int, int]) -> tuple[np.ndarray, Bar]:
    """A dark line (y 148 to 152) between a surface ``above`` and a surface ``below``."""
    rgb = np.zeros((300, 300, 3), np.uint8)
    rgb[:150] = above
    rgb[150:] = below
    rgb[148:153, 100:200] = (30, 28, 25)
    bar = Bar(np.array([150.0, 150.0], np.float32), np.array([1.0, 0.0], np.float32),
              np.array([0.0, 1.0], np.float32), 100.0, 5.0, 0.0)  # fmt: skip
    return rgb, bar


def test_a_line_between_a_face_down_tile_and_the_table_is_no_bar() -> None:
    # the shaded foot of a face-down ivory tile (its back above) on a grey-green stone table
    rgb, bar = _bar_between((239, 230, 225), (191, 192, 188))
    assert not one_face(rgb, bar)


def test_a_bar_on_one_face_in_a_gradient_of_light_is_a_bar() -> None:
    rgb, bar = _bar_between((126, 120, 100), (146, 132, 108))  # one ivory face, lit unevenly
    assert one_face(rgb, bar)
    # a dense half of coloured pips leaves too little face on its side to be judged
    rgb, bar = _bar_between((240, 140, 30), (239, 230, 225))
    assert one_face(rgb, bar)


def test_a_black_face_with_white_pips_on_one_side_is_one_face() -> None:
    # a black tile's bar and pips are white (here a dense half: most samples on that side hit a
    # pip): the face is the darker of the samples beside it
    rgb, bar = _bar_between((25, 25, 28), (25, 25, 28))
    rgb[148:153, 100:200] = (235, 235, 235)
    for x in (120, 150, 180):
        for y in (100, 115, 130):
            cv2.circle(rgb, (x, y), 7, (240, 240, 240), -1)
    assert one_face(rgb, bar)


# thick tiles seen from a low angle on a white stone table (the benchmark's --thick kind)
_LOW_ON_MARBLE = {"size": (1600, 1200), "thick": 0.4, "tilt": 0.3, "table": "marble"}


def test_a_reading_across_a_tile_and_the_table_is_dropped() -> None:
    # a "bar" along the edge of the 4-4, the tile's face on one side and the stone on the
    # other, was read as a 0-4 lying half on the table
    data, tiles, _ = make_photo(29, **_LOW_ON_MARBLE)
    assert "4-4" in [str(t) for t in tiles]
    read = [str(t.tile) for t in read_photo(data, 12).tiles]
    assert "4-4" in read and "0-4" not in read


def test_a_half_read_only_without_its_edge_gives_way_to_a_better_outline() -> None:
    # a black thick tile: its first outline takes in the table along a side of the 8-half and
    # reads 7 with the band cleared; read again along the tile's long sides it reads 8
    data, tiles, _ = make_photo(30, **_LOW_ON_MARBLE)
    assert "0-8" in [str(t) for t in tiles]
    assert "0-8" in [str(t.tile) for t in read_photo(data, 12).tiles]
