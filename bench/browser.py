"""The table page in Chromium (Debian's, driven by Playwright), on the served app.

- ``table_page_kb`` / ``table_page_requests``: bytes (headers and bodies) and requests of a
  first load of ``/games/<id>/table``; ``null`` without Chromium or Playwright.
- ``taps_per_play`` / ``taps_per_hands_entry``: taps a person needs at the table page
  (1024×768) per logged play, and per player's hand at the round's end (a Mexican Train
  round from a known deal, bench/taps.py; every tap checked to need no scrolling); ``null``
  without Chromium or Playwright.
- ``tap_to_paint_ms``: median time from a tap's event to the frame that shows the logged play,
  measured in the page (a performance mark at the tap, a measure in the first animation frame
  after the table is swapped: static/table.js), Chromium at 1024×768, a Mexican Train round of
  8 players (double-12) under way; ``null`` without Chromium or Playwright.
"""

from __future__ import annotations

import os
import random
import statistics
from typing import TYPE_CHECKING, TypedDict

from bench.driver import GameDriver
from bench.harness import Client, Server
from bench.parts import Part, Row, Sizes
from bench.taps import TablePlayer
from referee.tiles import full_set

if TYPE_CHECKING:
    from playwright.sync_api import Request

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class PageLoad(TypedDict):
    status: int | None
    bytes: int
    kb: float
    requests: int
    external: list[str]
    sizes: list[tuple[str, int]]  # (path, bytes) of each request, the page first


class TableTaps(TypedDict):
    plays: int
    one_tap: int
    taps_per_play: float
    taps_per_hands_entry: float
    hands_taps: int
    other_taps: int


def bench_table_page(server: Server) -> PageLoad | None:
    """First load of /games/<id>/table in Chromium (a fresh context: nothing cached)."""
    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright  # optional and heavy: the "test" extra
    except ImportError:
        return None
    client = Client(server.port)
    driver = GameDriver(random.Random(5), client.create_game())
    for _ in range(12):  # a table with a few tiles on it
        client.step(driver)
    client.close()
    url = f"{server.url}/games/{driver.id}/table"
    requests: list[Request] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1024, "height": 768})
            page = context.new_page()
            page.on("requestfinished", lambda request: requests.append(request))
            failed: list[Request] = []
            page.on("requestfailed", lambda request: failed.append(request))
            response = page.goto(url, wait_until="load")
            page.wait_for_load_state("networkidle")
            status = response.status if response else None
            sizes_by_url = []
            for request in requests:
                sizes = request.sizes()
                size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
                sizes_by_url.append((request.url.replace(server.url, ""), size))
            sizes_by_url.sort(key=lambda pair: not pair[0].endswith("/table"))  # the page first
            total = sum(size for _, size in sizes_by_url)
            external = [
                r.url for r in requests + failed if not r.url.startswith((server.url, "data:", "blob:"))
            ]
            context.close()
        finally:
            browser.close()
    return {
        "status": status,
        "bytes": total,
        "kb": total / 1024,
        "requests": len(requests) + len(failed),
        "external": external,
        "sizes": sizes_by_url,
    }


def bench_taps(server: Server, seed: int = 11) -> TableTaps | None:
    """Taps at the table (bench/taps.py): a Mexican Train round (double-6, two players of
    seven tiles, a known deal) logged through the table page in Chromium at 1024×768, then
    its hands entered by tapping tiles. ``taps_per_play``: taps per logged play (1 when the
    tile fits one place, 2 otherwise); ``taps_per_hands_entry``: taps on the hands entry
    (the link, each tile, save) per player's hand. Every tap is checked to need no scrolling."""
    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright  # optional and heavy: the "test" extra
    except ImportError:
        return None
    players = ["Ana", "Ben"]
    rng = random.Random(seed)
    tiles = [str(t) for t in full_set(6) if str(t) != "6-6"]
    rng.shuffle(tiles)
    hands = {p: tiles[i * 7 : (i + 1) * 7] for i, p in enumerate(players)}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=server.url)
            page = context.new_page()
            page.set_default_timeout(20_000)
            body = {"game": "mexican-train", "set": 6, "players": players, "options": {"hand_size": 7}}
            game_id = page.request.post("/api/games", data=body).json()["id"]
            page.goto(f"/games/{game_id}/table")
            player = TablePlayer(page, hands, tiles[14:], rng)
            taps = player.play_round()
            player.enter_hands(players)
            context.close()
        finally:
            browser.close()
    return {
        "plays": taps.plays,
        "one_tap": taps.one_tap_plays,
        "taps_per_play": taps.play_taps / taps.plays,
        "taps_per_hands_entry": taps.hands_taps / taps.hands_entries,
        "hands_taps": taps.hands_taps,
        "other_taps": taps.other_taps,
    }


EIGHT = ["Ana", "Ben", "Caro", "Dora", "Emese", "Feri", "Gabor", "Hajni"]

# One play through the page as a person taps it, its tap-to-paint read from the page: a tile
# whose face fits one place (one tap), else a fitting tile and its first lit place (the
# second tap is the play); no play: Draw, else Pass (not timed). Returns the measure or None.
_PLAY = """async () => {
  const table = () => document.getElementById("table");
  const settle = (version) => new Promise((resolve) => {
    const check = () => (+table().dataset.version !== version ? resolve(true) : setTimeout(check, 5));
    check();
  });
  const selected = (tile) => new Promise((resolve) => {
    const check = () => (table().dataset.selected === tile ? resolve(true) : setTimeout(check, 5));
    check();
  });
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const version = +table().dataset.version;
  performance.clearMeasures("tap-to-paint");
  let timed = true;
  const one = document.querySelector("#picker button.pick.one-place");
  if (one) one.click();
  else {
    const face = document.querySelector("#picker a.pick.fits");
    if (face) {
      face.click();
      await selected(face.dataset.tile);
      await frames();
      performance.clearMeasures("tap-to-paint");
      const lit = document.querySelector(".place.lit");
      if (!lit) return {error: "no lit place"};
      lit.click();
    } else {
      timed = false;
      const draw = document.querySelector('button[data-action="draw"]:not([disabled])');
      (draw || document.querySelector('button[data-action="pass"]:not([disabled])') ||
       document.querySelector('button[data-action="end"]:not([disabled])')).click();
    }
  }
  await settle(version);
  await frames();
  const measure = performance.getEntriesByName("tap-to-paint").pop();
  return {timed, ms: measure ? measure.duration : null, status: table().dataset.status};
}"""


def bench_tap_to_paint(server: Server, plays: int = 30) -> list[float] | None:
    """``tap_to_paint_ms``'s samples: ``plays`` timed plays of an 8-player Mexican Train round
    (double-12) through the table page in Chromium at 1024×768."""
    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright  # optional and heavy: the "test" extra
    except ImportError:
        return None
    samples: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=server.url)
            page = context.new_page()
            page.set_default_timeout(20_000)
            body = {"game": "mexican-train", "set": 12, "players": EIGHT}
            game_id = page.request.post("/api/games", data=body).json()["id"]
            page.goto(f"/games/{game_id}/table")
            for _ in range(plays * 4):
                result = page.evaluate(_PLAY)
                if result.get("timed") and result.get("ms") is not None:
                    samples.append(float(result["ms"]))
                if len(samples) >= plays or result.get("status") != "playing":
                    break
            context.close()
        finally:
            browser.close()
    return samples


def run(sizes: Sizes, server: Server) -> Part:
    page = bench_table_page(server) if sizes.page else None
    rows: list[Row] = []
    misses: list[str] = []
    if page:
        rows.append(
            Row(
                "table page first load",
                f"{page['kb']:.1f} KB",
                f"{page['requests']} requests, HTTP {page['status']}, "
                f"{len(page['external'])} external; goal <= 100 KB, <= 6 requests",
            )
        )
        rows += [Row(f"  {url[:60]}", f"{size / 1024:.1f} KB") for url, size in page["sizes"]]
        if page["external"]:
            misses.append("table page: external requests " + ", ".join(page["external"]))
    else:
        rows.append(
            Row("table page first load", "n/a", "skipped" if not sizes.page else "no Chromium/Playwright")
        )
    taps = bench_taps(server) if sizes.page else None
    if taps:
        rows.append(
            Row(
                "taps per logged play",
                f"{taps['taps_per_play']:.2f}",
                f"{taps['plays']} plays, {taps['one_tap']} by one tap; draws/passes {taps['other_taps']} taps",
            )
        )
        rows.append(
            Row(
                "taps per hands entry",
                f"{taps['taps_per_hands_entry']:.2f}",
                f"{taps['hands_taps']} taps for the round's hands (link, tiles, save)",
            )
        )
    paints = bench_tap_to_paint(server) if sizes.page else None
    paint_ms = statistics.median(paints) if paints else None
    if paints and paint_ms is not None:
        rows.append(
            Row(
                "tap to paint (median)",
                f"{paint_ms:.1f} ms",
                f"{len(paints)} plays of an 8-player Mexican Train, 1024x768; max {max(paints):.1f} ms; goal <= 100 ms",
            )
        )
    figures = {
        "tap_to_paint_ms": round(paint_ms, 1) if paint_ms is not None else None,
        "table_page_kb": round(page["kb"], 1) if page else None,
        "table_page_requests": page["requests"] if page else None,
        "taps_per_play": round(taps["taps_per_play"], 2) if taps else None,
        "taps_per_hands_entry": round(taps["taps_per_hands_entry"], 2) if taps else None,
    }
    return Part(rows, figures, misses)
