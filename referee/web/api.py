"""The JSON API, version 1 (see API.md): parse, call the core, store, answer."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, jsonify, url_for
from flask.typing import ResponseReturnValue

from referee.match import GameConfig
from referee.rules import GAMES
from referee.rules.base import Action, BadRequest
from referee.rules.book import rules_for
from referee.store import StoredGame
from referee.web.db import get_store
from referee.web.errors import install_json_refusals
from referee.web.json_answers import (
    ApiError,
    change_key,
    crash_answer,
    expected_version,
    json_body,
    round_number,
    state_answer,
)
from referee.web.openapi import openapi_document
from referee.web.safety import csv_cell
from referee.web.service import check_pin, hash_pin, scoresheet_rows

bp = Blueprint("api", __name__, url_prefix="/api")


install_json_refusals(bp)


bp.register_error_handler(Exception, crash_answer)


def answer(game: StoredGame, status: int = 200) -> Response:
    location = url_for("api.game_state", game_id=game.id) if status == 201 else None
    return state_answer(game.state(), status, location)


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    body = json_body()
    pin = None
    if isinstance(body, dict) and "pin" in body:
        body = dict(body)
        pin = body.pop("pin")
    config = GameConfig.from_json(body)
    game = get_store().create(config, pin_hash=hash_pin(pin) if pin is not None else None)
    return answer(game, 201)


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    games = get_store().list_games()
    return jsonify(
        {"games": [{k: g[k] for k in ("id", "game", "players", "status", "created")} for g in games]}
    )


@bp.get("/games/<game_id>")
def game_state(game_id: str) -> ResponseReturnValue:
    return answer(get_store().load(game_id))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str) -> ResponseReturnValue:
    body = json_body()
    key = change_key(body)
    action = Action.from_json(
        {field: value for field, value in body.items() if field != "key"} if isinstance(body, dict) else body
    )
    payload = action.to_json()
    game = get_store().change(game_id, "action", payload, expected_version(body), guard=check_pin, key=key)
    return answer(game)


@bp.post("/games/<game_id>/rounds/<number>/hands")
def post_hands(game_id: str, number: str) -> ResponseReturnValue:
    body = json_body()
    round_no = round_number(number)
    version = expected_version(body)
    if not isinstance(body, dict) or "hands" not in body or not isinstance(body["hands"], dict):
        raise BadRequest('The body must be {"hands": {"<player>": [tiles] or points, …}}.')
    unknown = sorted(set(body) - {"hands", "markers", "version", "key"})
    if unknown:
        raise BadRequest(f"Unknown field {unknown[0]!r}.")
    payload = {"round": round_no, "hands": body["hands"]}
    if "markers" in body:  # mt.house.marker: a score pad names the marked trains
        payload["markers"] = body["markers"]
    game = get_store().change(game_id, "hands", payload, version, guard=check_pin, key=change_key(body))
    return answer(game)


@bp.get("/games/<game_id>/events")
def game_events(game_id: str) -> ResponseReturnValue:
    return jsonify(
        {
            "events": [
                {"version": e.version, "kind": e.kind, "payload": e.payload, "created": e.created}
                for e in get_store().events(game_id)
            ]
        }
    )


@bp.get("/games/<game_id>/scoresheet.csv")
def scoresheet_csv(game_id: str) -> ResponseReturnValue:
    game = get_store().load(game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    for row in scoresheet_rows(game.match):
        writer.writerow([csv_cell(cell) for cell in row])
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="scoresheet-{game.id}.csv"'},
    )


@bp.get("/rules/<game>")
def rule_book(game: str) -> ResponseReturnValue:
    if game not in GAMES:
        raise ApiError(404, f"There is no game {game!r}: use mexican-train, chicken-foot or kozel.")
    return jsonify({"game": game, "rules": [{"id": r.id, "text": r.text} for r in rules_for(game)]})


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    return jsonify(openapi_document())
