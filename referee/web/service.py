"""What pages and the API share beyond the core: table PINs, the owner PIN and the
scoresheet's rows."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import threading
import time
from collections import OrderedDict

from flask import Flask, Response, current_app, g, request, session

from referee.match import Match
from referee.rules.base import bad_request
from referee.store import Store, StoredGame
from referee.web.db import get_store
from referee.web.forms import PIN_DIGITS

PIN_HEADER = "X-Table-Pin"
OWNER_KEY = "owner_pin_hash"  # the setting that holds the owner PIN's hash
OWNER_HEADER = "X-Owner-Pin"
OWNER_THROTTLE_ID = "(owner)"  # wrong owner PINs are counted like a game's, under this name


# A PIN's hash is scrypt's (memory-hard: a guesser pays 16 MB and ~60 ms per try, a GPU
# gains little): n=2**14, r=8, p=1 costs about 64 ms and 16 MB on the club's kind of machine.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_MAXMEM = 32 * 1024 * 1024
SCRYPT_PREFIX = "scrypt"


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> str:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=SCRYPT_MAXMEM, dklen=32).hex()


def hash_pin(pin: object) -> str:
    """``scrypt$n$r$p$<salt>$<digest>`` (hex)."""
    if not isinstance(pin, str) or not re.fullmatch(PIN_DIGITS, pin):  # ASCII digits only
        raise bad_request("A table PIN is 4 to 12 digits.", field="pin")
    salt = os.urandom(16)
    digest = _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"{SCRYPT_PREFIX}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest}"


def is_old_hash(pin_hash: str) -> bool:
    """A hash of the earlier format (``<salt>$<digest>``, PBKDF2-SHA256): still read."""
    return not pin_hash.startswith(SCRYPT_PREFIX + "$")


# Right PINs already checked in this process, so a tablet or script that sends its PIN with
# every play pays the KDF once, not per play: keyed by an HMAC under a key of this process
# alone (the PIN itself is never kept).
_RIGHT_PINS_KEY = secrets.token_bytes(32)
_RIGHT_PINS: OrderedDict[bytes, None] = OrderedDict()
_RIGHT_PINS_KEPT = 256
_RIGHT_PINS_LOCK = threading.Lock()


def _right_pin_key(pin_hash: str, pin: str) -> bytes:
    return hmac.new(_RIGHT_PINS_KEY, f"{pin_hash}\0{pin}".encode(), "sha256").digest()


def _kdf_matches(pin_hash: str, pin: str) -> bool:
    try:
        if is_old_hash(pin_hash):
            salt, digest = pin_hash.split("$", 1)
            candidate = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), 50_000).hex()
        else:
            _, n, r, p, salt, digest = pin_hash.split("$")
            candidate = _scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:  # a hash of no format this app writes: matches nothing
        return False
    return hmac.compare_digest(candidate, digest)


def pin_matches(pin_hash: str, pin: str | None) -> bool:
    if not pin or not re.fullmatch(PIN_DIGITS, pin):
        return False
    key = _right_pin_key(pin_hash, pin)
    with _RIGHT_PINS_LOCK:
        if key in _RIGHT_PINS:
            _RIGHT_PINS.move_to_end(key)
            return True
    if not _kdf_matches(pin_hash, pin):
        return False
    with _RIGHT_PINS_LOCK:
        _RIGHT_PINS[key] = None
        while len(_RIGHT_PINS) > _RIGHT_PINS_KEPT:
            _RIGHT_PINS.popitem(last=False)
    return True


class _PinChangedMeanwhile(Exception):
    pass


def rehash_table_pin(game: StoredGame, pin: str) -> None:
    """A right PIN under a hash of the earlier format: stored again under scrypt's (unless
    the PIN was changed meanwhile)."""
    old = game.pin_hash
    if not old or not is_old_hash(old):
        return

    def still_the_old_one(current: StoredGame) -> None:
        if current.pin_hash != old:
            raise _PinChangedMeanwhile()

    try:
        get_store().set_pin(game.id, hash_pin(pin), guard=still_the_old_one)
    except _PinChangedMeanwhile:
        pass


def rehash_owner_pin(pin_hash: str, pin: str) -> str:
    """The owner PIN's hash, stored again under scrypt's if it was of the earlier format."""
    if not is_old_hash(pin_hash):
        return pin_hash
    new_hash = hash_pin(pin)
    get_store().set_setting(OWNER_KEY, new_hash)
    return new_hash


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
        unlock_in_session(game.id)  # this client is the table: never throttled from now on
        return
    # Counted by note_wrong_pin once the request's write transaction has rolled back.
    g.referee_wrong_pin = game.id
    raise PinRequired()


def unlock_in_session(game_id: str) -> None:
    unlocked = session.get("unlocked", [])
    kept = [g for g in unlocked if g != game_id] if isinstance(unlocked, list) else []
    session["unlocked"] = kept[-49:] + [game_id]


class PinRequired(PermissionError):
    """Changing a PIN-protected game without its PIN (HTTP 403)."""

    message = "This game is protected by a table PIN: enter it to make changes."


class PinThrottled(PinRequired):
    """Too many wrong PINs for one game lately: a 4-digit PIN must not be guessable by
    trying them all (HTTP 403, like any missing PIN)."""

    message = "Too many wrong table PINs for this game: wait a minute and try again."


PIN_FAILURES_ALLOWED = 10  # wrong PINs per client (address or session) …
PIN_FAILURE_WINDOW = 60.0  # … within this many seconds, then every attempt waits
GAME_PIN_FAILURES_ALLOWED = 30  # wrong PINs per game (or the owner PIN) from all clients together …
GAME_PIN_FAILURE_WINDOW = 3600.0  # … within this hour: however many addresses a guesser uses


def pin_client() -> tuple[str, str]:
    """Who is trying a PIN: the client's address and its browser session (a random id kept
    in the signed session cookie)."""
    if "pin_client" not in session:
        session["pin_client"] = secrets.token_hex(8)
    return request.remote_addr or "?", str(session["pin_client"])


SEND_CODES_KEPT = 20  # the games whose send code one browser remembers


def send_code(game_id: str) -> str:
    """The code the table's QR carries (the follow address's ``code``): it lets a phone that
    scanned the table's QR send a hand, while a guest who only knows the game's id cannot.
    It is derived from the installation's secret key, so nothing is stored and it outlives
    restarts."""
    secret = current_app.config["SECRET_KEY"]
    key = secret if isinstance(secret, bytes) else str(secret).encode()
    digest = hmac.new(key, b"send-hand:" + game_id.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def holds_send_code(game_id: str, code: object = None) -> bool:
    """Whether this browser may send a hand to ``game_id``: ``code`` (from the address or
    the form) is the game's, or this browser's session kept it from an earlier visit. A right
    code is kept in the session, so the phone that scanned the QR can send later on."""
    right = send_code(game_id)
    kept = session.get("send_codes")
    codes: dict[str, str] = dict(kept) if isinstance(kept, dict) else {}
    if isinstance(code, str) and hmac.compare_digest(code.strip().lower().encode(), right.encode()):
        if codes.get(game_id) != right:
            codes.pop(game_id, None)
            codes[game_id] = right
            session["send_codes"] = dict(list(codes.items())[-SEND_CODES_KEPT:])
        return True
    return hmac.compare_digest(str(codes.get(game_id, "")).encode(), right.encode())


def pin_attempt_allowed(game_id: str) -> bool:
    """Whether this client may try a PIN for ``game_id`` now. Failures are counted per
    client (by address, and by session), so a guesser elsewhere does not lock the players
    out at once; and per game from everyone, so a guesser with many addresses still gets no
    more than ``GAME_PIN_FAILURES_ALLOWED`` tries an hour (a browser that has unlocked the
    game is never asked again). They are kept in the database: a restart gives no fresh tries."""
    now = time.time()
    client, sid = pin_client()
    store = get_store()
    if store.pin_failures_since(game_id, now - GAME_PIN_FAILURE_WINDOW) >= GAME_PIN_FAILURES_ALLOWED:
        return False
    return store.pin_failures_since(game_id, now - PIN_FAILURE_WINDOW, client, sid) < PIN_FAILURES_ALLOWED


def record_pin_failure(game_id: str) -> None:
    now = time.time()
    client, sid = pin_client()
    get_store().record_pin_failure(game_id, now, now - GAME_PIN_FAILURE_WINDOW, client, sid)


def reserve_pin_attempt(game_id: str) -> int | None:
    """An attempt counted in advance (exact under concurrency), or None when throttled."""
    now = time.time()
    client, sid = pin_client()
    return get_store().reserve_pin_attempt(
        game_id,
        now,
        now - PIN_FAILURE_WINDOW,
        PIN_FAILURES_ALLOWED,
        client,
        sid,
        game_since=now - GAME_PIN_FAILURE_WINDOW,
        game_limit=GAME_PIN_FAILURES_ALLOWED,
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


def owner_mark(pin_hash: str) -> str:
    """What an owner's session keeps: a digest of the hash (its salt included), so a changed
    PIN ends the old sessions."""
    return hashlib.sha256(pin_hash.encode()).hexdigest()[:16]


LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


def is_local_request() -> bool:
    """Whether the request comes from the server's own machine (its loopback address)."""
    return (request.remote_addr or "") in LOCAL_ADDRESSES


def any_pin_set(store: Store | None = None) -> bool:
    """Whether the owner PIN or any game's table PIN (in the trash too) is set."""
    store = store or get_store()
    return bool(owner_pin_hash(store)) or store.any_table_pin()


def may_take_backups() -> bool:
    """Backups and exports hold every game and the PINs' hashes: with no PIN set anyone may
    take them, as at home; with one set, only the owner (the owner PIN given, or, while no
    owner PIN is set, a request from the server's own machine)."""
    if owner_pin_hash():
        return is_owner()
    return is_local_request() or not get_store().any_table_pin()


def is_owner() -> bool:
    """Whether this request may do what the owner PIN guards (always, when none is set)."""
    pin_hash = owner_pin_hash()
    if not pin_hash:
        return True
    if session.get("owner") == owner_mark(pin_hash):
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
