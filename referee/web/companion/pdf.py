"""The scoresheet as a PDF, made by a library (``referee.scoresheet_pdf``) in a child process.

Bounded: the PDF is made in the PDFs' own pool (``referee.web.heavy.pdf_pool``: a few made at
once, a few more waiting, each laid out by a child process, so a PDF never competes with
plays for the interpreter, and one that hangs is killed); a request beyond that is answered
at once with 503 and ``Retry-After``, in the request's language, instead of holding a server
thread. A PDF already made for the game's version, language and paper is reused.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Response, abort, request
from flask_babel import gettext as _
from flask_babel import ngettext

from referee.scoresheet_pdf import PAPERS, Sheet
from referee.web.chart import chart_data
from referee.web.companion.common import bp, load_game
from referee.web.db import get_store
from referee.web.game_view import game_context
from referee.web.heavy import Busy, busy, pdf_in_pool, pdf_pool
from referee.web.i18n import current_lang, translate_text

CACHE_SIZE = 32
# Where Letter paper is the custom; elsewhere A4 (a table can ask for either: ?paper=).
LETTER_REGIONS = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "PR"})

_lock = threading.Lock()
_made: OrderedDict[tuple[str, int, str, str], tuple[bytes, str]] = OrderedDict()  # PDF, file name


def paper_for(choice: str | None) -> str:
    """``?paper=a4|letter`` when the table chose; else Letter where it is the custom (the
    browser's first language names such a region), A4 everywhere else."""
    if choice in PAPERS:
        return choice
    for value, _quality in request.accept_languages:
        region = value.replace("_", "-").split("-")[1:2]
        return "letter" if region and region[0].upper() in LETTER_REGIONS else "a4"
    return "a4"


def sheet_of(context: dict[str, Any], paper: str) -> Sheet:
    """The printed scoresheet's texts, from the same context as the scoresheet page."""
    config, game, presenter = context["config"], context["game"], context["presenter"]
    shows_double = context["double_heading"] is not None  # the round's opening double, where there is one
    players = list(config.players)
    subtitle = " · ".join(
        [
            _("double-%(highest)s set", highest=config.highest),
            str(context["mode_label"]),
            ngettext("%(num)s player", "%(num)s players", len(players)),
            _("started %(date)s", date=game.created[:10]),
            str(context["progress"]),
        ]
    )
    header = [_("Round")]
    if shows_double:
        header.append(context["double_heading"])
    header += players
    rows = []
    for row in context["rows"]:
        first = str(row["number"])
        ledger = row["ledger"]
        if ledger and ledger.get("pot"):
            first += "\n" + _("pot +%(points)s", points=ledger["pot"])
        first += "\n" + str(row["end"])
        cells = [first]
        if shows_double:
            cells.append(row["double"] or "")
        cells += [presenter.sheet_cell(row, name) for name in players]
        rows.append(cells)
    offset = 2 if shows_double else 1
    totals = [_("Total")] + ([""] if shows_double else [])
    winners = []
    for index, s in enumerate(context["standings"]):
        totals.append(presenter.sheet_total(s))
        if s["winner"]:
            winners.append(index + offset)
    notes = []
    if not rows:
        notes.append(_("No round booked yet."))
    else:
        notes.append(_("Each cell: the round's points, and below it the running total."))
    if context["winners"]:
        names = _(" and ").join(context["winners"])
        notes.append(ngettext("Winner:", "Winners:", len(context["winners"])) + " " + names)
    if context["tie_break"]:
        notes.append(str(context["tie_break"]))
    if context["left"]:
        notes.append(_("%(player)s left the game (kz.rating.left).", player=context["left"]))
    if context["goats"]:
        notes.append(_("Goat:") + " " + _(" and ").join(context["goats"]))
    if context["rating"]:
        notes.append(
            _("Rating:") + " " + " · ".join(f"{name} {points}" for name, points in context["rating"].items())
        )
    if not context["match"].finished:
        notes.append(_("Game in progress — %(progress)s.", progress=context["progress"]))
    return Sheet(
        title=_("%(game)s — scoresheet", game=context["title"]),
        subtitle=subtitle,
        header=header,
        rows=rows,
        totals=totals,
        winners=winners,
        rules=[str(line) for line in context["rules_in_force"]],
        notes=notes,
        paper=paper,
        author=_("Domino Referee"),
        chart=chart_data(context["match"]) if rows else None,
    )


@bp.get("/games/<game_id>/scoresheet.pdf")
def scoresheet_pdf(game_id: str) -> Response:
    version = get_store().version_of(game_id)  # (one integer: a refusal below costs little)
    if version is None:
        abort(404, description=_("There is no game %(game)r.", game=game_id))
    paper = paper_for(request.args.get("paper"))
    key = (game_id, version, current_lang(), paper)
    with _lock:
        made = _made.get(key)
    if made is None:
        if not pdf_pool.has_room():  # refused before the game is even loaded: a storm costs little
            return busy(translate_text(Busy.PDFS_FULL))
        game = load_game(game_id)
        pdf = pdf_in_pool(sheet_of(game_context(game), paper), "scoresheet")
        if isinstance(pdf, Response):
            return pdf
        stamp = "".join(ch for ch in game.created[:10] if ch.isascii() and (ch.isalnum() or ch == "-"))
        safe_id = "".join(ch for ch in game.id if ch.isascii() and (ch.isalnum() or ch in "-_"))
        made = (pdf, f"scoresheet-{game.match.config.game}-{stamp}-{safe_id}-{paper}.pdf")
        with _lock:
            _made[(game_id, game.version, *key[2:])] = made
            while len(_made) > CACHE_SIZE:
                _made.popitem(last=False)
    response = Response(made[0], mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{made[1]}"'
    response.headers["Cache-Control"] = "no-store"
    return response
