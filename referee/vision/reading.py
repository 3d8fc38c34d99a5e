"""What the photo reading gives back (a ``Reading`` of ``ReadTile``s) and how it refuses a
file (``PhotoError``): the package's shared values, apart from the modules that read."""

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
    # right at least 99 times in 100 by the reader's calibration (docs/VISION.md); the page asks
    # a person to look at every tile that is not sure
    sure: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """All the tiles read on one photo."""

    width: int  # the photo's size after EXIF rotation
    height: int
    tiles: tuple[ReadTile, ...]

    @property
    def pips(self) -> int:
        return sum(read.tile.pips for read in self.tiles)


def in_reading_order(tiles: list[ReadTile]) -> tuple[ReadTile, ...]:
    """The tiles by rows of the photo (50 px bands), left to right."""
    return tuple(sorted(tiles, key=lambda t: (t.box[1] // 50, t.box[0])))


class PhotoError(ValueError):
    """A photo that cannot be read: ``status`` is the HTTP answer (413, 415 or 400) and
    ``message`` one English sentence (a msgid: translate it with ``phrase(message)``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[PhotoError], tuple[int, str]]:
        # raised in a reader process and sent back to the server's (referee.web.heavy)
        return (PhotoError, (self.status, self.message))
