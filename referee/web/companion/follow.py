"""Follow a game from a phone: the live, read-only view and its Server-Sent Events.

The stream reads the game's version through the store, one short borrow of a pooled store
per look, so it holds no connection of its own between looks."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from flask import Response, abort, current_app, render_template, request

from referee.presenters import presenter_for
from referee.store import StoredGame, StorePool
from referee.web.chart import chart_svg
from referee.web.companion.common import bp, load_game
from referee.web.db import get_store
from referee.web.forms import NotANumber, whole_number
from referee.web.game_view import _
from referee.web.i18n import current_lang, game_title
from referee.web.service import holds_send_code, send_code

STREAM_POLL = 0.5  # seconds between two looks at the game's version
STREAM_SECONDS = 25.0  # then the stream ends and the browser reconnects (frees the thread)
STREAM_HEARTBEAT = 10.0
STREAMS_MAX = 4  # open streams at once; more followers poll (each stream holds a server thread)
_streams_lock = threading.Lock()


def follow_context(game: StoredGame) -> dict[str, Any]:
    match = game.match
    state = game.state()
    rnd = state["round"]
    presenter = presenter_for(match.config.game)
    on_table = len(match.engine.tiles_on_table()) if match.referee and match.engine else None
    finished = state["status"] == "finished"
    accounts = presenter.accounts(match)  # kz.score.display: an open account in red, "+n" remembered
    summary = describe(state)
    return {
        "game": game,
        "state": state,
        "round": rnd,
        **presenter.follow_view(match, rnd, _),
        "on_table": on_table,
        "finished": finished,
        "title": game_title(match.config.game),
        "chart": chart_svg(match, f"follow-chart-{game.id}"),
        "summary": summary,
        "chart_narrow": chart_svg(match, f"follow-chart-narrow-{game.id}", width=360, height=300),
        "highest": match.config.highest,
        "accounts": accounts,
    }


def describe(state: dict[str, Any]) -> str:
    """One line for screen readers when the live view changes (in the page's language)."""
    rnd = state["round"]
    if state["status"] == "finished":
        winners = state.get("winners")
        if winners:
            return _("The game is finished. Winner: %(winners)s.", winners=", ".join(winners))
        return _("The game is finished.")
    if rnd["status"] == "playing":
        if rnd.get("turn"):
            return _("Round %(number)s: %(player)s's turn.", number=rnd["number"], player=rnd["turn"])
        return _("Round %(number)s:", number=rnd["number"])
    return _("Round %(number)s is over: waiting for the hands left.", number=rnd["number"])


@bp.get("/games/<game_id>/follow")
def follow(game_id: str) -> str:
    game = load_game(game_id)
    may_send = holds_send_code(game_id, request.args.get("code"))
    return render_template(
        "companion/follow.html",
        send_code=send_code(game_id) if may_send else None,
        **follow_context(game),
    )


FRAGMENTS_KEPT = 256
_fragments: OrderedDict[tuple[str, str, int, str], str] = OrderedDict()


@bp.get("/games/<game_id>/follow/fragment")
def follow_fragment(game_id: str) -> Response:
    """The live part of the follow page. Every phone following a game asks for it after each
    change: it is rendered once per version and language and then reused."""
    game = load_game(game_id)
    key = (current_app.config["DATABASE"], game.id, game.version, current_lang())
    with _streams_lock:
        html = _fragments.get(key)
    if html is None:
        html = render_template("companion/follow_fragment.html", **follow_context(game))
        with _streams_lock:
            _fragments[key] = html
            while len(_fragments) > FRAGMENTS_KEPT:
                _fragments.popitem(last=False)
    response = Response(html)
    response.headers["Cache-Control"] = "no-store"
    return response


def _version(stores: StorePool, game_id: str) -> int | None:
    store = stores.acquire()
    try:
        return store.version_of(game_id)
    finally:
        stores.release(store)


@bp.get("/games/<game_id>/events/stream")
def event_stream(game_id: str) -> Response:
    """Server-Sent Events: ``version`` each time the game's version grows.

    Reads one integer per poll through the store; ends after ``STREAM_SECONDS`` (the
    browser's EventSource reconnects by itself, sending ``Last-Event-ID``)."""
    stores: StorePool = current_app.extensions["referee.stores"]
    seconds = float(current_app.config.get("FOLLOW_STREAM_SECONDS", STREAM_SECONDS))
    poll = float(current_app.config.get("FOLLOW_STREAM_POLL", STREAM_POLL))
    current = get_store().version_of(game_id)
    if current is None:
        abort(404, description=_("There is no game %(game)r.", game=game_id))
    since_text = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    try:
        since = whole_number(since_text, 12)
    except NotANumber:  # (the stream starts from the top)
        since = None
    limit = int(current_app.config.get("FOLLOW_STREAMS_MAX", STREAMS_MAX))
    counter = current_app.extensions.setdefault("companion_streams", {"open": 0})

    def events() -> Iterator[str]:
        with _streams_lock:  # taken here, so a stream that never starts holds no slot
            held = counter["open"] < limit
            if held:
                counter["open"] += 1
        try:
            last = since
            # with every stream slot taken, answer at once and let the browser ask again
            # in a few seconds: polling instead of holding one more server thread
            yield "retry: 1500\n\n" if held else "retry: 4000\n\n"
            if last is None or current != last:
                yield f"id: {current}\nevent: version\ndata: {json.dumps({'version': current})}\n\n"
                last = current
            if not held:
                return
            started = beat = time.monotonic()
            while time.monotonic() - started < seconds:
                time.sleep(poll)
                version = _version(stores, game_id)
                if version is None:
                    yield "event: gone\ndata: {}\n\n"
                    return
                if version != last:
                    last = version
                    yield f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"
                    beat = time.monotonic()
                elif time.monotonic() - beat >= STREAM_HEARTBEAT:
                    beat = time.monotonic()
                    yield ": still here\n\n"
        finally:
            if held:
                with _streams_lock:
                    counter["open"] -= 1

    response = Response(events(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
