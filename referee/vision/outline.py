"""A tile's outline across its bar: its width (to the table, or between the face's own long
edges as they lean), its long axis as an oblique photo shows it, and whether its outline is
seen against the table at all."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from referee.vision.sampling import sample, sample_rgb
from referee.vision.shapes import Bar
from referee.vision.walk import STEP_DOWN, STEP_UP, walk_step

MAX_SHEAR = 20  # degrees a tile's long side may lean from square to its bar on a photo
BAR_WIDTH_RATIO = 0.78  # a bar's length over the tile's width, typical of real sets
OWN_EDGE_RATIO = 1.02  # a bar may run from edge to edge of the face (measured by its own edges)
LEAN_SEEN = 0.05  # edges leaning less than this (per unit across the bar) are square to it
OUTLINE_STEP = 40  # the table just outside a tile differs from its face by this much in a channel
OUTLINE_SHARE = 0.8  # ... or, on a dark face, by this share of the face's brightest channel
OUTLINE_STEP_DARK = 20  # ... but at least this much (noise)


def tile_width(
    value: np.ndarray, closed: np.ndarray, bar: Bar, face: float, dark: float
) -> tuple[Bar, float]:
    """The tile's width, measured across the face on both sides of the bar (the bar's length
    over the width differs between sets), and the bar moved to the middle of the face.

    Columns parallel to the tile's long side are walked outwards from the bar's ends; a
    column ends the face when the table shows (dim on the pips-closed image) or a seam runs
    the whole column (a tile touching side by side). Without a clear edge the typical ratio
    of real sets is used."""
    c, u, n, L = bar.centre, bar.along, bar.normal, bar.length
    step = max(1.0, L / 40)
    distances = np.arange(0.3 * L, 0.8 * L, step, dtype=np.float32)
    offsets = np.concatenate([np.linspace(0.12, 0.7, 8), -np.linspace(0.12, 0.7, 8)]).astype(np.float32) * L
    threshold = face - 0.35 * (face - dark)
    reach = []
    for s in (1, -1):
        pts = _columns(bar, s, distances, offsets)
        shut = sample(closed, pts).reshape(len(distances), -1)
        raw = sample(value, pts).reshape(len(distances), -1)
        if np.isnan(shut).any():
            return bar, L / BAR_WIDTH_RATIO  # the tile reaches the photo's edge
        on_face = (shut > threshold).mean(axis=1) >= 0.6
        seam = (raw > threshold).mean(axis=1) < 0.15
        last = None
        for i, d in enumerate(distances):
            if not on_face[i] or seam[i]:
                last = float(d)
                break
        if last is None:
            return bar, L / BAR_WIDTH_RATIO
        reach.append(last)
    width = reach[0] + reach[1]
    if not L / 0.92 <= width < L / BAR_WIDTH_RATIO:
        return bar, L / BAR_WIDTH_RATIO
    centre = (c + u * ((reach[0] - reach[1]) / 2)).astype(np.float32)
    return Bar(centre, u, n, L, bar.thickness, bar.strength), width


def _columns(bar: Bar, side: int, distances: np.ndarray, offsets: np.ndarray) -> Any:
    """Points of columns parallel to the tile's long side (one per offset along the normal),
    each sampled at ``distances`` from the bar's centre towards ``side`` of its length: the
    walks outwards to the tile's long edges, as rows of distances by columns."""
    c, u, n = bar.centre, bar.along, bar.normal
    return (
        c[None, None, :]
        + (side * distances)[:, None, None] * u[None, None, :]
        + offsets[None, :, None] * n[None, None, :]
    ).reshape(-1, 2)


def face_width(
    value: np.ndarray, closed: np.ndarray, bar: Bar, width: float, face: float, dark: float
) -> tuple[Bar, float]:
    """The width between the face's own long edges, where ``tile_width`` found none that fits.

    A thick tile seen from a low angle shows a side beside its face, of the face's colour
    but lit differently: darker in the shade, or brighter where it faces the light (the top
    of a tile stood on its edge). The table need not show there, so the face's edge is the
    step from the face's own brightness next to the bar (pips closed over), down or up.
    Columns parallel to the tile's long side, on both halves, are walked outwards from the
    bar's middle to that step (or to the table); a straight line is fitted through the
    columns' ends on each side: the face's long edge, which the perspective may lean (the
    far end of a tile narrower). The width is taken where the edges cross the bar, kept when
    the bar's length over it lies between BAR_WIDTH_RATIO and OWN_EDGE_RATIO (the bar of
    some sets runs from edge to edge of the face); the edges' lean goes with the bar, so the
    halves are outlined along them."""
    c, u, n, L = bar.centre, bar.along, bar.normal, bar.length
    fits = L / 0.92 <= width < L / BAR_WIDTH_RATIO  # both edges found where the table shows
    step = walk_step(bar)
    distances = np.arange(0.0, 0.8 * L, step, dtype=np.float32)
    offsets = np.concatenate([np.linspace(0.12, 0.8, 10), -np.linspace(0.12, 0.8, 10)]).astype(np.float32) * L
    threshold = face - 0.35 * (face - dark)
    lines = []
    for s in (1, -1):
        shut = sample(closed, _columns(bar, s, distances, offsets)).reshape(len(distances), -1)
        if np.isnan(shut).any():
            return bar, width  # the tile reaches the photo's edge
        level = np.median(shut[distances <= 0.3 * L], axis=0)  # per column: the face by the bar
        stepped = (
            (shut < STEP_DOWN * level[None, :]) | (shut > STEP_UP * level[None, :]) | (shut <= threshold)
        )
        stepped &= (distances > 0.3 * L)[:, None]
        stepped[:-1] &= stepped[1:]  # two samples in a row: not a speck
        found = stepped.any(axis=0)
        ends = distances[np.argmax(stepped, axis=0)]
        line = _edge_line(offsets[found], ends[found], L)
        if line is None:
            return bar, width
        lines.append(line)
    (a0, b0), (a1, b1) = lines
    measured = a0 + a1
    if fits:
        # the width to the table stands; the face's edges may still lean (a sheared face)
        if abs(measured - width) > 0.1 * width or max(abs(b0), abs(b1)) < LEAN_SEEN:
            return bar, width
        return Bar(c, u, n, L, bar.thickness, bar.strength, (b0, b1)), width
    if not L / OWN_EDGE_RATIO <= measured < L / BAR_WIDTH_RATIO:
        return bar, width
    centre = (c + u * ((a0 - a1) / 2)).astype(np.float32)
    return Bar(centre, u, n, L, bar.thickness, bar.strength, (b0, b1)), measured


def _edge_line(offsets: np.ndarray, ends: np.ndarray, length: float) -> tuple[float, float] | None:
    """A straight edge through the columns' ends (distance = a + b * offset), fitted twice,
    the ends far off the first fit (a pip left open, a neighbour's corner) left out; None
    when too few columns agree or the edge leans more than MAX_SHEAR."""
    keep = np.ones(len(offsets), bool)
    for _ in range(2):
        if keep.sum() < 6:
            return None
        slope, intercept = np.polyfit(offsets[keep], ends[keep], 1)
        residual = np.abs(ends - (intercept + slope * offsets))
        keep = residual <= max(2.0, 0.05 * length)
    if keep.sum() < 0.6 * len(offsets) or abs(slope) > math.tan(math.radians(MAX_SHEAR)):
        return None
    return float(intercept), float(slope)


def long_axis(value: np.ndarray, bar: Bar, width: float) -> Bar:
    """The bar with its normal turned to the tile's long sides as the photo shows them.

    Seen from the side, a tile's long sides are no longer square to its bar (the
    perspective shears the face). The straight edges around the bar (the tile's long sides,
    its rows of pips, its neighbours' sides) are gathered by direction, and the strongest
    direction within MAX_SHEAR degrees of the bar's normal is taken when it clearly beats the
    normal itself; in a photo taken from above it is the normal."""
    c, n = bar.centre, bar.normal
    h, w = value.shape
    reach = int(1.6 * width) + 2
    x0, y0 = max(0, int(c[0]) - reach), max(0, int(c[1]) - reach)
    x1, y1 = min(w, int(c[0]) + reach + 1), min(h, int(c[1]) + reach + 1)
    patch = value[y0:y1, x0:x1].astype(np.float32)
    if min(patch.shape) < 8:
        return bar
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    strong = magnitude > np.percentile(magnitude, 85)
    # an edge runs square to its gradient; directions are taken modulo 180 degrees
    edge = (np.degrees(np.arctan2(gy[strong], gx[strong])) + 90.0) % 180.0
    histogram = np.bincount(np.round(edge).astype(int) % 180, weights=magnitude[strong], minlength=180)
    histogram = np.convolve(np.concatenate([histogram[-2:], histogram, histogram[:2]]), np.ones(5), "valid")
    normal = math.degrees(math.atan2(float(n[1]), float(n[0]))) % 180.0
    offsets = np.arange(-MAX_SHEAR, MAX_SHEAR + 1)
    scores = histogram[np.round(normal + offsets).astype(int) % 180]
    best = int(np.argmax(scores))
    if abs(offsets[best]) < 3 or scores[best] < 1.3 * scores[MAX_SHEAR]:
        return bar
    theta = math.radians(normal + float(offsets[best]))
    v = np.array([math.cos(theta), math.sin(theta)], dtype=np.float32)
    if float(v @ n) < 0:
        v = -v
    return Bar(bar.centre, bar.along, v, bar.length, bar.thickness, bar.strength)


def stands_out(rgb: np.ndarray, value: np.ndarray, bar: Bar, ends: tuple[float, float], width: float) -> bool:
    """Whether the tile's outline is seen: on at least one of its four sides, just outside,
    the table is not face-coloured (a grain of wood or a fold of cloth is face on all sides)."""
    c, u, n = bar.centre, bar.along, bar.normal
    inner = [
        c + n * (s * f * e) + u * (g * width)
        for s, e in ((1, ends[0]), (-1, ends[1]))
        for f in (0.3, 0.6)
        for g in (-0.3, 0, 0.3)
    ]
    face_values = sample(value, np.array(inner))
    face_rgb = sample_rgb(rgb, np.array(inner))
    if len(face_rgb) == 0:
        return False
    # the face's colour: the brighter samples in value (pips left out)
    keep = face_values[~np.isnan(face_values)] >= np.nanmedian(face_values)
    face = np.median(face_rgb[keep] if keep.any() else face_rgb, axis=0)
    # a step of 40 levels on a white face; a black face (its whole brightness a few tens
    # of levels) stands out from a dark cloth by a smaller step, in proportion to it
    step = min(OUTLINE_STEP, max(OUTLINE_STEP_DARK, OUTLINE_SHARE * float(face.max())))
    steps = np.linspace(-0.4, 0.4, 9)
    sides = []
    for s, e in ((1, ends[0]), (-1, ends[1])):
        pts = c[None, :] + n[None, :] * (s * (e + 0.12 * width)) + np.outer(steps * width, u)
        sides.append(pts)
    for s in (1, -1):
        pts = (
            c[None, :]
            + u[None, :] * (s * 0.62 * width)
            + np.outer(np.linspace(-0.8, 0.8, 9), n) * np.array([[ends[0]]] * 9)
        )
        sides.append(pts)
    for pts in sides:
        samples = sample_rgb(rgb, pts)
        if len(samples) < 3:
            return True  # the tile reaches the photo's edge
        distance = np.abs(samples - face[None, :]).max(axis=1)
        if np.mean(distance < step) < 0.5:
            return True
    return False
