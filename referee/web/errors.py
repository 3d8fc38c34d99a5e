"""What a request that goes wrong answers when its blueprint has no answer of its own.

Under /api/ every refusal keeps the contract (API.md): a 4xx or 500 with ``{"error", "rule"}``,
also for an address or method no route knows. Anywhere else a person is reading, so the
answer is a page of the app, in the chosen language, that says what happened in one
sentence and offers the way back, instead of the server's bare English page.
"""

from __future__ import annotations

import sqlite3
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, render_template, request
from flask.typing import ErrorHandlerCallable, ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from referee.match import UnknownRound
from referee.rules.base import BadRequest, RuleViolation
from referee.store import GameNotFound, GameUnreadable, VersionConflict
from referee.web.json_answers import ApiError, http_refusal, no_game_refusal, refusal
from referee.web.service import PinRequired


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


def error_page(error: HTTPException) -> ResponseReturnValue:
    """The app's own page for ``error``, with its status code and headers (a 405's Allow)."""
    title, sentence = _sentence(error)
    code = error.code or 500
    headers = [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
    return (
        render_template("error.html", title=title, sentence=sentence, code=code, back=_back_url()),
        code,
        headers,
    )


SQLITE_READONLY, SQLITE_FULL = 8, 13


def storage_trouble(error: sqlite3.Error) -> str | None:
    """ "full" or "read-only" when the database could not be written for that reason."""
    code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
    text = str(error).lower()
    if code == SQLITE_FULL or "disk is full" in text:
        return "full"
    if code == SQLITE_READONLY or "readonly database" in text or "read-only" in text:
        return "read-only"
    return None


def storage_answer(error: sqlite3.OperationalError) -> ResponseReturnValue:
    """The disk is full, or the database cannot be written: say so, nothing was saved."""
    trouble = storage_trouble(error)
    if trouble is None:
        if request.path.startswith("/api/"):
            current_app.logger.exception("API error")
            return refusal(500, "The referee hit an internal error; nothing was changed.")
        raise error
    if trouble == "full":
        code, english = 507, "The disk is full: nothing was saved. Free some space and try again."
        sentence = _("The disk is full: nothing was saved. Free some space and try again.")
    else:
        code = 503
        english = "The database is read-only: nothing was saved. Ask whoever runs the referee."
        sentence = _("The database is read-only: nothing was saved. Ask whoever runs the referee.")
    if request.path.startswith("/api/"):
        return refusal(code, english)
    return (
        render_template(
            "error.html", title=_("Nothing was saved"), sentence=sentence, code=code, back=_back_url()
        ),
        code,
    )


def unreadable_answer(error: GameUnreadable) -> ResponseReturnValue:
    """A game whose record cannot be replayed: a fault of the stored data, not of the
    request, so a 500, said in a sentence, on this game only."""
    current_app.logger.error("game %s cannot be loaded: %s", error.game_id, error.reason)
    if request.path.startswith("/api/"):
        return refusal(
            500,
            f"The game {error.game_id!r} cannot be read: its stored record is damaged. "
            "Nothing was changed; the other games are not affected.",
        )
    return (
        render_template(
            "error.html",
            title=_("This game cannot be read"),
            sentence=_(
                "The stored record of this game is damaged, so the referee cannot show it; "
                "nothing was changed, and the other games are not affected."
            ),
            code=500,
            back=None,
        ),
        500,
    )


def install_json_refusals(blueprint: Blueprint, *, api_paths_only: bool = False) -> None:
    """Answer every refusal raised in ``blueprint`` the API's way: a 4xx with
    ``{"error", "rule"}``. With ``api_paths_only``, its HTTP errors are left to the app's
    handler (referee.web.errors), which answers by path: JSON under /api/, a page elsewhere."""
    answers: dict[type[Exception], ErrorHandlerCallable] = {
        ApiError: lambda e: refusal(e.status, e.message, e.rule),
        RuleViolation: lambda e: refusal(422, e.message, e.rule_id),
        BadRequest: lambda e: refusal(400, e.message),
        GameNotFound: no_game_refusal,
        UnknownRound: lambda e: refusal(404, str(e)),
        VersionConflict: lambda e: refusal(409, str(e)),
        PinRequired: lambda e: refusal(403, e.message),
        sqlite3.OperationalError: storage_answer,
        GameUnreadable: unreadable_answer,
    }
    for kind, answer_with in answers.items():
        blueprint.register_error_handler(kind, answer_with)
    if not api_paths_only:
        blueprint.register_error_handler(HTTPException, http_refusal)


def init_errors(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> ResponseReturnValue:
        return http_refusal(error) if request.path.startswith("/api/") else error_page(error)

    app.register_error_handler(sqlite3.OperationalError, storage_answer)
    app.register_error_handler(GameUnreadable, unreadable_answer)

    @app.errorhandler(GameNotFound)
    def _no_game(error: GameNotFound) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            return no_game_refusal(error)
        return render_template(
            "no_game.html", title=_("No such game"), back=None, game_id=error.args[0] if error.args else ""
        ), 404
