"""Synthetic labelled photos of domino tiles, for the tests and the benchmark only.

The reading never imports this module. ``make_photo(seed)`` draws tiles of random styles
(white or ivory faces with black or per-number coloured pips, black faces with white pips)
at random places and angles on a cloth, wood or felt background, then applies a random
perspective, uneven lighting, blur, noise and JPEG compression. The labels are exact.
``write_set(folder, count, seed)`` writes a folder with a ``labels.json`` in the format of
the real photos' labels (plus ``boxes``).
"""

from __future__ import annotations

import io
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

from referee.tiles import Tile
from referee.vision.scenes import LAYOUTS, NUMBER_COLOURS

# the pips' layouts and the colours per number, shared with the learned reader's scenes (the
# layouts and colours up to 15 are those these photos were always drawn with)
_LAYOUT = LAYOUTS
_COLOURS = NUMBER_COLOURS


@dataclass(frozen=True, slots=True)
class Style:
    face: tuple[int, int, int]
    pips: str  # "black", "colour" or "white"
    bar: tuple[int, int, int]


def _style(rng: random.Random, pips: str | None = None) -> Style:
    kind = rng.random()
    if pips == "white" or (pips is None and kind < 0.15):
        return Style((25, 25, 28), "white", (235, 235, 235))
    ivory = rng.random() < 0.4
    face = (240, 230, 200) if ivory else (245, 245, 242)
    if pips is None:
        pips = "colour" if rng.random() < 0.5 else "black"
    return Style(face, pips, (20, 20, 20))


def _draw_tile(
    tile: tuple[int, int], style: Style, w: int, rng: random.Random, pip_scale: float = 1.0
) -> np.ndarray:
    """The tile's face as an RGBA image of 2w x w, halves side by side; ``pip_scale`` draws
    the pips up to nine that much larger (sets differ: in some the pips of a nine nearly
    touch)."""
    img = np.zeros((w, 2 * w, 4), np.uint8)
    r = max(2, w // 9)
    cv2.rectangle(img, (r, 0), (2 * w - 1 - r, w - 1), (*style.face, 255), -1)
    cv2.rectangle(img, (0, r), (2 * w - 1, w - 1 - r), (*style.face, 255), -1)
    for cx, cy in ((r, r), (2 * w - 1 - r, r), (r, w - 1 - r), (2 * w - 1 - r, w - 1 - r)):
        cv2.circle(img, (cx, cy), r, (*style.face, 255), -1, lineType=cv2.LINE_AA)
    bar_half = int(w * rng.uniform(0.36, 0.41))
    thick = max(2, int(w * rng.uniform(0.035, 0.06)))
    cv2.rectangle(
        img, (w - thick // 2, w // 2 - bar_half), (w + thick // 2, w // 2 + bar_half), (*style.bar, 255), -1
    )
    radius = w * rng.uniform(0.075, 0.09) * pip_scale
    for side, count in enumerate(tile):
        # the halves above nine fit more pips in with smaller ones, whatever the set's size
        count_r = radius / pip_scale * 0.85 if count > 9 else radius
        for px, py in _LAYOUT[count]:
            if style.pips == "white":
                colour = (240, 240, 240)
            elif style.pips == "colour":
                colour = _COLOURS[count % len(_COLOURS)]
            else:
                colour = (15, 15, 15)
            centre = (int((side + px) * w * 16), int(py * w * 16))
            cv2.circle(img, centre, int(count_r * 16), (*colour, 255), -1, lineType=cv2.LINE_AA, shift=4)
    return img


def _draw_back(style: Style, w: int, rng: random.Random) -> np.ndarray:
    """A face-down tile (2w x w, RGBA): the back in the face's colour with a maker's name
    printed across it and a rule under the name, as many sets have; no bar, no pips."""
    img = np.zeros((w, 2 * w, 4), np.uint8)
    r = max(2, w // 9)
    cv2.rectangle(img, (r, 0), (2 * w - 1 - r, w - 1), (*style.face, 255), -1)
    cv2.rectangle(img, (0, r), (2 * w - 1, w - 1 - r), (*style.face, 255), -1)
    for cx, cy in ((r, r), (2 * w - 1 - r, r), (r, w - 1 - r), (2 * w - 1 - r, w - 1 - r)):
        cv2.circle(img, (cx, cy), r, (*style.face, 255), -1, lineType=cv2.LINE_AA)
    ink = (50, 60, 85) if style.pips != "white" else (220, 200, 120)
    # the name reads across the tile's short side: drawn on the tile turned upright
    upright = np.ascontiguousarray(np.rot90(img))
    word = rng.choice(["RO", "ACE", "DOM", "XO"])
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, int(w * 0.3), int(w * 0.07))
    (tw, _th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(w * 0.07)))
    scale *= min(1.0, 0.8 * w / max(tw, 1))
    (tw, _th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(w * 0.07)))
    y = int(w * rng.uniform(0.75, 0.9))  # the name's baseline, of the tile's 2w length
    cv2.putText(
        upright, word, ((w - tw) // 2, y), cv2.FONT_HERSHEY_DUPLEX, scale, (*ink, 255),
        max(1, int(w * 0.07)), cv2.LINE_AA,
    )  # fmt: skip
    # the rule under the name lies off the tile's middle (a third of the way from one end
    # of the name's half), where a face has its bar: a reader must not take it for one
    rule = int(w * 0.04) + 1
    top = y + int(w * rng.uniform(0.35, 0.45))
    cv2.rectangle(upright, (int(w * 0.15), top), (int(w * 0.85), top + rule), (*ink, 255), -1)
    return np.ascontiguousarray(np.rot90(upright, -1))


def _background(rng: random.Random, h: int, w: int, table: str | None = None) -> np.ndarray:
    kind = rng.choice(["cloth", "wood", "felt", "plain"])
    nprng = np.random.default_rng(rng.randrange(1 << 30))
    if table is not None:
        kind = table
    if kind == "white":
        # a plain white table as light as white faces, lit a little unevenly, with a faint
        # warm cast: tiles on it show only by their thin shaded outline
        base = np.array([rng.randint(232, 246)] * 3, np.float32) + np.array([2, -1, -4], np.float32)
        shade = np.linspace(-1, 1, w)[None, :] * rng.uniform(-6, 6) + np.linspace(-1, 1, h)[
            :, None
        ] * rng.uniform(-6, 6)
        img = base[None, None, :] + shade[:, :, None] + nprng.normal(0, 2, (h, w, 1))
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == "marble":
        # a white, faintly veined stone table, as light as the tiles or lighter
        base = np.array([rng.randint(225, 245)] * 3, np.float32) + np.array([-6, 0, 4], np.float32)
        veins = np.sin((np.arange(w)[None, :] * 0.7 + np.arange(h)[:, None]) / rng.uniform(30, 60))
        # (its type said here: numpy's types lose it in the arithmetic of the veins)
        stone: npt.NDArray[np.floating[Any]] = base[None, None, :] - (np.abs(veins) < 0.05)[:, :, None] * 40
        stone = stone + nprng.normal(0, 3, (h, w, 1))
        return np.clip(stone, 0, 255).astype(np.uint8)
    if kind == "wood":
        base = np.array([rng.randint(110, 170), rng.randint(70, 110), rng.randint(30, 60)], np.float32)
        ys = np.arange(h)[:, None] + 8 * np.sin(np.arange(w)[None, :] / rng.uniform(40, 90))
        grain = np.sin(ys / rng.uniform(3, 9)) * 18 + nprng.normal(0, 6, (h, w))
        img = base[None, None, :] + grain[:, :, None]
    elif kind == "felt":
        base = np.array(rng.choice([(30, 110, 50), (25, 60, 120), (110, 30, 35)]), np.float32)
        img = base[None, None, :] + nprng.normal(0, 10, (h, w, 1))
    elif kind == "cloth":
        base = np.array([rng.randint(30, 90)] * 3, np.float32) + np.array(
            [rng.randint(-15, 15) for _ in range(3)]
        )
        weave = 14 * np.sin((np.arange(w)[None, :] + np.arange(h)[:, None]) / 2.2)
        img = base[None, None, :] + weave[:, :, None] + nprng.normal(0, 8, (h, w, 1))
    else:
        grey = rng.randint(60, 200)
        img = np.full((h, w, 3), grey, np.float32) + nprng.normal(0, 4, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


def _place(
    rng: random.Random,
    size: tuple[int, int],
    w: int,
    placed: list[np.ndarray],
    touch: bool = False,
    margin: float = 0.0,
) -> np.ndarray | None:
    h_img, w_img = size
    if touch and placed:
        # end to end with a tile already down, a seam of a pixel or two between them
        for _ in range(20):
            other = rng.choice(placed)
            (ox, oy), (ow, oh), angle = cv2.minAreaRect(other)
            axis = np.radians(angle if ow >= oh else angle + 90)
            gap = 2 * w + rng.uniform(1, 3)
            sign = rng.choice((1, -1))
            cx, cy = ox + sign * gap * np.cos(axis), oy + sign * gap * np.sin(axis)
            if not (w * 1.1 <= cx <= w_img - w * 1.1 and w * 1.1 <= cy <= h_img - w * 1.1):
                continue
            rect = cv2.boxPoints(((cx, cy), (2 * w, w), np.degrees(axis))).astype(np.float32)
            if all(cv2.intersectConvexConvex(rect, o)[0] <= 0.02 * w * w for o in placed):
                return rect
    for _ in range(60):
        angle = rng.uniform(0, 360)
        cx = rng.uniform(w * 1.1, w_img - w * 1.1)
        cy = rng.uniform(w * 1.1, h_img - w * 1.1)
        rect = cv2.boxPoints(((cx, cy), (2 * w, w), angle)).astype(np.float32)
        grown = cv2.boxPoints(((cx, cy), (2 * w + 4 + margin, w + 4 + margin), angle)).astype(np.float32)
        if all(cv2.intersectConvexConvex(grown, other)[0] <= 0 for other in placed):
            return rect
    return None


def _grid(rng: random.Random, size: tuple[int, int], w: int, n: int) -> list[np.ndarray] | None:
    """Boxes of ``n`` tiles laid in a grid, all parallel, touching side by side and end to
    end with no seam (the way a hand is often laid out for a photo), or None when the grid
    does not fit the photo at any angle tried."""
    h_img, w_img = size
    cols = max(1, math.ceil(math.sqrt(n * 2)))  # side by side across the tiles' short sides
    rows = math.ceil(n / cols)  # and rows laid end to end
    for _ in range(30):
        angle = rng.uniform(0, 180)
        u = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])  # long axis
        v = np.array([-u[1], u[0]])
        gap = rng.uniform(0.0, 0.6)  # at most a fraction of a pixel: no table shows between
        span_u, span_v = rows * (2 * w + gap), cols * (w + gap)
        extent = np.abs(u) * span_u + np.abs(v) * span_v
        if extent[0] > w_img - 0.2 * w or extent[1] > h_img - 0.2 * w:
            continue
        centre = np.array(
            [
                rng.uniform(extent[0] / 2 + 0.1 * w, w_img - extent[0] / 2 - 0.1 * w),
                rng.uniform(extent[1] / 2 + 0.1 * w, h_img - extent[1] / 2 - 0.1 * w),
            ]
        )
        rects = []
        for i in range(n):
            row, col = divmod(i, cols)
            at = (
                centre
                + u * ((row - (rows - 1) / 2) * (2 * w + gap))
                + v * ((col - (cols - 1) / 2) * (w + gap))
            )
            rects.append(cv2.boxPoints(((float(at[0]), float(at[1])), (2 * w, w), angle)).astype(np.float32))
        return rects
    return None


def make_photo(
    seed: int,
    size: tuple[int, int] = (960, 720),
    highest: int = 12,
    count: int | None = None,
    pips: str | None = None,
    easy: bool = False,
    backs: int = 0,
    touching: int = 0,
    tilt: float = 0.0,
    table: str | None = None,
    thick: float = 0.0,
    grid: bool = False,
    falloff: float = 0.0,
) -> tuple[bytes, list[Tile], list[tuple[int, int, int, int]]]:
    """A JPEG photo, its tiles and their boxes (x, y, w, h), all from ``seed``.

    ``pips`` forces the style ("black", "colour" or "white": white pips on black tiles);
    ``easy`` leaves out the blur and keeps the noise low. ``backs`` face-down tiles with a
    maker's name printed on their backs are laid among the tiles (not in the labels);
    ``touching`` of the tiles are laid end to end with another; ``tilt`` (0 to about 0.35)
    views the table from the side: the far edge of the photo is that share narrower and the
    table is foreshortened, so tiles far away are smaller and their faces sheared. ``table``
    forces the background ("cloth", "wood", "felt", "plain", "marble": a white stone table
    as light as the tiles, or "white": a plain white table as light as white faces).
    ``grid`` lays the tiles in a grid, parallel and touching side by side and end to end with
    no seam, half of their halves dense (within four of ``highest``) and the pips of halves
    up to nine up to a fifth larger; the face-down backs are laid apart. ``thick`` (0 to
    about 0.45) draws thick tiles seen from a low angle: each tile shows two of its sides (a
    long one and an end), of the face's colour but shaded (or, on a side facing the light,
    brighter), that share of the tile's width deep, beside the face; the table is then also
    foreshortened across (the photo's rows squeezed), so a tile's width and length shrink by
    its orientation. ``falloff`` (0 to about 0.4) lets the light fall off along each tile's
    face, from one end to the other by that share (a lamp low over the table, a face seen at
    a grazing angle): the face darkens gradually, with no edge."""
    rng = random.Random(seed)
    extra = random.Random(seed * 7919 + 17)  # the options' draws leave the photo's own alone
    # a large photo is drawn at most 1600 px wide and enlarged before the noise is added
    # (drawing 12 MP directly takes a minute a photo)
    shrink = min(1.0, 1600 / max(size))
    w_img, h_img = max(1, round(size[0] * shrink)), max(1, round(size[1] * shrink))
    sides = _Sides(seed, thick) if thick > 0 else None
    # a low camera sees a longer stretch of table, squeezed into the photo's rows
    h_draw = h_img if sides is None else round(h_img / sides.squeeze)
    canvas: np.ndarray[Any, Any] = _background(rng, h_draw, w_img, table).astype(np.float32)
    n = count if count is not None else rng.randint(1, 7)
    w = int(min(w_img, h_img) * rng.uniform(0.09, 0.14))
    style = _style(rng, pips)
    placed: list[np.ndarray] = []
    tiles: list[Tile] = []
    labelled: list[np.ndarray] = []
    margin = 2 * thick * w if sides is not None else 0.0
    faces: list[np.ndarray] = []
    laid = _grid(extra, (h_draw, w_img), w, n) if grid and n > 0 else None
    fades = random.Random(seed * 6151 + 29)  # which end of each tile the light falls off to
    pip_scale = extra.uniform(1.0, 1.2) if laid is not None else 1.0
    for i in range(n + backs):
        back = i >= n
        if laid is not None and not back:
            rect: np.ndarray | None = laid[i]
        else:
            rect = _place(
                rng if not back else extra, (h_draw, w_img), w, placed, touch=0 < i <= touching, margin=margin
            )
        if rect is None:
            continue
        if back:
            face = _draw_back(style, w * 2, extra)
        else:
            halves = (rng.randint(0, highest), rng.randint(0, highest))
            if laid is not None:
                # dense halves, whose rows of pips nearly touch, half of the time
                dense = [extra.randint(max(0, highest - 4), highest) for _ in halves]
                halves = (
                    dense[0] if extra.random() < 0.5 else halves[0],
                    dense[1] if extra.random() < 0.5 else halves[1],
                )
            face = _draw_tile(halves, style, w * 2, rng, pip_scale)  # drawn at twice the size, then reduced
            if falloff > 0:
                face = _fade(face, falloff, fades.random() < 0.5)
        src = np.array([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]]], np.float32)
        matrix = cv2.getAffineTransform(src, _corners(rect))
        warped = cv2.warpAffine(face, matrix, (w_img, h_draw), flags=cv2.INTER_AREA)
        alpha = warped[:, :, 3:4].astype(np.float32) / 255
        footprint = alpha
        if sides is not None:
            layer = sides.draw(rect, style.face, w, (h_draw, w_img))
            footprint = np.maximum(alpha, layer[:, :, 3:4] / 255)
        shadow = cv2.GaussianBlur(footprint, (0, 0), w * 0.06)
        shift = np.array([[1, 0, w * 0.04], [0, 1, w * 0.05]], np.float32)
        shadow = cv2.warpAffine(shadow, shift, (w_img, h_draw))[:, :, None] if shadow.ndim == 2 else shadow
        canvas *= 1 - 0.45 * shadow
        if sides is None:
            canvas = canvas * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        else:
            side_alpha = layer[:, :, 3:4] / 255
            canvas = canvas * (1 - side_alpha) + layer[:, :, :3] * side_alpha
            faces.append(warped)  # faces go over every tile's sides (a neighbour end to end hides an end)
        placed.append(rect)
        if not back:
            labelled.append(rect)
            tiles.append(Tile(*halves))
    for warped in faces:  # thick tiles only
        assert sides is not None
        alpha = warped[:, :, 3:4].astype(np.float32) / 255
        canvas = canvas * (1 - alpha) + warped[:, :, :3].astype(np.float32) * sides.face * alpha
    # perspective: the camera a little off the vertical
    d = 0.06 * min(w_img, h_img)
    src = np.array([[0, 0], [w_img, 0], [w_img, h_img], [0, h_img]], np.float32)
    dst = src + np.array([[rng.uniform(-d, d), rng.uniform(-d, d)] for _ in range(4)], np.float32)
    if tilt > 0:
        # seen from the side: the far (top) edge narrower and the table foreshortened
        far = tilt * w_img / 2
        dst = np.array(
            [[far, tilt * h_img * 0.5], [w_img - far, tilt * h_img * 0.5], [w_img, h_img], [0, h_img]],
            np.float32,
        ) + (dst - src)
    if sides is not None:
        # the drawn table is taller than the photo: its rows are squeezed into the photo's
        src = np.array([[0, 0], [w_img, 0], [w_img, h_draw], [0, h_draw]], np.float32)
    persp = cv2.getPerspectiveTransform(src, dst)
    if tilt > 0 or sides is not None:
        # the table beyond the tiles' part of it fills the corners the side view opens
        inside = cv2.warpPerspective(np.ones((h_draw, w_img), np.float32), persp, (w_img, h_img))[:, :, None]
        if sides is None:
            beyond = _background(extra, h_img, w_img).astype(np.float32)
        else:  # the same table (drawn again from the photo's own first draws)
            beyond = _background(random.Random(seed), h_img, w_img, table).astype(np.float32)
        canvas = cv2.warpPerspective(canvas, persp, (w_img, h_img)) * inside + beyond * (1 - inside)
    else:
        canvas = cv2.warpPerspective(canvas, persp, (w_img, h_img), borderMode=cv2.BORDER_REFLECT)
    boxes = []
    for rect in labelled:
        pts = cv2.perspectiveTransform(rect.reshape(-1, 1, 2), persp).reshape(-1, 2)
        x0, y0 = np.maximum(pts.min(axis=0), 0)
        x1, y1 = np.minimum(pts.max(axis=0), (w_img, h_img))
        boxes.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
    # lighting, colour cast, blur, noise
    gx = np.linspace(-1, 1, w_img)[None, :] * rng.uniform(-0.25, 0.25)
    gy = np.linspace(-1, 1, h_img)[:, None] * rng.uniform(-0.25, 0.25)
    light = rng.uniform(0.8, 1.1) * (1 + gx + gy)
    cast = np.array([rng.uniform(0.9, 1.1) for _ in range(3)], np.float32)
    canvas = canvas * light[:, :, None] * cast[None, None, :]
    blur = 0.0 if easy else rng.uniform(0, 1.6)
    if blur > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    if shrink < 1.0:
        canvas = cv2.resize(canvas, size, interpolation=cv2.INTER_LINEAR)
        boxes = [
            (round(x / shrink), round(y / shrink), round(w / shrink), round(h / shrink))
            for x, y, w, h in boxes
        ]
    noise = np.random.default_rng(seed).normal(0, rng.uniform(1, 2 if easy else 7), canvas.shape[:2] + (1,))
    canvas += noise.astype(np.float32)
    rgb = np.clip(canvas, 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="JPEG", quality=rng.randint(70, 95))
    return out.getvalue(), tiles, boxes


def _fade(face: np.ndarray, falloff: float, reverse: bool) -> np.ndarray:
    """The face (RGBA, halves side by side) with its light falling off linearly along its
    length by ``falloff``, towards its first or (``reverse``) its last end."""
    ramp = np.linspace(1.0 - falloff, 1.0, face.shape[1], dtype=np.float32)
    if reverse:
        ramp = ramp[::-1]
    out = face.copy()
    out[:, :, :3] = np.clip(face[:, :, :3].astype(np.float32) * ramp[None, :, None], 0, 255).astype(np.uint8)
    return out


class _Sides:
    """The visible sides of thick tiles seen from a low angle (one photo's camera): every
    tile shows the sides its faces' edges turn towards the camera, ``depth`` of the tile's
    width deep, each of the face's colour times its own shade."""

    def __init__(self, seed: int, depth: float) -> None:
        own = random.Random(seed * 104_729 + 3)
        # mostly towards the near (lower) edge of the photo; now and then the other way (tiles
        # stood on their long edge, their lit top side above the face)
        angle = math.radians(90 + own.uniform(-40, 40)) + (math.pi if own.random() < 0.3 else 0.0)
        self.offset = np.array([math.cos(angle), math.sin(angle)], np.float32) * depth
        self.shades = [
            own.uniform(0.55, 0.85) if own.random() < 0.75 else own.uniform(1.04, 1.2) for _ in "ab"
        ]
        # a side lit more than the face: the face itself is in the shade (tiles stood up)
        self.face = own.uniform(0.6, 0.85) if self.shades[0] > 1 else 1.0
        self.squeeze = own.uniform(0.65, 0.95)

    def draw(self, rect: np.ndarray, face: tuple[int, int, int], w: int, size: tuple[int, int]) -> np.ndarray:
        """The sides of the tile on ``rect`` (its face's corners, ``w`` its width), RGBA float."""
        layer = np.zeros((*size, 4), np.float32)
        offset = self.offset * w
        centre = rect.mean(axis=0)
        corners = list(rect)
        for k in range(4):
            p, q = corners[k], corners[(k + 1) % 4]
            outward = (p + q) / 2 - centre
            if float(outward @ offset) <= 0:
                continue  # a side turned away from the camera
            long = np.linalg.norm(q - p) > np.linalg.norm(corners[(k + 2) % 4] - q)
            shade = self.shades[0 if long else 1]
            colour = tuple(min(255.0, c * shade) for c in face)
            quad = np.array([p, q, q + offset, p + offset], np.float32)
            cv2.fillConvexPoly(layer, np.round(quad * 16).astype(np.int32), (*colour, 255), cv2.LINE_AA, 4)
        return layer


def _corners(rect: np.ndarray) -> np.ndarray:
    """Three corners of a box from boxPoints, in the order of the face's (0,0), (W,0), (W,H)."""
    a, b, c, d = rect
    # boxPoints gives the corners in order around the box; put the long side first
    if np.linalg.norm(b - a) >= np.linalg.norm(c - b):
        return np.array([a, b, c], np.float32)
    return np.array([b, c, d], np.float32)


def write_set(
    folder: Path,
    count: int,
    seed: int = 0,
    size: tuple[int, int] = (960, 720),
    highest: int = 12,
    plain: bool = False,
    thick: bool = False,
    grids: bool = False,
) -> Path:
    """Write ``count`` photos and their ``labels.json`` into ``folder``; returns the labels' path.

    Each photo draws its options (face-down backs, touching tiles, a side view, a marble
    table: see ``make_photo``); ``plain`` leaves them all out (the set as first measured).
    ``thick`` draws every photo's tiles thick and seen from a low angle (sides 0.15 to 0.4 of
    a width deep, a side view of tilt 0.1 to 0.3, a third of the photos on marble), a set of
    its own: the default set is drawn without it. ``grids`` lays the tiles of a quarter of the
    photos in a seamless grid, half of those on a white table (off by default, so the default
    set stays as it was measured)."""
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for i in range(count):
        photo_seed = seed * 100_003 + i
        options = random.Random(photo_seed + 1)
        extras: dict[str, Any] = {
            "backs": options.choice((0, 0, 0, 1, 2)),
            "touching": options.choice((0, 0, 0, 1, 2)),
            "tilt": options.choice((0.0, 0.0, 0.0, options.uniform(0.1, 0.3))),
            "table": "marble" if options.random() < 0.125 else None,
        }
        if grids and not plain:
            more = random.Random(photo_seed + 2)  # the other options' draws stay as they were
            if more.random() < 0.25:
                extras["grid"] = True
                if more.random() < 0.5:
                    extras["table"] = "white"
        if plain:
            extras = {}
        if thick:
            extras["thick"] = round(options.uniform(0.15, 0.4), 3)
            extras["tilt"] = round(options.uniform(0.1, 0.3), 3)
            extras["table"] = "marble" if options.random() < 0.33 else None
        data, tiles, boxes = make_photo(photo_seed, size=size, highest=highest, **extras)
        name = f"synthetic_{seed}_{i:04d}.jpg"
        (folder / name).write_bytes(data)
        photos.append(
            {
                "file": name,
                "source": f"referee.vision.synthetic seed={photo_seed}",
                "set_hint": f"double-{highest}, synthetic",
                "tiles": [str(t) for t in tiles],
                "total_pips": sum(t.pips for t in tiles),
                "notes": ", ".join(f"{k}={v}" for k, v in extras.items() if v),
                "uncertain": False,
                "image_size": list(size),
                "boxes": [list(b) for b in boxes],
            }
        )
    path = folder / "labels.json"
    path.write_text(json.dumps({"photos": photos}, indent=1))
    return path


__all__ = ["make_photo", "write_set"]
