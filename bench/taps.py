"""Taps at the table: a player's hand driven through the table page in Chromium, counting
every tap and checking that the page never had to scroll.

``TablePlayer`` holds the hidden hands of a known deal and plays a round the way a person at
the table does: it looks at the page only (the picker's faces say which tiles fit and which
fit exactly one place; the lit places; the enabled buttons), taps, and waits for the table
to answer. Each tap first checks that the element is on screen (inside the viewport, the
page itself not scrolled: a pane may scroll inside itself, the page never does). Used by the
browser tests (tests/browser/test_table_one_hand.py) and by the benchmark
(``taps_per_play``, ``taps_per_hands_entry`` in bench/browser.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page


class ScrollNeeded(AssertionError):
    """A tap needed the page to scroll (or its target was off screen)."""


@dataclass
class Taps:
    plays: int = 0
    play_taps: int = 0
    one_tap_plays: int = 0
    other_taps: int = 0  # draws, passes, who-is-playing, the hands link
    refusals_seen: int = 0
    per_play: list[int] = field(default_factory=list)
    hands_entries: int = 0
    hands_taps: int = 0


_ON_SCREEN = """(el) => {
  el.scrollIntoView({block: "nearest", inline: "nearest"});  // a pane scrolls inside itself
  const r = el.getBoundingClientRect(), doc = document.documentElement;
  return {y: window.scrollY, x: window.scrollX, over: doc.scrollHeight - window.innerHeight,
          top: r.top, left: r.left, bottom: r.bottom, right: r.right,
          width: window.innerWidth, height: window.innerHeight};
}"""


def on_screen(page: Page, locator: Locator) -> None:
    """The element is inside the viewport and the page is not scrolled (one round trip)."""
    s = locator.evaluate(_ON_SCREEN)
    if s["y"] or s["x"] or s["over"] > 1:
        raise ScrollNeeded(f"the page scrolled or overflows: {s}")
    if s["top"] < -1 or s["left"] < -1 or s["bottom"] > s["height"] + 1 or s["right"] > s["width"] + 1:
        raise ScrollNeeded(f"off screen: {s}")


def tap(page: Page, locator: Locator) -> None:
    on_screen(page, locator)
    locator.click()


_READ = """() => {
  const t = document.getElementById("table"), faces = {};
  document.querySelectorAll("#picker .pick[data-tile]").forEach((f) => { faces[f.dataset.tile] = f.className; });
  const button = (kind) => { const b = document.querySelector('button[data-action="' + kind + '"]');
                             return !!b && !b.disabled; };
  return {version: +t.dataset.version, status: t.dataset.status, turn: t.dataset.turn,
          actor: t.dataset.actor, selected: t.dataset.selected, faces,
          draw: button("draw"), pass: button("pass")};
}"""


# What _READ returns ("pass" is a keyword: the functional form).
TableState = TypedDict(
    "TableState",
    {
        "version": int,
        "status": str,
        "turn": str,
        "actor": str,
        "selected": str,
        "faces": dict[str, str],  # the picker's faces: tile -> its classes
        "draw": bool,
        "pass": bool,
    },
)


def root(page: Page) -> TableState:
    """The table's state and the picker's faces, read in one round trip."""
    state: TableState = page.evaluate(_READ)
    return state


class TablePlayer:
    """Plays a round through the table page for players whose hands it knows."""

    def __init__(
        self,
        page: Page,
        hands: dict[str, list[str]],
        boneyard: list[str],
        rng: random.Random,
        first: dict[str, str] | None = None,
    ) -> None:
        self.page = page
        self.hands = {p: list(h) for p, h in hands.items()}
        self.boneyard = list(boneyard)
        self.rng = rng
        self.first = dict(first or {})  # {player: tile} the opening tile and who holds it
        self.taps = Taps()
        self.drawn: dict[str, str | None] = {}

    # ------------------------------------------------------------------ one step

    def _wait_version(self, version: int) -> None:
        self.page.wait_for_selector(f'#table[data-version="{version + 1}"]')

    def _face(self, tile: str) -> Locator:
        return self.page.locator(f'#picker .pick[data-tile="{tile}"]')

    def show_refusal(self) -> bool:
        """Tap a tile of the player's hand that fits nowhere: the refusal must be on screen
        beside the picker; then Cancel. False when every tile fits somewhere."""
        info = root(self.page)
        player = info["actor"]
        for tile in self.hands.get(player, []):
            cls = info["faces"].get(tile)
            if cls is not None and "fits" not in cls.split():
                tap(self.page, self._face(tile))
                self.page.wait_for_selector(f'#table[data-selected="{tile}"]')
                refusal = self.page.locator(".feedback .refusal")
                refusal.wait_for()
                on_screen(self.page, refusal)
                self.taps.refusals_seen += 1
                tap(self.page, self.page.locator("#play a.cancel"))
                self.page.wait_for_selector('#table[data-selected=""]')
                return True
        return False

    def step(self) -> bool:
        """One action through the page; False once the round is over."""
        info = root(self.page)
        if info["status"] != "playing":
            return False
        player = info["actor"]
        if not player:  # nobody on turn yet (a Kozel lead, a Chicken Foot spinner): who holds it
            holder = next(iter(self.first))
            tap(self.page, self.page.locator(f'a.who[href*="who={holder}"]').first)
            self.page.wait_for_selector(f'#table[data-actor="{holder}"]')
            self.taps.other_taps += 1
            return True
        version = info["version"]
        drawn = self.drawn.get(player)
        if self.first:
            opening = self.first.get(player)
            options = [opening] if opening is not None else []
        elif drawn:
            options = [drawn]  # a drawn tile that fits is the one played
        else:
            options = list(self.hands[player])
        faces = []
        for tile in options:
            cls = (info["faces"].get(tile) or "").split()
            if "fits" in cls:
                faces.append((tile, self._face(tile), "one-place" in cls))
        if faces:
            tile, face, one = self.rng.choice(faces)
            tap(self.page, face)
            if one:
                self._wait_version(version)
                taps = 1
                self.taps.one_tap_plays += 1
            else:
                self.page.wait_for_selector(f'#table[data-selected="{tile}"]')
                lit = self.page.locator("button.place.lit")
                count = lit.count()
                if count == 0:
                    raise AssertionError(f"{tile} fits but no place is lit")
                if count == 1:
                    raise AssertionError(f"{tile} has one lit place: its face should have logged it")
                tap(self.page, lit.nth(self.rng.randrange(count)))
                self._wait_version(version)
                taps = 2
            self.hands[player].remove(tile)
            self.first.pop(player, None)
            self.first.clear()
            self.drawn[player] = None
            self.taps.plays += 1
            self.taps.play_taps += taps
            self.taps.per_play.append(taps)
            return True
        if info["draw"]:
            tap(self.page, self.page.locator('button[data-action="draw"]'))
            self._wait_version(version)
            tile = self.boneyard.pop()
            self.hands[player].append(tile)
            self.drawn[player] = tile
            self.taps.other_taps += 1
            return True
        if not info["pass"]:
            raise AssertionError(f"{player} can neither play, draw nor pass: {info}")
        tap(self.page, self.page.locator('button[data-action="pass"]'))
        self._wait_version(version)
        self.drawn[player] = None
        self.taps.other_taps += 1
        return True

    def play_round(self, max_steps: int = 600) -> Taps:
        for _ in range(max_steps):
            if not self.step():
                return self.taps
        raise AssertionError("the round did not end")

    # ------------------------------------------------------------------ hands left

    def enter_hands(self, players: list[str]) -> int:
        """From the round's end: open the hands entry, tap every hand's tiles (the picker
        moves on by itself; whoever went out is entered already), save. Returns the taps."""
        page = self.page
        taps = 0
        link = page.locator("a.hands-link")
        tap(page, link)
        page.wait_for_selector("form[data-hands] [data-picker]:not([hidden])")
        taps += 1
        for index, name in enumerate(players):
            field_ = page.locator(f"#p{index}")
            if field_.input_value().strip():
                continue  # "out", filled in by the page
            for tile in self.hands[name]:
                row = page.locator(f"li.hand-row:has(#p{index})")
                if "active" not in (row.get_attribute("class") or "") and len(players) > 1:
                    page.locator(f'[data-pick-for="p{index}"]').click()
                    taps += 1
                page.locator(f'[data-picker] button[data-tile="{tile}"]').click()
                taps += 1
        with page.expect_navigation():
            page.locator("form[data-hands] [type=submit]").first.click()
        taps += 1
        self.taps.hands_entries += len(players)
        self.taps.hands_taps += taps
        return taps
