"""The installable app: the service worker (the manifest is a static file)."""

from __future__ import annotations

import hashlib
import json
import mimetypes
from pathlib import Path

from flask import Response, current_app, url_for
from flask.typing import ResponseReturnValue

from referee.web.companion.common import bp

mimetypes.add_type("application/manifest+json", ".webmanifest")

PRECACHE_SUFFIXES = (".css", ".js", ".svg", ".webmanifest")


def precache_files() -> list[Path]:
    static = Path(current_app.static_folder or "static")
    return sorted(
        p for p in static.iterdir() if p.is_file() and p.suffix in PRECACHE_SUFFIXES and p.name != "sw.js"
    )


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, from the root so that its scope is the whole app. Its cache name
    is a hash of the static files, so any change to them installs a fresh copy."""
    static = Path(current_app.static_folder or "static")
    files = precache_files()
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    urls = [url_for("static", filename=p.name) for p in files]
    script = (static / "sw.js").read_text(encoding="utf-8")
    script = (
        script.replace("__CACHE_VERSION__", digest.hexdigest()[:16])
        .replace("__PRECACHE__", json.dumps(urls))
        .replace("__STATIC_PREFIX__", json.dumps(url_for("static", filename="")))
    )
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
