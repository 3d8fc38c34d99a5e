"""What pages and the API share beyond the core: table PINs and the scoresheet's rows."""
from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

from flask import request, session

from referee.match import Match
from referee.store import StoredGame

PIN_HEADER = "X-Table-Pin"


def hash_pin(pin: Any) -> str:
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 8:
        from referee.rules.base import BadRequest
        raise BadRequest("A table PIN is 4 to 8 digits.", field="pin")
    salt = os.urandom(8).hex()
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), 50_000).hex()
    return f"{salt}${digest}"


def pin_matches(pin_hash: str, pin: str | None) -> bool:
    if not pin:
        return False
    salt, digest = pin_hash.split("$", 1)
    candidate = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), 50_000).hex()
    return hmac.compare_digest(candidate, digest)


def check_pin(game: StoredGame) -> None:
    """A game with a table PIN is read-only for anyone who has not given it."""
    if not game.pin_hash:
        return
    unlocked = session.get("unlocked", [])
    if game.id in unlocked:
        return
    if pin_matches(game.pin_hash, request.headers.get(PIN_HEADER)):
        return
    raise PinRequired()


class PinRequired(PermissionError):
    """Changing a PIN-protected game without its PIN (HTTP 403)."""

    message = "This game is protected by a table PIN: enter it to make changes."


def scoresheet_rows(match: Match) -> list[list[Any]]:
    players = list(match.players)
    rows: list[list[Any]] = [["round", "double", *players]]
    for record in match.rounds:
        rows.append([record.number, str(record.double) if record.double else "",
                     *[record.points[p] for p in players]])
    rows.append(["total", "", *[match.standing.totals[p] for p in players]])
    return rows
