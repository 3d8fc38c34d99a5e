"""One reading per tile: of the readings that overlap (a tile found by several bar finders, a
bar broken in two, a "tile" read on the seam between two tiles), the one of a tile's shape
and surest is kept; a later pass adds only tiles that overlap none read."""

from __future__ import annotations

import math

import cv2

from referee.vision.shapes import FIT_HALF, Found, plausible, usual_half

SEAM_COVER = 0.6  # a tile this much covered by two or more others lies on their seam


def _overlap(a: Found, b: Found) -> bool:
    return cv2.intersectConvexConvex(a.corners(), b.corners())[0] > 0.3 * min(
        cv2.contourArea(a.corners()), cv2.contourArea(b.corners())
    )


def merge(found: list[Found], more: list[Found]) -> list[Found]:
    """The tiles of a later pass added to ``found`` where they overlap none of it, or only
    tiles of an implausible shape (a "tile" read across the table from a seam), which then
    give way."""
    out = list(found)
    for item in more:
        overlapped = [other for other in out if _overlap(item, other)]
        if overlapped and (not plausible(item) or any(plausible(other) for other in overlapped)):
            continue
        out = [other for other in out if not any(other is gone for gone in overlapped)]
        out.append(item)
    return out


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
            not plausible(f),
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
    usual = usual_half(found)
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
            if other is item or not plausible(other):
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
