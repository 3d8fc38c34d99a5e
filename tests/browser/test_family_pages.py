"""What a family trips over on the pages, measured in Chromium at 1024×768 and 390×844, in
English and Hungarian: the hands page fits the tablet without scrolling (suit labels on its
picker, plurals and sums summed live), tap targets of 40 px or more on /players, /games/new
and the scoresheet's A4/Letter choice, and the home page's game being played first."""

from __future__ import annotations

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
SMALLEST = 40  # px, a finger's tap target

# Every visible tap target in the page's main part: links, buttons, form fields, the labels
# of radios and checkboxes (the label is what a finger taps), summaries. Hidden helpers
# (aria-hidden) are left out.
TAP_TARGETS = """() => Array.from(document.querySelectorAll(
    'main a, main button, main select, main input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
    + ' main label:has(input[type=radio]), main label:has(input[type=checkbox]), main summary'))
  .filter(e => e.offsetParent !== null && !e.closest('[aria-hidden=true]'))
  .map(e => { const r = e.getBoundingClientRect();
    return {what: e.tagName + ' ' + (e.innerText || e.value || e.name || '').trim().slice(0, 30),
            width: Math.round(r.width), height: Math.round(r.height)}; })
  .filter(t => t.width < SMALLEST || t.height < SMALLEST)""".replace("SMALLEST", str(SMALLEST))


def make(live_app, **body) -> str:
    response = live_app.test_client().post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


@pytest.fixture
def games(live_app):
    pad = make(live_app, game="mexican-train", mode="scores", set=12, players=["Ana", "Ben", "Caro", "Dee"])
    refereed = make(live_app, game="mexican-train", set=12, players=["Ana", "Ben", "Caro", "Dee"])
    client = live_app.test_client()
    assert (
        client.post(
            f"/api/games/{pad}/rounds/1/hands", json={"hands": {"Ana": 0, "Ben": 7, "Caro": 9, "Dee": 1}}
        ).status_code
        == 200
    )
    return {"pad": pad, "refereed": refereed}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_family_pages_at_both_sizes(browser, live_server, games, lang):
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, base_url=live_server.url, is_mobile=size == "phone")
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            page.goto(f"/lang/{lang}?next=/")
            # home: the game being played comes first, with when it was last played
            first = page.locator(".game-list .game-card").first
            assert games["pad"] in first.get_attribute("href")
            assert first.locator(".game-when").inner_text().strip()
            screenshot(page, f"family-home-{size}-{lang}")

            # tap targets of 40 px or more
            for path in ("/players", "/games/new", f"/games/{games['pad']}/scoresheet"):
                page.goto(path)
                assert page.evaluate(TAP_TARGETS) == [], (size, lang, path)
            screenshot(page, f"family-scoresheet-{size}-{lang}")

            # the hands page of a refereed 4-player double-12 round
            page.goto(f"/games/{games['refereed']}/rounds/1/hands")
            labels = page.locator(".picker .suit-label")
            assert labels.count() == 13 and sorted(int(t) for t in labels.all_inner_texts()) == list(
                range(13)
            )
            if size == "tablet":  # the whole page in view: no scrolling
                assert page.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.locator(".picker [data-tile='0-5']").click()
            one_tile = {"en": "1 of 15 tiles: 5 points", "hu": "15 csontból 1: 5 pont"}[lang]
            assert page.locator("#p0-sum").inner_text() == one_tile
            page.locator("#p1").fill("10+15+8")
            assert page.locator("#p1-sum").inner_text() == {"en": "33 points", "hu": "33 pont"}[lang]
            page.locator("#p2").fill("1")
            assert page.locator("#p2-sum").inner_text() == {"en": "1 point", "hu": "1 pont"}[lang]
            screenshot(page, f"family-hands-{size}-{lang}")
        finally:
            context.close()
