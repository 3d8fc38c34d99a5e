"""Finding tiles and counting pips: classical image analysis with OpenCV (docs/VISION.md).

Each face-up tile has exactly one dividing bar: a thin, dark (or, on black tiles, light)
line with the tile's bright face on both long sides and beyond both ends. The reading
finds those bars, walks from each bar along its normal to the two ends of the tile, warps
each half to a square and counts the pip blobs in it. Pips are found by how far they stand
from the face's own colour, whatever their hue, so coloured pips read like black ones.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee.tiles import Tile
from referee.vision.decode import Decoded
from referee.vision.reading import Reading, ReadTile

HALF = 96  # side of the square a half is warped to for counting
MARGIN = int(HALF * 0.07)  # the square's border left out (the tile's rim, the bar's edge)
RAW_SIDE = 0.2
RELATIVE_DARK = 0.45  # a bar pixel's value at most this share of the local mean
LONGEST_BAR = 2.2  # a bar longer than this many times the photo's median bar is no bar
SHORTEST_TILE = 1.2  # a tile's length over its width is at least this on a photo
MAX_SHEAR = 20  # degrees a tile's long side may lean from square to its bar on a photo
DIMMEST_FACE = 120  # a face in the shade of a side view is still at least this bright
FAR_OVERLONG = 1.8  # and past this, the re-read is kept at equal sureness
OVERLONG = 1.3  # a half this many times the photo's usual half length is re-read at that length
SEAM_COVER = 0.6  # a tile this much covered by two or more others lies on their seam
LIKENESS_BARS = 60  # at most this many left-over bars are tried on the likeness to their face
LIKENESS_GAIN = 2  # likeness falls at least this much per level of colour difference from the face
SHORTEST_BAR = 0.6  # a bar shorter than this share of the photo's longer bars is a mark
LIKENESS_STEEPEST = 5.0  # and at most this much (a face's own shading must stay face)
BAR_WIDTH_RATIO = 0.78  # a bar's length over the tile's width, typical of real sets
STEP_DOWN = 0.88  # a row below this share of the face's brightness beside the bar is a shaded side
STEP_FROM = 0.6  # ... when this many widths from the bar (a half is about a width long)
SQUEEZED = 0.7  # a half shorter than this share of the tile's width is outlined too short
PLAUSIBLE = (1.4, 3.2)  # a tile's length over its width on a photo, from above or the side
LETTERS_AT_MOST = 4  # a "tile" read with at most this many pips may be a printed name
ROUND_MARK = 0.88  # a pip fills at least this share of its convex outline; a letter less
LETTER_AREA = 0.02  # ... and a letter covers at least this share of a half's square
OUTLINE_STEP = 40  # the table just outside a tile differs from its face by this much in a channel
OUTLINE_SHARE = 0.8  # ... or, on a dark face, by this share of the face's brightest channel
OUTLINE_STEP_DARK = 20  # ... but at least this much (noise)
STEP_UP = 1.25  # ... and a row above this share of it a side facing the light
OWN_EDGE_RATIO = 1.02  # a bar may run from edge to edge of the face (measured by its own edges)
LEAN_SEEN = 0.05  # edges leaning less than this (per unit across the bar) are square to it
DENSE_ROW = 32  # samples along a row beside the bar, to find the face between large pips
WALK_RANGE = 2.8  # the walk to a tile's end goes at most this many bar lengths from the bar
FACE_CHROMA = 0.45  # a face's colour spread (max - min channel) is at most this share of its max
PLAIN_FACE = 0.2  # a half with this share of pixels of little colour has its face among them
PIPS_APART = 60  # ... and its coloured pixels differ from them this much in some channel
OWN_ACROSS = 0.45  # between the face's own edges, the walk to its ends samples this far out
ONE_FACE = 40  # the face beside a bar differs between its two sides by at most this in a channel
EDGE_STRIP = 0.8  # marks along this share of a half's long side are the face's edge, not pips
EDGE_STRIP_DEEPEST = 0.3  # ... when the band reaches at most this share of the half's width in
EDGE_ROWS = 0.4  # ... and its inner boundary is a straight line on at least this share of the rows
PIP_DEPTH = 0.6  # a pip is darker than the face by this share of the face's step to the bar
CUT_REACH = 0.05  # a pip cut by a walk's end shows within this many widths on both sides of it
PIPS_ACROSS = 0.85  # a row darker than pips on more than this share across is a seam or table
CUT_MARGIN = 0.06  # the face's margin beyond its last pips, in widths
CUT_FREE = 0.1  # ... and a stretch free of pips this many widths long follows them
CUT_FROM = 0.45  # ... in a walk that went this many widths from the bar
PIP_ACROSS = 0.25  # a pip (or two touching) is at most this many widths across
CUT_TRIES = 4  # a walk goes on past at most this many rows of pips it stopped in
LONE_MARK = 0.35  # a half's only mark below this share of the other half's pips is no pip
UNEVEN = 1.15  # halves whose lengths differ by more than this factor are outlined unequally
FIT_HALF = 1.25  # a half within this factor of the photo's usual half length fits the photo


@dataclass(slots=True)
class Bar:
    centre: np.ndarray  # (x, y)
    along: np.ndarray  # unit vector along the bar
    normal: np.ndarray  # unit vector across it (towards the halves)
    length: float
    thickness: float
    strength: float  # 0..1: how clearly it is a bar on a tile face
    # how the face's two long edges lean (along +along, along -along) per unit across the bar,
    # when measured by the face's own edges (a perspective narrows a tile's far end)
    lean: tuple[float, float] = (0.0, 0.0)


@dataclass(slots=True)
class Half:
    pips: int
    confidence: float
    foreign: bool = False  # a mark far larger than any pip (a letter, a logo): no tile's face
    sizes: tuple[float, ...] = ()  # the areas of the blobs counted
    edged: bool = False  # read with the face's edge cleared from a side (outlined too wide)


@dataclass(slots=True)
class Found:
    bar: Bar
    ends: tuple[float, float]  # distance from the bar's centre to the tile's end, each side
    width: float
    halves: tuple[Half, Half]
    # a walk to the tile's end ran to its full range without meeting one (a face like the
    # table all the way): the ends are not the tile's
    open: bool = False
    # the halves' length was given (a re-read at the photo's usual length), not walked
    guessed: bool = False

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


# sample places around a bar, in bar lengths (along the bar, across it)
_CORE = _grid([(g, 0.0) for g in np.linspace(-0.4, 0.4, 9)])
_SIDES = [_grid([(g, s * d) for g in np.linspace(-0.35, 0.35, 8) for d in (0.15, 0.3, 0.5)]) for s in (1, -1)]
# beside a bar on each side, where the face's colour is compared between its two halves
_FACE_BESIDE = [
    _grid([(g, s * f) for f in np.linspace(0.12, 0.55, 6) for g in np.linspace(-0.35, 0.35, 7)])
    for s in (1, -1)
]
_ENDS = [_grid([(s * (0.5 + d), g) for d in (0.06, 0.1) for g in (-0.1, 0.0, 0.1)]) for s in (1, -1)]


def _around(bar: Bar, grid: np.ndarray, scale: float | None = None) -> Any:
    k = bar.length if scale is None else scale
    return bar.centre[None, :] + k * (grid[:, :1] * bar.along[None, :] + grid[:, 1:] * bar.normal[None, :])


def _sample(value: np.ndarray, points: np.ndarray) -> Any:
    h, w = value.shape
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    out = value[ys, xs].astype(np.float32)
    out[~inside] = np.nan
    return out


def _on_a_face(
    value: np.ndarray, bar: Bar, min_contrast: float = 35, need_end: bool = True
) -> tuple[float, float, bool] | None:
    """The face's brightness around ``bar`` and the bar's own, or None when the bar is not
    a tile's dividing bar (no bright face on both sides and beyond both ends)."""
    inner = np.nanmedian(_sample(value, _around(bar, _CORE)))
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
    sides = [_sample(patch, _around(bar, grid) - shift) for grid in _SIDES]
    ends = [_sample(value, _around(bar, grid)) for grid in _ENDS]
    if any(np.isnan(side).mean() > 0.3 for side in sides):
        return None
    face = float(np.nanpercentile(np.concatenate(sides), 70))
    contrast = face - float(inner)
    if contrast < min_contrast or face < DIMMEST_FACE:  # white, ivory or (on the negative) black
        return None
    dense = False  # a side that is face only with its pips closed over
    for side, grid in zip(sides, _SIDES):
        if np.nanmean(side > inner + 0.6 * contrast) < 0.55:
            return None
        opened = _sample(value, _around(bar, grid)) > inner + 0.6 * contrast
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
        row = _around(bar, np.stack([along, np.full_like(along, across)], axis=1))
        if np.sum(_sample(value, row) > level) < 2:
            return True
    return False


def _face_samples(bar: Bar) -> Any:
    c, u, n, L = bar.centre, bar.along, bar.normal, bar.length
    return np.array(
        [c + n * (s * f * L) + u * (g * L) for s in (1, -1) for f in (0.15, 0.3, 0.5) for g in (-0.3, 0, 0.3)]
    )


def _plain(colours: np.ndarray) -> Any:
    """Which colours are of little colour, as a tile's face (white, ivory, black) is."""
    return colours.max(axis=1) - colours.min(axis=1) <= FACE_CHROMA * np.maximum(colours.max(axis=1), 1.0)


def face_colour(rgb: np.ndarray, value: np.ndarray, bar: Bar) -> Any:
    """The RGB colour of the face beside ``bar``: the brighter half of the samples on both
    sides of it, of those of little colour (coloured pips left out)."""
    pts = _face_samples(bar)
    values = _sample(value, pts)
    colours = _sample_rgb(rgb, pts)
    ok = ~np.isnan(values)
    values = values[ok]
    # a face is white, ivory or black (of little colour) while pips may be coloured: an
    # orange pip is brighter than an ivory face in the shade, so clearly coloured samples
    # are left out before the brighter ones are taken
    plain = _plain(colours)
    if plain.sum() < 3:
        plain = np.ones(len(values), bool)
    keep = plain & (values >= np.median(values[plain]))
    return np.median(colours[keep], axis=0)


def end_distance(
    rgb: np.ndarray,
    raw: np.ndarray,
    value: np.ndarray,
    bar: Bar,
    face: float,
    dark: float,
    side: int,
    width: float,
    colour: np.ndarray,
    short: bool = False,
) -> float:
    """Distance from the bar's centre to the tile's end on ``side`` (+1 / -1 along the normal).
    A walk that stopped in pips goes on past them (``_past_cut_pips``); ``short`` takes the
    first row free of pips and the face's margin beyond as the end, rather than walking on."""
    c, u, n = bar.centre, bar.along, bar.normal
    step = _walk_step(bar)
    distances = np.arange(bar.thickness, WALK_RANGE * bar.length, step, dtype=np.float32)
    o = side * distances
    if bar.lean == (0.0, 0.0):
        across = np.broadcast_to(np.linspace(-0.38, 0.38, 15, dtype=np.float32) * width, (len(o), 15))
    else:
        # the width is the face's own: its margin beside the outer pips is sampled too, across
        # the face between its long edges as they lean
        lateral = np.linspace(-OWN_ACROSS, OWN_ACROSS, 15, dtype=np.float32) * width
        middle = (bar.lean[0] - bar.lean[1]) / 2 * o
        scale = (width + (bar.lean[0] + bar.lean[1]) * o) / width
        across = middle[:, None] + lateral[None, :] * scale[:, None]
    # every row across the tile at once: rows x places across x (x, y)
    pts = c[None, None, :] + o[:, None, None] * n[None, None, :] + across[:, :, None] * u[None, None, :]
    flat = pts.reshape(-1, 2)
    h, w = value.shape
    inside = ((flat[:, 0] >= 0) & (flat[:, 0] < w) & (flat[:, 1] >= 0) & (flat[:, 1] < h)).reshape(
        len(distances), -1
    )
    xs = np.clip(np.round(flat[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(flat[:, 1]).astype(int), 0, h - 1)
    threshold = face - 0.35 * (face - dark)
    closed_face = (value[ys, xs] > threshold).reshape(len(distances), -1) & inside
    raw_face = (raw[ys, xs] > threshold).reshape(len(distances), -1) & inside
    alike = (np.abs(rgb[ys, xs].astype(np.float32) - colour[None, :]).max(axis=1) < 45).reshape(
        len(distances), -1
    )
    alike &= inside
    counted = np.maximum(inside.sum(axis=1), 1)
    off = inside.mean(axis=1) < 0.5
    share = closed_face.sum(axis=1) / counted
    alike_share = alike.sum(axis=1) / counted
    seam = (distances > 0.45 * width) & (raw_face.sum(axis=1) / counted < 0.12)
    dim = share < 0.5
    unlike = alike_share < 0.1  # a row of pips is unlike the face too: this needs a longer run
    # the face's own edge: a thick tile seen from a low angle shows its front and end sides,
    # of the face's colour but in the shade, beyond the face; a row well below the
    # brightness of the face next to the bar (pips closed over) ends the face
    level = np.where(inside, value[ys, xs].reshape(len(distances), -1), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # rows wholly off the photo
        level = np.nanmedian(level, axis=1)
        near = level[distances <= 0.5 * width]
        top = float(np.nanmedian(near)) if len(near) else float(face)
    stepped = (level < STEP_DOWN * top) | (level > STEP_UP * top)  # a side in the shade or lit
    shaded = stepped & (distances > STEP_FROM * width)
    dim = dim | shaded
    need_dim = max(2.0, 0.04 * bar.length)
    need_unlike = 0.22 * width
    # the photo's edge, or a seam across the whole width (a touching tile)
    ends = off | seam
    runs = (step, need_dim, need_unlike)
    last_face = _walk_on(distances, ends, dim, unlike, runs, 0, float(bar.thickness))
    raw_rows = np.where(inside, raw[ys, xs].reshape(len(distances), -1), np.nan)
    first = least = last_face
    # past the pips, no further than a half of a tile's shape is long (on a table as light
    # as the face, a walk that went on past print may run across the table)
    longest = PLAUSIBLE[1] / 2 * width
    # beyond a tile's end: off the photo, no longer face, or a table brighter than the face
    table = off | (share < 0.5) | (level > STEP_UP * top)
    for _ in range(CUT_TRIES):
        past = _past_cut_pips(raw_rows, distances, last_face, face, dark, width, table)
        if past is None:
            break
        free, least = past
        if short or free is None:
            return least if least <= longest else first
        # on from the first row free of pips, as before, and at least to the face's margin
        # beyond them (unless it stopped in pips again)
        last_face = _walk_on(distances, ends, dim, unlike, runs, free, float(distances[free]))
    end = max(last_face, least)
    return end if end <= longest else least if least <= longest else first


def _walk_on(
    distances: np.ndarray,
    ends: np.ndarray,
    dim: np.ndarray,
    unlike: np.ndarray,
    runs: tuple[float, float, float],
    start: int,
    last_face: float,
) -> float:
    """The walk of ``end_distance`` from row ``start`` to the last row of face before the tile's
    end: a row in ``ends``, or a run of dim or unlike rows (``runs``: the step, and the runs
    of dim and of unlike rows that end the face)."""
    step, need_dim, need_unlike = runs
    run_dim = run_unlike = 0
    for i in range(start, len(distances)):
        if ends[i]:
            break
        run_dim = run_dim + 1 if dim[i] else 0
        run_unlike = run_unlike + 1 if unlike[i] else 0
        if run_dim * step >= need_dim or run_unlike * step >= need_unlike:
            break
        if not dim[i] and not unlike[i]:
            last_face = float(distances[i])
    return last_face


def _past_cut_pips(
    rows: np.ndarray,
    distances: np.ndarray,
    end: float,
    face: float,
    dark: float,
    width: float,
    table: np.ndarray,
) -> tuple[int | None, float] | None:
    """The end of a walk moved past the pips it cuts: a tile's pips lie inside its face, with
    a margin of face around them, so a walk that stopped in the middle of pips (on a
    gradient of the light taken for a shaded side, or on a column of a dense half's pips
    taken for a seam) stopped short of the tile's end. The walk then goes on to the first
    stretch free of pips and a margin beyond, never past the table (``table``: rows off the
    photo, no longer face on the pips-closed image, or brighter than the face by the lit
    step). ``rows`` holds the walk's rows across the tile on the image without the pips
    closed (NaN off the photo). None when no pip is cut; else the first row of the free
    stretch (None when the pips run up to the table) and the end past the pips."""
    step = float(distances[1] - distances[0]) if len(distances) > 1 else 1.0
    i = int(np.searchsorted(distances, end))
    if i >= len(distances) - 1 or distances[i] != end or end < CUT_FROM * width:
        return None  # (a walk that stopped beside the bar: the bar is dark as pips are)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ink = rows < face - PIP_DEPTH * (face - dark)  # pips and the bar, not the face's shading
    reach = max(1, round(CUT_REACH * width / step))
    before = ink[max(0, i - reach + 1) : i + 1].any(axis=0)
    after_rows = ink[i + 1 : i + 1 + reach]
    cut = np.asarray(before & after_rows.any(axis=0))
    # a pip cut by the end: dark on both sides of it in one column, while the rows beyond
    # still show face between the pips (the table or a seam beyond a tile's end is dark
    # across the whole width)
    if not _pip_wide(cut, width) or after_rows.mean(axis=1).max() > PIPS_ACROSS:
        return None
    free = max(1, round(CUT_FREE * width / step))
    for j in range(i + 1, len(distances)):
        if table[j] or ink[j].mean() > PIPS_ACROSS:
            return None, float(distances[j - 1])  # the table, or a seam across the whole width
        if ink[j].any():
            continue
        # a stretch free of pips (a gap between two rows of pips is narrower), or the table
        stretch = ink[j : j + free].any(axis=1) | table[j : j + free]
        if stretch.any() and not table[j : j + free][np.argmax(stretch)]:
            continue
        beyond = distances[j] + CUT_MARGIN * width
        for k in range(j, len(distances)):
            if distances[k] > beyond:
                return j, float(beyond)
            if table[k] or ink[k].mean() > PIPS_ACROSS:
                return j, float(distances[k - 1])
        return j, float(distances[-1])
    return None


def _pip_wide(cut: np.ndarray, width: float) -> bool:
    """Whether the places across a tile where a walk's end is dark on both sides (``cut``,
    sampled evenly across 0.76 of the width) hold a run as narrow as a pip, clear of the
    outermost places: a tile's oblique end, its rim or the table beyond it darkens a run
    from the side of the face, a pip a short run inside it."""
    most = max(1, int(PIP_ACROSS / (0.76 / (len(cut) - 1))))
    run = 0
    for k, dark in enumerate(cut):
        run = run + 1 if dark else 0
        ends_here = dark and (k == len(cut) - 1 or not cut[k + 1])
        if ends_here and run <= most and k - run + 1 > 0 and k < len(cut) - 1:
            return True
    return False


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
        shut = _sample(closed, pts).reshape(len(distances), -1)
        raw = _sample(value, pts).reshape(len(distances), -1)
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
    step = _walk_step(bar)
    distances = np.arange(0.0, 0.8 * L, step, dtype=np.float32)
    offsets = np.concatenate([np.linspace(0.12, 0.8, 10), -np.linspace(0.12, 0.8, 10)]).astype(np.float32) * L
    threshold = face - 0.35 * (face - dark)
    lines = []
    for s in (1, -1):
        shut = _sample(closed, _columns(bar, s, distances, offsets)).reshape(len(distances), -1)
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


def _long_axis(value: np.ndarray, bar: Bar, width: float) -> Bar:
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


def _half_ink(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> tuple[Any, float, bool]:
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
    plain = _plain(pool)
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
    mask, spread, edged = _half_ink(rgb, bar, side, extent, width)
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


def _marks(rgb: np.ndarray, bar: Bar, side: int, extent: float, width: float) -> list[tuple[float, float]]:
    """The marks of a half that the pip count counts as pips: for each, the share of its convex
    outline it fills (its holes filled) and its area over the half's square. A pip, whole or
    cut by the half's edge, is convex; a letter (C, R, X, E, an O's ring) is not."""
    mask, _, _ = _half_ink(rgb, bar, side, extent, width)  # as the pip count sees the half
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


def _only_letters(rgb: np.ndarray, bar: Bar, ends: tuple[float, float], width: float) -> bool:
    """Whether every mark counted on the tile is a letter: large and not round. The printed
    name on a face-down tile, with the rule under it read as a bar, reads as a low tile
    (0-2, 1-2); the pips of a face-up tile are round, whole or cut by the half's edge."""
    marks = _marks(rgb, bar, 1, ends[0], width) + _marks(rgb, bar, -1, ends[1], width)
    return bool(marks) and all(fill < ROUND_MARK and area >= LETTER_AREA for fill, area in marks)


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


def read_image(image: Decoded, highest: int) -> Reading:
    rgb = image.rgb
    grey = cv2.GaussianBlur(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), (3, 3), 0)
    bars = find_bars(grey)
    found = drop_overlaps(_find_tiles(rgb, grey, highest, bars=bars))
    # black tiles with white pips: the same reading on the negative (light bars on dark faces)
    negative = _find_tiles(rgb, 255 - grey, highest, min_contrast=100)
    found = _merge(found, drop_overlaps(negative))
    # faces no brighter than the table (a side view, a white or marble table): the bars no
    # tile was read from are tried again on the likeness to their own face's colour
    found = _merge(found, drop_overlaps(_find_by_likeness(rgb, grey, highest, found, bars)))
    found = [item for item in found if one_face(rgb, item.bar)]
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
        if ratio < SHORTEST_TILE:
            continue  # far shorter than a tile seen from any usual angle: a printed mark
        if not PLAUSIBLE[0] <= ratio <= PLAUSIBLE[1]:
            confidence *= 0.6
        tiles.append(ReadTile(Tile(pa, pb), round(float(confidence), 3), (x0, y0, x1 - x0, y1 - y0)))
    tiles.sort(key=lambda t: (t.box[1] // 50, t.box[0]))
    return Reading(width=image.width, height=image.height, tiles=tuple(tiles))


def one_face(rgb: np.ndarray, bar: Bar) -> bool:
    """Whether the two sides of ``bar`` are one face: a tile's halves are of one material, so
    beside its bar the face's colour is the same on both sides, within a gradient of the
    light. A dark line between two surfaces (the shaded foot of a face-down tile and the
    table below it, the edge of a seam in a stone table) has a different colour on each side.
    Each side's colour is the brightest quarter of its samples of little colour (pips may be
    coloured, and cover most of a dense half; on a black face, where the bar is the lighter,
    the darkest quarter: its pips are white); a side with too few of them (a dense half of
    coloured pips) is not judged."""
    bar_level = float(np.median(_sample_rgb(rgb, _around(bar, _CORE)).mean(axis=1)))
    sides = []
    for grid in _FACE_BESIDE:
        samples = _sample_rgb(rgb, _around(bar, grid))
        samples = samples[_plain(samples)]
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


def _sample_rgb(rgb: np.ndarray, points: np.ndarray) -> Any:
    h, w = rgb.shape[:2]
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    xs = np.clip(np.round(points[inside, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[inside, 1]).astype(int), 0, h - 1)
    return rgb[ys, xs].astype(np.float32)


def _stands_out(
    rgb: np.ndarray, value: np.ndarray, bar: Bar, ends: tuple[float, float], width: float
) -> bool:
    """Whether the tile's outline is seen: on at least one of its four sides, just outside,
    the table is not face-coloured (a grain of wood or a fold of cloth is face on all sides)."""
    c, u, n = bar.centre, bar.along, bar.normal
    inner = [
        c + n * (s * f * e) + u * (g * width)
        for s, e in ((1, ends[0]), (-1, ends[1]))
        for f in (0.3, 0.6)
        for g in (-0.3, 0, 0.3)
    ]
    face_values = _sample(value, np.array(inner))
    face_rgb = _sample_rgb(rgb, np.array(inner))
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
        samples = _sample_rgb(rgb, pts)
        if len(samples) < 3:
            return True  # the tile reaches the photo's edge
        distance = np.abs(samples - face[None, :]).max(axis=1)
        if np.mean(distance < step) < 0.5:
            return True
    return False


def _read_tile(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    bar: Bar,
    face: float,
    dark: float,
    dense: bool,
    width: float,
    highest: int,
    forced: float | None = None,
    outline: np.ndarray | None = None,
    outlined: bool = False,
) -> tuple[Found | None, bool]:
    """The tile of ``bar`` measured along its normal and read, or None when it is no tile;
    and whether both halves were found of about equal length. ``forced`` takes that length
    for both halves instead of walking to the tile's ends; ``outline`` is the colour image
    the tile's outline is looked for on (``rgb`` when None); ``outlined`` skips that look
    (a re-read of a tile whose outline was seen on its first reading)."""
    if forced is not None:
        ends = (forced, forced)
    else:
        colour = face_colour(rgb, value, bar)
        ends = (
            end_distance(rgb, value, closed, bar, face, dark, 1, width, colour),
            end_distance(rgb, value, closed, bar, face, dark, -1, width, colour),
        )
    if min(ends) < 0.45 * bar.length:
        return None, False
    ran_out = forced is None and _ran_out(bar, max(ends))
    even = max(ends) <= 1.3 * min(ends)
    if forced is None and not even:
        ends = _evened(rgb, value, closed, bar, face, dark, width, colour, ends)
        even = max(ends) <= 1.3 * min(ends)
    if not even:  # walked into a touching tile: halves are equal
        ends = (min(ends), min(ends))
    if not outlined and not _stands_out(rgb if outline is None else outline, value, bar, ends, width):
        return None, even
    halves = (
        count_pips(rgb, bar, 1, ends[0], width),
        count_pips(rgb, bar, -1, ends[1], width),
    )
    halves = _against_each_other(halves)
    if any(half.foreign for half in halves):
        if forced is None and max(ends) < SQUEEZED * width:
            # a dense grid of pips (nine, twelve) whose walk stopped at a row of them: in a
            # half outlined that short the pips are squeezed into one broad mark. Read at a
            # half as long as the tile is wide, the pips stand apart; print stays broad
            again, _ = _read_tile(rgb, value, closed, bar, face, dark, dense, width, highest, width, outline)
            return again, even
        return None, even  # printed letters on a tile's back, a box's label
    if sum(half.pips for half in halves) <= LETTERS_AT_MOST and _only_letters(rgb, bar, ends, width):
        return None, even  # a face-down tile's printed name, read from the rule under it
    if dense and max(half.pips for half in halves) > highest:
        return None, even  # a face only with its dark parts closed over, and no tile of the set
    return Found(bar, ends, width, halves, ran_out, forced is not None), even


def _against_each_other(halves: tuple[Half, Half]) -> tuple[Half, Half]:
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


def _edged_only(item: Found, other: Found) -> bool:
    """Whether ``item`` was read only with the face's edge cleared from a half, and ``other``
    (read again along the tile's long sides) without: a half outlined wider than the face
    is a reading of last resort."""
    return any(half.edged for half in item.halves) and not any(half.edged for half in other.halves)


def _evened(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    bar: Bar,
    face: float,
    dark: float,
    width: float,
    colour: np.ndarray,
    ends: tuple[float, float],
) -> tuple[float, float]:
    """The ends of a tile whose halves came out of unequal length, the longer walk taken
    again only to the face's margin beyond the pips it went past (``end_distance``'s ``short``):
    past the last pips of its half the face may run on into a tile touching it, while the
    halves of one tile are of about equal length. The ends are kept when that does not even
    them."""
    side = 1 if ends[0] > ends[1] else -1
    again = end_distance(rgb, value, closed, bar, face, dark, side, width, colour, short=True)
    shorter = min(ends)
    if not again < max(ends) or again > 1.3 * shorter:
        return ends
    return (again, ends[1]) if side == 1 else (ends[0], again)


def _ran_out(bar: Bar, end: float) -> bool:
    """Whether a walk from ``bar`` reached ``end`` at the last step of its range
    (``end_distance`` walks out to 2.8 bar lengths): no row of it was the tile's end."""
    return bool(end >= WALK_RANGE * bar.length - 2 * _walk_step(bar))


def _walk_step(bar: Bar) -> float:
    """The step of the walk from ``bar`` to the tile's ends."""
    return max(1.0, bar.length / 40)


def _read_square_or_along_sides(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    bar: Bar,
    face: float,
    dark: float,
    dense: bool,
    width: float,
    highest: int,
    outline: np.ndarray | None,
) -> Found | None:
    """The tile of ``bar`` read square to it, at the width between the face's own edges
    (``face_width``); a tile of an implausible shape there (the face's "edge" a row of
    print, the "bar" the seam between two tiles side by side) is read again at the width
    measured to the table. A tile not found square to its bar, or with halves of unequal
    length, is tried again along the tile's long sides as the photo shows them (oblique),
    and that reading is taken when it is the only one, has even halves, or needed no edge
    cleared where the first did."""
    own, own_width = face_width(value, closed, bar, width, face, dark)
    item, even = _read_tile(rgb, value, closed, own, face, dark, dense, own_width, highest, outline=outline)
    if own is bar or item is None or _plausible(item):
        bar, width = own, own_width
    else:
        item, even = _read_tile(rgb, value, closed, bar, face, dark, dense, width, highest, outline=outline)
    if item is not None and even:
        return item
    sheared = _long_axis(value, bar, width)
    if sheared is bar:
        return item
    other, other_even = _read_tile(
        rgb, value, closed, sheared, face, dark, dense, width, highest, outline=outline
    )
    if other is not None and (item is None or other_even or _edged_only(item, other)):
        return other
    return item


def _unless_less_sure(item: Found, other: Found | None, highest: int) -> Found:
    """``other`` (a re-read of ``item``) unless there is none or it is less sure."""
    if other is None or _sure(other, highest) < _sure(item, highest):
        return item
    return other


def _sure(item: Found, highest: int) -> float:
    """How sure a reading is: its less certain half, nothing when a half is above the set."""
    if max(half.pips for half in item.halves) > highest:
        return 0.0
    return min(half.confidence for half in item.halves)


def _per_tile(items: list[Found]) -> list[float]:
    """The half length over the width, once per tile: a tile found by several bar finders
    is read several times, and counts once (the median of its readings)."""
    groups: list[list[Found]] = []
    for item in items:
        for group in groups:
            if np.linalg.norm(group[0].bar.centre - item.bar.centre) < 0.3 * group[0].bar.length:
                group.append(item)
                break
        else:
            groups.append([item])
    return [
        float(np.median([(item.ends[0] + item.ends[1]) / (2 * item.width) for item in group]))
        for group in groups
    ]


def _reread_overlong(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    readings: list[tuple[Found, float, float, bool]],
    highest: int,
    found: list[Found],
) -> list[Found]:
    """Tiles whose walk ran past their ends (a dark tile on a dark cloth, a face like the
    table) read again with the half length the surely read tiles of the photo show (a half
    is as long as the tile is wide in a photo from above); the surer reading is kept."""
    measured = _usual_half([item for item, *_ in readings], highest)
    usual = min(max(1.0 if measured is None else measured, 0.8), 1.6)
    out = []
    for item, face, dark, dense in readings:
        length = usual * item.width
        if max(item.ends) > OVERLONG * length or _sure(item, highest) == 0.0:
            other, _ = _read_tile(
                rgb,
                value,
                closed,
                item.bar,
                face,
                dark,
                dense,
                item.width,
                highest,
                forced=length,
                outlined=True,
            )
            far = max(item.ends) > FAR_OVERLONG * length  # ran through a whole other tile
            if item.open and other is None:
                continue  # no end met, and at a tile's length its halves hold print: no tile
            if other is not None and (
                _sure(other, highest) > _sure(item, highest)
                or (far and _sure(other, highest) >= _sure(item, highest))
            ):
                item = other
        else:
            item = _even_halves(rgb, value, closed, item, face, dark, dense, highest, length)
        out.append(item)
    return out


def _even_halves(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    item: Found,
    face: float,
    dark: float,
    dense: bool,
    highest: int,
    length: float,
) -> Found:
    """A tile's two halves are equally long: a reading whose one half is about the photo's
    usual ``length`` and the other far shorter (the walk stopped at a row of a dense half's
    pips) is read again with both halves as long as the longer; the re-read is kept unless
    less sure."""
    short, long = min(item.ends), max(item.ends)
    if long <= UNEVEN * short or short * FIT_HALF >= length or long * FIT_HALF < length:
        return item
    other, _ = _read_tile(
        rgb, value, closed, item.bar, face, dark, dense, item.width, highest, forced=long, outlined=True
    )
    return _unless_less_sure(item, other, highest)


def _find_tiles(
    rgb: np.ndarray,
    value: np.ndarray,
    highest: int,
    min_contrast: float = 35,
    bars: list[Bar] | None = None,
) -> list[Found]:
    candidates = []
    for bar in find_bars(value) if bars is None else bars:
        levels = _on_a_face(value, bar, min_contrast)
        if levels is not None:
            candidates.append((bar, levels))
    if len(candidates) >= 3:
        # the tiles of one photo are of one set and at similar distances: a "bar" several
        # times the usual length is a tile's shadow or a seam of the table
        usual = float(np.median([bar.length for bar, _ in candidates]))
        candidates = [(bar, levels) for bar, levels in candidates if bar.length <= LONGEST_BAR * usual]
    if candidates:
        # a stroke much shorter than the photo's bars is a mark on a face or the table
        typical = float(np.percentile([bar.length for bar, _ in candidates], 75))
        candidates = [(bar, levels) for bar, levels in candidates if bar.length >= SHORTEST_BAR * typical]
        # faces are the brightest things on the table: a "bar" on a dim surface is texture
        brightest = max(levels[0] for _, levels in candidates)
        candidates = [(bar, levels) for bar, levels in candidates if levels[0] >= 0.72 * brightest]
    found: list[Found] = []
    if candidates:
        typical = float(np.percentile([bar.length for bar, _ in candidates], 75))
        size = max(3, int(typical * 0.4)) | 1
        # the face with its pips closed over: the walk to a tile's end is not stopped by a pip
        closed = cv2.morphologyEx(value, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
        readings: list[tuple[Found, float, float, bool]] = []
        for bar, (face, dark, dense) in candidates:
            if bar.length < SHORTEST_BAR * typical:
                continue
            bar, width = tile_width(value, closed, bar, face, dark)
            item = _read_square_or_along_sides(
                rgb, value, closed, bar, face, dark, dense, width, highest, None
            )
            if item is not None:
                found.append(item)
                readings.append((item, face, dark, dense))
        found = _reread_overlong(rgb, value, closed, readings, highest, found)
    return found


def _find_by_likeness(
    rgb: np.ndarray, grey: np.ndarray, highest: int, found: list[Found], bars: list[Bar]
) -> list[Found]:
    """Tiles read around the bars left over, each on an image of how alike each pixel is to
    the colour of the bar's own face: the face is bright there whatever the light, and the
    table, the pips (of any colour) and the bar dark."""
    tried: list[Bar] = []
    polygons = [item.corners().reshape(-1, 1, 2) for item in found]
    out: list[Found] = []
    h, w = grey.shape
    lengths = [item.bar.length for item in found]
    shortest = 0.6 * float(np.median(lengths)) if lengths else 0.0
    usual = _usual_half(found, met_ends=True)
    for bar in bars:
        if bar.length < shortest:
            continue
        centre = tuple(map(float, bar.centre))
        if any(cv2.pointPolygonTest(poly, centre, False) >= 0 for poly in polygons):
            continue
        if any(np.linalg.norm(bar.centre - other.centre) < 0.3 * bar.length for other in tried):
            continue
        tried.append(bar)
        if len(tried) > LIKENESS_BARS:
            break
        colour = face_colour(rgb, grey, bar)
        if colour.max() < 110 or np.mean(_plain(_sample_rgb(rgb, _face_samples(bar)))) < 0.3:
            continue  # not a white or ivory face (black tiles have their own pass)
        reach = int(3.2 * bar.length) + 4
        x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
        x1, y1 = min(w, int(centre[0]) + reach + 1), min(h, int(centre[1]) + reach + 1)
        patch = rgb[y0:y1, x0:x1]
        distance = np.abs(patch.astype(np.int16) - colour.astype(np.int16)[None, None, :]).max(axis=2)
        # steep enough that the table (most of the patch) is dark, however near its colour
        gain = min(max(200.0 / max(float(np.median(distance)), 1.0), LIKENESS_GAIN), LIKENESS_STEEPEST)
        like = cv2.GaussianBlur(np.clip(255 - gain * distance, 0, 255).astype(np.uint8), (3, 3), 0)
        shift = np.array([x0, y0], dtype=np.float32)
        local = Bar(bar.centre - shift, bar.along, bar.normal, bar.length, bar.thickness, bar.strength)
        # a bar that runs to the face's edges (many coloured sets) has no face beyond its ends
        levels = _on_a_face(like, local, need_end=False)
        if levels is None:
            continue
        face, dark, dense = levels
        size = max(3, int(bar.length * 0.4)) | 1
        closed = cv2.morphologyEx(like, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
        local, width = tile_width(like, closed, local, face, dark)
        # the outline is looked for on the likeness too: a table near the face's colour is
        # dark there, so a tile as light as its table still shows its edges
        outline = cv2.cvtColor(like, cv2.COLOR_GRAY2RGB)
        item = _read_square_or_along_sides(
            patch, like, closed, local, face, dark, dense, width, highest, outline
        )
        if item is not None and usual is not None:
            item = _lengthen_short(patch, like, closed, item, face, dark, dense, highest, usual, outline)
        if item is None or max(half.pips for half in item.halves) > highest:
            continue
        moved = Bar(
            item.bar.centre + shift, item.bar.along, item.bar.normal, item.bar.length, item.bar.thickness, 0.0
        )
        out.append(Found(moved, item.ends, item.width, item.halves, guessed=item.guessed))
    return out


def _usual_half(found: list[Found], highest: int | None = None, met_ends: bool = False) -> float | None:
    """The photo's usual half length over the width: the median, each tile once, of the
    surely read tiles of a tile's shape with halves of about one length (with ``highest``, no
    half above the set; with ``met_ends``, only tiles whose walks met the tile's ends), or
    None with fewer than two of them."""
    ratios = _per_tile(
        [
            item
            for item in found
            if (min(half.confidence for half in item.halves) if highest is None else _sure(item, highest))
            >= 0.9
            and max(item.ends) <= 1.15 * min(item.ends)
            and _plausible(item)
            and not (met_ends and item.open)
        ]
    )
    return float(np.median(ratios)) if len(ratios) >= 2 else None


def _lengthen_short(
    rgb: np.ndarray,
    value: np.ndarray,
    closed: np.ndarray,
    item: Found,
    face: float,
    dark: float,
    dense: bool,
    highest: int,
    usual: float,
    outline: np.ndarray,
) -> Found:
    """A tile read on the likeness to its face with a half far shorter than the photo's
    usual half (the walk stopped at a row of pips or a vein of the table across the face)
    read again with both halves of the usual length; the re-read is kept unless less sure."""
    length = usual * item.width
    if min(item.ends) * FIT_HALF >= length or not _plausible(item):
        return item  # a "tile" shorter than any tile (a mark, a seam) stays too short to keep
    other, _ = _read_tile(
        rgb, value, closed, item.bar, face, dark, dense, item.width, highest, forced=length, outline=outline
    )
    return _unless_less_sure(item, other, highest)


def _overlap(a: Found, b: Found) -> bool:
    return cv2.intersectConvexConvex(a.corners(), b.corners())[0] > 0.3 * min(
        cv2.contourArea(a.corners()), cv2.contourArea(b.corners())
    )


def _merge(found: list[Found], more: list[Found]) -> list[Found]:
    """The tiles of a later pass added to ``found`` where they overlap none of it, or only
    tiles of an implausible shape (a "tile" read across the table from a seam), which then
    give way."""
    out = list(found)
    for item in more:
        overlapped = [other for other in out if _overlap(item, other)]
        if overlapped and (not _plausible(item) or any(_plausible(other) for other in overlapped)):
            continue
        out = [other for other in out if not any(other is gone for gone in overlapped)]
        out.append(item)
    return out


def _plausible(item: Found) -> bool:
    """Whether the tile's length over its width is one a tile shows on a photo."""
    return PLAUSIBLE[0] <= (item.ends[0] + item.ends[1]) / item.width <= PLAUSIBLE[1]


def drop_overlaps(found: list[Found]) -> list[Found]:
    """A bar broken in two (a brass spinner) or a stroke inside a tile already read: keep
    the longest bar of each tile. A tile of a plausible shape goes first: a "tile" read from
    the seam of two touching tiles runs far past their ends and would swallow them."""
    found = _drop_straddling(found)
    fit = _fitting(found)
    kept: list[Found] = []
    for item in sorted(
        found,
        key=lambda f: (
            not _plausible(f),
            -round(min(h.confidence for h in f.halves), 2),
            not fit[id(f)],
            -f.bar.length,
        ),
    ):
        inside = False
        for other in kept:
            poly = other.corners().reshape(-1, 1, 2)
            if cv2.pointPolygonTest(poly, tuple(map(float, item.bar.centre)), False) >= 0:
                inside = True
                break
        if not inside:
            kept.append(item)
    return _drop_seams(kept)


def _fitting(found: list[Found]) -> dict[int, bool]:
    """For each reading, whether both its halves, walked to the tile's ends, are about as long
    as the photo's usual half (within a factor FIT_HALF; the tiles of one photo are of one
    set, seen alike): a walk stopped short at a row of a dense half's pips, or run past a
    tile's end, gives a half of another length. A re-read at a length given (the usual one)
    fits by construction and is not counted as fitting. Without two surely read tiles every
    reading fits."""
    usual = _usual_half(found)
    if usual is None:
        return {id(item): True for item in found}
    return {
        id(item): not item.guessed
        and all(abs(math.log(max(end, 1e-3) / item.width / usual)) <= math.log(FIT_HALF) for end in item.ends)
        for item in found
    }


def _drop_straddling(found: list[Found]) -> list[Found]:
    """Two tiles lying side by side show a seam along their long sides, which looks like a
    bar: the "tile" read on it holds the bar of one of them in each of its halves. A tile
    holds no other tile's bar, so a reading with the bar of another reading of a tile's shape
    inside each of its halves is dropped."""

    def straddles(item: Found) -> bool:
        poly = item.corners().reshape(-1, 1, 2)
        sides: set[bool] = set()
        for other in found:
            if other is item or not _plausible(other):
                continue
            offset = other.bar.centre - item.bar.centre
            across = float(offset @ item.bar.normal)
            if abs(across) < 0.3 * item.width:
                continue  # near this bar: the same tile read again
            if cv2.pointPolygonTest(poly, tuple(map(float, other.bar.centre)), False) > 0:
                sides.add(across > 0)
        return len(sides) == 2

    return [item for item in found if not straddles(item)]


def _drop_seams(kept: list[Found]) -> list[Found]:
    """The seam between two tiles laid end to end looks like a bar: the "tile" read on it
    lies half on each of them. A tile mostly covered by two or more other tiles is dropped,
    the most covered first."""
    kept = list(kept)
    while True:
        worst, worst_share = None, SEAM_COVER
        for item in kept:
            area = cv2.contourArea(item.corners())
            if area <= 0:
                continue
            covers = [
                cv2.intersectConvexConvex(item.corners(), other.corners())[0]
                for other in kept
                if other is not item
            ]
            covers = [c for c in covers if c > 0.15 * area]
            share = sum(covers) / area
            if len(covers) >= 2 and share > worst_share:
                worst, worst_share = item, share
        if worst is None:
            return kept
        kept = [item for item in kept if item is not worst]
