"""Decoding a photo's bytes into an upright RGB array, refusing what is not a readable photo."""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from referee.vision.reading import MAX_PHOTO_BYTES, PhotoError

# A 12 MP phone photo has 12 million pixels; anything beyond this many is refused before it
# is decoded (a small file that claims to be huge is a decompression bomb).
MAX_PIXELS = 50_000_000
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
        if raw_w * raw_h > MAX_PIXELS:
            raise PhotoError(413, "The photo has too many pixels to be read.")
        try:
            if image.format == "JPEG" and max(raw_w, raw_h) > 2 * side:
                image.draft("RGB", (raw_w * side // max(raw_w, raw_h), raw_h * side // max(raw_w, raw_h)))
            image.load()
            loaded = image.size
            try:
                image = ImageOps.exif_transpose(image) or image
            except Exception:  # a broken EXIF block: read the pixels as they are stored
                pass
            turned = image.size != loaded
            width, height = (raw_h, raw_w) if turned else (raw_w, raw_h)
            if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
                rgba = image.convert("RGBA")
                background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                image = Image.alpha_composite(background, rgba)
            image = image.convert("RGB")
            if max(image.size) > side:
                factor = side / max(image.size)
                size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
                image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
            rgb = np.asarray(image, dtype=np.uint8)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise PhotoError(413, "The photo has too many pixels to be read.") from error
        except (OSError, SyntaxError, ValueError, EOFError, IndexError, MemoryError) as error:
            raise PhotoError(400, "The photo is damaged or cut short.") from error
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise PhotoError(415, "The file is not a photo in a format that can be read.")
    return Decoded(rgb=np.ascontiguousarray(rgb), width=width, height=height)
