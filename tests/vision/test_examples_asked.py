"""What a training asks of the counter's examples beyond the scenes as drawn: crops changed as
another camera or room would (``examples.camera_change``, ``python -m referee.vision.train
--camera-crops``) and the table between neighbouring tiles as no tile (``examples.between_tiles``,
``--between-tiles``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from referee.vision import examples
from referee.vision import geometry as g
from referee.vision.examples import camera_change, counter_examples, scene_for


def _crops(seed: int, camera: random.Random | None) -> tuple[list[np.ndarray], list[tuple[int, int, int]]]:
    scene, _factor = scene_for(seed)
    return counter_examples(scene, random.Random(seed), camera)


def test_without_a_camera_the_crops_are_those_drawn_before() -> None:
    # a training not asking for it draws every crop and label as it always has
    scene, _factor = scene_for(2024)
    plain, labels = examples._counter_examples(scene, random.Random(4))
    again, labels_again = counter_examples(scene, random.Random(4))
    assert labels_again == labels
    assert all(np.array_equal(a, b) for a, b in zip(plain, again, strict=True))


def test_a_camera_changes_most_crops_and_no_label() -> None:
    plain, labels = _crops(77, None)
    changed, changed_labels = _crops(77, random.Random(9))
    assert changed_labels == labels
    assert [c.shape for c in changed] == [p.shape for p in plain]
    assert all(c.dtype == np.uint8 for c in changed)
    differing = sum(not np.array_equal(p, c) for p, c in zip(plain, changed, strict=True))
    assert differing >= len(plain) // 2


def test_the_same_camera_seed_changes_the_crops_the_same_way() -> None:
    first, _ = _crops(5, random.Random(1))
    second, _ = _crops(5, random.Random(1))
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("seed", range(40))
def test_a_changed_crop_keeps_its_pips_where_they_were(seed: int) -> None:
    # a dark pip on a light face: however the crop's colours, tone and sharpness change, the
    # pip's place still differs from the face around it (lighter or darker, inverted or not)
    crop = np.full((g.CROP_H, g.CROP_W, 3), 230, np.uint8)
    crop[18:24, 18:24] = 20
    changed = camera_change(crop, random.Random(seed))
    assert changed.shape == crop.shape and changed.dtype == np.uint8
    out = changed.astype(np.float32)
    pip = out[19:23, 19:23].mean()
    face = out[2:8, 50:70].mean()
    assert abs(pip - face) > 40


def test_the_table_between_neighbouring_tiles_is_cut_where_no_tile_lies() -> None:
    marks = 0
    for seed in range(200, 230):
        scene, _factor = scene_for(seed)
        between = examples.between_tiles(scene, random.Random(seed))
        assert len(between) <= examples.BETWEEN_TILES
        everything = [tile.corners for tile in scene.tiles] + list(scene.face_down)
        for corners in between:
            marks += 1
            assert all(g.overlap(corners, other) <= examples.BETWEEN_TILES_ON_A_TILE for other in everything)
            # near two tiles: its centre within two and a half tile lengths of one
            centre = corners.mean(axis=0)
            assert min(
                np.linalg.norm(centre - tile.corners.mean(axis=0)) for tile in scene.tiles
            ) < 2.5 * max(g.box_of(tile.corners)[2] for tile in scene.tiles)
    assert marks >= 20


def test_the_table_between_tiles_is_shown_as_no_tile_only_when_asked() -> None:
    scene, _factor = scene_for(203)
    plain, labels = counter_examples(scene, random.Random(3))
    more, more_labels = counter_examples(scene, random.Random(3), between=random.Random(4))
    extra = len(examples.between_tiles(scene, random.Random(4)))
    assert extra > 0
    assert more_labels == labels + [(0, -1, -1)] * extra
    assert all(np.array_equal(a, b) for a, b in zip(plain, more, strict=False))
