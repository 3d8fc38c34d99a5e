"""End to end with the real reader: a synthetic photo with known tiles (the project's own
generator, referee/vision/synthetic.py) goes through the API and through the hands page,
and the hand read is booked."""

from __future__ import annotations

import io
from collections import Counter

import pytest

synthetic = pytest.importorskip("referee.vision.synthetic")

from referee.vision import read_photo  # noqa: E402
from tests.browser.table_helpers import stored  # noqa: E402
from tests.browser.test_photo_hands import create, new_context, shoot  # noqa: E402


def easy_photo() -> tuple[bytes, list[str]]:
    """The first of a few easy synthetic photos (three tiles) that the reader reads exactly:
    these tests are about the way from photo to booked hand, not about accuracy (the
    benchmark measures that)."""
    for seed in range(12):
        data, tiles, _ = synthetic.make_photo(seed, size=(800, 600), count=3, pips="black", easy=True)
        labels = sorted(str(t) for t in tiles)
        if len(labels) == 3 and sorted(str(r.tile) for r in read_photo(data, 12).tiles) == labels:
            return data, labels
    pytest.fail("the reader read none of twelve easy synthetic photos exactly")


@pytest.fixture(scope="module")
def photo() -> tuple[bytes, list[str]]:
    return easy_photo()


def test_the_api_reads_a_synthetic_photo(client, api, photo):
    data, labels = photo
    game_id = api.create(game="mexican-train", players=["Ana", "Ben"], set=12, mode="scores")["id"]
    response = client.post(
        f"/api/games/{game_id}/rounds/1/photo",
        data={"photo": (io.BytesIO(data), "hand.jpg", "image/jpeg"), "player": "Ana"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert Counter(t["tile"] for t in body["tiles"]) == Counter(labels)
    points = sum(50 if t == "0-0" else sum(map(int, t.split("-"))) for t in labels)
    assert body["total"] == points
    assert (body["width"], body["height"]) == (800, 600)
    for tile in body["tiles"]:
        x, y, w, h = tile["box"]
        assert x >= 0 and y >= 0 and x + w <= 800 and y + h <= 600 and w > 10 and h > 10


@pytest.mark.browser
@pytest.mark.parametrize(("size", "lang"), [("tablet", "en"), ("phone", "hu")])
def test_a_synthetic_photo_read_on_the_hands_page_is_booked(
    browser, live_server, live_app, photo, size, lang
):
    data, labels = photo
    game_id = create(live_app, game="mexican-train", players=["Ana", "Ben"], set=12, mode="scores")
    context, page = new_context(browser, live_server, size)
    try:
        page.goto(f"/lang/{lang}?next=/games/{game_id}/rounds/1/hands")
        page.set_input_files(
            'input[data-photo-for="p0"]',
            files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": data}],
        )
        page.wait_for_selector('[data-photo-panel][data-state="read"]')
        boxes = page.locator("[data-photo-boxes] .photo-box")
        assert sorted(b.get_attribute("data-tile") for b in boxes.all()) == labels
        shoot(page, f"hands-photo-real-reader-{size}-{lang}")
        page.fill("#p1", "out")
        submit = page.locator("form[data-hands] [type=submit]").first
        if size == "phone":
            submit.tap()
        else:
            submit.click()
        page.wait_for_url(f"**/games/{game_id}")
    finally:
        context.close()
    assert sorted(stored(live_app, game_id).match.rounds[0].hands["Ana"]) == labels
