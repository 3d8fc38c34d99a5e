"""``python -m bench vision FOLDER`` prints its figures and ends with the JSON line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import vision
from referee.vision.scenes import write_set as write_scenes
from referee.vision.synthetic import write_set

KEYS = {
    "tile_recall",
    "tile_precision",
    "tiles_exact",
    "photos_total_exact",
    "seconds_median",
    "seconds_max",
    "photos",
    "sure_precision",
    "sure_share",
}


def test_bench_vision_on_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = write_set(tmp_path, 3, seed=7, size=(640, 480))
    assert json.loads(labels.read_text())["photos"][0]["tiles"]
    vision.main([str(tmp_path)])
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert set(figures) == KEYS
    assert figures["photos"] == 3
    for key in (
        "tile_recall",
        "tile_precision",
        "tiles_exact",
        "photos_total_exact",
        "sure_precision",
        "sure_share",
    ):
        assert 0.0 <= figures[key] <= 1.0
    assert figures["seconds_max"] >= figures["seconds_median"] > 0


def test_bench_vision_variants_read_every_photo_changed_in_each_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench.variants import KINDS

    write_scenes(tmp_path, 2, seed=4, size=(320, 240))
    vision.main([str(tmp_path), "--variants", "--reader", "learned", "-q"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result["kinds"]) == {"as_is", *KINDS}
    assert len(KINDS) == 13
    for figures in result["kinds"].values():
        assert set(figures) == KEYS and figures["photos"] == 2
    assert result["all"]["photos"] == 2 * 13
    assert result["all"]["worst_kind_tiles_exact"] <= result["all"]["tiles_exact"]


@pytest.mark.parametrize("name", ["mirrored", "turned_90", "half_size", "jpeg_50", "darker_25"])
def test_each_variant_changes_the_photo_as_its_name_says(name: str) -> None:
    import io

    from PIL import Image

    from bench.variants import KINDS

    original = Image.new("RGB", (40, 20), (200, 200, 200))
    original.putpixel((0, 0), (0, 0, 0))
    out = io.BytesIO()
    original.save(out, format="PNG")
    changed = Image.open(io.BytesIO(KINDS[name](out.getvalue()))).convert("RGB")
    if name == "mirrored":
        assert changed.getpixel((39, 0)) == (0, 0, 0)
    elif name == "turned_90":
        assert changed.size == (20, 40)
    elif name == "half_size":
        assert changed.size == (20, 10)
    elif name == "jpeg_50":
        assert Image.open(io.BytesIO(KINDS[name](out.getvalue()))).format == "JPEG"
    else:
        assert changed.getpixel((20, 10))[0] == 150


def test_the_sure_threshold_is_calibrated_on_synthetic_photos(tmp_path: Path) -> None:
    """A threshold above which at least 99.5 % of the tiles read are right, on labelled boxes."""
    write_scenes(tmp_path, 3, seed=9, size=(480, 360))
    figures = vision.calibrate(tmp_path, vision.learned_reader)
    assert 0 <= figures["threshold"] <= 1
    assert figures["sure_precision"] >= 0.995 or figures["sure_share"] == 0
