"""The outliner's square and answer (``referee.vision.outline``): what it is shown of a mark,
what it should say of it, and how its answer becomes a tile's outline again."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import pytest

from referee.vision import geometry as g
from referee.vision import outline
from referee.vision.examples import misdrawn, outline_examples, scene_for
from referee.vision.model import Network
from referee.vision.scenes import labelled

# (the tile: centre, length, width, direction) and the mark on it (the same)
PAIRS = [
    ((200.0, 150.0, 80.0, 40.0, 0.0), (205.0, 150.0, 40.0, 40.0, 0.0)),  # half a tile marked
    ((200.0, 150.0, 80.0, 40.0, 0.3), (190.0, 160.0, 90.0, 110.0, 1.2)),  # too wide, turned
    ((120.0, 90.0, 30.0, 15.0, -1.0), (118.0, 92.0, 30.0, 15.0, 2.1)),  # turned half a turn and more
    ((300.0, 220.0, 60.0, 28.0, 2.0), (300.0, 220.0, 60.0, 28.0, 2.0)),  # right as it is
]


def _same_outline(a: np.ndarray, b: np.ndarray) -> bool:
    """One tile's outline either end first (a mark's direction says nothing of its halves)."""
    return bool(np.allclose(a, b, atol=1e-3) or np.allclose(a, b[[2, 3, 0, 1]], atol=1e-3))


@pytest.mark.parametrize(("tile", "mark"), PAIRS)
def test_what_the_outliner_should_say_draws_the_tile_again(
    tile: tuple[float, ...], mark: tuple[float, ...]
) -> None:
    tile_corners, mark_corners = g.corners_of(*tile), g.corners_of(*mark)
    said = outline.target(mark_corners, tile_corners)
    assert said.shape == (outline.OUTLINE_OUTPUTS,)
    assert _same_outline(outline.outlined(mark_corners, said), tile_corners)


def test_a_mark_right_as_it_is_should_be_said_to_be_the_middle_of_its_square() -> None:
    cx, cy, length, width, angle = PAIRS[-1][0]
    corners = g.corners_of(cx, cy, length, width, angle)
    said = outline.target(corners, corners)
    side = outline.OUTLINE_CONTEXT * length
    expected = [0.0, 0.0, math.log(1 / outline.OUTLINE_CONTEXT), math.log(width / side), 1.0, 0.0]
    np.testing.assert_allclose(said, expected, atol=1e-5)


@pytest.mark.parametrize(("tile", "mark"), PAIRS)
def test_a_photo_mirrored_shows_the_square_mirrored_and_asks_the_answer_mirrored(
    tile: tuple[float, ...], mark: tuple[float, ...]
) -> None:
    """Mirrored left to right, a photo shows the outliner its square mirrored top to bottom
    (the mark's length still runs across it), and the answer it should give is the first one
    mirrored the same way: the reader's four mirrored views of each square (``model._outlined``)
    then redraw a mark on a mirrored photo mirrored, by construction."""
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)
    rgb[100:200, 150:260] = (250, 250, 240)  # something to see that is not symmetric
    rgb[120:140, 170:190] = (20, 20, 20)
    tile_corners, mark_corners = g.corners_of(*tile), g.corners_of(*mark)

    def mirrored(points: np.ndarray) -> np.ndarray:
        return np.stack([rgb.shape[1] - 1 - points[:, 0], points[:, 1]], 1).astype(np.float32)

    square = outline.square(rgb, mark_corners)
    square_mirrored = outline.square(np.ascontiguousarray(rgb[:, ::-1]), mirrored(mark_corners))
    difference = np.abs(square_mirrored.astype(int) - outline.mirror_square(square, 2).astype(int))
    assert difference.mean() < 1.0
    said = outline.target(mark_corners, tile_corners)
    np.testing.assert_allclose(
        outline.target(mirrored(mark_corners), mirrored(tile_corners)), outline.mirrored(said, 2), atol=1e-4
    )


@pytest.mark.parametrize("view", [1, 2, 3])
def test_mirroring_an_answer_twice_gives_it_back(view: int) -> None:
    said = np.array([0.2, -0.3, -1.0, -1.6, 0.6, 0.8], np.float32)
    np.testing.assert_allclose(outline.mirrored(outline.mirrored(said, view), view), said)
    square = np.arange(64 * 64 * 3, dtype=np.int32).reshape(64, 64, 3)
    np.testing.assert_array_equal(outline.mirror_square(outline.mirror_square(square, view), view), square)


def test_a_large_mark_is_seen_at_the_squares_side_without_cutting_the_whole_photo() -> None:
    rgb = np.zeros((3000, 4000, 3), np.uint8)
    rgb[1400:1600, 1700:2300] = 255  # a white tile 600 x 200 pixels
    mark = g.corners_of(2000.0, 1500.0, 600.0, 200.0, 0.0)
    square = outline.square(rgb, mark)
    assert square.shape == (outline.OUTLINE_SIDE, outline.OUTLINE_SIDE, 3)
    # the tile fills 1 / OUTLINE_CONTEXT of the square's width, a third of that of its height
    white = square[..., 0] > 128
    assert abs(white.sum(axis=1).max() - outline.OUTLINE_SIDE / outline.OUTLINE_CONTEXT) <= 2
    assert abs(white.sum(axis=0).max() - outline.OUTLINE_SIDE / outline.OUTLINE_CONTEXT / 3) <= 2


def test_a_mark_off_the_photo_still_gives_a_square() -> None:
    rgb = np.full((100, 100, 3), 90, np.uint8)
    square = outline.square(rgb, g.corners_of(500.0, 500.0, 40.0, 20.0, 0.0))
    assert square.shape == (outline.OUTLINE_SIDE, outline.OUTLINE_SIDE, 3)


def test_the_misdrawn_marks_lie_on_their_tile_and_are_mostly_wrong() -> None:
    rng = random.Random(11)
    tile = g.corners_of(300.0, 200.0, 100.0, 50.0, 0.7)
    marks = [misdrawn(tile, rng) for _ in range(400)]
    overlaps = [g.overlap(mark, tile) for mark in marks]
    assert min(overlaps) > 0.2  # each on the tile
    off = [float(np.abs(outline.target(mark, tile)[outline.SIN])) > 0.2 for mark in marks]
    assert 0.2 < np.mean(off) < 0.8  # turned: many, not all


def test_the_outliners_examples_are_squares_and_answers_of_each_listed_tile() -> None:
    scene, _factor = scene_for(1234)
    squares, targets = outline_examples(scene, random.Random(1))
    assert len(squares) == len(targets) == 4 * len(labelled(scene)) > 0
    assert all(
        s.shape == (outline.OUTLINE_SIDE, outline.OUTLINE_SIDE, 3) and s.dtype == np.uint8 for s in squares
    )
    # each answer's direction is a direction (cos 2δ, sin 2δ on the unit circle)
    assert all(abs(math.hypot(t[outline.COS], t[outline.SIN]) - 1) < 1e-4 for t in targets)


# -- the reader's use of it (model._outlined, the retry) -------------------------------------


def _outliner_by_moments(squares: np.ndarray) -> np.ndarray:
    """An outliner that needs no training: the white rectangle in each square (the reader's
    input: N x 3 x side x side, normalised) by its pixels' moments. It sees a mirrored square
    mirrored, as a trained one learns to."""
    said = np.zeros((len(squares), outline.OUTLINE_OUTPUTS), np.float32)
    half = (outline.OUTLINE_SIDE - 1) / 2
    for i, square in enumerate(squares):
        ys, xs = np.nonzero(square.mean(axis=0) > 0.5)  # brighter than about 160 of 255
        x, y = xs - xs.mean(), ys - ys.mean()
        cov = np.cov(np.stack([x, y]))
        low, high = np.linalg.eigvalsh(cov)
        turn = 0.5 * math.atan2(2 * cov[0, 1], cov[0, 0] - cov[1, 1])
        said[i] = [
            (xs.mean() - half) / (outline.OUTLINE_SIDE / 2),
            (ys.mean() - half) / (outline.OUTLINE_SIDE / 2),
            math.log(math.sqrt(12 * high) / outline.OUTLINE_SIDE),
            math.log(math.sqrt(12 * low) / outline.OUTLINE_SIDE),
            math.cos(2 * turn),
            math.sin(2 * turn),
        ]
    return said


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    import cv2

    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union)


def _photo_of_a_white_tile() -> tuple[np.ndarray, np.ndarray]:
    rgb = np.full((400, 600, 3), 40, np.uint8)
    tile = g.corners_of(300.0, 200.0, 120.0, 60.0, 0.5)
    import cv2

    cv2.fillConvexPoly(rgb, np.round(tile).astype(np.int32), (245, 245, 235))
    return rgb, tile


@pytest.mark.parametrize(
    "mark",
    [
        (300.0, 200.0, 60.0, 60.0, 0.5),  # half the tile
        (310.0, 195.0, 120.0, 60.0, 1.6),  # turned 63 degrees
        (295.0, 205.0, 110.0, 150.0, 0.1),  # too wide and turned
    ],
)
def test_the_reader_redraws_a_misdrawn_mark_on_the_tile(mark: tuple[float, ...]) -> None:
    from referee.vision.model import _outlined

    rgb, tile = _photo_of_a_white_tile()
    misdrawn_mark = g.corners_of(*mark)
    assert _iou(misdrawn_mark, tile) < 0.6
    (redrawn,) = _outlined(rgb, [misdrawn_mark], _outliner_by_moments)
    # the tile's outline, within a few pixels, either end first
    distance = min(np.abs(redrawn - tile).max(), np.abs(redrawn[[2, 3, 0, 1]] - tile).max())
    assert distance < 4


def _finder_marking(mark: np.ndarray) -> Network:
    """A finder that marks one tile of a 600 px wide photo with the corners ``mark``."""

    def finder(image: np.ndarray) -> np.ndarray:
        h, w = image.shape[2] // g.STRIDE, image.shape[3] // g.STRIDE
        factor = 640 / 600  # the photo's pixels to the finder's
        out = np.zeros((1, g.FINDER_CHANNELS, h, w), np.float32)
        out[0, g.HEAT] = -9.0
        cx, cy, length, width, angle = g.box_of(mark)
        out[0, g.HEAT, round(cy * factor / g.STRIDE), round(cx * factor / g.STRIDE)] = 3.0
        out[0, g.LOG_LENGTH] = math.log(length * factor / g.SIZE_UNIT)
        out[0, g.LOG_WIDTH] = math.log(width * factor / g.SIZE_UNIT)
        out[0, g.COS], out[0, g.SIN] = math.cos(2 * angle), math.sin(2 * angle)
        return out

    return finder


def test_the_retry_reads_a_tile_the_outliner_redraws_and_no_other_shape_fits() -> None:
    """A finder that marks the tile turned 63 degrees: the counter (here one that calls a crop
    a tile when its middle is white and its margin dark) calls the mark and each of the retry's
    longer and wider shapes no tile; the outliner's outline it calls a tile."""
    from referee.vision.model import Settings, read_rgb

    rgb, tile = _photo_of_a_white_tile()
    finder_marking_it_turned = _finder_marking(g.corners_of(310.0, 195.0, 120.0, 60.0, 1.6))

    def counter_of_white_middles(crops: np.ndarray) -> np.ndarray:
        said = np.zeros((len(crops), 1 + 2 * g.PIP_CLASSES), np.float32)
        bright = crops.mean(axis=1) > 0.5
        margin_h, margin_w = round(g.CROP_H * 0.1), round(g.CROP_W * 0.1)
        middle = bright[:, 2 * margin_h : -2 * margin_h, 2 * margin_w : -2 * margin_w].mean(axis=(1, 2))
        edge = np.concatenate(
            [bright[:, :margin_h].reshape(len(crops), -1), bright[:, -margin_h:].reshape(len(crops), -1)], 1
        )
        said[:, 0] = 12 * (middle * (1 - edge.mean(axis=1)) - 0.8)  # a tile only where both nearly all
        said[:, 1 + 4] = said[:, 1 + g.PIP_CLASSES + 4] = 5.0  # a 4-4
        return said

    settings = Settings(tile_threshold=0.5)
    without = read_rgb(rgb, 6, finder_marking_it_turned, counter_of_white_middles, settings)
    assert without == []
    (found,) = read_rgb(
        rgb, 6, finder_marking_it_turned, counter_of_white_middles, settings, outliner=_outliner_by_moments
    )
    assert found.halves == (4, 4)
    assert _iou(found.corners, tile) > 0.9


@pytest.mark.parametrize("mark_angle", [0.0, 0.7, 2.0, -1.2, 3.0])
@pytest.mark.parametrize("turn", [-1.0, -0.3, 0.0, 0.4, 1.2])
def test_an_outline_keeps_its_marks_first_half_first(mark_angle: float, turn: float) -> None:
    """The recount joins the mark's first half with the outline's first half: an outline turned
    from its mark by less than a quarter turn starts at the mark's first end."""
    mark = g.corners_of(300.0, 200.0, 100.0, 50.0, mark_angle)
    tile = g.corners_of(306.0, 197.0, 110.0, 52.0, mark_angle + turn)
    redrawn = outline.outlined(mark, outline.target(mark, tile))
    first_end, second_end = (mark[0] + mark[3]) / 2, (mark[1] + mark[2]) / 2
    redrawn_first = (redrawn[0] + redrawn[3]) / 2
    assert np.linalg.norm(redrawn_first - first_end) < np.linalg.norm(redrawn_first - second_end)


def _counter_sure_of_four_on_the_tile_alone(crops: np.ndarray) -> np.ndarray:
    """A counter sure a crop whose middle is mostly white is a tile (so no retry), and of a 4-4
    only where that middle is all tile: on a crop reaching past the tile's ends it leans to a
    1-1, unsure."""
    said = np.zeros((len(crops), 1 + 2 * g.PIP_CLASSES), np.float32)
    bright = crops.mean(axis=1) > 0.5
    margin_h, margin_w = round(g.CROP_H * 0.2), round(g.CROP_W * 0.2)
    white = bright[:, margin_h:-margin_h, margin_w:-margin_w].mean(axis=(1, 2))
    said[:, 0] = np.where(white > 0.5, 6.0, -6.0)
    whole = white > 0.97
    for half in (1, 1 + g.PIP_CLASSES):
        said[:, half + 4] = np.where(whole, 6.0, 1.0)
        said[:, half + 1] = np.where(whole, 0.0, 1.3)
    return said


def test_the_recount_counts_a_tiles_pips_again_on_the_outline_of_its_mark() -> None:
    """A mark half as long again as its tile: the counter, shown the mark, leans to 1-1; the
    recount shows it the outliner's outline too, where it is sure of 4-4, and the joined count
    is 4-4. The mark stays the tile's outline and the counter's word on the tile stays."""
    from referee.vision.model import Settings, read_rgb

    rgb, tile = _photo_of_a_white_tile()
    finder = _finder_marking(g.corners_of(300.0, 200.0, 180.0, 60.0, 0.5))
    settings = Settings(tile_threshold=0.5)
    (without,) = read_rgb(rgb, 6, finder, _counter_sure_of_four_on_the_tile_alone, settings)
    assert without.halves == (1, 1)
    (found,) = read_rgb(
        rgb, 6, finder, _counter_sure_of_four_on_the_tile_alone, settings, outliner=_outliner_by_moments
    )
    assert found.halves == (4, 4)
    assert np.allclose(found.corners, without.corners)
    assert _iou(found.corners, tile) < 0.7  # the mark, not the outline the pips were recounted on
    assert found.tile_probability == without.tile_probability


def _counter_sure_of_four_anywhere(crops: np.ndarray) -> np.ndarray:
    said = np.zeros((len(crops), 1 + 2 * g.PIP_CLASSES), np.float32)
    said[:, 0] = 6.0
    said[:, 1 + 4] = said[:, 1 + g.PIP_CLASSES + 4] = 9.0
    return said


def _moved_aside_by_its_length(mark: np.ndarray) -> np.ndarray:
    return np.asarray(mark + (mark[1] - mark[0]))


def _four_pixels_wide(mark: np.ndarray) -> np.ndarray:
    cx, cy, length, _width, angle = g.box_of(mark)
    return g.corners_of(cx, cy, length, 4.0, angle)


def _the_mark_itself(mark: np.ndarray) -> np.ndarray:
    return mark.copy()


@pytest.mark.parametrize(
    ("outline_of", "counted"),
    [(_moved_aside_by_its_length, False), (_four_pixels_wide, False), (_the_mark_itself, True)],
)
def test_the_recount_counts_no_outline_off_the_mark_or_too_thin(
    monkeypatch: pytest.MonkeyPatch, outline_of: Callable[[np.ndarray], np.ndarray], counted: bool
) -> None:
    """A tile read leaning to 1-1, and an outline of its mark where the counter is sure of 4-4:
    an outline moved off the mark (onto another tile) or too thin to count pips on leaves the
    count as it was; one on the mark is counted."""
    from referee.vision import model

    rgb, tile = _photo_of_a_white_tile()
    leaning_to_one = np.full(7, 0.4 / 6)
    leaning_to_one[1] = 0.6
    kept = [(tile, (0.99, leaning_to_one, leaning_to_one))]
    monkeypatch.setattr(model, "_outlined", lambda _rgb, marks, _outliner: [outline_of(m) for m in marks])
    ((corners, (tile_p, first, second)),) = model._recounted(
        rgb, kept, _counter_sure_of_four_anywhere, 7, _outliner_by_moments
    )
    assert corners is tile
    assert tile_p == 0.99
    assert first.argmax() == second.argmax() == (4 if counted else 1)


def test_two_counts_joined_keep_what_both_say_and_weaken_what_one_says() -> None:
    from referee.vision.model import _joined_counts

    sure_of_three = np.array([0.02, 0.02, 0.02, 0.9, 0.04])
    leaning_to_three = np.array([0.1, 0.1, 0.2, 0.4, 0.2])
    sure_of_two = np.array([0.02, 0.02, 0.9, 0.02, 0.04])
    agreed = _joined_counts(sure_of_three, leaning_to_three)
    assert agreed.sum() == pytest.approx(1.0)
    assert agreed.argmax() == 3
    disputed = _joined_counts(sure_of_three, sure_of_two)
    assert disputed.sum() == pytest.approx(1.0)
    assert disputed.max() < 0.5  # neither count stays sure
    assert np.allclose(_joined_counts(sure_of_two, sure_of_three), disputed)


# a validation scene of four tiles 27 px wide; on it marks misdrawn overlap their tiles 0.47 (the
# intersection over the union), the outliner's outlines about 0.9 (the network of a trial run
# of the same training). The floors leave room for another run's network
SHIPPED_CHECK_SCENE = 655
SHIPPED_GAIN = 0.25
SHIPPED_SHARE_NEARER = 0.8


def test_the_shipped_outliner_redraws_misdrawn_marks_nearer_their_tiles() -> None:
    """On a validation scene (its seed never trained on), marks misdrawn on each tile as the
    training draws them are redrawn by the shipped outliner, most of them nearer the tile."""
    import json

    from referee.vision.examples import VALIDATION_SEED
    from referee.vision.model import MODELS, OUTLINER, _outlined, load

    assert json.loads((MODELS / "reader.json").read_text())[OUTLINER] == "outliner.onnx"
    outliner = load().outliner
    assert outliner is not None
    scene, _factor = scene_for(VALIDATION_SEED + SHIPPED_CHECK_SCENE)
    rng = random.Random(4)
    before: list[float] = []
    after: list[float] = []
    for tile in labelled(scene):
        outline_of_tile = g.corners_of(*g.box_of(tile.corners))
        marks = [misdrawn(tile.corners, rng) for _ in range(5)]
        before += [_iou(mark, outline_of_tile) for mark in marks]
        after += [_iou(redrawn, outline_of_tile) for redrawn in _outlined(scene.rgb, marks, outliner)]
    assert len(before) >= 20
    assert np.mean(after) >= np.mean(before) + SHIPPED_GAIN
    assert np.mean(np.array(after) > np.array(before)) >= SHIPPED_SHARE_NEARER
