"""Thick tiles seen from a low angle: their sides, of the face's colour but lit differently,
show beside the face, and the face is outlined by its own edges (docs/VISION.md, step 3)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from referee.vision import read_photo
from referee.vision.bars import has_dark_row
from referee.vision.outline import face_width, tile_width
from referee.vision.shapes import Bar
from referee.vision.synthetic import make_photo, write_set


def test_thick_sides_are_drawn_only_when_asked(tmp_path: Path) -> None:
    flat, tiles, boxes = make_photo(4, size=(640, 480))
    assert make_photo(4, size=(640, 480), thick=0.0) == (flat, tiles, boxes)
    thick, thick_tiles, _ = make_photo(4, size=(640, 480), thick=0.3, tilt=0.2)
    assert thick != flat and thick_tiles
    labels = json.loads(write_set(tmp_path, 2, seed=5, size=(640, 480), thick=True).read_text())
    for photo in labels["photos"]:
        assert "thick=" in photo["notes"] and "tilt=" in photo["notes"]
    plain = json.loads(write_set(tmp_path / "plain", 2, seed=5, size=(640, 480)).read_text())
    assert not any("thick" in photo["notes"] for photo in plain["photos"])


def _stood_up_tile(lean: float = 0.0) -> np.ndarray:
    """A grey image of a tile stood on its long edge, seen from the front: a face in the
    shade (120) between its lit top side (230) and its shaded foot (70), on a table (200);
    the bar (20) runs from edge to edge of the face. ``lean`` tilts the top edge."""
    value = np.full((400, 400), 200, np.uint8)
    for x in range(100, 301):
        top = round(150 + lean * (x - 200))
        value[top - 20 : top, x] = 230  # the lit top side
        value[top:230, x] = 120  # the face
        value[230:245, x] = 70  # the shaded foot
    value[152:228, 198:203] = 20  # the bar
    return value


def test_the_width_is_measured_between_the_faces_own_edges() -> None:
    value = _stood_up_tile()
    bar = Bar(np.array([200.0, 190.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 76.0, 5.0, 0.0)  # fmt: skip
    # to the table, the width is not found (the lit side above the face is not darker): the
    # bar's length over the usual ratio, far wider than the face
    moved, width = tile_width(value, value, bar, 120.0, 20.0)
    assert width > 95
    own, own_width = face_width(value, value, moved, width, 120.0, 20.0)
    assert 76 <= own_width <= 84  # the face is 80 high
    assert abs(float(own.centre[1]) - 190.0) <= 3  # the middle between its edges
    assert max(abs(v) for v in own.lean) < 0.03  # edges square to the bar


def test_a_leaning_edge_is_followed() -> None:
    # the face's top edge rises to the right: the face is higher on the right of the bar
    value = _stood_up_tile(lean=-0.1)
    bar = Bar(np.array([200.0, 190.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 76.0, 5.0, 0.0)  # fmt: skip
    moved, width = tile_width(value, value, bar, 120.0, 20.0)
    own, _own_width = face_width(value, value, moved, width, 120.0, 20.0)
    # the edge on the bar's -along side (up) moves away by 0.1 per pixel to the right (+normal)
    assert own.lean[1] == pytest.approx(0.1, abs=0.03)
    assert abs(own.lean[0]) < 0.03


@pytest.mark.parametrize("seed", [1, 6, 11, 24])
def test_thick_tiles_seen_from_a_low_angle_are_read(seed: int) -> None:
    data, tiles, _ = make_photo(seed, size=(960, 720), thick=0.3, tilt=0.2, easy=True, pips="colour")
    reading = read_photo(data, 12)
    assert Counter(str(read.tile) for read in reading.tiles) == Counter(str(t) for t in tiles)


@pytest.mark.parametrize(
    ("seed", "options"),
    [(300019, {"tilt": 0.19443076841481685}), (300074, {"backs": 2, "tilt": 0.2705435421515795})],
)
def test_a_sheared_face_is_outlined_along_its_own_edges(seed: int, options: dict[str, Any]) -> None:
    # a table seen from the side (the benchmark's set): faces sheared by the perspective,
    # their width found to the table, their long edges no longer square to the bar
    data, tiles, _ = make_photo(seed, size=(1600, 1200), **options)
    reading = read_photo(data, 12)
    assert Counter(str(read.tile) for read in reading.tiles) == Counter(str(t) for t in tiles)


def test_a_row_of_large_pips_beside_the_bar_is_not_a_dark_stripe() -> None:
    # a face (200) with its bar (20) upright at x = 200; on the right, a column of large pips
    # (30) parallel to the bar with gaps of 3 pixels between them; on the left a dark stripe
    value = np.full((300, 400), 200, np.uint8)
    value[110:190, 198:203] = 20
    for top in range(100, 200, 17):
        value[top : top + 14, 218:232] = 30  # pips 14 high, 3 apart
    bar = Bar(np.array([200.0, 150.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 80.0, 5.0, 0.0)  # fmt: skip
    pips_side = np.array([[0.0, 0.3]], np.float32)  # the row 0.3 bar lengths to the right
    assert not has_dark_row(value, bar, pips_side, 120.0)
    value[100:200, 170:180] = 40  # a stripe of cloth's shadow, 0.3 bar lengths to the left
    assert has_dark_row(value, bar, np.array([[0.0, -0.3]], np.float32), 120.0)
