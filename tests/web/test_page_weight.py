"""Page weight (issue 8: the table page's first load ≤ 100 KB and ≤ 6 requests, none
external), held at the client level so a regression shows up without Chromium:

* tiles are drawn by reference: each page carries one hidden sprite of pip faces
  (referee/web/tiles_svg.py, templates/_tile_sprite.html) and a tile is a small <svg> of
  <use href="#…">, so a busy double-12 table stays far below the budget;
* a base.html page asks for few files: one stylesheet and one script of its own (app.css,
  app.js), the page's own ones, and an inline icon; nothing from another host.

``python -m bench --quick`` measures the same page in Chromium (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from bench.driver import MT_GAME, GameDriver
from referee.tiles import full_set
from referee.web.tiles_svg import PIP_COLOURS, face_id, tile_sprite, tile_svg

ROOT = Path(__file__).resolve().parents[2]
TABLE_PAGE_BUDGET = 60 * 1024  # bytes of HTML: 43 KB for the page below, 103 KB when every pip was a <circle>
MAX_SUBRESOURCES = 4  # files a base.html page makes the browser fetch (the table page: 4)
TILE_BUDGET = 200  # bytes of one tile's <svg>

SUBRESOURCE = re.compile(
    r'<link\b[^>]*\brel="(?:stylesheet|icon|preload|modulepreload)"[^>]*\bhref="([^"]+)"'
    r'|<script\b[^>]*\bsrc="([^"]+)"|<img\b[^>]*\bsrc="([^"]+)"'
)


def subresources(html: str) -> list[str]:
    """What the browser fetches when it loads the page (the manifest is only read when the
    app is installed; data: URIs cost no request)."""
    found = [next(url for url in match.groups() if url) for match in SUBRESOURCE.finditer(html)]
    return [url for url in found if not url.startswith("data:")]


def busy_mexican_train(api, actions: int = 70) -> tuple[str, GameDriver]:
    """A double-12 Mexican Train game of 8 players in mid-round, ``actions`` logged."""
    game = api.create(**MT_GAME)
    driver = GameDriver(random.Random(8), game["id"])
    for _ in range(actions):
        kind, payload = driver.next_change()
        assert kind == "action", "the round ended before the table filled up"
        path, body = driver.request(kind, payload)
        status, data = api.post(path, body)
        assert status == 200, data
        driver.accepted(kind, payload)
    return game["id"], driver


def test_busy_double_12_table_page_stays_under_its_byte_budget(client, api):
    game_id, driver = busy_mexican_train(api)
    assert driver.match.round_status() == "playing"
    response = client.get(f"/games/{game_id}/table")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    laid = html.count('class="laid')
    tiles = len(re.findall(r'<svg class="tile[ "]', html))
    # the picker (every tile not on the table) and each train's last four tiles (issue 27: one
    # compact row a train, the earlier tiles counted)
    trains = api.state(game_id)["round"]["trains"].values()
    on_table = sum(len(train["tiles"]) for train in trains)
    assert on_table >= 40 and laid == sum(min(4, len(train["tiles"])) for train in trains), (laid, on_table)
    assert tiles >= 90 - on_table + laid, (laid, tiles)
    assert len(html.encode()) <= TABLE_PAGE_BUDGET, f"{len(html.encode())} bytes, {tiles} tiles"
    assert html.count('class="tile-sprite"') == 1
    before, sprite_and_after = html.split('<svg class="tile-sprite"', 1)
    after = sprite_and_after.split("</svg>", 1)[1]
    assert "<circle" not in before + after  # no tile draws its pips itself any more


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/games/new",
        "/rules/mexican-train",
        "/players",
        "/leaderboard",
        "{game}",
        "{game}/table",
        "{game}/scoresheet",
        "{game}/follow",
        "{game}/share",
        "{game}/rounds/1/hands",
    ],
)
def test_base_pages_fetch_few_files_and_nothing_external(client, api, path):
    game = api.create(**MT_GAME)
    response = client.get(path.format(game=f"/games/{game['id']}"))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    files = subresources(html)
    assert len(files) <= MAX_SUBRESOURCES, files
    assert len(set(files)) == len(files), files  # nothing asked for twice
    assert all(url.startswith("/") and not url.startswith("//") for url in files), files
    assert (
        re.findall(r'<(?:script|img|link)\b[^>]*\b(?:src|href)="(?:https?:)?//', html) == []
    )  # no other host
    assert "/static/app.css" in files and "/static/app.js" in files


def test_table_page_asks_for_four_files_and_an_inline_icon(client, api):
    game = api.create(**MT_GAME)
    html = client.get(f"/games/{game['id']}/table").get_data(as_text=True)
    assert sorted(subresources(html)) == [
        "/static/app.css",
        "/static/app.js",
        "/static/table.css",
        "/static/table.js",
    ]
    icon = re.search(r'<link rel="icon" href="data:image/svg\+xml,([^"]+)"', html)
    assert icon, "the icon is inline (a data: URI), so it costs no request"
    shipped = (ROOT / "static" / "icon.svg").read_text().strip()
    assert unquote(icon.group(1)) == shipped.replace('"', "'")  # the same picture as the file
    assert 'rel="manifest" href="/static/manifest.webmanifest"' in html  # the app's icons stay files


def test_every_tile_reference_is_defined_on_the_page(client, api):
    game_id, _ = busy_mexican_train(api, actions=20)
    for path in ("table", "", "scoresheet", "follow"):
        html = client.get(f"/games/{game_id}/{path}".rstrip("/")).get_data(as_text=True)
        ids = set(re.findall(r'<symbol id="([^"]+)"', html))
        used = set(re.findall(r'<use href="#([^"]+)"', html))
        assert used <= ids, (path, used - ids)
        assert used or path == "scoresheet", path  # (no round booked yet: no doubles to show)
    # the follow page's live part is swapped into the follow page, which has the sprite
    fragment = client.get(f"/games/{game_id}/follow/fragment").get_data(as_text=True)
    used = set(re.findall(r'<use href="#([^"]+)"', fragment))
    assert used and used <= set(re.findall(r'<symbol id="([^"]+)"', str(tile_sprite())))
    assert "tile-sprite" not in fragment  # one sprite per page, not one per update


@pytest.mark.parametrize(
    "path, sprite",
    [
        ("/", "never"),
        ("/games/new", "never"),
        ("/rules/mexican-train", "never"),
        ("/players", "never"),
        ("/leaderboard", "never"),
        ("{game}/share", "never"),
        ("{game}/table", "always"),
        ("{game}/follow", "always"),  # tiles also arrive later by script
        ("{game}", "with tiles"),
        ("{game}/scoresheet", "with tiles"),
        ("{game}/rounds/1/hands", "with tiles"),
    ],
)
def test_the_sprite_comes_only_with_tiles(client, api, path, sprite):
    game_id, _ = busy_mexican_train(api, actions=20)
    html = client.get(path.format(game=f"/games/{game_id}")).get_data(as_text=True)
    uses_tiles = '<use href="#t-' in html
    wanted = {"never": False, "always": True, "with tiles": uses_tiles}[sprite]
    assert html.count('class="tile-sprite"') == (1 if wanted else 0), path
    assert wanted or not uses_tiles, path


def test_the_sprite_has_every_face_once():
    sprite = str(tile_sprite())
    ids = re.findall(r'<symbol id="([^"]+)"', sprite)
    assert len(ids) == len(set(ids))
    assert set(ids) == {"t-frame"} | {f"t-k{v}" for v in range(1, 10)} | {f"t-c{v}" for v in range(1, 19)}
    for value in range(1, 19):  # the numbered sets' colours, and as many pips as the number
        face = re.search(rf'<symbol id="t-c{value}"[^>]*fill="([^"]+)">(.*?)</symbol>', sprite)
        assert face.group(1) == PIP_COLOURS[value] and face.group(2).count("<circle") == value
    for value in range(1, 10):
        face = re.search(rf'<symbol id="t-k{value}"[^>]*fill="([^"]+)">(.*?)</symbol>', sprite)
        assert face.group(1) == "#111" and face.group(2).count("<circle") == value
    assert 'aria-hidden="true"' in sprite and "var(--tile-face" in sprite and "var(--tile-edge" in sprite
    assert len(sprite) < 10 * 1024


@pytest.mark.parametrize("highest", [6, 9, 12, 15, 18])
def test_tiles_are_small_accessible_references(highest):
    for tile in full_set(highest):
        text = str(tile)
        svg = str(tile_svg(text, highest))
        assert len(svg) <= TILE_BUDGET, svg
        assert f'role="img" aria-label="{tile.low}-{tile.high}"><title>{tile.low}-{tile.high}</title>' in svg
        assert ('class="tile double"' in svg) == tile.is_double
        uses = re.findall(r'<use href="#([^"]+)"( x="1")?/>', svg)
        faces = [face_id(tile.low, highest), face_id(tile.high, highest)]
        assert uses == [("t-frame", "")] + [(face, x) for face, x in zip(faces, ("", ' x="1"')) if face]


def test_tile_orientation_vertical_and_colours():
    assert str(tile_svg("6-4", 12)) == (
        '<svg class="tile" viewBox="0 0 2 1" role="img" aria-label="4-6"><title>4-6</title>'
        '<use href="#t-frame"/><use href="#t-c4"/><use href="#t-c6" x="1"/></svg>'
    )
    # first= is the half on the left (a train reads from the engine out)
    assert (
        'aria-label="6-4"><title>6-4</title><use href="#t-frame"/><use href="#t-c6"/><use href="#t-c4" x="1"/>'
        in str(tile_svg("4-6", 12, first=6))
    )
    # vertical: the same drawing turned a quarter, top half first
    vertical = str(tile_svg("9-9", 9, vertical=True))
    assert 'class="tile double" viewBox="0 0 1 2"' in vertical
    assert (
        '<g transform="translate(1 0) rotate(90)"><use href="#t-frame"/><use href="#t-k9"/>'
        '<use href="#t-k9" x="1"/></g>' in vertical
    )
    # up to double-9 the pips are black, above they take the numbered sets' colours; 0 is blank
    assert face_id(0, 12) == "" and face_id(5, 9) == "t-k5" and face_id(5, 12) == "t-c5"
    assert str(tile_svg("0-0", 6)).count("<use") == 1
