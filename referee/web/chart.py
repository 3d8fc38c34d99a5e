"""The running totals of a game as an inline SVG line chart, drawn by the server.

No chart library and no script: one ``<svg>`` per chart, one line per player, each line
labelled at its end with the player's name (and drawn with its own dash pattern and marker
shape, so the lines can be told apart without colour). Text and axes use ``currentColor``,
so the chart follows the page's light or dark colours; the line colours are mid-tones that
read on both. ``<title>`` and ``<desc>`` give screen readers the whole table of numbers.
"""

from __future__ import annotations

import itertools
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup, escape

from referee.match import Match
from referee.presenters import Series, presenter_for

# Mid-luminance colours, distinct on a light (#fffdf8) and a dark (#211f19) panel.
COLOURS = ("#2f7ed8", "#e8590c", "#2b9348", "#d6336c", "#8e5cf0", "#b8860b", "#0c8599", "#8a8f98")
DASHES = ("", "7 4", "2 4", "10 4 2 4", "4 3", "12 5", "2 2", "8 3 3 3")
WIDTH, HEIGHT = 560, 280
# TOP leaves room above the highest grid line for a label drawn over it (the top value, a
# line's end label, the goat line's label): text is about 15 px tall above its baseline.
LEFT, RIGHT, TOP, BOTTOM = 44, 140, 26, 40
TEXT_HEIGHT = 15
EMPTY_WIDTH, EMPTY_HEIGHT = 300, 40
LABEL_MAX = 11
_counter = itertools.count(1)
# a halo in the panel's colour keeps labels readable where they cross a line or the axis
HALO = "paint-order: stroke; stroke: var(--panel, #fff); stroke-width: 4px; stroke-linejoin: round"


def running_totals(match: Match) -> Series:
    """Each player's total after each booked round, as the game's presenter counts it (a
    Kozel game: the booked account, with the goat line)."""
    return presenter_for(match.config.game).chart_series(match)


def chart_data(match: Match) -> dict[str, Any]:
    """The running totals for the printed scoresheet (``referee.scoresheet_pdf``'s chart),
    with the same colours, dashes and words as the page's chart."""
    series = running_totals(match)
    what = {"total": _("total"), "booked account": _("booked account")}.get(series.label, series.label)
    return {
        "title": _("Running totals after each round (%(what)s)", what=what),
        "axis": _("round"),
        "rounds": list(series.rounds),
        "last_round": series.last_round,
        "lines": [
            {
                "name": name,
                "totals": list(values),
                "colour": COLOURS[index % len(COLOURS)],
                "dash": [int(part) for part in DASHES[index % len(DASHES)].split()[:2]],
            }
            for index, (name, values) in enumerate(series.totals.items())
        ],
        "threshold": series.threshold,
        "threshold_label": _("goat at %(points)s", points=series.threshold) if series.threshold else None,
    }


def _nice_step(top: float, ticks: int = 5) -> int:
    raw = max(top / ticks, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def _short(name: str) -> str:
    return name if len(name) <= LABEL_MAX else name[: LABEL_MAX - 1] + "…"


def _marker(shape: int, x: float, y: float, colour: str) -> str:
    kind = shape % 4
    if kind == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'
    if kind == 1:
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    if kind == 2:
        return (
            f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y + 3.5:.1f}L{x - 4.5:.1f} {y + 3.5:.1f}Z" '
            f'fill="{colour}"/>'
        )
    return (
        f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y:.1f}L{x:.1f} {y + 4.5:.1f}L{x - 4.5:.1f} {y:.1f}Z" '
        f'fill="{colour}"/>'
    )


def _spread(wanted: list[tuple[float, int]], gap: float, low: float, high: float) -> dict[int, float]:
    """Label heights near their lines' ends without overlapping (a simple sweep)."""
    placed: dict[int, float] = {}
    last = low - gap
    for y, index in sorted(wanted):
        y = max(y, last + gap)
        placed[index] = y
        last = y
    overflow = last - high
    if overflow > 0:  # pushed past the bottom: shift everything up as far as needed …
        for index in placed:
            placed[index] = max(low, placed[index] - overflow)  # … never above the drawing
    return placed


def chart_svg(match: Match, chart_id: str | None = None, width: int = WIDTH, height: int = HEIGHT) -> Markup:
    """The running totals per round as an inline SVG (see the module docstring).

    ``width``/``height`` set the drawing's proportions: the text keeps its size in the
    drawing, so a narrower chart (``width=360``) reads better on a phone."""
    series = running_totals(match)
    return render_series(series, chart_id or f"totals-chart-{next(_counter)}", width, height)


def render_series(series: Series, chart_id: str, width: int = WIDTH, height: int = HEIGHT) -> Markup:
    players = list(series.totals)
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    what = {"total": _("total"), "booked account": _("booked account")}.get(series.label, series.label)
    title = _("Running totals after each round (%(what)s)", what=what)
    if series.rounds:
        desc = "; ".join(
            f"{name}: "
            + ", ".join(
                _("round %(number)s %(points)s", number=n, points=v) for n, v in zip(series.rounds, values)
            )
            for name, values in series.totals.items()
        )
        if series.threshold:
            desc += ". " + _("The goat line is at %(points)s.", points=series.threshold)
    else:
        desc = _("No round has been scored yet.")
    box = (
        f"0 0 {width} {height}"
        if series.rounds
        else f'0 0 {EMPTY_WIDTH} {EMPTY_HEIGHT}" style="max-width: 24rem'
    )
    head = (
        f'<svg class="totals-chart" id="{escape(chart_id)}" viewBox="{box}" role="img" '
        f'aria-labelledby="{escape(title_id)} {escape(desc_id)}" xmlns="http://www.w3.org/2000/svg" '
        f'font-size="15" font-family="system-ui, sans-serif">'
        f'<title id="{escape(title_id)}">{escape(title)}</title>'
        f'<desc id="{escape(desc_id)}">{escape(desc)}</desc>'
    )
    parts = [head]
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    if not series.rounds:
        empty = escape(_("No round scored yet"))
        parts.append(
            f'<rect x="1" y="1" width="{EMPTY_WIDTH - 2}" height="{EMPTY_HEIGHT - 2}" rx="6" fill="none" '
            f'stroke="currentColor" stroke-opacity=".3" stroke-dasharray="4 4"/>'
            f'<text x="{EMPTY_WIDTH / 2}" y="{EMPTY_HEIGHT / 2 + 5}" text-anchor="middle" font-size="14" '
            f'fill="currentColor">{empty}</text></svg>'
        )
        return Markup("".join(parts))
    values = [v for row in series.totals.values() for v in row]
    top_value = max([*values, series.threshold or 0, 1])
    step = _nice_step(top_value)
    y_max = step * -(-top_value // step)
    last = max(series.last_round, 1)

    def x_at(n: float) -> float:
        return LEFT + plot_w * n / last

    def y_at(v: float) -> float:
        return TOP + plot_h * (1 - v / y_max)

    # grid and axes
    for v in range(0, int(y_max) + 1, int(step)):
        y = y_at(v)
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
            f'stroke="currentColor" stroke-opacity="{".5" if v == 0 else ".15"}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="currentColor">{v}</text>'
        )
    every = next(step for step in (1, 2, 5, 10, 20, 50, 100, 1000000) if plot_w * step / last >= 24)
    for n in range(0, last + 1, every):
        x = x_at(n)
        parts.append(
            f'<text x="{x:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle" fill="currentColor">{n}</text>'
        )
    axis = escape(_("round"))
    parts.append(
        f'<text x="{LEFT + plot_w / 2}" y="{height - 4}" text-anchor="middle" '
        f'fill="currentColor" fill-opacity=".8">{axis}</text>'
    )
    if series.threshold:
        y = y_at(series.threshold)
        goat = escape(_("goat at %(points)s", points=series.threshold))
        # above the line, or below it where the line runs along the top of the drawing
        text_y = y - 5 if y - 5 - TEXT_HEIGHT >= 0 else y + TEXT_HEIGHT + 2
        parts.append(
            f'<line class="goat-line" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
            f'stroke="#d6336c" stroke-width="1.5" stroke-dasharray="6 4"/>'
            f'<text x="{LEFT + 4}" y="{text_y:.1f}" fill="currentColor" font-size="13" style="{HALO}">'
            f"{goat}</text>"
        )
    # lines
    ends: list[tuple[float, int]] = []
    for index, name in enumerate(players):
        colour = COLOURS[index % len(COLOURS)]
        dash = DASHES[index % len(DASHES)]
        points = [(x_at(0), y_at(0))] + [
            (x_at(n), y_at(v)) for n, v in zip(series.rounds, series.totals[name])
        ]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="series" data-player="{escape(name)}"><title>{escape(name)}</title>'
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round" stroke-linecap="round"{dash_attr}/>'
        )
        parts.extend(_marker(index, x, y, colour) for x, y in points[1:])
        parts.append("</g>")
        ends.append((points[-1][1], index))
    # labels at the right of each line's last point, spread so they never overlap
    label_x = x_at(series.rounds[-1]) + 10
    placed = _spread(ends, 17, TOP + 4, TOP + plot_h - 6)
    for index, name in enumerate(players):
        colour = COLOURS[index % len(COLOURS)]
        total = series.totals[name][-1]
        y = placed[index]
        parts.append(
            f'<rect x="{label_x:.1f}" y="{y - 5:.1f}" width="10" height="10" rx="2" fill="{colour}"/>'
            f'<text class="series-label" x="{label_x + 14:.1f}" y="{y + 5:.1f}" style="{HALO}" '
            f'fill="currentColor">{escape(_short(name))} {total}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
