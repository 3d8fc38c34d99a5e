"""Decoding a photo's bytes into an upright RGB array, refusing what is not a readable photo."""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, UnidentifiedImageError

from referee.vision.reading import MAX_PHOTO_BYTES, PhotoError

# A 12 MP phone photo has 12 million pixels; anything beyond this many is refused before it
# is decoded (a small file that claims to be huge is a decompression bomb).
MAX_PIXELS = 50_000_000
# What one read may hold of a photo's pixels decoded in full: a JPEG is decoded at a reduced
# scale (draft mode) and never comes near it; any other format (PNG, HEIC, WebP …) is decoded
# whole, so one whose header claims more than this is refused before its pixels are read.
# 150 MB takes a 24 MP HEIC or a 36 MP PNG without alpha; two reads at once stay within 300 MB.
MAX_DECODED_BYTES = 150 * 1024 * 1024
# Bytes per pixel of the modes a photo opens in; a mode the resizing cannot take is
# converted to RGBA first, which costs 4 more bytes a pixel.
MODE_BYTES = {"1": 1, "L": 1, "P": 1, "LA": 2, "La": 2, "RGB": 3, "RGBA": 4, "RGBa": 4}
RESIZABLE = frozenset(MODE_BYTES) - {"1"}
DRAFTABLE = frozenset({"JPEG", "MPO"})
# EXIF orientations and the transposition that makes the photo upright (as ImageOps does).
UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
# The longest side the analysis works at: larger photos are decoded at a reduced size
# (JPEG draft mode) and resized, and the boxes are mapped back to the photo's pixels.
ANALYSIS_SIDE = 1280

FORMATS = frozenset({"JPEG", "PNG", "HEIF", "WEBP", "BMP", "TIFF", "MPO", "GIF"})

_heif_registered = False


def _register_heif() -> None:
    global _heif_registered
    if not _heif_registered:
        try:
            from pillow_heif import register_heif_opener
        except ImportError:  # pragma: no cover - pillow-heif is a dependency
            pass
        else:
            register_heif_opener()
        _heif_registered = True


@dataclass(frozen=True, slots=True)
class Decoded:
    rgb: np.ndarray  # H x W x 3, uint8, upright, at analysis size
    width: int  # the photo's size after EXIF rotation
    height: int

    @property
    def scale(self) -> float:
        """Photo pixels per analysis pixel."""
        return float(self.width) / int(self.rgb.shape[1])


def photo_box(image: Decoded, corners: np.ndarray) -> tuple[int, int, int, int]:
    """The box (x, y, w, h) in the photo's pixels, within the photo, of a tile whose
    ``corners`` are in the analysis image's pixels."""
    in_photo = corners * image.scale
    x0, y0 = np.floor(in_photo.min(axis=0)).astype(int)
    x1, y1 = np.ceil(in_photo.max(axis=0)).astype(int)
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(image.width, int(x1)), min(image.height, int(y1))
    return (x0, y0, x1 - x0, y1 - y0)


def decoded_bytes(image: Image.Image) -> int:
    """What decoding ``image`` in full would hold, from its header alone (a JPEG: its reduced
    decoding's, at most a quarter of it)."""
    pixels = image.width * image.height
    per_pixel = MODE_BYTES.get(image.mode, 8)
    if image.mode not in RESIZABLE:
        per_pixel += 4  # converted before it is reduced
    elif image.mode in ("RGBA", "LA"):
        per_pixel *= 2  # reduced through a premultiplied copy
    if image.format in DRAFTABLE:
        return pixels * per_pixel // 4
    if image.format == "HEIF":  # libheif's decoded frame, then Pillow's copy of it
        return 2 * pixels * per_pixel
    return pixels * per_pixel


def exif_orientation(image: Image.Image) -> int:
    """The photo's EXIF orientation (1: upright as stored); a broken EXIF block reads as 1."""
    try:
        value = image.getexif().get(0x0112, 1)
    except Exception:  # a broken EXIF block: read the pixels as they are stored
        return 1
    return value if isinstance(value, int) else 1


def decode(data: bytes, side: int = ANALYSIS_SIDE) -> Decoded:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise PhotoError(415, "The file is not a photo.")
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoError(413, "The photo is too large: send one of at most 20 MB.")
    if len(data) == 0:
        raise PhotoError(400, "The photo is empty.")
    _register_heif()
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image: Image.Image = Image.open(io.BytesIO(bytes(data)))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise PhotoError(413, "The photo has too many pixels to be read.") from error
        except UnidentifiedImageError as error:
            raise PhotoError(415, "The file is not a photo in a format that can be read.") from error
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise PhotoError(400, "The photo is damaged or cut short.") from error
        if image.format not in FORMATS:
            raise PhotoError(415, "The file is not a photo in a format that can be read.")
        raw_w, raw_h = image.size
        if raw_w <= 0 or raw_h <= 0:
            raise PhotoError(400, "The photo is damaged or cut short.")
        if raw_w * raw_h > MAX_PIXELS or decoded_bytes(image) > MAX_DECODED_BYTES:
            raise PhotoError(413, "The photo has too many pixels to be read.")
        try:
            if image.format in DRAFTABLE and max(raw_w, raw_h) > 2 * side:
                image.draft("RGB", (raw_w * side // max(raw_w, raw_h), raw_h * side // max(raw_w, raw_h)))
            orientation = exif_orientation(image)
            image.load()
            # Reduced first, then turned upright and flattened: every copy after the decoding
            # is of the analysis size, never of the photo's.
            if image.mode not in RESIZABLE:
                image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
            if max(image.size) > side:
                factor = side / max(image.size)
                size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
                image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
            if orientation in UPRIGHT:
                image = image.transpose(UPRIGHT[orientation])
            turned = orientation in (5, 6, 7, 8)
            width, height = (raw_h, raw_w) if turned else (raw_w, raw_h)
            if image.mode in ("RGBA", "RGBa", "LA", "La", "PA") or (
                image.mode == "P" and "transparency" in image.info
            ):
                rgba = image.convert("RGBA")
                background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                image = Image.alpha_composite(background, rgba)
            image = image.convert("RGB")
            rgb = np.asarray(image, dtype=np.uint8)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise PhotoError(413, "The photo has too many pixels to be read.") from error
        except (OSError, SyntaxError, ValueError, EOFError, IndexError, MemoryError) as error:
            raise PhotoError(400, "The photo is damaged or cut short.") from error
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise PhotoError(415, "The file is not a photo in a format that can be read.")
    return Decoded(rgb=np.ascontiguousarray(rgb), width=width, height=height)
