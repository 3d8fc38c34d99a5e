"""Finding tiles and counting pips: classical image analysis with OpenCV (docs/VISION.md).

Each face-up tile has exactly one dividing bar: a thin, dark (or, on black tiles, light)
line with the tile's bright face on both long sides and beyond both ends. The reading
finds those bars, walks from each bar along its normal to the two ends of the tile, warps
each half to a square and counts the pip blobs in it. Pips are found by how far they stand
from the face's own colour, whatever their hue, so coloured pips read like black ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.tiles import Tile
from referee.vision import Reading, ReadTile
from referee.vision.decode import Decoded

HALF = 96  # side of the square a half is warped to for counting
BAR_WIDTH_RATIO = 0.78  # a bar's length over the tile's width, typical of real sets


@dataclass(slots=True)
class Bar:
    centre: np.ndarray  # (x, y)
    along: np.ndarray  # unit vector along the bar
    normal: np.ndarray  # unit vector across it (towards the halves)
    length: float
    thickness: float
    strength: float  # 0..1: how clearly it is a bar on a tile face


@dataclass(slots=True)
class Half:
    pips: int
    confidence: float


@dataclass(slots=True)
class Found:
    bar: Bar
    ends: tuple[float, float]  # distance from the bar's centre to the tile's end, each side
    width: float
    halves: tuple[Half, Half]

    def corners(self) -> np.ndarray:
        c, u, n = self.bar.centre, self.bar.along, self.bar.normal
        w = self.width / 2
        return np.array(
            [
                c - u * w - n * self.ends[1],
                c + u * w - n * self.ends[1],
                c + u * w + n * self.ends[0],
                c - u * w + n * self.ends[0],
            ],
            dtype=np.float32,
        )


def _ink(rgb: np.ndarray) -> np.ndarray:
    """Per pixel, the darkest channel: a white or ivory face is high, black and coloured
    pips are low whatever their hue (a blue pip is dark in red, an orange one in blue)."""
    return np.min(rgb, axis=2)


def _find_bars(value: np.ndarray) -> list[Bar]:
    h, w = value.shape
    side = max(h, w)
    window = max(15, (side // 24) | 1)
    local = cv2.blur(value, (window, window))
    dark = ((local.astype(np.int16) - value.astype(np.int16)) > 28).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    bars: list[Bar] = []
    min_len = max(10.0, side / 80)
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area < min_len * 1.5 or max(bw, bh) < min_len * 0.7 or max(bw, bh) > side / 3:
            continue
        points = np.column_stack(np.nonzero(labels[y : y + bh, x : x + bw] == i))[:, ::-1].astype(np.float32)
        points += (x, y)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
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


def _sample(value: np.ndarray, points: np.ndarray) -> np.ndarray:
    h, w = value.shape
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    out = value[ys, xs].astype(np.float32)
    out[~inside] = np.nan
    return out


def _on_a_face(value: np.ndarray, bar: Bar) -> tuple[float, float] | None:
    """The face's brightness around ``bar`` and the bar's own, or None when the bar is not
    a tile's dividing bar (no bright face on both sides and beyond both ends)."""
    c, u, n, L = bar.centre, bar.along, bar.normal, bar.length
    core = _sample(value, c + np.outer(np.linspace(-0.4, 0.4, 9), u * L))
    inner = np.nanmedian(core)
    grid = np.linspace(-0.35, 0.35, 8)
    sides = []
    for s in (1, -1):
        pts = [c + u * (g * L) + n * (s * d * L) for g in grid for d in (0.15, 0.3, 0.5)]
        sides.append(_sample(value, np.array(pts)))
    ends = []
    for s in (1, -1):
        pts = [c + u * (s * (0.5 + d) * L) + n * (g * L) for d in (0.06, 0.1) for g in (-0.1, 0.0, 0.1)]
        ends.append(_sample(value, np.array(pts)))
    if any(np.isnan(side).mean() > 0.3 for side in sides):
        return None
    face = float(np.nanpercentile(np.concatenate(sides), 70))
    contrast = face - float(inner)
    if contrast < 35:
        return None
    for side in sides:
        if np.nanmean(side > inner + 0.6 * contrast) < 0.55:
            return None
    for end in ends:
        if np.all(np.isnan(end)) or np.nanmean(end > inner + 0.6 * contrast) < 0.5:
            return None
    return face, float(inner)


def _extent(value: np.ndarray, bar: Bar, face: float, dark: float, side: int, width: float) -> float:
    """Distance from the bar's centre to the tile's end on ``side`` (+1 / -1 along the normal)."""
    c, u, n = bar.centre, bar.along, bar.normal
    step = max(1.0, bar.length / 40)
    limit = 2.8 * bar.length
    lateral = np.linspace(-0.38, 0.38, 15) * width
    threshold = dark + 0.5 * (face - dark)
    d = bar.thickness
    run = 0
    last_face = d
    while d < limit:
        pts = c[None, :] + n[None, :] * (side * d) + np.outer(lateral, u)
        row = _sample(value, pts)
        if np.isnan(row).mean() > 0.5:
            break
        share = np.nanmean(row > threshold)
        if share < 0.3:
            run += 1
            if run * step >= max(2.0, 0.04 * bar.length):
                break
        else:
            run = 0
            last_face = d
        d += step
    return float(last_face)


def _count_pips(rgb: np.ndarray, value: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> Half:
    c, u, n = bar.centre, bar.along, bar.normal
    start = bar.thickness * 0.5 + 1
    origin = c + n * (side * start) - u * (width / 2)
    src = np.array([origin, origin + u * width, origin + n * (side * (extent - start))], dtype=np.float32)
    dst = np.array([[0, 0], [HALF, 0], [0, HALF]], dtype=np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    square = cv2.warpAffine(
        value, matrix, (HALF, HALF), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    margin = int(HALF * 0.07)
    inner = square[margin : HALF - margin, margin : HALF - margin]
    face = float(np.percentile(inner, 80))
    ink = face - inner.astype(np.float32)
    spread = float(np.percentile(ink, 99.5))
    if spread < 30:
        return Half(0, 0.95)
    threshold = max(30.0, 0.45 * spread)
    mask = (ink > threshold).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for i in range(1, count):
        _x, _y, w, h, area = stats[i]
        if area < 12:
            continue
        if max(w, h) > 2.6 * max(1, min(w, h)) and area > 30:
            continue  # a stroke (an edge's shadow, a seam), not a pip
        if area / float(w * h) < 0.35:
            continue
        blobs.append(float(area))
    if not blobs:
        return Half(0, 0.8 if spread < 60 else 0.6)
    typical = float(np.median(blobs))
    pips = 0
    unsure = 0.0
    for area in blobs:
        if area < 0.35 * typical:
            unsure += 0.5
            continue
        k = max(1, round(area / typical))
        if k > 1:
            unsure += 0.5
        pips += k
    confidence = max(0.05, 0.95 - 0.2 * unsure)
    return Half(pips, confidence)


def read_image(image: Decoded, highest: int) -> Reading:
    rgb = image.rgb
    value = _ink(rgb)
    value = cv2.GaussianBlur(value, (3, 3), 0)
    found: list[Found] = []
    for bar in _find_bars(value):
        levels = _on_a_face(value, bar)
        if levels is None:
            continue
        face, dark = levels
        width = bar.length / BAR_WIDTH_RATIO
        ends = (_extent(value, bar, face, dark, 1, width), _extent(value, bar, face, dark, -1, width))
        if min(ends) < 0.45 * bar.length:
            continue
        halves = (
            _count_pips(rgb, value, bar, 1, ends[0], width),
            _count_pips(rgb, value, bar, -1, ends[1], width),
        )
        found.append(Found(bar, ends, width, halves))
    found = _drop_overlaps(found)
    tiles = []
    scale = image.scale
    for item in found:
        corners = item.corners() * scale
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(image.width, int(x1)), min(image.height, int(y1))
        a, b = item.halves
        confidence = min(a.confidence, b.confidence)
        pa, pb = a.pips, b.pips
        if pa > highest or pb > highest:
            confidence = min(confidence, 0.2)
            pa, pb = min(pa, highest), min(pb, highest)
        ratio = (item.ends[0] + item.ends[1]) / item.width
        if not 1.4 <= ratio <= 3.2:
            confidence *= 0.6
        tiles.append(ReadTile(Tile(pa, pb), round(float(confidence), 3), (x0, y0, x1 - x0, y1 - y0)))
    tiles.sort(key=lambda t: (t.box[1] // 50, t.box[0]))
    return Reading(width=image.width, height=image.height, tiles=tuple(tiles))


def _drop_overlaps(found: list[Found]) -> list[Found]:
    """A bar broken in two (a brass spinner) or a stroke inside a tile already read: keep
    the longest bar of each tile."""
    kept: list[Found] = []
    for item in sorted(found, key=lambda f: -f.bar.length):
        inside = False
        for other in kept:
            poly = other.corners().reshape(-1, 1, 2)
            if cv2.pointPolygonTest(poly, tuple(map(float, item.bar.centre)), False) >= 0:
                inside = True
                break
        if not inside:
            kept.append(item)
    return kept
