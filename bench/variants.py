"""A photo changed as a phone or a room changes it: the kinds ``python -m bench vision
--variants`` reads besides each photo as it is. A reader that sees tiles reads them the
same whatever of these happened to the photo."""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageFilter, ImageOps


def _open(data: bytes) -> Image.Image:
    image = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
    assert image is not None
    return image.convert("RGB")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # lossless: only the change itself counts
    return out.getvalue()


def _pixels(change: Callable[[np.ndarray], np.ndarray]) -> Callable[[Image.Image], Image.Image]:
    def apply(image: Image.Image) -> Image.Image:
        rgb = np.asarray(image, dtype=np.float32)
        return Image.fromarray(np.clip(change(rgb), 0, 255).astype(np.uint8))

    return apply


def _noisy(rgb: np.ndarray) -> np.ndarray:
    return rgb + np.random.default_rng(0).normal(0, 10, rgb.shape[:2] + (1,))


def _jpeg(quality: int) -> Callable[[bytes], bytes]:
    def change(data: bytes) -> bytes:
        out = io.BytesIO()
        _open(data).save(out, format="JPEG", quality=quality)
        return out.getvalue()

    return change


def _image(change: Callable[[Image.Image], Image.Image]) -> Callable[[bytes], bytes]:
    return lambda data: _png(change(_open(data)))


KINDS: dict[str, Callable[[bytes], bytes]] = {
    "mirrored": _image(ImageOps.mirror),
    "turned_90": _image(lambda im: im.transpose(Image.Transpose.ROTATE_90)),
    "turned_180": _image(lambda im: im.transpose(Image.Transpose.ROTATE_180)),
    "turned_270": _image(lambda im: im.transpose(Image.Transpose.ROTATE_270)),
    # turned 15° with the corners filled by the photo's own edge colour, not black
    "turned_15": _image(
        lambda im: im.rotate(15, Image.Resampling.BICUBIC, expand=True, fillcolor=im.getpixel((0, 0)))
    ),
    "darker_25": _image(_pixels(lambda rgb: rgb * 0.75)),
    "brighter_25": _image(_pixels(lambda rgb: rgb * 1.25)),
    "warmer": _image(_pixels(lambda rgb: rgb * np.array([1.12, 1.0, 0.8], np.float32))),
    "cooler": _image(_pixels(lambda rgb: rgb * np.array([0.85, 0.97, 1.15], np.float32))),
    "jpeg_50": _jpeg(50),
    "half_size": _image(
        lambda im: im.resize((max(1, im.width // 2), max(1, im.height // 2)), Image.Resampling.LANCZOS)
    ),
    "blurred": _image(lambda im: im.filter(ImageFilter.GaussianBlur(max(1.0, max(im.size) / 1000)))),
    "noisy": _image(_pixels(_noisy)),
}
