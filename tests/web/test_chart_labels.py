"""The running-totals chart keeps every label inside its drawing (the top one was cut off:
a value, a line's end or the goat line at the top), and the scoresheet PDF draws the chart."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from referee.presenters import Series
from referee.scoresheet_pdf import render
from referee.web.chart import HEIGHT, render_series
from referee.web.companion.pdf import sheet_of
from referee.web.game_view import game_context

TEXT_HEIGHT = 15  # the chart's text is 15 px (13 for the goat line): its glyphs rise that far


def text_rows(svg: str) -> list[float]:
    return [float(y) for y in re.findall(r'<text[^>]* y="([\d.-]+)"', svg)]


def test_labels_at_the_top_of_the_chart_stay_inside_it(app):
    crowded = {f"P{i}": [0, 1] for i in range(8)}  # eight lines ending together at the bottom
    cases = [
        Series([1, 2], {"Ana": [50, 100], "Ben": [20, 40]}, 13),  # a total at the top grid line
        Series([1], {"Masha": [40], "Alex": [100]}, 5, threshold=100, label="booked account"),
        Series([1, 2], crowded, 13),
    ]
    with app.test_request_context():
        for series in cases:
            svg = str(render_series(series, "c"))
            rows = text_rows(svg)
            assert rows and min(rows) >= TEXT_HEIGHT, (series, rows)
            assert max(rows) <= HEIGHT


def test_the_scoresheet_pdf_draws_the_running_totals(app, client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    api.hands(game["id"], 1, {"Ana": 0, "Ben": 17})
    api.hands(game["id"], 2, {"Ana": 25, "Ben": 0})
    with app.test_request_context(headers={"Accept-Language": "hu"}):
        from referee.web.db import get_store

        sheet = sheet_of(game_context(get_store().load(game["id"])), "a4")
    assert sheet.chart is not None
    assert [line["totals"] for line in sheet.chart["lines"]] == [[0, 25], [17, 17]]
    assert sheet.chart["axis"] == "kör" and sheet.chart["rounds"] == [1, 2]
    text = PdfReader(io.BytesIO(render(sheet))).pages[0].extract_text()
    assert "Ana 25" in text and "Ben 17" in text and "kör" in text
    # the served PDF carries it too; a game with no round booked has no chart
    served = client.get(f"/games/{game['id']}/scoresheet.pdf")
    assert (
        served.status_code == 200 and "Ana 25" in PdfReader(io.BytesIO(served.data)).pages[0].extract_text()
    )
    fresh = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    with app.test_request_context():
        from referee.web.db import get_store

        assert sheet_of(game_context(get_store().load(fresh["id"])), "a4").chart is None
