"""A Wi-Fi blip at the table (issue 23, point 9), in Chromium.

The server stops and starts again on the same port and database (a restart), and the
network is switched off and on (Playwright's offline mode): a tap made meanwhile stays on
the table, marked as waiting, and is logged exactly once when the server answers, without
a reload (a marker set on ``window`` survives); a tap queued behind it that the referee
refuses is shown as any refusal. The follow page reconnects by itself.
"""

from __future__ import annotations

import pytest

from referee.web import create_app
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Caro"]


@pytest.fixture
def restartable(tmp_path):
    """A served app that can be stopped and started again on the same port and database."""
    config = {"TESTING": True, "DATABASE": str(tmp_path / "blip.db"), "SECRET_KEY": "blip-secret"}
    holder = {"server": LiveServer(create_app(config)), "running": True}
    port = holder["server"].port

    def stop() -> None:
        holder["server"].stop()
        holder["running"] = False

    def start() -> None:
        holder["server"] = LiveServer(create_app(config), port=port)
        holder["running"] = True

    holder["stop"], holder["start"] = stop, start
    yield holder
    if holder["running"]:
        holder["server"].stop()


def actions(page, game_id: str) -> list[dict]:
    response = page.request.get(f"/api/games/{game_id}/events")
    assert response.status == 200, response.text()
    return [e["payload"] for e in response.json()["events"] if e["kind"] == "action"]


def test_a_tap_in_a_blip_waits_and_is_logged_once_without_a_reload(browser, restartable):
    url = restartable["server"].url
    context = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=url, locale="hu-HU")
    page = context.new_page()
    page.set_default_timeout(10_000)
    follower = browser.new_context(viewport={"width": 390, "height": 844}, base_url=url).new_page()
    try:
        response = page.request.post(
            "/api/games", data={"game": "mexican-train", "set": 9, "players": PLAYERS}
        )
        game_id = response.json()["id"]
        page.goto(f"/games/{game_id}/table")
        page.evaluate("window.__sameTable = 'kept'")
        follower.goto(f"/games/{game_id}/follow")
        follower.wait_for_selector("[data-follow-ready]", state="attached")

        # 1. The server is stopped: Draw waits, marked, and is sent again until it answers.
        restartable["stop"]()
        page.click('button[data-action="draw"]')
        bar = page.locator("[data-table-waiting]")
        bar.wait_for(state="visible")
        assert "referee" not in bar.inner_text().lower()  # in Hungarian, not English
        assert page.locator("#table").get_attribute("data-version") == "1"
        page.wait_for_timeout(600)  # a few tries go unanswered
        restartable["start"]()
        page.wait_for_selector('#table[data-version="2"]')
        bar.wait_for(state="hidden")
        assert page.evaluate("window.__sameTable") == "kept"  # no reload
        assert [a["type"] for a in actions(page, game_id)] == ["draw"]
        # the follow page found the server again by itself
        follower.wait_for_selector('.follow-live[data-version="2"]', timeout=15_000)

        # 2. The network is off: a play and a pass tapped after it queue in order; the play
        #    is logged once, the pass (no longer Ana's turn) is refused and shown as such.
        face = page.locator("a.pick.fits").first
        tile = face.get_attribute("data-tile")
        face.click()
        page.wait_for_selector(f'#table[data-selected="{tile}"]')
        page.context.set_offline(True)
        page.click('button.place.lit[data-place="Ana"]')
        bar.wait_for(state="visible")
        assert page.locator(f'#picker .waiting[data-tile="{tile}"]').count() == 1
        page.click('button[data-action="pass"]:not([disabled]), button[data-action="draw"]:not([disabled])')
        assert bar.locator("[data-waiting-count]").inner_text() == "× 2"
        page.wait_for_timeout(300)
        page.context.set_offline(False)
        page.wait_for_selector('#table[data-version="3"]')
        page.wait_for_selector("#table .feedback .refusal")
        bar.wait_for(state="hidden")
        assert page.evaluate("window.__sameTable") == "kept"
        logged = actions(page, game_id)
        assert [a["type"] for a in logged] == ["draw", "play"] and logged[1]["tile"] == tile
        assert page.locator("#table").get_attribute("data-turn") == "Ben"
    finally:
        follower.context.close()
        context.close()
