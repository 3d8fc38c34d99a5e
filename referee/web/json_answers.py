"""The API's answers that every blueprint speaking JSON shares: the refusal shape
``{"error", "rule", "rule_text"}``, the body parser and the path's numbers."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.rules.book import rule_text
from referee.store import GameNotFound
from referee.web.forms import NotANumber, whole_number


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


def no_game_refusal(error: GameNotFound) -> tuple[Response, int]:
    return refusal(404, f"There is no game {error.args[0]!r}.")


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


CHANGE_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def change_key(body: Any) -> str | None:
    """The ``key`` an action or a hands entry may carry (API.md), checked; ``None`` without one."""
    if not isinstance(body, dict) or "key" not in body:
        return None
    key = body["key"]
    if not isinstance(key, str) or not CHANGE_KEY.fullmatch(key):
        raise ApiError(400, "'key' must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -.")
    return key


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


def state_answer(state: dict[str, Any], status: int = 200, location: str | None = None) -> Response:
    """A game's or a night's state as the API answers it; a creation (201) says where it lives."""
    response = jsonify(state)
    response.status_code = status
    if location is not None:
        response.headers["Location"] = location
    return response


def crash_answer(error: Exception) -> tuple[Response, int]:  # pragma: no cover - the unforeseen
    """The API's safety net: logged, and answered in the API's shape (nothing was changed)."""
    current_app.logger.exception("API error")
    return refusal(500, HTTP_MESSAGES[500])
