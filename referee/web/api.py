"""The JSON API, version 1 (see API.md): parse, call the core, store, answer."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from referee.match import GameConfig, UnknownRound
from referee.rules import GAMES
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.rules.book import rule_text, rules_for
from referee.store import GameNotFound, GameUnreadable, StoredGame, VersionConflict
from referee.web import get_store
from referee.web.forms import NotANumber, whole_number
from referee.web.openapi import openapi_document
from referee.web.safety import csv_cell
from referee.web.service import PinRequired, check_pin, hash_pin, scoresheet_rows

bp = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        self.status, self.message, self.rule = status, message, rule
        super().__init__(message)


def refusal(status: int, message: str, rule: str | None = None) -> tuple[Response, int]:
    body: dict[str, Any] = {"error": message, "rule": rule}
    if rule and rule_text(rule):
        body["rule_text"] = rule_text(rule)
    return jsonify(body), status


HTTP_MESSAGES = {
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    413: "The body is too large.",
    415: "Send the body as JSON (Content-Type: application/json).",
    500: "The referee hit an internal error; nothing was changed.",
}


def http_refusal(error: HTTPException) -> tuple[Response, int]:
    """An HTTP error the API's way, keeping its headers (a 405 says which methods are allowed)."""
    response, status = refusal(
        error.code or 500, HTTP_MESSAGES.get(error.code or 500, error.description or error.name)
    )
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response, status


def install_json_refusals(blueprint: Blueprint, *, api_paths_only: bool = False) -> None:
    """Answer every refusal raised in ``blueprint`` the API's way: a 4xx with
    ``{"error", "rule"}``. With ``api_paths_only``, its HTTP errors are left to the app's
    handler (referee.web.errors), which answers by path: JSON under /api/, a page elsewhere."""
    answers = {
        ApiError: lambda e: refusal(e.status, e.message, e.rule),
        RuleViolation: lambda e: refusal(422, e.message, e.rule_id),
        BadRequest: lambda e: refusal(400, e.message),
        GameNotFound: no_game_refusal,
        UnknownRound: lambda e: refusal(404, str(e)),
        VersionConflict: lambda e: refusal(409, str(e)),
        PinRequired: lambda e: refusal(403, e.message),
    }
    from referee.web.errors import storage_answer, unreadable_answer

    answers[sqlite3.OperationalError] = storage_answer
    answers[GameUnreadable] = unreadable_answer
    for kind, answer_with in answers.items():
        blueprint.register_error_handler(kind, answer_with)
    if not api_paths_only:
        blueprint.register_error_handler(HTTPException, http_refusal)


def no_game_refusal(error: GameNotFound) -> tuple[Response, int]:
    return refusal(404, f"There is no game {error.args[0]!r}.")


install_json_refusals(bp)


@bp.errorhandler(Exception)
def _crash(error: Exception):  # pragma: no cover - the safety net for the unforeseen
    from flask import current_app

    current_app.logger.exception("API error")
    return refusal(500, HTTP_MESSAGES[500])


def json_body() -> Any:
    if request.mimetype != "application/json":
        raise ApiError(415, "Send the body as JSON (Content-Type: application/json).")
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "The body is not valid JSON.") from None
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(
            400, "The body holds a lone surrogate (\\ud800-\\udfff), which is not text: nothing was saved."
        ) from None
    return body


def round_number(text: str) -> int:
    """A round's number from a path: ASCII digits only ("²" and "١" are digits to Python's
    ``isdigit``, but not round numbers), at most 6 of them."""
    try:
        number = whole_number(text, 6)
    except NotANumber:
        number = None
    if not number:
        raise ApiError(404, f"This game has no round {text!r}.")
    return number


def expected_version(body: Any) -> int | None:
    if not isinstance(body, dict) or "version" not in body:
        return None
    version = body["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApiError(400, "'version' must be a whole number.")
    return version


def answer(game: StoredGame, status: int = 200):
    response = jsonify(game.state())
    response.status_code = status
    if status == 201:
        response.headers["Location"] = url_for("api.game_state", game_id=game.id)
    return response


@bp.post("/games")
def create_game():
    body = json_body()
    pin = None
    if isinstance(body, dict) and "pin" in body:
        body = dict(body)
        pin = body.pop("pin")
    config = GameConfig.from_json(body)
    game = get_store().create(config, pin_hash=hash_pin(pin) if pin is not None else None)
    return answer(game, 201)


@bp.get("/games")
def list_games():
    games = get_store().list_games()
    return jsonify(
        {"games": [{k: g[k] for k in ("id", "game", "players", "status", "created")} for g in games]}
    )


@bp.get("/games/<game_id>")
def game_state(game_id: str):
    return answer(get_store().load(game_id))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    body = json_body()
    action = Action.from_json(body)
    payload = action.to_json()
    game = get_store().change(game_id, "action", payload, expected_version(body), guard=check_pin)
    return answer(game)


@bp.post("/games/<game_id>/rounds/<number>/hands")
def post_hands(game_id: str, number: str):
    body = json_body()
    round_no = round_number(number)
    version = expected_version(body)
    if not isinstance(body, dict) or "hands" not in body or not isinstance(body["hands"], dict):
        raise BadRequest('The body must be {"hands": {"<player>": [tiles] or points, …}}.')
    unknown = sorted(set(body) - {"hands", "markers", "version"})
    if unknown:
        raise BadRequest(f"Unknown field {unknown[0]!r}.")
    payload = {"round": round_no, "hands": body["hands"]}
    if "markers" in body:  # mt.house.marker: a score pad names the marked trains
        payload["markers"] = body["markers"]
    game = get_store().change(game_id, "hands", payload, version, guard=check_pin)
    return answer(game)


@bp.get("/games/<game_id>/events")
def game_events(game_id: str):
    return jsonify(
        {
            "events": [
                {"version": e.version, "kind": e.kind, "payload": e.payload, "created": e.created}
                for e in get_store().events(game_id)
            ]
        }
    )


@bp.get("/games/<game_id>/scoresheet.csv")
def scoresheet_csv(game_id: str):
    game = get_store().load(game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    for row in scoresheet_rows(game.match):
        row = [csv_cell(cell) for cell in row]
        writer.writerow(row)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="scoresheet-{game.id}.csv"'},
    )


@bp.get("/rules/<game>")
def rule_book(game: str):
    if game not in GAMES:
        raise ApiError(404, f"There is no game {game!r}: use mexican-train, chicken-foot or kozel.")
    return jsonify({"game": game, "rules": [{"id": r.id, "text": r.text} for r in rules_for(game)]})


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())
