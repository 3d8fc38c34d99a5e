"""The scenes' camera (referee/vision/scenes.py: _Camera): a pinhole tilted from looking
straight down to STEEPEST, which shortens the table along the view as a phone held at a
table does, and shows the side of a thick tile that faces it; and the counter's training
crops cut where the finder marks a tile (referee/vision/geometry.py: box_of), which on a
tile seen from the side is no rectangle."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from referee.vision import examples
from referee.vision import geometry as g
from referee.vision.model import VIEWS
from referee.vision.scenes import MOST_TILT, STEEPEST, Scene, SceneTile, _Camera, draw_scene, labelled

SIZE = (1200, 900)


def _scale_at_centre(camera: _Camera) -> tuple[float, float]:
    """How much the camera enlarges a small step across the view (x) and along it (y) at the
    table's centre."""
    centre = np.array(SIZE, np.float32) / 2
    step = 1.0
    seen = camera.project(np.array([centre, centre + (step, 0), centre + (0, step)], np.float32), SIZE)
    return float(np.linalg.norm(seen[1] - seen[0])) / step, float(np.linalg.norm(seen[2] - seen[0])) / step


def test_a_camera_looking_straight_down_sees_the_table_as_drawn() -> None:
    points = np.array([[0, 0], [1200, 0], [1200, 900], [0, 900], [600, 450], [37, 811]], np.float32)
    camera = _Camera(0.0, 1500.0, (0.0, math.pi / 2))
    assert np.allclose(camera.project(points, SIZE), points, atol=1e-3)


@pytest.mark.parametrize("degrees", [20, 45, 60])
def test_a_tilted_camera_shortens_the_table_along_the_view_by_the_cosine_of_its_angle(degrees: int) -> None:
    """A tile lying along the view is half as long at 60° from straight down: a keystone that
    narrows the far side alone keeps it 2:1."""
    angle = math.radians(degrees)
    camera = _Camera(angle, 1500.0, (0.0, math.pi / 2))
    across, along = _scale_at_centre(camera)
    assert across == pytest.approx(1.0, abs=2e-3)
    assert along == pytest.approx(math.cos(angle), abs=2e-3)
    # the near side (down the table) is seen larger than the far side
    near, far = camera.project(np.array([[0, 900], [0, 0]], np.float32), SIZE)
    near_width = 2 * abs(near[0] - 600)
    far_width = 2 * abs(far[0] - 600)
    assert near_width > 1200 > far_width


def test_the_tilt_a_scene_draws_spans_straight_down_to_the_steepest_view() -> None:
    assert _Camera.drawn(0.0, 1, 1600).angle == 0.0
    assert _Camera.drawn(MOST_TILT, 1, 1600).angle == pytest.approx(STEEPEST)
    assert math.degrees(STEEPEST) >= 60  # phones at a table are held that low


@pytest.mark.parametrize("seed", range(5))
def test_a_steep_view_shows_the_side_of_a_tile_that_faces_the_camera(seed: int) -> None:
    """The side seen lies towards the camera (down the table before the camera turns), as deep
    as a tile's thickness (0.2 to 0.45 of its width) times tan(angle) on the table."""
    camera = _Camera.drawn(0.4, seed, 1600)
    depth, direction = camera.side
    assert abs(direction - math.pi / 2) <= 0.25
    tan = math.tan(camera.angle)
    assert 0.2 * tan - 1e-9 <= depth <= min(1.2, 0.45 * tan) + 1e-9


def _steep_seeds(count: int) -> list[int]:
    """Seeds whose scene draws a camera at least 50° from straight down (the draws of
    draw_scene before its camera: the set's highest, then the tilt)."""
    seeds = []
    for seed in range(1000):
        rng = random.Random(seed)
        rng.choice((6, 6, 9, 12, 12, 15, 18))
        tilt = rng.choice((0.0, 0.0, rng.uniform(0, 0.25), rng.uniform(0.2, MOST_TILT)))
        if tilt / MOST_TILT * STEEPEST >= math.radians(50):
            seeds.append(seed)
        if len(seeds) == count:
            return seeds
    raise AssertionError("no steep scenes drawn")


def test_tiles_on_a_steep_view_are_drawn_shortened_as_a_camera_sees_them() -> None:
    """On views 50° and more from straight down, a tile lying along the view is much less
    than twice as long as it is wide (the keystone drawn before: none under 1.5 on these seeds)."""
    ratios = []
    for seed in _steep_seeds(8):
        for tile in labelled(draw_scene(seed, (800, 600))):
            _x, _y, length, width, _angle = g.box_of(tile.corners)
            ratios.append(min(length / width, width / length * 4))  # either way the tile lies
    assert ratios and min(ratios) < 1.4


def test_box_of_gives_back_a_rectangle_as_it_was_drawn() -> None:
    corners = g.corners_of(310.0, 205.0, 120.0, 60.0, 0.7)
    x, y, length, width, angle = g.box_of(corners)
    assert (x, y, length, width, angle) == pytest.approx((310.0, 205.0, 120.0, 60.0, 0.7), abs=1e-3)
    assert np.allclose(g.corners_of(*g.box_of(corners)), corners, atol=1e-3)


def test_box_of_a_tile_seen_from_the_side_takes_the_means_of_its_opposite_sides() -> None:
    # a face whose far end is narrower (a trapezoid): length the mean of the long sides
    corners = np.array([[0, 0], [100, 10], [100, 40], [0, 50]], np.float32)
    x, y, length, width, _angle = g.box_of(corners)
    assert (x, y) == pytest.approx((50.0, 25.0))
    assert length == pytest.approx(100.0, abs=0.6)  # the two long sides: 100.5 and 100
    assert width == pytest.approx(40.0)  # the two short sides: 50 and 30


def test_the_counter_learns_from_crops_cut_where_the_finder_marks_a_tile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The finder marks every tile with a rectangle (geometry.box_of); the counter's training
    crops are cut there, not on the face's own corners, which on a tile seen from the side
    make a rectangle of a sheared face the reading never shows it."""
    rgb = np.random.default_rng(3).integers(0, 255, (300, 400, 3)).astype(np.uint8)
    sheared = np.array([[100, 100], [260, 120], [250, 190], [110, 170]], np.float32)
    scene = Scene(rgb, [SceneTile(sheared, (3, 5), 1.0)])
    monkeypatch.setattr(examples, "_jitter", lambda corners, _rng, _amount: np.asarray(corners, np.float32))
    monkeypatch.setattr(examples, "_colour_change", lambda crop, _rng: crop)
    crops, labels = examples.counter_examples(scene, random.Random(2))
    assert labels[0][0] == 1
    marked = g.corners_of(*g.box_of(sheared))
    assert any(np.array_equal(crops[0], g.crop(rgb, marked[list(order)])) for order, _swap in VIEWS)
    assert not any(np.array_equal(crops[0], g.crop(rgb, sheared[list(order)])) for order, _swap in VIEWS)


def test_no_side_of_a_thick_tile_is_drawn_over_a_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every face lies on the tiles' top, above every tile's side: a line of thick tiles
    touching, seen from the side, shows each whole face (a side drawn over the face beside it
    hid pips that the label listed). Of the scenes that draw thick tiles, every face is drawn
    after every side."""
    from referee.vision import scenes

    faces: list[np.ndarray] = []  # held, so no other sprite takes a face's id
    pasted: list[str] = []
    drawing_face = scenes.draw_face
    pasting = scenes._paste

    def draw_face(*args: object, **kwargs: object) -> np.ndarray:
        face = drawing_face(*args, **kwargs)  # type: ignore[arg-type]
        faces.append(face)
        return face

    def paste(canvas: np.ndarray, sprite: np.ndarray, corners: np.ndarray, shadow: float) -> None:
        is_face = any(sprite is face for face in faces)
        # a tile's side: the face's outline in one colour (backs, coins and boxes are drawn first)
        is_side = not is_face and len(np.unique(sprite[:, :, :3][sprite[:, :, 3] > 0], axis=0)) == 1
        pasted.append("face" if is_face else "side" if is_side else "other")
        pasting(canvas, sprite, corners, shadow)

    monkeypatch.setattr(scenes, "draw_face", draw_face)
    monkeypatch.setattr(scenes, "_paste", paste)
    thick_scenes = 0
    for seed in range(40):
        pasted.clear()
        faces.clear()
        scene = draw_scene(seed, (640, 480), count=8)
        if "side" not in pasted:
            continue
        thick_scenes += 1
        last_side = max(i for i, kind in enumerate(pasted) if kind == "side")
        first_face = min(i for i, kind in enumerate(pasted) if kind == "face")
        assert last_side < first_face, seed
        assert pasted.count("face") == len(scene.tiles)
    assert thick_scenes >= 10
