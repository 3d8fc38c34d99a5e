"""The training examples of the reader's two networks, drawn from synthetic scenes
(``referee.vision.scenes``): plain numpy, so that they can be looked at and tested without
the training's own dependencies (``referee.vision.train``)."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from referee.vision import geometry as g
from referee.vision import outline
from referee.vision.model import VIEWS
from referee.vision.scenes import Scene, draw_scene, labelled, visible_share

TRAIN_SIDE = 512  # the finder trains on photos reduced to this side (it reads at FINDER_SIDE)
VALIDATION_SEED = 1_000_000_000  # validation photos' seeds start here; training's never reach it
SHAPES = ((4, 3), (3, 4), (1, 1), (16, 9), (9, 16))
BACK_VIEWS = 2  # the counter's examples of each face-down tile (counter_examples)


def scene_for(seed: int) -> tuple[Scene, float]:
    """A training or validation scene and the factor from its pixels to the finder's."""
    rng = random.Random(seed * 17 + 3)
    a, b = rng.choice(SHAPES)
    long_side = rng.choice(
        (TRAIN_SIDE, int(TRAIN_SIDE * rng.uniform(1.2, 2.2)), int(TRAIN_SIDE * rng.uniform(1.2, 2.2)))
    )
    size = (long_side, long_side * b // a) if a >= b else (long_side * a // b, long_side)
    width = None
    if rng.random() < 0.15:
        width = (0.18, 0.42)  # a close-up of a few tiles
    elif rng.random() < 0.15:
        width = (0.02, 0.05)  # many small tiles
    scene = draw_scene(
        seed, size, count=(1 if width and width[0] > 0.1 and rng.random() < 0.5 else None), tile_width=width
    )
    # the photo as saved and opened again: JPEG's blocks and colour loss
    encoded = cv2.imencode(
        ".jpg", cv2.cvtColor(scene.rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, scene.quality]
    )[1]
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    assert decoded is not None
    scene.rgb = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    return scene, TRAIN_SIDE / max(size)


def finder_example(scene: Scene, factor: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The finder's input (3 x S x S), its targets (FINDER_CHANNELS x S/4 x S/4) and the weight
    of each cell's heat (0 where a tile lies partly out of the photo: neither found nor missed)."""
    h, w = scene.rgb.shape[:2]
    small = cv2.resize(
        scene.rgb, (max(1, round(w * factor)), max(1, round(h * factor))), interpolation=cv2.INTER_AREA
    )
    image = np.zeros((TRAIN_SIDE, TRAIN_SIDE, 3), np.float32)
    image[: small.shape[0], : small.shape[1]] = g.normalise(small)
    cells = TRAIN_SIDE // g.STRIDE
    target = np.zeros((g.FINDER_CHANNELS, cells, cells), np.float32)
    target[g.HEAT] = 0
    weight = np.ones((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for tile in scene.tiles:
        corners = g.to_finder(tile.corners, 1 / factor) / g.STRIDE
        if tile.visible < 0.95:
            if tile.visible > 0.05:
                cv2.fillConvexPoly(weight, np.round(corners).astype(np.int32), 0.0)
            continue
        centre_x, centre_y, length, width, angle = g.box_of(corners)  # in cells
        sigma = max(0.6, width / 4)
        blob = np.exp(-((xs - centre_x) ** 2 + (ys - centre_y) ** 2) / (2 * sigma * sigma))
        cx, cy = int(centre_x), int(centre_y)
        if not (0 <= cx < cells and 0 <= cy < cells):
            continue
        blob[cy, cx] = 1.0
        near = (blob > 0.45) & (blob >= target[g.HEAT])
        target[g.HEAT] = np.maximum(target[g.HEAT], blob)
        target[g.COS][near] = math.cos(2 * angle)
        target[g.SIN][near] = math.sin(2 * angle)
        target[g.LOG_LENGTH][near] = math.log(max(1.0, length * g.STRIDE) / g.SIZE_UNIT)
        target[g.LOG_WIDTH][near] = math.log(max(1.0, width * g.STRIDE) / g.SIZE_UNIT)
        target[g.DX][near] = centre_x - xs[near]
        target[g.DY][near] = centre_y - ys[near]
    return image.transpose(2, 0, 1), target, weight


def _jitter(corners: np.ndarray, rng: random.Random, amount: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    u = corners[1] - corners[0]
    length = float(np.linalg.norm(u))
    angle = rng.uniform(-0.09, 0.09) * amount
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    scale = np.array([rng.uniform(0.9, 1.12), rng.uniform(0.88, 1.15)], np.float32) ** amount
    axis_u = u / max(1e-6, length)
    axis_v = np.array([-axis_u[1], axis_u[0]], np.float32)
    local = np.stack([(corners - centre) @ axis_u, (corners - centre) @ axis_v], 1) * scale
    moved = centre + (local[:, :1] * axis_u + local[:, 1:] * axis_v) @ rot.T
    shift = np.array([rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)], np.float32) * length * amount
    return np.asarray(moved + shift, np.float32)


def _relighting(picture: np.ndarray, rng: random.Random) -> np.ndarray:
    """``picture`` (uint8) brighter or darker, of more or less contrast, tinted, now and then
    grey: float32, not yet clipped."""
    out = picture.astype(np.float32)
    out = out * rng.uniform(0.6, 1.4) + rng.uniform(-30, 30)
    out = out * np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.15:
        out = out.mean(axis=2, keepdims=True).repeat(3, axis=2)
    return np.asarray(out, np.float32)


def _colour_change(crop: np.ndarray, rng: random.Random) -> np.ndarray:
    out = _relighting(crop, rng)
    if rng.random() < 0.3:  # a low-resolution tile: its detail lost
        f = rng.uniform(0.3, 0.75)
        small = cv2.resize(out, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        out = np.asarray(cv2.resize(small, (g.CROP_W, g.CROP_H), interpolation=cv2.INTER_LINEAR), np.float32)
    return np.asarray(np.clip(out, 0, 255), np.uint8)


# -- what another camera, lens or room makes of a crop (--camera-crops) ---------------------
# Colour, tone, sharpness and noise say nothing of how many pips a half holds, and a camera or
# a room changes each of them more than the scenes draw: each crop is changed by any of them,
# the ink and the face keeping their places. A crop's own generator draws them, so a
# training without them draws every crop and label as before.
CAMERA_CROPS_SHARE = 0.8  # of the crops, when asked: the rest as the scene drew them


def camera_change(crop: np.ndarray, rng: random.Random) -> np.ndarray:
    """``crop`` (uint8 RGB) seen by another camera in another room: its channels swapped or
    its hues turned, now and then its lightness turned over (light pips on a dark face read
    as dark pips on a light one), a tone curve, blur or sharpening, noise, JPEG's blocks."""
    out = crop.astype(np.float32)
    if rng.random() < 0.3:
        out = out[:, :, rng.sample(range(3), 3)]
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(np.clip(out, 0, 255).astype(np.uint8), cv2.COLOR_RGB2HSV)
        hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + rng.randrange(180)) % 180).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB).astype(np.float32)
    if rng.random() < 0.1:
        out = 255 - out
    if rng.random() < 0.4:
        out = np.asarray(255 * (np.clip(out, 0, 255) / 255) ** math.exp(rng.uniform(-0.7, 0.7)), np.float32)
    kind = rng.random()
    if kind < 0.25:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2)), np.float32)
    elif kind < 0.45:  # a phone's sharpening: a light and a dark ring around every edge
        soft = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.6, 1.5))
        out = out + rng.uniform(0.4, 1.5) * (out - soft)
    if rng.random() < 0.3:
        noise = np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(3, 14), out.shape)
        out = out + noise.astype(np.float32)
    out8 = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        encoded = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(25, 85)])[1]
        decoded = cv2.imdecode(encoded, cv2.IMREAD_UNCHANGED)
        assert decoded is not None
        out8 = np.asarray(decoded, np.uint8)
    return out8


# -- the table between neighbouring tiles (--between-tiles) ----------------------------------
# A mark on the table between tiles, framed by their edges and shaded sides, looks like a small
# face, and a table printed with dots gives it pips: a tile counter read one so as a sure 2-2
# (docs/BENCHMARKS.md, "One reading per tile"). The crops that are no tile cut the table
# anywhere, rarely between tiles: these are cut there, drawn from a generator of their own.
BETWEEN_TILES = 3  # such crops a scene, at most
BETWEEN_TILES_ON_A_TILE = 0.25  # the most of such a crop lying on any tile, face up or down


def between_tiles(scene: Scene, rng: random.Random) -> list[np.ndarray]:
    """Corners of up to BETWEEN_TILES marks on the table between two neighbouring tiles of
    ``scene``, from a quarter to seven tenths of a tile long, turned as one of them or a
    little off, each lying at most BETWEEN_TILES_ON_A_TILE on any tile."""
    faces = [np.asarray(tile.corners, np.float32) for tile in scene.tiles]
    everything = faces + [np.asarray(back, np.float32) for back in scene.face_down]
    marks: list[np.ndarray] = []
    if len(faces) < 2:
        return marks
    for _attempt in range(BETWEEN_TILES * 6):
        if len(marks) >= BETWEEN_TILES:
            break
        first, second = rng.sample(faces, 2)
        _cx, _cy, length, _width, angle = g.box_of(first)
        here, there = first.mean(axis=0), second.mean(axis=0)
        if float(np.linalg.norm(there - here)) > 2.5 * length:
            continue  # not neighbours
        centre = here + (there - here) * rng.uniform(0.3, 0.7)
        side = length * rng.uniform(0.25, 0.7)
        corners = g.corners_of(
            float(centre[0]),
            float(centre[1]),
            side,
            side * rng.uniform(0.5, 1.0),
            angle + rng.uniform(-0.5, 0.5),
        )
        if all(g.overlap(corners, other) <= BETWEEN_TILES_ON_A_TILE for other in everything):
            marks.append(corners)
    return marks


def counter_examples(
    scene: Scene,
    rng: random.Random,
    camera: random.Random | None = None,
    between: random.Random | None = None,
) -> tuple[list[np.ndarray], list[tuple[int, int, int]]]:
    """Crops of the scene and their labels (is a tile, left pips, right pips; -1: no label):
    every tile, jittered as the finder's marks are and shown any way round, and as many crops
    that are no tile (the table, the clutter, between two tiles, a tile cut by the frame).
    With ``camera``, CAMERA_CROPS_SHARE of them changed as another camera would
    (``camera_change``), drawn from it; with ``between``, crops of the table between
    neighbouring tiles as no tile too (``between_tiles``), drawn from it."""
    crops, labels = _counter_examples(scene, rng)
    if between is not None:
        for corners in between_tiles(scene, between):
            crops.append(_colour_change(g.crop(scene.rgb, corners), between))
            labels.append((0, -1, -1))
    if camera is not None:
        crops = [
            camera_change(crop, camera) if camera.random() < CAMERA_CROPS_SHARE else crop for crop in crops
        ]
    return crops, labels


def _counter_examples(
    scene: Scene, rng: random.Random
) -> tuple[list[np.ndarray], list[tuple[int, int, int]]]:
    crops: list[np.ndarray] = []
    labels: list[tuple[int, int, int]] = []
    h, w = scene.rgb.shape[:2]
    tiles = labelled(scene)
    for tile in tiles:
        order, swap = rng.choice(VIEWS)
        # cut out where the finder would mark it: seen from the side a face is no rectangle,
        # and the finder marks each tile with one (geometry.box_of)
        corners = _jitter(g.corners_of(*g.box_of(tile.corners)), rng, 1.0)[list(order)]
        left, right = (tile.halves[1], tile.halves[0]) if swap else tile.halves
        crops.append(_colour_change(g.crop(scene.rgb, corners), rng))
        labels.append((1, left, right))
    # each face-down tile as marks on it would cut it: a tile's shape and a face's colour,
    # often a printed name and a rule where a bar would be (drawn rarely by the crops below).
    # Shown BACK_VIEWS ways: a back read as a 0-0 costs a player 50 points, and a scene holds
    # about one back for ten tiles
    for back in scene.face_down:
        if visible_share(back, h, w) < 0.5:
            continue
        for order, _swap in rng.sample(VIEWS, BACK_VIEWS):
            corners = _jitter(back, rng, 1.0)[list(order)]
            crops.append(_colour_change(g.crop(scene.rgb, corners), rng))
            labels.append((0, -1, -1))
    # about as many crops that are no tile as tiles: a tile read where none lies is the
    # reader's worst error, and the tile threshold is chosen by how often one is
    negatives = max(3, len(tiles) + 1)
    for _ in range(negatives):
        kind = rng.random()
        base = rng.choice(scene.tiles) if scene.tiles else None
        if base is not None and kind < 0.3:  # half a tile off along its length: a seam between two
            u = base.corners[1] - base.corners[0]
            corners = base.corners + u * rng.choice((-1, 1)) * rng.uniform(0.4, 0.6)
        elif base is not None and kind < 0.45:  # the right place but the wrong size or direction
            centre = base.corners.mean(axis=0)
            if rng.random() < 0.5:
                corners = centre + (base.corners - centre) * rng.choice((0.45, 2.1))
            else:  # across the tile
                turn = np.array([[0, -1], [1, 0]], np.float32)
                corners = centre + (base.corners - centre) @ turn.T
        elif base is not None and base.visible < 0.8 and kind < 0.6:
            corners = base.corners
        else:
            size = min(h, w) * rng.uniform(0.04, 0.3)
            corners = g.corners_of(
                rng.uniform(0, w), rng.uniform(0, h), 2 * size, size, rng.uniform(0, math.pi)
            )
        corners = _jitter(np.asarray(corners, np.float32), rng, 0.5)
        crops.append(_colour_change(g.crop(scene.rgb, corners), rng))
        labels.append((0, -1, -1))
    return crops, labels


# -- the outliner's examples ---------------------------------------------------------------
# Marks drawn around each tile as the finder draws them where the counter then says no tile
# (docs/BENCHMARKS.md, "where the tiles are lost"): too short (a half and the bar) or too
# long, too wide by up to three times, turned a little or anyhow, off the tile's centre. A
# fifth are nearly right, so that the outliner learns to leave a good outline as it is.
OUTLINES_PER_TILE = 4


def misdrawn(tile: np.ndarray, rng: random.Random) -> np.ndarray:
    """A mark (corners in the order of ``geometry.corners_of``) on the tile on ``tile``,
    drawn with the wrong outline as the finder draws some."""
    cx, cy, length, width, angle = g.box_of(np.asarray(tile, np.float32))
    if rng.random() < 0.2:  # nearly right
        longer, wider = math.exp(rng.uniform(-0.1, 0.1)), math.exp(rng.uniform(-0.12, 0.12))
        turned = rng.gauss(0, 0.05)
        along, across = rng.uniform(-0.05, 0.05), rng.uniform(-0.08, 0.08)
    else:
        longer = math.exp(rng.uniform(math.log(0.45), math.log(1.6)))
        wider = math.exp(rng.uniform(math.log(0.6), math.log(3.0)))
        turned = rng.gauss(0, 0.18) if rng.random() < 0.5 else rng.uniform(-math.pi / 2, math.pi / 2)
        along, across = rng.uniform(-0.35, 0.35), rng.uniform(-0.5, 0.5)
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-u[1], u[0]])
    centre = np.array([cx, cy]) + along * length * u + across * width * v
    # either end first: a mark's direction says nothing of which half is which
    flipped = math.pi if rng.random() < 0.5 else 0.0
    corners = g.corners_of(
        float(centre[0]), float(centre[1]), length * longer, width * wider, angle + turned + flipped
    )
    return np.asarray(corners, np.float32)


def _relit(square: np.ndarray, rng: random.Random) -> np.ndarray:
    return np.asarray(np.clip(_relighting(square, rng), 0, 255), np.uint8)


def outline_examples(scene: Scene, rng: random.Random) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The outliner's squares (``outline.square``) around marks misdrawn on each tile a person
    would list, relit and mirrored any of four ways, and what it should say of each
    (``outline.target``, mirrored with its square)."""
    squares: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    for tile in labelled(scene):
        for _ in range(OUTLINES_PER_TILE):
            mark = misdrawn(tile.corners, rng)
            view = rng.randrange(4)
            square = _relit(outline.square(scene.rgb, mark), rng)
            squares.append(outline.mirror_square(square, view))
            targets.append(outline.mirrored(outline.target(mark, tile.corners), view))
    return squares, targets
