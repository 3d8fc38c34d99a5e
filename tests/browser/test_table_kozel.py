"""A whole Kozel round played on the table page in Chromium, with JavaScript off.

Three players (a bazaar of 7): the test deals the hands, finds round 1's lead by
kz.lead.first, and bots play legal tiles by tapping the tile, then the lit end; draws from
the bazaar and knocks go through the buttons, until someone goes out or the fish; then
the hands entry opens.
"""

from __future__ import annotations

import random

import pytest

from referee.rules.base import Action
from referee.rules.kozel import lead_order
from referee.tiles import full_set
from tests.browser.table_helpers import assert_tap_targets, root, stored, tap_play
from tests.conftest import guarded_page, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ["Masha", "Alex", "Olya"]


@pytest.fixture
def nojs_page(browser, live_server):
    """A tablet page with JavaScript off: the table must work by links and forms alone."""
    with guarded_page(browser, live_server, java_script_enabled=False) as tablet:
        yield tablet


def test_whole_kozel_round_on_the_table_page_without_javascript(nojs_page, phone, live_app, live_server):
    page = nojs_page
    response = page.request.post("/api/games", data={"game": "kozel", "players": PLAYERS})
    assert response.status == 201
    game_id = response.json()["id"]
    rng = random.Random(5)
    tiles = list(full_set(6))
    rng.shuffle(tiles)
    hands = {p: tiles[i * 7 : (i + 1) * 7] for i, p in enumerate(PLAYERS)}
    bazaar = tiles[21:]
    lead = next(t for t in lead_order() if any(t in h for h in hands.values()))
    leader = next(p for p, h in hands.items() if lead in h)

    page.goto(f"/games/{game_id}/table")
    assert "kz.lead.first" in page.locator(".table-status").inner_text()
    assert page.locator("h1.turn").inner_text() == "Who is playing?"
    page.click(f'a.who:text-is("{leader}")')
    page.wait_for_selector(f'#table[data-actor="{leader}"]')
    # A lead that public information rules out is refused with its rule (kz.lead.first) ...
    wrong = lead_order()[-1]
    page.click(f'.pick[data-tile="{wrong}"]')  # ruled out: it fits nowhere, so a tap selects it
    page.wait_for_selector(f'#table[data-selected="{wrong}"]')
    page.click('button.place[data-place="centre"]')
    assert page.locator(".refusal .rule-id").inner_text() == "kz.lead.first"
    assert page.locator(".refusal a.rule-id").get_attribute("href") == "/rules/kozel#rule-kz-lead-first"
    assert root(page)["version"] == 1
    # ... and the table goes on from the refusal page (served at the form's address).
    tap_play(page, lead, "centre", root(page)["version"])
    hands[leader].remove(lead)

    plays = 1
    for _ in range(200):
        info = root(page)
        if info["status"] != "playing":
            break
        player = info["turn"]
        game = stored(live_app, game_id)
        engine = game.match.engine
        moves = [
            (t, on)
            for t in hands[player]
            for on in engine.targets()
            if engine.is_legal(Action("play", player, t, on=on))
        ]
        if moves:
            tile, on = rng.choice(moves)
            tap_play(page, tile, str(on), info["version"])
            hands[player].remove(tile)
            plays += 1
            if plays == 6:
                screenshot(page, "table-kozel-tablet")
                phone.goto(f"/games/{game_id}/table?tile={hands[root(page)['turn']][0]}")
                screenshot(phone, "table-kozel-phone")
                assert_tap_targets(phone)
                ends = page.locator(".end-badge")
                state = page.request.get(f"/api/games/{game_id}").json()
                assert [ends.nth(0).inner_text(), ends.nth(1).inner_text()] == [
                    str(v) for v in state["round"]["ends"]
                ]
        elif engine.is_legal(Action("draw", player)):
            page.click('button[data-action="draw"]')
            page.wait_for_selector(f'#table[data-version="{info["version"] + 1}"]')
            hands[player].append(bazaar.pop())
        else:
            page.click('button[data-action="pass"]')
            page.wait_for_selector(f'#table[data-version="{info["version"] + 1}"]')
    else:
        raise AssertionError("the round did not end")

    state = page.request.get(f"/api/games/{game_id}").json()
    end = state["round"]["end"]
    title = page.locator(".end-title").inner_text()
    if end["reason"] == "domino":
        assert hands[end["player"]] == [] and f"{end['player']} went out" in title
    else:
        assert end["reason"] == "fish" and end["player"] in title
        assert page.locator(".fish-banner .fisherman").inner_text() == end["player"]
    screenshot(page, "table-kozel-round-over")
    with page.expect_navigation() as navigation:
        page.click("a.hands-link")
    assert navigation.value.status == 200
    page.wait_for_url(f"**/games/{game_id}/rounds/1/hands")
