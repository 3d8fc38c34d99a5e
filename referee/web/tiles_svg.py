"""Tiles drawn as SVG pip faces, server-side (no image files, no script needed).

A page with tiles carries a hidden sprite (``tile_sprite()``, included once by base.html
through templates/_tile_sprite.html, after the body has drawn its tiles): one ``<symbol>`` for the tile's face and bar, and one per pip
face (one half of a tile: 1..18 pips, in black, and in the per-number colours used on sets
above double-9). A tile is then a small ``<svg>`` that refers to them with ``<use>``, so a
table of a hundred tiles costs a few kilobytes instead of a hundred.
"""

from __future__ import annotations

from functools import cache, lru_cache

from flask import g, has_request_context
from markupsafe import Markup, escape

from referee.tiles import Tile

# The usual colours of numbered sets (pips 1–18), so large sets are read at a glance.
PIP_COLOURS = {
    1: "#1f77b4",
    2: "#2ca02c",
    3: "#d62728",
    4: "#8c564b",
    5: "#1f3fbf",
    6: "#c9a300",
    7: "#7b3fa0",
    8: "#0a7f6f",
    9: "#6b6b6b",
    10: "#b5651d",
    11: "#1a1a6e",
    12: "#5a8f00",
    13: "#a0005a",
    14: "#0d6e9e",
    15: "#9e4a0d",
    16: "#4a0d9e",
    17: "#2e7d32",
    18: "#b71c1c",
}
PLAIN = "#111"  # pips of sets up to double-9
MOST = 18  # the largest set drawn: double-18
_CLASSIC = {
    0: [],
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    7: [(0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)],
    8: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)],
    9: [(x, y) for x in range(3) for y in range(3)],
}


@cache
def pip_positions(value: int) -> tuple[tuple[float, float], ...]:
    """Pip centres in a unit square (0..1)."""
    if value in _CLASSIC:
        return tuple((0.2 + 0.3 * x, 0.2 + 0.3 * y) for x, y in _CLASSIC[value])
    rows = (value + 2) // 3  # 10–12: 4 rows, 13–15: 5, 16–18: 6
    cells: list[tuple[float, float]] = [(x, y) for y in range(rows) for x in range(3)]
    if value % 3 == 1:
        cells.remove((1, rows - 1))
        cells.remove((1, 0))
        cells.append((1, (rows - 1) / 2))
    elif value % 3 == 2:
        cells.remove((1, (rows - 1) // 2 if rows % 2 else rows // 2))
    step = 0.76 / max(rows - 1, 1)
    return tuple((0.2 + 0.3 * x, 0.12 + step * y) for x, y in cells[:value])


def _num(value: float) -> str:
    """A coordinate, short: 0.2 → ".2", 0.373333 → ".373", 1.0 → "1"."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text[1:] if text.startswith("0.") else text


def face_id(value: int, highest: int) -> str:
    """The sprite symbol of a half with ``value`` pips ("" for a blank half): "t-c6" in the
    colours of sets above double-9, "t-k6" in black for the smaller sets."""
    if value <= 0:
        return ""
    return f"t-c{value}" if highest > 9 else f"t-k{value}"


def _face_symbol(value: int, colour: str, prefix: str) -> str:
    radius = _num(0.085 if value <= 9 else 0.06)
    pips = "".join(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{radius}"/>' for x, y in pip_positions(value))
    return f'<symbol id="t-{prefix}{value}" overflow="visible" fill="{colour}">{pips}</symbol>'


@lru_cache(maxsize=1)
def tile_sprite() -> Markup:
    """The hidden ``<svg>`` of symbols that every tile refers to (once per page).

    The face takes its colours from the page's CSS variables (--tile-face, --tile-edge), which
    are inherited into each ``<use>``, so dark mode and print follow the stylesheet."""
    frame = (
        '<symbol id="t-frame" overflow="visible">'
        '<rect class="tile-face" x=".02" y=".02" width="1.96" height=".96" rx=".12" '
        'style="fill:var(--tile-face,#fffdf4);stroke:var(--tile-edge,#2b2b2b);stroke-width:.04"/>'
        '<line class="tile-bar" x1="1" y1=".12" x2="1" y2=".88" '
        'style="stroke:var(--tile-edge,#2b2b2b);stroke-width:.03"/></symbol>'
    )
    plain = "".join(_face_symbol(value, PLAIN, "k") for value in range(1, 10))
    coloured = "".join(_face_symbol(value, PIP_COLOURS[value], "c") for value in range(1, MOST + 1))
    return Markup(
        '<svg class="tile-sprite" aria-hidden="true" focusable="false" width="0" height="0" '
        'style="position:absolute;width:0;height:0;overflow:hidden">'
        f"<defs>{frame}{plain}{coloured}</defs></svg>"
    )


def _use(value: int, highest: int, x: str = "") -> str:
    """The ``<use>`` of a half's pips (none for a blank half)."""
    symbol = face_id(value, highest)
    return f'<use href="#{symbol}"{x}/>' if symbol else ""


@lru_cache(maxsize=4096)
def tile_svg(tile_text: str, highest: int = 12, vertical: bool = False, first: int | None = None) -> Markup:
    """A tile as an inline SVG image with an accessible name ("6-4"), drawn from the page's
    sprite (``tile_sprite()``).

    ``first`` is the half drawn on the left (or top), so a train reads from the engine out.
    """
    tile = Tile.parse(tile_text)
    a, b = tile.low, tile.high
    if first is not None and tile.has(first):
        a, b = first, tile.other(first)
    if highest > MOST or max(a, b) > MOST:
        raise ValueError(f"tiles are drawn up to double-{MOST}: {tile_text}")
    halves = '<use href="#t-frame"/>' + _use(a, highest) + _use(b, highest, ' x="1"')
    view = "0 0 1 2" if vertical else "0 0 2 1"
    if vertical:
        halves = f'<g transform="translate(1 0) rotate(90)">{halves}</g>'
    label = escape(f"{a}-{b}")
    return Markup(
        f'<svg class="tile{" double" if tile.is_double else ""}" viewBox="{view}" role="img" '
        f'aria-label="{label}"><title>{label}</title>{halves}</svg>'
    )


def draw_tile(tile_text: str, highest: int = 12, vertical: bool = False, first: int | None = None) -> Markup:
    """``tile_svg`` for the templates: it also notes that this page needs the sprite, so
    pages without tiles (home, rules, forms) do not carry it."""
    if has_request_context():
        g.referee_tiles_drawn = True
    return tile_svg(tile_text, highest, vertical, first)


def tiles_drawn() -> bool:
    """Whether this request drew a tile so far (base.html asks after the page's body)."""
    return has_request_context() and bool(g.get("referee_tiles_drawn"))


# The templates reach the sprite through the one global they already have: tile_svg.sprite().
draw_tile.sprite = tile_sprite  # type: ignore[attr-defined]
draw_tile.drawn = tiles_drawn  # type: ignore[attr-defined]
