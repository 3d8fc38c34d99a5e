"""Bad photos get a clear refusal (status and one sentence); good ones of every format and
EXIF rotation are read with boxes in the upright photo's pixels."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from referee.vision import MAX_PHOTO_BYTES, PhotoError, Reading, ReadTile, read_photo
from referee.vision.synthetic import make_photo


def _refusal(data: bytes) -> PhotoError:
    with pytest.raises(PhotoError) as caught:
        read_photo(data)
    error = caught.value
    assert error.message.endswith(".") and error.message[0].isupper()
    assert str(error) == error.message
    return error


def test_not_an_image_is_415() -> None:
    assert _refusal(b"%PDF-1.4 this is not a photo at all").status == 415
    assert _refusal(b"GIF89").status in (400, 415)


def test_an_empty_file_is_400() -> None:
    assert _refusal(b"").status == 400


def test_a_truncated_jpeg_is_400() -> None:
    data, _, _ = make_photo(0, size=(640, 480))
    assert _refusal(data[: len(data) // 2]).status == 400


def test_a_decompression_bomb_is_413() -> None:
    out = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(out, format="PNG")  # 144 MP in a few kB
    assert len(out.getvalue()) < 200_000
    assert _refusal(out.getvalue()).status == 413


def test_a_file_over_20_mb_is_413() -> None:
    assert _refusal(b"\xff\xd8\xff" + b"\0" * MAX_PHOTO_BYTES).status == 413


def test_png_with_alpha_is_read() -> None:
    data, tiles, _ = make_photo(0, size=(640, 480), pips="black", easy=True)
    rgba = Image.open(io.BytesIO(data)).convert("RGBA")
    out = io.BytesIO()
    rgba.save(out, format="PNG")
    reading = read_photo(out.getvalue())
    assert Counter(str(t.tile) for t in reading.tiles) == Counter(str(t) for t in tiles)


def test_heic_is_read() -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    data, tiles, _ = make_photo(0, size=(640, 480), pips="black", easy=True)
    out = io.BytesIO()
    Image.open(io.BytesIO(data)).save(out, format="HEIF", quality=95)
    reading = read_photo(out.getvalue())
    assert (reading.width, reading.height) == (640, 480)
    assert Counter(str(t.tile) for t in reading.tiles) == Counter(str(t) for t in tiles)


def test_exif_rotation_is_applied_and_boxes_are_upright() -> None:
    data, tiles, _ = make_photo(0, size=(640, 480), pips="black", easy=True)
    upright = Image.open(io.BytesIO(data))
    # stored turned on its side, with the EXIF tag that says how to turn it back
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=95, exif=exif.tobytes())
    reading = read_photo(out.getvalue())
    assert (reading.width, reading.height) == (640, 480)
    plain = read_photo(data)
    assert Counter(str(t.tile) for t in reading.tiles) == Counter(str(t) for t in tiles)
    for read in reading.tiles:
        # the same tile in the photo read upright, at (nearly) the same box
        twin = [p for p in plain.tiles if p.tile == read.tile]
        assert any(np.abs(np.subtract(read.box, p.box)).max() <= 12 for p in twin)


def test_a_large_photo_is_downscaled_and_boxes_map_back() -> None:
    data, tiles, boxes = make_photo(0, size=(3200, 2400), pips="black", easy=True)
    reading = read_photo(data)
    assert isinstance(reading, Reading)
    assert (reading.width, reading.height) == (3200, 2400)
    assert Counter(str(t.tile) for t in reading.tiles) == Counter(str(t) for t in tiles)
    for read in reading.tiles:
        cx, cy = read.box[0] + read.box[2] / 2, read.box[1] + read.box[3] / 2
        assert any(x - 20 <= cx <= x + w + 20 and y - 20 <= cy <= y + h + 20 for x, y, w, h in boxes)


def test_the_contract_is_frozen() -> None:
    data, _, _ = make_photo(0, size=(640, 480), pips="black", easy=True)
    reading = read_photo(data)
    read = reading.tiles[0]
    assert isinstance(read, ReadTile)
    with pytest.raises(AttributeError):
        read.confidence = 1.0  # type: ignore[misc]
