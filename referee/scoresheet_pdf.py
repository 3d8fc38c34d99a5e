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


def _clean(text: str) -> str:
    return CONTROL.sub(" ", text)


def _texts(sheet: Sheet) -> str:
    parts = [sheet.title, sheet.subtitle, *sheet.header, *sheet.totals, *sheet.rules, *sheet.notes]
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
    return bytes(pdf.output())


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
