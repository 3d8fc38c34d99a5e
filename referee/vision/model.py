"""The learned reader: the finder and the counter (``referee.vision.geometry`` says what
each sees and says), run with onnxruntime on the CPU. The networks' files ship in
``referee/vision/models/``; ``python -m referee.vision.train`` makes them (docs/VISION.md).

A reading: the finder marks tiles on the reduced photo, seen four ways (turned a quarter at a
time: ``geometry.FINDER_VIEWS``) with its answers joined, and looks again at the photo's
larger size where it marked small tiles (the second look, below); each mark is cut out of
the photo at the analysis size, turned level and shown to the counter four times (as it
lies, turned half a turn, and mirrored both ways: a photo mirrored or turned reads the same
by construction), whose answers are averaged; the pips of the marks it reads as tiles are
counted by the counters ``reader.json`` lists (``PIP_COUNTERS``, ``TILE_COUNTER_COUNTS``,
below). A mark the counter calls no tile is cut out again a few ways longer and wider, and
as the outliner redraws it where it sees the tile
(the retry, below; ``referee.vision.outline``). A tile is kept when the counter says it is a
face-up tile (counter.onnx, its logit of a tile joined with those of the ``TILE_COUNTERS``
where reader.json lists any), at least as surely as the tile threshold the training chose; its confidence is
how sure the counter is of the tile and of both halves, and it is ``sure`` when that is above
the threshold measured on synthetic photos the networks never trained on (both thresholds in
``reader.json``).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from referee.vision import geometry as g
from referee.vision import outline

MODELS = Path(__file__).resolve().parent / "models"
Network = Callable[[np.ndarray], np.ndarray]

# the four ways a crop is shown to the counter: corner orders of the tile (see geometry.crop)
# and whether its halves come out swapped
VIEWS: tuple[tuple[tuple[int, int, int, int], bool], ...] = (
    ((0, 1, 2, 3), False),  # as found
    ((2, 3, 0, 1), True),  # turned half a turn
    ((3, 2, 1, 0), False),  # mirrored across its length
    ((1, 0, 3, 2), True),  # mirrored across its width
)


# The surest marks counted on one photo: each costs four crops of the counter (about 2 ms on
# a 2-core CPU, the counter in eight bits: referee.vision.quantize), so 64 keep a 12 MP
# photo's reading under 1 s even where the table's
# pattern raises hundreds of weak marks; a photo of a hand or of the trains holds far fewer tiles.
MOST_MARKS = 64

# The second look. The finder sees the photo at 640 px on its longer side, where a tile
# narrower than SMALL_TILE of that side is under 19 px across: it is marked, but often with
# the wrong direction or ends, and the counter then rightly says no tile (synthetic photos of
# 2,560 px with tiles 2 to 5 % of their shorter side wide: 90 % of the tiles read).
# Where the first look marks such a tile and the photo has pixels the finder did not see (at
# least SECOND_LOOK_LEAST_SIDE on its longer side: on a photo only enlarged, the finder finds
# tiny tiles in the table's grain), the finder looks again at up to SECOND_LOOK_SIDE, and its
# marks of small tiles join the first look's (of two marks on one tile the one the tile
# counters are surest of is kept: one_reading_per_tile). Both the small mark that calls for
# it and the second look's marks must be at least SECOND_LOOK_FIND_THRESHOLD sure: at twice
# the resolution a table's grain and print show more that looks like a tiny tile. A mark
# narrower than SECOND_LOOK_LEAST_WIDTH pixels of the photo has too few pixels to count pips
# on and is not shown to the counter. The second look sees
# at most SECOND_LOOK_PIXELS (1280 x 960): a square photo seen at 1280 x 1280 took four
# finder runs of 0.45 s, a 12 MP square photo up to 1.9 s in all (the bound is 1.5 s).
SMALL_TILE = 0.03
SECOND_LOOK_SIDE = 1280
SECOND_LOOK_PIXELS = 1280 * 960
SECOND_LOOK_LEAST_SIDE = 960
SECOND_LOOK_LEAST_WIDTH = 10
SECOND_LOOK_FIND_THRESHOLD = 0.4
# The second look sees only the part of the photo around the first look's small marks,
# SECOND_LOOK_MARGIN of the photo's longer side beyond them on each side (the small tiles of
# one hand or one line lie together; each finder run at 1280 x 960 costs about 0.25 s, and a
# photo with one small tile in a corner paid four of them for the whole photo), or all of it
# where that part is at least SECOND_LOOK_WHOLE of a side.
SECOND_LOOK_MARGIN = 0.1
SECOND_LOOK_WHOLE = 0.9


# The retry. The finder often marks a tile too short (a half and the bar; on a steep view the
# far half seen small): the counter, shown a crop that is no whole tile, rightly says no tile.
# Of the validation scenes' tiles it called no tile, it read 41 of 54 right when shown the
# tile's true outline (docs/BENCHMARKS.md). So a mark the counter is less sure of than
# RETRY_BELOW (the highest tile threshold the training may choose: whatever threshold is
# chosen, a mark is read the same) and not sure it is no tile (RETRY_ABOVE: a mark on the
# table's grain, which would only cost time) is cut out again in RETRY_SHAPES, each shown
# once as it lies; the one the counter is surest is a tile is shown the four ways, and
# replaces the mark where the counter is surer of it. Each retry costs six to ten crops
# (2 to 3 ms each on a 2-core CPU as trained, under 1 ms in eight bits): at most MOST_RETRIES
# marks a photo, the finder's surest first.
RETRY_BELOW = 0.95
RETRY_ABOVE = 0.01
RETRY_SHAPES: tuple[tuple[float, float, float], ...] = (
    # the mark's length and width times these, its centre moved along its length by the last
    # times its length
    (1.3, 1.0, 0.0),
    (1.6, 1.0, 0.0),
    (1.6, 1.0, 0.3),
    (1.6, 1.0, -0.3),
    (1.3, 1.25, 0.0),
    (1.6, 1.25, 0.0),
)
MOST_RETRIES = 16
# The outliner (``referee.vision.outline``, where reader.json names one) redraws each retried
# mark where it sees the tile, and its outline joins the retry's shapes: the counter chooses
# among them as among the others. An outline narrower than OUTLINE_LEAST_WIDTH pixels of the
# photo is dropped: on scenes of many tiny tiles (6 to 9 px wide) the outlines read tiles
# where none lies (validation scenes 300 to 599, a trial run's outliner: 19 where the reader
# without it read 7), and a tile so narrow has too few pixels to count pips on (as
# SECOND_LOOK_LEAST_WIDTH). Redrawing the outline again read more tiles and more where none
# lies (docs/BENCHMARKS.md, "The outliner redraws the retried marks").
OUTLINE_LEAST_WIDTH = 10.0
# The recount. A tile's pips are miscounted mostly where its mark is off (a pip of the next tile
# in a line inside it, a half cut short): each tile read is also shown to the counter on the
# outliner's outline of its mark, and the two counts of each half are joined (their geometric
# mean). On the 300 validation scenes (tile threshold 0.9) it misread 60 tiles where the mark
# alone misread 71; taking the surer of the two counts misread 61, and adding crops of the mark
# moved a little along and lengthened, 65 (docs/BENCHMARKS.md, "The recount on the outline").
# Whether a mark is a tile stays the counter's word on the mark, so no tile is read where none
# lies that was not before. An outline overlapping its mark less than RECOUNT_ON_THE_MARK is
# not counted: it has moved to another tile. Each recount costs the outliner's four views and
# four crops of each counter (about 7 ms a tile on a 2-core CPU as trained, 40 validation
# scenes; about a third of it in eight bits): at most MOST_RECOUNTS tiles a photo, those whose
# count is least sure first (a hand or a line of play holds far fewer).
RECOUNT_ON_THE_MARK = 0.5
MOST_RECOUNTS = 32

# The key of reader.json listing the counters, beside counter.onnx, that count the pips of
# each tile counter.onnx says is a tile. Counters trained apart miscount apart, and their
# counts joined were right more often on the validation scenes than either's
# (docs/BENCHMARKS.md, "A second counter counts the pips"); the shipped one, which learned
# made-up makers, counts alone (TILE_COUNTER_COUNTS, below). A pip counter alone says a tile is
# there where none lies more often than the tile threshold allows, so only counter.onnx says
# what is a tile.
PIP_COUNTERS = "pip_counters"
# The key of reader.json saying whether counter.onnx's own counts join those of the
# PIP_COUNTERS (true where absent): false where the pip counters count sets that counter.onnx,
# which says what is a tile, never learned (made-up makers, docs/VISION.md), and its counts
# would only pull theirs back to the patterns it knows.
TILE_COUNTER_COUNTS = "tile_counter_counts"
# The key of reader.json listing the counters, beside counter.onnx, that say with it what is a
# tile: each mark's logits of a tile averaged (``joined_tile_logits``). Tile counters trained
# apart call different things tiles where none lies: a mark both call a tile is kept, one only
# one of them is sure of weakened. counter.onnx and the one that learned coloured pips, joined
# at a tile threshold of 0.93, read more of the validation scenes' tiles than counter.onnx
# alone at 0.9, and fewer or as few where none lies, on every kind of set (docs/BENCHMARKS.md,
# "Two tile counters say what is a tile").
TILE_COUNTERS = "tile_counters"
# The key of reader.json naming the finder's file for the second look, where one is shipped:
# the finder in eight bits (``referee.vision.quantize``). The second look's four runs at up to
# 1,280 x 960 were most of the slowest photos' time; in eight bits they take about 0.4 of it
# and read the validation scenes and 60 photos of small tiles the same, to the tile. The first
# look stays the finder's as trained: in eight bits it missed 2 to 3 more of 364 tiles.
SECOND_LOOK_FINDER = "second_look_finder"
# The key of reader.json naming the outliner's file (``referee.vision.outline``), where one is
# shipped: the retry's marks are redrawn by it (above).
OUTLINER = "outliner"

# what the counter says of one mark: the probability of a face-up tile, and of each number of
# pips on the tile's first and on its second half
Said = tuple[float, np.ndarray, np.ndarray]


@dataclass(frozen=True, slots=True)
class Settings:
    find_threshold: float = 0.25  # the finder's least score for a mark worth counting
    tile_threshold: float = 0.5  # the counter's least probability of a face-up tile
    sure_threshold: float = 0.9  # the least confidence of a tile read as sure
    same_tile: float = 0.5  # two marks overlapping this much are one tile
    retries: int = MOST_RETRIES  # marks a photo cut out again where the counter says no tile


@dataclass(frozen=True, slots=True)
class Found:
    """A tile read on the analysis image: its corners there, its halves and how sure."""

    corners: np.ndarray
    halves: tuple[int, int]
    confidence: float
    tile_probability: float


def read_rgb(
    rgb: np.ndarray,
    highest: int,
    finder: Network,
    counter: Network,
    settings: Settings,
    tile_counter: Network | None = None,
    outliner: Network | None = None,
    second_look_finder: Network | None = None,
) -> list[Found]:
    """The tiles on ``rgb`` (H x W x 3 uint8) of a set whose highest number is ``highest``.
    ``tile_counter``, where ``counter`` joins other counters' counts (``PIP_COUNTERS``): the
    counter that alone says what is a tile, asked of every mark and of the retry's shapes
    (they read no pips); ``counter`` counts the pips of the marks read as tiles. ``counter``
    does both where None. ``second_look_finder`` looks again (``SECOND_LOOK_FINDER``);
    ``finder`` where None."""
    longer = max(rgb.shape[:2])
    marks = _marks(rgb, finder, g.FINDER_SIDE, settings.find_threshold)
    small = SMALL_TILE * longer
    surer = max(SECOND_LOOK_FIND_THRESHOLD, settings.find_threshold)
    small_marks = [
        corners for score, corners, width in marks[:MOST_MARKS] if width < small and score >= surer
    ]
    if longer >= SECOND_LOOK_LEAST_SIDE and small_marks:
        # the second look: small tiles are found again where the photo has their pixels
        side = min(
            SECOND_LOOK_SIDE, longer // g.SIDE_STEP * g.SIDE_STEP, _side_within(rgb, SECOND_LOOK_PIXELS)
        )
        closer = _second_look(rgb, second_look_finder or finder, side, surer, small_marks)
        marks = sorted(
            marks + [mark for mark in closer if SECOND_LOOK_LEAST_WIDTH <= mark[2] < small],
            key=lambda mark: mark[0],
            reverse=True,
        )
    candidates = [c for _s, c, _w in marks[:MOST_MARKS] if float(np.linalg.norm(c[1] - c[0])) >= 6]
    if not candidates:
        return []
    allowed = highest + 1
    # which marks are tiles is the tile counter's word alone (the retry's choices read no pips):
    # the counters that count the pips with it are asked of the marks read as tiles only, most
    # of a photo's marks being the table's (the same reading, for less of the counters' time)
    tile_counter = tile_counter or counter
    said = _counter_says(rgb, candidates, tile_counter, allowed)
    candidates, said = _retried(rgb, candidates, said, tile_counter, allowed, settings.retries, outliner)
    read = [
        (corners, each)
        for corners, each in zip(candidates, said, strict=True)
        if each[0] >= settings.tile_threshold
    ]
    if tile_counter is not counter:
        counted = _counter_says(rgb, [corners for corners, _said in read], counter, allowed)
        read = [
            (corners, (tile_p, first, second))
            for (corners, (tile_p, _f, _s)), (_p, first, second) in zip(read, counted, strict=True)
        ]
    kept = one_reading_per_tile(read, settings.same_tile)
    if outliner is not None:
        kept = _recounted(rgb, kept, counter, allowed, outliner)
    found = [
        Found(corners, (int(left.argmax()), int(right.argmax())), _confidence((tile_p, left, right)), tile_p)
        for corners, (tile_p, left, right) in kept
    ]
    found.sort(key=lambda f: f.confidence, reverse=True)
    return found


def one_reading_per_tile(
    read: list[tuple[np.ndarray, Said]], same_tile: float
) -> list[tuple[np.ndarray, Said]]:
    """Of marks overlapping at least ``same_tile`` (one tile), the one the tile counters are
    surest is a tile, the surer count between equals. Which of two marks lies on the tile is
    the tile counters' question: the pips' counters, asked only of marks read as tiles, can be
    surer of a count on a mark half a tile off (a half of each of two tiles of a line looks
    like a tile's two halves to them) than on the tile itself. Until 2026-12-03 the surer
    confidence (tile times count) was kept: on 300 validation scenes of each of four kinds,
    keeping the tile counters' surest read 5 more of 4,016 tiles exact and one fewer where
    none lies (docs/BENCHMARKS.md, "One reading per tile: the tile counters' surest")."""
    ordered = sorted(read, key=lambda item: (item[1][0], _confidence(item[1])), reverse=True)
    kept: list[tuple[np.ndarray, Said]] = []
    for corners, each in ordered:
        if all(g.overlap(corners, other) < same_tile for other, _said in kept):
            kept.append((corners, each))
    return kept


def _confidence(said: Said) -> float:
    """A tile's confidence: the probability of a tile times how sure its count is."""
    return said[0] * _count_sureness(said)


def _count_sureness(said: Said) -> float:
    """How sure a tile's count is: the product of the probabilities of both halves' counts."""
    _tile_p, left, right = said
    return float(left.max()) * float(right.max())


def _wide_enough(outlined: np.ndarray) -> bool:
    """Whether an outliner's outline is at least ``OUTLINE_LEAST_WIDTH`` across (its shorter side)."""
    return min(g.box_of(outlined)[2:4]) >= OUTLINE_LEAST_WIDTH


def _recounted(
    rgb: np.ndarray, kept: list[tuple[np.ndarray, Said]], counter: Network, allowed: int, outliner: Network
) -> list[tuple[np.ndarray, Said]]:
    """The tiles ``kept`` (their marks and what the counter said of them) with each half's pips
    counted again on the outliner's outline of the mark (the recount, above): the
    probabilities of the two counts joined (``_joined_counts``). At most ``MOST_RECOUNTS``
    tiles, the least sure of their count first. Whether a mark is a tile stays the counter's
    word on the mark; an outline narrower than ``OUTLINE_LEAST_WIDTH`` or off the mark is not
    counted."""
    chosen = sorted(range(len(kept)), key=lambda k: _count_sureness(kept[k][1]))[:MOST_RECOUNTS]
    if not chosen:
        return kept
    outlines = _outlined(rgb, [kept[k][0] for k in chosen], outliner)
    again = [
        (k, outlined)
        for k, outlined in zip(chosen, outlines, strict=True)
        if _wide_enough(outlined) and g.overlap(kept[k][0], outlined) >= RECOUNT_ON_THE_MARK
    ]
    recounted = list(kept)
    for (k, _outlined_mark), (_tile_p, left, right) in zip(
        again, _counter_says(rgb, [outlined for _k, outlined in again], counter, allowed), strict=True
    ):
        corners, (tile_p, first, second) = kept[k]
        recounted[k] = (corners, (tile_p, _joined_counts(first, left), _joined_counts(second, right)))
    return recounted


def _joined_counts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two answers' probabilities of each count of one half joined: their geometric mean,
    normalised (a count only one of them is sure of is weakened, as in ``joined_counters``)."""
    log_mean = (np.log(np.maximum(a, 1e-12)) + np.log(np.maximum(b, 1e-12))) / 2
    joined = np.exp(log_mean - log_mean.max())
    return np.asarray(joined / joined.sum())


def _second_look(
    rgb: np.ndarray, finder: Network, side: int, threshold: float, small_marks: list[np.ndarray]
) -> list[tuple[float, np.ndarray, float]]:
    """The finder's marks (as ``_marks`` gives them, in ``rgb``'s pixels) where it looks again
    at ``rgb`` reduced to ``side`` on its longer side: only on the part of the photo around the
    first look's ``small_marks`` (``_window``), or on the whole photo where that part is all of it."""
    longer = max(rgb.shape[:2])
    scale = side / longer
    margin = SECOND_LOOK_MARGIN * longer
    points = np.concatenate(small_marks)
    (x0, x1), (y0, y1) = (
        _window(rgb.shape[1 - axis], points[:, axis].min() - margin, points[:, axis].max() + margin, scale)
        for axis in (0, 1)
    )
    # where the part is the whole photo, this is the photo at ``side``, as it is
    part = np.ascontiguousarray(rgb[y0:y1, x0:x1])
    part_side = round(max(x1 - x0, y1 - y0) * scale / g.SIDE_STEP) * g.SIDE_STEP
    offset = np.array([x0, y0], np.float32)
    return [
        (score, in_part + offset, width)
        for score, in_part, width in _marks(part, finder, part_side, threshold)
    ]


def _window(length: int, low: float, high: float, scale: float) -> tuple[int, int]:
    """The pixels [start, end) of one of the photo's sides (``length`` long) the second look
    sees: at least ``low`` to ``high``, grown to a whole number of the finder's steps at
    ``scale`` about its centre, within the photo; the whole side where that is most of it.
    Mirrored, the photo gives the mirrored span (pixel centres on whole numbers), so a photo
    turned a quarter is looked at again on the same pixels turned."""
    low, high = max(low, -0.5), min(high, length - 0.5)
    steps = max(1, math.ceil((high - low) * scale / g.SIDE_STEP))
    span = round(steps * g.SIDE_STEP / scale)
    if span >= length * SECOND_LOOK_WHOLE:
        return 0, length
    start = math.floor((low + high) / 2 - (span - 1) / 2 + 0.5)
    start = min(max(start, 0), length - span)
    return start, start + span


def _side_within(rgb: np.ndarray, pixels: int) -> int:
    """The longest side, a multiple of ``geometry.SIDE_STEP``, at which ``rgb`` reduced keeps
    its shape in at most ``pixels``."""
    height, width = rgb.shape[:2]
    side = math.sqrt(pixels * max(height, width) / min(height, width))
    return max(g.SIDE_STEP, int(side) // g.SIDE_STEP * g.SIDE_STEP)


def _retried(
    rgb: np.ndarray,
    marks: list[np.ndarray],
    said: list[Said],
    counter: Network,
    allowed: int,
    most: int,
    outliner: Network | None = None,
) -> tuple[list[np.ndarray], list[Said]]:
    """The retry (above): ``marks`` and what the ``counter`` (the one that says what is a tile)
    ``said`` of them, each of the first ``most`` marks it called no tile (not surely) replaced by
    the surest of its new shapes where the counter is surer of that: a glance at each new shape
    (one view) says which is surest a tile, and that one is shown the four ways. The new
    shapes: ``RETRY_SHAPES`` and, given an ``outliner``, its outline of the mark."""
    retried = [i for i, (tile_p, _l, _r) in enumerate(said) if RETRY_ABOVE <= tile_p < RETRY_BELOW][:most]
    if not retried:
        return marks, said
    marks, said = list(marks), list(said)
    shapes = [[_reshaped(marks[i], *shape) for shape in RETRY_SHAPES] for i in retried]
    if outliner is not None:
        outlines = _outlined(rgb, [marks[i] for i in retried], outliner)
        for each, outlined in zip(shapes, outlines, strict=True):
            if _wide_enough(outlined):
                each.append(outlined)
    # each mark's new shapes, one after another: the k-th mark's from starts[k] to starts[k + 1]
    starts = np.cumsum([0] + [len(each) for each in shapes]).tolist()
    reshaped = [shape for each in shapes for shape in each]
    glances = [tile_p for tile_p, _l, _r in _counter_says(rgb, reshaped, counter, allowed, VIEWS[:1])]
    # of each mark's new shapes, the one the counter glanced at as surest a tile, where it is
    # surer than of the mark: shown the four ways
    surest = [
        (i, starts[k] + int(np.argmax(glances[starts[k] : starts[k + 1]]))) for k, i in enumerate(retried)
    ]
    surest = [(i, j) for i, j in surest if glances[j] > said[i][0]]
    looked = _counter_says(rgb, [reshaped[j] for _i, j in surest], counter, allowed)
    for (i, j), again in zip(surest, looked, strict=True):
        if again[0] > said[i][0]:
            marks[i], said[i] = reshaped[j], again
    return marks, said


def _counter_says(
    rgb: np.ndarray,
    marks: list[np.ndarray],
    counter: Network,
    allowed: int,
    views: tuple[tuple[tuple[int, int, int, int], bool], ...] = VIEWS,
) -> list[Said]:
    """What the counter says of each of ``marks`` (corners in ``rgb``), cut out and shown the
    ``views`` ways with its answers averaged: the probability of a face-up tile, and of each
    number of pips (0 to ``allowed`` - 1) on the tile's first and second half."""
    if not marks:
        return []
    orders = [order for order, _swap in views]
    crops = np.stack([crop for corners in marks for crop in g.crops(rgb, corners, orders)])
    logits = counter(np.ascontiguousarray(g.normalise(crops).transpose(0, 3, 1, 2)))
    said: list[Said] = []
    for i in range(len(marks)):
        rows = logits[i * len(views) : (i + 1) * len(views)]
        first = np.zeros(allowed)
        second = np.zeros(allowed)
        for row, (_order, swap) in zip(rows, views, strict=True):
            a = _softmax(row[1 : 1 + allowed])
            b = _softmax(row[1 + g.PIP_CLASSES : 1 + g.PIP_CLASSES + allowed])
            first += b if swap else a
            second += a if swap else b
        said.append((float(np.mean(g.sigmoid(rows[:, 0]))), first / len(views), second / len(views)))
    return said


def _outlined(rgb: np.ndarray, marks: list[np.ndarray], outliner: Network) -> list[np.ndarray]:
    """Each of ``marks`` redrawn where the outliner sees its tile: the square around it shown
    as it is and mirrored three ways (``outline.mirror_square``), the answers turned back and
    averaged, so that a mark mirrored is redrawn mirrored."""
    if not marks:
        return []
    views = range(4)
    # each mark's square cut out once (a large tile's is reduced from the photo) and mirrored
    squares = np.stack(
        [
            outline.mirror_square(square, view)
            for square in (outline.square(rgb, mark) for mark in marks)
            for view in views
        ]
    )
    said = outliner(np.ascontiguousarray(g.normalise(squares).transpose(0, 3, 1, 2)))
    redrawn = []
    for i, mark in enumerate(marks):
        rows = [outline.mirrored(said[i * len(views) + view], view) for view in views]
        redrawn.append(outline.outlined(mark, np.mean(rows, axis=0)))
    return redrawn


def _reshaped(corners: np.ndarray, length: float, width: float, shift: float) -> np.ndarray:
    """A mark's ``corners`` (in the order of ``geometry.corners_of``) with its length and width
    times ``length`` and ``width``, its centre moved along its length by ``shift`` times it."""
    a, b, _c, d = corners
    along, across = b - a, d - a
    centre = corners.mean(axis=0) + shift * along
    half_l, half_w = length * along / 2, width * across / 2
    return np.array(
        [
            centre - half_l - half_w,
            centre + half_l - half_w,
            centre + half_l + half_w,
            centre - half_l + half_w,
        ],
        np.float32,
    )


def _marks(
    rgb: np.ndarray, finder: Network, side: int, threshold: float
) -> list[tuple[float, np.ndarray, float]]:
    """The finder's marks on ``rgb`` reduced to ``side`` on its longer side and seen the four
    ways of ``geometry.FINDER_VIEWS``, surest first: each one's score, and its tile's corners
    and width in ``rgb``'s pixels."""
    image, factors = g.finder_input(rgb, side)
    output = g.joined_views(
        [g.finder_output_back(finder(g.finder_view(image, view))[0], view) for view in g.FINDER_VIEWS]
    )
    return [
        (score, g.to_photo(g.corners_of(cx, cy, length, width, angle), factors), width * factors[0])
        for score, cx, cy, length, width, angle in g.peaks(output, threshold)
    ]


def sure_threshold(scored: list[tuple[float, bool]], precision: float = 0.995) -> float:
    """The lowest confidence above which at least ``precision`` of the tiles read are right
    (``scored``: each tile's confidence and whether it was right); above 1 when none is. A
    threshold takes every tile of its confidence: only where the next one is lower."""
    ordered = sorted(scored, reverse=True)
    threshold = 1.0 + 1e-9  # none sure until a confidence earns it
    right_so_far = 0
    for n, (confidence, right) in enumerate(ordered, 1):
        right_so_far += right
        last_of_its_confidence = n == len(ordered) or ordered[n][0] < confidence
        if last_of_its_confidence and right_so_far / n >= precision:
            threshold = confidence
    return threshold


# the counter's least probability of a face-up tile that the training may choose from (0.93:
# where the two tile counters joined read no more tiles where none lies than counter.onnx
# alone at 0.9, reader.json's tile_counters_joined)
TILE_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.93, 0.95)


def tile_threshold(reads: list[tuple[float, bool]], most_phantoms: float = 0.002) -> float:
    """The lowest of ``TILE_THRESHOLDS`` at which at most ``most_phantoms`` of the tiles read
    lie where no tile is (``reads``: each tile's probability of a face-up tile, read at the
    lowest threshold, and whether a tile lies there; the highest when none is low enough).
    A tile read where none lies adds a stranger's pips to a hand, the error the reading most
    wants to avoid: the training pays for fewer of them with a few missed tiles."""
    for threshold, (kept, phantoms) in zip(TILE_THRESHOLDS, _counted(reads), strict=True):
        if kept and phantoms / kept <= most_phantoms:
            return threshold
    return TILE_THRESHOLDS[-1]


def reads_by_tile_threshold(reads: list[tuple[float, bool]]) -> dict[str, tuple[int, int]]:
    """What ``tile_threshold`` chose from: at each of ``TILE_THRESHOLDS``, the tiles read and
    how many of them lie where no tile is. Kept beside the choice because a share of 0.2 % of a
    few hundred reads is one tile, and one tile more or less moves the threshold a step."""
    return {f"{t:g}": counts for t, counts in zip(TILE_THRESHOLDS, _counted(reads), strict=True)}


def _counted(reads: list[tuple[float, bool]]) -> list[tuple[int, int]]:
    """At each of ``TILE_THRESHOLDS``: the tiles kept, and of them those where no tile lies."""
    return [
        (sum(p >= t for p, _on in reads), sum(p >= t and not on_a_tile for p, on_a_tile in reads))
        for t in TILE_THRESHOLDS
    ]


def joined_counters(outputs: list[np.ndarray], first_counts: bool = True) -> np.ndarray:
    """One counter's answer (a row a crop: the logit of a face-up tile, then each half's logits
    of 0 to 18 pips) from the ``outputs`` of counter.onnx and the counters that count pips
    (``PIP_COUNTERS``): the first one's logit of a tile, and each half's log-probabilities
    averaged over all of them, or over all but the first where ``first_counts`` is False
    (``TILE_COUNTER_COUNTS``): their geometric mean, normalised where the row is read.
    Counters trained apart miscount apart: a count only one of them is sure of is weakened,
    one they agree on kept."""
    if len(outputs) == 1:
        return np.asarray(outputs[0])
    stacked = np.stack(outputs).astype(np.float64)
    joined = stacked[0].copy()
    counting = stacked if first_counts else stacked[1:]
    for half in (slice(1, 1 + g.PIP_CLASSES), slice(1 + g.PIP_CLASSES, 1 + 2 * g.PIP_CLASSES)):
        logits = counting[:, :, half]
        peak = logits.max(axis=2, keepdims=True)
        log_probabilities = logits - peak - np.log(np.exp(logits - peak).sum(axis=2, keepdims=True))
        joined[:, half] = log_probabilities.mean(axis=0)
    return np.asarray(joined, np.float32)


def joined_tile_logits(outputs: list[np.ndarray]) -> np.ndarray:
    """One tile counter's answer from the ``outputs`` of counter.onnx and the counters that say
    with it what is a tile (``TILE_COUNTERS``): counter.onnx's rows, with the logit of a tile
    the mean of all of theirs."""
    if len(outputs) == 1:
        return np.asarray(outputs[0])
    joined = np.array(outputs[0], np.float32)
    joined[:, 0] = np.mean([np.asarray(output, np.float64)[:, 0] for output in outputs], axis=0)
    return joined


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return np.asarray(e / e.sum())


@dataclass(frozen=True, slots=True)
class Reader:
    finder: Network
    # counter.onnx's tile, and the PIP_COUNTERS' pips joined (its own too, by TILE_COUNTER_COUNTS)
    counter: Network
    settings: Settings
    # what is a tile: counter.onnx, with the TILE_COUNTERS' logits of a tile joined where
    # reader.json lists any (counter's own column of a tile is counter.onnx's alone: the
    # reader asks this one)
    tile_counter: Network
    outliner: Network | None = None  # reader.json's OUTLINER, where it names one
    second_look_finder: Network | None = None  # reader.json's SECOND_LOOK_FINDER, where it names one


_lock = threading.Lock()


@cache
def load(folder: Path = MODELS) -> Reader:
    """The shipped networks as onnxruntime sessions (loaded once per process)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    # a photo is read on the server's CPU beside the table's plays: two threads at most
    options.intra_op_num_threads = 2
    options.inter_op_num_threads = 1
    # no thread spins waiting for the next operator: a spinning thread takes a core from the
    # plays, the other reads and the reader's own numpy work between the networks' runs (two
    # reads at once on two cores: 8.6 s for ten photos with spinning, 5.2 s without)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # the arena keeps what one large photo took: let it go after each run (the memory bound)
    options.enable_cpu_mem_arena = False
    meta: dict[str, Any] = json.loads((folder / "reader.json").read_text())

    def session(name: str) -> ort.InferenceSession:
        return ort.InferenceSession(str(folder / name), options, providers=["CPUExecutionProvider"])

    finder = session("finder.onnx")
    # counter.onnx says what is a tile; the pips are counted by it and any other counter
    # reader.json lists (``joined_counters``); a training's folder holds the one it trained
    counters = [session(name) for name in ["counter.onnx", *meta.get(PIP_COUNTERS, [])]]
    # reader.json holds the thresholds the training chose; the other settings keep their defaults
    chosen = meta.get("settings", {})
    default = Settings()
    settings = Settings(
        find_threshold=float(chosen.get("find_threshold", default.find_threshold)),
        tile_threshold=float(chosen.get("tile_threshold", default.tile_threshold)),
        sure_threshold=float(chosen.get("sure_threshold", default.sure_threshold)),
        same_tile=float(chosen.get("same_tile", default.same_tile)),
    )

    def run_finder(x: np.ndarray) -> np.ndarray:
        with _lock:
            return np.asarray(finder.run(None, {"image": x})[0])

    first_counts = bool(meta.get(TILE_COUNTER_COUNTS, True)) or len(counters) == 1

    def run_counter(x: np.ndarray) -> np.ndarray:
        with _lock:
            outputs = [np.asarray(counter.run(None, {"crops": x})[0]) for counter in counters]
            return joined_counters(outputs, first_counts)

    tile_counters = [counters[0]] + [session(name) for name in meta.get(TILE_COUNTERS, [])]

    def run_tile_counter(x: np.ndarray) -> np.ndarray:
        with _lock:
            return joined_tile_logits(
                [np.asarray(counter.run(None, {"crops": x})[0]) for counter in tile_counters]
            )

    def named(key: str, input_name: str) -> Network | None:
        """The network of the file reader.json names under ``key``, where it names one."""
        if not meta.get(key):
            return None
        network = session(meta[key])

        def run(x: np.ndarray) -> np.ndarray:
            with _lock:
                return np.asarray(network.run(None, {input_name: x})[0])

        return run

    run_outliner = named(OUTLINER, "squares")
    run_second_look_finder = named(SECOND_LOOK_FINDER, "image")
    return Reader(run_finder, run_counter, settings, run_tile_counter, run_outliner, run_second_look_finder)
