"""What pages and the API share beyond the core: table PINs, the owner PIN and the
scoresheet's rows."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import time

from flask import Flask, Response, g, request, session

from referee.match import Match
from referee.rules.base import bad_request
from referee.store import Store, StoredGame
from referee.web.db import get_store
from referee.web.forms import PIN_DIGITS

PIN_HEADER = "X-Table-Pin"
OWNER_KEY = "owner_pin_hash"  # the setting that holds the owner PIN's hash
OWNER_HEADER = "X-Owner-Pin"
OWNER_THROTTLE_ID = "(owner)"  # wrong owner PINs are counted like a game's, under this name


def hash_pin(pin: object) -> str:
    if not isinstance(pin, str) or not re.fullmatch(PIN_DIGITS, pin):  # ASCII digits only
        raise bad_request("A table PIN is 4 to 8 digits.", field="pin")
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
    if isinstance(unlocked, list) and game.id in unlocked:
        return
    given = request.headers.get(PIN_HEADER)
    if not given:
        raise PinRequired()
    if not pin_attempt_allowed(game.id):
        raise PinThrottled()
    if pin_matches(game.pin_hash, given):
        return
    # Counted by note_wrong_pin once the request's write transaction has rolled back.
    g.referee_wrong_pin = game.id
    raise PinRequired()


class PinRequired(PermissionError):
    """Changing a PIN-protected game without its PIN (HTTP 403)."""

    message = "This game is protected by a table PIN: enter it to make changes."


class PinThrottled(PinRequired):
    """Too many wrong PINs for one game lately: a 4-digit PIN must not be guessable by
    trying them all (HTTP 403, like any missing PIN)."""

    message = "Too many wrong table PINs for this game: wait a minute and try again."


PIN_FAILURES_ALLOWED = 10  # wrong PINs per game …
PIN_FAILURE_WINDOW = 60.0  # … within this many seconds, then every attempt waits


def pin_client() -> tuple[str, str]:
    """Who is trying a PIN: the client's address and its browser session (a random id kept
    in the signed session cookie)."""
    if "pin_client" not in session:
        session["pin_client"] = secrets.token_hex(8)
    return request.remote_addr or "?", str(session["pin_client"])


def pin_attempt_allowed(game_id: str) -> bool:
    """Whether this client may try a PIN for ``game_id`` now. Failures are counted per
    client (by address, and by session), so a guesser elsewhere does not lock the players
    out; they are kept in the database, so a restart gives no fresh set of tries."""
    since = time.time() - PIN_FAILURE_WINDOW
    client, sid = pin_client()
    return get_store().pin_failures_since(game_id, since, client, sid) < PIN_FAILURES_ALLOWED


def record_pin_failure(game_id: str) -> None:
    now = time.time()
    client, sid = pin_client()
    get_store().record_pin_failure(game_id, now, now - PIN_FAILURE_WINDOW, client, sid)


def reserve_pin_attempt(game_id: str) -> int | None:
    """An attempt counted in advance (exact under concurrency), or None when throttled."""
    now = time.time()
    client, sid = pin_client()
    return get_store().reserve_pin_attempt(
        game_id, now, now - PIN_FAILURE_WINDOW, PIN_FAILURES_ALLOWED, client, sid
    )


def note_wrong_pin(response: Response) -> Response:
    """After the request (``app.after_request``): count a wrong PIN that check_pin saw
    inside a change's transaction, which the refusal rolled back."""
    game_id = g.pop("referee_wrong_pin", None)
    if game_id is not None:
        record_pin_failure(game_id)
    return response


# ----------------------------------------------------------------------------- the owner PIN


def owner_pin_hash(store: Store | None = None) -> str | None:
    return (store or get_store()).setting(OWNER_KEY)


def is_owner() -> bool:
    """Whether this request may do what the owner PIN guards (always, when none is set)."""
    pin_hash = owner_pin_hash()
    if not pin_hash:
        return True
    if session.get("owner") == pin_hash[:16]:  # (the salt: a changed PIN ends old sessions)
        return True
    given = request.headers.get(OWNER_HEADER)
    if given and pin_attempt_allowed(OWNER_THROTTLE_ID):
        if pin_matches(pin_hash, given):
            return True
        record_pin_failure(OWNER_THROTTLE_ID)
    return False


def init_owner_pin(app: Flask) -> None:
    """``REFEREE_OWNER_PIN`` sets the owner PIN at start (when it differs from the stored one)."""
    pin = os.environ.get("REFEREE_OWNER_PIN") or app.config.get("OWNER_PIN")
    if not pin:
        return
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        current = store.setting(OWNER_KEY)
        if not current or not pin_matches(current, pin):
            store.set_setting(OWNER_KEY, hash_pin(pin))
    finally:
        stores.release(store)


# ----------------------------------------------------------------------------- the scoresheet


def scoresheet_rows(match: Match) -> list[list[str | int]]:
    players = list(match.players)
    rows: list[list[str | int]] = [["round", "double", *players]]
    for record in match.rounds:
        rows.append(
            [record.number, str(record.double) if record.double else "", *[record.points[p] for p in players]]
        )
    rows.append(["total", "", *[match.standing.totals[p] for p in players]])
    return rows
