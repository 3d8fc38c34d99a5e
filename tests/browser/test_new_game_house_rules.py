"""The new-game page in Chromium: house rules grouped per game (only the chosen game's
group shown), each explained, and a live summary of those in force.

``HOUSE_RULES_SHOTS=/dir`` also saves screenshots (tablet and phone, English and Hungarian)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHOTS = os.environ.get("HOUSE_RULES_SHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def open_house_rules(page, lang: str = "en") -> None:
    page.goto(f"/lang/{lang}?next=/games/new")
    page.goto("/games/new")
    page.locator("details.house[data-game=mexican-train] summary").click()


def test_house_rules_summary_follows_the_choices(page):
    open_house_rules(page)
    summary = page.locator("#house-summary")
    assert summary.inner_text() == "No house rules: the usual rules."
    page.select_option("select[name=mt_draw]", "until")
    page.fill("input[name=mt_out_bonus]", "20")
    page.check("input[name=mt_own_train_first]")
    text = summary.inner_text()
    assert text.startswith("House rules in force:")
    for part in (
        "Own train first (mt.house.own-first)",
        "Drawing: Draw until a tile fits (mt.house.draw)",
        "Bonus for going out: 20 (mt.house.out-bonus)",
    ):
        assert part in text
    shoot(page, "new-game-house-rules-1024-en")
    page.check("input[name=game][value=chicken-foot]")
    assert page.locator("details.house[data-game=mexican-train]").is_hidden()
    assert page.locator("details.house[data-game=chicken-foot]").is_visible()
    assert summary.inner_text() == "No house rules: the usual rules."


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_house_rules_on_a_phone(phone, lang):
    open_house_rules(phone, lang)
    phone.select_option("select[name=mt_double_out]", "refused")
    phone.fill("input[name=mt_marker_penalty]", "10")
    assert "mt.house.double-out" in phone.locator("#house-summary").inner_text()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    shoot(phone, f"new-game-house-rules-390-{lang}")


def test_house_rules_on_a_tablet_in_hungarian(page):
    open_house_rules(page, "hu")
    page.select_option("select[name=mt_blank_half]", "25")
    assert "Házszabályok" in page.inner_text("main")
    assert "mt.house.blank-half" in page.locator("#house-summary").inner_text()
    shoot(page, "new-game-house-rules-1024-hu")
