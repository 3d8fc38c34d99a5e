"""What a request that goes wrong answers when its blueprint has no answer of its own.

Under /api/ every refusal keeps the contract (API.md): a 4xx or 500 with ``{"error", "rule"}``,
also for an address or method no route knows. Anywhere else a person is reading, so the
answer is a page of the app, in the chosen language, that says what happened in one
sentence and offers the way back, instead of the server's bare English page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from referee.store import GameNotFound


def _sentence(error: HTTPException) -> tuple[str, str]:
    """The page's title and its one sentence, for a person at the table."""
    if isinstance(error, CSRFError):
        return (
            _("This page is too old to send"),
            _(
                "Its security token is missing or expired (the page was open a long time, or "
                "the app was restarted): nothing was saved; go back, reload the page and send "
                "it again."
            ),
        )
    code = error.code or 500
    told = error.description if error.description != type(error).description else None
    if code == 404:
        if told:  # the view said what is missing (a game, a player)
            return _("Nothing here"), told
        return _("Nothing here"), _("There is nothing at this address: the link may be old or mistyped.")
    if code == 405:
        return _("Not this way"), _(
            "This address cannot be used that way: open it from the app's own buttons."
        )
    if code == 413:
        return _("Too large"), _("What was sent is too large for the referee; nothing was saved.")
    if code >= 500:
        return (
            _("The referee hit an internal error"),
            _("Nothing was changed by this request; go back and try again."),
        )
    return _("The request was refused"), _("The referee could not read this request; nothing was saved.")


def _back_url() -> str | None:
    """The page the person came from, when it is one of ours (never another site)."""
    referrer = request.referrer
    if not referrer:
        return None
    parts, here = urlsplit(referrer), urlsplit(request.host_url)
    if parts.netloc != here.netloc:
        return None
    if request.method == "GET" and parts.path == request.path:  # a link to this very answer
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def error_page(error: HTTPException):
    """The app's own page for ``error``, with its status code and headers (a 405's Allow)."""
    title, sentence = _sentence(error)
    code = error.code or 500
    headers = [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
    return (
        render_template("error.html", title=title, sentence=sentence, code=code, back=_back_url()),
        code,
        headers,
    )


def init_errors(app: Flask) -> None:
    from referee.web.api import http_refusal, no_game_refusal

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException):
        return http_refusal(error) if request.path.startswith("/api/") else error_page(error)

    @app.errorhandler(GameNotFound)
    def _no_game(error: GameNotFound):
        if request.path.startswith("/api/"):
            return no_game_refusal(error)
        return render_template(
            "no_game.html", title=_("No such game"), back=None, game_id=error.args[0] if error.args else ""
        ), 404
