"""In Chromium: HTML-ish names are shown as text on every page (nothing interpreted), and
the table PIN page works by tap at tablet and phone sizes."""

from __future__ import annotations

import pytest
import requests

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

NAMES = ["Tom & Jerry", 'O\'Brien "Bob"', "&lt;b&gt;bold&lt;/b&gt;", "{{ 7*7 }}"]


def create(live_server, **body):
    response = requests.post(f"{live_server.url}/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def test_names_with_html_characters_are_shown_as_text(page, live_server):
    assert (
        requests.post(
            f"{live_server.url}/api/games",
            timeout=10,
            json={"game": "kozel", "players": ["Ana", "<script>alert(1)</script>"]},
        ).status_code
        == 400
    )
    scripted = []
    page.on("dialog", lambda dialog: (scripted.append(dialog.message), dialog.dismiss()))
    game = create(live_server, game="mexican-train", players=NAMES, set=12)
    pad = create(live_server, game="mexican-train", players=NAMES, set=12, mode="scores")
    requests.post(
        f"{live_server.url}/api/games/{pad['id']}/rounds/1/hands",
        timeout=10,
        json={"hands": dict(zip(NAMES, [0, 5, 9, 12]))},
    )
    pages = [
        f"/games/{game['id']}",
        f"/games/{game['id']}/table",
        f"/games/{pad['id']}",
        f"/games/{pad['id']}/scoresheet",
        f"/games/{game['id']}/unlock",
        "/",
    ]
    for url in pages:
        response = page.goto(url)
        assert response.status == 200, url
        text = page.inner_text("body")
        for name in NAMES:
            assert name in text, (url, name)  # literally, as typed
        assert "49" not in text.replace("2049", ""), url  # no template evaluated
        assert page.locator("b", has_text="bold").count() == 0, url  # the entity text stayed text
    assert not scripted
    page.goto(f"/games/{game['id']}/unlock")
    screenshot(page, "reliability-unlock-names-tablet")


def test_unlock_page_by_tap(page, phone, live_server):
    game = create(live_server, game="kozel", players=["Ana", "Ben", "Caro"], mode="scores", pin="2468")
    url = f"/games/{game['id']}/unlock"
    page.goto(url)
    box = page.get_by_role("button", name="Unlock").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    page.get_by_role("textbox", name="Table PIN").fill("1357")
    page.get_by_role("button", name="Unlock").click()
    assert "not this game's table PIN" in page.inner_text("[role=alert]")
    screenshot(page, "reliability-unlock-wrong-tablet")
    page.get_by_role("textbox", name="Table PIN").fill("2468")
    page.get_by_role("button", name="Unlock").click()
    page.wait_for_url(f"**/games/{game['id']}")
    # this browser may now change the game through the pages and the API alike
    status = page.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/rounds/1/hands`, {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({hands: {Ana: 0, Ben: 3, Caro: 4}})})).status""",
        game["id"],
    )
    assert status == 200
    phone.goto(url)
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    status = phone.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/actions`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({type: 'undo'})})).status""",
        game["id"],
    )
    assert status == 403  # the phone did not unlock
    screenshot(phone, "reliability-unlock-phone")
