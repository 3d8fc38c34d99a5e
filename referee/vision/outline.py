"""The outliner: a third small network that redraws a finder's mark where it lies on a tile
with the wrong outline (too short, too wide, turned), in plain numpy: what it sees and what
it says, shared by the reading (``referee.vision.model``) and the training
(``referee.vision.train``).

Most validation tiles the reader misses carry a finder's mark whose outline is off (lengths
off by up to half, widths up to 3x, turned 10 to 80 degrees), and the counter, shown such a
crop, rightly says no whole tile lies there; shown the tile's true outline it reads most of
them (docs/BENCHMARKS.md). The outliner sees a square around the mark, turned with it and
OUTLINE_CONTEXT times the mark's longer side, and says where in that square the tile lies:
its centre, its length and width as shares of the square's side, and its direction against
the mark's. It never says whether a tile is there: the counter does, on the outline redrawn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from referee.vision import geometry as g

OUTLINE_SIDE = 64  # the square's pixels
OUTLINE_CONTEXT = 2.2  # the square's side, in the mark's longer sides
# what the outliner says of a square: the tile's centre across and down the square (-1 to 1
# from its middle to its edges), the log of its length and width as shares of the side, and
# its direction against the mark's as cos 2δ, sin 2δ (a tile turned half a turn is the same)
CENTRE_X, CENTRE_Y, LOG_LENGTH, LOG_WIDTH, COS, SIN = range(6)
OUTLINE_OUTPUTS = 6


def frame(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The square a mark (``corners`` in the order of ``geometry.corners_of``) is seen in: its
    centre, its axes across (along the mark's length) and down, and its side in pixels."""
    cx, cy, length, width, angle = g.box_of(np.asarray(corners, np.float32))
    across = np.array([math.cos(angle), math.sin(angle)], np.float32)
    down = np.array([-across[1], across[0]], np.float32)
    side = OUTLINE_CONTEXT * max(length, width, 1.0)
    return np.array([cx, cy], np.float32), across, down, side


def square(rgb: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The square around a mark cut out of ``rgb`` and turned with it: OUTLINE_SIDE x
    OUTLINE_SIDE x 3 uint8. A square much larger than that is cut from the photo reduced
    (the part around it only), so that no detail aliases."""
    centre, across, down, side = frame(corners)
    reach = side * 0.75  # half the square's diagonal, and a little
    x0, y0 = (max(0, math.floor(c - reach)) for c in centre)
    x1 = min(rgb.shape[1], math.ceil(centre[0] + reach) + 1)
    y1 = min(rgb.shape[0], math.ceil(centre[1] + reach) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:  # the mark lies off the photo
        x0, y0, x1, y1 = 0, 0, rgb.shape[1], rgb.shape[0]
    part = rgb[y0:y1, x0:x1]
    origin = centre - np.array([x0, y0], np.float32)
    factors = np.ones(2, np.float32)  # the part's pixels to the reduced part's, across and down
    if side > 2 * OUTLINE_SIDE:
        factor = 1.5 * OUTLINE_SIDE / side
        size = (max(1, round(part.shape[1] * factor)), max(1, round(part.shape[0] * factor)))
        factors = np.array([size[0] / part.shape[1], size[1] / part.shape[0]], np.float32)
        part = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    # pixel centres on whole numbers: a point p of the part lies at (p + 0.5) * factors - 0.5 of
    # the part reduced, so that a photo mirrored gives the square exactly mirrored
    middle = (origin + 0.5) * factors - 0.5
    scale = OUTLINE_SIDE / side
    matrix = np.zeros((2, 3), np.float32)
    matrix[0, :2] = across / factors * scale
    matrix[1, :2] = down / factors * scale
    matrix[:, 2] = (OUTLINE_SIDE - 1) / 2 - matrix[:, :2] @ middle
    return cv2.warpAffine(
        part, matrix, (OUTLINE_SIDE, OUTLINE_SIDE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def target(mark: np.ndarray, tile: np.ndarray) -> np.ndarray:
    """What the outliner should say of the square around ``mark`` where the tile on ``tile``
    (corners) lies: OUTLINE_OUTPUTS numbers."""
    centre, across, down, side = frame(mark)
    cx, cy, length, width, angle = g.box_of(np.asarray(tile, np.float32))
    offset = np.array([cx, cy], np.float32) - centre
    direction = np.array([math.cos(angle), math.sin(angle)], np.float32)
    turn = math.atan2(float(direction @ down), float(direction @ across))
    return np.array(
        [
            2 * float(offset @ across) / side,
            2 * float(offset @ down) / side,
            math.log(max(length, 1e-3) / side),
            math.log(max(width, 1e-3) / side),
            math.cos(2 * turn),
            math.sin(2 * turn),
        ],
        np.float32,
    )


def outlined(mark: np.ndarray, said: np.ndarray) -> np.ndarray:
    """The tile's corners (in the order of ``geometry.corners_of``) the outliner ``said`` lie
    in the square around ``mark``: ``target`` undone."""
    centre, across, down, side = frame(mark)
    x, y = float(said[CENTRE_X]) * side / 2, float(said[CENTRE_Y]) * side / 2
    middle = centre + x * across + y * down
    turn = math.atan2(float(said[SIN]), float(said[COS])) / 2
    angle = math.atan2(float(across[1]), float(across[0])) + turn
    length = math.exp(min(float(said[LOG_LENGTH]), 1.0)) * side
    width = math.exp(min(float(said[LOG_WIDTH]), 1.0)) * side
    return g.corners_of(float(middle[0]), float(middle[1]), length, width, angle)


def mirrored(said: np.ndarray, view: int) -> np.ndarray:
    """What the outliner says of a square mirrored left to right (``view`` & 1) or top to
    bottom (& 2), turned back to the square as it is (each mirror undoes itself)."""
    said = np.array(said, np.float32)
    if view & 1:
        said[..., CENTRE_X] = -said[..., CENTRE_X]
        said[..., SIN] = -said[..., SIN]
    if view & 2:
        said[..., CENTRE_Y] = -said[..., CENTRE_Y]
        said[..., SIN] = -said[..., SIN]
    return said


def mirror_square(picture: np.ndarray, view: int) -> np.ndarray:
    """A square (rows, columns, channels) mirrored left to right (``view`` & 1) and top to
    bottom (& 2): a new array."""
    if view & 1:
        picture = picture[:, ::-1]
    if view & 2:
        picture = picture[::-1]
    return np.ascontiguousarray(picture)
