"""Share a game: its follow address and QR code, for a phone at the table."""

from __future__ import annotations

import io
import ipaddress
import os
from urllib.parse import urlsplit

import segno
from flask import Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.network import lan_address
from referee.web.companion.common import bp, load_game
from referee.web.i18n import game_title
from referee.web.service import send_code


def public_base() -> str:
    base = current_app.config.get("PUBLIC_URL") or os.environ.get("REFEREE_PUBLIC_URL")
    return (base or request.host_url).rstrip("/")


def follow_url(game_id: str) -> str:
    """The address the table's QR carries: the follow page, with the code that lets the
    phone send a hand (a guest who only knows the game's id can follow, not send)."""
    return public_base() + url_for("companion.follow", game_id=game_id, code=send_code(game_id))


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(text: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(
        buffer,
        kind="svg",
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        title="QR code: " + text,
    )
    return buffer.getvalue()


@bp.get("/games/<game_id>/follow/qr.svg")
def follow_qr(game_id: str) -> ResponseReturnValue:
    load_game(game_id)
    response = Response(qr_svg(follow_url(game_id)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/share")
def share(game_id: str) -> ResponseReturnValue:
    game = load_game(game_id)
    url = follow_url(game_id)
    lan = None
    if is_loopback(url):
        address = lan_address()
        lan = None if address.startswith("127.") else address
    return render_template(
        "companion/share.html",
        game=game,
        url=url,
        loopback=is_loopback(url),
        lan=lan,
        title=game_title(game.match.config.game),
    )
