"""The table page as a family meets it (issue 27), in Chromium at 1024×768 and 390×844, in
English and Hungarian, one page reused for many checks: every train of an 8-player Mexican
Train in view with its open end, nothing moving between two taps, the focus after a typed
tile and the skip link, the dark-mode switch remembered, each logged play announced."""

from __future__ import annotations

import random

import pytest

from referee.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Caro", "Dóra", "Emese", "Feri", "Gábor", "Hajnalka"]

IN_VIEW = """() => {
  const pane = document.querySelector(".pane-table"), dock = document.querySelector(".dock");
  const limit = Math.min(window.innerHeight, dock.getBoundingClientRect().top > pane.getBoundingClientRect().top
                         ? dock.getBoundingClientRect().top : window.innerHeight);
  return [...document.querySelectorAll("[data-train] .train-end")].map((end) => {
    const r = end.getBoundingClientRect();
    return r.bottom <= limit + 1 && r.right <= window.innerWidth + 1 && r.top >= 0;
  });
}"""


def a_round_under_way(page, live_app) -> str:
    game = page.request.post(
        "/api/games", data={"game": "mexican-train", "set": 12, "players": PLAYERS}
    ).json()
    rng = random.Random(7)
    store = Store(live_app.config["DATABASE"])
    try:
        for _ in range(30):
            engine = store.load(game["id"]).match.engine
            turn = engine.turn()
            plays = [p for p in engine.legal_plays(turn) if not p.tile.is_double]
            body = (
                {"type": "play", "player": turn, "tile": str(rng.choice(plays).tile)}
                if plays
                else {"type": "draw", "player": turn}
            )
            if plays:
                body["train"] = next(p.train for p in plays if str(p.tile) == body["tile"])
            status = page.request.post(f"/api/games/{game['id']}/actions", data=body).status
            if status != 200:
                page.request.post(f"/api/games/{game['id']}/actions", data={"type": "pass", "player": turn})
    finally:
        store.close()
    return game["id"]


def a_kozel_line(page, live_app) -> str:
    """A Kozel round of four with a dozen tiles down: the line wraps at 1024×768."""
    game_id = page.request.post(
        "/api/games", data={"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dani"]}
    ).json()["id"]
    for player in ["Ana", "Ben", "Caro", "Dani"]:  # the lead: whoever holds 1-1 (kz.lead.first)
        if page.request.post(
            f"/api/games/{game_id}/actions", data={"type": "play", "player": player, "tile": "1-1"}
        ).ok:
            break
    rng = random.Random(5)
    store = Store(live_app.config["DATABASE"])
    try:
        for _ in range(12):
            engine = store.load(game_id).match.engine
            plays = list(engine.legal_plays(engine.turn()))
            if not plays:
                break
            page.request.post(f"/api/games/{game_id}/actions", data=rng.choice(plays).to_json())
    finally:
        store.close()
    return game_id


LINE = """() => {
  const tiles = [...document.querySelectorAll(".line .laid")].map((t) => t.getBoundingClientRect());
  const left = document.querySelector(".line-end.left").getBoundingClientRect();
  const right = document.querySelector(".line-end.right").getBoundingClientRect();
  const last = tiles[tiles.length - 1], first = tiles[0];
  return {rows: new Set(tiles.map((r) => Math.round(r.top / 20))).size,
          rightAfterLast: right.left >= last.right - 1 && right.left - last.right < 40 && right.top < last.bottom,
          leftBeforeFirst: left.right <= first.left + 1 && left.bottom > first.top};
}"""


def test_the_table_at_1024_in_english(page, live_app):
    game_id = a_round_under_way(page, live_app)
    page.goto(f"/games/{game_id}/table")
    assert page.locator("[data-train]").count() == 9
    assert all(page.evaluate(IN_VIEW)), "every train's open end is in view"
    assert page.evaluate("(document.querySelector('.trains').getBoundingClientRect().bottom <= innerHeight)")
    assert page.locator(".reminders").count() == 0
    # states told apart without hue: the train on turn by an icon and a double border, a
    # marker by its flag and word, the Mexican train by a dotted border
    assert page.locator(".train.on-turn .state-icon").count() == 1
    assert page.locator(".train.on-turn").evaluate("(el) => getComputedStyle(el).borderLeftStyle") == "double"
    assert page.locator(".train.mexican").evaluate("(el) => getComputedStyle(el).borderLeftStyle") == "dotted"
    for marker in page.locator(".train.marked .marker").all():
        assert marker.inner_text().startswith("⚑")
    assert page.locator(".table-status .now a.rule-id").count() == 1  # the rule id only as a link
    # a tile that fits two places: its prompt takes the kept slot, Draw does not move
    draw_before = page.locator('button[data-action="draw"]').bounding_box()
    face = page.locator("a.pick.fits").first
    tile = face.get_attribute("data-tile")
    face.click()
    page.wait_for_selector(f'#table[data-selected="{tile}"]')
    assert page.locator('button[data-action="draw"]').bounding_box() == draw_before
    # the keyboard: a typed tile and Enter lead to the lit place; the skip link into the picker
    page.goto(f"/games/{game_id}/table")
    page.fill("[data-type-tile]", tile.replace("-", " "))
    page.press("[data-type-tile]", "Enter")
    page.wait_for_selector(f'#table[data-selected="{tile}"]')
    page.wait_for_function("document.activeElement && document.activeElement.matches('.place.lit')")
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('picker').contains(document.activeElement)")
    # a logged play is announced; the dark-mode switch is remembered
    page.click("a.button.cancel")
    page.wait_for_selector('#table[data-selected=""]')
    one = page.locator("button.pick.one-place").first
    if one.count():
        version = int(page.locator("#table").get_attribute("data-version"))
        one.click()
        page.wait_for_selector(f'#table[data-version="{version + 1}"]')
        page.wait_for_function(
            "document.querySelector('[data-table-announce]').textContent.startsWith('Logged')"
        )
    # Kozel: the line of play is one line, left end … right end, wrapping like a sentence
    page.goto(f"/games/{a_kozel_line(page, live_app)}/table")
    line = page.evaluate(LINE)
    assert line["rightAfterLast"] and line["leftBeforeFirst"], line
    page.click("[data-theme-switch]")
    assert page.evaluate("document.documentElement.dataset.theme") in ("dark", "light")
    chosen = page.evaluate("document.documentElement.dataset.theme")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == chosen
    assert page.locator("[data-theme-switch]").get_attribute("aria-pressed") == (
        "true" if chosen == "dark" else "false"
    )


def test_the_table_on_a_phone_in_hungarian(browser, live_server, live_app):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        base_url=live_server.url,
        locale="hu-HU",
        is_mobile=True,
        has_touch=True,
    )
    phone = context.new_page()
    try:
        game_id = a_round_under_way(phone, live_app)
        phone.goto(f"/games/{game_id}/table")
        assert phone.locator("html").get_attribute("lang") == "hu"
        assert all(phone.evaluate(IN_VIEW)), "every train's open end above the picker"
        draw_before = phone.locator('button[data-action="draw"]').bounding_box()
        face = phone.locator("a.pick.fits").first
        tile = face.get_attribute("data-tile")
        face.click()
        phone.wait_for_selector(f'#table[data-selected="{tile}"]')
        assert phone.locator('button[data-action="draw"]').bounding_box() == draw_before
        assert all(phone.evaluate(IN_VIEW))
    finally:
        context.close()
