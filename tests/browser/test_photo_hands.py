"""The correction screen and "Send my hand" in Chromium, at the tablet's and a phone's size.

The reader is replaced by a fixed reading (tests/web/photo_helpers.py): these tests are
about what a person does with a reading, and must not depend on how well tiles are read.
"""

from __future__ import annotations

import struct
import zlib
from urllib.parse import quote

import pytest

from referee.web.service import send_code
from tests.browser.table_helpers import stored
from tests.conftest import ARTIFACTS
from tests.web.photo_helpers import fixed_reader, reading

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "vision-ui"  # the checkout's test-artifacts/, as every screenshot
SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}


def png(width: int = 800, height: int = 600) -> bytes:
    """A plain green-felt PNG (the fixed reading says what is on it)."""
    row = b"\x00" + bytes((40, 110, 60)) * width
    raw = zlib.compress(row * height)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", raw)
        + chunk(b"IEND", b"")
    )


# What the camera saw: 3-4, 5-5 and 2-9; the reader read the 5-5 as 5-6 (unsure) and missed the 2-9.
READ = reading(("3-4", 0.96, (60, 200, 260, 130)), ("5-6", 0.55, (420, 220, 260, 130)))


def new_context(browser, live_server, size: str, **options):
    context = browser.new_context(
        viewport=SIZES[size],
        base_url=live_server.url,
        is_mobile=size == "phone",
        has_touch=size == "phone",
        **options,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def create(live_app, **body) -> str:
    client = live_app.test_client()
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def tap(page, locator, size: str) -> None:
    if size == "phone":
        locator.tap()
    else:
        locator.click()


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_a_wrong_and_a_missed_tile_are_fixed_in_four_taps_and_saved(
    browser, live_server, live_app, monkeypatch, size
):
    fixed_reader(monkeypatch, READ)
    game_id = create(live_app, game="mexican-train", players=["Ana", "Ben"], set=12, mode="scores")
    context, page = new_context(browser, live_server, size)
    try:
        page.goto(f"/games/{game_id}/rounds/1/hands")
        page.set_input_files(
            'input[data-photo-input][data-photo-for="p0"]',
            files=[{"name": "hand.png", "mimeType": "image/png", "buffer": png()}],
        )
        panel = page.locator("[data-photo-panel]")
        page.wait_for_selector('[data-photo-panel][data-state="read"]')
        assert panel.locator(".photo-box").count() == 2
        assert page.input_value("#p0") == "3-4 5-6"
        unsure = panel.locator('.photo-box[data-tile="5-6"]')
        assert "unsure" in unsure.get_attribute("class")
        assert "unsure" in unsure.get_attribute("aria-label")
        shoot(page, f"hands-photo-read-{size}-en")

        tap(page, unsure, size)  # 1: the box read wrong
        tap(page, panel.locator('[data-photo-tile="5-5"]'), size)  # 2: the right tile
        tap(page, panel.locator("[data-photo-add]"), size)  # 3: add what the reading missed
        tap(page, panel.locator('[data-photo-tile="2-9"]'), size)  # 4: the missed tile
        page.wait_for_selector('[data-photo-panel][data-state="checked"]')
        assert page.input_value("#p0") == "3-4 5-5 2-9"
        assert panel.locator("[data-photo-summary]").inner_text() == "3 tiles read: 28 points"
        page.fill("#p1", "12")
        shoot(page, f"hands-photo-fixed-{size}-en")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(f"**/games/{game_id}")
    finally:
        context.close()
    record = stored(live_app, game_id).match.rounds[0]
    assert record.hands["Ana"] == ["3-4", "5-5", "2-9"]
    assert record.points == {"Ana": 28, "Ben": 12}


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_warnings_are_shown_on_the_photo_and_a_box_that_is_no_tile_is_removed(
    browser, live_server, live_app, monkeypatch, size
):
    fixed_reader(monkeypatch, reading(("12-5", 0.9, (60, 200, 260, 130)), ("1-1", 0.9, (420, 220, 200, 100))))
    game_id = create(live_app, game="mexican-train", players=["Ana", "Ben", "Caro"], set=12)
    client = live_app.test_client()
    client.post(
        f"/api/games/{game_id}/actions",
        json={"type": "play", "player": "Ana", "tile": "12-5", "train": "Ana"},
    )
    context, page = new_context(browser, live_server, size)
    try:
        page.goto(f"/lang/hu?next=/games/{game_id}/rounds/1/hands")
        page.set_input_files(
            'input[data-photo-for="p1"]', files=[{"name": "h.png", "mimeType": "image/png", "buffer": png()}]
        )
        page.wait_for_selector('[data-photo-panel][data-state="read"]')
        panel = page.locator("[data-photo-panel]")
        box = panel.locator('.photo-box[data-tile="5-12"]')
        assert "warned" in box.get_attribute("class")
        rules = [li.get_attribute("data-rule") for li in panel.locator("[data-photo-warnings] li").all()]
        assert rules == ["unique"]  # a partial reading: the count is not a red warning yet
        assert "(unique)" in panel.locator("[data-photo-warnings]").inner_text()
        link = panel.locator("[data-photo-warnings] a.rule-id", has_text="unique")
        assert link.get_attribute("href").endswith("#rule-unique")
        shoot(page, f"hands-photo-warnings-{size}-hu")
        # by keyboard: the box is a button; Enter selects it, the remove button takes it away
        box.focus()
        page.keyboard.press("Enter")
        assert box.get_attribute("aria-pressed") == "true"
        panel.locator("[data-photo-remove]").click()
        page.wait_for_selector('[data-photo-panel][data-state="checked"]')
        assert page.input_value("#p1") == "1-1"
        assert panel.locator("[data-photo-warnings] li").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "pa"])
def test_send_my_hand_from_a_phone_then_saved_at_the_tablet(
    browser, live_server, live_app, monkeypatch, lang
):
    fixed_reader(monkeypatch, reading(("3-4", 0.96, (60, 200, 260, 130)), ("6-6", 0.9, (420, 220, 260, 130))))
    game_id = create(live_app, game="mexican-train", players=["Ana", "Ben", "Caro"], set=12, mode="scores")
    phone_context, phone = new_context(browser, live_server, "phone")
    tablet_context, tablet = new_context(browser, live_server, "tablet")
    try:
        with live_app.test_request_context():
            code = send_code(game_id)  # what the table's QR carries
        phone.goto(f"/lang/{lang}?next=" + quote(f"/games/{game_id}/follow?code={code}"))
        shoot(phone, f"follow-send-link-phone-{lang}")
        tap(phone, phone.locator(".send-hand-link a"), "phone")
        phone.wait_for_url(f"**/games/{game_id}/send-hand?code={code}")
        tap(phone, phone.locator('input[name="player"][value="Ben"]'), "phone")
        phone.set_input_files(
            "input[data-photo-input]", files=[{"name": "h.png", "mimeType": "image/png", "buffer": png()}]
        )
        phone.wait_for_selector('[data-photo-panel][data-state="read"]')
        assert phone.input_value("#send-tiles") == "3-4 6-6"
        shoot(phone, f"send-hand-read-phone-{lang}")
        before = stored(live_app, game_id).version
        tap(phone, phone.locator(".send-hand-form button[type=submit]"), "phone")
        phone.wait_for_selector(".flash")
        shoot(phone, f"send-hand-sent-phone-{lang}")
        assert stored(live_app, game_id).version == before  # sent, not booked

        tablet.goto(f"/lang/{lang}?next=/games/{game_id}/rounds/1/hands")
        sent = tablet.locator("[data-sent-hands]")
        assert "Ben" in sent.inner_text() and "Ana, Caro" in sent.inner_text()
        assert tablet.input_value("#p1") == "3-4 6-6"
        shoot(tablet, f"hands-sent-tablet-{lang}")
        tablet.fill("#p0", "5")
        tablet.fill("#p2", "out")
        tablet.locator("form[data-hands] [type=submit]").first.click()
        tablet.wait_for_url(f"**/games/{game_id}")
    finally:
        phone_context.close()
        tablet_context.close()
    record = stored(live_app, game_id).match.rounds[0]
    assert record.hands["Ben"] == ["3-4", "6-6"]
    assert record.points == {"Ana": 5, "Ben": 19, "Caro": 0}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_send_page_at_the_tablets_size(browser, live_server, live_app, monkeypatch, lang):
    """Someone may send a hand from a tablet or laptop too: the page is usable at 1024×768."""
    fixed_reader(monkeypatch, READ)
    game_id = create(live_app, game="chicken-foot", players=["Ana", "Ben", "Caro"], mode="scores")
    context, page = new_context(browser, live_server, "tablet")
    try:
        with live_app.test_request_context():
            code = send_code(game_id)  # what the table's QR carries
        page.goto(f"/lang/{lang}?next=" + quote(f"/games/{game_id}/send-hand?player=Caro&code={code}"))
        assert page.locator('input[name="player"][value="Caro"]').is_checked()
        page.set_input_files(
            "input[data-photo-input]", files=[{"name": "h.png", "mimeType": "image/png", "buffer": png()}]
        )
        page.wait_for_selector('[data-photo-panel][data-state="read"]')
        page.locator('.photo-box[data-tile="5-6"]').click()
        page.locator('[data-photo-tile="5-5"]').click()
        page.wait_for_selector('[data-photo-panel][data-state="checked"]')
        assert page.input_value("#send-tiles") == "3-4 5-5"
        shoot(page, f"send-hand-read-tablet-{lang}")
    finally:
        context.close()
