"""Importing a backup from the backups page in Chromium: choose the file, read the summary
(nothing written yet), confirm; at 1024×768 and 390×844, in English and Hungarian."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.web import create_app
from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def backup_file(tmp_path: Path) -> Path:
    """An export from another database: a PIN game with a round, a Kozel game, and a copy
    of it that does not replay (refused)."""
    source = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "src.db"), "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False}
    ).test_client()
    pad = source.post(
        "/api/games",
        json={"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores", "pin": "2468"},
    ).get_json()
    source.post(
        f"/api/games/{pad['id']}/rounds/1/hands",
        headers={"X-Table-Pin": "2468"},
        json={"hands": {"Ana": 0, "Ben": 7}},
    )
    source.post("/api/games", json={"game": "kozel", "players": ["Caro", "Dan", "Éva"]})
    data = source.get("/api/export").get_json()
    kozel = next(g for g in data["games"] if g["events"][0]["payload"]["game"] == "kozel")
    broken = json.loads(json.dumps(kozel))
    broken["id"] = "broken-one"
    broken["events"].append(
        {"version": 2, "kind": "action", "payload": {"type": "play", "player": "Zoe", "tile": "1-1"}}
    )
    data["games"].append(broken)
    path = tmp_path / "club-backup.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


@pytest.mark.parametrize("size", ["tablet", "phone"])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_choose_see_the_summary_and_confirm(browser, live_server, tmp_path, size, lang):
    viewport = {"width": 1024, "height": 768} if size == "tablet" else {"width": 390, "height": 844}
    context = browser.new_context(viewport=viewport, base_url=live_server.url, is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        file = backup_file(tmp_path)
        page.goto(f"/lang/{lang}?next=/backup")
        page.set_input_files("#backup-file", str(file))
        shoot(page, f"backup-{size}-{lang}-1-choose")
        page.click("form[enctype] button[type=submit]")
        page.wait_for_selector(".summary")
        assert page.locator('[data-count="games"]').inner_text() == "2"
        assert page.locator('[data-count="rounds"]').inner_text() == "1"
        assert "broken-one" in page.locator("ul.refused").inner_text()
        assert page.request.get("/api/games").json()["games"] == []  # nothing written yet
        shoot(page, f"backup-{size}-{lang}-2-summary")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], width  # no sideways scrolling
        page.click(".summary button.primary")
        page.wait_for_selector(".flash")
        shoot(page, f"backup-{size}-{lang}-3-done")
        assert len(page.request.get("/api/games").json()["games"]) == 2
    finally:
        context.close()


def shoot(page, name: str) -> None:
    screenshot(page, name)
