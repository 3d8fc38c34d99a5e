"""The passes that find a photo's tiles: around every bar on a face of the grey image (or its
negative), with overlong or uneven readings read again at the photo's usual half length, and
around the bars left over on the likeness to their own face's colour."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.bars import face_colour, find_bars, on_a_face
from referee.vision.outline import tile_width
from referee.vision.sampling import face_samples, of_little_colour, sample_rgb
from referee.vision.shapes import FIT_HALF, Bar, Found, plausible, sureness, unless_less_sure, usual_half
from referee.vision.tile import read_square_or_along_sides, read_tile

LONGEST_BAR = 2.2  # a bar longer than this many times the photo's median bar is no bar
SHORTEST_BAR = 0.6  # a bar shorter than this share of the photo's longer bars is a mark
OVERLONG = 1.3  # a half this many times the photo's usual half length is re-read at that length
FAR_OVERLONG = 1.8  # and past this, the re-read is kept at equal sureness
UNEVEN = 1.15  # halves whose lengths differ by more than this factor are outlined unequally
LIKENESS_BARS = 60  # at most this many left-over bars are tried on the likeness to their face
LIKENESS_GAIN = 2  # likeness falls at least this much per level of colour difference from the face
LIKENESS_STEEPEST = 5.0  # and at most this much (a face's own shading must stay face)


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
    measured = usual_half([item for item, *_ in readings], highest)
    usual = min(max(1.0 if measured is None else measured, 0.8), 1.6)
    out = []
    for item, face, dark, dense in readings:
        length = usual * item.width
        if max(item.ends) > OVERLONG * length or sureness(item, highest) == 0.0:
            other, _ = read_tile(
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
                sureness(other, highest) > sureness(item, highest)
                or (far and sureness(other, highest) >= sureness(item, highest))
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
    other, _ = read_tile(
        rgb, value, closed, item.bar, face, dark, dense, item.width, highest, forced=long, outlined=True
    )
    return unless_less_sure(item, other, highest)


def find_tiles(
    rgb: np.ndarray,
    value: np.ndarray,
    highest: int,
    min_contrast: float = 35,
    bars: list[Bar] | None = None,
) -> list[Found]:
    """The tiles read around the bars on a face of the grey image ``value`` (its negative for
    black tiles, with a higher ``min_contrast``): ``bars`` when given, else those found on it."""
    candidates = []
    for bar in find_bars(value) if bars is None else bars:
        levels = on_a_face(value, bar, min_contrast)
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
            item = read_square_or_along_sides(
                rgb, value, closed, bar, face, dark, dense, width, highest, None
            )
            if item is not None:
                found.append(item)
                readings.append((item, face, dark, dense))
        found = _reread_overlong(rgb, value, closed, readings, highest, found)
    return found


def find_by_likeness(
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
    usual = usual_half(found, met_ends=True)
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
        if colour.max() < 110 or np.mean(of_little_colour(sample_rgb(rgb, face_samples(bar)))) < 0.3:
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
        levels = on_a_face(like, local, need_end=False)
        if levels is None:
            continue
        face, dark, dense = levels
        size = max(3, int(bar.length * 0.4)) | 1
        closed = cv2.morphologyEx(like, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
        local, width = tile_width(like, closed, local, face, dark)
        # the outline is looked for on the likeness too: a table near the face's colour is
        # dark there, so a tile as light as its table still shows its edges
        outline = cv2.cvtColor(like, cv2.COLOR_GRAY2RGB)
        item = read_square_or_along_sides(
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
    if min(item.ends) * FIT_HALF >= length or not plausible(item):
        return item  # a "tile" shorter than any tile (a mark, a seam) stays too short to keep
    other, _ = read_tile(
        rgb, value, closed, item.bar, face, dark, dense, item.width, highest, forced=length, outline=outline
    )
    return unless_less_sure(item, other, highest)
