"""The counters and the outliner ship in eight-bit integers (``referee.vision.quantize``): the
app runs them as it runs any network, and the training goes on from the weights their
integers stand for. The tests that rebuild or quantize networks need ONNX's tools (the
``train`` extra) and are skipped where it is not installed."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision import geometry as g
from referee.vision.examples import counter_examples, scene_for
from referee.vision.model import MODELS, OUTLINER, PIP_COUNTERS, SECOND_LOOK_FINDER, TILE_COUNTERS, load


def _quantized_files() -> list[str]:
    meta = json.loads((MODELS / "reader.json").read_text())
    return [
        "counter.onnx",
        *meta[PIP_COUNTERS],
        *meta.get(TILE_COUNTERS, []),
        meta[OUTLINER],
        meta[SECOND_LOOK_FINDER],
    ]


def test_the_shipped_counters_outliner_and_second_look_are_eight_bit_and_the_first_look_as_trained() -> None:
    # an ONNX file names its operators in plain bytes: a quantized one dequantizes its weights
    for name in _quantized_files():
        assert b"DequantizeLinear" in (MODELS / name).read_bytes(), name
    assert b"DequantizeLinear" not in (MODELS / "finder.onnx").read_bytes()
    assert "quantized" in json.loads((MODELS / "reader.json").read_text())
    assert load().second_look_finder is not None


def test_the_second_look_is_the_second_look_finders(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder as trained looks first, at the finder's side; the one reader.json names for
    the second look looks again (a photo of small tiles at 2,560 x 1,920, read at 1,280 x 960)."""
    import math

    from referee.vision.model import read_rgb
    from referee.vision.scenes import draw_scene

    reader = load()
    sides: dict[str, list[int]] = {"first": [], "second": []}

    def seen(name: str, network: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
        def run(x: np.ndarray) -> np.ndarray:
            sides[name].append(max(x.shape[2:]))
            return network(x)

        return run

    assert reader.second_look_finder is not None
    scene = draw_scene(542, (2560, 1920), highest=12, tile_width=(0.02, 0.05), steepest=math.radians(30))
    rgb = cv2.resize(scene.rgb, (1280, 960), interpolation=cv2.INTER_AREA)  # as decoded for analysis
    read_rgb(
        rgb, 12, seen("first", reader.finder), reader.counter, reader.settings, reader.tile_counter,
        reader.outliner, seen("second", reader.second_look_finder),
    )  # fmt: skip
    assert sides["first"] == [g.FINDER_SIDE] * 4
    assert len(sides["second"]) == 4  # its four views of the part around the small tiles


def _crops(seed: int) -> np.ndarray:
    scene, _factor = scene_for(seed)
    crops = np.stack(counter_examples(scene, random.Random(seed))[0])
    return np.ascontiguousarray(g.normalise(crops).transpose(0, 3, 1, 2))


def test_a_quantized_counter_rebuilt_in_floats_counts_as_the_file_does() -> None:
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort

    from referee.vision.quantize import as_float, is_quantized

    shipped = onnx.load(str(MODELS / "counter-pips.onnx"))
    rebuilt = as_float(shipped)
    assert is_quantized(shipped) and not is_quantized(rebuilt)
    onnx.checker.check_model(rebuilt)
    crops = _crops(4321)  # a training scene's crops, tiles and no tiles
    file = ort.InferenceSession(str(MODELS / "counter-pips.onnx"), providers=["CPUExecutionProvider"])
    floats = ort.InferenceSession(rebuilt.SerializeToString(), providers=["CPUExecutionProvider"])
    eight_bit, in_floats = (s.run(None, {"crops": crops})[0] for s in (file, floats))
    # the same counts of nearly every half: what the integers stand for, not another network
    for half in (slice(1, 1 + g.PIP_CLASSES), slice(1 + g.PIP_CLASSES, 1 + 2 * g.PIP_CLASSES)):
        agree = (eight_bit[:, half].argmax(1) == in_floats[:, half].argmax(1)).mean()
        assert agree >= 0.9, agree
    # and a network of floats is given back as it is
    finder = onnx.load(str(MODELS / "finder.onnx"))
    assert as_float(finder) is finder


def test_a_folder_already_quantized_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from referee.vision.quantize import quantize

    with pytest.raises(ValueError, match=r"counter\.onnx is quantized already"):
        quantize(MODELS, tmp_path)
    assert not list(tmp_path.iterdir())  # refused before anything was written


def test_the_quantization_of_networks_as_trained_reads_as_they_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped counters rebuilt in floats (as a training writes them), quantized again on
    two calibration scenes: the files it writes are eight-bit and count a scene's crops as the
    networks of floats do."""
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort

    from referee.vision import quantize as q

    trained = tmp_path / "trained"
    trained.mkdir()
    for path in MODELS.iterdir():
        if path.name == q.SECOND_LOOK_FILE:
            continue  # what the quantization makes of the finder
        if path.suffix == ".onnx" and path.name != "finder.onnx":
            onnx.save(q.as_float(onnx.load(str(path))), str(trained / path.name))
        else:
            shutil.copy(path, trained / path.name)
    meta = json.loads((trained / "reader.json").read_text())
    del meta[q.QUANTIZED], meta[SECOND_LOOK_FINDER]
    (trained / "reader.json").write_text(json.dumps(meta))
    monkeypatch.setattr(q, "CALIBRATION_SCENES", 2)
    out = tmp_path / "out"
    sizes = q.quantize(trained, out)
    assert set(sizes) == set(_quantized_files())
    written = json.loads((out / "reader.json").read_text())
    assert written[q.QUANTIZED] and written[SECOND_LOOK_FINDER] == q.SECOND_LOOK_FILE
    assert (out / "finder.onnx").read_bytes() == (trained / "finder.onnx").read_bytes()
    assert q.is_quantized(onnx.load(str(out / q.SECOND_LOOK_FILE)))
    crops = _crops(97)
    for name in sizes:
        if name in (meta[OUTLINER], q.SECOND_LOOK_FILE):
            continue
        assert q.is_quantized(onnx.load(str(out / name)))
        assert sizes[name] < (trained / name).stat().st_size / 2  # a byte a weight, not four
        said = [
            ort.InferenceSession(str(folder / name), providers=["CPUExecutionProvider"]).run(
                None, {"crops": crops}
            )[0]
            for folder in (trained, out)
        ]
        tile = [s[:, 0] > 0 for s in said]
        assert (tile[0] == tile[1]).mean() >= 0.9, name
        counts = [s[:, 1 : 1 + g.PIP_CLASSES].argmax(1) for s in said]
        assert (counts[0] == counts[1]).mean() >= 0.9, name
