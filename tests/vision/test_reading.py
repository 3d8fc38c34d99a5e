"""Reading tiles from photos: synthetic photos with exact labels, drawn by the project's other
generator (``referee/vision/synthetic.py``: the networks never trained on its drawing), and
the real photos of ``../shared/photos/`` when they are there (measured only, never trained,
tuned on or copied into the project)."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from referee.tiles import Tile
from referee.vision import Reading, ReadTile, read_photo
from referee.vision.model import load
from referee.vision.synthetic import make_photo

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "photos"


def _tiles(reading: Reading) -> Counter[str]:
    return Counter(str(read.tile) for read in reading.tiles)


def _inside(box: tuple[int, int, int, int], point: tuple[float, float]) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


@pytest.mark.parametrize(
    ("seed", "pips"), [(0, "black"), (3, "black"), (5, "black"), (0, "colour"), (3, "colour"), (6, "colour")]
)
def test_easy_synthetic_photos_are_read_exactly(seed: int, pips: str) -> None:
    data, tiles, boxes = make_photo(seed, size=(640, 480), pips=pips, easy=True)
    reading = read_photo(data, 12)
    assert (reading.width, reading.height) == (640, 480)
    assert _tiles(reading) == Counter(str(t) for t in tiles)
    assert reading.pips == sum(t.pips for t in tiles)
    for read in reading.tiles:
        assert isinstance(read, ReadTile)
        assert 0.0 <= read.confidence <= 1.0
        # each box read holds the centre of a tile drawn there
        centre = (read.box[0] + read.box[2] / 2, read.box[1] + read.box[3] / 2)
        assert any(_inside((x - 4, y - 4, w + 8, h + 8), centre) for x, y, w, h in boxes)


def test_black_tiles_with_white_pips_are_read() -> None:
    # black faces with white pips, a style of their own: every tile read, and read exactly
    for seed in range(4):
        data, tiles, _ = make_photo(seed, size=(800, 600), pips="white", easy=True)
        assert _tiles(read_photo(data, 12)) == Counter(str(t) for t in tiles)


def test_harder_synthetic_photos_mostly_read_exactly() -> None:
    exact = wanted = read = 0
    for seed in range(100, 112):
        data, tiles, _ = make_photo(seed, size=(960, 720))
        reading = read_photo(data, 12)
        wanted += len(tiles)
        read += len(reading.tiles)
        exact += sum((_tiles(reading) & Counter(str(t) for t in tiles)).values())
    # every kind of photo of the other generator (face-down backs, touching tiles, side views,
    # white stone), which the networks never trained on: 49 of 51 read exactly today
    assert exact >= 0.9 * wanted
    assert read <= wanted  # and no more tiles read than lie there


def test_a_photo_without_tiles_reads_no_tile() -> None:
    data, tiles, _ = make_photo(3, size=(640, 480), count=0)
    assert tiles == []
    assert read_photo(data, 12).tiles == ()


def test_halves_above_the_set_are_named_within_it_and_unsure() -> None:
    data, tiles, _ = make_photo(11, size=(640, 480), pips="black", easy=True, count=1, highest=12)
    (tile,) = tiles
    if tile.high <= 6:
        pytest.skip("the drawn tile is within double-6")
    reading = read_photo(data, highest=6)
    assert reading.tiles  # the tile is found, its halves named within the set ...
    for read in reading.tiles:
        assert read.tile.high <= 6
        # ... and far from the confidence of a sure tile, whether or not the app claims any
        assert not read.sure and read.confidence < load().settings.sure_threshold / 2


@pytest.mark.skipif(not (REAL / "labels.json").exists(), reason="../shared/photos is not here")
def test_real_photos_floor() -> None:
    labels = json.loads((REAL / "labels.json").read_text())
    labelled = matched = exact = read = totals_right = 0
    for photo in labels["photos"]:
        reading = read_photo((REAL / photo["file"]).read_bytes(), 12)
        want = Counter(photo["tiles"])
        got = _tiles(reading)
        labelled += sum(want.values())
        read += sum(got.values())
        matched += min(sum(want.values()), sum(got.values()))
        exact += sum((want & got).values())
        totals_right += reading.pips == photo["total_pips"]
        assert all(isinstance(t.tile, Tile) and t.tile.high <= 12 for t in reading.tiles)
    # the floor the shipped reader reaches today, less one tile or one photo (measured, never
    # trained or tuned on; docs/BENCHMARKS.md has the figures: 81 of 84 tiles found, 68 exact,
    # 81 of the 83 read there, 14 of 20 totals; before the retry of marks the counter calls no
    # tile, 79 found, 65 exact, all 79 there): a reader that reads these photos worse shows here
    assert matched / labelled >= 80 / 84
    assert exact / labelled >= 67 / 84
    assert matched / read >= 80 / 83
    assert totals_right / len(labels["photos"]) >= 13 / 20


def _exact_and_read(photos: list[tuple[bytes, list[Tile]]]) -> tuple[int, int, int]:
    exact = wanted = read = 0
    for data, tiles in photos:
        reading = read_photo(data, 12)
        wanted += len(tiles)
        read += len(reading.tiles)
        exact += sum((_tiles(reading) & Counter(str(t) for t in tiles)).values())
    return exact, wanted, read


def test_face_down_tiles_with_a_printed_name_are_not_read_as_tiles() -> None:
    photos = []
    for seed in range(8):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, backs=2)
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact == wanted  # the face-up tiles are all read
    assert read - wanted <= 4  # at most a quarter of the 16 backs taken for a tile


def test_a_table_seen_from_the_side_is_read() -> None:
    # the far side of the photo a quarter narrower: tiles smaller and sheared there
    photos = []
    for seed in range(8):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, tilt=0.25, pips="colour")
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact >= 0.9 * wanted
    assert read <= wanted


def test_tiles_laid_end_to_end_are_read_one_by_one() -> None:
    photos = []
    for seed in range(8):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, touching=2)
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact >= 0.85 * wanted
    assert read <= wanted  # two touching tiles are never read as one long tile and a bit


def test_tiles_on_a_white_table_as_light_as_their_faces() -> None:
    # the face does not stand out from the table by its brightness; a floor
    photos = []
    for seed in range(8):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, table="marble", pips="colour")
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact >= 0.5 * wanted
    assert read <= wanted


def test_tiles_on_a_white_stone_table_as_light_as_their_faces_are_found() -> None:
    # the table is as light as the faces and veined: the tile's outline shows only as a
    # shade of colour and a thin shadow
    exact = wanted = read = 0
    for seed in range(200, 212):
        data, tiles, _ = make_photo(seed, size=(960, 720), table="marble")
        reading = read_photo(data, 12)
        wanted += len(tiles)
        read += len(reading.tiles)
        exact += sum((_tiles(reading) & Counter(str(t) for t in tiles)).values())
    assert read >= 0.9 * wanted
    assert exact >= 0.74 * wanted


def test_the_seam_between_black_tiles_end_to_end_is_no_tile() -> None:
    # two black tiles laid end to end on a grey table: the seam between them looks like a
    # bar, and a "tile" read on it would run far across the table
    data, _tiles_drawn, _ = make_photo(300035, size=(1600, 1200), touching=1)
    reading = read_photo(data, 12)
    assert _tiles(reading) >= Counter({"3-10": 2, "4-6": 1})
    for read in reading.tiles:
        assert read.box[2] < 400 and read.box[3] < 400  # no box across the table


def test_black_tiles_laid_end_to_end_are_mostly_read_exactly() -> None:
    exact = wanted = 0
    for seed in range(300, 316):
        data, tiles, _ = make_photo(seed, size=(960, 720), pips="white", touching=1)
        reading = read_photo(data, 12)
        wanted += len(tiles)
        exact += sum((_tiles(reading) & Counter(str(t) for t in tiles)).values())
    assert exact >= 0.86 * wanted


def test_a_tile_on_a_white_table_seen_from_the_side_is_read_at_its_own_length() -> None:
    # the 1-11 lies on a white stone table seen from the side, two face-down tiles near:
    # nothing shows where its face ends but a thin shadow
    data, _drawn, _ = make_photo(300085, size=(1600, 1200), backs=2, tilt=0.12329654641967021, table="marble")
    assert _tiles(read_photo(data, 12))["1-11"] == 1


def test_the_shaded_front_side_of_a_thick_tile_is_not_taken_as_face() -> None:
    # a thick tile seen from a low angle: below its face (235) shows its front side, of the
    # face's colour but in the shade (200); the half ends at the face's own edge, not at
    # the side's
    image = np.zeros((600, 800, 3), np.uint8)
    image[:] = (60, 95, 60)  # green cloth
    image[150:350, 350:450] = 235  # the face, 100 wide and 200 long
    image[350:378, 350:450] = 200  # its front side in the shade
    image[249:252, 360:441] = 20  # the bar
    for x, y in [(375, 175), (400, 200), (425, 225)]:  # a 3
        cv2.circle(image, (x, y), 8, (20, 20, 20), -1)
    for x, y in [(375, 275), (425, 275), (375, 325), (425, 325)]:  # a 4
        cv2.circle(image, (x, y), 8, (20, 20, 20), -1)
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    reading = read_photo(buffer.getvalue(), 12)
    assert [str(t.tile) for t in reading.tiles] == ["3-4"]
    _x, y, _w, h = reading.tiles[0].box
    # The outline holds the face. It is longer than the face: the counter is surer of this
    # tile (0.95) cut out 1.3 times as long as the finder marked it than as marked (0.89, under
    # the tile threshold), so the retry's outline is the one kept (docs/VISION.md, the retry).
    assert y <= 150 + 8 and y + h >= 350 - 8 and h <= 1.3 * 200 + 8


def test_dense_halves_touching_in_a_seamless_grid_are_read() -> None:
    # nines to twelves in a grid of tiles touching side by side and end to end, no table
    # between them: a row of a dense half's pips looks like the end of a tile
    photos = []
    for seed in range(12):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, grid=True, pips="colour")
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact >= 0.95 * wanted  # 46 of 46
    assert read <= wanted


def test_white_tiles_touching_in_a_grid_on_a_white_table() -> None:
    # the table is as white as the faces and the tiles touch: only the bars, the pips and
    # the thin seams show where one tile ends and the next begins; a floor
    photos = []
    for seed in range(12):
        data, tiles, _ = make_photo(seed, size=(960, 720), easy=True, grid=True, table="white", pips="colour")
        photos.append((data, tiles))
    exact, wanted, read = _exact_and_read(photos)
    assert exact >= 0.7 * wanted
    assert read <= wanted
