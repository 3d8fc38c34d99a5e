"""Presentation helpers that several blueprints share: the PIN refusals in the page's
language, the set laid out as a triangle, a listing's pages, the hands sent from phones.
A blueprint imports these, never another blueprint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l

from referee.tiles import full_set
from referee.web.db import get_store
from referee.web.forms import NotANumber, whole_number
from referee.web.service import PinRequired, PinThrottled

PAGE_SIZE = 20


# The PIN refusals of referee.web.service (English class attributes), in the page's language.
PIN_MESSAGES = {
    PinRequired.message: _l("This game is protected by a table PIN: enter it to make changes."),
    PinThrottled.message: _l("Too many wrong table PINs for this game: wait a minute and try again."),
}


def pin_message(error: PinRequired) -> str:
    return str(PIN_MESSAGES.get(error.message, error.message))


def suit_rows(highest: int) -> list[list[str]]:
    """The set laid out as the usual triangle: a row per low half (0-0 … 0-N, 1-1 … 1-N, …)."""
    rows: dict[int, list[str]] = {}
    for tile in full_set(highest):
        rows.setdefault(tile.low, []).append(str(tile))
    return [rows[low] for low in sorted(rows)]


def folded_suits(highest: int) -> list[list[tuple[int, list[str]]]]:
    """The triangle folded into rows of equal length, so a whole set fits a tablet's screen:
    suit 0 alone, then suit 1 beside suit N, suit 2 beside suit N-1, …; each part named by
    its suit (the low half of its tiles)."""
    suits = suit_rows(highest)
    rows: list[list[tuple[int, list[str]]]] = [[(0, suits[0])]]
    low, high = 1, len(suits) - 1
    while low <= high:
        rows.append([(low, suits[low])] + ([(high, suits[high])] if high != low else []))
        low, high = low + 1, high - 1
    return rows


def page_number(name: str) -> int:
    try:
        number = whole_number(request.args.get(name), 6)
    except NotANumber:
        return 1
    return number if number else 1


def paged(kind: str, name: str) -> dict[str, Any]:
    number = page_number(name)
    rows, total = get_store().list_page(kind, (number - 1) * PAGE_SIZE, PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    return {"rows": rows, "total": total, "page": min(number, pages), "pages": pages, "name": name}


def prefill_sent_hands(
    fields: list[tuple[str, Any]], game_id: str, number: int, chosen: Sequence[str] = ()
) -> None:
    """Fill the empty hands of the hands form with the hands sent from the players' phones:
    each player's latest send, or the send the person at the tablet picked (``chosen``: the
    sends' ids, when a player sent more than once)."""
    sends = get_store().hand_sends(game_id, number)
    picked: dict[str, list[str]] = {send.player: send.tiles for send in sends}
    picked.update({send.player: send.tiles for send in sends if str(send.id) in chosen})
    picked_by_hand = {send.player for send in sends if str(send.id) in chosen}
    for name, field in fields:
        if name in picked and (not field.data or name in picked_by_hand):
            field.data = " ".join(picked[name]) if picked[name] else "out"
