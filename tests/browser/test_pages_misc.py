"""The pages in Chromium beyond the score pad game: the new-game form's script (players
added and removed, options per game, names remembered on the device), the rule book's
search, the redeal check's picker, tapping tiles on a phone, and screenshots of every page
at 1024×768 and 390×844."""

from __future__ import annotations

import re

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

KOZEL_ROUNDS = [
    {"Masha": [], "Alex": 3, "Olya": 13, "Serg": 5},
    {"Masha": 10, "Alex": 10, "Olya": 5, "Serg": 2},
    {"Masha": [], "Alex": 4, "Olya": ["6-6", "2-6"], "Serg": 6},
]


def create(page, body) -> str:
    response = page.request.post("/api/games", data=body)
    assert response.status == 201, response.text()
    return response.json()["id"]


def post_hands(page, game_id, number, hands):
    response = page.request.post(f"/api/games/{game_id}/rounds/{number}/hands", data={"hands": hands})
    assert response.status == 200, response.text()


def sample_games(page) -> tuple[str, str]:
    mt = create(
        page,
        {
            "game": "mexican-train",
            "set": 12,
            "mode": "scores",
            "players": ["Ana", "Ben", "Caro", "Dmitri Ivanovich"],
        },
    )
    for number, hands in enumerate(
        [
            {"Ana": 12, "Ben": [], "Caro": ["0-0", "12-11"], "Dmitri Ivanovich": 33},
            {"Ana": [], "Ben": 8, "Caro": 17, "Dmitri Ivanovich": ["3-4"]},
            {"Ana": 40, "Ben": 2, "Caro": [], "Dmitri Ivanovich": 19},
        ],
        start=1,
    ):
        post_hands(page, mt, number, hands)
    kz = create(
        page,
        {
            "game": "kozel",
            "mode": "scores",
            "players": ["Masha", "Alex", "Olya", "Serg"],
            "options": {"fish": "one"},
        },
    )
    for number, hands in enumerate(KOZEL_ROUNDS[:2], start=1):
        post_hands(page, kz, number, hands)
    done = create(page, {"game": "chicken-foot", "mode": "scores", "players": ["Ana", "Ben"]})
    for number in range(1, 11):
        post_hands(page, done, number, {"Ana": number, "Ben": []})
    return mt, kz


def test_new_game_form_script(page):
    page.goto("/games/new")
    assert page.locator("fieldset.options[data-game=kozel]").is_hidden()
    page.get_by_label("Kozel (Goat)").check()
    assert page.locator("fieldset.options[data-game=kozel]").is_hidden()  # options folded away
    page.locator("details.more-options summary").click()
    assert page.locator("fieldset.options[data-game=kozel]").is_visible()
    assert page.locator("fieldset.options[data-game=mexican-train]").is_hidden()
    assert page.locator("select[name=set] option[value='9']").is_disabled()
    assert "double-6" in page.locator("select[name=set] option[value='']").inner_text()
    page.get_by_role("button", name="Add a player").click()
    assert page.locator("#player-fields li").count() == 5
    page.get_by_role("button", name="Remove player 1").click()
    assert page.locator("#player-fields li").count() == 4
    for index, name in enumerate(["Masha", "Alex", "Olya", "Serg"]):
        page.locator(f"#players-{index}").fill(name)
    page.get_by_role("button", name="Add a player").click()
    page.locator("#players-4").fill("Fifth")
    screenshot(page, "pages-new-game-refusal-before")
    page.locator("#start").click()
    box = page.locator(".refusal")
    assert "kz.players" in box.inner_text()
    assert box.get_by_role("link", name="kz.players").get_attribute("href") == "/rules/kozel#rule-kz-players"
    screenshot(page, "pages-new-game-refusal-tablet")
    page.get_by_role("button", name="Remove player 5").click()
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/table$"))  # a refereed game opens on its table
    assert "Kozel" in page.title()
    # the device remembers the table
    page.goto("/games/new")
    assert [page.locator(f"#players-{i}").input_value() for i in range(4)] == [
        "Masha",
        "Alex",
        "Olya",
        "Serg",
    ]
    assert page.get_by_label("Kozel (Goat)").is_checked()
    assert page.evaluate("JSON.parse(localStorage.getItem('domino-referee.players'))") == [
        "Masha",
        "Alex",
        "Olya",
        "Serg",
    ]


def test_rule_book_search_and_anchor(page):
    page.goto("/rules/mexican-train#rule-mt-double-open")
    assert page.locator("#rule-mt-double-open").is_visible()
    total = page.locator("li.rule").count()
    page.locator("#rule-filter").fill("can I play on Ben's train")
    page.wait_for_selector('#rule-answers li.hit[data-rule="mt.train.available"]')
    visible = page.locator("li.rule:visible")
    assert 0 < visible.count() <= 8 < total
    assert page.locator("#rule-mt-deal").is_hidden()
    assert "q=can" in page.url
    page.locator("#rule-filter").fill("")
    page.wait_for_function("!document.querySelector('#rule-answers li.hit')")
    assert page.locator("li.rule:visible").count() == total
    assert page.locator("table.deal").is_visible()


def test_redeal_picker(page):
    page.goto("/kozel/redeal")
    for tile in ["1-1", "2-2", "3-3", "4-4", "5-5", "0-6", "1-6", "2-6"]:
        page.locator(f'.picker button[data-tile="{tile}"]').click()
    assert page.locator("#tiles").input_value().split() == ["1-1", "2-2", "3-3", "4-4", "5-5", "0-6", "1-6"]
    assert (
        "7 of 7" in page.locator(".picker-status").inner_text()
        or "7 tiles" in page.locator(".picker-status").inner_text()
    )
    page.get_by_role("button", name="Check the hand").click()
    assert "Yes — deal again" in page.locator(".verdict").inner_text()
    assert "5 doubles" in page.locator(".verdict").inner_text()
    screenshot(page, "pages-redeal-verdict-tablet")


def test_screenshots_tablet_and_phone(page, phone):
    mt, kz = sample_games(page)
    shots = [
        ("home", "/"),
        ("new-game", "/games/new"),
        ("game", f"/games/{mt}"),
        ("game-kozel", f"/games/{kz}"),
        ("hands", f"/games/{mt}/rounds/4/hands"),
        ("scoresheet", f"/games/{mt}/scoresheet"),
        ("scoresheet-kozel", f"/games/{kz}/scoresheet"),
        ("rules", "/rules/mexican-train"),
        ("redeal", "/kozel/redeal"),
        ("no-game", "/games/nosuchgame/table"),
        ("not-found", "/no/such/page"),
    ]
    for device, tab in (("tablet", page), ("phone", phone)):
        for name, url in shots:
            tab.goto(url)
            if name == "hands":
                tab.locator('[data-pick-for="p2"]').tap() if device == "phone" else tab.locator(
                    '[data-pick-for="p2"]'
                ).click()
                for tile in ("0-0", "5-12"):
                    button = tab.locator(f'.picker button[data-tile="{tile}"]')
                    button.tap() if device == "phone" else button.click()
                assert tab.locator("#p2").input_value() == "0-0 5-12"
                assert tab.locator("#p2-sum").inner_text() == "2 tiles: 67 points"
            # nothing wider than the screen, except inside a scrolling table
            overflow = tab.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name} on {device} is {overflow}px too wide"
            screenshot(tab, f"pages-{name}-{device}")
    # dark mode (the tablet at night)
    page.emulate_media(color_scheme="dark")
    for name, url in (
        ("game", f"/games/{mt}"),
        ("hands", f"/games/{mt}/rounds/4/hands"),
        ("scoresheet-kozel", f"/games/{kz}/scoresheet"),
    ):
        page.goto(url)
        screenshot(page, f"pages-{name}-dark")
    # referee mode: tiles on the table are out of the picker, the tracked hand size is shown
    ref = create(page, {"game": "mexican-train", "set": 9, "players": ["Ana", "Ben", "Caro"]})
    response = page.request.post(
        f"/api/games/{ref}/actions", data={"type": "play", "player": "Ana", "tile": "9-5", "train": "Ana"}
    )
    assert response.status == 200
    phone.goto(f"/games/{ref}/rounds/1/hands")
    assert phone.locator('.picker button[data-tile="5-9"]').is_disabled()
    assert phone.locator('.picker button[data-tile="9-9"]').is_disabled()
    phone.locator('[data-pick-for="p0"]').tap()
    phone.locator('.picker button[data-tile="4-9"]').tap()
    assert phone.locator("#p0-sum").inner_text() == "1 of 12 tiles: 13 points"
    assert "holds 12 tiles by the log" in phone.locator("li.hand-row").first.inner_text()
    screenshot(phone, "pages-hands-referee-phone")
    # tap targets: every button and link in the main content is at least 44px high
    for url in (f"/games/{mt}", f"/games/{mt}/rounds/4/hands", "/games/new", "/"):
        phone.goto(url)
        small = phone.evaluate("""() => Array.from(document.querySelectorAll('main button, main a.button, main summary, main input[type=text], main select'))
            .filter(e => e.offsetParent !== null && !e.closest('[aria-hidden=true]') && e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))""")
        assert not small, f"{url}: {small}"


def test_pages_work_without_javascript(browser, live_server):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1024, "height": 768}, base_url=live_server.url
    )
    try:
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        tab.goto("/games/new")
        tab.get_by_role("button", name="Add a player").click()  # a server round trip
        assert tab.locator("#player-fields input").count() == 5
        for index, name in enumerate(["Ana", "Ben"]):
            tab.locator(f"#players-{index}").fill(name)
        tab.get_by_label("Score pad", exact=False).check()
        tab.locator("#start").click()
        tab.wait_for_url(re.compile(r"/games/[^/]+$"))
        tab.get_by_role("link", name="Enter round 1 hands").click()
        assert tab.locator(".picker").is_hidden() and tab.locator("[data-pick-for]").first.is_hidden()
        tab.locator("#p0").fill("0-0 12-12")
        tab.locator("#p1").fill("out")
        tab.get_by_role("button", name="Save the round").click()
        assert "Round 2 of 13" in tab.locator(".progress").inner_text()
        assert tab.locator("li.standing .total").all_inner_texts() == ["74", "0"]
    finally:
        context.close()
