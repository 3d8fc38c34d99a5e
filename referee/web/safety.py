"""Guards every page shares: the largest body a request may send, redirects only to the
app's own pages, a ``Host`` check against DNS rebinding, and CSV cells that a spreadsheet
cannot mistake for formulas."""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from flask_babel import gettext as _
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect

MAX_BODY = 64 * 1024  # a request's body, but for an import's
IMPORT_MAX_BODY = 4 * 1024 * 1024  # ~1,600 games; written in well under a second of lock (the benchmark)
PHOTO_MAX_BODY = 20 * 1024 * 1024  # a photo of a hand (API.md); its form adds a little
# What the server itself reads of any body: enough above every limit of the app (a photo's
# form is the largest) that each of them is answered by the app, in JSON under /api/.
SERVER_MAX_BODY = 32 * 1024 * 1024

# Names a browser on this machine uses for it; the LAN address is added by ``serve --lan``
# and more by ``REFEREE_ALLOWED_HOSTS`` (comma-separated), or ``*`` for any.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def own_path(target: str | None, fallback: str) -> str:
    """``target`` when it is a page of this app that a browser can open (GET), else
    ``fallback``. Browsers drop tabs and newlines from an address and read ``\\`` as ``/``,
    so a target holding any of them, or any control character or space, is refused whole."""
    if not target or any(ch <= " " or ch == "\x7f" or ch == "\\" for ch in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return fallback
    try:
        current_app.url_map.bind("localhost").match(parts.path, method="GET")
    except RequestRedirect:
        pass  # (a path the app answers with its canonical form: still its own page)
    except (NotFound, MethodNotAllowed):
        return fallback
    return parts.path + (f"?{parts.query}" if parts.query else "")


def allowed_hosts(app: Flask) -> set[str]:
    hosts = set(LOCAL_HOSTS)
    hosts.update(h.strip().lower() for h in app.config.get("ALLOWED_HOSTS", ()) if h.strip())
    hosts.update(
        h.strip().lower() for h in os.environ.get("REFEREE_ALLOWED_HOSTS", "").split(",") if h.strip()
    )
    public = app.config.get("PUBLIC_URL") or os.environ.get("REFEREE_PUBLIC_URL")
    if public and urlsplit(public).hostname:
        hosts.add(str(urlsplit(public).hostname).lower())
    return hosts


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without the port (``[::1]:5000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(app: Flask, host: str) -> bool:
    name = host_name(host)
    hosts = allowed_hosts(app)
    if "*" in hosts or name in hosts or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_host() -> Response | None:
    """(``app.before_request``) A page reached under a name the app does not serve on is
    refused: a web page elsewhere cannot reach the app through DNS rebinding."""
    if host_allowed(current_app, request.host):
        return None
    message = _(
        "This app does not answer to the address %(host)s: open it by the address it printed "
        "when it started.",
        host=request.host[:100],
    )
    return Response(message + "\n", status=421, mimetype="text/plain")


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str | int) -> str | int:
    """A text cell that a spreadsheet would read as a formula is prefixed with ``'``
    (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value
