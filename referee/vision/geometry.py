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

import cv2
import numpy as np

FINDER_SIDE = 640
STRIDE = 4
PAD_TO = 32  # the finder's input sides are multiples of this (five halvings)
CROP_H, CROP_W = 40, 80
CROP_MARGIN = 0.12  # of the tile's length and width, added around the tile when it is cut out
MAX_PIPS = 18
PIP_CLASSES = MAX_PIPS + 1
# finder output channels
HEAT, COS, SIN, LOG_LENGTH, LOG_WIDTH, DX, DY = range(7)
FINDER_CHANNELS = 7
SIZE_UNIT = 8.0  # lengths are predicted as log(pixels / SIZE_UNIT)


def finder_input(rgb: np.ndarray, side: int = FINDER_SIDE) -> tuple[np.ndarray, float]:
    """The finder's input (1 x 3 x H x W float32, sides padded to ``PAD_TO``) and the factor
    from its pixels to ``rgb``'s."""
    h, w = rgb.shape[:2]
    factor = side / max(h, w)
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    small = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
    ph = -(-size[1] // PAD_TO) * PAD_TO
    pw = -(-size[0] // PAD_TO) * PAD_TO
    canvas = np.zeros((ph, pw, 3), np.float32)
    canvas[: size[1], : size[0]] = normalise(small)
    return canvas.transpose(2, 0, 1)[None], 1 / factor


def normalise(rgb: np.ndarray) -> np.ndarray:
    return (rgb.astype(np.float32) / 255.0 - 0.5) / 0.25


def corners_of(cx: float, cy: float, length: float, width: float, angle: float) -> np.ndarray:
    """A tile's corners in the order (0,0), (L,0), (L,W), (0,W) of its face."""
    u = np.array([math.cos(angle), math.sin(angle)]) * length / 2
    v = np.array([-math.sin(angle), math.cos(angle)]) * width / 2
    c = np.array([cx, cy])
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)


def crop(rgb: np.ndarray, corners: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
    """The tile on ``corners`` cut out of ``rgb`` and turned level: CROP_H x CROP_W x 3 uint8,
    its first half on the left."""
    a, b, _c, d = corners.astype(np.float32)
    u, v = b - a, d - a
    src = np.array([a - u * margin - v * margin, b + u * margin - v * margin, d - u * margin + v * margin])
    dst = np.array([[0, 0], [CROP_W, 0], [0, CROP_H]], np.float32)
    matrix = cv2.getAffineTransform(src.astype(np.float32), dst)
    length = float(np.linalg.norm(u))
    # a tile much larger than the crop is reduced in steps: no pips lost between samples
    if length > 2.5 * CROP_W and min(rgb.shape[:2]) > 1:
        step = length / (1.5 * CROP_W)
        h, w = rgb.shape[:2]
        size = (max(1, round(w / step)), max(1, round(h / step)))
        small = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        return crop(small, corners * np.float32(size[0] / w), margin)
    return cv2.warpAffine(
        rgb, matrix, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


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
