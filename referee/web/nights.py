"""The pages of club nights: the organiser's "New club night", the night page with its
tables' QR codes and "Next stage", the board for a TV, the night sheet (page and PDF), and
a whole night to the trash.

Views parse a form and call the core (``NightConfig``, ``Night``) through the store, as the
JSON API does (``referee.web.nights_api``): what is allowed is decided there, never here.
The live parts are fragments that a page asks for every few seconds with the night's mark
(the stage and its tables' versions): an unchanged night is answered 204, a changed one is
rendered once per mark and language and reused by every screen that follows it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import HiddenField

from referee.nights import Night, NightConfig, NightRefused, shuffled
from referee.rules import GAMES
from referee.rules.base import BadRequest, RuleViolation
from referee.rules.options import CHOICE, FLAG
from referee.scoresheet_pdf import PAPERS, Sheet
from referee.store import NightNotFound, StoredNight
from referee.web.db import get_store
from referee.web.extensions import csrf
from referee.web.forms import Form, field_name, set_menu
from referee.web.game_view import _, ngettext, ordinal, progress, translated
from referee.web.heavy import Busy, busy, pdf_in_pool, pdf_pool
from referee.web.i18n import current_lang, game_title, translate_text, translate_violation
from referee.web.json_answers import CHANGE_KEY
from referee.web.night_forms import SEATING_HELP, SEATING_NAMES, SEATING_RULE, STAGED_BY_ROUNDS, NightForm

bp = Blueprint("nights", __name__)

BOARD_STANDING_PAGE = 10  # standing lines on one page of the board (it turns its pages)
BOARD_TABLES_PAGE = 8  # tables on one page of the board
FRAGMENTS_KEPT = 128
FRESH_SECONDS = 2.0  # a live part rendered this recently is served as it is
STALE = _l(
    "This page was too old to send (its security token expired): nothing was "
    "started; check the form below and send it again."
)

_lock = threading.Lock()
_fragments: OrderedDict[tuple[Any, ...], tuple[float, str, str]] = OrderedDict()  # (when, mark, html)
_rendering: set[tuple[Any, ...]] = set()  # the live parts a thread is rendering now


@dataclass
class Refusal:
    """What the pages show for a refused night: the rule id (or None) and one sentence."""

    rule: str | None
    message: str


def refusal_of(error: Exception) -> Refusal:
    rule = getattr(error, "rule_id", None)
    return Refusal(rule, translate_violation(error))


def load_night(night_id: str) -> StoredNight:
    try:
        return get_store().load_night(night_id)
    except NightNotFound:
        abort(404, description=_("There is no club night %(night)r.", night=night_id))


# ----- what the pages show ----------------------------------------------------------------


def seating_choices() -> list[dict[str, str]]:
    return [
        {"value": key, "label": _(SEATING_NAMES[key]), "help": _(text), "rule": SEATING_RULE[key]}
        for key, text in SEATING_HELP.items()
    ]


def option_lines(config: NightConfig) -> list[dict[str, str]]:
    """Every option of the night's game with the value in force (defaults included)."""
    values = config.options.to_json()
    lines = []
    for option in config.rules.declaration.options:
        value = values.get(option.name)
        if option.kind == FLAG:
            shown = _("yes") if value else _("no")
        elif option.kind == CHOICE:
            shown = next((_(choice.label) for choice in option.choices if choice.value == value), str(value))
        else:
            shown = "–" if value is None else str(value)
        lines.append({"label": _(option.label), "value": shown, "rule": option.rule})
    return lines


def night_facts(config: NightConfig) -> list[str]:
    """The night's shape in a few words: set, tables, stages, rounds, seating."""
    facts = [
        _("double-%(highest)s set", highest=config.highest),
        ngettext("%(num)s player", "%(num)s players", len(config.players)),
        ngettext("%(num)s table", "%(num)s tables", config.table_count),
        ngettext("%(num)s stage", "%(num)s stages", config.stages),
    ]
    if config.rounds_per_stage is not None:
        facts.append(ngettext("%(num)s round a stage", "%(num)s rounds a stage", config.rounds_per_stage))
    facts.append(_("seating: %(seating)s", seating=_(SEATING_NAMES[config.seating])))
    return facts


def public_base() -> str:
    base = current_app.config.get("PUBLIC_URL")
    return str(base or request.host_url).rstrip("/")


def qr_svg(text: str) -> Markup:
    """A QR code of ``text`` as inline SVG (segno, as the share page's)."""
    return Markup(_qr_text(text))


@functools.lru_cache(maxsize=256)
def _qr_text(text: str) -> str:
    """A table's code never changes: drawn once per address."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(
        buffer,
        kind="svg",
        scale=1,
        border=2,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        title=text,
    )
    return buffer.getvalue().decode("utf-8")


def tables_view(stored: StoredNight, with_qr: bool = False) -> list[dict[str, Any]]:
    """The tables of the stage in play: players, round, leader, status, links."""
    store = get_store()
    config = stored.night.config
    shown = []
    for table in stored.current:
        match = store.load(table.game_id).match
        standing = match.standing
        short = url_for("nights.table_link", night_id=stored.id, number=table.number)
        row: dict[str, Any] = {
            "number": table.number,
            "game_id": table.game_id,
            "players": list(config.game_players(table.players)),
            "status": table.status,
            "finished": table.status == "finished",
            "progress": progress(match),
            "leaders": list(standing.winners) if match.finished else list(match.leaders()),
            "totals": dict(standing.totals),
            "url": url_for("pages.game", game_id=table.game_id),
            "short": public_base() + short,
        }
        if with_qr:
            row["qr"] = qr_svg(row["short"])
        shown.append(row)
        store.give_back_game(table.game_id)  # read: a play at that table finds it in the cache
    return shown


def moves_view(stored: StoredNight) -> list[dict[str, Any]]:
    """Where each player moved when the stage in play was seated ("Ana → table 2")."""
    moved = stored.night.moves()
    return [
        {"player": name, "from": before, "to": after}
        for name, (before, after) in sorted(moved.items(), key=lambda item: (item[1][1], item[0]))
    ]


def standing_view(stored: StoredNight) -> list[dict[str, Any]]:
    return [
        {"place": line.place, "label": ordinal(line.place), "player": line.player, "total": line.total}
        for line in stored.night.standings()
    ]


def history_view(stored: StoredNight) -> list[dict[str, Any]]:
    """Every closed stage's tables: players in the game's order, totals and night points."""
    config = stored.night.config
    rated = config.round_count() is None
    stages = []
    for record in stored.night.history:
        tables = []
        for number, (players, result) in enumerate(zip(record.tables, record.results), 1):
            names = config.game_players(players)
            tables.append(
                {
                    "number": number,
                    "lines": [
                        {
                            "player": name,
                            "total": result.totals.get(name, 0),
                            "points": result.points(name, rated),
                            "goat": result.worst(name),
                        }
                        for name in names
                    ],
                }
            )
        stages.append({"stage": record.stage, "tables": tables})
    return stages


def stage_heading(stored: StoredNight) -> str:
    night = stored.night
    if night.finished:
        return _("The night is finished.")
    return _("Stage %(stage)s of %(stages)s", stage=night.stage, stages=night.config.stages)


def night_context(stored: StoredNight) -> dict[str, Any]:
    config = stored.night.config
    return {
        "night": stored,
        "config": config,
        "title": game_title(config.game),
        "facts": night_facts(config),
        "heading": stage_heading(stored),
        "standing": standing_view(stored),
        "rated": config.round_count() is None,
    }


def mark_text(mark: Any) -> str:
    """The night's mark in a few characters (the same in every process)."""
    return hashlib.blake2b(repr(mark).encode("utf-8"), digest_size=8).hexdigest()


def live_fragment(night_id: str, view: str) -> Response:
    """The live part of the night page (``view`` "night") or of the board ("board"): 204
    when the screen already shows the newest. At a busy night every play changes the mark,
    so a part is rendered at most once per ``FRESH_SECONDS`` for every screen that asks (a
    screen looks every few seconds anyway), by one thread at a time: the plays come first."""
    store = get_store()
    mark = store.night_mark(night_id)
    if mark is None:
        abort(404, description=_("There is no club night %(night)r.", night=night_id))
    current = mark_text(mark)
    key = (current_app.config["DATABASE"], night_id, current_lang(), view, public_base())
    now = time.monotonic()
    fresh = float(current_app.config.get("NIGHT_LIVE_FRESH_SECONDS", FRESH_SECONDS))
    with _lock:
        kept = _fragments.get(key)
        stale = kept is None or (kept[1] != current and now - kept[0] >= fresh)
        # One screen renders a stale part; the others asking meanwhile get the kept one
        # (a few seconds old at most): a dozen renders at once would hold up the plays.
        render = stale and (kept is None or key not in _rendering)
        if render:
            _rendering.add(key)
    if render:
        try:
            kept = (now, current, render_live(load_night(night_id), view, current))
        finally:
            with _lock:
                _rendering.discard(key)
        with _lock:
            _fragments[key] = kept
            _fragments.move_to_end(key)
            while len(_fragments) > FRAGMENTS_KEPT:
                _fragments.popitem(last=False)
    assert kept is not None
    if request.args.get("mark") in (kept[1], current):  # (a page just loaded shows the newest)
        return Response(status=204, headers={"Cache-Control": "no-store"})
    response = Response(kept[2])
    response.headers["Cache-Control"] = "no-store"
    return response


def render_live(stored: StoredNight, view: str, mark: str) -> str:
    context = night_context(stored)
    if view == "board":
        standing = context["standing"]
        tables = tables_view(stored)
        return render_template(
            "nights/_board_live.html",
            mark=mark,
            tables=tables,
            standing_pages=[
                standing[start : start + BOARD_STANDING_PAGE]
                for start in range(0, len(standing), BOARD_STANDING_PAGE)
            ]
            or [[]],
            table_pages=[
                tables[start : start + BOARD_TABLES_PAGE]
                for start in range(0, len(tables), BOARD_TABLES_PAGE)
            ]
            or [[]],
            **context,
        )
    return render_template(
        "nights/_night_live.html",
        mark=mark,
        tables=tables_view(stored, with_qr=True),
        moves=moves_view(stored),
        **context,
    )


# ----- the list and "New club night" -------------------------------------------------------------


@bp.get("/nights")
def nights() -> ResponseReturnValue:
    rows = [{**row, "title": game_title(row["game"])} for row in get_store().list_nights()]
    return render_template("nights/list.html", nights=rows)


def known_players() -> list[str]:
    """The players known to this server (most games first), for the organiser to pick."""
    rows = get_store().player_totals("")
    rows.sort(key=lambda row: (-int(row["games"]), str(row["name"]).casefold()))
    return [str(row["name"]) for row in rows[:80]]


@bp.route("/nights/new", methods=["GET", "POST"])
@csrf.exempt  # type: ignore[untyped-decorator]  # the form checks its own token (a stale page keeps what was typed)
def new_night() -> ResponseReturnValue:
    form = NightForm()
    refusal: Refusal | None = None
    preview: list[dict[str, Any]] | None = None
    known = known_players()
    picked = (
        [name for name in request.form.getlist("known") if name in known] if request.method == "POST" else []
    )
    if request.method == "GET":
        if request.args.get("game") in GAMES:
            form.game.data = request.args["game"]
    elif form.validate_on_submit():
        action = form.action()
        if action == "shuffle":
            form.seed.data = str(secrets.randbelow(10**9))
        try:
            config = NightConfig.from_json(form.body(form.names(picked)))
            if form.seed.data:
                order = shuffled(config.players, form.seed.data, teams=config.teams)
                config = NightConfig.from_json({**form.body(list(order))})
        except (NightRefused, BadRequest, RuleViolation) as error:
            refusal = refusal_of(error)
        else:
            if action == "start":
                stored = get_store().create_night(config)
                flash(_("The night has started: each table's code opens its game."), "info")
                return redirect(url_for("nights.night", night_id=stored.id), code=303)
            start = Night.start(config)
            preview = [
                {"number": number, "players": list(config.game_players(players))}
                for number, players in enumerate(start.tables, 1)
            ]
    elif "csrf_token" in form.errors:
        refusal = Refusal(None, str(STALE))
    status = 400 if form.errors else 422 if refusal else 200
    return render_template(
        "nights/new.html",
        form=translated(form),
        refusal=refusal,
        preview=preview,
        known=known,
        picked=picked,
        seatings=seating_choices(),
        games=[rules.declaration for rules in GAMES.values()],
        set_menu=set_menu(),
        staged=STAGED_BY_ROUNDS,
        field_name=field_name,
    ), status


# ----- the night, its tables and the next stage ---------------------------------------------


class NextStageForm(Form):
    """Next stage: its ``key`` makes a second submit of the same page change nothing."""

    key = HiddenField()


def next_form() -> NextStageForm:
    return NextStageForm(key=secrets.token_urlsafe(12))


@bp.get("/nights/<night_id>")
def night(night_id: str) -> ResponseReturnValue:
    stored = load_night(night_id)
    return render_night(stored)


def render_night(
    stored: StoredNight, refusal: Refusal | None = None, status: int = 200
) -> ResponseReturnValue:
    mark = get_store().night_mark(stored.id)
    return render_template(
        "nights/night.html",
        next_form=next_form(),
        refusal=refusal,
        mark=mark_text(mark),
        tables=tables_view(stored, with_qr=True),
        moves=moves_view(stored),
        **night_context(stored),
    ), status


@bp.get("/nights/<night_id>/live")
def night_live(night_id: str) -> Response:
    return live_fragment(night_id, "board" if request.args.get("view") == "board" else "night")


@bp.get("/nights/<night_id>/<int:number>")
def table_link(night_id: str, number: int) -> ResponseReturnValue:
    """A table's short link (its QR code): that table's game of the stage in play."""
    stored = load_night(night_id)
    for table in stored.current:
        if table.number == number:
            return redirect(url_for("pages.game", game_id=table.game_id), code=303)
    if stored.night.finished:
        return redirect(url_for("nights.night", night_id=night_id), code=303)
    abort(404, description=_("This night has no table %(number)s.", number=number))


@bp.post("/nights/<night_id>/next")
def next_stage(night_id: str) -> ResponseReturnValue:
    form = NextStageForm()
    if not form.validate_on_submit():
        abort(400, description=_("This page was too old to send: open it again."))
    key = form.key.data or ""
    if not CHANGE_KEY.fullmatch(key):
        abort(400, description=_("This page was too old to send: open it again."))
    store = get_store()
    try:
        before = store.load_night(night_id)
    except NightNotFound:
        abort(404, description=_("There is no club night %(night)r.", night=night_id))
    try:
        stored = store.next_stage(night_id, key=key)
    except RuleViolation as error:
        return render_night(before, refusal_of(error), 422)
    if stored.night.finished and before.night.finished:
        pass  # the same page sent twice: nothing changed
    elif stored.night.finished:
        flash(_("The last stage is closed: the night is finished."), "info")
    elif stored.night.stage != before.night.stage:
        flash(_("Stage %(stage)s is seated: see who moves below.", stage=stored.night.stage), "info")
    return redirect(url_for("nights.night", night_id=night_id), code=303)


# ----- the board ---------------------------------------------------------------------------


@bp.get("/nights/<night_id>/board")
def board(night_id: str) -> ResponseReturnValue:
    stored = load_night(night_id)
    mark = mark_text(get_store().night_mark(night_id))
    return render_template(
        "nights/board.html", live=Markup(render_live(stored, "board", mark)), **night_context(stored)
    )


# ----- the night sheet ---------------------------------------------------------------------------


def sheet_context(stored: StoredNight) -> dict[str, Any]:
    history = history_view(stored)
    where: dict[str, dict[int, tuple[int, int]]] = {}  # player → stage → (table, points)
    for stage in history:
        for table in stage["tables"]:
            for line in table["lines"]:
                where.setdefault(line["player"], {})[stage["stage"]] = (table["number"], line["points"])
    return {
        **night_context(stored),
        "options": option_lines(stored.night.config),
        "history": history,
        "where": where,
        "tables": tables_view(stored),
    }


@bp.get("/nights/<night_id>/sheet")
def sheet(night_id: str) -> ResponseReturnValue:
    return render_template("nights/sheet.html", **sheet_context(load_night(night_id)))


def night_sheet(context: dict[str, Any], paper: str) -> Sheet:
    """The night sheet as the scoresheet PDF lays it out: a line per player (place, name,
    each stage's table and points, the night's total); the options in force; every stage's
    tables below."""
    stored: StoredNight = context["night"]
    config = stored.night.config
    stages = context["history"]
    where = {
        player: {
            stage: _("T%(table)s: %(points)s", table=table, points=points)
            for stage, (table, points) in seen.items()
        }
        for player, seen in context["where"].items()
    }
    header = (
        [_("Place"), _("Player")] + [_("Stage %(stage)s", stage=s["stage"]) for s in stages] + [_("Total")]
    )
    rows = [
        [line["label"], line["player"]]
        + [where.get(line["player"], {}).get(s["stage"], "") for s in stages]
        + [str(line["total"])]
        for line in context["standing"]
    ]
    notes = []
    for stage in stages:
        for table in stage["tables"]:
            points = ", ".join(f"{line['player']} {line['total']}" for line in table["lines"])
            notes.append(
                _(
                    "Stage %(stage)s, table %(table)s: %(points)s",
                    stage=stage["stage"],
                    table=table["number"],
                    points=points,
                )
            )
    if not stored.night.finished:
        notes.append(str(context["heading"]))
    return Sheet(
        title=_("%(night)s — night sheet", night=config.name),
        subtitle=" · ".join([str(context["title"]), stored.created[:10], *context["facts"]]),
        header=header,
        rows=rows[:-1] if rows else [],
        totals=rows[-1] if rows else [""] * len(header),
        winners=[],
        rules=[f"{line['label']}: {line['value']} ({line['rule']})" for line in context["options"]],
        notes=notes,
        paper=paper,
        author=_("Domino Referee"),
    )


@bp.get("/nights/<night_id>/sheet.pdf")
def sheet_pdf(night_id: str) -> ResponseReturnValue:
    stored = load_night(night_id)
    paper = request.args.get("paper") if request.args.get("paper") in PAPERS else "a4"
    if not pdf_pool.has_room():  # refused before the night is laid out: a storm costs little
        return busy(translate_text(Busy.PDFS_FULL))
    pdf = pdf_in_pool(night_sheet(sheet_context(stored), str(paper)), "night sheet")
    if isinstance(pdf, Response):
        return pdf
    safe_id = "".join(ch for ch in stored.id if ch.isascii() and ch.isalnum())
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="night-{stored.created[:10]}-{safe_id}.pdf"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


# ----- a whole night to the trash ----------------------------------------------------------------


class DeleteNightForm(Form):
    pass


@bp.route("/nights/<night_id>/delete", methods=["GET", "POST"])
def delete_night(night_id: str) -> ResponseReturnValue:
    stored = load_night(night_id)
    form = DeleteNightForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400, description=_("This page was too old to send: open it again."))
        try:
            get_store().trash_night(night_id)
        except NightNotFound:
            abort(404)
        flash(_("The night and its tables' games are in the trash: they can be restored there."), "info")
        return redirect(url_for("nights.nights"), code=303)
    return render_template("nights/delete.html", form=form, **night_context(stored))
