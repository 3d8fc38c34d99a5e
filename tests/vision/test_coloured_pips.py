"""Coloured pips on a face in the shade: the face's colour is taken among the samples of
little colour (docs/VISION.md, step 3), as a tile's face is white, ivory or black."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.bars import face_colour
from referee.vision.pips import count_pips
from referee.vision.shapes import Bar

IVORY_IN_SHADE = (120, 112, 92)
ORANGE = (240, 140, 30)  # brighter on the grey image than the shaded ivory face


def _face_with_pips(pip: tuple[int, int, int], rows: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, Bar]:
    rgb = np.zeros((300, 300, 3), np.uint8)
    rgb[:] = IVORY_IN_SHADE
    bar = Bar(np.array([150.0, 150.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 80.0, 5.0, 0.0)  # fmt: skip
    rgb[110:191, 148:153] = (15, 15, 15)  # the bar
    # pips on the rows ``rows`` (in bar lengths from the bar) of the places sampled beside it
    for s in (1, -1):
        for f in rows:
            for g in (-0.3, 0.0, 0.3):
                centre = bar.centre + bar.normal * (s * f * bar.length) + bar.along * (g * bar.length)
                cv2.circle(rgb, (int(centre[0]), int(centre[1])), 5, pip, -1)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    return rgb, grey, bar


def test_the_face_colour_is_not_taken_from_bright_coloured_pips() -> None:
    # two dense halves (a 12 and an 11): pips on two thirds of the places sampled
    rgb, grey, bar = _face_with_pips(ORANGE, (0.15, 0.3))
    colour = face_colour(rgb, grey, bar)
    assert np.abs(colour - np.array(IVORY_IN_SHADE)).max() <= 6


def test_black_pips_still_leave_the_face_colour() -> None:
    rgb, grey, bar = _face_with_pips((15, 15, 15), (0.3,))
    colour = face_colour(rgb, grey, bar)
    assert np.abs(colour - np.array(IVORY_IN_SHADE)).max() <= 6


def test_the_negative_image_still_gives_a_black_face() -> None:
    # a black tile with white pips, read on the negative grey image: the face is the brighter
    # on the negative, and black is of little colour too
    rgb = np.zeros((300, 300, 3), np.uint8)
    rgb[:] = (25, 25, 28)
    bar = Bar(np.array([150.0, 150.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 80.0, 5.0, 0.0)  # fmt: skip
    for s in (1, -1):
        centre = bar.centre + bar.normal * (s * 0.3 * bar.length)
        cv2.circle(rgb, (int(centre[0]), int(centre[1])), 7, (240, 240, 240), -1)
    grey = 255 - cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    colour = face_colour(rgb, grey, bar)
    assert colour.max() <= 40


def test_a_dense_half_of_coloured_pips_is_counted() -> None:
    # a twelve of orange pips seen close up covers most of its half: the half's usual colour
    # is the pips', and the face between them, of little colour, is still taken as the face
    rgb = np.zeros((300, 300, 3), np.uint8)
    rgb[:] = IVORY_IN_SHADE
    bar = Bar(np.array([100.0, 150.0], np.float32), np.array([0.0, 1.0], np.float32),
              np.array([1.0, 0.0], np.float32), 80.0, 5.0, 0.0)  # fmt: skip
    rgb[110:191, 98:103] = (15, 15, 15)  # the bar
    for row in range(4):  # along the half, away from the bar
        for column in range(3):  # across the tile
            centre = (103 + 13 + 25 * row, 100 + 17 + 33 * column)
            cv2.ellipse(rgb, centre, (11, 15), 0, 0, 360, ORANGE, -1)
    inner = rgb[104:200, 104:196].reshape(-1, 3)
    assert np.mean(np.all(inner == ORANGE, axis=1)) > 0.5  # the pips cover most of the half
    half = count_pips(rgb, bar, 1, 103.0, 100.0)
    assert half.pips == 12 and not half.foreign
