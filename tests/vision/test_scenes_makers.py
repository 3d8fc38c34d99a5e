"""The made-up makers of the synthetic scenes (referee/vision/scenes.py: ``layout``,
``made_up_layout``): sets whose numbers above six are printed in columns of their own, so
that a counter trained on them must count pips rather than know a few patterns."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision import scenes
from referee.vision.scenes import (
    ARRANGEMENTS,
    LAYOUTS,
    MADE_UP,
    MOST_IN_A_COLUMN,
    draw_face,
    draw_style,
    layout,
)

MAKERS = [MADE_UP + k for k in (0, 1, 2, 17, 999_999)]


@pytest.mark.parametrize("maker", MAKERS)
def test_a_made_up_maker_prints_every_count_with_that_many_pips_inside_the_half(maker: int) -> None:
    for count in range(19):
        spots = layout(maker, count)
        assert len(spots) == count
        assert len(set(spots)) == count  # no two pips on one spot
        assert all(0.05 < x < 0.95 and 0.05 < y < 0.95 for x, y in spots)
        if count <= 6:  # the numbers every maker prints alike
            assert spots == LAYOUTS[count]


@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize("count", range(7, 19))
def test_a_made_up_maker_prints_columns_alike_from_either_side(maker: int, count: int) -> None:
    """Columns across the half, mirrored about its middle: a half turned half a turn shows the
    same number (a real tile's pips never change with the way it lies)."""
    spots = np.array(layout(maker, count))
    mirrored = 1 - spots
    apart = np.linalg.norm(mirrored[:, None] - spots[None], axis=2)
    assert (apart.min(axis=1) < 1e-3).all()  # each pip mirrored lies on a pip
    columns = Counter(round(float(x), 3) for x in spots[:, 0])
    assert 2 <= len(columns) <= 4 and max(columns.values()) <= MOST_IN_A_COLUMN


@pytest.mark.parametrize("count", [8, 10, 12, 14, 16, 18])
def test_made_up_makers_print_a_number_many_ways(count: int) -> None:
    """Unlike ARRANGEMENTS' few patterns, made-up makers print a number in many column heights
    and spreads: no pattern of it is seen often enough to be learned as the number."""
    ways = {tuple(layout(MADE_UP + k, count)) for k in range(200)}
    heights = {tuple(Counter(x for x, _y in spots).values()) for spots in ways}
    assert len(ways) >= 100
    assert len(heights) >= 4
    assert max(Counter(tuple(layout(MADE_UP + k, count)) for k in range(200)).values()) <= 10


def test_a_made_up_maker_keeps_one_spread_for_all_its_numbers() -> None:
    """A maker prints its numbers with one margin down the columns: the pips nearest the
    half's ends lie as far out on every number of columns of two or more."""
    for k in range(20):
        ends = {
            round(min(y for _x, y in layout(MADE_UP + k, count)), 4)
            for count in range(7, 19)
            if all(n >= 2 for n in Counter(x for x, _y in layout(MADE_UP + k, count)).values())
        }
        assert len(ends) == 1


@pytest.mark.parametrize("maker", [MADE_UP + k for k in range(6)])
@pytest.mark.parametrize("count", [7, 8, 10, 12, 14, 16, 18])
def test_a_made_up_makers_pips_are_drawn_apart(maker: int, count: int) -> None:
    """However tight a made-up maker's columns, each pip is drawn a blot of its own."""
    style = dataclasses.replace(
        draw_style(random.Random(3), 18, force="black"), arrangement=maker, pip_scale=1.2, rim=0.0
    )
    w = 120
    face = draw_face((count, 0), style, w, random.Random(4))
    half = face[:, : w - 8]  # the first half, its bar left out
    grey = half[:, :, :3].mean(axis=2).astype(np.float32)
    around = cv2.GaussianBlur(grey, (0, 0), w * 0.15)  # the face as lit there (glare included)
    ink = ((grey < around - 40) & (half[:, :, 3] > 0)).astype(np.uint8)
    _n, _labels, stats, _centres = cv2.connectedComponentsWithStats(ink)
    assert int((stats[1:, cv2.CC_STAT_AREA] > 10).sum()) == count


def test_made_up_makers_print_sets_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def chosen() -> Counter[int]:
        return Counter(draw_style(random.Random(seed), 12).arrangement for seed in range(400))

    monkeypatch.setattr(scenes, "OTHER_MAKERS_SHARE", 0.5)  # --other-makers alone
    other_makers = chosen()
    assert set(other_makers) == set(range(len(ARRANGEMENTS)))  # as the shipped networks saw them
    usual = [draw_style(random.Random(seed), 12) for seed in range(20)]
    monkeypatch.setattr(scenes, "MADE_UP_SHARE", 0.5)  # --made-up-makers
    made_up = chosen()
    assert made_up[0] == other_makers[0]  # the sets printed as every maker does stay so
    made_up_sets = sum(n for arrangement, n in made_up.items() if arrangement >= MADE_UP)
    assert 0.3 < made_up_sets / (400 - made_up[0]) < 0.7  # about half of the other makers' sets
    # a maker of its own for each set (two sets of one face colour are one maker's)
    assert len([a for a in made_up if a >= MADE_UP]) >= 0.9 * made_up_sets
    # the maker is drawn apart from the scene's own draws: all else as it was
    assert [
        dataclasses.replace(draw_style(random.Random(seed), 12), arrangement=0) for seed in range(20)
    ] == [dataclasses.replace(style, arrangement=0) for style in usual]


def test_a_set_of_scenes_with_made_up_makers_holds_the_same_tiles(tmp_path: Path) -> None:
    """``write_set(other_makers=True, made_up_makers=True)`` (``bench vision --scenes
    --other-makers --made-up-makers``) prints some sets otherwise and nothing else."""
    other = json.loads(
        scenes.write_set(tmp_path / "other", 12, seed=6, size=(320, 240), other_makers=True).read_text()
    )
    made_up = json.loads(
        scenes.write_set(
            tmp_path / "made_up", 12, seed=6, size=(320, 240), other_makers=True, made_up_makers=True
        ).read_text()
    )
    assert scenes.OTHER_MAKERS_SHARE == 0.0 and scenes.MADE_UP_SHARE == 0.0  # as they were
    assert [p["tiles"] for p in made_up["photos"]] == [p["tiles"] for p in other["photos"]]
    assert [p["boxes"] for p in made_up["photos"]] == [p["boxes"] for p in other["photos"]]
