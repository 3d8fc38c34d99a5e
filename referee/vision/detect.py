"""Finding tiles and counting pips: classical image analysis with OpenCV (docs/VISION.md).

Each face-up tile has exactly one dividing bar: a thin, dark (or, on black tiles, light)
line with the tile's bright face on both long sides and beyond both ends. The reading
finds those bars, walks from each bar along its normal to the two ends of the tile, warps
each half to a square and counts the pip blobs in it. Pips are found by how far they stand
from the face's own colour, whatever their hue, so coloured pips read like black ones.

The steps live in modules of their own: ``bars`` finds the bars; ``walk`` and ``outline``
measure a tile from its bar; ``pips`` counts a half's pips; ``checks`` refuses what is no
face-up tile; ``tile`` reads the tile of one bar; ``passes`` finds a photo's tiles, pass by
pass, and ``overlaps`` keeps one reading per tile; ``shapes`` and ``sampling`` hold what they
share. Here the passes are combined into the photo's reading.
"""

from __future__ import annotations

import cv2

from referee.tiles import Tile
from referee.vision.bars import find_bars
from referee.vision.checks import one_face
from referee.vision.decode import Decoded, photo_box
from referee.vision.overlaps import drop_overlaps, merge
from referee.vision.passes import find_by_likeness, find_tiles
from referee.vision.reading import Reading, ReadTile, in_reading_order
from referee.vision.shapes import PLAUSIBLE

SHORTEST_TILE = 1.2  # a tile's length over its width is at least this on a photo
# The least confidence of a tile read as sure (right at least 99 times in 100). Measured with
# `python -m bench vision --calibrate --count 80 --seed 3 --size 1280x960` (synthetic scenes of
# any set and table, never used to develop this reader): at no confidence were 99.5 % of this
# reader's tiles right, so it never claims a tile sure and a person looks at every tile.
SURE_CONFIDENCE = 1.01


def read_image(image: Decoded, highest: int) -> Reading:
    """The tiles read on the decoded ``image`` of a set whose highest pip is ``highest``."""
    rgb = image.rgb
    grey = cv2.GaussianBlur(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), (3, 3), 0)
    bars = find_bars(grey)
    found = drop_overlaps(find_tiles(rgb, grey, highest, bars=bars))
    # black tiles with white pips: the same reading on the negative (light bars on dark faces)
    negative = find_tiles(rgb, 255 - grey, highest, min_contrast=100)
    found = merge(found, drop_overlaps(negative))
    # faces no brighter than the table (a side view, a white or marble table): the bars no
    # tile was read from are tried again on the likeness to their own face's colour
    found = merge(found, drop_overlaps(find_by_likeness(rgb, grey, highest, found, bars)))
    found = [item for item in found if one_face(rgb, item.bar)]
    tiles = []
    for item in found:
        a, b = item.halves
        confidence = min(a.confidence, b.confidence)
        pa, pb = a.pips, b.pips
        if pa > highest or pb > highest:
            confidence = min(confidence, 0.2)
            pa, pb = min(pa, highest), min(pb, highest)
        ratio = (item.ends[0] + item.ends[1]) / item.width
        if ratio < SHORTEST_TILE:
            continue  # far shorter than a tile seen from any usual angle: a printed mark
        if not PLAUSIBLE[0] <= ratio <= PLAUSIBLE[1]:
            confidence *= 0.6
        sure = confidence >= SURE_CONFIDENCE
        tiles.append(
            ReadTile(Tile(pa, pb), round(float(confidence), 3), photo_box(image, item.corners()), sure)
        )
    return Reading(width=image.width, height=image.height, tiles=in_reading_order(tiles))
