"""A whole club night in Chromium: the sets offered for the chosen game, an 8-player progressive night of 2 tables and 2 stages
made on the "New club night" page (preview, then start), a table opened from the night
page, the tables' rounds booked through the API, the night page updating by itself, "Next
stage" with its moves, the last stage closed and the night sheet; the board at 1920×1080
and 1280×720 without scrolling and the night page on a 390×844 phone. One browser for all of it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

EIGHT = ["Ana", "Ben", "Caro", "Dee", "Eve", "Finn", "Gus", "Hana"]
POINTS = dict(zip(EIGHT, [5, 10, 15, 20, 1, 2, 3, 4]))


def play_stage(page, night_id: str) -> None:
    """Every table of the stage in play books its one round (the tablets' work, by API)."""
    night = page.request.get(f"/api/nights/{night_id}").json()
    for table in night["tables"]:
        hands = {name: POINTS[name] for name in table["players"]}
        response = page.request.post(f"/api/games/{table['game']}/rounds/1/hands", data={"hands": hands})
        assert response.status == 200 and response.json()["status"] == "finished", response.text()


ENABLED_SETS = (
    "Array.from(document.querySelectorAll('select[name=set] option:not([disabled])'), o => o.value)"
)


def test_a_progressive_night_through_the_pages(page, phone, browser, live_server):
    page.goto("/nights/new")
    # the sets a game allows (its declaration), the others greyed out as on the new game page
    page.check("input[name=game][value=kozel]")
    assert page.evaluate(ENABLED_SETS) == ["", "6"]
    page.select_option("select[name=set]", "6")
    page.check("input[name=game][value=mexican-train]")
    assert page.evaluate(ENABLED_SETS) == ["", "6", "9", "12", "15", "18"]
    assert page.input_value("select[name=set]") == "6"
    page.select_option("select[name=set]", "")  # the usual set (double-12) for the night below
    page.fill("input[name=name]", "Tuesday club")
    page.fill("textarea[name=players]", "\n".join(EIGHT))
    page.check("input[name=mode][value=scores]")
    page.fill("input[name=stages]", "2")
    page.fill("input[name=rounds_per_stage]", "1")
    page.check("input[name=seating][value=progressive]")
    page.click("input[name=preview]")
    assert page.locator("#tables-preview .night-table").count() == 2
    assert page.locator("#tables-preview .night-table").first.inner_text().count("\n") >= 4
    page.click("input[name=start]")
    page.wait_for_url("**/nights/*")
    night_id = page.url.rsplit("/", 1)[1]
    assert page.locator(".night-table svg.qr").count() == 2

    page.click(".night-table[data-table='1'] >> text=Open the table")
    page.wait_for_url("**/games/*")
    page.go_back()

    play_stage(page, night_id)
    page.wait_for_function("document.querySelectorAll('.night-table.done').length === 2", timeout=8000)
    page.click("button:has-text('Next stage')")
    page.wait_for_selector(".move-list")
    moves = page.locator(".move-list").inner_text()
    assert "Dee → table 2" in moves and "Eve → table 1" in moves

    play_stage(page, night_id)
    page.click("button:has-text('Finish the night')")
    page.wait_for_selector("text=The night is finished.")
    page.click("text=Night sheet")
    assert page.locator("h2:has-text('Final standing')").count() == 1
    assert "Eve" in page.locator(".night-standing-table tbody tr").first.inner_text()

    for width, height in ((1920, 1080), (1280, 720)):  # a TV, a small projector
        board = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url)
        try:
            tv = board.new_page()
            tv.goto(f"/nights/{night_id}/board")
            assert tv.evaluate("document.scrollingElement.scrollHeight <= innerHeight"), (width, height)
            assert tv.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), (width, height)
            assert tv.locator(".board-lines li").count() == 8
        finally:
            board.close()

    phone.goto(f"/nights/{night_id}")
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert phone.locator(".night-standing .placing").count() == 8
