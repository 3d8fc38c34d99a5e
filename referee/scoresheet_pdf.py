"""The scoresheet laid out as a PDF, in-process, by fpdf2 (text shaped by HarfBuzz, so
Devanagari and Gurmukhi are drawn as they are written). No browser, no system library.

Pure: takes a ``Sheet`` of already translated texts and returns the PDF's bytes. The web
layer builds the ``Sheet`` and runs ``python -m referee.scoresheet_pdf`` (the sheet as JSON
on its input, the PDF on its output; see ``referee.web.companion.pdf``), so a PDF never
holds the interpreter that plays need.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FONTS = Path(__file__).resolve().parents[1] / "static" / "fonts"
PAPERS = {"a4": "A4", "letter": "Letter"}
# The faces a text needs: the Latin face always, a script's face when a text holds its letters.
# The dandas (।, ॥) are shared by both scripts and are in both faces.
SCRIPTS = {
    "NotoSansDevanagari": re.compile("[\u0900-\u0963\u0966-\u097f\ua8e0-\ua8ff]"),
    "NotoSansGurmukhi": re.compile("[\u0a00-\u0a7f]"),
}
DANDAS = re.compile("[\u0964\u0965]")
# Characters a PDF line must not carry (a newline in a cell's text is a line break).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Sheet:
    """What the printed scoresheet says, every text already in the reader's language."""

    title: str
    subtitle: str
    header: list[str]
    rows: list[list[str]]  # one text per cell; "\n" separates a cell's lines
    totals: list[str]
    winners: list[int] = field(default_factory=list)  # columns of the totals row to stress
    rules: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    paper: str = "a4"
    author: str = "Domino Referee"
    # The running totals, as on the game page: {"title", "axis", "rounds", "last_round",
    # "lines": [{"name", "totals", "colour": "#rrggbb", "dash": [on, off] or []}],
    # "threshold", "threshold_label"}; None: no chart (no round booked).
    chart: dict[str, Any] | None = None


def _clean(text: str) -> str:
    return CONTROL.sub(" ", text)


def _texts(sheet: Sheet) -> str:
    parts = [sheet.title, sheet.subtitle, *sheet.header, *sheet.totals, *sheet.rules, *sheet.notes]
    if sheet.chart:
        parts += [sheet.chart["title"], sheet.chart["axis"], sheet.chart.get("threshold_label") or ""]
        parts += [line["name"] for line in sheet.chart["lines"]]
    parts += [cell for row in sheet.rows for cell in row]
    return "\n".join(parts)


def render(sheet: Sheet) -> bytes:
    """The PDF of ``sheet``: one or more pages of its paper, none of them empty."""
    from fpdf import FPDF
    from fpdf.fonts import FontFace

    paper = PAPERS.get(sheet.paper, "A4")
    pdf = FPDF(orientation="portrait", unit="mm", format=paper)
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.set_margins(12, 12, 12)
    pdf.set_title(_clean(sheet.title))
    pdf.set_author(sheet.author)
    pdf.set_creator(sheet.author)
    pdf.add_font("NotoSans", "", str(FONTS / "NotoSans-Regular.ttf"))
    pdf.add_font("NotoSans", "B", str(FONTS / "NotoSans-Bold.ttf"))
    everything = _texts(sheet)
    fallbacks = []
    for family, letters in SCRIPTS.items():
        if letters.search(everything) or (
            family == "NotoSansDevanagari"
            and DANDAS.search(everything)
            and not SCRIPTS["NotoSansGurmukhi"].search(everything)
        ):  # only the faces used are embedded
            pdf.add_font(family, "", str(FONTS / f"{family}-Regular.ttf"))
            pdf.add_font(family, "B", str(FONTS / f"{family}-Bold.ttf"))
            fallbacks.append(family)
    if fallbacks:
        pdf.set_fallback_fonts(fallbacks)
    pdf.set_text_shaping(True)
    pdf.add_page()
    width = pdf.epw

    pdf.set_font("NotoSans", "B", 17)
    pdf.multi_cell(width, 8, _clean(sheet.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("NotoSans", "", 10)
    pdf.multi_cell(width, 5, _clean(sheet.subtitle), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("NotoSans", "", 8.5)
    for line in sheet.rules:
        pdf.multi_cell(width, 4.2, "• " + _clean(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    columns = len(sheet.header)
    size = 10 if columns <= 6 else 8.5 if columns <= 9 else 7
    pdf.set_font("NotoSans", "", size)
    first = 0.16 if columns > 2 else 0.3
    widths = [first] + [(1 - first) / (columns - 1)] * (columns - 1) if columns > 1 else [1.0]
    head = FontFace(emphasis="BOLD", fill_color=(232, 236, 240))
    strong = FontFace(emphasis="BOLD")
    with pdf.table(
        col_widths=widths,
        width=width,
        headings_style=head,
        line_height=size * 0.5,
        text_align="CENTER",
        repeat_headings=1,
        borders_layout="HORIZONTAL_LINES",
    ) as table:
        row = table.row()
        for text in sheet.header:
            row.cell(_clean(text))
        for cells in sheet.rows:
            row = table.row()
            for text in cells:
                row.cell(_clean(text))
        row = table.row()
        for index, text in enumerate(sheet.totals):
            row.cell(_clean(text), style=strong if index in sheet.winners or index == 0 else None)
    pdf.ln(3)
    pdf.set_font("NotoSans", "", 9.5)
    for line in sheet.notes:
        pdf.multi_cell(width, 5, _clean(line), new_x="LMARGIN", new_y="NEXT")
    if sheet.chart and sheet.chart["rounds"]:
        _draw_chart(pdf, sheet.chart)
    return bytes(pdf.output())


CHART_HEIGHT = 62.0  # mm, the plot and its labels
CHART_LABELS = 34.0  # mm at the right for the players' names and totals


def _nice_step(top: float, ticks: int = 5) -> int:
    raw = max(top / ticks, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def _rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _label(pdf: Any, x: float, baseline: float, text: str, align: str = "L") -> None:
    """A line of text whose baseline is at ``baseline``, starting at ``x`` (``align`` "R":
    ending there, "C": centred there). A cell, not ``pdf.text``, so the fallback faces
    draw Devanagari and Gurmukhi."""
    width = pdf.get_string_width(text) + 0.6
    start = x - width if align == "R" else x - width / 2 if align == "C" else x
    height = pdf.font_size * 1.15
    pdf.set_xy(start, baseline - height * 0.78)
    pdf.cell(w=width, h=height, text=text)


def _draw_chart(pdf: Any, chart: dict[str, Any]) -> None:
    """The running totals drawn with lines (as the game page's chart): a grid with its
    values, one line per player in its colour and dash, each named at its end."""
    if pdf.get_y() + CHART_HEIGHT + 14 > pdf.h - pdf.b_margin:
        pdf.add_page()
    pdf.ln(3)
    pdf.set_font("NotoSans", "B", 11)
    pdf.multi_cell(pdf.epw, 6, _clean(chart["title"]), new_x="LMARGIN", new_y="NEXT")
    left = pdf.l_margin + 10
    top = pdf.get_y() + 4  # room for the top value's label above the highest grid line
    plot_w = pdf.epw - 10 - CHART_LABELS
    plot_h = CHART_HEIGHT - 14
    lines = chart["lines"]
    values = [v for line in lines for v in line["totals"]]
    top_value = max([*values, chart.get("threshold") or 0, 1])
    step = _nice_step(top_value)
    y_max = step * -(-top_value // step)
    last = max(int(chart["last_round"]), 1)

    def x_at(n: float) -> float:
        return float(left + plot_w * n / last)

    def y_at(v: float) -> float:
        return float(top + plot_h * (1 - v / y_max))

    pdf.set_font("NotoSans", "", 7.5)
    pdf.set_line_width(0.15)
    for value in range(0, int(y_max) + 1, step):
        y = y_at(value)
        pdf.set_draw_color(120 if value == 0 else 215)
        pdf.line(left, y, left + plot_w, y)
        _label(pdf, left - 1.2, y + 1.1, str(value), "R")
    every = next(s for s in (1, 2, 5, 10, 20, 50, 100, 1000000) if plot_w * s / last >= 6)
    for n in range(0, last + 1, every):
        _label(pdf, x_at(n), top + plot_h + 4, str(n), "C")
    _label(pdf, left + plot_w / 2, top + plot_h + 8.5, _clean(chart["axis"]), "C")
    if chart.get("threshold"):
        y = y_at(chart["threshold"])
        pdf.set_draw_color(214, 51, 108)
        pdf.set_line_width(0.3)
        pdf.set_dash_pattern(dash=1.5, gap=1)
        pdf.line(left, y, left + plot_w, y)
        pdf.set_dash_pattern()
        label = _clean(chart.get("threshold_label") or "")
        _label(pdf, left + 1, y - 1 if y - 4 > top - 4 else y + 3.5, label)
    ends: list[tuple[float, int]] = []
    pdf.set_line_width(0.5)
    for index, line in enumerate(lines):
        pdf.set_draw_color(*_rgb(line["colour"]))
        pdf.set_fill_color(*_rgb(line["colour"]))
        dash = line.get("dash") or []
        if dash:
            pdf.set_dash_pattern(dash=dash[0] / 4, gap=dash[1] / 4)
        points = [(x_at(0), y_at(0))] + [(x_at(n), y_at(v)) for n, v in zip(chart["rounds"], line["totals"])]
        pdf.polyline(points)
        pdf.set_dash_pattern()
        for x, y in points[1:]:
            pdf.circle(x=x, y=y, radius=0.7, style="F")
        ends.append((points[-1][1], index))
    # the names at the lines' ends, spread so they never overlap nor leave the drawing
    gap, low, high = 3.4, top + 1, top + plot_h
    placed: dict[int, float] = {}
    previous = low - gap
    for y, index in sorted(ends):
        placed[index] = previous = max(y, previous + gap)
    overflow = previous - high
    for index in placed:
        placed[index] = max(low, placed[index] - max(overflow, 0))
    label_x = x_at(chart["rounds"][-1]) + 2.5
    pdf.set_font("NotoSans", "", 8)
    for index, line in enumerate(lines):
        y = placed[index]
        pdf.set_fill_color(*_rgb(line["colour"]))
        pdf.rect(label_x, y - 1.2, 2.2, 2.2, style="F")
        _label(pdf, label_x + 3.2, y + 1.1, f"{_clean(line['name'])} {line['totals'][-1]}")
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    pdf.set_xy(pdf.l_margin, top + CHART_HEIGHT - 4)


def to_json(sheet: Sheet) -> str:
    return json.dumps(asdict(sheet), ensure_ascii=False)


def from_json(text: str) -> Sheet:
    return Sheet(**json.loads(text))


def main() -> None:
    """Read a sheet as JSON, write its PDF. Runs at the lowest priority: on a small server
    the plays of the tables come first."""
    if hasattr(os, "nice"):
        os.nice(19)
    sys.stdout.buffer.write(render(from_json(sys.stdin.buffer.read().decode("utf-8"))))


if __name__ == "__main__":
    main()
