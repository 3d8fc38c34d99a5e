"""The table companion: follow a game from a phone (live, read-only), players across games,
the installable app (manifest, service worker) and the scoresheet as a PDF.

Views only read the store and render; the numbers come from the core (``Match.state()``,
``Standing``) and from the pure ``referee.stats``.
"""

from __future__ import annotations

import hashlib
import io
import ipaddress
import json
import mimetypes
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from referee.rules import GAMES
from referee.stats import GAME_TITLES, GameSummary, leaderboard, player_key, player_stats, summarize
from referee.store import GameNotFound, StoredGame
from referee.tiles import Tile
from referee.web import get_store
from referee.web.chart import chart_svg

bp = Blueprint("companion", __name__)

# The games' names in the page's language (lazy: translated when a page shows them).
TITLES = {"mexican-train": _l("Mexican Train"), "chicken-foot": _l("Chicken Foot"), "kozel": _l("Kozel")}
assert set(TITLES) == set(GAME_TITLES)

mimetypes.add_type("application/manifest+json", ".webmanifest")

STREAM_POLL = 0.5  # seconds between two looks at the game's version
STREAM_SECONDS = 25.0  # then the stream ends and the browser reconnects (frees the thread)
STREAM_HEARTBEAT = 10.0
STREAMS_MAX = 4  # open streams at once; more followers poll (each stream holds a server thread)
_streams_lock = threading.Lock()
PDF_TIMEOUT = 60
_printing = threading.Semaphore(1)  # one Chromium at a time: a small server has little memory
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")


def load_game(game_id: str) -> StoredGame:
    try:
        return get_store().load(game_id)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r.", game=game_id))


# ----- following a game ----------------------------------------------------------------------


def chain(tiles: list[str], start: int | None) -> list[tuple[str, int | None]]:
    """Tiles of a line as drawn, each with the half facing the previous one (display only)."""
    drawn: list[tuple[str, int | None]] = []
    value = start
    for text in tiles:
        tile = Tile.parse(text)
        if value is not None and tile.has(value):
            drawn.append((text, value))
            value = tile.other(value)
        else:
            drawn.append((text, None))
            value = None
    return drawn


def branch(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A chicken-foot arm as drawn: every tile shows its outer half last."""
    drawn = []
    for entry in entries:
        tile = Tile.parse(entry["tile"])
        end = entry.get("end")
        first = tile.other(end) if end is not None and tile.has(end) else None
        drawn.append(
            {
                "tile": entry["tile"],
                "first": first,
                "toes": [branch(toe) for toe in entry.get("toes", [])],
                "dead": entry.get("dead", False),
            }
        )
    return drawn


def follow_context(game: StoredGame) -> dict[str, Any]:
    match = game.match
    state = game.state()
    rnd = state["round"]
    engine_value = Tile.parse(rnd["double"]).low if rnd.get("double") else None
    trains = []
    if "trains" in rnd:
        for key, train in rnd["trains"].items():
            trains.append(
                {
                    "key": key,
                    "label": _("Mexican train") if key == "mexican" else key,
                    "tiles": chain(train["tiles"], engine_value),
                    "open": train.get("open"),
                    "marker": train.get("marker", False),
                    "mexican": key == "mexican",
                }
            )
    arms = [branch(arm) for arm in rnd.get("arms", [])]
    on_table = len(match.engine.tiles_on_table()) if match.referee and match.engine else None
    finished = state["status"] == "finished"
    kozel = None
    book = match.standing.kozel
    if book is not None:  # kz.score.display: an open account in red, remembered points as "+n"
        kozel = {p: {"open": book.open[p], "remembered": book.remembered[p]} for p in match.players}
    summary = describe(state)
    return {
        "game": game,
        "state": state,
        "round": rnd,
        "trains": trains,
        "arms": arms,
        "on_table": on_table,
        "finished": finished,
        "title": TITLES[match.config.game],
        "chart": chart_svg(match, f"follow-chart-{game.id}"),
        "summary": summary,
        "chart_narrow": chart_svg(match, f"follow-chart-narrow-{game.id}", width=360, height=300),
        "highest": match.config.highest,
        "kozel": kozel,
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
def follow(game_id: str):
    game = load_game(game_id)
    return render_template("companion/follow.html", **follow_context(game))


@bp.get("/games/<game_id>/follow/fragment")
def follow_fragment(game_id: str):
    game = load_game(game_id)
    response = Response(render_template("companion/follow_fragment.html", **follow_context(game)))
    response.headers["Cache-Control"] = "no-store"
    return response


def _version(conn: sqlite3.Connection, game_id: str) -> int | None:
    row = conn.execute("select version from games where id = ?", [game_id]).fetchone()
    return row[0] if row else None


@bp.get("/games/<game_id>/events/stream")
def event_stream(game_id: str):
    """Server-Sent Events: ``version`` each time the game's version grows.

    Reads one integer per poll on its own connection; ends after ``STREAM_SECONDS`` (the
    browser's EventSource reconnects by itself, sending ``Last-Event-ID``)."""
    path = current_app.config["DATABASE"]
    seconds = float(current_app.config.get("FOLLOW_STREAM_SECONDS", STREAM_SECONDS))
    poll = float(current_app.config.get("FOLLOW_STREAM_POLL", STREAM_POLL))
    current = _version(get_store().db.conn, game_id)
    if current is None:
        abort(404, description=_("There is no game %(game)r.", game=game_id))
    since_text = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    since = int(since_text) if since_text.isdigit() else None
    limit = int(current_app.config.get("FOLLOW_STREAMS_MAX", STREAMS_MAX))
    counter = current_app.extensions.setdefault("companion_streams", {"open": 0})

    def events() -> Iterator[str]:
        opened: list[sqlite3.Connection] = []
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
            conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
            opened.append(conn)
            started = beat = time.monotonic()
            while time.monotonic() - started < seconds:
                time.sleep(poll)
                version = _version(conn, game_id)
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
            for conn in opened:
                conn.close()
            if held:
                with _streams_lock:
                    counter["open"] -= 1

    response = Response(events(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def public_base() -> str:
    base = current_app.config.get("PUBLIC_URL") or os.environ.get("REFEREE_PUBLIC_URL")
    return (base or request.host_url).rstrip("/")


def follow_url(game_id: str) -> str:
    return public_base() + url_for("companion.follow", game_id=game_id)


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
def follow_qr(game_id: str):
    load_game(game_id)
    response = Response(qr_svg(follow_url(game_id)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/share")
def share(game_id: str):
    game = load_game(game_id)
    url = follow_url(game_id)
    lan = None
    if is_loopback(url):
        from referee.serve import lan_address

        address = lan_address()
        lan = None if address.startswith("127.") else address
    return render_template(
        "companion/share.html",
        game=game,
        url=url,
        loopback=is_loopback(url),
        lan=lan,
        title=TITLES[game.match.config.game],
    )


# ----- players across games ------------------------------------------------------------------


def summaries() -> list[GameSummary]:
    """Every stored game, summarized (cached per game version: a game only changes by
    growing its version)."""
    store = get_store()
    cache: dict[tuple[str, str, int], GameSummary] = current_app.extensions.setdefault("companion_stats", {})
    database = current_app.config["DATABASE"]
    result = []
    for row in store.list_games():
        key = (database, row["id"], row["version"])
        summary = cache.get(key)
        if summary is None:
            try:
                game = store.load(row["id"])
            except GameNotFound:  # deleted meanwhile
                continue
            summary = summarize(game.id, game.created, game.match)
            cache[key] = summary
        result.append(summary)
    if len(cache) > 5000:
        cache.clear()
    return result


@bp.get("/players")
def players():
    stats = sorted(player_stats(summaries()).values(), key=lambda s: (-s.games, s.key))
    return render_template("companion/players.html", players=stats, games=TITLES)


@bp.get("/players/<path:name>")
def player(name: str):
    games = summaries()
    stats = player_stats(games)
    record = stats.get(player_key(name))
    if record is None:
        abort(404, description=_("No game has a player called %(name)r.", name=name))
    by_game = {kind: player_stats(games, kind).get(record.key) for kind in GAME_TITLES}
    h2h = sorted(record.head_to_head.values(), key=lambda h: (-h.games, h.opponent.casefold()))
    return render_template(
        "companion/player.html",
        player=record,
        by_game=by_game,
        head_to_head=h2h,
        games=TITLES,
        history=sorted(record.history, key=lambda g: g.created, reverse=True),
    )


@bp.get("/leaderboard")
def leaderboards():
    return render_template("companion/leaderboards.html", games=TITLES)


@bp.get("/leaderboard/<game>")
def leaderboard_page(game: str):
    if game not in GAMES:
        abort(
            404,
            description=_(
                "There is no game called %(game)r: mexican-train, chicken-foot or kozel.", game=game
            ),
        )
    rows = leaderboard(summaries(), game)
    return render_template(
        "companion/leaderboard.html", rows=rows, game=game, title=TITLES[game], games=TITLES
    )


# ----- installable app -----------------------------------------------------------------------

PRECACHE_SUFFIXES = (".css", ".js", ".svg", ".webmanifest")


def precache_files() -> list[Path]:
    static = Path(current_app.static_folder)
    return sorted(
        p for p in static.iterdir() if p.is_file() and p.suffix in PRECACHE_SUFFIXES and p.name != "sw.js"
    )


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the root so that its scope is the whole app. Its cache name
    is a hash of the static files, so any change to them installs a fresh copy."""
    static = Path(current_app.static_folder)
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


# ----- the scoresheet as a PDF ---------------------------------------------------------------


def find_chromium() -> str | None:
    configured = current_app.config.get("CHROMIUM") or os.environ.get("REFEREE_CHROMIUM")
    candidates = (configured,) if configured else CHROMIUM_CANDIDATES
    for candidate in candidates:
        found = shutil.which(candidate) if candidate else None
        if found:
            return found
    return None


class PdfUnavailable(RuntimeError):
    pass


def print_to_pdf(html: str, chromium: str) -> bytes:
    """Chromium's own print (``--print-to-pdf``) of the page, in a subprocess: the same
    engine, print stylesheet and page setup as printing the page from the browser."""
    static = Path(current_app.static_folder).resolve()
    prefix = url_for("static", filename="")
    # the page's own stylesheets and images, read from disk instead of over HTTP
    html = re.sub(r'(href|src)="' + re.escape(prefix), lambda m: f'{m.group(1)}="{static.as_uri()}/', html)
    # the printed page is what the server rendered: its scripts (service worker, wake lock)
    # have nothing to add to paper, so they are left out
    html = re.sub(r"<script\b[^>]*>.*?</script\s*>", "", html, flags=re.S | re.I)
    with tempfile.TemporaryDirectory(prefix="referee-pdf-") as work:
        page = Path(work) / "scoresheet.html"
        target = Path(work) / "scoresheet.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            chromium,
            "--headless",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-pdf-header-footer",
            f"--user-data-dir={Path(work) / 'profile'}",
            f"--print-to-pdf={target}",
            page.as_uri(),
        ]
        if os.geteuid() == 0:  # Chromium refuses to run as root with its sandbox
            command.insert(1, "--no-sandbox")
        try:
            result = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=PDF_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PdfUnavailable(
                _("Chromium could not print the scoresheet (%(error)s).", error=str(error))
            ) from None
        if not target.exists() or target.stat().st_size == 0:
            current_app.logger.warning("chromium --print-to-pdf failed: %s", result.stderr[-2000:])
            raise PdfUnavailable(_("Chromium could not print the scoresheet."))
        return target.read_bytes()


def unavailable(message: str) -> Response:
    body = render_template("companion/unavailable.html", message=message)
    response = Response(body, status=503, mimetype="text/html")
    response.headers["Retry-After"] = "60"
    return response


@bp.get("/games/<game_id>/scoresheet.pdf")
def scoresheet_pdf(game_id: str):
    game = load_game(game_id)
    chromium = find_chromium()
    if chromium is None:
        return unavailable(
            _(
                "The PDF is printed by Chromium, which is not installed on this "
                "machine. Open the scoresheet and use the browser's Print instead "
                "(install Debian's chromium package to get the PDF download)."
            )
        )
    sheet_path = f"/games/{game_id}/scoresheet"  # the pages' printable scoresheet, rendered in-process
    # the page in this request's language: the inner client keeps its own cookie jar (a
    # forwarded Cookie header would be dropped), so the language goes as Accept-Language
    from referee.web.i18n import current_lang

    headers = {"Accept-Language": current_lang()}
    sheet = current_app.test_client().get(sheet_path, headers=headers)
    if sheet.status_code != 200:
        return unavailable(
            _("The scoresheet page could not be rendered (HTTP %(status)s).", status=sheet.status_code)
        )
    if not _printing.acquire(timeout=PDF_TIMEOUT):
        return unavailable(_("Another scoresheet is being printed: try again in a minute."))
    try:
        pdf = print_to_pdf(sheet.get_data(as_text=True), chromium)
    except PdfUnavailable as error:
        return unavailable(str(error))
    finally:
        _printing.release()
    response = Response(pdf, mimetype="application/pdf")
    stamp = game.created[:10]
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scoresheet-{game.match.config.game}-{stamp}-{game.id}.pdf"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response
