"""Checks that a reading is a face-up tile's: one face on both sides of its bar (not a line
between two surfaces), and marks that are pips, not a face-down tile's printed name."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.bars import BAR_CORE, FACE_BESIDE
from referee.vision.pips import half_ink
from referee.vision.sampling import around, of_little_colour, sample_rgb
from referee.vision.shapes import Bar

ONE_FACE = 40  # the face beside a bar differs between its two sides by at most this in a channel
ROUND_MARK = 0.88  # a pip fills at least this share of its convex outline; a letter less
LETTER_AREA = 0.02  # ... and a letter covers at least this share of a half's square


def one_face(rgb: np.ndarray, bar: Bar) -> bool:
    """Whether the two sides of ``bar`` are one face: a tile's halves are of one material, so
    beside its bar the face's colour is the same on both sides, within a gradient of the
    light. A dark line between two surfaces (the shaded foot of a face-down tile and the
    table below it, the edge of a seam in a stone table) has a different colour on each side.
    Each side's colour is the brightest quarter of its samples of little colour (pips may be
    coloured, and cover most of a dense half; on a black face, where the bar is the lighter,
    the darkest quarter: its pips are white); a side with too few of them (a dense half of
    coloured pips) is not judged."""
    bar_level = float(np.median(sample_rgb(rgb, around(bar, BAR_CORE)).mean(axis=1)))
    sides = []
    for grid in FACE_BESIDE:
        samples = sample_rgb(rgb, around(bar, grid))
        samples = samples[of_little_colour(samples)]
        if len(samples) < 12:
            return True
        sides.append(samples)
    # a black face when its bar is lighter than the samples beside it, both sides together
    black = bar_level > float(np.median(np.concatenate(sides).mean(axis=1)))
    colours = []
    for samples in sides:
        brightness = samples.mean(axis=1)
        # the face covers at least a quarter of the samples, whatever the pips
        if black:
            face = brightness <= np.percentile(brightness, 25)
        else:
            face = brightness >= np.percentile(brightness, 75)
        colours.append(np.median(samples[face], axis=0))
    return bool(np.abs(colours[0] - colours[1]).max() <= ONE_FACE)


def _marks(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> list[tuple[float, float]]:
    """The marks of a half that the pip count counts as pips: for each, the share of its convex
    outline it fills (its holes filled) and its area over the half's square. A pip, whole or
    cut by the half's edge, is convex; a letter (C, R, X, E, an O's ring) is not."""
    mask, _, _ = half_ink(rgb, bar, side, extent, width)  # as the pip count sees the half
    if mask is None:
        return []
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[tuple[float, float]] = []
    for i in range(1, count):
        _x, _y, w, h, area = stats[i]
        if area < 12 or area / float(w * h) < 0.35:
            continue
        if max(w, h) > 2.6 * max(1, min(w, h)) and (area > 30 or min(w, h) <= 3):
            continue  # not counted as a pip either
        contours, _ = cv2.findContours(
            (labels == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        filled = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(filled, contours, -1, 1, -1)
        hull = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(np.concatenate(contours)), 1)
        out.append((float(filled.sum()) / max(float(hull.sum()), 1.0), float(area) / mask.size))
    return out


def only_letters(rgb: np.ndarray, bar: Bar, ends: tuple[float, float], width: float) -> bool:
    """Whether every mark counted on the tile is a letter: large and not round. The printed
    name on a face-down tile, with the rule under it read as a bar, reads as a low tile
    (0-2, 1-2); the pips of a face-up tile are round, whole or cut by the half's edge."""
    marks = _marks(rgb, bar, 1, ends[0], width) + _marks(rgb, bar, -1, ends[1], width)
    return bool(marks) and all(fill < ROUND_MARK and area >= LETTER_AREA for fill, area in marks)
