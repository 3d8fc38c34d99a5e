"""The web layer: the application factory and its blueprints (pages, API)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

from referee.store import MatchCache, StorePool
from referee.web import api, backup, companion, nights, nights_api, owner, pages, photo, table, trash
from referee.web.db import close_store
from referee.web.errors import init_errors
from referee.web.extensions import compress, csrf
from referee.web.i18n import init_i18n
from referee.web.safety import MAX_BODY, check_host
from referee.web.service import init_owner_pin, note_wrong_pin
from referee.web.tiles_svg import draw_tile

ROOT = Path(__file__).resolve().parents[2]


class AsciiIntegerConverter(IntegerConverter):
    """``<int:…>`` in a path: ASCII digits only, at most 9 of them. Werkzeug's own converter
    matches any Unicode digit, so "/rounds/١/…" would have named round 1."""

    regex = r"[0-9]{1,9}"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=os.environ.get("REFEREE_DB") or os.path.join(app.instance_path, "referee.db"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        JSON_SORT_KEYS=False,
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        # Pages, JSON, CSS and JS go out compressed (brotli or gzip, as the browser asks); the
        # event streams (text/event-stream) are not in the list and stay uncompressed.
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "application/javascript",
            "text/javascript",
            "application/json",
            "image/svg+xml",
            "application/manifest+json",
        ],
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=4,
        COMPRESS_LEVEL=6,
    )
    if test_config is not None:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider has it
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.url_map.converters["int"] = AsciiIntegerConverter

    csrf.init_app(app)
    compress.init_app(app)
    init_i18n(app)
    stores = StorePool(app.config["DATABASE"], cache=MatchCache())
    store = stores.acquire()
    store.migrate()
    stores.release(store)
    app.extensions["referee.stores"] = stores

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # JSON only: a cross-site form cannot send application/json
    app.register_blueprint(nights_api.bp)
    csrf.exempt(nights_api.bp)  # JSON only, as api.bp
    app.register_blueprint(pages.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(nights.bp)
    app.register_blueprint(companion.bp)
    app.register_blueprint(backup.bp)
    app.register_blueprint(trash.bp)
    app.register_blueprint(owner.bp)
    init_owner_pin(app)
    app.register_blueprint(photo.api)
    app.register_blueprint(photo.pages)
    app.jinja_env.globals["tile_svg"] = draw_tile
    app.before_request(check_host)
    init_errors(app)
    app.after_request(note_wrong_pin)
    app.teardown_appcontext(close_store)
    return app


def _instance_secret(instance: Path) -> str:
    """A per-installation key, made once, so sessions survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
