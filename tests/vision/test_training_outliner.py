"""``python -m referee.vision.train_outliner``: a few steps write an outliner the reader loads
beside the networks it was measured with, saying what the trained network says. Needs
PyTorch and ONNX (the ``train`` extra); skipped where they are not installed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from referee.vision import geometry as g  # noqa: E402
from referee.vision.examples import outline_examples, scene_for  # noqa: E402
from referee.vision.model import MODELS, OUTLINER, load  # noqa: E402


def test_a_short_training_writes_an_outliner_the_reader_loads(tmp_path: Path) -> None:
    from referee.vision.train_outliner import FILE, Outliner, main

    main(
        ["--steps", "2", "--batch", "1", "--workers", "0", "--seed", "61", "--validation", "1",
         "--reader", str(MODELS), "--out", str(tmp_path)]
    )  # fmt: skip
    meta = json.loads((tmp_path / "reader.json").read_text())
    assert meta[OUTLINER] == FILE
    assert meta["outliner_trained"]["steps"] == 2
    assert set(meta["outliner_validation"]) == {"with", "without"}
    # the shipped reader's settings and networks beside it, so the folder reads as the app would
    shipped = json.loads((MODELS / "reader.json").read_text())
    assert meta["settings"] == shipped["settings"]
    load.cache_clear()
    reader = load(tmp_path)
    assert reader.outliner is not None
    net = Outliner()
    net.load_state_dict(torch.load(tmp_path / "outliner.pt"))
    squares = np.stack(outline_examples(scene_for(4321)[0], random.Random(2))[0][:6])
    x = np.ascontiguousarray(g.normalise(squares).transpose(0, 3, 1, 2))
    with torch.no_grad():
        expected = net.eval()(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(
        reader.outliner(x), expected, atol=1e-4 * max(1.0, float(np.abs(expected).max()))
    )
    load.cache_clear()
