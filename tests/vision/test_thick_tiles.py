"""Thick tiles seen from a low angle: their sides, of the face's colour but lit differently,
show beside the face; the reader reads the face, not the face and its side (photos of the
project's other generator, ``referee/vision/synthetic.py``, never trained on)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.vision import read_photo
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
    # their long edges no longer square to the bar
    data, tiles, _ = make_photo(seed, size=(1600, 1200), **options)
    reading = read_photo(data, 12)
    assert Counter(str(read.tile) for read in reading.tiles) == Counter(str(t) for t in tiles)


# thick tiles seen from a low angle on a white stone table (the benchmark's --thick kind)
_LOW_ON_MARBLE = {"size": (1600, 1200), "thick": 0.4, "tilt": 0.3, "table": "marble"}


def test_no_tile_is_read_half_on_a_tile_and_half_on_the_table() -> None:
    # the edge of the 4-4, its face on one side and the stone on the other, looks like a
    # bar: a 0-4 lying half on the table was read there once
    data, tiles, _ = make_photo(29, **_LOW_ON_MARBLE)
    assert "4-4" in [str(t) for t in tiles]
    read = [str(t.tile) for t in read_photo(data, 12).tiles]
    assert "4-4" in read and "0-4" not in read


def test_a_black_thick_tile_is_read_within_its_own_edges() -> None:
    # a black thick tile beside the stone: the 8-half read with the table along its side
    # once counted 7
    data, tiles, _ = make_photo(30, **_LOW_ON_MARBLE)
    assert "0-8" in [str(t) for t in tiles]
    assert "0-8" in [str(t.tile) for t in read_photo(data, 12).tiles]
