"""Reading a decoded photo with the learned reader (``referee.vision.model``): the tiles it
finds, in the photo's pixels, each with its confidence and whether it is sure.

The learned reader is measured beside the app's reader (``python -m bench vision --reader
learned``) and takes its place once it reads unseen photos better (docs/VISION.md).
"""

from __future__ import annotations

import numpy as np

from referee.tiles import Tile
from referee.vision.decode import Decoded
from referee.vision.model import load, read_rgb
from referee.vision.reading import Reading, ReadTile


def read_learned(image: Decoded, highest: int) -> Reading:
    """The tiles read on the decoded ``image`` of a set whose highest number is ``highest``."""
    reader = load()
    found = read_rgb(image.rgb, highest, reader.finder, reader.counter, reader.settings)
    tiles = []
    scale = image.scale
    for item in found:
        corners = item.corners * scale
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(image.width, int(x1)), min(image.height, int(y1))
        confidence = round(float(item.confidence), 3)
        sure = confidence >= reader.settings.sure_threshold  # as the answer shows it
        tiles.append(ReadTile(Tile(*item.halves), confidence, (x0, y0, x1 - x0, y1 - y0), sure))
    # reading order: rows of the photo, left to right
    tiles.sort(key=lambda t: (t.box[1] // 50, t.box[0]))
    return Reading(width=image.width, height=image.height, tiles=tuple(tiles))
