"""Walking from a bar along its normal to the tile's end: the last row of face before the
table, a seam, or the face's own shaded or lit side, going on past the pips a walk stopped in."""

from __future__ import annotations

import warnings

import numpy as np

from referee.vision.shapes import PLAUSIBLE, Bar

STEP_DOWN = 0.88  # a row below this share of the face's brightness beside the bar is a shaded side
STEP_FROM = 0.6  # ... when this many widths from the bar (a half is about a width long)
STEP_UP = 1.25  # ... and a row above this share of it a side facing the light
WALK_RANGE = 2.8  # the walk to a tile's end goes at most this many bar lengths from the bar
OWN_ACROSS = 0.45  # between the face's own edges, the walk to its ends samples this far out
PIP_DEPTH = 0.6  # a pip is darker than the face by this share of the face's step to the bar
CUT_REACH = 0.05  # a pip cut by a walk's end shows within this many widths on both sides of it
PIPS_ACROSS = 0.85  # a row darker than pips on more than this share across is a seam or table
CUT_MARGIN = 0.06  # the face's margin beyond its last pips, in widths
CUT_FREE = 0.1  # ... and a stretch free of pips this many widths long follows them
CUT_FROM = 0.45  # ... in a walk that went this many widths from the bar
PIP_ACROSS = 0.25  # a pip (or two touching) is at most this many widths across
CUT_TRIES = 4  # a walk goes on past at most this many rows of pips it stopped in


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
    step = walk_step(bar)
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


def ran_out_of_range(bar: Bar, end: float) -> bool:
    """Whether a walk from ``bar`` reached ``end`` at the last step of its range
    (``end_distance`` walks out to 2.8 bar lengths): no row of it was the tile's end."""
    return bool(end >= WALK_RANGE * bar.length - 2 * walk_step(bar))


def walk_step(bar: Bar) -> float:
    """The step of the walk from ``bar`` to the tile's ends."""
    return max(1.0, bar.length / 40)
