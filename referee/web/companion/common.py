"""What the companion's pages share: their blueprint and loading a game."""

from __future__ import annotations

from flask import Blueprint, abort
from flask_babel import gettext as _

from referee.store import GameNotFound, StoredGame
from referee.web.db import get_store

bp = Blueprint("companion", __name__)


def load_game(game_id: str) -> StoredGame:
    try:
        return get_store().load(game_id)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r.", game=game_id))
