"""Reading domino tiles from a photo: pure of Flask, offline, on the CPU.

``read_photo(data, highest)`` decodes a JPEG, PNG, HEIC or other still image (EXIF rotation
applied, decompression bombs refused), finds the face-up tiles and counts the pips of each
half. Every tile read carries a confidence and its box in the photo's pixels after the EXIF
rotation. The method and its measured accuracy are described in docs/VISION.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.tiles import Tile

MAX_PHOTO_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ReadTile:
    """One tile found on the photo."""

    tile: Tile  # the tile read (smaller half first, as Tile does)
    confidence: float  # 0..1: low when a half's pip count or the tile's outline is unsure
    box: tuple[int, int, int, int]  # x, y, w, h in the photo's pixels after EXIF rotation


@dataclass(frozen=True, slots=True)
class Reading:
    """All the tiles read on one photo."""

    width: int  # the photo's size after EXIF rotation
    height: int
    tiles: tuple[ReadTile, ...]

    @property
    def pips(self) -> int:
        return sum(read.tile.pips for read in self.tiles)


class PhotoError(ValueError):
    """A photo that cannot be read: ``status`` is the HTTP answer (413, 415 or 400) and
    ``message`` one English sentence (a msgid: translate it with ``phrase(message)``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def read_photo(data: bytes, highest: int = 12) -> Reading:
    """Read the tiles on the photo ``data`` (the file's bytes) of a set whose highest pip is
    ``highest``. Raises ``PhotoError`` for a file that is not a readable photo."""
    from referee.vision.decode import decode
    from referee.vision.detect import read_image

    image = decode(data)
    return read_image(image, highest)


__all__ = ["MAX_PHOTO_BYTES", "PhotoError", "ReadTile", "Reading", "read_photo"]
