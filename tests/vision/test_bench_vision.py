"""``python -m bench vision FOLDER`` prints its figures and ends with the JSON line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import vision
from referee.vision.synthetic import write_set

KEYS = {
    "tile_recall",
    "tile_precision",
    "tiles_exact",
    "photos_total_exact",
    "seconds_median",
    "seconds_max",
    "photos",
}


def test_bench_vision_on_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = write_set(tmp_path, 3, seed=7, size=(640, 480))
    assert json.loads(labels.read_text())["photos"][0]["tiles"]
    vision.main([str(tmp_path)])
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert set(figures) == KEYS
    assert figures["photos"] == 3
    for key in ("tile_recall", "tile_precision", "tiles_exact", "photos_total_exact"):
        assert 0.0 <= figures[key] <= 1.0
    assert figures["seconds_max"] >= figures["seconds_median"] > 0
