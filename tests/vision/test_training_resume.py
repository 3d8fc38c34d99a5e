"""Going on from the shipped networks (``--resume referee/vision/models``): the ONNX files are
all a fresh clone has of them, so the training rebuilds PyTorch networks from them that must
say what the files say, or the training would start from somewhere else than the app reads
with. Needs PyTorch and ONNX (the ``train`` extra); skipped where they are not installed."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from referee.vision import geometry as g  # noqa: E402
from referee.vision.examples import counter_examples, finder_example, scene_for  # noqa: E402
from referee.vision.model import MODELS, load  # noqa: E402
from referee.vision.train import Counter, Finder, networks_from_onnx  # noqa: E402


@pytest.fixture(scope="module")
def rebuilt() -> tuple[Finder, Counter]:
    return networks_from_onnx(MODELS, examples=2)


def test_the_rebuilt_networks_read_a_scene_they_were_not_rebuilt_on_as_the_app_does(
    rebuilt: tuple[Finder, Counter],
) -> None:
    finder, counter = rebuilt
    reader = load(MODELS)
    scene, factor = scene_for(4321)  # not among the scenes the norms were measured on
    image = finder_example(scene, factor)[0][None]
    crops = np.stack(counter_examples(scene, random.Random(5))[0])
    crops_in = np.ascontiguousarray(g.normalise(crops).transpose(0, 3, 1, 2))
    with torch.no_grad():
        found = finder.eval()(torch.from_numpy(image)).numpy()
        counted = counter.eval()(torch.from_numpy(crops_in)).numpy()
    np.testing.assert_allclose(found, reader.finder(image), atol=2e-3 * np.abs(found).max())
    np.testing.assert_allclose(counted, reader.counter(crops_in), atol=2e-3 * np.abs(counted).max())
    # and they read it: the same tiles' halves as the files
    assert (
        counted[:, 1 : 1 + g.PIP_CLASSES].argmax(1)
        == reader.counter(crops_in)[:, 1 : 1 + g.PIP_CLASSES].argmax(1)
    ).all()


def test_the_first_training_step_normalises_as_the_shipped_network_does() -> None:
    """In training a batch norm divides by the batch's own statistics: on the photos its
    statistics were measured on, the finder in training mode says what the file says."""
    torch.manual_seed(0)
    scenes = [scene_for(seed) for seed in range(2)]
    images = torch.from_numpy(np.stack([finder_example(s, f)[0] for s, f in scenes]))
    finder, _counter = networks_from_onnx(MODELS, examples=2)
    with torch.no_grad():
        shipped = finder.eval()(images)
        training = finder.train()(images)
    assert float((training - shipped).abs().max()) <= 2e-3 * float(shipped.abs().max())


def test_files_of_other_networks_are_refused(tmp_path: Path) -> None:
    shutil.copy(MODELS / "counter.onnx", tmp_path / "finder.onnx")
    shutil.copy(MODELS / "counter.onnx", tmp_path / "counter.onnx")
    with pytest.raises(ValueError, match=r"finder\.onnx"):
        networks_from_onnx(tmp_path, examples=1)
