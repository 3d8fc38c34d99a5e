"""The pages people use at the table: home, new game, the game and its score pad, the hands
left after a round, the printable scoresheet, the rule book and Kozel's redeal check.

Views parse a form, call the core (``GameConfig``, ``Store.change``, the game's rules) and
render or redirect: every decision about what is allowed is the core's, the same as the
JSON API's. Refusals are shown with their rule id, linked to the rule book.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l

from referee.match import GameConfig, Match, UnknownRound
from referee.presenters import presenter_for
from referee.rules import DEFAULT_GAME, GAMES
from referee.rules.base import BadRequest, RuleViolation
from referee.rules.book import Rule, game_of_rule, rule_text, rules_for
from referee.store import VersionConflict
from referee.tiles import SET_SIZES, Tile
from referee.web.db import get_store
from referee.web.extensions import csrf
from referee.web.forms import (
    ConfirmForm,
    NewGameForm,
    RedealForm,
    field_name,
    form_version,
    hand_text,
    hands_form_class,
    parse_hand,
    set_menu,
)
from referee.web.game_view import (
    MODE_LABEL,
    _,
    current_language,
    game_context,
    hands_context,
    i18n_or_none,
    progress,
    summary,
    tr,
    translated,
)
from referee.web.i18n import current_lang, game_title
from referee.web.rule_search import plain, search
from referee.web.service import PinRequired, check_pin, hash_pin
from referee.web.views import paged, pin_message, prefill_sent_hands, suit_rows

bp = Blueprint("pages", __name__)

LAST_TABLE_COOKIE = "last_table"


@dataclass
class Refusal:
    """What the pages show for a refused change: the rule id (or None) and one sentence."""

    rule: str | None
    message: str
    unlock: str | None = None  # where to give the table PIN, for a locked game

    @classmethod
    def of(cls, error: Exception, game_id: str | None = None) -> Refusal:
        i18n = i18n_or_none()
        if isinstance(error, RuleViolation):
            return cls(error.rule_id, i18n.translate_violation(error) if i18n else error.message)
        if isinstance(error, BadRequest) and i18n:
            return cls(None, i18n.translate_violation(error))
        if isinstance(error, PinRequired) and game_id:
            return cls(
                None,
                pin_message(error),
                url_for("owner.unlock", game_id=game_id, next=request.path),
            )
        if isinstance(error, PinRequired):
            return cls(None, pin_message(error))
        if isinstance(error, BadRequest):
            return cls(None, error.message)
        return cls(None, str(error))


@bp.app_template_global()
def link_to(endpoint: str, **values: Any) -> str | None:
    """The URL of another helper's page, or None while that page is not in the app."""
    if endpoint not in current_app.view_functions:
        return None
    return url_for(endpoint, **values)


@bp.app_context_processor
def default_game() -> dict[str, str]:
    """The game the new-game page preselects and the home page's rule book opens."""
    return {"default_game": DEFAULT_GAME}


@bp.app_template_global()
def rated_game(game: str) -> bool:
    """Whether ``game`` is won on rating points and lost by its goats (Kozel, kz.rating)."""
    return game in GAMES and GAMES[game].rated


@bp.app_template_global()
def rule_anchor(rule_id: str) -> str:
    return "rule-" + rule_id.replace(".", "-")


@bp.app_template_global()
def rule_book_game(rule_id: str | None, game: str | None) -> str:
    """Which game's rule book holds ``rule_id`` (common ids are in every book)."""
    return game_of_rule(rule_id) or game or DEFAULT_GAME


SENTENCES_SHOWN = 2  # a rule's first sentences say what it asks (the book has the rest)


@bp.app_template_global()
def rule_sentence(rule_id: str) -> str:
    """What rule ``rule_id`` says, in the page's language: its first sentences in the book."""
    text = rule_text(rule_id, current_lang())
    if not text:
        return ""
    sentences = re.split(r"(?<=[.!?।])\s+", plain(text))
    return " ".join(sentences[:SENTENCES_SHOWN])


# ----- home and new game ---------------------------------------------------------------------


@bp.get("/")
def home() -> ResponseReturnValue:
    store = get_store()
    lists = {"playing": paged("playing", "playing"), "finished": paged("finished", "finished")}
    for listing in lists.values():
        shown = []
        for row in listing["rows"]:
            try:
                match = store.load(row["id"]).match
            except Exception:  # a game the core cannot read is listed, not fatal for the page
                match = None
            shown.append(
                {
                    **row,
                    "title": game_title(row["game"]),
                    "progress": progress(match) if match else _("cannot be read: its record is damaged"),
                    "summary": summary(match) if match else "",
                    "set": _("double-%(highest)s", highest=match.config.highest) if match else "",
                    "begun": row["version"] > 1,
                }
            )
        listing["rows"] = shown
    return render_template(
        "home.html",
        playing=lists["playing"]["rows"],
        finished=lists["finished"]["rows"],
        lists=lists,
        trashed=store.list_page("trash", 0, 0)[1],
        last=last_table(),
        titles={k: game_title(k) for k in GAMES},
        redeal_links=[
            (key, presenter_for(key).redeal_link(_)) for key in GAMES if presenter_for(key).redeal_template
        ],
    )


def last_table() -> dict[str, Any] | None:
    """The table remembered on this device (the last game started here)."""
    raw = request.cookies.get(LAST_TABLE_COOKIE)
    if not raw:
        return None
    try:
        data = json.loads(unquote(raw))
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return None
    players = [p for p in data["players"] if isinstance(p, str) and p.strip()][:30]
    return {
        "game": data.get("game") if data.get("game") in GAMES else DEFAULT_GAME,
        "players": players,
        "mode": data.get("mode") if data.get("mode") in MODE_LABEL else "referee",
        "set": str(data.get("set")) if str(data.get("set")) in map(str, SET_SIZES) else "",
    }


# The two forms that take typing check their own CSRF token (form.validate_on_submit), so
# that a stale page comes back with what was typed and a fresh token instead of an error page.
STALE_NEW_GAME = _l(
    "This page was too old to send (its security token expired): nothing was "
    "started; check the form below and send it again."
)
STALE_HANDS = _l(
    "This page was too old to send (its security token expired): nothing was "
    "saved; check the entries below and save them again."
)


@bp.route("/games/new", methods=["GET", "POST"])
@csrf.exempt  # type: ignore[untyped-decorator]  # (flask_wtf is untyped)
def new_game() -> ResponseReturnValue:
    form = NewGameForm()
    refusal: Refusal | None = None
    if request.method == "GET":
        remembered = last_table()
        names = list(remembered["players"]) if remembered else []
        if remembered:
            form.game.data, form.mode.data = remembered["game"], remembered["mode"]
            form.set.data = remembered["set"]
        if request.args.get("game") in GAMES:
            form.game.data = request.args["game"]
        names += [""] * (max(4, len(names) + 1) - len(names))
        while form.players.entries:
            form.players.pop_entry()
        for name in names:
            form.players.append_entry(name)
    elif form.add_player.data:
        form.players.append_entry("")
    elif form.validate_on_submit():
        body = form.body()
        table_pin = request.form.get("table_pin", "")
        if not body["players"]:
            refusal = Refusal(None, _("Enter the players' names, in turn order."))
        else:
            try:
                config = GameConfig.from_json(body)
                pin_hash = hash_pin(table_pin) if table_pin else None  # (a bad PIN: 400, nothing made)
                game = get_store().create(config, pin_hash=pin_hash)
            except (RuleViolation, BadRequest) as error:
                refusal = Refusal.of(error)
            else:
                if pin_hash:  # the device that set the PIN plays on without giving it again
                    unlocked = session.get("unlocked")
                    session["unlocked"] = (list(unlocked) if isinstance(unlocked, list) else [])[-49:] + [
                        game.id
                    ]
                # A refereed game opens on its table (one tap fewer); a score pad on its page.
                first_page = "table.show" if config.mode == "referee" else "pages.game"
                response = redirect(url_for(first_page, game_id=game.id), code=303)
                remembered = {
                    "game": config.game,
                    "players": list(config.players),
                    "mode": config.mode,
                    "set": config.highest,
                }
                response.set_cookie(
                    LAST_TABLE_COOKIE,
                    quote(json.dumps(remembered, ensure_ascii=False)),
                    max_age=365 * 24 * 3600,
                    samesite="Lax",
                    httponly=False,
                )
                return response
    elif "csrf_token" in form.errors:
        refusal = Refusal(None, str(STALE_NEW_GAME))
    status = 400 if form.errors else 422 if refusal else 200
    return render_template(
        "new_game.html",
        form=translated(form),
        refusal=refusal,
        set_menu=set_menu(),
        games=[rules.declaration for rules in GAMES.values()],
        field_name=field_name,
        house=house_summary_data(),
        house_open=request.args.get("house") == "open",
    ), status


def house_summary_data() -> dict[str, Any]:
    """What the new-game page's summary of house rules reads: each game's house rules with
    their form field, rule id, default and value labels, in the page's language."""
    return {
        "games": {
            key: [
                {
                    "field": field_name(key, option),
                    "rule": option.rule,
                    "kind": option.kind,
                    "label": _(str(option.label)),
                    "default": str(option.default).lower() if option.kind == "flag" else str(option.default),
                    "values": {str(choice.value): _(str(choice.label)) for choice in option.choices},
                }
                for option in rules.declaration.house_rules
            ]
            for key, rules in GAMES.items()
        },
        "text": {"none": _("No house rules: the usual rules."), "some": _("House rules in force:")},
    }


# ----- the game --------------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    stored = get_store().load(game_id)
    return render_template(
        "game.html", undo_form=translated(ConfirmForm(version=stored.version)), **game_context(stored)
    )


def _change_from_game_page(
    game_id: str, action: dict[str, Any], done: str, conflict: str
) -> ResponseReturnValue:
    """One action sent from the game page's confirmation forms (undo, a player leaving):
    checked like every change, the outcome flashed, back to the game."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        version = form_version(form.version.data)
    except ValueError:
        abort(400)
    try:
        get_store().change(game_id, "action", action, version, guard=check_pin)
    except PinRequired as error:
        flash(pin_message(error), "error")
        return redirect(Refusal.of(error, game_id).unlock or url_for("pages.game", game_id=game_id), code=303)
    except (RuleViolation, BadRequest) as error:
        refusal = Refusal.of(error)
        flash(f"{refusal.message}" + (f" ({refusal.rule})" if refusal.rule else ""), "error")
    except VersionConflict:
        flash(conflict, "error")
    else:
        flash(done, "info")
    return redirect(url_for("pages.game", game_id=game_id), code=303)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    return _change_from_game_page(
        game_id,
        {"type": "undo"},
        _("The last entry was undone."),
        _("The game changed meanwhile: nothing was undone. Look again and retry."),
    )


@bp.post("/games/<game_id>/leave")
def leave(game_id: str) -> ResponseReturnValue:
    """Record a Kozel player leaving (kz.rating.left): the game ends and is rated."""
    player = request.form.get("player", "")
    return _change_from_game_page(
        game_id,
        {"type": "leave", "player": player},
        _("%(player)s left the game: it is finished and rated (kz.rating.left).", player=player),
        _("The game changed meanwhile: nothing was recorded. Look again and retry."),
    )


# ----- hands left --------------------------------------------------------------------------


class _Malformed(Exception):
    """A hands form whose hidden fields cannot be read: nothing is booked."""


class _EntryProblems(Exception):
    """A hands entry with problems (listed all at once): nothing is booked."""


def round_or_404(match: Match, number: int) -> None:
    if not match.has_round(number):
        abort(404)


@bp.route("/games/<game_id>/rounds/<int:number>/hands", methods=["GET", "POST"])
@csrf.exempt  # type: ignore[untyped-decorator]  # (flask_wtf is untyped)
def hands(game_id: str, number: int) -> ResponseReturnValue:
    store = get_store()
    stored = store.load(game_id)
    round_or_404(stored.match, number)
    players = list(stored.match.players)
    form = hands_form_class(len(players))()
    refusal: Refusal | None = None
    malformed = False
    problems: list[tuple[str, Refusal]] = []  # (player, what is wrong), every one at once
    if request.method == "GET":
        record = next((r for r in stored.match.rounds if r.number == number), None)
        form.version.data = str(stored.version)
        if record is not None:
            for index, name in enumerate(players):
                getattr(form, f"p{index}").data = hand_text(record.hands.get(name, record.points.get(name)))
                getattr(form, f"m{index}").data = name in record.facts.get("markers", ())
        else:
            # The player the referee saw go out is entered as out already.
            outcome = (
                stored.match.engine.outcome()
                if number == stored.match.number and stored.match.engine
                else None
            )
            if outcome is not None and outcome.reason == "domino" and outcome.player in players:
                getattr(form, f"p{players.index(outcome.player)}").data = "out"
            # The hands sent from the players' phones, for the person at the tablet to check.
            prefill_sent_hands(
                [(name, getattr(form, f"p{i}")) for i, name in enumerate(players)],
                game_id,
                number,
                request.args.getlist("use"),
            )
    elif form.validate_on_submit():
        entries: dict[str, Any] = {}
        try:
            version = form_version(form.version.data)
        except ValueError:
            version, malformed = None, True
            refusal = Refusal(None, _("The form could not be read; please try again."))
        try:
            if malformed:
                raise _Malformed
            # Every problem of the entry at once (each hand as typed, then its tiles and
            # counts as the core sees them), so the table fixes them all before one save.
            for index, name in enumerate(players):
                try:
                    entries[name] = parse_hand(getattr(form, f"p{index}").data, name)
                except BadRequest as error:
                    problems.append((name, Refusal.of(error, game_id)))
            problems += [
                (name, Refusal.of(error, game_id))
                for name, error in stored.match.entry_problems(number, entries)
            ]
            if problems:
                raise _EntryProblems
            payload: dict[str, Any] = {"round": number, "hands": entries}
            if "markers" in stored.match.rules.entry_fact_names(
                stored.match.config.options, stored.match.referee
            ):
                payload["markers"] = [
                    name for index, name in enumerate(players) if getattr(form, f"m{index}").data
                ]
            stored = store.change(game_id, "hands", payload, version, guard=check_pin)
        except (_Malformed, _EntryProblems):
            pass
        except UnknownRound:
            abort(404)
        except (RuleViolation, BadRequest, PinRequired) as error:
            refusal = Refusal.of(error, game_id)
        except VersionConflict:
            stored = store.load(game_id)
            form.version.data = str(stored.version)
            refusal = Refusal(
                None,
                _("The game changed on another screen meanwhile: check the entries below and save again."),
            )
        else:
            flash(_("Round %(number)s is booked.", number=number), "info")
            # A refereed game goes on at its table (the next round starts there); a score
            # pad, or a game over, shows the scores.
            goes_on = stored.match.referee and not stored.match.finished
            return redirect(url_for("table.show" if goes_on else "pages.game", game_id=game_id), code=303)
    elif "csrf_token" in form.errors:
        refusal = Refusal(None, str(STALE_HANDS))
    else:
        refusal = Refusal(None, _("The form could not be read; please try again."))
    context = hands_context(stored, number)
    return render_template(
        "hands.html",
        form=translated(form),
        refusal=refusal,
        problems=problems,
        problem_rules=list(dict.fromkeys(r.rule for _name, r in problems)),
        mismatches={name: r for name, r in reversed(problems)},
        fields=[(name, getattr(form, f"p{index}")) for index, name in enumerate(players)],
        markers=[getattr(form, f"m{index}") for index in range(len(players))],
        **context,
    ), 400 if "csrf_token" in form.errors or malformed else 422 if refusal or problems else 200


# ----- scoresheet, rule book, redeal check ------------------------------------------------------


@bp.get("/games/<game_id>/scoresheet")
def scoresheet(game_id: str) -> ResponseReturnValue:
    stored = get_store().load(game_id)
    return render_template("scoresheet.html", **game_context(stored))


@bp.get("/rules/<game>")
def rules(game: str) -> ResponseReturnValue:
    if game not in GAMES:
        abort(404)
    lang = current_language()
    sections: list[tuple[str, list[Rule]]] = []
    for rule in rules_for(game, lang) if lang != "en" else rules_for(game):
        heading = plain(rule.section)
        if not sections or sections[-1][0] != heading:
            sections.append((heading, []))
        sections[-1][1].append(rule)
    query = (request.args.get("q") or "").strip()[:200]
    hits = search(game, query, lang)[:8] if query else []
    return render_template(
        "rules.html",
        query=query,
        hits=hits,
        plain=plain,
        game=game,
        title=game_title(game),
        sections=sections,
        **presenter_for(game).rule_book_extras(_),
        games={k: game_title(k) for k in GAMES},
    )


@bp.route("/<game>/redeal", methods=["GET", "POST"])
def redeal(game: str) -> ResponseReturnValue:
    """The redeal check of a game that has one (Kozel's kz.redeal): is this dealt hand
    thrown in?"""
    presenter = presenter_for(game) if game in GAMES else None
    if presenter is None or presenter.redeal_template is None:
        abort(404)
    form = RedealForm()
    result: dict[str, Any] | None = None
    refusal: Refusal | None = None
    if form.validate_on_submit():
        try:
            again, reason = presenter.redeal(form.tile_list())
        except (RuleViolation, BadRequest) as error:
            refusal = Refusal.of(error)
        else:
            result = {
                "again": again,
                "reason": tr(reason),
                "tiles": [str(Tile.parse(t)) for t in form.tile_list()],
            }
    return render_template(
        presenter.redeal_template,
        form=translated(form),
        result=result,
        refusal=refusal,
        suits=suit_rows(GAMES[game].default_set),
        config=None,
        game=game,
    ), 422 if refusal else 200
