"""A whole Chicken Foot round played on the table page in Chromium.

Double-9, three players with 7 tiles each: the test deals the hands; whoever holds the
9-9 places it (if no one does, players draw through the page until it turns up); then
bots play legal tiles by tapping the tile and the lit place (the spinner, an arm's end, a
foot's toe), drawing and passing through the buttons, until the round ends and the hands
entry opens.
"""

from __future__ import annotations

import random

import pytest

from referee.rules.base import Action
from referee.tiles import Tile, full_set
from tests.browser.table_helpers import assert_tap_targets, root, stored, tap_play
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Caro"]


def click_action(page, kind, version):
    page.click(f'button[data-action="{kind}"]')
    page.wait_for_selector(f'#table[data-version="{version + 1}"]')


@pytest.mark.parametrize("seed", [1])  # a short round with chicken feet
def test_whole_chicken_foot_round_on_the_table_page(page, phone, live_app, live_server, seed):
    response = page.request.post("/api/games", data={"game": "chicken-foot", "set": 9, "players": PLAYERS})
    assert response.status == 201
    game_id = response.json()["id"]
    rng = random.Random(seed)
    tiles = list(full_set(9))
    rng.shuffle(tiles)
    hands = {p: tiles[i * 7 : (i + 1) * 7] for i, p in enumerate(PLAYERS)}
    yard = tiles[21:]
    spinner = Tile(9, 9)

    page.goto(f"/games/{game_id}/table")
    assert "cf.start" in page.locator(".table-status").inner_text()
    # No one may hold the spinner: players draw in turn through the page until it turns up.
    seat = 0
    while not any(spinner in h for h in hands.values()):
        player = PLAYERS[seat % len(PLAYERS)]
        page.click(f'a.who:text-is("{player}")')
        page.wait_for_selector(f'#table[data-actor="{player}"]')
        click_action(page, "draw", root(page)["version"])
        hands[player].append(yard.pop())
        seat += 1
    holder = next(p for p, h in hands.items() if spinner in h)
    page.goto(f"/games/{game_id}/table?who={holder}")
    tap_play(page, spinner, "centre", root(page)["version"])
    hands[holder].remove(spinner)
    assert page.locator(".spinner-hub svg.tile[aria-label='9-9']").count() == 1

    plays, shot = 1, False
    for _ in range(400):
        info = root(page)
        if info["status"] != "playing":
            break
        player = info["turn"]
        engine = stored(live_app, game_id).match.engine
        moves = [(t, on) for t in hands[player] for on in engine.places_for(player, Tile.parse(t))]
        if moves:
            tile, on = rng.choice(moves)
            tap_play(page, tile, str(on), info["version"])
            hands[player].remove(tile)
            plays += 1
            state = page.request.get(f"/api/games/{game_id}").json()
            if not shot and (state["round"]["foot"] or plays == 9):
                shot = True
                screenshot(page, "table-chicken-foot-tablet")
                nxt = state["round"]["turn"]
                if nxt and hands[nxt]:
                    phone.goto(f"/games/{game_id}/table?tile={hands[nxt][0]}")
                    screenshot(phone, "table-chicken-foot-phone")
                    assert_tap_targets(phone)
            if state["round"]["foot"]:
                assert (
                    page.locator(f'.foot.restricting[data-foot="{state["round"]["foot"]["double"]}"]').count()
                    == 1
                )
                assert "Chicken foot on" in page.locator(".foot-note").inner_text()
        elif engine.is_legal(Action("draw", player)):
            click_action(page, "draw", info["version"])
            hands[player].append(yard.pop())
        else:
            click_action(page, "pass", info["version"])
    else:
        raise AssertionError("the round did not end")

    state = page.request.get(f"/api/games/{game_id}").json()
    end = state["round"]["end"]
    title = page.locator(".end-title").inner_text()
    if end["reason"] == "domino":
        assert hands[end["player"]] == [] and f"{end['player']} went out" in title
    else:
        assert end["reason"] == "blocked" and "blocked" in title
    screenshot(page, "table-chicken-foot-round-over")
    with page.expect_navigation() as navigation:
        page.click("a.hands-link")
    assert navigation.value.status == 200
    page.wait_for_url(f"**/games/{game_id}/rounds/1/hands")
