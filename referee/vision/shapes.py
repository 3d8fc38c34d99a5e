"""What a reading is made of: a tile's dividing bar, a half's pips and a tile found (its
bar, its ends and its halves), and how a tile found is judged: how sure it is, whether its
shape is a tile's, and the half length the surely read tiles of a photo show."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PLAUSIBLE = (1.4, 3.2)  # a tile's length over its width on a photo, from above or the side
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


def plausible(item: Found) -> bool:
    """Whether the tile's length over its width is one a tile shows on a photo."""
    return PLAUSIBLE[0] <= (item.ends[0] + item.ends[1]) / item.width <= PLAUSIBLE[1]


def sureness(item: Found, highest: int) -> float:
    """How sure a reading is: its less certain half, nothing when a half is above the set."""
    if max(half.pips for half in item.halves) > highest:
        return 0.0
    return min(half.confidence for half in item.halves)


def unless_less_sure(item: Found, other: Found | None, highest: int) -> Found:
    """``other`` (a re-read of ``item``) unless there is none or it is less sure."""
    if other is None or sureness(other, highest) < sureness(item, highest):
        return item
    return other


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


def usual_half(found: list[Found], highest: int | None = None, met_ends: bool = False) -> float | None:
    """The photo's usual half length over the width: the median, each tile once, of the
    surely read tiles of a tile's shape with halves of about one length (with ``highest``, no
    half above the set; with ``met_ends``, only tiles whose walks met the tile's ends), or
    None with fewer than two of them."""
    ratios = _per_tile(
        [
            item
            for item in found
            if (min(half.confidence for half in item.halves) if highest is None else sureness(item, highest))
            >= 0.9
            and max(item.ends) <= 1.15 * min(item.ends)
            and plausible(item)
            and not (met_ends and item.open)
        ]
    )
    return float(np.median(ratios)) if len(ratios) >= 2 else None
