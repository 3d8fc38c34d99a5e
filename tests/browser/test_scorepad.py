"""A whole 10-round double-9 Mexican Train score pad played through the pages in Chromium.

The game is created with the new-game form; each round's hands are entered on the hands
page, some by tapping the tiles in the picker, some by typing the points, one player by
"Went out". One earlier round is corrected, one entry is undone. The totals on the game
page and on the scoresheet are checked against sums the test makes itself, and the
scoresheet is printed to PDF by Chromium (A4 and Letter) and its text read with pypdf.
"""

from __future__ import annotations

import io
import re

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Caro"]
# Per round and player: a list = the tiles left, tapped in the picker ([] = "Went out");
# an int = the points typed as counted at the table.
ROUNDS = [
    {"Ana": ["0-0", "5-6"], "Ben": 12, "Caro": []},
    {"Ana": [], "Ben": ["1-2", "3-9"], "Caro": 20},
    {"Ana": 7, "Ben": [], "Caro": ["4-4", "0-9"]},
    {"Ana": ["2-2"], "Ben": 30, "Caro": []},
    {"Ana": [], "Ben": ["0-0"], "Caro": 5},
    {"Ana": 14, "Ben": 9, "Caro": []},
    {"Ana": ["6-6", "7-8"], "Ben": [], "Caro": 3},
    {"Ana": [], "Ben": 21, "Caro": ["1-1"]},
    {"Ana": 0, "Ben": ["5-5", "2-3"], "Caro": 40},
    {"Ana": ["3-3"], "Ben": 16, "Caro": []},
]
EDITED_ROUND = 2
EDIT = {"Ana": [], "Ben": ["1-2", "3-9", "9-9"], "Caro": 20}  # Ben had forgotten the 9-9
WRONG_ROUND_8 = {"Ana": 99, "Ben": 99, "Caro": []}  # entered by mistake, then undone


def points(entry) -> int:
    """The pips of a hand with the double-blank worth 50 (mt.score default)."""
    if isinstance(entry, int):
        return entry
    total = 0
    for tile in entry:
        a, b = map(int, tile.split("-"))
        total += 50 if (a, b) == (0, 0) else a + b
    return total


def totals(rounds) -> dict[str, int]:
    return {p: sum(points(r[p]) for r in rounds) for p in PLAYERS}


def standing_totals(page) -> dict[str, int]:
    return {
        p: int(
            page.locator("li.standing", has=page.locator(".name", has_text=p)).locator(".total").inner_text()
        )
        for p in PLAYERS
    }


def enter_round(page, hands, check_picker=False) -> None:
    for index, name in enumerate(PLAYERS):
        entry = hands[name]
        field = page.locator(f"#p{index}")
        if isinstance(entry, int):
            field.fill(str(entry))
        elif not entry:
            page.locator(f'[data-out-for="p{index}"]').click()
            assert field.input_value() == "out"
        else:
            field.fill("")
            page.locator(f'[data-pick-for="p{index}"]').click()
            for tile in entry:
                page.locator(f'.picker button[data-tile="{tile}"]').click()
            assert field.input_value().split() == entry
            assert page.locator(f"#p{index}-sum").inner_text().endswith(f"{points(entry)} points")
    if check_picker:
        # a tile picked for Ana is disabled while another player's hand is being tapped
        page.locator('[data-pick-for="p1"]').click()
        taken = page.locator('.picker button[data-tile="0-0"]')
        assert taken.is_disabled()
        page.locator('[data-pick-for="p0"]').click()
        assert taken.get_attribute("aria-pressed") == "true" and not taken.is_disabled()


def test_ten_round_double_nine_score_pad(page, tmp_path):
    page.goto("/games/new")
    page.get_by_label("Mexican Train", exact=True).check()
    for index, name in enumerate(PLAYERS):
        page.locator(f"#players-{index}").fill(name)
    page.select_option("select[name=set]", "9")
    page.get_by_label("Score pad", exact=False).check()
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert "Round 1 of 10" in page.locator(".progress").inner_text()
    assert page.locator(".engine svg.tile").get_attribute("aria-label") == "9-9"
    game_url = page.url

    booked: list[dict] = []
    for number, hands in enumerate(ROUNDS, start=1):
        if number == 8:  # a wrong entry, then undo (confirmed)
            page.get_by_role("link", name="Enter round 8 hands").click()
            enter_round(page, WRONG_ROUND_8)
            page.get_by_role("button", name="Save the round").click()
            page.wait_for_url(game_url)
            assert standing_totals(page)["Ana"] == totals(booked)["Ana"] + 99
            page.locator("details.undo summary").click()
            assert "round 8" in page.locator("details.undo .confirm").inner_text()
            page.get_by_role("button", name="Yes, undo it").click()
            page.wait_for_url(game_url)
            assert standing_totals(page) == totals(booked)
            assert "Round 8 of 10" in page.locator(".progress").inner_text()
        page.get_by_role("link", name=f"Enter round {number} hands").click()
        page.wait_for_selector("form[data-hands]")
        enter_round(page, hands, check_picker=number == 1)
        if number == 1:
            screenshot(page, "pages-hands-tablet")
        page.get_by_role("button", name="Save the round").click()
        page.wait_for_url(game_url)
        booked.append(hands)
        assert standing_totals(page) == totals(booked), f"after round {number}"
        if number == 5:  # correct an earlier round: its entries are pre-filled
            page.get_by_role("link", name=f"Edit round {EDITED_ROUND}").click()
            assert page.locator("#p1").input_value().split() == ROUNDS[EDITED_ROUND - 1]["Ben"]
            assert page.locator("#p0").input_value() == "out"
            assert page.locator("#p2").input_value() == "20"
            enter_round(page, EDIT)
            page.get_by_role("button", name="Save the round").click()
            page.wait_for_url(game_url)
            booked[EDITED_ROUND - 1] = EDIT
            assert standing_totals(page) == totals(booked)
            assert "Round 6 of 10" in page.locator(".progress").inner_text()

    expected = totals(booked)
    best = min(expected.values())
    winners = [p for p in PLAYERS if expected[p] == best]
    assert standing_totals(page) == expected
    result = page.locator("section.result").inner_text()
    assert "Winner" in result and all(w in result for w in winners)
    assert page.get_by_role("link", name=re.compile("Enter round")).count() == 0
    screenshot(page, "pages-game-finished-tablet")

    page.get_by_role("link", name="Scoresheet", exact=True).click()
    # count() does not wait: the scoresheet's rows are counted once its page has loaded
    page.wait_for_url(re.compile(r"/scoresheet$"))
    sheet = page.locator("table.scoresheet-table")
    assert sheet.locator("tbody tr").count() == 10
    foot = [int(x) for x in sheet.locator("tfoot td.total").all_inner_texts()]
    assert foot == [expected[p] for p in PLAYERS]
    engines = sheet.locator("td.double .double-text").all_inner_texts()
    assert engines == [f"{n}-{n}" for n in range(9, -1, -1)]
    assert "Double-blank 0-0 counts 50" in page.locator(".in-force").inner_text()
    screenshot(page, "pages-scoresheet-tablet")

    from pypdf import PdfReader

    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper, print_background=True)
        reader = PdfReader(io.BytesIO(pdf))
        assert len(reader.pages) <= 2, f"{paper}: {len(reader.pages)} pages"
        text = "\n".join(p.extract_text() for p in reader.pages)
        flat = " ".join(text.split())
        assert "Mexican Train — scoresheet" in flat
        assert "Double-blank 0-0 counts 50" in flat
        assert "Winner" in flat and all(w in flat for w in winners)
        total_line = re.search(r"Total ((?:\d+ ?)+)", flat)
        assert total_line, flat
        assert [int(x) for x in total_line.group(1).split()][:3] == [expected[p] for p in PLAYERS]
        for chrome in ("Print", "CSV", "Back to the game", "Domino Referee", "Undo", "Edit"):
            assert chrome not in flat, f"{chrome!r} printed on {paper}"
        (tmp_path / f"scoresheet-{paper}.pdf").write_bytes(pdf)
    page.emulate_media(media="print")
    screenshot(page, "pages-scoresheet-print")
