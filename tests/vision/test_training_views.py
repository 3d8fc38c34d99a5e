"""The training's extra views of a batch (``--repeat``): a finder example turned or mirrored on
the GPU must say what the same photo turned or mirrored says, or the finder would learn tiles
pointing the wrong way. Needs PyTorch (the ``train`` extra); skipped where it is not installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from referee.vision import geometry as g  # noqa: E402
from referee.vision.examples import TRAIN_SIDE, finder_example, scene_for  # noqa: E402
from referee.vision.scenes import Scene, SceneTile  # noqa: E402
from referee.vision.train import relight, turn_crops, turn_finder_example  # noqa: E402

SEEDS = (10, 11, 13)  # scenes of at least TRAIN_SIDE pixels each way


def _tiles_said(target: np.ndarray) -> list[tuple[float, float, float, float]]:
    """The tiles a finder target says, read as the app reads the finder (centre x, y in the
    finder's pixels, cos 2θ, sin 2θ), from each tile's centre cell."""
    ys, xs = np.nonzero(target[g.HEAT] >= 0.999)
    said = sorted(
        (
            (x + float(target[g.DX, y, x])) * g.STRIDE,
            (y + float(target[g.DY, y, x])) * g.STRIDE,
            float(target[g.COS, y, x]),
            float(target[g.SIN, y, x]),
        )
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True)
    )
    # a centre near the photo's edge may lie just outside it one way round and just inside the
    # other (whole cells are counted from the corner each view starts from): left out
    inside = [t for t in said if 4 <= t[0] <= TRAIN_SIDE - 4 and 4 <= t[1] <= TRAIN_SIDE - 4]
    # a centre on a cell's edge may light both cells: one tile
    return [t for i, t in enumerate(inside) if not any(math.dist(t[:2], u[:2]) < 0.5 for u in inside[:i])]


def _seen_another_way(scene: Scene, view: int) -> Scene:
    """The scene's photo itself turned as ``turn_finder_example``'s view turns an example."""
    rgb, tiles = scene.rgb, [(t.corners.astype(np.float64), t) for t in scene.tiles]
    if view & 4:
        rgb = rgb.transpose(1, 0, 2)
        tiles = [(c[:, ::-1].copy(), t) for c, t in tiles]
    if view & 1:
        rgb, width = rgb[:, ::-1], rgb.shape[1]
        tiles = [(np.stack([width - 1 - c[:, 0], c[:, 1]], 1), t) for c, t in tiles]
    if view & 2:
        rgb, height = rgb[::-1], rgb.shape[0]
        tiles = [(np.stack([c[:, 0], height - 1 - c[:, 1]], 1), t) for c, t in tiles]
    moved = [SceneTile(c.astype(np.float32), t.halves, t.visible) for c, t in tiles]
    return Scene(np.ascontiguousarray(rgb), moved, scene.quality)


def _square(scene: Scene) -> Scene:
    """The scene cut to the finder's square (TRAIN_SIDE pixels each way, so a photo's pixel is
    the finder's): turned, it keeps its padding where the example has it."""
    assert min(scene.rgb.shape[:2]) >= TRAIN_SIDE
    # one tile taken as cut by the frame: its cells are not judged (weight 0), and must move too
    first = scene.tiles[0]
    tiles = [SceneTile(first.corners, first.halves, 0.5), *scene.tiles[1:]]
    return Scene(scene.rgb[:TRAIN_SIDE, :TRAIN_SIDE].copy(), tiles, scene.quality)


@pytest.mark.parametrize("view", range(8))
@pytest.mark.parametrize("seed", SEEDS)
def test_a_turned_example_says_what_the_turned_photo_says(seed: int, view: int) -> None:
    scene, _factor = scene_for(seed)
    scene = _square(scene)
    image, target, weight = finder_example(scene, 1.0)
    turned = turn_finder_example(
        torch.from_numpy(image), torch.from_numpy(target), torch.from_numpy(weight), view
    )
    want_image, want_target, want_weight = finder_example(_seen_another_way(scene, view), 1.0)

    said, wanted = _tiles_said(turned[1].numpy()), _tiles_said(want_target)
    assert len(said) == len(wanted) > 0
    for (x, y, c, s), (wx, wy, wc, ws) in zip(said, wanted, strict=True):
        assert math.hypot(x - wx, y - wy) < 0.25, (x, y, wx, wy)  # within a quarter of a pixel
        assert math.hypot(c - wc, s - ws) < 0.02  # the same direction, cos 2θ and sin 2θ
    # the picture and the cells not to be judged move with it
    assert np.array_equal(turned[0].numpy(), want_image)
    unjudged = int((want_weight == 0).sum())
    # (the cut tile's cells rounded to whole cells: its outline may differ by a cell)
    assert unjudged > 0 and (turned[2].numpy() != want_weight).sum() <= 0.5 * unjudged


def test_the_views_are_eight_different_ways() -> None:
    scene, factor = scene_for(SEEDS[0])
    image, target, weight = (torch.from_numpy(a) for a in finder_example(scene, factor))
    seen = {turn_finder_example(image, target, weight, view)[0].numpy().tobytes() for view in range(8)}
    assert len(seen) == 8


def test_a_crop_mirrored_left_to_right_swaps_its_halves() -> None:
    crops = torch.arange(2 * 3 * g.CROP_H * g.CROP_W, dtype=torch.float32).reshape(2, 3, g.CROP_H, g.CROP_W)
    labels = torch.tensor([[1, 2, 5], [0, -1, -1]])
    flipped, flipped_labels = turn_crops(crops, labels, 1)
    assert torch.equal(flipped[0, :, :, 0], crops[0, :, :, -1])
    assert flipped_labels.tolist() == [[1, 5, 2], [0, -1, -1]]
    upside_down, same_labels = turn_crops(crops, labels, 2)
    assert torch.equal(upside_down[0, :, 0], crops[0, :, -1])
    assert same_labels.tolist() == labels.tolist()


def test_relighting_changes_the_photo_but_not_its_padding() -> None:
    scene, factor = scene_for(SEEDS[1])
    image = torch.from_numpy(finder_example(scene, factor)[0])[None]
    padding = (image == 0).all(dim=1)
    lit = relight(image, torch.Generator().manual_seed(5))
    assert torch.equal(lit[0][:, padding[0]], image[0][:, padding[0]])
    assert (lit - image).abs().mean() > 0.01
    assert lit.min() >= -2.0 and lit.max() <= 2.0  # still pixels between black and white


def test_the_scenes_a_worker_draws_print_coloured_pips_when_asked() -> None:
    """``--coloured-pips`` reaches each process drawing the training's scenes (a worker starts
    with the module's shares as imported): of the first examples drawn, those of a set of one
    ink differ from the ones drawn without it, in the crops' colours only."""
    from referee.vision import scenes
    from referee.vision.train import Scenes

    def first_crops(coloured: float) -> tuple[np.ndarray, np.ndarray]:
        examples = iter(Scenes(21, counter_only=True, coloured_pips=coloured))
        drawn = [next(examples)[3:] for _ in range(4)]
        return np.concatenate([crops for crops, _ in drawn]), np.concatenate([labels for _, labels in drawn])

    try:
        seed_crops = [first_crops(0.0), first_crops(1.0)]
    finally:
        scenes.COLOURED_PIPS_SHARE = 0.0
    (plain, plain_labels), (coloured, coloured_labels) = seed_crops
    assert np.array_equal(plain_labels, coloured_labels)
    assert not np.array_equal(plain, coloured)
