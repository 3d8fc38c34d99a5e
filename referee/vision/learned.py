"""Reading a decoded photo with the learned reader (``referee.vision.model``): the tiles it
finds, in the photo's pixels, each with its confidence and whether it is sure.
"""

from __future__ import annotations

from pathlib import Path

from referee.tiles import Tile
from referee.vision.decode import Decoded, photo_box
from referee.vision.model import MODELS, load, read_rgb
from referee.vision.reading import Reading, ReadTile, in_reading_order

# Whether the app calls a tile sure when its confidence reaches the calibrated threshold.
# The threshold holds on synthetic photos of both of the project's generators (right 99.5
# times in 100 and more, the networks trained on one of them only), but on the real photos
# measured its sure tiles were right 95 times in 100 (docs/BENCHMARKS.md), below the 99 the
# API promises. At the threshold chosen on 2026-11-29 (0.94, with the retry) they were all
# right and 99.7 in 100 over the photos' variants, but 20 photos are too few to promise 99 in
# 100 on any table's: until photos the reader never saw bear it out, no tile is called sure
# and the correction screen asks a person to look at every tile, as it always has.
CLAIMS_SURE = False


def read_learned(
    image: Decoded, highest: int, claims_sure: bool = CLAIMS_SURE, models: Path = MODELS
) -> Reading:
    """The tiles read on the decoded ``image`` of a set whose highest number is ``highest``;
    ``claims_sure`` True marks the tiles at or above the calibrated threshold sure (the
    benchmark measures what the reader would claim); ``models``, a folder of networks and
    their reader.json (the shipped ones; the benchmark measures a training's too)."""
    reader = load(models)
    found = read_rgb(
        image.rgb,
        highest,
        reader.finder,
        reader.counter,
        reader.settings,
        reader.tile_counter,
        reader.outliner,
        reader.second_look_finder,
    )
    tiles = []
    for item in found:
        confidence = round(float(item.confidence), 3)
        sure = claims_sure and confidence >= reader.settings.sure_threshold  # as the answer shows it
        tiles.append(ReadTile(Tile(*item.halves), confidence, photo_box(image, item.corners), sure))
    return Reading(width=image.width, height=image.height, tiles=in_reading_order(tiles))
