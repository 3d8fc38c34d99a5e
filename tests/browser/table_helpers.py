"""Steps shared by the table-page browser tests: read the stored game, tap a tile and a
place, check tap targets."""

from __future__ import annotations

from referee.store import Store


def stored(live_app, game_id):
    store = Store(live_app.config["DATABASE"])
    try:
        return store.load(game_id)
    finally:
        store.close()


def assert_tap_targets(phone) -> None:
    """Every place and picker tile on the phone is at least 44 px both ways."""
    for locator in (phone.locator(".place"), phone.locator(".pick"), phone.locator(".controls button")):
        for i in range(min(locator.count(), 12)):
            box = locator.nth(i).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box


def root(page) -> dict:
    node = page.locator("#table")
    return {
        "version": int(node.get_attribute("data-version")),
        "status": node.get_attribute("data-status"),
        "turn": node.get_attribute("data-turn"),
    }


def tap_play(page, tile, place, version) -> int:
    """Log a play the way a player does; returns the taps it took: one when the tile has a
    single lit place (its face in the picker logs it), else two (the tile, then the place)."""
    one = page.locator(f'button.pick.one-place[data-tile="{tile}"]')
    if one.count():
        assert one.get_attribute("value") == f"{tile}@{place}", one.get_attribute("value")
        one.click()
        page.wait_for_selector(f'#table[data-version="{version + 1}"]')
        return 1
    page.click(f'a.pick[data-tile="{tile}"]')
    page.wait_for_selector(f'#table[data-selected="{tile}"]')
    lit = page.locator(f'button.place.lit[data-place="{place}"]')
    assert lit.count() >= 1, f"{place} should be lit for {tile}"
    lit.first.click()
    page.wait_for_selector(f'#table[data-version="{version + 1}"]')
    return 2
