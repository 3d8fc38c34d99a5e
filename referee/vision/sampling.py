"""Sampling the photo around a bar: places given in bar lengths along and across it, the
grey or colour image read there, and which colours are of little colour (a tile's face)."""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.vision.shapes import Bar

FACE_CHROMA = 0.45  # a face's colour spread (max - min channel) is at most this share of its max


def around(bar: Bar, grid: np.ndarray, scale: float | None = None) -> Any:
    k = bar.length if scale is None else scale
    return bar.centre[None, :] + k * (grid[:, :1] * bar.along[None, :] + grid[:, 1:] * bar.normal[None, :])


def sample(value: np.ndarray, points: np.ndarray) -> Any:
    h, w = value.shape
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    out = value[ys, xs].astype(np.float32)
    out[~inside] = np.nan
    return out


def sample_rgb(rgb: np.ndarray, points: np.ndarray) -> Any:
    h, w = rgb.shape[:2]
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    xs = np.clip(np.round(points[inside, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[inside, 1]).astype(int), 0, h - 1)
    return rgb[ys, xs].astype(np.float32)


def face_samples(bar: Bar) -> Any:
    c, u, n, L = bar.centre, bar.along, bar.normal, bar.length
    return np.array(
        [c + n * (s * f * L) + u * (g * L) for s in (1, -1) for f in (0.15, 0.3, 0.5) for g in (-0.3, 0, 0.3)]
    )


def of_little_colour(colours: np.ndarray) -> Any:
    """Which colours are of little colour, as a tile's face (white, ivory, black) is."""
    return colours.max(axis=1) - colours.min(axis=1) <= FACE_CHROMA * np.maximum(colours.max(axis=1), 1.0)
