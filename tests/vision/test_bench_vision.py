"""``python -m bench vision FOLDER`` prints its figures and ends with the JSON line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
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
    vision.main([str(tmp_path), "--variants", "-q"])
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


def test_other_makers_is_refused_where_it_would_change_nothing() -> None:
    """The other generator has one arrangement per number: ``--other-makers`` without
    ``--scenes``, ``--calibrate`` or ``--where-lost`` is a usage error, not a silent no-op."""
    with pytest.raises(SystemExit) as refused:
        vision.main(["--other-makers", "--count", "1"])
    assert refused.value.code == 2


def test_made_up_makers_are_refused_without_other_makers() -> None:
    """Made-up makers print some of the other makers' sets: alone, the flag would draw nothing
    otherwise, and is a usage error."""
    with pytest.raises(SystemExit) as refused:
        vision.main(["--scenes", "--made-up-makers", "--count", "1"])
    assert refused.value.code == 2


def test_coloured_pips_are_refused_without_the_scenes() -> None:
    """The other generator draws no sets of coloured pips: ``--coloured-pips`` without
    ``--scenes``, ``--calibrate`` or ``--where-lost`` is a usage error, not a silent no-op."""
    with pytest.raises(SystemExit) as refused:
        vision.main(["--coloured-pips", "--count", "1"])
    assert refused.value.code == 2


def test_the_sure_threshold_is_calibrated_on_synthetic_photos(tmp_path: Path) -> None:
    """A threshold above which at least 99.5 % of the tiles read are right, on labelled boxes."""
    write_scenes(tmp_path, 3, seed=9, size=(480, 360))
    figures = vision.calibrate(tmp_path, vision.learned_reader)
    assert 0 <= figures["threshold"] <= 1
    assert figures["sure_precision"] >= 0.995 or figures["sure_share"] == 0


def test_a_tile_cut_by_the_frame_read_right_is_neither_right_nor_wrong(tmp_path: Path) -> None:
    """Labels list the tiles (nearly) whole in the photo; a tile cut by the frame is listed
    apart, and reading it right neither earns nor costs the calibration anything. Read
    wrong, it counts wrong as any misreading does."""
    from referee.tiles import Tile
    from referee.vision import Reading, ReadTile

    photo = {
        "file": "a.jpg",
        "set_hint": "double-12",
        "tiles": ["3-4"],
        "boxes": [[10, 10, 40, 80]],
        "cut_by_frame": [{"tile": "5-6", "box": [0, 200, 30, 80]}],
    }
    (tmp_path / "labels.json").write_text(json.dumps({"photos": [photo]}))
    (tmp_path / "a.jpg").write_bytes(b"")

    def reader_reading(cut_tile: Tile, confidence: float) -> vision.Reader:
        def read(_data: bytes, _highest: int) -> Reading:
            tiles = (
                ReadTile(Tile(3, 4), 0.9, (10, 10, 40, 80), False),
                ReadTile(cut_tile, confidence, (0, 200, 30, 80), False),
            )
            return Reading(640, 480, tiles)

        return read

    right = vision.calibrate(tmp_path, reader_reading(Tile(5, 6), 0.99))
    assert right["tiles_read"] == 1 and right["threshold"] == 0.9
    wrong = vision.calibrate(tmp_path, reader_reading(Tile(5, 5), 0.99))
    assert wrong["tiles_read"] == 2 and wrong["threshold"] > 1  # a surer misreading: none sure
    # and the benchmark's precision counts it the same way
    photo["total_pips"] = 7
    (tmp_path / "labels.json").write_text(json.dumps({"photos": [photo]}))
    assert vision.measure(tmp_path, False, reader_reading(Tile(5, 6), 0.99))["tile_precision"] == 1.0
    assert vision.measure(tmp_path, False, reader_reading(Tile(5, 5), 0.99))["tile_precision"] == 0.5


def test_the_scenes_list_the_tiles_cut_by_the_frame_apart(tmp_path: Path) -> None:
    labels = json.loads(write_scenes(tmp_path, 12, seed=3, size=(480, 360)).read_text())
    cut = [c for photo in labels["photos"] for c in photo["cut_by_frame"]]
    assert cut, "some of twelve scenes have a tile cut by the frame"
    assert all(set(c) == {"tile", "box"} and len(c["box"]) == 4 for c in cut)


# -- where the reader loses a scene's tiles (--where-lost) -------------------------------------


def _wholly_visible(
    count: int, other_makers: bool = False, made_up: bool = False, coloured_pips: bool = False
) -> int:
    from referee.vision import scenes
    from referee.vision.examples import VALIDATION_SEED, scene_for

    with scenes.other_makers_share(other_makers, made_up), scenes.coloured_pips_share(coloured_pips):
        return sum(
            tile.visible >= 0.95 for i in range(count) for tile in scene_for(VALIDATION_SEED + i)[0].tiles
        )


def test_where_lost_accounts_for_every_wholly_visible_tile_once(capsys: pytest.CaptureFixture[str]) -> None:
    vision.main(["--where-lost", "--count", "4", "--other-makers"])
    lost = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert lost["other_makers"] is True and lost["scenes"] == 4
    assert sum(lost[loss] for loss in vision.LOSSES) == _wholly_visible(4, other_makers=True)
    for loss in vision.LOSSES:
        assert sum(bucket[loss] for bucket in lost["by_width"].values()) == lost[loss]
    assert lost["read_right"] > 0


def test_where_lost_reads_the_scenes_of_made_up_makers(capsys: pytest.CaptureFixture[str]) -> None:
    vision.main(["--where-lost", "--count", "2", "--other-makers", "--made-up-makers"])
    lost = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert lost["made_up_makers"] is True and lost["other_makers"] is True
    assert sum(lost[loss] for loss in vision.LOSSES) == _wholly_visible(2, True, made_up=True)


def test_where_lost_reads_the_scenes_of_coloured_pips(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.vision import scenes

    vision.main(["--where-lost", "--count", "2", "--coloured-pips"])
    lost = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert lost["coloured_pips"] is True and lost["other_makers"] is False
    assert sum(lost[loss] for loss in vision.LOSSES) == _wholly_visible(2, coloured_pips=True)
    assert scenes.COLOURED_PIPS_SHARE == 0.0  # as it was


def test_a_finder_that_marks_nothing_loses_every_tile_at_the_finder() -> None:
    from referee.vision.model import load

    shipped = load().finder
    lost = vision.where_lost(3, finder=lambda image: np.full_like(shipped(image), -20.0))
    assert lost["finder_missed"] == _wholly_visible(3) > 0
    assert lost["read_right"] == lost["misread"] == lost["said_no_tile"] == 0


def test_a_counter_that_sees_no_tile_loses_every_marked_tile_at_the_counter() -> None:
    from referee.vision.model import load

    shipped = load().counter

    def no_tile(crops: np.ndarray) -> np.ndarray:
        logits = shipped(crops).copy()
        logits[:, 0] = -20.0  # the tile's logit: no tile
        return logits

    lost = vision.where_lost(3, counter=no_tile)
    assert lost["read_right"] == lost["misread"] == 0
    assert lost["said_no_tile"] > 0
    assert lost["said_no_tile"] + lost["finder_missed"] == _wholly_visible(3)


def test_halves_counted_one_more_are_misread_and_nothing_else_moves() -> None:
    from referee.vision import geometry as g
    from referee.vision.model import load

    shipped = load().counter
    classes = g.PIP_CLASSES

    def one_more(crops: np.ndarray) -> np.ndarray:
        logits = shipped(crops).copy()  # each half's pips: the classes' scores moved one up
        for first in (1, 1 + classes):
            logits[:, first : first + classes] = np.roll(logits[:, first : first + classes], 1, axis=1)
        return logits

    before, after = vision.where_lost(3), vision.where_lost(3, counter=one_more)
    assert before["read_right"] > 0
    assert after["read_right"] == 0
    assert after["misread"] == before["read_right"] + before["misread"]
    assert (after["said_no_tile"], after["finder_missed"]) == (
        before["said_no_tile"],
        before["finder_missed"],
    )


def test_a_counter_that_calls_every_mark_a_tile_reads_tiles_where_none_lies() -> None:
    """``read_where_none_lies`` counts the marks read as tiles on no tile of the scene: a
    counter that calls every mark a tile reads the finder's marks on the table as tiles."""
    from referee.vision.model import load

    shipped = load().counter

    def every_mark_a_tile(crops: np.ndarray) -> np.ndarray:
        logits = shipped(crops).copy()
        logits[:, 0] = 20.0  # the tile's logit: a tile, surely
        return logits

    before, after = vision.where_lost(6), vision.where_lost(6, counter=every_mark_a_tile)
    assert before["read_where_none_lies"] == 0
    assert after["read_where_none_lies"] > 0
    assert after["said_no_tile"] == 0


def _models_reading_nothing(tmp_path: Path) -> Path:
    """The shipped networks in a folder of their own, its reader.json asking a probability of
    a tile that no mark reaches."""
    import shutil

    from referee.vision.model import MODELS

    folder = tmp_path / "models"
    shutil.copytree(MODELS, folder)
    meta = json.loads((folder / "reader.json").read_text())
    meta["settings"]["tile_threshold"] = 1.01
    (folder / "reader.json").write_text(json.dumps(meta))
    return folder


def test_where_lost_reads_with_the_networks_of_a_folder_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vision.main(["--where-lost", "--count", "2", "--models", str(_models_reading_nothing(tmp_path))])
    lost = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert lost["tile_threshold"] == 1.01
    assert lost["read_right"] == lost["misread"] == lost["read_where_none_lies"] == 0
    assert lost["said_no_tile"] + lost["finder_missed"] == _wholly_visible(2) > 0
    vision.main(["--where-lost", "--count", "2", "--tile-threshold", "0.5"])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["read_right"] > 0


def test_a_folder_is_read_with_the_networks_of_a_folder_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "photos"
    write_set(photos, 2, seed=7, size=(640, 480))
    vision.main([str(photos), "--models", str(_models_reading_nothing(tmp_path))])
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["tiles_exact"] == 0.0 and figures["tile_recall"] == 0.0
    vision.main([str(photos)])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["tiles_exact"] > 0


def test_a_tile_threshold_without_the_validation_scenes_is_refused() -> None:
    with pytest.raises(SystemExit):
        vision.main(["--tile-threshold", "0.5", "--count", "1"])
