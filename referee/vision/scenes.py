"""Synthetic labelled photos of domino tiles: the training data of the learned reader
(``referee.vision.train``), and photos with known tiles for its tests and the benchmark.
The reading never imports this module.

A scene is drawn from one seed: a table (cloth, felt, wood grain, leather, stone, paper, a
tray printed with dots, plain), tiles of one set (double-6 to double-18; faces white, ivory,
black or coloured; pips black, white, coloured or one colour per number; a bar, sometimes
with a brass spinner) laid apart, end to end in rows, side by side in grids or partly out of
the frame, among face-down tiles, coins, boxes and train markers; then a camera (any
rotation, from straight down to 62° from it, the table shortened along the view as a lens
sees it, thick tiles showing the side that faces it), light (dim, warm, cool, one-sided, a
shadow across the tiles), blur, noise, what a phone's camera adds (a tone curve, saturation,
vignetting, colour noise, sharpening) and JPEG compression. The labels are exact: each tile's
four corners in the photo and its two halves.

``draw_scene(seed, size, highest)`` gives the pixels and the labels; ``make_photo`` a JPEG
with its tiles and boxes; ``write_set`` a folder with a ``labels.json`` in the format of the
real photos' labels (plus ``boxes``).
"""

from __future__ import annotations

import io
import json
import math
import random
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from referee.tiles import Tile

# pip centres on a half of side 1, per count: the usual layouts up to nine, then three
# columns of up to six rows (double-12 to double-18 sets)
_G3 = (0.24, 0.5, 0.76)
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.24, 0.24), (0.76, 0.76)],
    3: [(0.24, 0.24), (0.5, 0.5), (0.76, 0.76)],
    4: [(0.24, 0.24), (0.76, 0.24), (0.24, 0.76), (0.76, 0.76)],
    5: [(0.24, 0.24), (0.76, 0.24), (0.5, 0.5), (0.24, 0.76), (0.76, 0.76)],
    6: [(x, y) for x in (0.26, 0.74) for y in _G3],
    7: [(x, y) for x in (0.26, 0.74) for y in _G3] + [(0.5, 0.5)],
    8: [(x, y) for x in _G3 for y in _G3 if (x, y) != (0.5, 0.5)],
    9: [(x, y) for x in _G3 for y in _G3],
}
_G4 = (0.2, 0.4, 0.6, 0.8)
_G5 = (0.16, 0.33, 0.5, 0.67, 0.84)
_G6 = (0.14, 0.28, 0.43, 0.57, 0.72, 0.86)
LAYOUTS[10] = [(x, y) for x in (0.22, 0.78) for y in _G4] + [(0.5, 0.4), (0.5, 0.6)]
LAYOUTS[11] = [(x, y) for x in (0.22, 0.78) for y in _G4] + [(0.5, 0.3), (0.5, 0.5), (0.5, 0.7)]
LAYOUTS[12] = [(x, y) for x in (0.22, 0.5, 0.78) for y in _G4]
LAYOUTS[13] = [(x, y) for x in (0.22, 0.78) for y in _G5] + [(0.5, 0.33), (0.5, 0.5), (0.5, 0.67)]
LAYOUTS[14] = [(x, y) for x in (0.22, 0.78) for y in _G5] + [(0.5, y) for y in (0.25, 0.42, 0.58, 0.75)]
LAYOUTS[15] = [(x, y) for x in (0.22, 0.5, 0.78) for y in _G5]
LAYOUTS[16] = [(x, y) for x in (0.22, 0.78) for y in _G6] + [(0.5, y) for y in (0.28, 0.43, 0.57, 0.72)]
LAYOUTS[17] = [(x, y) for x in (0.22, 0.78) for y in _G6] + [(0.5, y) for y in _G5]
LAYOUTS[18] = [(x, y) for x in (0.22, 0.5, 0.78) for y in _G6]


def _columns(
    *heights: int, xs: tuple[float, ...] | None = None, top: float = 0.16, spread: float = 0.68
) -> list[tuple[float, float]]:
    """Pips in columns across a half, at ``xs`` (the usual two or three places where None), each
    column spread evenly down it from ``top`` over ``spread`` of the half (a lone pip midway)."""
    xs = xs or {2: (0.24, 0.76), 3: (0.22, 0.5, 0.78)}[len(heights)]
    spots: list[tuple[float, float]] = []
    for x, n in zip(xs, heights, strict=True):
        spots += [(x, 0.5)] if n == 1 else [(x, top + spread * i / (n - 1)) for i in range(n)]
    return spots


# Makers arrange the numbers above six differently: a ten as two columns of five or as 3-4-3,
# an eight as a ring or as two columns of four. A reader that saw one arrangement of each
# number learns to know it by its pattern and misreads another maker's set; seen in several,
# it must count. A set keeps one arrangement for all its tiles (``Style.arrangement``: 0 is
# ``LAYOUTS``); the numbers up to six are arranged alike by all.
ARRANGEMENTS: tuple[dict[int, list[tuple[float, float]]], ...] = (
    LAYOUTS,
    {
        **LAYOUTS,
        7: _columns(2, 3, 2), 8: _columns(3, 2, 3), 10: _columns(3, 4, 3), 11: _columns(3, 5, 3),
        13: _columns(4, 5, 4), 14: _columns(5, 4, 5), 16: _columns(5, 6, 5), 17: _columns(6, 5, 6),
    },
    {
        **LAYOUTS,
        8: _columns(4, 4), 10: _columns(5, 5), 11: _columns(4, 3, 4), 12: _columns(6, 6),
        13: _columns(5, 3, 5), 14: _columns(6, 2, 6), 16: _columns(6, 4, 6), 17: _columns(7, 3, 7),
    },
)  # fmt: skip


# Makers nobody listed: a set whose arrangement number is MADE_UP or more prints each number
# above six in columns of its own, made up from that number (``layout``). ARRANGEMENTS are a
# few patterns per number, which a counter can learn as patterns; no set of patterns covers
# what makers print (four columns of a ten as 3-2-2-3, pips out to the half's very edge), and
# a counter shown columns of any heights and spread, each set its own, must count the pips.
MADE_UP = len(ARRANGEMENTS)
MOST_IN_A_COLUMN = 6  # as double-18 sets print their eighteen: three columns of six
# the least margins of a half left outside its columns, by how many columns lie across it
_COLUMN_MARGINS = {2: (0.2, 0.3), 3: (0.13, 0.24), 4: (0.1, 0.17)}


def _column_heights(count: int) -> list[tuple[int, ...]]:
    """Every way of printing ``count`` pips in two to four columns, the columns' heights
    alike from either side of the half (as every maker prints them), the outer columns of two
    pips or more and the inner ones of one or more."""
    ways: list[tuple[int, ...]] = []
    outer, inner = range(2, MOST_IN_A_COLUMN + 1), range(1, MOST_IN_A_COLUMN + 1)
    ways += [(h, h) for h in outer if 2 * h == count]
    ways += [(h, count - 2 * h, h) for h in outer if count - 2 * h in inner]
    ways += [(a, b, b, a) for a in outer for b in inner if 2 * (a + b) == count]
    return ways


@cache
def made_up_layout(arrangement: int, count: int) -> list[tuple[float, float]]:
    """The pips of ``count`` as the made-up maker ``arrangement`` (MADE_UP or more) prints them:
    the numbers up to six as every maker does (``LAYOUTS``); above, one of ``_column_heights``
    chosen for this maker and number, the columns spread across the half and each column's
    pips down it as far out as this maker prints them (its margins, one for all its numbers)."""
    if count <= 6:
        return LAYOUTS[count]
    maker = random.Random(f"maker {arrangement}")
    across, down = maker.random(), maker.uniform(0.1, 0.22)
    heights = random.Random(f"maker {arrangement} prints {count}").choice(_column_heights(count))
    low, high = _COLUMN_MARGINS[len(heights)]
    side = low + across * (high - low)
    xs = tuple(float(x) for x in np.linspace(side, 1 - side, len(heights)))
    spots = _columns(*heights, xs=xs, top=down, spread=1 - 2 * down)
    return [(round(x, 4), round(y, 4)) for x, y in spots]


def layout(arrangement: int, count: int) -> list[tuple[float, float]]:
    """Where the pips of ``count`` lie on a half (of side 1) in a set of ``arrangement``: one of
    ARRANGEMENTS, or a made-up maker's (MADE_UP or more)."""
    if arrangement >= MADE_UP:
        return made_up_layout(arrangement, count)
    return ARRANGEMENTS[arrangement][count]


@cache
def _closest(arrangement: int, count: int) -> float:
    """The least distance between two pips of ``count`` in ``arrangement`` (a half's side: 1)."""
    if count < 2:
        return 1.0
    spots = np.array(layout(arrangement, count))
    apart = np.linalg.norm(spots[:, None] - spots[None], axis=2) + np.eye(count) * 2  # not itself
    return float(apart.min())


# The share of sets drawn in another maker's arrangement (ARRANGEMENTS[1:]). 0 until a counter
# that has learned them passes the project's tests: the scenes the shipped networks were
# validated and tested on stay as they were. ``python -m referee.vision.train --other-makers``
# draws half the sets so (docs/VISION.md, "Other makers' arrangements").
OTHER_MAKERS_SHARE = 0.0
OTHER_MAKERS_ASKED = 0.5  # the share when asked: --other-makers, write_set(other_makers=True)
# Of the sets in another maker's arrangement, the share printed by a made-up maker (``layout``):
# 0 unless asked (``--made-up-makers``), so that the sets of the other makers are drawn as the
# shipped networks were validated on.
MADE_UP_SHARE = 0.0
MADE_UP_ASKED = 0.5
# The share of sets whose pips stand out from the face by their colour more than by their
# lightness (orange on pink, blue on green, red on blue): a reader that has seen only dark pips
# on light faces and light pips on dark ones misses or miscounts them (a quarter of the tiles
# of such sets read wrong by the networks shipped on 2026-12-02). 0 unless asked
# (``--coloured-pips``), drawn apart from the scene's own draws like ``_maker``: the scenes the
# shipped networks were validated on stay as they were.
COLOURED_PIPS_SHARE = 0.0
COLOURED_PIPS_ASKED = 0.3
_HUED_INKS = [
    (240, 130, 30), (230, 110, 20), (200, 30, 30), (30, 60, 170), (30, 120, 50), (120, 40, 150),
    (230, 200, 30), (20, 150, 150), (200, 50, 140), (110, 70, 30), (60, 160, 220),
]  # fmt: skip


@contextmanager
def _shares(**shares: float) -> Iterator[None]:
    """The module's shares named set to ``shares`` within, as they were after."""
    before = {name: globals()[name] for name in shares}
    globals().update(shares)
    try:
        yield
    finally:
        globals().update(before)


def coloured_pips_share(asked: bool) -> AbstractContextManager[None]:
    """Scenes drawn within print ``COLOURED_PIPS_ASKED`` of their sets' pips in a colour apart
    from the face's (or none, ``asked`` False); the share is as it was after."""
    return _shares(COLOURED_PIPS_SHARE=COLOURED_PIPS_ASKED if asked else 0.0)


def _hued_ink(face: tuple[int, int, int], per_number: bool) -> tuple[int, int, int] | None:
    """A colour for a set's pips that differs from ``face`` in hue more than it may in
    lightness, for ``COLOURED_PIPS_SHARE`` of the sets of one ink (None for the others)."""
    pick = random.Random(f"ink {face}")
    if per_number or not COLOURED_PIPS_SHARE or pick.random() >= COLOURED_PIPS_SHARE:
        return None
    # apart enough to be printed so (a person sees the pips at a glance), however alike in lightness
    apart = [
        c for c in _HUED_INKS if sum(abs(a - b) for a, b in zip(c, face, strict=True)) >= 150
    ] or _HUED_INKS
    return _rgb(np.clip(v + pick.uniform(-20, 20), 0, 255) for v in pick.choice(apart))


def other_makers_share(asked: bool, made_up: bool = False) -> AbstractContextManager[None]:
    """Scenes drawn within are printed as asked (half the sets in other makers' arrangements,
    or none; with ``made_up``, half of those by made-up makers), whatever the shares were;
    they are as they were after."""
    return _shares(
        OTHER_MAKERS_SHARE=OTHER_MAKERS_ASKED if asked else 0.0,
        MADE_UP_SHARE=MADE_UP_ASKED if asked and made_up else 0.0,
    )


def _maker(face: tuple[int, int, int], per_number: bool, light: bool) -> int:
    """Which of ARRANGEMENTS a set is printed in: chosen apart from the scene's own random
    draws, so that every other draw of a scene stays as it was."""
    pick = random.Random(f"{face}{per_number}{light}")
    if pick.random() >= OTHER_MAKERS_SHARE:
        return 0
    if MADE_UP_SHARE and pick.random() < MADE_UP_SHARE:  # no draw unless asked: sets as they were
        return MADE_UP + pick.randrange(1_000_000)
    return pick.choice((1, 2))


# one colour per number, as double-12 to double-18 sets do (RGB)
NUMBER_COLOURS = [
    (0, 0, 0), (90, 170, 220), (40, 140, 60), (200, 40, 40), (120, 90, 30), (30, 60, 180),
    (230, 190, 20), (20, 20, 20), (30, 170, 160), (110, 40, 140), (120, 20, 40), (20, 120, 110),
    (240, 120, 20), (200, 60, 160), (60, 60, 60), (90, 150, 40), (160, 30, 90), (40, 90, 140),
    (150, 110, 60),
]  # fmt: skip
_FACES = {
    "white": (245, 245, 242),
    "ivory": (238, 226, 196),
    "black": (28, 28, 32),
    "pink": (236, 150, 180),
    "green": (70, 160, 100),
    "blue": (70, 120, 200),
    "red": (190, 50, 50),
    "yellow": (240, 210, 90),
    "mint": (170, 225, 200),
    "purple": (120, 80, 160),
    "cream": (250, 240, 215),
}
_PIP_INKS = [(15, 15, 15), (245, 245, 245), (240, 130, 30), (30, 60, 170), (200, 30, 30), (30, 120, 50)]
TABLES = ("cloth", "felt", "wood", "leather", "stone", "paper", "dots", "plain", "black")


@dataclass(frozen=True, slots=True)
class Style:
    """How one set's tiles look."""

    face: tuple[int, int, int]
    pips: str  # "ink" (one colour), "number" (a colour per number: ``palette``)
    ink: tuple[int, int, int]
    bar: tuple[int, int, int]
    spinner: bool  # a brass rivet in the bar's middle
    pip_scale: float
    rim: float  # how dark the tile's edge is drawn (0: none)
    # Sets print the same number either way round on a half: a six as two rows of three
    # along the tile or across it, a two on either diagonal. A set does it one way on
    # all its tiles, so a reader must know both.
    quarter_turned: bool = False
    palette: tuple[tuple[int, int, int], ...] = tuple(NUMBER_COLOURS)
    arrangement: int = 0  # which of ARRANGEMENTS the maker prints the numbers above six in


@dataclass(frozen=True, slots=True)
class SceneTile:
    """A face-up tile on a scene: ``corners`` (4 x 2, the photo's pixels) in the order of the
    face's (0, 0), (L, 0), (L, W), (0, W), the first half ``halves[0]`` lying at the first and
    last corner; ``visible`` the share of its face inside the photo."""

    corners: np.ndarray
    halves: tuple[int, int]
    visible: float

    @property
    def tile(self) -> Tile:
        return Tile(*self.halves)


@dataclass(slots=True)
class Scene:
    rgb: np.ndarray  # H x W x 3 uint8
    tiles: list[SceneTile] = field(default_factory=list)
    quality: int = 90  # the JPEG quality the photo is saved at
    # the face-down tiles' corners (4 x 2, the photo's pixels): a tile's shape that is no tile
    face_down: list[np.ndarray] = field(default_factory=list)


def _rgb(values: Iterable[Any]) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in values)
    return (r, g, b)


def _contrast_ink(face: tuple[int, int, int], rng: random.Random) -> tuple[int, int, int]:
    light = sum(face) / 3 > 120
    choices = [c for c in _PIP_INKS if (sum(c) / 3 < 110) == light] or [(15, 15, 15)]
    return rng.choice(choices) if rng.random() < 0.4 else ((15, 15, 15) if light else (245, 245, 245))


def draw_style(rng: random.Random, highest: int, force: str | None = None) -> Style:
    """A set's look; ``force`` "black" (black pips on white), "colour" (a colour per number)
    or "white" (white pips on black tiles)."""
    if force == "white":
        name = "black"
    elif force in ("black", "colour"):
        name = rng.choice(("white", "ivory", "cream"))
    else:
        r = rng.random()
        name = (
            rng.choice(("white", "ivory", "cream"))
            if r < 0.6
            else "black"
            if r < 0.75
            else rng.choice(("pink", "green", "blue", "red", "yellow", "mint", "purple"))
        )
    base = _FACES[name]
    face = _rgb(np.clip(c + rng.randint(-12, 12), 0, 255) for c in base)
    per_number = force == "colour" or (force is None and highest >= 9 and rng.random() < 0.45)
    light = sum(face) / 3 > 120
    ink = (
        (15, 15, 15)
        if force == "black"
        else (245, 245, 245)
        if force == "white"
        else _contrast_ink(face, rng)
    )
    if per_number and not light:
        per_number = False
    bar = ink if rng.random() < 0.5 else ((25, 25, 25) if light else (225, 225, 225))
    if rng.random() < 0.15:  # a bar of brass or of the face's own colour, shaded
        bar = (180, 140, 60) if rng.random() < 0.5 else _rgb(c * 0.55 for c in face)
    hued = _hued_ink(_rgb(face), per_number)
    if hued is not None:  # the bar printed in the pips' ink stays so
        bar = hued if bar == ink else bar
        ink = hued
    return Style(
        palette=set_palette(rng) if per_number else tuple(NUMBER_COLOURS),
        face=(int(face[0]), int(face[1]), int(face[2])),
        pips="number" if per_number else "ink",
        ink=ink,
        bar=(int(bar[0]), int(bar[1]), int(bar[2])),
        spinner=rng.random() < 0.25,
        pip_scale=rng.uniform(0.8, 1.2),
        rim=rng.uniform(0, 0.35),
        quarter_turned=rng.random() < 0.5,
        arrangement=_maker(face, per_number, light),
    )


def set_palette(rng: random.Random) -> tuple[tuple[int, int, int], ...]:
    """The colours of a set that gives each number its own: each maker chooses them, so the
    colours here are shuffled among the numbers and shifted for each set. A reader that had
    only seen one set's colours could learn "green is six" and misread every other maker's
    set with confidence; shuffled, colour says nothing of a number and only counting the
    pips reads it."""
    colours = list(NUMBER_COLOURS)
    rng.shuffle(colours)
    shift = [rng.uniform(-40, 40) for _ in range(3)]
    return tuple(
        _rgb(np.clip(c + d + rng.uniform(-15, 15), 0, 255) for c, d in zip(colour, shift, strict=True))
        for colour in colours
    )


def draw_face(halves: tuple[int, int], style: Style, w: int, rng: random.Random) -> np.ndarray:
    """The tile's face as an RGBA image of 2w x w, halves side by side."""
    img = np.zeros((w, 2 * w, 4), np.uint8)
    r = max(2, int(w * rng.uniform(0.05, 0.14)))
    face = (*style.face, 255)
    cv2.rectangle(img, (r, 0), (2 * w - 1 - r, w - 1), face, -1)
    cv2.rectangle(img, (0, r), (2 * w - 1, w - 1 - r), face, -1)
    for cx, cy in ((r, r), (2 * w - 1 - r, r), (r, w - 1 - r), (2 * w - 1 - r, w - 1 - r)):
        cv2.circle(img, (cx, cy), r, face, -1, lineType=cv2.LINE_AA)
    if style.rim > 0:
        # the edge rounds off and catches less light: a darker rim, fading inwards
        inner = np.zeros((w, 2 * w), np.float32)
        pad = max(1, int(w * 0.06))
        cv2.rectangle(inner, (pad, pad), (2 * w - 1 - pad, w - 1 - pad), 1.0, -1)
        inner = np.asarray(cv2.GaussianBlur(inner, (0, 0), max(1.0, w * 0.03)), np.float32)
        shade = 1 - style.rim * (1 - inner)
        img[:, :, :3] = (img[:, :, :3].astype(np.float32) * shade[:, :, None]).astype(np.uint8)
    bar_half = int(w * rng.uniform(0.3, 0.42))
    thick = max(2, int(w * rng.uniform(0.03, 0.07)))
    cv2.rectangle(
        img, (w - thick // 2, w // 2 - bar_half), (w + thick // 2, w // 2 + bar_half), (*style.bar, 255), -1
    )
    if rng.random() < 0.3:  # an engraved bar: a lit edge beside the groove
        edge = tuple(int(min(255, c * 1.15 + 25)) for c in style.face)
        x = w + thick // 2 + 1
        cv2.line(img, (x, w // 2 - bar_half), (x, w // 2 + bar_half), (*edge, 255), max(1, thick // 2))
    if style.spinner:
        cv2.circle(img, (w, w // 2), max(2, int(w * 0.07)), (196, 160, 70, 255), -1, lineType=cv2.LINE_AA)
        cv2.circle(img, (w, w // 2), max(1, int(w * 0.03)), (240, 215, 140, 255), -1, lineType=cv2.LINE_AA)
    radius = w * rng.uniform(0.065, 0.085) * style.pip_scale
    drilled = rng.random() < 0.4
    turn = rng.uniform(0, 2 * math.pi)
    light = (math.cos(turn), math.sin(turn))
    jitter = rng.uniform(0, 0.02)
    for side, count in enumerate(halves):
        r_count = radius * (0.78 if count > 9 else 1.0) * (0.85 if count > 15 else 1.0)
        nudge = jitter
        if style.arrangement:  # a maker's tighter columns: pips small enough to stand apart
            closest = _closest(style.arrangement, count)
            r_count = min(r_count, 0.33 * w * closest)
            nudge = min(jitter, 0.1 * closest)
        colour = style.palette[count % len(style.palette)] if style.pips == "number" else style.ink
        for px, py in layout(style.arrangement, count):
            if style.quarter_turned:
                px, py = 1 - py, px
            px += rng.uniform(-nudge, nudge)
            py += rng.uniform(-nudge, nudge)
            centre = (int((side + px) * w * 16), int(py * w * 16))
            cv2.circle(img, centre, int(r_count * 16), (*colour, 255), -1, lineType=cv2.LINE_AA, shift=4)
            if drilled:
                # a drilled pip: its far wall catches the light, a crescent lighter than the ink
                lit = tuple(int(min(255, c * 0.5 + 110)) for c in colour)
                spot = (
                    centre[0] + int(r_count * 16 * 0.35 * light[0]),
                    centre[1] + int(r_count * 16 * 0.35 * light[1]),
                )
                cv2.circle(
                    img, spot, int(r_count * 16 * 0.45), (*lit, 255), -1, lineType=cv2.LINE_AA, shift=4
                )
                cv2.circle(
                    img, centre, int(r_count * 16 * 0.8), (*colour, 255), -1, lineType=cv2.LINE_AA, shift=4
                )
    _face_light(img, rng)
    return img


def _face_light(img: np.ndarray, rng: random.Random) -> None:
    """Light across a face: a gentle gradient, and now and then a glossy highlight."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = 1 + rng.uniform(0, 0.18) * ((xs / w - 0.5) * math.cos(angle) + (ys / h - 0.5) * math.sin(angle))
    rgb = img[:, :, :3].astype(np.float32) * ramp[:, :, None]
    if rng.random() < 0.3:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        spread = rng.uniform(0.1, 0.4) * w
        glare = np.exp(-((xs - cx) ** 2 + ((ys - cy) * rng.uniform(1, 3)) ** 2) / (2 * spread**2))
        rgb = rgb + glare[:, :, None] * rng.uniform(40, 140)
    img[:, :, :3] = np.clip(rgb, 0, 255).astype(np.uint8)


def _draw_back(style: Style, w: int, rng: random.Random) -> np.ndarray:
    """A face-down tile (RGBA 2w x w): the back in the face's colour, plain, with a printed
    word or a pattern of dots; no bar, no pips."""
    img = np.zeros((w, 2 * w, 4), np.uint8)
    back = style.face if rng.random() < 0.7 else tuple(rng.randint(20, 230) for _ in range(3))
    cv2.rectangle(img, (0, 0), (2 * w - 1, w - 1), (*back, 255), -1)
    ink = (50, 60, 85) if sum(back) / 3 > 120 else (220, 200, 120)
    kind = rng.random()
    if kind < 0.3:
        _name_across(img, w, ink, rng)
    elif kind < 0.5:
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, int(w * 0.4), 2)
        cv2.putText(
            img, rng.choice(["ACE", "DOM", "XO", "PUB"]), (int(w * 0.4), int(w * 0.7)),
            cv2.FONT_HERSHEY_DUPLEX, scale, (*ink, 255), max(1, w // 14), cv2.LINE_AA,
        )  # fmt: skip
    elif kind < 0.6:
        step = max(4, int(w * rng.uniform(0.15, 0.3)))
        for y in range(step // 2, w, step):
            for x in range(step // 2, 2 * w, step):
                cv2.circle(img, (x, y), max(1, step // 5), (*ink, 255), -1, lineType=cv2.LINE_AA)
    return img


def _name_across(img: np.ndarray, w: int, ink: tuple[int, int, int], rng: random.Random) -> None:
    """A maker's name printed across a back's short side with a rule under it, as many sets
    have: the rule lies across the tile off its middle, where a face has its bar, and the
    letters beside it are blobs a reader must not count as pips."""
    upright = np.ascontiguousarray(np.rot90(img))  # the tile standing: 2w high, w wide
    word = rng.choice(["RO", "ACE", "DOM", "XO", "PUB", "CLUB"])
    stroke = max(1, int(w * rng.uniform(0.05, 0.09)))
    scale = cv2.getFontScaleFromHeight(
        cv2.FONT_HERSHEY_DUPLEX, max(2, int(w * rng.uniform(0.2, 0.35))), stroke
    )
    (tw, _th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, stroke)
    scale *= min(1.0, 0.8 * w / max(tw, 1))
    (tw, _th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, stroke)
    y = int(w * rng.uniform(0.6, 0.95))  # the name's baseline, of the tile's 2w length
    cv2.putText(
        upright, word, ((w - tw) // 2, y), cv2.FONT_HERSHEY_DUPLEX, scale, (*ink, 255), stroke, cv2.LINE_AA
    )
    if rng.random() < 0.8:
        rule = max(1, int(w * rng.uniform(0.03, 0.07)))
        top = y + int(w * rng.uniform(0.25, 0.45))
        cv2.rectangle(upright, (int(w * 0.15), top), (int(w * 0.85), top + rule), (*ink, 255), -1)
    img[:] = np.rot90(upright, -1)


def _coin(w: int, rng: random.Random) -> np.ndarray:
    d = int(w * rng.uniform(0.8, 1.5))
    img = np.zeros((d, d, 4), np.uint8)
    metal = rng.choice([(190, 160, 90), (170, 170, 175), (160, 100, 60)])
    cv2.circle(img, (d // 2, d // 2), d // 2 - 1, (*metal, 255), -1, lineType=cv2.LINE_AA)
    cv2.circle(img, (d // 2, d // 2), int(d * 0.38), tuple(int(c * 0.8) for c in metal) + (255,), 2)
    return img


def _marker(w: int, rng: random.Random) -> np.ndarray:
    """A train marker or a toy: a small coloured shape with a few round details."""
    h, ln = int(w * rng.uniform(0.5, 0.9)), int(w * rng.uniform(0.9, 1.6))
    img = np.zeros((h, ln, 4), np.uint8)
    colour = tuple(rng.randint(30, 240) for _ in range(3))
    cv2.rectangle(img, (0, h // 4), (ln - 1, h - 1), (*colour, 255), -1)
    cv2.rectangle(img, (ln // 2, 0), (ln - 1, h // 2), (*colour, 255), -1)
    for x in (ln // 4, 3 * ln // 4):
        cv2.circle(img, (x, h - h // 6), max(2, h // 6), (20, 20, 20, 255), -1, lineType=cv2.LINE_AA)
    return img


def _box(w: int, rng: random.Random) -> np.ndarray:
    h, ln = int(w * rng.uniform(2, 4)), int(w * rng.uniform(3, 7))
    img = np.zeros((h, ln, 4), np.uint8)
    colour = tuple(rng.randint(20, 230) for _ in range(3))
    img[:, :] = (*colour, 255)
    cv2.rectangle(img, (3, 3), (ln - 4, h - 4), tuple(min(255, c + 40) for c in colour) + (255,), 2)
    return img


def draw_table(rng: random.Random, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table's top, H x W x 3 float32."""
    kind = kind or rng.choice(TABLES)
    nprng = np.random.default_rng(rng.randrange(1 << 30))
    colour = np.array([rng.randint(20, 230) for _ in range(3)], np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        colour = np.array([rng.randint(90, 200), rng.randint(55, 130), rng.randint(25, 70)], np.float32)
        angle = rng.uniform(0, math.pi)
        along = xs * math.cos(angle) + ys * math.sin(angle)
        across = -xs * math.sin(angle) + ys * math.cos(angle)
        wave = across + 6 * np.sin(along / rng.uniform(30, 90))
        grain = np.sin(wave / rng.uniform(2, 8)) * rng.uniform(8, 25)
        knots = np.sin(wave / rng.uniform(15, 40)) * 10
        img = colour + (grain + knots)[:, :, None] + nprng.normal(0, 4, (h, w, 1))
    elif kind == "felt":
        colour = np.array(rng.choice([(30, 110, 50), (25, 60, 120), (110, 30, 35), (40, 40, 40)]), np.float32)
        img = colour + nprng.normal(0, 9, (h, w, 1))
    elif kind == "cloth":
        period = rng.uniform(1.8, 5)
        weave = 12 * np.sin(xs / period) * np.sin(ys / period)
        img = colour * 0.6 + weave[:, :, None] + nprng.normal(0, 7, (h, w, 1))
    elif kind == "leather":
        colour = np.array([rng.randint(60, 170), rng.randint(30, 100), rng.randint(15, 60)], np.float32)
        blot = cv2.GaussianBlur(nprng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(2, 6))
        img = colour + (blot * 60)[:, :, None] + nprng.normal(0, 5, (h, w, 1))
    elif kind == "stone":
        colour = np.array([rng.randint(150, 245)] * 3, np.float32) + np.array([rng.randint(-10, 10)] * 3)
        veins = np.sin((xs * rng.uniform(0.3, 1) + ys) / rng.uniform(20, 60))
        spots = cv2.GaussianBlur(nprng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3) * 40
        img = colour - (np.abs(veins) < 0.06)[:, :, None] * rng.uniform(20, 60) + spots[:, :, None]
    elif kind == "paper":
        colour = np.array([rng.randint(215, 250)] * 3, np.float32) - np.array([0, 2, rng.randint(0, 15)])
        img = colour + nprng.normal(0, 3, (h, w, 1))
        for _ in range(rng.randint(0, 6)):  # printed lines, writing
            y = rng.randrange(h)
            cv2.line(img, (0, y), (w, y + rng.randint(-20, 20)), (120, 140, 190), 1)
    elif kind == "dots":
        # a tray or a cloth printed with dots: round marks that are no pips
        img = np.zeros((h, w, 3), np.float32) + colour + nprng.normal(0, 4, (h, w, 1))
        step = rng.uniform(8, 30)
        dot = tuple(float(c) for c in (255 - colour * rng.uniform(0.2, 1)))
        for y in np.arange(step / 2, h, step).tolist():
            for x in np.arange(step / 2 + (y / step % 2) * step / 2, w, step).tolist():
                cv2.circle(img, (int(x), int(y)), max(1, int(step * 0.18)), dot, -1, lineType=cv2.LINE_AA)
    elif kind == "black":
        img = np.zeros((h, w, 3), np.float32) + rng.randint(5, 35) + nprng.normal(0, 4, (h, w, 1))
    else:
        img = np.zeros((h, w, 3), np.float32) + colour + nprng.normal(0, 4, (h, w, 1))
    return np.asarray(np.clip(img, 0, 255), np.float32)


def _paste(canvas: np.ndarray, sprite: np.ndarray, corners: np.ndarray, shadow: float) -> None:
    """Draw the RGBA ``sprite`` onto ``canvas`` with its (0,0), (W,0), (W,H) corners at the first
    three of ``corners``, a soft shadow under it."""
    h, w = canvas.shape[:2]
    sh, sw = sprite.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0) - 8).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + 8).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([[0, 0], [sw, 0], [sw, sh]], np.float32)
    dst = (corners[:3] - np.array([x0, y0])).astype(np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    warped = cv2.warpAffine(sprite, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    region = canvas[y0:y1, x0:x1]
    if shadow > 0:
        size = max(1.0, float(np.linalg.norm(corners[1] - corners[0])) * 0.03)
        soft = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), size)
        nudge = np.array([[1, 0, size], [0, 1, size * 1.3]], np.float32)
        soft = cv2.warpAffine(soft, nudge, (x1 - x0, y1 - y0))
        region *= 1 - shadow * soft[:, :, None]
    region[:] = region * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha


def _rect(centre: tuple[float, float], length: float, width: float, angle: float) -> np.ndarray:
    """A face's corners in the order (0,0), (L,0), (L,W), (0,W) around ``centre``."""
    u = np.array([math.cos(angle), math.sin(angle)]) * length / 2
    v = np.array([-math.sin(angle), math.cos(angle)]) * width / 2
    c = np.array(centre)
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)


def _overlaps(rect: np.ndarray, placed: list[np.ndarray], slack: float) -> bool:
    centre = rect.mean(axis=0)
    grown = centre + (rect - centre) * (1 + slack)
    return any(cv2.intersectConvexConvex(grown, other)[0] > 1.0 for other in placed)


def _layout(rng: random.Random, n: int, w: float, h_img: int, w_img: int) -> list[np.ndarray]:
    """Where ``n`` tiles of width ``w`` lie: apart, in rows end to end, or in a grid."""
    kind = rng.random()
    rects: list[np.ndarray] = []
    if kind < 0.25 and n > 1:  # a grid: side by side and end to end
        cols = max(1, math.ceil(math.sqrt(n * 2)))
        angle = rng.uniform(0, math.pi)
        gap = rng.uniform(0, 0.15) * w
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        centre = np.array([rng.uniform(0.3, 0.7) * w_img, rng.uniform(0.3, 0.7) * h_img])
        rows = math.ceil(n / cols)
        for i in range(n):
            row, col = divmod(i, cols)
            at = centre + u * (row - (rows - 1) / 2) * (2 * w + gap) + v * (col - (cols - 1) / 2) * (w + gap)
            rects.append(_rect((float(at[0]), float(at[1])), 2 * w, w, angle))
        return rects
    if kind < 0.5 and n > 1:  # a line of play: end to end, bending now and then
        angle = rng.uniform(0, 2 * math.pi)
        at = np.array([rng.uniform(0.15, 0.85) * w_img, rng.uniform(0.15, 0.85) * h_img])
        for _ in range(n):
            rects.append(_rect((float(at[0]), float(at[1])), 2 * w, w, angle))
            step = 2 * w + rng.uniform(0, 0.2) * w
            if rng.random() < 0.15:  # a double across the line, or a turn
                angle += rng.choice((math.pi / 2, -math.pi / 2))
                step = 1.5 * w + rng.uniform(0, 0.2) * w
            at = at + np.array([math.cos(angle), math.sin(angle)]) * step
        return rects
    for _ in range(n):  # apart, at any angle
        for _attempt in range(30):
            rect = _rect(
                (rng.uniform(-0.05, 1.05) * w_img, rng.uniform(-0.05, 1.05) * h_img),
                2 * w,
                w,
                rng.uniform(0, 2 * math.pi),
            )
            if not _overlaps(rect, rects, rng.uniform(0.02, 0.3)):
                rects.append(rect)
                break
    return rects


def _in_photo(rect: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The corners ``rect`` on the drawn table, in the photo's pixels (the view's ``matrix``)."""
    return cv2.perspectiveTransform(rect.reshape(-1, 1, 2), matrix).reshape(-1, 2).astype(np.float32)


def visible_share(rect: np.ndarray, h: int, w: int) -> float:
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inside, _ = cv2.intersectConvexConvex(rect, frame)
    return float(inside) / max(1e-6, float(cv2.contourArea(rect)))


def _view(
    canvas: np.ndarray, bare_table: np.ndarray, matrix: np.ndarray, size: tuple[int, int]
) -> np.ndarray:
    """The photo the camera ``matrix`` takes of ``canvas``. A turned or tilted view may reach
    beyond the drawn table: there it shows the bare table, mirrored on. (Mirroring the whole
    canvas would mirror the tiles near its edge too: whole tiles on the photo that no label
    lists, which taught the finder that a tile can be the table.)"""
    drawn = cv2.warpPerspective(canvas, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    inside = cv2.warpPerspective(
        np.ones(canvas.shape[:2], np.float32),
        matrix,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
    )[:, :, None]
    if inside.min() >= 1.0:
        return drawn
    beyond = cv2.warpPerspective(
        bare_table, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    # the drawn canvas fades to black at its edge as ``inside`` fades to 0: laid over the rest
    return np.clip(drawn.astype(np.float32) + (1 - inside) * beyond, 0, 255).astype(np.uint8)


# The camera: a pinhole held above the table's near side and tilted towards its far side,
# from looking straight down to STEEPEST. Until 2026-11-28 the scenes narrowed the photo's far
# side (a keystone) without shortening the table along the view, so a tile lying along the
# view was never drawn under 1.5 times as long as wide, where a camera 60° from straight down
# halves its 2:1 (cos 60°) and shows the side of the tile that faces it. The tilt a scene
# draws (0 to MOST_TILT, as before) is the camera's angle over 0 to STEEPEST.
STEEPEST = math.radians(62)
MOST_TILT = 0.45
_SIDE_FROM = math.radians(10)  # steeper than this, a thick tile shows its near side


@dataclass(frozen=True, slots=True)
class _Camera:
    angle: float  # from looking straight down, in radians
    distance: float  # from the table's centre, in the drawn table's pixels (the focal length too)
    side: tuple[float, float]  # a tile's side seen: its depth (a share of the tile's width), its direction

    @staticmethod
    def drawn(tilt: float, seed: int, longer: int, steepest: float = STEEPEST) -> _Camera:
        """The camera of a scene that drew ``tilt`` (0 to MOST_TILT: 0 to ``steepest``); drawn from
        a generator of its own, so a scene's tiles, table and light stay as the seed drew them."""
        rng = random.Random(seed ^ 0x7C1A2E)
        angle = tilt / MOST_TILT * steepest
        distance = longer * rng.uniform(0.9, 1.8)  # a phone's wide lens to a long one
        depth = rng.uniform(0.2, 0.45) * math.tan(angle)  # a tile is 0.2-0.45 of its width thick
        return _Camera(angle, distance, (min(1.2, depth), math.pi / 2 + rng.uniform(-0.25, 0.25)))

    def project(self, points: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """``points`` of the table (``size`` wide and high) as the camera sees them, the table's
        centre staying where it is: across the view at scale 1 there, along it cos(angle), the
        near side (down the table) larger, the far side smaller."""
        centre = np.array(size, np.float32) / 2
        x, y = (np.asarray(points, np.float32) - centre).T
        depth = self.distance - math.sin(self.angle) * y
        seen = np.stack([x, math.cos(self.angle) * y], 1) * (self.distance / depth)[:, None]
        return np.asarray(seen + centre, np.float32)


def draw_scene(
    seed: int,
    size: tuple[int, int] = (640, 480),
    highest: int | None = None,
    count: int | None = None,
    pips: str | None = None,
    easy: bool = False,
    tile_width: tuple[float, float] | None = None,
    steepest: float = STEEPEST,
) -> Scene:
    """A scene drawn from ``seed`` at ``size`` (width, height). ``highest`` the set's highest
    number (drawn from 6 to 18 when None); ``count`` face-up tiles (1 to 12 when None);
    ``pips`` forces a style (see ``draw_style``); ``easy`` keeps the camera top-down, the light
    even and the photo sharp; ``tile_width`` the range of a tile's width as a share of the
    photo's shorter side (on the table: a view from the side shows the far ones smaller);
    ``steepest`` the camera's greatest angle from looking straight down."""
    rng = random.Random(seed)
    if highest is None:
        highest = rng.choice((6, 6, 9, 12, 12, 15, 18))
    w_img, h_img = size
    # the camera: the table is drawn flat, larger than the photo, then projected
    tilt = 0.0 if easy else rng.choice((0.0, 0.0, rng.uniform(0, 0.25), rng.uniform(0.2, MOST_TILT)))
    margin = 0.35
    big_w, big_h = int(w_img * (1 + margin)), int(h_img * (1 + margin))
    canvas = draw_table(rng, big_h, big_w)
    bare_table = canvas.copy()  # what the view shows beyond the drawn table (below)
    n = count if count is not None else rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 10, 12))
    low, high = tile_width or (0.03 if n > 6 else 0.06, 0.25 if n < 4 else 0.16 if n < 8 else 0.12)
    w = min(w_img, h_img) * rng.uniform(low, high)
    style = draw_style(rng, highest, pips)
    off = np.array([w_img * margin / 2, h_img * margin / 2])
    rects = [r + off.astype(np.float32) for r in _layout(rng, n, w, h_img, w_img)]
    placed: list[np.ndarray] = list(rects)
    # what lies beside the tiles: face-down tiles, coins, markers, boxes
    clutter = (
        []
        if easy
        else [
            rng.choice(("back", "back", "coin", "marker", "box")) for _ in range(rng.choice((0, 0, 1, 2, 4)))
        ]
    )
    shadow = rng.uniform(0.2, 0.6)
    backs: list[np.ndarray] = []
    for thing in clutter:
        sprite = (
            _draw_back(style, max(4, int(w)), rng)
            if thing == "back"
            else _coin(int(w), rng)
            if thing == "coin"
            else _marker(int(w), rng)
            if thing == "marker"
            else _box(int(w), rng)
        )
        sh, sw = sprite.shape[:2]
        for _attempt in range(20):
            rect = _rect(
                (rng.uniform(0, big_w), rng.uniform(0, big_h)), sw * (1 if thing != "back" else 2 * w / sw),
                sh * (1 if thing != "back" else w / sh), rng.uniform(0, 2 * math.pi),
            )  # fmt: skip
            if not _overlaps(rect, placed, 0.05):
                _paste(canvas, sprite, rect, shadow)
                placed.append(rect)
                if thing == "back":
                    backs.append(rect)
                break
    tiles: list[tuple[np.ndarray, tuple[int, int]]] = []
    scale = 2 if w < 40 else 1  # small faces drawn larger, then reduced: smooth pips
    thick = 0.0 if easy or rng.random() < 0.35 else rng.uniform(0.05, 0.35)
    side_dir = rng.uniform(0, 2 * math.pi)
    camera = _Camera.drawn(tilt, seed, max(big_w, big_h), steepest)
    if thick > 0 and camera.angle > _SIDE_FROM:
        # seen from the side, a tile shows the side facing the camera (the near one, below
        # its face in the photo), as deep as its thickness times tan(angle) on the table
        thick, side_dir = camera.side
    faces_on_top: list[tuple[np.ndarray, np.ndarray]] = []
    for rect in rects:
        halves = (rng.randint(0, highest), rng.randint(0, highest))
        if rng.random() < 0.15:
            halves = (halves[0], halves[0])  # doubles are common at a table
        face = draw_face(halves, style, max(8, int(w * scale)), rng)
        if thick > 0:
            # the tile's thickness seen from the side: a shaded copy of its outline beside it
            shift = np.array([math.cos(side_dir), math.sin(side_dir)], np.float32) * w * thick
            body = np.zeros_like(face)
            body[:, :, 3] = face[:, :, 3]
            body[:, :, :3] = (np.array(style.face) * rng.uniform(0.5, 0.8)).astype(np.uint8)
            # the tile's body: its outline swept from the face to the shift (a prism, not
            # a second tile beside it, however deep the side)
            steps = max(1, math.ceil(thick / 0.15))  # a copy every 0.15 of the tile's width
            for step in range(steps, 0, -1):
                _paste(canvas, body, rect + shift * step / steps, shadow if step == steps else 0.0)
            # every face lies on the tiles' top, above every tile's side: no side, however
            # deep, hides a face beside it (until 2026-12-03 a tile's side was drawn over the
            # face of the tile next to it in a row, hiding pips its label listed)
            faces_on_top.append((face, rect))
        else:
            _paste(canvas, face, rect, shadow)
        tiles.append((rect, halves))
    for face, rect in faces_on_top:
        _paste(canvas, face, rect, 0.0)
    # the camera: rotation, perspective (a side view foreshortens the far side), the frame
    src = np.array([[0, 0], [big_w, 0], [big_w, big_h], [0, big_h]], np.float32)
    dst = camera.project(src, (big_w, big_h))
    jitter = 0.04 * min(big_w, big_h)
    dst = dst + np.array(
        [[rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)] for _ in range(4)], np.float32
    )
    # then the view is centred on the tiles' part of the table and cropped to the photo
    persp = cv2.getPerspectiveTransform(src, dst)
    spin = rng.uniform(-180, 180) if not easy else rng.choice((0.0, 90.0, 180.0, -90.0))
    centre = cv2.perspectiveTransform(np.array([[[big_w / 2, big_h / 2]]], np.float32), persp)[0, 0]
    rot = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), spin, 1.0)
    rot = np.vstack([rot, [0, 0, 1]])
    # zoom so that the foreshortened scene still fills the photo
    zoom = 1 / (1 - tilt * 0.6)
    shift = np.array(
        [[zoom, 0, w_img / 2 - zoom * centre[0]], [0, zoom, h_img / 2 - zoom * centre[1]], [0, 0, 1]]
    )
    matrix = shift @ rot @ persp
    rgb = _view(canvas, bare_table, matrix, (w_img, h_img))
    scene_tiles = []
    for rect, halves in tiles:
        corners = _in_photo(rect, matrix)
        # a tile is cut by the photo's frame, or by the edge of the table drawn (beyond which
        # the view shows the bare table): the share of its face left is the lesser of the two
        visible = min(visible_share(corners, h_img, w_img), visible_share(rect, big_h, big_w))
        scene_tiles.append(SceneTile(corners, halves, visible))
    rgb = _light(rgb, rng, easy)
    # blur, noise
    if not easy:
        blur = rng.choice((0.0, rng.uniform(0.3, 1.2), rng.uniform(0.8, 2.2)))
        if blur > 0.2:
            rgb = cv2.GaussianBlur(rgb, (0, 0), blur)
        if rng.random() < 0.15:  # a shaken hand: motion blur
            k = rng.randint(3, 7)
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1 / k
            rot_k = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
            kernel = np.asarray(cv2.warpAffine(kernel, rot_k, (k, k)), np.float32)
            rgb = cv2.filter2D(rgb, -1, kernel / max(1e-6, kernel.sum()))
    noise = np.random.default_rng(seed).normal(0, rng.uniform(0.5, 2 if easy else 8), rgb.shape[:2] + (1,))
    rgb = rgb + noise.astype(np.float32)
    if not easy:
        rgb = _camera(rgb, seed)
    rgb = np.clip(rgb, 0, 255).astype(np.uint8)
    quality = rng.randint(85, 95) if easy else rng.randint(35, 95)
    return Scene(rgb, scene_tiles, quality, [_in_photo(rect, matrix) for rect in backs])


def _light(rgb: np.ndarray, rng: random.Random, easy: bool) -> np.ndarray:
    """The room's light: brightness, a colour cast (warm lamp, cool daylight), light falling off
    to one side, a shadow across the table."""
    h, w = rgb.shape[:2]
    if easy:
        return rgb * rng.uniform(0.95, 1.05)
    gain = rng.choice((rng.uniform(0.35, 0.7), rng.uniform(0.7, 1.15), rng.uniform(0.9, 1.3)))
    cast = np.array(
        rng.choice(((1, 1, 1), (1.12, 1.0, 0.78), (0.85, 0.95, 1.15), (1.05, 1.0, 0.9), (0.95, 1.0, 1.05)))
    ) * np.array([rng.uniform(0.95, 1.05) for _ in range(3)])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((xs / w - 0.5) * math.cos(angle) + (ys / h - 0.5) * math.sin(angle)) * rng.uniform(0, 0.9)
    light = gain * (1 + ramp)
    if rng.random() < 0.3:  # a shadow across the table: a hand, a cup, the phone
        mask = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h] for _ in range(4)], np.int32)
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 0.05 * max(h, w))), np.float32)
        light = light * (1 - rng.uniform(0.3, 0.6) * mask)
    return np.asarray(rgb * light[:, :, None] * cast[None, None, :], np.float32)


def _camera(rgb: np.ndarray, seed: int) -> np.ndarray:
    """What a phone's camera does to a photo after the light: a tone curve (brighter shadows
    or deeper ones, more contrast), colours more or less saturated, the corners darker
    (vignetting), colour noise in blotches (the sensor's, smoothed), and sharpening, which
    rings bright and dark around every edge and pip and sharpens the noise with them.
    Drawn from a generator of its own, so a scene's tiles, table and light stay as the seed
    drew them before this step was added."""
    rng = random.Random(seed ^ 0x5CA3E7A)
    h, w = rgb.shape[:2]
    out = np.clip(rgb, 0, 255).astype(np.float32)
    if rng.random() < 0.4:  # the tone curve: a gamma, then an S-curve of some strength
        x = (out / 255.0) ** rng.uniform(0.7, 1.4)
        bend = rng.uniform(0.0, 0.6)
        out = 255.0 * (x + bend * (x - 0.5) * (1 - np.abs(2 * x - 1)))
    if rng.random() < 0.4:  # saturation: washed out to vivid
        grey = out.mean(axis=2, keepdims=True)
        out = grey + (out - grey) * rng.uniform(0.5, 1.6)
    if rng.random() < 0.3:  # vignetting
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        radius = ((xs / w - 0.5) ** 2 + (ys / h - 0.5) ** 2) / 0.5
        out = out * (1 - rng.uniform(0.1, 0.45) * radius)[:, :, None]
    if rng.random() < 0.3:  # colour noise: blotches a few pixels wide, in each channel apart
        cell = rng.randint(2, 6)
        small = np.random.default_rng(seed ^ 0xC0105).normal(
            0, rng.uniform(2, 8), (h // cell + 1, w // cell + 1, 3)
        )
        out = out + cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.45:  # sharpening (an unsharp mask), as most phones apply it
        sigma = rng.uniform(0.8, 2.5)
        out = out + rng.uniform(0.3, 1.5) * (out - cv2.GaussianBlur(out, (0, 0), sigma))
    return np.asarray(out, np.float32)


def encode(scene: Scene) -> bytes:
    out = io.BytesIO()
    Image.fromarray(scene.rgb).save(out, format="JPEG", quality=scene.quality)
    return out.getvalue()


def labelled(scene: Scene) -> list[SceneTile]:
    """The tiles a person would list: face up with (nearly) all of the face in the photo."""
    return [tile for tile in scene.tiles if tile.visible >= 0.95]


Box = tuple[int, int, int, int]


def make_photo(
    seed: int,
    size: tuple[int, int] = (960, 720),
    highest: int | None = 12,
    count: int | None = None,
    pips: str | None = None,
    easy: bool = False,
    cut_by_frame: list[tuple[Tile, Box]] | None = None,
) -> tuple[bytes, list[Tile], list[Box]]:
    """A JPEG photo, its tiles and their boxes (x, y, w, h), all from ``seed``. Photos larger
    than 1600 px are drawn at 1600 and enlarged (a 12 MP scene takes seconds otherwise).
    ``cut_by_frame``, when given, gets the tiles no label lists as they are cut by the frame
    (5 to 95 % of the face in the photo), with their boxes."""
    shrink = min(1.0, 1600 / max(size))
    drawn = (max(1, round(size[0] * shrink)), max(1, round(size[1] * shrink)))
    scene = draw_scene(seed, drawn, highest, count, pips, easy)
    if shrink < 1.0:
        scene.rgb = cv2.resize(scene.rgb, size, interpolation=cv2.INTER_LINEAR)
        scene.tiles = [SceneTile(t.corners / shrink, t.halves, t.visible) for t in scene.tiles]

    def box(tile: SceneTile) -> Box:
        x0, y0 = np.maximum(tile.corners.min(axis=0), 0)
        x1, y1 = np.minimum(tile.corners.max(axis=0), size)
        return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))

    tiles = labelled(scene)
    if cut_by_frame is not None:
        cut_by_frame.extend((t.tile, box(t)) for t in scene.tiles if 0.05 < t.visible < 0.95)
    return encode(scene), [t.tile for t in tiles], [box(t) for t in tiles]


def write_set(
    folder: Path,
    count: int,
    seed: int = 0,
    size: tuple[int, int] = (960, 720),
    highest: int | None = None,
    other_makers: bool = False,
    made_up_makers: bool = False,
    coloured_pips: bool = False,
) -> Path:
    """Write ``count`` photos and their ``labels.json`` into ``folder``; returns the labels' path.
    ``highest`` None draws each photo's set (double-6 to double-18); ``other_makers`` prints
    half the sets in other makers' arrangements, as ``--other-makers`` trains on, and
    ``made_up_makers`` half of those by made-up makers (``--made-up-makers``);
    ``coloured_pips`` some sets' pips in a colour apart from the face's (``--coloured-pips``).
    Each share not asked for is as it is (0 unless a training asked for more)."""
    with ExitStack() as asked:
        if other_makers:
            asked.enter_context(other_makers_share(True, made_up_makers))
        if coloured_pips:
            asked.enter_context(coloured_pips_share(True))
        return _write_set(folder, count, seed, size, highest)


def _write_set(folder: Path, count: int, seed: int, size: tuple[int, int], highest: int | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for i in range(count):
        photo_seed = seed * 100_003 + i
        set_of = (
            highest if highest is not None else random.Random(photo_seed * 31 + 7).choice((6, 9, 12, 15, 18))
        )
        cut: list[tuple[Tile, Box]] = []
        data, tiles, boxes = make_photo(photo_seed, size=size, highest=set_of, cut_by_frame=cut)
        name = f"synthetic_{seed}_{i:04d}.jpg"
        (folder / name).write_bytes(data)
        photos.append(
            {
                "file": name,
                "source": f"referee.vision.synthetic seed={photo_seed}",
                "set_hint": f"double-{set_of}, synthetic",
                "tiles": [str(t) for t in tiles],
                "total_pips": sum(t.pips for t in tiles),
                "notes": "",
                "uncertain": False,
                "image_size": list(size),
                "boxes": [list(b) for b in boxes],
                # tiles cut by the frame: a reading of one, right, is neither right nor wrong
                "cut_by_frame": [{"tile": str(t), "box": list(b)} for t, b in cut],
            }
        )
    path = folder / "labels.json"
    path.write_text(json.dumps({"photos": photos}, indent=1))
    return path


__all__ = ["LAYOUTS", "Scene", "SceneTile", "draw_scene", "encode", "labelled", "make_photo", "write_set"]
