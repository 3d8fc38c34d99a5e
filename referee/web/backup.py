"""Backups: export games as their event logs, import them back.

An export is the truth itself — each game's event log — never the derived state, so an
import replays it through the same rules every live request takes (``apply_event``), before
it takes the write lock; then each game is stored whole (its log and the replayed state), so
the lock is held for the inserts alone and the tables keep playing.

    GET  /api/games/<id>/export     one game   (a JSON download)
    GET  /api/export                every game (a JSON download)
    POST /api/import                games from an export (all or nothing) → 201
    GET  /games/<id>/export.json    the game page's download link
    GET  /backup                    the backup page: download, import (previewed, then confirmed)
    GET  /backup/referee.db         the whole database as one file

Whenever a PIN is set (the owner's or a table's), exports and the database file need the
owner PIN (``may_take_backups``): a guest on the LAN gets no PIN's hash to guess at. A
protected game is exported with its table PIN's hash (``pin_hash``: salted scrypt, never the
PIN), so a restored backup keeps the protection; an imported game may instead be given a new
``pin``. Keep backup files where the tables' PINs are meant to be safe. Time stamps must be
real ones, and none may lie in the future (the lists are ordered by this server's clock).
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    json,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from referee.match import GameConfig, Match, UnknownRound
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.store import GameNotFound, Store, StoredGame, apply_event, backup_to, now
from referee.web.db import get_store
from referee.web.errors import install_json_refusals
from referee.web.extensions import csrf
from referee.web.forms import Form
from referee.web.json_answers import json_body, refusal
from referee.web.safety import IMPORT_MAX_BODY
from referee.web.service import OWNER_HEADER, hash_pin, is_owner, may_take_backups, owner_pin_hash

bp = Blueprint("backup", __name__)

FORMAT = "domino-referee"
FORMAT_VERSION = 1
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
STAMP_MAX = 40
FUTURE_SKEW = timedelta(minutes=10)  # clocks of two machines differ a little
# a table PIN's hash as this app writes it: scrypt's, or the earlier PBKDF2 one (still read)
PIN_HASH = re.compile(
    r"^(scrypt\$[0-9]{1,8}\$[0-9]{1,3}\$[0-9]{1,3}\$[0-9a-f]{32}\$[0-9a-f]{64}"
    r"|[0-9a-f]{16}\$[0-9a-f]{64})$"
)
EVENT_KINDS = ("action", "hands")


# ----------------------------------------------------------------------------- export


def game_export(store: Store, game: Mapping[str, Any]) -> dict[str, Any]:
    row = store.db.execute("select pin_hash from games where id = ?", [game["id"]]).fetchone()
    pin_hash = row[0] if row else None
    return {
        "id": game["id"],
        "created": game["created"],
        "protected": bool(pin_hash),
        **({"pin_hash": pin_hash} if pin_hash else {}),
        "events": [
            {"version": e.version, "kind": e.kind, "payload": e.payload, "created": e.created}
            for e in store.events(game["id"])
        ],
    }


def envelope(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "exported": now(), "games": games}


def download(data: dict[str, Any], filename: str) -> Response:
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, indent=1) + "\n", mimetype="application/json"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_one(game_id: str) -> Response:
    store = get_store()
    with store.read():  # the game as it was at one moment, even while a tablet plays on
        game = store.load(game_id)
        row = {"id": game.id, "created": game.created, "protected": bool(game.pin_hash)}
        exported = game_export(store, row)
    return download(envelope([exported]), f"domino-{game.id}.json")


def backup_refused_sentence() -> str:
    if owner_pin_hash():
        return str(
            _(
                "Backups and exports hold every game's PIN: they need the owner PIN (the %(header)s "
                "header, or the page /owner).",
                header=OWNER_HEADER,
            )
        )
    return str(
        _(
            "Backups and exports hold the tables' PINs: set an owner PIN on the server's machine "
            "first, then give it here."
        )
    )


def api_backup_refusal() -> ResponseReturnValue | None:
    return None if may_take_backups() else refusal(403, backup_refused_sentence())


@bp.get("/api/games/<game_id>/export")
def api_export_game(game_id: str) -> ResponseReturnValue:
    return api_backup_refusal() or export_one(game_id)


@bp.get("/api/export")
def api_export_all() -> ResponseReturnValue:
    if refused := api_backup_refusal():
        return refused
    store = get_store()
    with store.read():  # one consistent picture of every game, however busy the tables
        rows = sorted(store.list_games(), key=lambda g: (g["created"], g["id"]))
        games = [game_export(store, row) for row in rows]  # the log alone: no game is rebuilt
    return download(envelope(games), "domino-referee-backup.json")


@bp.get("/games/<game_id>/export.json")
def page_export_game(game_id: str) -> ResponseReturnValue:
    if not may_take_backups():
        return backup_page(problem=backup_refused_sentence(), status=403)
    try:
        return export_one(game_id)
    except GameNotFound:
        abort(404)


# ----------------------------------------------------------------------------- import


class ImportRefused(Exception):
    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        self.status, self.message, self.rule = status, message, rule
        super().__init__(message)


def _shape(condition: bool, message: str) -> None:
    if not condition:
        raise ImportRefused(400, message)


def parse_backup(body: Any) -> list[dict[str, Any]]:
    """Check an export's shape and replay every game in memory (the rules judge each event);
    returns the games ready to write: id, created, pin hash, config and canonical events."""
    _envelope_check(body)
    seen: set[str] = set()
    return [parse_game(raw, index, seen) for index, raw in enumerate(body["games"])]


def _envelope_check(body: Any) -> None:
    _shape(isinstance(body, dict), 'The body must be an export: {"format": "domino-referee", "games": […]}.')
    unknown = sorted(set(body) - {"format", "format_version", "exported", "games"})
    _shape(not unknown, f"Unknown field {unknown[0]!r} in the export." if unknown else "")
    _shape(
        body.get("format", FORMAT) == FORMAT,
        f"This is not a Domino Referee export ('format' must be {FORMAT!r}).",
    )
    version = body.get("format_version", FORMAT_VERSION)
    _shape(
        version == FORMAT_VERSION and not isinstance(version, bool),
        f"This export's format_version is not {FORMAT_VERSION}: it cannot be read.",
    )
    _shape(isinstance(body.get("exported", ""), str), "'exported' must be a time stamp.")
    games = body.get("games")
    _shape(isinstance(games, list) and len(games) > 0, "'games' must be a non-empty list of games.")


def preview_backup(body: Any, existing: set[str]) -> dict[str, Any]:
    """What an import would do, before anything is written: every game checked on its own
    (the export's shape first: a file that is not an export is refused whole)."""
    accepted: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    _envelope_check(body)
    seen: set[str] = set()
    for index, raw in enumerate(body["games"]):
        label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{index + 1}"
        try:
            game = parse_game(raw, index, seen)
        except ImportRefused as error:
            refused.append({"id": label, "reason": error.message, "rule": error.rule})
            continue
        if game["id"] in existing:
            refused.append(
                {"id": game["id"], "reason": _("A game with this id already exists here."), "rule": None}
            )
            continue
        accepted.append(game)
    return {
        "games": accepted,
        "refused": refused,
        "players": sorted({name for g in accepted for name in g["config"].players}, key=str.casefold),
        "rounds": sum(g["rounds"] for g in accepted),
        "protected": [g["id"] for g in accepted if g["pin_hash"]],
    }


def parse_game(raw: Any, index: int, seen: set[str]) -> dict[str, Any]:
    where = f"Game {index + 1} of the export"
    _shape(isinstance(raw, dict), f"{where} must be an object with 'id' and 'events'.")
    unknown = sorted(set(raw) - {"id", "created", "protected", "events", "pin", "pin_hash"})
    _shape(not unknown, f"Unknown field {unknown[0]!r} in {where.lower()}." if unknown else "")
    game_id = raw.get("id")
    _shape(
        isinstance(game_id, str) and bool(GAME_ID.match(game_id)),
        f"{where} needs an 'id' of 1–64 letters, digits, '-' or '_'.",
    )
    where = f"Game {game_id!r}"
    _shape(game_id not in seen, f"{where} is in the export twice.")
    seen.add(game_id)
    created = raw.get("created")
    check_stamp(created, f"{where}: 'created'")
    _shape(isinstance(raw.get("protected", False), bool), f"{where}: 'protected' must be true or false.")
    kept = raw.get("pin_hash")
    _shape(
        kept is None or (isinstance(kept, str) and bool(PIN_HASH.match(kept))),
        f"{where}: 'pin_hash' must be a table PIN's hash as this app exports it.",
    )
    pin_hash = hash_pin(raw["pin"]) if raw.get("pin") is not None else kept
    events = raw.get("events")
    _shape(isinstance(events, list) and len(events) > 0, f"{where}: 'events' must be a non-empty list.")
    checked: list[dict[str, Any]] = []
    for position, event in enumerate(events, start=1):
        _shape(
            isinstance(event, dict) and set(event) <= {"version", "kind", "payload", "created"},
            f"{where}, event {position}: an event is {{version, kind, payload, created}}.",
        )
        number = event.get("version")
        _shape(
            number == position and not isinstance(number, bool),
            f"{where}, event {position}: versions must run 1, 2, 3 … without gaps.",
        )
        stamp = event.get("created")
        check_stamp(stamp, f"{where}, event {position}: 'created'")
        kind, payload = event.get("kind"), event.get("payload")
        _shape(isinstance(payload, dict), f"{where}, event {position}: 'payload' must be an object.")
        if position == 1:
            _shape(kind == "create", f"{where}: the first event must be the game's 'create'.")
        else:
            _shape(kind in EVENT_KINDS, f"{where}, event {position}: 'kind' must be action or hands.")
        checked.append({"version": position, "kind": kind, "payload": payload, "created": stamp})
    current = 1
    try:
        config = GameConfig.from_json(checked[0]["payload"])
        match = Match(config)
        checked[0]["payload"] = config.to_json()
        for event in checked[1:]:
            current = event["version"]
            event["payload"] = canonical_payload(event["kind"], event["payload"])
            apply_event(match, event["kind"], event["payload"])
    except BadRequest as error:
        raise ImportRefused(400, f"{where}, event {current}: {error.message}") from None
    except UnknownRound as error:
        raise ImportRefused(422, f"{where}, event {current}: {error}") from None
    except RuleViolation as error:
        raise ImportRefused(422, f"{where}, event {current}: {error.message}", error.rule_id) from None
    return {
        "id": game_id,
        "created": created,
        "pin_hash": pin_hash,
        "config": config,
        "events": checked,
        "match": match,
        "rounds": len(match.rounds),
        "finished": bool(match.finished),
    }


def check_stamp(value: Any, what: str) -> None:
    """A time stamp of a backup: absent, or an ISO date and time of the past (a stamp in
    the future would sort its game above every new one; a newline would break headers)."""
    if value is None:
        return
    _shape(
        isinstance(value, str) and 0 < len(value) <= STAMP_MAX and value.isascii() and value.isprintable(),
        f"{what} must be a time stamp such as 2026-05-01T20:15:00.",
    )
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ImportRefused(400, f"{what} must be a time stamp such as 2026-05-01T20:15:00.") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    _shape(
        moment <= datetime.now(UTC) + FUTURE_SKEW,
        f"{what} is in the future ({value}): a backup only holds what has happened.",
    )


def canonical_payload(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as a live request would have logged it."""
    if kind == "action":
        return Action.from_json(payload).to_json()
    if not {"round", "hands"} <= set(payload) <= {"round", "hands", "markers"}:
        raise BadRequest('A hands event is {"round": n, "hands": {…}}.')
    return {key: payload[key] for key in ("round", "hands", "markers") if key in payload}


def write_games(store: Store, games: list[dict[str, Any]]) -> list[StoredGame]:
    """Store every game (already replayed by ``parse_backup``) in one transaction: a
    refusal, or a crash of the app half-way, leaves nothing of the import behind. The rows
    are made first; the write lock is held for the check of the ids and the inserts only."""
    rows = [
        Store.replayed_rows(g["id"], g["match"], g["events"], pin_hash=g["pin_hash"], created=g["created"])
        for g in games
    ]
    with store.write():
        existing = {row["id"] for row in store.list_games(trashed=True)}
        taken = [g["id"] for g in games if g["id"] in existing]
        if taken:
            raise ImportRefused(409, f"A game {taken[0]!r} already exists here: nothing was imported.")
        store.insert_replayed(rows)
    return [
        StoredGame(g["id"], row[5], len(g["events"]), g["match"], g["pin_hash"])
        for g, (row, _events, _players) in zip(games, rows, strict=True)
    ]


@bp.post("/api/import")
def api_import() -> ResponseReturnValue:
    if not is_owner():
        return refusal(
            403, _("Importing a backup needs the owner PIN (the %(header)s header).", header=OWNER_HEADER)
        )
    games = parse_backup(json_body())
    stored = write_games(get_store(), games)
    return jsonify(
        {
            "imported": [
                {
                    "id": g.id,
                    "version": g.version,
                    "game": g.match.config.game,
                    "status": "finished" if g.match.finished else "playing",
                    "protected": bool(g.pin_hash),
                }
                for g in stored
            ]
        }
    ), 201


csrf.exempt(api_import)  # JSON only: a cross-site form cannot send application/json


# ----------------------------------------------------------------------------- the backup page


def too_large() -> bool:
    return (request.content_length or 0) > IMPORT_MAX_BODY


IMPORT_ENDPOINTS = ("backup.api_import", "backup.page_import_preview")


def allow_imports() -> ResponseReturnValue | None:
    """(First of the app's ``before_request``, before anything reads a body.) An import may
    be up to ``IMPORT_MAX_BODY``; a larger one is refused, with the limit, before it is read."""
    if request.endpoint not in IMPORT_ENDPOINTS:
        return None
    if too_large():
        if request.endpoint == "backup.api_import":
            return refusal(413, too_large_sentence())
        return backup_page(problem=too_large_sentence(), status=413)
    request.max_content_length = IMPORT_MAX_BODY
    return None


@bp.record_once
def _first_before_request(state: BlueprintSetupState) -> None:
    state.app.before_request_funcs.setdefault(None, []).insert(0, allow_imports)


def too_large_sentence() -> str:
    return str(
        _(
            "A backup to import can be at most %(mb)s MB (a larger one would hold up the tables "
            "while it is written): nothing was imported; export fewer games at a time.",
            mb=IMPORT_MAX_BODY // (1024 * 1024),
        )
    )


PENDING_KEY = "referee.pending_imports"
PENDING_KEPT = 4  # previews waiting for their confirmation (the oldest is forgotten first)


class ImportForm(Form):
    pass


def pending_imports() -> dict[str, dict[str, Any]]:
    pending: dict[str, dict[str, Any]] = current_app.extensions.setdefault(PENDING_KEY, {})
    return pending


def backup_page(
    *,
    summary: dict[str, Any] | None = None,
    token: str | None = None,
    problem: str | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    return render_template(
        "backup.html",
        summary=summary,
        token=token,
        problem=problem,
        owner=is_owner(),
        has_owner=bool(owner_pin_hash()),
        limit_mb=IMPORT_MAX_BODY // (1024 * 1024),
    ), status


@bp.get("/backup")
def page() -> ResponseReturnValue:
    return backup_page()


@bp.post("/backup/import")
def page_import_preview() -> ResponseReturnValue:
    """Read the chosen file and show what it holds; nothing is written yet."""
    if not ImportForm().validate_on_submit():
        return backup_page(problem=_("This page is too old to send: open it again."), status=400)
    if not is_owner():
        return backup_page(problem=_("Importing a backup needs the owner PIN: enter it first."), status=403)
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        return backup_page(problem=_("Choose a backup file (.json) to import."), status=400)
    try:
        body = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return backup_page(
            problem=_("This file is not a Domino Referee backup (it is not JSON)."), status=400
        )
    existing = {row["id"] for row in get_store().list_games(trashed=True)}
    try:
        summary = preview_backup(body, existing)
    except ImportRefused as error:
        return backup_page(
            problem=_("This file cannot be imported: %(reason)s", reason=error.message), status=400
        )
    pending = pending_imports()
    while len(pending) >= PENDING_KEPT:
        pending.pop(next(iter(pending)))
    token = secrets.token_urlsafe(16)
    pending[token] = summary
    session["import_token"] = token
    summary = {**summary, "name": upload.filename}
    return backup_page(summary=summary, token=token)


@bp.post("/backup/import/confirm")
def page_import_confirm() -> ResponseReturnValue:
    if not ImportForm().validate_on_submit():
        return backup_page(problem=_("This page is too old to send: open it again."), status=400)
    if not is_owner():
        return backup_page(problem=_("Importing a backup needs the owner PIN: enter it first."), status=403)
    token = request.form.get("token", "")
    summary = pending_imports().get(token) if token and session.get("import_token") == token else None
    if summary is None:
        return backup_page(problem=_("This import is no longer waiting: choose the file again."), status=409)
    if not summary["games"]:
        return backup_page(
            problem=_("No game of this file can be imported: nothing was written."), status=400
        )
    try:
        stored = write_games(get_store(), summary["games"])
    except ImportRefused as error:
        return backup_page(
            problem=_("Nothing was imported: %(reason)s", reason=error.message), status=error.status
        )
    pending_imports().pop(token, None)
    session.pop("import_token", None)
    flash(ngettext("%(num)s game imported.", "%(num)s games imported.", len(stored)), "info")
    return redirect(url_for("backup.page"), code=303)


@bp.get("/backup/referee.db")
def database_file() -> ResponseReturnValue:
    """The whole database as one file (SQLite's online backup API: consistent while plays
    go on, and no ``-wal`` file needed beside it)."""
    if not may_take_backups():
        return backup_page(problem=backup_refused_sentence(), status=403)
    with tempfile.TemporaryDirectory(prefix="referee-backup-") as work:
        target = os.path.join(work, "referee.db")
        backup_to(current_app.config["DATABASE"], target)
        with open(target, "rb") as copy:
            data = copy.read()
    stamp = now()[:10]
    return Response(
        data,
        mimetype="application/vnd.sqlite3",
        headers={
            "Content-Disposition": f'attachment; filename="domino-referee-{stamp}.db"',
            "Cache-Control": "no-store",
        },
    )


# ----------------------------------------------------------------------------- errors


install_json_refusals(bp, api_paths_only=True)


@bp.errorhandler(ImportRefused)
def _import_refused(error: ImportRefused) -> ResponseReturnValue:
    return refusal(error.status, error.message, error.rule)
