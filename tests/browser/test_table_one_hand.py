"""Logging a whole round with one hand, at a 1024×768 tablet and a 390×844 phone.

A Mexican Train round (double-6, two players, seven tiles each), a Chicken Foot round
(double-9, two players) and a Kozel round (two players) are played through the table page
from known deals (bench/taps.py: the player looks at the page only and taps). For every
tap the page must not scroll and the tapped element must be on screen; every play takes at
most two taps and exactly one when the tile fits a single place; a refusal ("fits nowhere")
is shown on screen beside the picker; after the round the hands are entered by tapping
tiles (the picker moves to the next player by itself) and the round is booked.
"""

from __future__ import annotations

import random

import pytest

from bench.taps import TablePlayer, on_screen, root
from referee.rules.kozel import lead_order
from referee.tiles import Tile, full_set
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

SIZES = {"tablet": (1024, 768), "phone": (390, 844)}
PLAYERS = ["Ana", "Ben"]


@pytest.fixture(params=list(SIZES))
def device(request, browser, live_server):
    width, height = SIZES[request.param]
    phone = request.param == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=live_server.url,
        is_mobile=phone,
        has_touch=phone,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield request.param, page
    context.close()


def create(page, body) -> str:
    response = page.request.post("/api/games", data=body)
    assert response.status == 201, response.text()
    return response.json()["id"]


def deal(seed: int, highest: int, hand: int, aside: Tile | None = None, holder_of: Tile | None = None):
    """Two hands of ``hand`` tiles and the boneyard (its last tile is drawn first); ``aside``
    (the Mexican Train engine) is out of the deal; ``holder_of`` lands in Ana's hand."""
    rng = random.Random(seed)
    tiles = [t for t in full_set(highest) if t != aside]
    rng.shuffle(tiles)
    if holder_of is not None:
        tiles.remove(holder_of)
        tiles.insert(0, holder_of)
    hands = {p: [str(t) for t in tiles[i * hand : (i + 1) * hand]] for i, p in enumerate(PLAYERS)}
    return hands, [str(t) for t in tiles[len(PLAYERS) * hand :]], rng


def play_and_check(page, game_id, player: TablePlayer, name: str, size: str):
    page.goto(f"/games/{game_id}/table")
    assert page.evaluate("window.scrollY") == 0
    # the picker and the actions are on screen with the table from the start
    on_screen(page, page.locator("#picker"))
    on_screen(page, page.locator(".tableau, .table-status").first)
    taps = player.play_round()
    assert taps.plays >= 5, taps
    assert all(t in (1, 2) for t in taps.per_play), taps.per_play
    assert taps.one_tap_plays >= 1, taps  # some tile had a single place and took one tap
    assert page.evaluate("window.scrollY") == 0
    assert root(page)["status"] == "scoring"
    screenshot(page, f"one-hand-{name}-{size}-round-over")
    return taps


def test_mexican_train_round_with_one_hand(device, live_app):
    size, page = device
    game_id = create(
        page, {"game": "mexican-train", "set": 6, "players": PLAYERS, "options": {"hand_size": 7}}
    )
    hands, boneyard, rng = deal(11, 6, 7, aside=Tile(6, 6))
    player = TablePlayer(page, hands, boneyard, rng)
    page.goto(f"/games/{game_id}/table")
    # A tile that fits nowhere: its reasons (rule ids and sentences) appear beside the picker.
    if not player.show_refusal():
        page.goto(f"/games/{game_id}/table?tile=0-0")  # Ana's train starts from 6: 0-0 fits nowhere
        refusal = page.locator(".feedback .refusal")
        on_screen(page, refusal)
        assert "mt.match" in refusal.inner_text()
    # the reminder at the top says what the player on turn must do
    assert "Ana must play" in page.locator(".table-status .now").inner_text()
    # pass before drawing is refused by the engine: the button is disabled with its reason
    knock = page.locator('button[data-action="pass"]')
    assert knock.is_disabled() and "has not drawn" in (knock.get_attribute("title") or "")
    assert page.locator("#act-pass-why a.rule-id").inner_text() == "mt.marker.place"  # the id as its link
    taps = play_and_check(page, game_id, player, "mexican-train", size)
    assert taps.refusals_seen <= 1
    entry = player.enter_hands(PLAYERS)
    assert entry <= 1 + sum(len(h) for h in player.hands.values()) + 1  # link, tiles, save
    state = page.request.get(f"/api/games/{game_id}").json()
    assert state["rounds"][0]["number"] == 1


def test_chicken_foot_round_with_one_hand(device, live_app):
    size, page = device
    game_id = create(page, {"game": "chicken-foot", "set": 9, "players": PLAYERS})
    spinner = Tile(9, 9)
    hands, boneyard, rng = deal(1, 9, 7, holder_of=spinner)
    player = TablePlayer(page, hands, boneyard, rng, first={"Ana": str(spinner)})
    page.goto(f"/games/{game_id}/table")
    # before the first play there is no empty table panel: the reminder says what to do
    assert page.locator(".tableau").count() == 0
    assert "cf.start" in page.locator(".table-status").inner_text()
    player.step()  # who is playing: Ana (one tap)
    player.step()  # the spinner: one place (the centre), one tap
    assert player.taps.per_play == [1]
    player.show_refusal()
    play_and_check(page, game_id, player, "chicken-foot", size)
    player.enter_hands(PLAYERS)
    assert page.request.get(f"/api/games/{game_id}").json()["rounds"][0]["number"] == 1


def test_kozel_round_with_one_hand(device, live_app):
    size, page = device
    game_id = create(page, {"game": "kozel", "players": PLAYERS})
    hands, bazaar, rng = deal(5, 6, 7)
    lead = next(str(t) for t in lead_order() if any(str(t) in h for h in hands.values()))
    leader = next(p for p, h in hands.items() if lead in h)
    player = TablePlayer(page, hands, bazaar, rng, first={leader: lead})
    page.goto(f"/games/{game_id}/table")
    assert page.locator(".tableau").count() == 0  # no empty panel before the first play
    taps = play_and_check(page, game_id, player, "kozel", size)
    assert taps.per_play[0] == 1  # the lead: one place (the empty table)
    player.enter_hands(PLAYERS)
    assert page.request.get(f"/api/games/{game_id}").json()["rounds"][0]["number"] == 1
