"""What page tests share: a complete new-game form and reading the page's refusal box."""

from __future__ import annotations

import re

MT_FORM = {
    "game": "mexican-train",
    "set": "9",
    "mode": "scores",
    "mt_double_blank": "50",
    "mt_first_turn": "single",
    "mt_doubles_order": "oldest",
    "mt_tie_break": "share",
    "mt_last_double": "0",
    "cf_double_blank": "50",
    "cf_arms": "4",
    "cf_hand_size": "7",
    "kz_fish": "all",
    "kz_lose_at": "101",
    "kz_zero_zero": "10",
    "start": "Start the game",
}


def text(response) -> str:
    return response.get_data(as_text=True)


def refusal(body: str) -> str:
    found = re.search(r'<div class="refusal[^"]*" role="alert">(.*?)</div>', body, re.S)
    assert found, "no refusal box on the page"
    return found.group(1)
