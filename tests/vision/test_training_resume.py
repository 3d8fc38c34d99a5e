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
    # the training goes on from counter.onnx (the app joins its counts with another counter's:
    # model.PIP_COUNTERS), read here alone; it ships in eight bits (referee.vision.quantize),
    # and the network rebuilt is the one of the weights its integers stand for
    import onnx
    import onnxruntime as ort

    from referee.vision.quantize import as_float

    in_floats = as_float(onnx.load(str(MODELS / "counter.onnx"))).SerializeToString()
    counter_file = ort.InferenceSession(in_floats, providers=["CPUExecutionProvider"])
    as_shipped = counter_file.run(None, {"crops": crops_in})[0]
    np.testing.assert_allclose(counted, as_shipped, atol=2e-3 * np.abs(counted).max())
    # and they read it: the same tiles' halves as the file
    assert (
        counted[:, 1 : 1 + g.PIP_CLASSES].argmax(1) == as_shipped[:, 1 : 1 + g.PIP_CLASSES].argmax(1)
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


def _weights(path: Path) -> dict[str, np.ndarray]:
    """A file's weights by name: a quantized file's as the integers stand for them."""
    from onnx import load as load_onnx
    from onnx import numpy_helper

    from referee.vision.quantize import as_float

    graph = as_float(load_onnx(str(path))).graph
    return {init.name: numpy_helper.to_array(init) for init in graph.initializer}


def test_the_finder_alone_learns_and_the_counter_stays_as_resumed(tmp_path: Path) -> None:
    """``--finder-only``: a few steps move the finder's weights and leave the counter's as the
    shipped file has them (its batch norms keep their statistics too)."""
    from referee.vision.train import main

    main(
        ["--finder-only", "--resume", str(MODELS), "--seed", "53", "--batch", "2", "--workers", "0",
         "--steps", "2", "--lr", "0.001", "--validation", "1", "--threshold-scenes", "1", "--out", str(tmp_path)]
    )  # fmt: skip
    shipped, trained = _weights(MODELS / "counter.onnx"), _weights(tmp_path / "counter.onnx")
    assert trained.keys() <= shipped.keys()  # the quantization's tools keep a few more constants
    for name, values in trained.items():
        np.testing.assert_allclose(trained[name], values, atol=1e-5, err_msg=name)
    shipped, trained = _weights(MODELS / "finder.onnx"), _weights(tmp_path / "finder.onnx")
    moved = [name for name in shipped if not np.allclose(trained[name], shipped[name], atol=1e-5)]
    assert moved, "the finder did not learn"


@pytest.mark.parametrize("argv", [["--finder-only"], ["--counter-only"], ["--finder-only", "--counter-only"]])
def test_keeping_a_network_asks_for_trained_ones_and_leaves_one_to_train(
    argv: list[str], tmp_path: Path
) -> None:
    from referee.vision.train import main

    resume = [] if len(argv) == 1 else ["--resume", str(MODELS)]
    with pytest.raises(SystemExit):
        main([*argv, *resume, "--out", str(tmp_path)])
    assert not list(tmp_path.iterdir())  # refused before anything was written
