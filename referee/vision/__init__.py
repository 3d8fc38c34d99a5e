"""Reading domino tiles from a photo: pure of Flask, offline, on the CPU.

``read_photo(data, highest)`` decodes a JPEG, PNG, HEIC or other still image (EXIF rotation
applied, decompression bombs refused), finds the face-up tiles and counts the pips of each
half. Every tile read carries a confidence and its box in the photo's pixels after the EXIF
rotation. The method and its measured accuracy are described in docs/VISION.md.

The values it gives back live in ``referee.vision.reading``; decoding in ``decode``, the
reading itself in ``detect``.
"""

from __future__ import annotations

import os

from referee.vision.reading import MAX_PHOTO_BYTES, PhotoError, Reading, ReadTile


def read_photo(data: bytes, highest: int = 12) -> Reading:
    """Read the tiles on the photo ``data`` (the file's bytes) of a set whose highest pip is
    ``highest``. Raises ``PhotoError`` for a file that is not a readable photo."""
    # Imported on first use: they load numpy, OpenCV and Pillow, which the app need not
    # hold in memory (nor take the time to import) until a photo is sent.
    from referee.vision.decode import decode
    from referee.vision.detect import read_image

    image = decode(data)
    return read_image(image, highest)


def start_reader_process() -> None:
    """A process that reads photos for the server (referee.web.heavy) runs at a lower CPU
    priority than the server, so a burst of photos never slows the plays at the table."""
    try:
        os.nice(10)
    except OSError:  # (a platform without nice: the same priority)
        pass


__all__ = ["MAX_PHOTO_BYTES", "PhotoError", "ReadTile", "Reading", "read_photo", "start_reader_process"]
