"""What the companion's pages share: their blueprint, the games' titles, loading a game."""

from __future__ import annotations

from flask import Blueprint, abort
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from referee.stats import GAME_TITLES
from referee.store import GameNotFound, StoredGame
from referee.web import get_store

bp = Blueprint("companion", __name__)

# The games' names in the page's language (lazy: translated when a page shows them).
TITLES = {"mexican-train": _l("Mexican Train"), "chicken-foot": _l("Chicken Foot"), "kozel": _l("Kozel")}
assert set(TITLES) == set(GAME_TITLES)


def load_game(game_id: str) -> StoredGame:
    try:
        return get_store().load(game_id)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r.", game=game_id))
