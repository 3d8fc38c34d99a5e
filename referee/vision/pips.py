"""Counting a half's pips: the half warped to a square, its marks found by how far they stand
from the face's own colour (whatever their hue), and the blobs among them counted."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from referee.vision.sampling import of_little_colour
from referee.vision.shapes import Bar, Half

HALF = 96  # side of the square a half is warped to for counting
MARGIN = int(HALF * 0.07)  # the square's border left out (the tile's rim, the bar's edge)
PLAIN_FACE = 0.2  # a half with this share of pixels of little colour has its face among them
PIPS_APART = 60  # ... and its coloured pixels differ from them this much in some channel
EDGE_STRIP = 0.8  # marks along this share of a half's long side are the face's edge, not pips
EDGE_STRIP_DEEPEST = 0.3  # ... when the band reaches at most this share of the half's width in
EDGE_ROWS = 0.4  # ... and its inner boundary is a straight line on at least this share of the rows
LONE_MARK = 0.35  # a half's only mark below this share of the other half's pips is no pip


def _half_square(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> Any:
    """The half of ``bar`` on ``side`` (from the bar to ``extent``, ``width`` across) warped
    to a square of HALF pixels, between the face's long edges as they lean where they do."""
    c, u, n = bar.centre, bar.along, bar.normal
    start = bar.thickness * 0.5 + 1
    if bar.lean != (0.0, 0.0):
        return _leaning_half(rgb, bar, side, start, extent, width)
    origin = c + n * (side * start) - u * (width / 2)
    src = np.array([origin, origin + u * width, origin + n * (side * (extent - start))], dtype=np.float32)
    dst = np.array([[0, 0], [HALF, 0], [0, HALF]], dtype=np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(rgb, matrix, (HALF, HALF), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _leaning_half(rgb: np.ndarray, bar: Bar, side: int, start: float, extent: float, width: float) -> Any:
    """A half warped to a square between the face's long edges as they lean (``bar.lean``):
    the half's far end is as wide as the face is there, not as at the bar."""
    c, u, n = bar.centre, bar.along, bar.normal
    corners = []
    for o in (side * start, side * extent):
        corners.append(c + n * o + u * (-width / 2 - bar.lean[1] * o))
        corners.append(c + n * o + u * (width / 2 + bar.lean[0] * o))
    src = np.array(corners, dtype=np.float32)
    dst = np.array([[0, 0], [HALF, 0], [0, HALF], [HALF, HALF]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(
        rgb, matrix, (HALF, HALF), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def half_ink(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> tuple[Any, float, bool]:
    """The marks of a half (pips, or print): the mask of the pixels far from the face's
    colour inside the square's margin, the spread of those distances, and whether a band
    along a long side (the face's edge) was cleared from it; the mask is None on a plain half
    (no mark)."""
    square = _half_square(rgb, bar, side, extent, width)
    inner = square[MARGIN : HALF - MARGIN, MARGIN : HALF - MARGIN].astype(np.float32)
    # the face's colour: the median of the pixels nearest the half's typical colour; a pip is
    # any pixel far from it in some channel, whatever its hue (black, coloured or white)
    # the face is of little colour (white, ivory, black): where coloured pips cover most of
    # a dense half (a twelve seen close up), it is taken among the pixels of little colour,
    # when those and the coloured ones are clearly two colours (a face and its pips, not
    # the lighter and darker threads of a cloth)
    pool = inner.reshape(-1, 3)
    plain = of_little_colour(pool)
    if PLAIN_FACE <= np.mean(plain) < 1.0:
        apart = np.abs(np.median(pool[plain], axis=0) - np.median(pool[~plain], axis=0)).max()
        if apart >= PIPS_APART:
            pool = pool[plain]
    usual = np.median(pool, axis=0)
    near = np.abs(pool - usual).max(axis=1)
    face = np.median(pool[near <= np.percentile(near, 50)], axis=0)
    ink = np.abs(inner - face).max(axis=2)
    spread = float(np.percentile(ink, 99.5))
    if spread < 30:
        return None, spread, False
    mask = (ink > max(30.0, 0.45 * spread)).astype(np.uint8)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    if _broad_mark(opened):
        # the face's edge seen along a side of the half may be what joins the pips into one
        # broad mark: without it the pips stand apart, while print stays broad
        cleared = _clear_edge_strips(mask)
        if cleared is not mask:
            return cv2.morphologyEx(cleared, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)), spread, True
    return opened, spread, False


def _broad_mark(mask: np.ndarray) -> bool:
    """Whether a mark of the half's square is broad in both directions (a letter, a logo,
    pips joined into one): the test the pip count refuses a half by."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    side_in = HALF - 2 * MARGIN
    for i in range(1, count):
        _x, _y, w, h, area = stats[i]
        if area >= 12 and max(w, h) > 0.4 * side_in and min(w, h) > 0.25 * side_in:
            return True
    return False


def _clear_edge_strips(mask: np.ndarray) -> Any:
    """The mask of a half's marks without a strip along one of its long sides: where a half
    was outlined a little wider than the face (a thick tile's dark lower rim and the table
    below it, or its lit side above, seen from a low angle), a band of marks runs along that
    side over the half's whole length and joins the pips beside it into one broad mark. The
    face ends at a straight edge: the inner boundary of the band, fitted as a line through
    the rows (rows where a pip touches the band left out), and everything beyond it is
    cleared. A pip never runs along the whole side, so a half outlined well is unchanged."""
    rows, cols = mask.shape
    out = mask
    for flip in (False, True):
        m = out[:, ::-1] if flip else out
        if np.mean(m[:, 0] > 0) < EDGE_STRIP:
            continue
        # per row: how far the marks run in from the side without a gap
        run = np.argmin(np.concatenate([m, np.zeros((rows, 1), m.dtype)], axis=1) > 0, axis=1).astype(
            np.float32
        )
        ys = np.arange(rows, dtype=np.float32)
        keep = (run > 0) & (run <= np.median(run))  # the rows where no pip touches the band
        for _ in range(2):
            if keep.sum() < EDGE_ROWS * rows:
                break
            slope, intercept = np.polyfit(ys[keep], run[keep], 1)
            keep = (run > 0) & (np.abs(run - (intercept + slope * ys)) <= 2.0)
        if keep.sum() < EDGE_ROWS * rows:
            continue
        edge = intercept + slope * ys
        if edge.max() > EDGE_STRIP_DEEPEST * cols:
            continue
        cleared = m.copy()
        cleared[np.arange(cols)[None, :] < np.ceil(edge[:, None]) + 1] = 0
        out = cleared[:, ::-1] if flip else cleared
    return np.ascontiguousarray(out)


def count_pips(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> Half:
    """The pips of the half on ``side`` of ``bar`` (+1 / -1 along its normal), ``extent`` long
    and ``width`` wide: the blobs of ink on the half's square, strokes and slivers left out,
    a blob of about twice the typical size counted as two (less surely)."""
    mask, spread, edged = half_ink(rgb, bar, side, extent, width)
    if mask is None:
        return Half(0, 0.95)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs: list[float] = []
    side_in = HALF - 2 * MARGIN
    foreign = False
    for i in range(1, count):
        _x, _y, w, h, area = stats[i]
        if area < 12:
            continue
        if max(w, h) > 0.4 * side_in and min(w, h) > 0.25 * side_in:
            foreign = True  # broad in both directions: a letter or a logo, not a pip
        if max(w, h) > 2.6 * max(1, min(w, h)) and (area > 30 or min(w, h) <= 3):
            continue  # a stroke or sliver (an edge's shadow, a seam), not a pip
        if area / float(w * h) < 0.35:
            continue
        blobs.append(float(area))
    if not blobs:
        return Half(0, 0.8 if spread < 60 else 0.6, foreign, edged=edged)
    typical = float(np.median(np.array(blobs)))
    pips = 0
    unsure = 0.0
    for blob in blobs:
        if blob < 0.35 * typical:
            unsure += 0.5
            continue
        k = max(1, round(blob / typical))
        if k > 1:
            unsure += 0.5
        pips += k
    confidence = max(0.05, 0.95 - 0.2 * unsure)
    return Half(pips, confidence, foreign, tuple(blobs), edged)


def against_each_other(halves: tuple[Half, Half]) -> tuple[Half, Half]:
    """The pips of one tile are of one size: a half whose only mark is far smaller than the
    other half's pips (a sliver of the next tile's pip cut by the half's border, a speck)
    holds no pip, and is unsure."""
    out = list(halves)
    for i in (0, 1):
        own, other = halves[i], halves[1 - i]
        lone = len(own.sizes) == 1 and len(other.sizes) >= 2
        if lone and own.sizes[0] < LONE_MARK * float(np.median(other.sizes)):
            out[i] = Half(0, min(own.confidence, 0.85), own.foreign, (), own.edged)
    return out[0], out[1]
