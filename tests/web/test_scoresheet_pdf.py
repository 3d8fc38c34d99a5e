"""The scoresheet PDF: made without a browser, in the request's language with its script
shaped and its face embedded, on A4 or Letter, one page for a short game, and bounded: a
request beyond the PDFs in flight is answered at once with 503 and Retry-After."""

from __future__ import annotations

import io
import re
import time

import pytest
from pypdf import PdfReader

from referee.scoresheet_pdf import Sheet, render
from referee.web.heavy import pdf_pool

A4 = (595, 842)
LETTER = (612, 792)


def fonts(data: bytes) -> set[str]:
    return {name.decode().split("+", 1)[-1] for name in re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", data)}


def squeeze(text: str) -> str:
    """The text without spaces and control characters (text extraction of shaped scripts
    adds both around reordered vowel signs)."""
    return re.sub(r"[\x00-\x20]", "", text)


def read(data: bytes) -> tuple[list[tuple[int, int]], str]:
    reader = PdfReader(io.BytesIO(data))
    sizes = [(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages]
    return sizes, "\n".join(p.extract_text() for p in reader.pages)


@pytest.fixture
def game(api):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Bén", "Őrs"], mode="scores")
    assert api.hands(game["id"], 1, {"Ana": 0, "Bén": 23, "Őrs": 61})[0] == 200
    assert api.hands(game["id"], 2, {"Ana": 17, "Bén": 0, "Őrs": 4})[0] == 200
    return game


# words of the title and the "Total" row in each language (from the catalogs)
WORDS = {
    "en": ("Mexican Train", "Total"),
    "hi": ("ट्रेन", "स्कोरशीट", "राउंड", "कुल"),
    "pa": ("ਮੈਕਸੀਕਨ", "ਸਕੋਰਸ਼ੀਟ", "ਕੁੱਲ"),
    "hu": ("Mexikói vonat", "Összesen"),
}


@pytest.mark.parametrize("lang", ["en", "hi", "pa", "hu"])
def test_the_pdf_is_made_without_a_browser_in_the_chosen_language(app, client, game, lang):
    app.config["CHROMIUM"] = "/nonexistent/chromium"  # no browser is involved any more
    client.get(f"/lang/{lang}")
    response = client.get(f"/games/{game['id']}/scoresheet.pdf")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    sizes, text = read(response.data)
    assert sizes == [A4]  # a short game: one page, no blank last one
    for word in (*WORDS[lang], "Ana", "Bén", "Őrs", "61", "17", "23", "65"):
        assert squeeze(word) in squeeze(text), (word, text)
    embedded = fonts(response.data)
    assert ("NotoSansDevanagari" in embedded) == (lang == "hi"), embedded
    assert ("NotoSansGurmukhi" in embedded) == (lang == "pa"), embedded


def test_a_sheet_in_devanagari_embeds_its_faces_and_reads_back():
    sheet = Sheet(title="मैक्सिकन ट्रेन", subtitle="x", header=["a"], rows=[], totals=["b"])
    data = render(sheet)
    assert "NotoSansDevanagari" in fonts(data)
    assert "NotoSansDevanagariBold" in fonts(data)
    assert squeeze("ट्रेन") in squeeze(read(data)[1])


@pytest.mark.parametrize(
    "query, accept, size",
    [
        ("", "en-GB,en;q=0.8", A4),
        ("", "hu-HU", A4),
        ("", "en-US,en;q=0.9", LETTER),
        ("?paper=a4", "en-US", A4),
        ("?paper=letter", "hi-IN", LETTER),
    ],
)
def test_paper_is_a4_except_where_letter_is_the_custom(client, game, query, accept, size):
    response = client.get(f"/games/{game['id']}/scoresheet.pdf{query}", headers={"Accept-Language": accept})
    assert response.status_code == 200
    assert read(response.data)[0] == [size]


def test_a_pdf_beyond_those_in_flight_is_refused_at_once(app, client, game):
    slots = pdf_pool._slots  # the PDFs' pool: made at once and waiting
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    try:
        assert taken == pdf_pool.workers + pdf_pool.queued
        started = time.monotonic()
        response = client.get(f"/games/{game['id']}/scoresheet.pdf?paper=letter")
        assert time.monotonic() - started < 1.0
        assert response.status_code == 503
        assert int(response.headers["Retry-After"]) > 0
        assert "try again" in response.get_data(as_text=True)
    finally:
        for _ in range(taken):
            slots.release()
    assert client.get(f"/games/{game['id']}/scoresheet.pdf?paper=letter").status_code == 200


def test_a_long_game_breaks_pages_with_the_heading_repeated(api, client):
    game = api.create(game="mexican-train", set=12, players=["Ana", "Ben"], mode="scores")
    for number in range(1, 14):
        assert api.hands(game["id"], number, {"Ana": number, "Ben": 0})[0] == 200
    response = client.get(f"/games/{game['id']}/scoresheet.pdf")
    sizes, text = read(response.data)
    assert len(sizes) >= 1
    reader = PdfReader(io.BytesIO(response.data))
    for page in reader.pages:  # no page is empty
        assert page.extract_text().strip()
    assert "91" in text  # 1 + 2 + … + 13
