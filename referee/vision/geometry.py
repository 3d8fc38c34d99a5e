"""What the reader's two networks see and say, in plain numpy: shared by the reading
(``referee.vision.model``) and the training (``referee.vision.train``), so that both prepare
images and read the networks' outputs the same way.

The *finder* sees the photo reduced so that its longer side is ``FINDER_SIDE`` pixels and
says, on a grid of ``STRIDE`` pixels, how likely each cell holds a tile's centre, the tile's
direction (as cos 2θ, sin 2θ: a tile turned half a turn is the same tile), its length and
width, and where in the cell the centre lies. The *counter* sees each tile found, cut out
of the photo and turned so its long side is level (``CROP_H`` x ``CROP_W``), and says the
pips of its left and right halves (0 to ``MAX_PIPS``) and whether it is a face-up tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

FINDER_SIDE = 640
STRIDE = 4
SIDE_STEP = 32  # the finder's input sides are multiples of this (five halvings)
CROP_H, CROP_W = 40, 80
CROP_MARGIN = 0.12  # of the tile's length and width, added around the tile when it is cut out
MAX_PIPS = 18
PIP_CLASSES = MAX_PIPS + 1
# finder output channels
HEAT, COS, SIN, LOG_LENGTH, LOG_WIDTH, DX, DY = range(7)
FINDER_CHANNELS = 7
SIZE_UNIT = 8.0  # lengths are predicted as log(pixels / SIZE_UNIT)


def finder_input(rgb: np.ndarray, side: int = FINDER_SIDE) -> tuple[np.ndarray, tuple[float, float]]:
    """The finder's input (1 x 3 x H x W float32) and the factors from its pixels to ``rgb``'s
    (across, down). The longer side becomes ``side`` and the shorter the nearest multiple of
    ``SIDE_STEP`` (a photo's shape changes by at most a few per cent, as a slightly oblique view
    changes it): with no padding to place, the photo turned a quarter is the input turned a
    quarter, pixel for pixel, and the finder's views of it are exactly the same four."""
    h, w = rgb.shape[:2]
    scale = side / max(h, w)
    size = (
        max(SIDE_STEP, round(w * scale / SIDE_STEP) * SIDE_STEP),
        max(SIDE_STEP, round(h * scale / SIDE_STEP) * SIDE_STEP),
    )
    small = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return normalise(small).transpose(2, 0, 1)[None], (w / size[0], h / size[1])


def to_photo(points: np.ndarray, factors: float | tuple[float, float]) -> np.ndarray:
    """Points in the finder's pixels in the photo's (``factors``: ``finder_input``'s, across
    and down): pixel centres lie on whole numbers in both, so a photo turned or mirrored maps
    its points exactly."""
    return np.asarray((points + 0.5) * np.asarray(factors, np.float32) - 0.5, np.float32)


def to_finder(points: np.ndarray, factors: float | tuple[float, float]) -> np.ndarray:
    """Points in the photo's pixels in the finder's (``to_photo`` undone)."""
    return np.asarray((points + 0.5) / np.asarray(factors, np.float32) - 0.5, np.float32)


def normalise(rgb: np.ndarray) -> np.ndarray:
    return (rgb.astype(np.float32) / 255.0 - 0.5) / 0.25


def corners_of(cx: float, cy: float, length: float, width: float, angle: float) -> np.ndarray:
    """A tile's corners in the order (0,0), (L,0), (L,W), (0,W) of its face."""
    u = np.array([math.cos(angle), math.sin(angle)]) * length / 2
    v = np.array([-math.sin(angle), math.cos(angle)]) * width / 2
    c = np.array([cx, cy])
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)


def box_of(corners: np.ndarray) -> tuple[float, float, float, float, float]:
    """What the finder says of a tile on ``corners`` (in the order of ``corners_of``): its
    centre, its length and width (the means of its opposite sides) and the direction of its
    first side. A tile seen from the side is no rectangle; the finder marks it with this one."""
    centre = corners.mean(axis=0)
    u = corners[1] - corners[0]
    length = float(np.linalg.norm(u + (corners[2] - corners[3])) / 2)
    width = float(np.linalg.norm(corners[3] - corners[0] + (corners[2] - corners[1])) / 2)
    return float(centre[0]), float(centre[1]), length, width, math.atan2(float(u[1]), float(u[0]))


def crop(rgb: np.ndarray, corners: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
    """The tile on ``corners`` cut out of ``rgb`` and turned level: CROP_H x CROP_W x 3 uint8,
    its first half on the left."""
    return _level(*_reduced(rgb, corners.astype(np.float32), margin), margin)


def crops(
    rgb: np.ndarray, corners: np.ndarray, orders: Sequence[Sequence[int]], margin: float = CROP_MARGIN
) -> list[np.ndarray]:
    """``crop`` of the tile on ``corners`` (a rectangle, as the finder marks tiles) with its
    corners taken in each of ``orders``: a tile much larger than the crop is reduced once for
    all of them, not once each."""
    image, scaled = _reduced(rgb, corners.astype(np.float32), margin)
    return [_level(image, scaled[list(order)], margin) for order in orders]


def _reduced(rgb: np.ndarray, corners: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """``rgb`` and ``corners`` on it, reduced where the tile is much larger than the crop: no
    pips lost between samples. Only the part of ``rgb`` the crop samples (the tile and its
    ``margin`` around it, and two pixels more for the sampling) is reduced: reducing the whole photo for each large
    tile took a quarter of a second of a photo of six large tiles (each reduction of its
    1,280 x 1,280 pixels about 5 ms, ten crops' worth of the counter's time)."""
    length = float(np.linalg.norm(corners[1] - corners[0]))
    if length <= 2.5 * CROP_W or min(rgb.shape[:2]) <= 1:
        return rgb, corners
    # the crop samples the parallelogram of the corners grown by ``margin`` of its sides each way
    middle = corners.mean(axis=0)
    grown = middle + (corners - middle) * (1 + 2 * margin)
    h, w = rgb.shape[:2]
    x0 = min(max(0, math.floor(float(grown[:, 0].min())) - 2), w - 1)
    y0 = min(max(0, math.floor(float(grown[:, 1].min())) - 2), h - 1)
    x1 = max(min(w, math.ceil(float(grown[:, 0].max())) + 3), x0 + 1)
    y1 = max(min(h, math.ceil(float(grown[:, 1].max())) + 3), y0 + 1)
    part = rgb[y0:y1, x0:x1]
    step = length / (1.5 * CROP_W)
    size = (max(1, round(part.shape[1] / step)), max(1, round(part.shape[0] / step)))
    factors = np.array([size[0] / part.shape[1], size[1] / part.shape[0]], np.float32)
    small = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    # pixel centres on whole numbers: a point p of the part lies at (p + 0.5) * factors - 0.5
    # of the part reduced (a photo mirrored gives the crop mirrored)
    in_part = corners - np.array([x0, y0], np.float32)
    return small, np.asarray((in_part + 0.5) * factors - 0.5, np.float32)


def _level(rgb: np.ndarray, corners: np.ndarray, margin: float) -> np.ndarray:
    a, b, _c, d = corners
    u, v = b - a, d - a
    src = np.array([a - u * margin - v * margin, b + u * margin - v * margin, d - u * margin + v * margin])
    dst = np.array([[0, 0], [CROP_W, 0], [0, CROP_H]], np.float32)
    matrix = cv2.getAffineTransform(src.astype(np.float32), dst)
    return cv2.warpAffine(
        rgb, matrix, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


# The finder is shown the photo four ways and its answers, turned back, are joined into one:
# the photo as it is and turned a quarter, a half and three quarters (a view: & 4 swaps x and
# y, & 1 mirrors left to right, & 2 top to bottom; 5 and 6 are the two quarter turns). The four
# turns are a group, so a photo turned any quarter is read exactly as it was (a phone is held
# any way up); four runs of the finder cost about 0.35 s on a 2-core CPU. The training turns
# its examples the same eight ways (``referee.vision.train``), with these same functions.
FINDER_VIEWS = (0, 5, 3, 6)
# how the finder's answer changes with its photo: x and y swapped, the channels' DX and DY
# change places (and cos 2θ its sign); mirrored, a centre's place in its cell of four pixels
# becomes MIRRORED_IN_CELL less it (pixel centres on whole numbers: pixel 0 of a cell becomes
# pixel 3)
SWAPPED_XY = [HEAT, COS, SIN, LOG_LENGTH, LOG_WIDTH, DY, DX]
MIRRORED_IN_CELL = 1 - 1 / STRIDE
_VIEW_STEPS = (4, 1, 2)  # the order a view's steps are taken in (undone in reverse)


def turn_picture(picture: Any, view: int) -> Any:
    """A picture (its last two axes rows and columns: a photo, a map of cells; a numpy array or
    a torch tensor) seen the ``view`` way: a new array."""
    for step in _VIEW_STEPS:
        if view & step:
            picture = picture.swapaxes(-1, -2) if step == 4 else _mirrored(picture, -1 if step == 1 else -2)
    return picture


def turn_answer(answer: Any, view: int, back: bool = False) -> Any:
    """The finder's answer (FINDER_CHANNELS x h x w; a numpy array or a torch tensor) for its
    photo seen the ``view`` way (``back``: for the photo as it is, from the answer to the photo
    seen that way). Each cell's direction (cos 2θ, sin 2θ) and its centre's place in the cell
    turn with the cells. Each step undoes itself, so ``back`` takes them in reverse order."""
    for step in reversed(_VIEW_STEPS) if back else _VIEW_STEPS:
        if not view & step:
            continue
        if step == 4:  # x and y swapped: θ becomes 90° - θ
            answer = answer.swapaxes(-1, -2)[SWAPPED_XY]  # (a list index copies)
            answer[COS] = -answer[COS]
            continue
        # mirrored left to right (θ becomes 180° - θ) or top to bottom (θ becomes -θ)
        answer = _mirrored(answer, -1 if step == 1 else -2)
        answer[SIN] = -answer[SIN]
        place = DX if step == 1 else DY
        answer[place] = MIRRORED_IN_CELL - answer[place]
    return answer


def _mirrored(array: Any, axis: int) -> Any:
    """A copy of ``array`` mirrored along ``axis`` (a numpy array, or a torch tensor, whose
    ``flip`` copies)."""
    return np.flip(array, axis).copy() if isinstance(array, np.ndarray) else array.flip(axis)


def finder_view(image: np.ndarray, view: int) -> np.ndarray:
    """The finder's input (1 x 3 x H x W) seen the ``view`` way."""
    return np.ascontiguousarray(turn_picture(image, view))


def finder_output_back(output: np.ndarray, view: int) -> np.ndarray:
    """The finder's answer (FINDER_CHANNELS x h x w) to the photo seen the ``view`` way,
    turned back to the photo as it is."""
    return np.asarray(turn_answer(np.asarray(output, np.float32), view, back=True), np.float32)


def joined_views(outputs: list[np.ndarray]) -> np.ndarray:
    """The finder's answers to one photo seen several ways (each turned back), as one: a cell
    holds a centre as surely as the surest view says (the finder only proposes: the counter
    then says whether a mark is a face-up tile), its tile's direction, size and place
    averaged. (Averaging the chance of a centre instead lost tiles that only one view saw
    clearly: on the 150 validation scenes 87.6 % of tiles exact, against 88.1 % so.)"""
    joined = np.mean(outputs, axis=0)
    joined[HEAT] = np.max([o[HEAT] for o in outputs], axis=0)
    return np.asarray(joined, np.float32)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-x)))


def peaks(output: np.ndarray, threshold: float) -> list[tuple[float, float, float, float, float, float]]:
    """Tiles the finder saw (``output``: FINDER_CHANNELS x h x w), as (score, cx, cy, length,
    width, angle) in the finder's input pixels, strongest first."""
    heat = sigmoid(output[HEAT])
    local_max = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local_max) & (heat > threshold))
    found = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        angle = math.atan2(float(output[SIN, y, x]), float(output[COS, y, x])) / 2
        length = math.exp(float(output[LOG_LENGTH, y, x])) * SIZE_UNIT
        width = math.exp(float(output[LOG_WIDTH, y, x])) * SIZE_UNIT
        cx = (x + float(output[DX, y, x])) * STRIDE
        cy = (y + float(output[DY, y, x])) * STRIDE
        found.append((float(heat[y, x]), cx, cy, length, width, angle))
    found.sort(reverse=True)
    return found


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller of two convex quadrilaterals."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return float(inter) / max(1e-6, float(smaller))
