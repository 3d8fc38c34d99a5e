"""Reading the tile of one bar: its ends walked to, its outline checked, its halves' pips
counted; read square to the bar and, where that fails, along the tile's long sides."""

from __future__ import annotations

import numpy as np

from referee.vision.bars import face_colour
from referee.vision.checks import only_letters
from referee.vision.outline import face_width, long_axis, stands_out
from referee.vision.pips import against_each_other, count_pips
from referee.vision.shapes import Bar, Found, plausible
from referee.vision.walk import end_distance, ran_out_of_range

SQUEEZED = 0.7  # a half shorter than this share of the tile's width is outlined too short
LETTERS_AT_MOST = 4  # a "tile" read with at most this many pips may be a printed name


def read_tile(
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
    ran_out = forced is None and ran_out_of_range(bar, max(ends))
    even = max(ends) <= 1.3 * min(ends)
    if forced is None and not even:
        ends = _evened(rgb, value, closed, bar, face, dark, width, colour, ends)
        even = max(ends) <= 1.3 * min(ends)
    if not even:  # walked into a touching tile: halves are equal
        ends = (min(ends), min(ends))
    if not outlined and not stands_out(rgb if outline is None else outline, value, bar, ends, width):
        return None, even
    halves = (
        count_pips(rgb, bar, 1, ends[0], width),
        count_pips(rgb, bar, -1, ends[1], width),
    )
    halves = against_each_other(halves)
    if any(half.foreign for half in halves):
        if forced is None and max(ends) < SQUEEZED * width:
            # a dense grid of pips (nine, twelve) whose walk stopped at a row of them: in a
            # half outlined that short the pips are squeezed into one broad mark. Read at a
            # half as long as the tile is wide, the pips stand apart; print stays broad
            again, _ = read_tile(rgb, value, closed, bar, face, dark, dense, width, highest, width, outline)
            return again, even
        return None, even  # printed letters on a tile's back, a box's label
    if sum(half.pips for half in halves) <= LETTERS_AT_MOST and only_letters(rgb, bar, ends, width):
        return None, even  # a face-down tile's printed name, read from the rule under it
    if dense and max(half.pips for half in halves) > highest:
        return None, even  # a face only with its dark parts closed over, and no tile of the set
    return Found(bar, ends, width, halves, ran_out, forced is not None), even


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


def read_square_or_along_sides(
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
    item, even = read_tile(rgb, value, closed, own, face, dark, dense, own_width, highest, outline=outline)
    if own is bar or item is None or plausible(item):
        bar, width = own, own_width
    else:
        item, even = read_tile(rgb, value, closed, bar, face, dark, dense, width, highest, outline=outline)
    if item is not None and even:
        return item
    sheared = long_axis(value, bar, width)
    if sheared is bar:
        return item
    other, other_even = read_tile(
        rgb, value, closed, sheared, face, dark, dense, width, highest, outline=outline
    )
    if other is not None and (item is None or other_even or _edged_only(item, other)):
        return other
    return item
