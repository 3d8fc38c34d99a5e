"""Sets whose pips stand out from the face by colour more than by lightness (orange on pink,
blue on green): referee/vision/scenes.py ``COLOURED_PIPS_SHARE``, drawn only when asked
(``--coloured-pips``) and apart from the scene's own draws."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision import scenes
from referee.vision.scenes import draw_face, draw_style

INKS_OF_CONTRAST = {(15, 15, 15), (245, 245, 245)}


def _lightness(colour: tuple[int, int, int]) -> float:
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_coloured_pips_are_drawn_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    before = [draw_style(random.Random(seed), 12) for seed in range(400)]
    monkeypatch.setattr(scenes, "COLOURED_PIPS_SHARE", scenes.COLOURED_PIPS_ASKED)
    after = [draw_style(random.Random(seed), 12) for seed in range(400)]
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    one_ink = [style for style in before if style.pips == "ink"]
    # about the share asked of the sets of one ink; a set of a colour per number stays so
    assert 0.2 < len(changed) / len(one_ink) < 0.4
    assert all(old.pips == "ink" for old, _new in changed)
    for old, new in changed:
        # only the ink changes (and the bar where it was printed in the ink): every other draw
        # of the scene is as it was
        assert dataclasses.replace(new, ink=old.ink, bar=old.bar) == old
        assert new.bar == (new.ink if old.bar == old.ink else old.bar)
        # a colour a person tells from the face at a glance
        assert sum(abs(a - b) for a, b in zip(new.ink, new.face, strict=True)) >= 150 - 3 * 20
    # and the point of it: many such sets are about as light as their faces
    alike = [new for _old, new in changed if abs(_lightness(new.ink) - _lightness(new.face)) < 60]
    assert len(alike) >= 0.2 * len(changed)
    assert {new.ink for _old, new in changed} - INKS_OF_CONTRAST


def test_the_share_is_as_it_was_after_a_set_is_written(tmp_path: Path) -> None:
    plain = json.loads(scenes.write_set(tmp_path / "plain", 8, seed=5, size=(320, 240)).read_text())
    coloured = json.loads(
        scenes.write_set(tmp_path / "coloured", 8, seed=5, size=(320, 240), coloured_pips=True).read_text()
    )
    assert scenes.COLOURED_PIPS_SHARE == 0.0
    # the same tiles in the same places, some of them printed in other colours
    assert [p["tiles"] for p in coloured["photos"]] == [p["tiles"] for p in plain["photos"]]
    assert [p["boxes"] for p in coloured["photos"]] == [p["boxes"] for p in plain["photos"]]
    differ = [
        name
        for name in (p["file"] for p in plain["photos"])
        if (tmp_path / "plain" / name).read_bytes() != (tmp_path / "coloured" / name).read_bytes()
    ]
    assert differ


@pytest.mark.parametrize("count", [1, 5, 9, 12])
def test_pips_of_a_colour_as_light_as_the_face_are_drawn_apart(count: int) -> None:
    """Orange pips on a pink face: hardly darker, yet each pip a blot of its own in colour."""
    style = dataclasses.replace(
        draw_style(random.Random(3), 12, force="black"),
        face=(236, 150, 180),
        ink=(240, 130, 30),
        bar=(240, 130, 30),
        rim=0.0,
        spinner=False,
    )
    assert abs(_lightness(style.ink) - _lightness(style.face)) < 40
    w = 120
    face = draw_face((count, 0), style, w, random.Random(4))
    half = face[:, : w - 8].astype(np.float32)  # the first half, its bar left out
    # the blue channel tells orange from pink; the lightness alone would not
    ink = ((half[:, :, 2] < 110) & (half[:, :, 3] > 0)).astype(np.uint8)
    _n, _labels, stats, _centres = cv2.connectedComponentsWithStats(ink)
    assert int((stats[1:, cv2.CC_STAT_AREA] > 10).sum()) == count
