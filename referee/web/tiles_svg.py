"""Tiles drawn as SVG pip faces, server-side (no image files, no script needed)."""
from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from referee.tiles import Tile

# The usual colours of numbered sets (pips 1–18), so large sets are read at a glance.
PIP_COLOURS = {
    1: "#1f77b4", 2: "#2ca02c", 3: "#d62728", 4: "#8c564b", 5: "#1f3fbf", 6: "#c9a300",
    7: "#7b3fa0", 8: "#0a7f6f", 9: "#6b6b6b", 10: "#b5651d", 11: "#1a1a6e", 12: "#5a8f00",
    13: "#a0005a", 14: "#0d6e9e", 15: "#9e4a0d", 16: "#4a0d9e", 17: "#2e7d32", 18: "#b71c1c",
}
_CLASSIC = {
    0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    7: [(0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)],
    8: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)],
    9: [(x, y) for x in range(3) for y in range(3)],
}


@lru_cache(maxsize=None)
def pip_positions(value: int) -> tuple[tuple[float, float], ...]:
    """Pip centres in a unit square (0..1)."""
    if value in _CLASSIC:
        return tuple((0.2 + 0.3 * x, 0.2 + 0.3 * y) for x, y in _CLASSIC[value])
    rows = (value + 2) // 3  # 10–12: 4 rows, 13–15: 5, 16–18: 6
    cells = [(x, y) for y in range(rows) for x in range(3)]
    if value % 3 == 1:
        cells.remove((1, rows - 1)); cells.remove((1, 0))  # noqa: E702 - keep the face symmetric
        cells.append((1, (rows - 1) / 2))
    elif value % 3 == 2:
        cells.remove((1, (rows - 1) // 2 if rows % 2 else rows // 2))
    step = 0.76 / max(rows - 1, 1)
    return tuple((0.2 + 0.3 * x, 0.12 + step * y) for x, y in cells[:value])


def _half(value: int, x0: float, highest: int) -> str:
    colour = PIP_COLOURS.get(value, "#111") if highest > 9 else "#111"
    radius = 0.085 if value <= 9 else 0.06
    return "".join(
        f'<circle cx="{x0 + px:.3f}" cy="{py:.3f}" r="{radius}" fill="{colour}"/>'
        for px, py in pip_positions(value))


@lru_cache(maxsize=4096)
def tile_svg(tile_text: str, highest: int = 12, vertical: bool = False, first: int | None = None) -> Markup:
    """A tile as an inline SVG image with an accessible name ("6-4").

    ``first`` is the half drawn on the left (or top), so a train reads from the engine out.
    """
    tile = Tile.parse(tile_text)
    a, b = tile.low, tile.high
    if first is not None and tile.has(first):
        a, b = first, tile.other(first)
    halves = _half(a, 0, highest) + _half(b, 1, highest)
    transform = ' transform="translate(1 0) rotate(90)"' if vertical else ""
    view = "0 0 1 2" if vertical else "0 0 2 1"
    label = escape(f"{a}-{b}")
    return Markup(
        f'<svg class="tile{" double" if tile.is_double else ""}" viewBox="{view}" role="img" '
        f'aria-label="{label}"><title>{label}</title><g{transform}>'
        f'<rect x="0.02" y="0.02" width="1.96" height="0.96" rx="0.12" class="tile-face"/>'
        f'<line x1="1" y1="0.12" x2="1" y2="0.88" class="tile-bar"/>{halves}</g></svg>')
