"""The scoresheet PDF is printed in the language of the request (the lang cookie), with the
Devanagari and Gurmukhi faces embedded for Hindi and Punjabi."""

from __future__ import annotations

import re
import shutil

import pytest


def pdf_fonts(data: bytes) -> set[str]:
    """The embedded fonts' names, without the subset prefix ("AAAAAA+")."""
    return {
        name.split("+", 1)[-1]
        for name in re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", data)
        for name in [name.decode()]
    }


@pytest.mark.parametrize("lang, family", [("hi", "NotoSansDevanagari"), ("pa", "NotoSansGurmukhi")])
def test_the_pdf_is_in_the_chosen_language(client, api, lang, family):
    if not shutil.which("chromium"):
        pytest.skip("the PDF is printed by Debian's chromium package")
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"], mode="scores")
    assert api.hands(game["id"], 1, {"Ana": 0, "Ben": 23})[0] == 200
    english = client.get(f"/games/{game['id']}/scoresheet.pdf")
    assert english.status_code == 200 and english.mimetype == "application/pdf"
    assert not any(family in name for name in pdf_fonts(english.data))
    client.get(f"/lang/{lang}")
    translated = client.get(f"/games/{game['id']}/scoresheet.pdf")
    assert translated.status_code == 200
    fonts = pdf_fonts(translated.data)
    assert f"{family}-Regular" in fonts and f"{family}-Bold" in fonts, fonts
