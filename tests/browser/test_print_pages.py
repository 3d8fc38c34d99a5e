"""The scoresheet printed from the browser (Chromium's print to PDF) has no blank last page."""

from __future__ import annotations

import io

import pytest

pytestmark = pytest.mark.browser


def test_printed_scoresheet_has_no_blank_last_page(page):
    pypdf = pytest.importorskip("pypdf")
    players = ["Ana", "Ben", "Caro"]
    body = {"game": "mexican-train", "set": 9, "players": players, "mode": "scores"}
    game_id = page.request.post("/api/games", data=body).json()["id"]
    for number in (1, 2, 3):
        hands = {name: (number * 3 + i if i else []) for i, name in enumerate(players)}
        response = page.request.post(f"/api/games/{game_id}/rounds/{number}/hands", data={"hands": hands})
        assert response.ok, response.text()
    page.goto(f"/games/{game_id}/scoresheet")
    reader = pypdf.PdfReader(io.BytesIO(page.pdf(format="A4")))
    texts = [p.extract_text().strip() for p in reader.pages]
    assert texts and all(texts), [len(t) for t in texts]  # every printed page has something on it
