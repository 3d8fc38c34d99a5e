"""Hands from a photo: read the tiles of a photographed hand, check them, and let players
send their hand from their own phone for the tablet to review.

Nothing here books a hand: the photo is read and checked (``Match.check_hand``, the same
checks as the hands entry), a hand sent from a phone is kept aside (``sent_hands``), and
the person at the tablet saves the round with the usual hands entry.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from referee.match import Match, UnknownRound
from referee.rules.base import BadRequest, Phrase, RuleViolation, phrase
from referee.store import StoredGame
from referee.store.sent_hands import SentHand
from referee.tiles import Tile, TileError
from referee.vision import PhotoError, read_photo  # (the image libraries load on a first photo)
from referee.web.db import get_store
from referee.web.errors import install_json_refusals
from referee.web.extensions import csrf
from referee.web.heavy import RETRY_AFTER, Busy, photo_pool
from referee.web.i18n import game_title, translate_text, translate_violation
from referee.web.json_answers import ApiError, json_body, refusal, round_number
from referee.web.service import holds_send_code, pin_client, send_code
from referee.web.views import suit_rows

MAX_PHOTO_BYTES = 20 * 1024 * 1024
# A multipart body carries the file and a little more (its headers, the player's name).
MAX_PHOTO_REQUEST = MAX_PHOTO_BYTES + 64 * 1024
# Sends are limited per phone (its browser session) and per address, never per game: one
# guest cannot use up everybody's sends.
SENDS_PER_MINUTE = 6  # hands one phone may send in a minute
SENDS_PER_ADDRESS_MINUTE = 12  # hands one address may send in a minute (a phone clearing its cookies)
HAND_MAX = 60  # more tiles than any hand can hold: a send with more is not a hand

api = Blueprint("photo_api", __name__, url_prefix="/api")
install_json_refusals(api)
csrf.exempt(api)  # reads and checks only: it changes nothing
pages = Blueprint("photo_pages", __name__)


@api.before_request
def _allow_photos() -> None:
    """The app takes small bodies only; a photo may be up to 20 MB."""
    if request.endpoint == "photo_api.read_hand_photo":
        request.max_content_length = MAX_PHOTO_REQUEST


def round_of(game: StoredGame, number: str) -> int:
    value = round_number(number)
    if not 1 <= value <= game.match.number:
        raise ApiError(404, f"This game has no round {number!r}.")
    return value


def others_for(game: StoredGame, number: int, player: str | None) -> dict[str, list[Tile]]:
    """The other players' hands sent from their phones for this round: a tile read in
    one of them is a tile read in two hands."""
    sent = get_store().sent_hands(game.id, number)
    return {name: [Tile.parse(t) for t in tiles] for name, tiles in sent.items() if name != player}


def warnings_json(check: Any) -> list[dict[str, Any]]:
    return [
        {
            "tile": str(tile) if tile is not None else None,
            "rule": problem.rule_id,
            "error": str(problem.message),
            "text": translate_violation(problem),
        }
        for tile, problem in check.warnings
    ]


@api.post("/games/<game_id>/rounds/<number>/photo")
def read_hand_photo(game_id: str, number: str) -> ResponseReturnValue:
    game = get_store().load(game_id)
    n = round_of(game, number)
    if request.mimetype != "multipart/form-data":
        raise ApiError(415, "Send the photo as a multipart form (field 'photo').")
    if not photo_pool.has_room():  # refused before its body is parsed: a storm costs little
        return busy_refusal(Busy.FULL)
    upload = request.files.get("photo")
    if upload is None:
        raise ApiError(400, "The form has no 'photo' field: attach the picture of the hand.")
    data = upload.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        return photo_refusal(413, phrase("The photo is larger than 20 MB."))
    if not data:
        return photo_refusal(415, phrase("The photo is empty: it is not an image."))
    player = request.form.get("player") or None
    if player is not None:
        player = game.match.player_named(player)
    try:
        # in the photo pool, never on this thread: the plays' threads stay free
        reading = photo_pool.run(read_photo, bytes(data), game.match.config.highest)
    except Busy as busy:
        return busy_refusal(busy.message)
    except PhotoError as error:
        message = str(getattr(error, "message", error))
        return photo_refusal(getattr(error, "status", 415), phrase(message))
    tiles = [read.tile for read in reading.tiles]
    check = game.match.check_hand(n, tiles, player, others_for(game, n, player))
    return jsonify(
        {
            "tiles": [
                {
                    "tile": str(read.tile),
                    "confidence": round(float(read.confidence), 3),
                    "sure": bool(read.sure),
                    "box": list(read.box),
                }
                for read in reading.tiles
            ],
            "total": check.points,
            "warnings": warnings_json(check),
            "width": reading.width,
            "height": reading.height,
            "tracked": check.tracked,
        }
    )


def busy_refusal(message: str) -> tuple[Response, int]:
    """The photo readers are all taken (or the read took too long): come back later."""
    response, status = photo_refusal(503, phrase(message))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response, status


def photo_refusal(status: int, message: Phrase) -> tuple[Response, int]:
    """A photo that cannot be read: the API's refusal, plus ``text`` in the page's language."""
    response, status = refusal(status, str(message))
    body = response.get_json()
    body["text"] = translate_text(message)
    return jsonify(body), status


def parse_tiles(raw: Any, field: str) -> list[Tile]:
    if not isinstance(raw, list) or len(raw) > HAND_MAX:
        raise BadRequest(f"'{field}' must be a list of at most {HAND_MAX} tiles.")
    tiles = []
    for text in raw:
        try:
            tiles.append(Tile.parse(text))
        except (TileError, TypeError, ValueError):
            raise BadRequest(f"{text!r} in '{field}' is not a tile like \"5-12\".") from None
    return tiles


@api.post("/games/<game_id>/rounds/<number>/check")
def check_hand(game_id: str, number: str) -> ResponseReturnValue:
    """What the referee says about one hand before it is saved (the photo screen asks again
    after each correction): its points and its warnings. Changes nothing."""
    body = json_body()
    game = get_store().load(game_id)
    n = round_of(game, number)
    if not isinstance(body, dict) or "tiles" not in body or set(body) - {"tiles", "player", "hands"}:
        raise BadRequest('The body must be {"tiles": [tiles], "player": name, "hands": {name: [tiles]}}.')
    tiles = parse_tiles(body["tiles"], "tiles")
    player = body.get("player") or None
    hands = body.get("hands")
    hands = {} if hands is None else hands
    if not isinstance(hands, dict):
        raise BadRequest("'hands' must map player names to lists of tiles.")
    others = {name: parse_tiles(value, "hands") for name, value in hands.items()}
    if player is not None:
        player = game.match.player_named(player)
    sent = others_for(game, n, player)
    check = game.match.check_hand(n, tiles, player, {**sent, **others})
    return jsonify({"total": check.points, "warnings": warnings_json(check), "tracked": check.tracked})


# ----- the tablet's hands page and the player's own phone --------------------------------


@pages.app_template_global()
def sent_hands(game_id: str, number: int) -> dict[str, list[str]]:
    """The hands sent from phones for a round, the latest by player (for the tablet's hands page)."""
    return get_store().sent_hands(game_id, number)


@pages.app_template_global()
def hand_sends(game_id: str, number: int) -> list[SentHand]:
    """Every hand sent from phones for a round, oldest first (for the tablet's hands page)."""
    return get_store().hand_sends(game_id, number)


def open_round(match: Match) -> int | None:
    """The round a player can send a hand for: the current one, until it is booked."""
    if match.finished or match.current_record() is not None:
        return None
    return match.number


def send_context(game: StoredGame, number: int | None) -> dict[str, Any]:

    match = game.match
    on_table, sizes = match.table_of(number) if number else (frozenset(), {})
    return {
        "game": game,
        "config": match.config,
        "title": game_title(match.config.game),
        "number": number,
        "players": list(match.players),
        "suits": suit_rows(match.config.highest),
        "on_table": {str(t) for t in on_table},
        "sizes": sizes,
        "sent": get_store().sent_hands(game.id, number) if number else {},
    }


@pages.route("/games/<game_id>/send-hand", methods=["GET", "POST"])
def send_hand(game_id: str) -> ResponseReturnValue:
    """ "Send my hand": a player picks their name, photographs their tiles, checks them and
    sends them. The hand is kept for the tablet; the game is not changed."""
    store = get_store()
    game = store.load(game_id)
    number = open_round(game.match)
    error = None
    status = 200
    may_send = holds_send_code(game_id, request.values.get("code"))
    if request.method == "POST":
        chosen = request.form.get("player", "")
        text = request.form.get("tiles", "")
        address, device = pin_client()
        try:
            if not may_send:
                raise _NoSendCode(NO_SEND_CODE)
            if number is None or request.form.get("round") != str(number):
                raise UnknownRound(_("This round is already saved: there is no hand to send for it."))
            player = game.match.player_named(chosen)
            words = [w for w in text.replace(",", " ").split() if w]
            if words in (["out"], ["-"]):
                words = []
            elif not words:
                raise BadRequest(_("Take the photo or tap the tiles of your hand first."))
            tiles = []
            for word in words[:HAND_MAX]:
                try:
                    tile = Tile.parse(word)
                except (TileError, ValueError):
                    raise BadRequest(_("%(text)s is not a tile like 5-12.", text=word)) from None
                outside = game.match.tile_problem(tile, player, frozenset(), {})
                if outside is not None:  # not of this set: the other checks are the tablet's
                    raise outside
                tiles.append(tile)
            minute_ago = time.time() - 60
            if (
                store.sends_since(minute_ago, device=device) >= SENDS_PER_MINUTE
                or store.sends_since(minute_ago, address=address) >= SENDS_PER_ADDRESS_MINUTE
            ):
                raise BadRequest(_("Too many hands were sent from this phone in a minute: wait a little."))
        except _NoSendCode:
            error, status = str(NO_SEND_CODE), 403
        except UnknownRound as refused:
            error, status = str(refused), 409
        except (BadRequest, RuleViolation) as refused:
            error, status = translate_violation(refused), 422
        else:
            store.send_hand(
                game_id, number, player, [str(t) for t in tiles], time.time(), device=device, address=address
            )
            flash(
                _("%(player)s's hand is sent: the table saves the round.", player=player),
                "info",
            )
            return redirect(url_for("photo_pages.send_hand", game_id=game_id, player=player), code=303)
    if not may_send and error is None:
        error = str(NO_SEND_CODE)
    chosen = request.values.get("player", "")
    if chosen not in game.match.players:
        chosen = ""
    return render_template(
        "send_hand.html",
        error=error,
        chosen=chosen,
        may_send=may_send,
        code=send_code(game_id) if may_send else None,
        **send_context(game, number),
    ), status if may_send or request.method == "POST" else 403


class _NoSendCode(Exception):
    """A send from a browser that does not hold the game's code (it did not scan the QR)."""


NO_SEND_CODE = _l(
    "To send your hand, scan the QR code on the table's tablet: the game's address alone does not let a phone send."
)
