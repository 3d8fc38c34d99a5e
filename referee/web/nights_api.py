"""The JSON API of club nights (API.md, "Club nights"): create a night, list them, read
one, and close its stage in play to seat the next. Each table's game is an ordinary game of
the games API (its state names its night, stage and table)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from referee.nights import NightConfig, NightRefused
from referee.store import NightNotFound, StoredNight
from referee.web.db import get_store
from referee.web.errors import install_json_refusals
from referee.web.json_answers import change_key, crash_answer, json_body, refusal, state_answer

bp = Blueprint("nights_api", __name__, url_prefix="/api")


install_json_refusals(bp)


@bp.errorhandler(NightRefused)
def _refused(error: NightRefused) -> ResponseReturnValue:
    """A creation the club's rules refuse: a 400 that names its ``night.*`` rule."""
    return refusal(400, error.message, error.rule_id)


@bp.errorhandler(NightNotFound)
def _no_night(error: NightNotFound) -> ResponseReturnValue:
    return refusal(404, f"There is no club night {error.args[0]!r}.")


bp.register_error_handler(Exception, crash_answer)


def answer(night: StoredNight, status: int = 200) -> Response:
    location = url_for("nights_api.night_state", night_id=night.id) if status == 201 else None
    return state_answer(night.state(), status, location)


@bp.post("/nights")
def create_night() -> ResponseReturnValue:
    config = NightConfig.from_json(json_body())
    return answer(get_store().create_night(config), 201)


@bp.get("/nights")
def list_nights() -> ResponseReturnValue:
    return jsonify({"nights": get_store().list_nights()})


@bp.get("/nights/<night_id>")
def night_state(night_id: str) -> ResponseReturnValue:
    return answer(get_store().load_night(night_id))


@bp.post("/nights/<night_id>/next")
def next_stage(night_id: str) -> ResponseReturnValue:
    """Close the stage in play and seat the next; the body is optional (``{"key": …}``)."""
    body = json_body() if request.get_data(cache=True) else {}  # no body: no key
    if not isinstance(body, dict):
        return refusal(400, 'The body must be a JSON object: {"key": "…"} or {}.')
    unknown = sorted(set(body) - {"key"})
    if unknown:
        return refusal(400, f"Unknown field {unknown[0]!r}.")
    return answer(get_store().next_stage(night_id, key=change_key(body)))
