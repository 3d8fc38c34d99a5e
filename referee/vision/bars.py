"""Finding the tiles' dividing bars: the dark strokes of a bar's shape on the grey image, and
whether a stroke lies on a tile's face (bright on both long sides and beyond an end); the
colour of the face beside a bar."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from referee.vision.sampling import around, face_samples, of_little_colour, sample, sample_rgb
from referee.vision.shapes import Bar

RAW_SIDE = 0.2  # with its pips left open, each side of a bar is at least this share face
RELATIVE_DARK = 0.45  # a bar pixel's value at most this share of the local mean
DIMMEST_FACE = 120  # a face in the shade of a side view is still at least this bright
DENSE_ROW = 32  # samples along a row beside the bar, to find the face between large pips


def find_bars(value: np.ndarray) -> list[Bar]:
    """Every dark stroke of a bar's shape in the grey image ``value`` (longer than thick,
    well filled, neither a speck nor a third of the photo): the candidates for the bars across
    the tiles' faces, found on several views of the dark (against the local mean, thin strokes
    only, near black against the face around them), so one bar may be found more than once."""
    h, w = value.shape
    side = max(h, w)
    window = max(15, (side // 24) | 1)
    local = cv2.blur(value, (window, window))
    dark = ((local.astype(np.int16) - value.astype(np.int16)) > 28).astype(np.uint8)
    bars = _bars_in(dark, side)
    # thin dark strokes only: a bar that touches a tile's shaded edge is cut free from it
    kernel = np.ones((15, 15), np.uint8)
    thin = (cv2.morphologyEx(value, cv2.MORPH_BLACKHAT, kernel) > 28).astype(np.uint8)
    # a bar is near black on its face while the shading of a tile's rounded rim is only a
    # little darker: with the rim left out, a bar that runs up to the face's edge stands alone
    deep = (value.astype(np.float32) < RELATIVE_DARK * local.astype(np.float32)).astype(np.uint8)
    # against the face just around it (a closing a little wider than a bar) rather than the
    # wider mean: a bar on a face in the shade, darker than its table, is cut free from the
    # shaded rim it runs into
    shut = cv2.morphologyEx(value, cv2.MORPH_CLOSE, kernel).astype(np.float32)
    near = (value.astype(np.float32) < RELATIVE_DARK * shut).astype(np.uint8)
    # and with the thinnest lines opened away (the dark line along a tile's lower rim)
    opened = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((4, 4), np.uint8))
    found = _bars_in(thin, side) + _bars_in(deep, side) + _bars_in(near, side)
    return bars + found + _bars_in(opened, side)


def _bars_in(dark: np.ndarray, side: int) -> list[Bar]:
    min_len = max(10.0, side / 80)
    # specks and blobs too small or too large to be a bar are dropped before tracing outlines
    _, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = (longest >= min_len * 0.7) & (longest <= side / 3) & (stats[:, cv2.CC_STAT_AREA] >= min_len * 1.5)
    keep[0] = False
    if not keep.any():
        return []
    dark = keep.astype(np.uint8)[labels]
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    bars: list[Bar] = []
    min_len = max(10.0, side / 80)
    for contour in contours:
        _x, _y, bw, bh = cv2.boundingRect(contour)
        if max(bw, bh) < min_len * 0.7 or max(bw, bh) > side / 3:
            continue
        area = cv2.contourArea(contour)
        if area < min_len * 1.5:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        length, thick = (rw, rh) if rw >= rh else (rh, rw)
        thick = max(thick, 1.0)
        if length < min_len or length / thick < 4.0 or area / (length * thick) < 0.5:
            continue
        theta = math.radians(angle if rw >= rh else angle + 90)
        along = np.array([math.cos(theta), math.sin(theta)], dtype=np.float32)
        normal = np.array([-along[1], along[0]], dtype=np.float32)
        bars.append(
            Bar(np.array([cx, cy], dtype=np.float32), along, normal, float(length), float(thick), 0.0)
        )
    return bars


def _grid(pairs: list[tuple[float, float]]) -> np.ndarray:
    return np.array(pairs, dtype=np.float32)


# sample places around a bar, in bar lengths (along the bar, across it): on the bar itself,
# beside it on each side, and beyond each of its ends
BAR_CORE = _grid([(g, 0.0) for g in np.linspace(-0.4, 0.4, 9)])
BAR_SIDES = [
    _grid([(g, s * d) for g in np.linspace(-0.35, 0.35, 8) for d in (0.15, 0.3, 0.5)]) for s in (1, -1)
]
BAR_ENDS = [_grid([(s * (0.5 + d), g) for d in (0.06, 0.1) for g in (-0.1, 0.0, 0.1)]) for s in (1, -1)]
# beside a bar on each side, where the face's colour is compared between its two halves
FACE_BESIDE = [
    _grid([(g, s * f) for f in np.linspace(0.12, 0.55, 6) for g in np.linspace(-0.35, 0.35, 7)])
    for s in (1, -1)
]


def on_a_face(
    value: np.ndarray, bar: Bar, min_contrast: float = 35, need_end: bool = True
) -> tuple[float, float, bool] | None:
    """The face's brightness around ``bar`` and the bar's own, or None when the bar is not
    a tile's dividing bar (no bright face on both sides and beyond both ends)."""
    inner = np.nanmedian(sample(value, around(bar, BAR_CORE)))
    if np.isnan(inner):
        return None
    # the sides and ends are seen with the pips closed over (a dense half of a double-12 set
    # is nearly half pips), on a patch around the bar
    h, w = value.shape
    reach = int(bar.length * 0.9) + 2
    x0, y0 = max(0, int(bar.centre[0]) - reach), max(0, int(bar.centre[1]) - reach)
    x1, y1 = min(w, int(bar.centre[0]) + reach + 1), min(h, int(bar.centre[1]) + reach + 1)
    size = max(3, int(bar.length * 0.3)) | 1
    patch = cv2.morphologyEx(value[y0:y1, x0:x1], cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
    shift = np.array([x0, y0], dtype=np.float32)
    sides = [sample(patch, around(bar, grid) - shift) for grid in BAR_SIDES]
    ends = [sample(value, around(bar, grid)) for grid in BAR_ENDS]
    if any(np.isnan(side).mean() > 0.3 for side in sides):
        return None
    face = float(np.nanpercentile(np.concatenate(sides), 70))
    contrast = face - float(inner)
    if contrast < min_contrast or face < DIMMEST_FACE:  # white, ivory or (on the negative) black
        return None
    dense = False  # a side that is face only with its pips closed over
    for side, grid in zip(sides, BAR_SIDES):
        if np.nanmean(side > inner + 0.6 * contrast) < 0.55:
            return None
        opened = sample(value, around(bar, grid)) > inner + 0.6 * contrast
        open_share = float(np.mean(opened))
        if open_share < RAW_SIDE:
            return None  # pips left open, still partly face: not a dark stripe of the table
        if open_share < 0.55:
            # dark pips leave face between them on every row parallel to the bar; a stripe
            # of cloth or a shadow darkens a whole row
            if has_dark_row(value, bar, grid, inner + 0.6 * contrast):
                return None
            dense = True
    # face beyond at least one end (in an oblique photo the other end may meet the tile's
    # shaded side); a seam between touching tiles runs into the table at both
    bright_ends = [
        not np.all(np.isnan(end)) and np.nanmean(end > inner + 0.6 * contrast) >= 0.5 for end in ends
    ]
    if need_end and not any(bright_ends):
        return None
    return face, float(inner), dense


def has_dark_row(value: np.ndarray, bar: Bar, grid: np.ndarray, level: float) -> bool:
    """Whether a whole row parallel to the bar, on one side of it (the rows of ``grid``), is
    darker than the face ``level``: a stripe of cloth or a shadow. Each row is sampled
    densely, as the gaps between the large pips of a dense half are narrow; a row with
    face on fewer than two of its samples is dark."""
    along = np.linspace(-0.35, 0.35, DENSE_ROW, dtype=np.float32)
    for across in np.unique(grid[:, 1]):
        row = around(bar, np.stack([along, np.full_like(along, across)], axis=1))
        if np.sum(sample(value, row) > level) < 2:
            return True
    return False


def face_colour(rgb: np.ndarray, value: np.ndarray, bar: Bar) -> Any:
    """The RGB colour of the face beside ``bar``: the brighter half of the samples on both
    sides of it, of those of little colour (coloured pips left out)."""
    pts = face_samples(bar)
    values = sample(value, pts)
    colours = sample_rgb(rgb, pts)
    ok = ~np.isnan(values)
    values = values[ok]
    # a face is white, ivory or black (of little colour) while pips may be coloured: an
    # orange pip is brighter than an ivory face in the shade, so clearly coloured samples
    # are left out before the brighter ones are taken
    plain = of_little_colour(colours)
    if plain.sum() < 3:
        plain = np.ones(len(values), bool)
    keep = plain & (values >= np.median(values[plain]))
    return np.median(colours[keep], axis=0)
