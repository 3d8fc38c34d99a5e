"""The companion in Chromium: the live follow view, the QR code, the wake lock, the
installable app (manifest, service worker, offline) and the scoresheet PDF.

Every test that uses ``page`` also checks that no request leaves the app."""

from __future__ import annotations

import base64
import io

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

WAKE_STUB = """
window.__wakeCalls = [];
Object.defineProperty(Navigator.prototype, 'wakeLock', {configurable: true, get() { return {
  request(type) {
    window.__wakeCalls.push(type);
    const sentinel = new EventTarget();
    sentinel.release = () => { sentinel.dispatchEvent(new Event('release')); return Promise.resolve(); };
    window.__sentinel = sentinel;
    return Promise.resolve(sentinel);
  }}; }});
"""


def create(page, body) -> dict:
    response = page.request.post("/api/games", data=body)
    assert response.status == 201, response.text()
    return response.json()


def act(page, game_id, **action) -> dict:
    response = page.request.post(f"/api/games/{game_id}/actions", data=action)
    assert response.status == 200, response.text()
    return response.json()


def hands(page, game_id, number, points) -> dict:
    response = page.request.post(f"/api/games/{game_id}/rounds/{number}/hands", data={"hands": points})
    assert response.status == 200, response.text()
    return response.json()


def guard_outside(context, base_url) -> list[str]:
    outside: list[str] = []
    context.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith((base_url, "data:", "blob:")) else None,
    )
    return outside


def test_follow_page_updates_itself_after_plays_logged_elsewhere(page, phone, live_app, live_server):
    live_app.config.update(FOLLOW_STREAM_SECONDS=2.5, FOLLOW_STREAM_POLL=0.2)
    outside = guard_outside(phone.context, live_server.url)
    game = create(page, {"game": "mexican-train", "players": ["Ana", "Ben", "Caro"], "set": 12})
    gid = game["id"]
    phone.goto(f"/games/{gid}/follow")
    phone.wait_for_selector("[data-follow-ready]", state="attached")
    phone.wait_for_selector(".live-badge.is-live")
    phone.evaluate("window.__sameDocument = 'yes'")
    assert phone.locator(".follow-turn").inner_text().startswith("Ana to play")

    # the tablet logs a play (over the API, as the table page does in the same store)
    act(page, gid, type="play", player="Ana", tile="12-5", train="Ana")
    phone.wait_for_selector(".train:has-text('Ana') svg.tile[aria-label='12-5']", timeout=5000)
    assert phone.locator(".follow-turn").inner_text().startswith("Ben to play")
    assert phone.locator("[data-follow-announce]").inner_text().startswith("Updated.")

    # the stream ends after 2.5 s and the browser reconnects: later plays still arrive
    phone.wait_for_timeout(3500)
    act(page, gid, type="play", player="Ben", tile="12-7", train="Ben")
    phone.wait_for_selector(".train:has-text('Ben') svg.tile[aria-label='12-7']", timeout=6000)
    assert phone.evaluate("window.__sameDocument") == "yes"  # no reload
    assert phone.locator(".follow-live").get_attribute("data-version") == "3"
    screenshot(phone, "companion-follow-phone")

    # the tablet-sized view of the same game, with rounds booked, chart drawn
    page.goto(f"/games/{gid}/follow")
    page.wait_for_selector("[data-follow-ready]", state="attached")
    hands(page, gid, 1, {"Ana": 0, "Ben": 14, "Caro": 31})
    page.wait_for_selector("text=Round 2 of 13", timeout=5000)
    assert page.locator(".chart-wide svg.totals-chart polyline").count() == 3
    assert page.locator(".chart-narrow").is_hidden()
    act(page, gid, type="play", player="Ben", tile="11-3", train="Ben")
    page.wait_for_selector("svg.tile[aria-label='11-3']", timeout=5000)
    screenshot(page, "companion-follow-tablet")
    assert not outside, outside


def decode_qr(page, selector: str) -> list[str]:
    """Rasterise the QR image as shown (Chromium draws it) and decode it with zxing-cpp."""
    zxingcpp = pytest.importorskip("zxingcpp")
    data = page.evaluate(
        """(selector) => {
      const img = document.querySelector(selector);
      const size = 400;
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = size;
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingEnabled = false;
      ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, size, size);
      ctx.drawImage(img, 0, 0, size, size);
      const rgba = ctx.getImageData(0, 0, size, size).data;
      let gray = '';
      for (let i = 0; i < rgba.length; i += 4) gray += String.fromCharCode(Math.round((rgba[i] + rgba[i+1] + rgba[i+2]) / 3));
      return {size, pixels: btoa(gray)};
    }""",
        selector,
    )
    pixels = base64.b64decode(data["pixels"])
    image = memoryview(pixels).cast("B", (data["size"], data["size"]))
    return [barcode.text for barcode in zxingcpp.read_barcodes(image)]


def test_share_page_qr_code_decodes_to_the_follow_url(page, phone, live_server):
    game = create(page, {"game": "chicken-foot", "players": ["Ana", "Ben", "Caro"]})
    page.goto(f"/games/{game['id']}/share")
    # the follow address carries the game's send code: a phone that scans it can send a hand
    follow = page.locator("a.share-url").get_attribute("href")
    assert follow.startswith(f"{live_server.url}/games/{game['id']}/follow?code=")
    page.wait_for_function(
        "document.querySelector('img.qr').complete && document.querySelector('img.qr').naturalWidth > 0"
    )
    assert decode_qr(page, "img.qr") == [follow]
    assert page.locator("a.share-url").get_attribute("href") == follow
    qr = page.request.get(f"/games/{game['id']}/follow/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml")
    screenshot(page, "companion-share-tablet")
    phone.goto(f"/games/{game['id']}/share")
    box = phone.locator("img.qr").bounding_box()
    assert box["width"] >= 200 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(phone, "companion-share-phone")
    # the link works: it is the live view
    page.click("a.share-url")
    page.wait_for_selector("[data-follow]")
    assert page.locator(".send-hand-link a").count() == 1  # this browser may send a hand


def test_wake_lock_is_requested_on_game_pages_and_again_when_visible(page, live_server):
    page.context.add_init_script(WAKE_STUB)
    game = create(page, {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]})
    page.goto(f"/games/{game['id']}/follow")
    page.wait_for_function("window.__wakeCalls.length === 1")
    assert page.evaluate("window.__wakeCalls") == ["screen"]
    # the browser releases the lock when the page is hidden; on return it is taken again
    page.evaluate("window.__sentinel.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.__wakeCalls.length === 2")
    assert page.locator("[data-wake-note]").count() == 0
    # not on pages away from a game
    page.goto("/players")
    page.wait_for_load_state("load")
    page.add_script_tag(url="/static/app.js")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__wakeCalls") == []


def test_quiet_note_where_the_browser_has_no_wake_lock(page, live_server):
    page.context.add_init_script("delete Navigator.prototype.wakeLock;")
    game = create(page, {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]})
    page.goto(f"/games/{game['id']}/follow")
    note = page.locator("[data-wake-note]")
    note.wait_for()
    assert "cannot keep the screen awake" in note.inner_text()


def test_manifest_service_worker_and_offline_copy(page, live_server):
    manifest = page.request.get("/static/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    icons = manifest.json()["icons"]
    for icon in icons:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    sw = page.request.get("/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript")

    game = create(page, {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]})
    page.goto(f"/games/{game['id']}/follow")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_server.url + "/"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cached = page.evaluate("""async () => {
      const urls = ['/static/app.css', '/static/companion.css', '/static/app.js',
                    '/static/icon.svg', '/static/manifest.webmanifest'];
      const hits = await Promise.all(urls.map(u => caches.match(u)));
      return urls.filter((u, i) => !hits[i]);
    }""")
    assert cached == []  # all precached
    page.reload()  # now under the worker: the page is kept for offline use
    page.wait_for_selector("[data-follow]")
    page.wait_for_function(f"caches.match('/games/{game['id']}/follow').then(Boolean)")
    page.context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("h1:has-text('Kozel')")
        colour = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert colour not in ("rgba(0, 0, 0, 0)", "")  # app.css came from the cache
    finally:
        page.context.set_offline(False)


def pdf_words(data: bytes) -> list[str]:
    from pypdf import PdfReader

    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return text.split()


def test_scoresheet_pdf_has_the_text_of_the_printed_page(page, live_server):
    game = create(
        page,
        {
            "game": "mexican-train",
            "players": ["Ana", "Bén", "Caro"],
            "set": 12,
            "mode": "scores",
            "options": {"first_double": 2, "last_double": 0},
        },
    )
    gid = game["id"]
    hands(page, gid, 1, {"Ana": 0, "Bén": 23, "Caro": 61})
    hands(page, gid, 2, {"Ana": 17, "Bén": 0, "Caro": 4})
    response = page.request.get(f"/games/{gid}/scoresheet.pdf")
    assert response.status == 200, response.text()[:500]
    assert response.headers["content-type"] == "application/pdf"
    assert "attachment" in response.headers["content-disposition"]
    served = pdf_words(response.body())
    # the words of the printed page's table are on the PDF (made by the server, no browser)
    page.goto(f"/games/{gid}/scoresheet")
    for name in ("Ana", "Bén", "Caro"):
        assert page.locator("table.scoresheet-table thead", has_text=name).count() == 1
    for word in ("Ana", "Bén", "Caro", "17", "61", "65"):
        assert word in served
    assert "Print" not in served and "CSV" not in served  # no buttons on paper


def play_all(page, game_id, state, plays):
    """Log plays in turn order: each (tile, on) is played by whoever's turn it is."""
    for tile, on in plays:
        body = {"type": "play", "player": state["round"]["turn"] or "Ana", "tile": tile}
        if on:
            body["on"] = on
        state = act(page, game_id, **body)
    return state


def test_chicken_foot_and_kozel_tables_players_and_leaderboards(page, phone, live_server):
    outside = guard_outside(phone.context, live_server.url)
    cf = create(page, {"game": "chicken-foot", "players": ["Ana", "Ben", "Caro"]})
    play_all(
        page,
        cf["id"],
        cf,
        [
            ("9-9", None),
            ("9-1", "9-9"),
            ("9-2", "9-9"),
            ("9-3", "9-9"),
            ("9-4", "9-9"),
            ("1-4", "9-1"),
            ("2-2", "9-2"),
            ("2-5", "2-2"),
        ],
    )
    page.goto(f"/games/{cf['id']}/follow")
    arms = page.locator(".arms > li")
    assert arms.count() == 4
    assert arms.nth(1).locator("svg.tile").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    ) == ["9-2", "2-2", "2-5"]
    assert "needs its chicken foot: 1 of 3" in page.locator(".follow-table").inner_text()
    page.emulate_media(color_scheme="dark")
    screenshot(page, "companion-follow-chicken-foot-dark")
    page.emulate_media(color_scheme="light")

    kz = create(page, {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]})
    play_all(page, kz["id"], kz, [("1-1", None), ("1-5", "1-1"), ("1-6", "1-1")])
    phone.goto(f"/games/{kz['id']}/follow")
    assert (
        phone.locator(".line-ends").inner_text() == "Line ends: 5 and 6"
        or phone.locator(".line-ends").inner_text() == "Line ends: 6 and 5"
    )
    assert phone.locator(".remembered").count() == 4  # nothing booked yet: "+0" in yellow
    screenshot(phone, "companion-follow-kozel-phone")

    # finished games for the players' pages
    for winner_points in ({"Ana": 0, "Ben": 12, "Caro": 30}, {"Ana": 9, "Ben": 0, "Caro": 5}):
        mt = create(
            page,
            {
                "game": "mexican-train",
                "players": ["Ana", "Ben", "Caro"],
                "mode": "scores",
                "options": {"first_double": 1, "last_double": 0},
            },
        )
        hands(page, mt["id"], 1, winner_points)
        hands(page, mt["id"], 2, {"Ana": 3, "Ben": 4, "Caro": 0})
    page.goto("/players")
    screenshot(page, "companion-players-tablet")
    page.click("a.player-link:has-text('Ana')")
    page.wait_for_url("**/players/Ana")
    assert page.locator("[data-stat=games]").inner_text() == "4"
    assert page.locator("[data-stat=wins]").inner_text() == "1"
    assert page.locator("tr[data-opponent=Ben] td").all_inner_texts()[:4] == ["2", "1", "1", "0"]
    screenshot(page, "companion-player-tablet")
    phone.goto("/players/Ben")
    screenshot(phone, "companion-player-phone")
    phone.goto("/leaderboard/mexican-train")
    names = phone.locator("table.leaderboard th[scope=row]").all_inner_texts()
    assert [n.split(". ", 1)[1] for n in names] == [
        "Ana",
        "Ben",
        "Caro",
    ]  # 1 win each: Ana has the lower average
    for link in phone.locator("table.leaderboard a").all():
        assert link.bounding_box()["height"] >= 44
    screenshot(phone, "companion-leaderboard-phone")
    page.goto("/leaderboard/mexican-train")
    screenshot(page, "companion-leaderboard-tablet")
    assert not outside, outside


def test_base_page_links_the_manifest_and_loads_the_scripts_on_game_pages(page, live_server):
    """Once base.html carries the companion's lines, every game page keeps the screen awake
    and every page registers the service worker (skipped until then)."""
    page.context.add_init_script(WAKE_STUB)
    game = create(page, {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]})
    page.goto(f"/games/{game['id']}")
    html = page.content()
    if "app.js" not in html or 'rel="manifest"' not in html:
        pytest.skip("base.html does not include the manifest link and the companion scripts yet")
    page.wait_for_function("window.__wakeCalls.length === 1")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_server.url + "/"
    page.goto("/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__wakeCalls") == []  # home is not a game page
