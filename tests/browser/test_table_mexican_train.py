"""A whole Mexican Train round played on the table page in Chromium.

The test deals hidden hands itself (double-9, three players) and bots choose legal tiles
from them; every play is logged the way a player does it: tap the tile in the picker, then
tap the lit train. Draws and passes go through the page's buttons. The round runs until it
ends and the hands-left entry opens.
"""

from __future__ import annotations

import random

import pytest

from referee.rules.base import Action
from referee.store import Store
from referee.tiles import Tile, full_set
from tests.browser.table_helpers import tap_play
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Caro"]


def create(page, body) -> str:
    response = page.request.post("/api/games", data=body)
    assert response.status == 201, response.text()
    return response.json()["id"]


def deal(seed: int, players: list[str], hand: int, highest: int, engine: Tile):
    rng = random.Random(seed)
    tiles = [t for t in full_set(highest) if t != engine]
    rng.shuffle(tiles)
    hands = {p: tiles[i * hand : (i + 1) * hand] for i, p in enumerate(players)}
    return hands, tiles[len(players) * hand :], rng


def load_engine(live_app, game_id):
    store = Store(live_app.config["DATABASE"])
    try:
        game = store.load(game_id)
    finally:
        store.close()
    return game


def table_state(page) -> dict:
    root = page.locator("#table")
    return {
        "version": int(root.get_attribute("data-version")),
        "status": root.get_attribute("data-status"),
        "turn": root.get_attribute("data-turn"),
    }


def play_mt_round(page, live_app, game_id, hands, boneyard, rng, shots=None, max_steps=400):
    """Drive the table page until the round is over; returns the number of tiles played."""
    played = 0
    for _ in range(max_steps):
        info = table_state(page)
        if info["status"] != "playing":
            return played
        player = info["turn"]
        game = load_engine(live_app, game_id)
        engine = game.match.engine
        assert game.version == info["version"]
        moves = [(t, k) for t in hands[player] for k in engine.places_for(player, Tile.parse(t))]
        if moves:
            tile, train = rng.choice(moves)
            places = set(engine.places_for(player, Tile.parse(tile)))
            if len(places) == 1:  # one place: one tap on the tile logs it
                assert tap_play(page, tile, train, info["version"]) == 1
            else:
                page.click(f'a.pick[data-tile="{tile}"]')
                page.wait_for_selector(f'#table[data-selected="{tile}"]')
                lit = page.locator(f'button.place.lit[data-place="{train}"]')
                assert lit.count() == 1, f"{train} should be lit for {tile}"
                all_lit = {
                    page.locator("button.place.lit").nth(i).get_attribute("data-place")
                    for i in range(page.locator("button.place.lit").count())
                }
                assert all_lit == places
                lit.click()
                page.wait_for_selector(f'#table[data-version="{info["version"] + 1}"]')
            hands[player].remove(tile)
            played += 1
            if shots and played == shots[0]:
                shots[1](page)
        elif engine.is_legal(Action("draw", player)):
            page.click('button[data-action="draw"]')
            page.wait_for_selector(f'#table[data-version="{info["version"] + 1}"]')
            hands[player].append(boneyard.pop())
        else:
            page.click('button[data-action="pass"]')
            page.wait_for_selector(f'#table[data-version="{info["version"] + 1}"]')
    raise AssertionError("the round did not end")


def test_whole_round_on_the_table_page(page, phone, live_app, live_server):
    game_id = create(page, {"game": "mexican-train", "set": 9, "players": PLAYERS})
    hands, boneyard, rng = deal(7, PLAYERS, 13, 9, Tile(9, 9))
    page.goto(f"/games/{game_id}/table")
    assert page.locator("h1.turn").inner_text().startswith("Ana")
    assert page.locator(".hub svg.tile[aria-label='9-9']").count() == 1

    def mid_round(page):
        screenshot(page, "table-mexican-train-tablet")
        turn = table_state(page)["turn"]
        engine = load_engine(live_app, game_id).match.engine
        tile = next((t for t in hands[turn] if engine.places_for(turn, Tile.parse(t))), hands[turn][0])
        page.goto(f"/games/{game_id}/table?tile={tile}")
        screenshot(page, "table-mexican-train-tablet-selected")
        page.goto(f"/games/{game_id}/table?tile={tile}&mode=ask&ask=mexican")
        assert page.locator(".answer").count() == 1
        screenshot(page, "table-mexican-train-tablet-ask")
        page.goto(f"/games/{game_id}/table")
        phone.goto(f"/games/{game_id}/table?tile={tile}")
        screenshot(phone, "table-mexican-train-phone")
        # tap targets: every place and picker tile is at least 44 px both ways
        for locator in (phone.locator("button.place"), phone.locator(".pick")):
            for i in range(min(locator.count(), 12)):
                box = locator.nth(i).bounding_box()
                assert box["width"] >= 44 and box["height"] >= 44, box

    # A refused tap (Ben's unmarked train) shows the rule and changes nothing.
    tile = hands["Ana"][0]
    page.click(f'.pick[data-tile="{tile}"]')  # two places (Ana's train, the Mexican train): selected
    page.wait_for_selector(f'#table[data-selected="{tile}"]')
    page.click('button.place[data-place="Ben"]')
    refusal = page.locator(".refusal:not(.nowhere)")  # the tap's refusal, not the selection's reasons
    refusal.wait_for()
    assert refusal.locator(".rule-id").inner_text() in ("mt.train.available", "mt.match")
    assert (
        page.locator(".refusal:not(.nowhere) a.rule-id")
        .get_attribute("href")
        .startswith("/rules/mexican-train#rule-mt-")
    )
    assert table_state(page)["version"] == 1
    # A play, then undo (asked for confirmation) takes it back.
    engine = load_engine(live_app, game_id).match.engine
    tile, train = next((t, k) for t in hands["Ana"] for k in engine.places_for("Ana", Tile.parse(t)))
    tap_play(page, tile, train, 1)
    assert page.locator(f'[data-train="{train}"] .laid[data-tile="{tile}"]').count() == 1
    page.click('a[data-action="undo-ask"]')
    assert str(tile) in page.locator(".undo-confirm").inner_text()
    page.click('.undo-confirm button[data-action="undo"]')
    page.wait_for_selector('#table[data-version="3"]')
    assert page.locator(f'.laid[data-tile="{tile}"]').count() == 0
    assert table_state(page)["turn"] == "Ana"
    # Another tablet logs a draw first: this page's tap is stale and shows the fresh table.
    response = page.request.post(f"/api/games/{game_id}/actions", data={"type": "draw", "player": "Ana"})
    assert response.status == 200
    hands["Ana"].append(boneyard.pop())
    page.click('button[data-action="draw"]')
    page.wait_for_selector('#table[data-version="4"]')
    assert "The table changed: reloaded." in page.locator(".notice").inner_text()
    assert page.request.get(f"/api/games/{game_id}").json()["round"]["hands"]["Ana"] == 14

    played = play_mt_round(page, live_app, game_id, hands, boneyard, rng, shots=(12, mid_round))
    assert played > 0
    assert table_state(page)["status"] == "scoring"
    end = page.locator(".end-title").inner_text()
    state = page.request.get(f"/api/games/{game_id}").json()
    reason = state["round"]["end"]["reason"]
    if reason == "domino":
        assert state["round"]["end"]["player"] in end and "went out" in end
        assert hands[state["round"]["end"]["player"]] == []
    else:
        assert "blocked" in end
    screenshot(page, "table-mexican-train-round-over")
    with page.expect_navigation() as navigation:
        page.click("a.hands-link")
    assert navigation.value.status == 200
    page.wait_for_url(f"**/games/{game_id}/rounds/1/hands")


def test_a_play_by_keyboard_alone_keeps_the_focus_where_the_player_is(page, live_server):
    """Tab to a tile and press Enter: the table is swapped in place and the focus lands on the
    first lit place, so Enter again lays the tile; after the play the focus stays in the table."""
    game_id = create(page, {"game": "mexican-train", "players": PLAYERS, "set": 9})
    page.goto(f"/games/{game_id}/table")
    tile = page.locator('.picker a.pick[data-tile="5-9"]')
    tile.focus()  # where Tab would bring a keyboard player
    tile.press("Enter")
    page.wait_for_function("document.getElementById('table').dataset.selected === '5-9'")
    focused = page.evaluate("""() => { const el = document.activeElement;
        return {cls: el.className, place: el.getAttribute('data-place'), inTable: !!el.closest('#table')}; }""")
    assert "place" in focused["cls"] and "lit" in focused["cls"] and focused["inTable"], focused
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('table').dataset.version === '2'")
    state = page.request.get(f"/api/games/{game_id}").json()
    laid = {name: train["tiles"] for name, train in state["round"]["trains"].items() if train["tiles"]}
    assert laid == {focused["place"]: ["5-9"]} or list(laid.values()) == [["5-9"]], laid
    assert page.evaluate(
        "!!document.activeElement.closest('#table') || document.activeElement.id === 'table'"
    )
    screenshot(page, "table-mexican-train-keyboard")
