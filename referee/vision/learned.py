"""Reading a decoded photo with the learned reader (``referee.vision.model``): the tiles it
finds, in the photo's pixels, each with its confidence and whether it is sure.

The learned reader is measured beside the app's reader (``python -m bench vision --reader
learned``) and takes its place once it reads unseen photos better (docs/VISION.md).
"""

from __future__ import annotations

from referee.tiles import Tile
from referee.vision.decode import Decoded, photo_box
from referee.vision.model import load, read_rgb
from referee.vision.reading import Reading, ReadTile, in_reading_order


def read_learned(image: Decoded, highest: int) -> Reading:
    """The tiles read on the decoded ``image`` of a set whose highest number is ``highest``."""
    reader = load()
    found = read_rgb(image.rgb, highest, reader.finder, reader.counter, reader.settings)
    tiles = []
    for item in found:
        confidence = round(float(item.confidence), 3)
        sure = confidence >= reader.settings.sure_threshold  # as the answer shows it
        tiles.append(ReadTile(Tile(*item.halves), confidence, photo_box(image, item.corners), sure))
    return Reading(width=image.width, height=image.height, tiles=in_reading_order(tiles))
