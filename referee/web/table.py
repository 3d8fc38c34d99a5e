"""The table pages (referee mode): the tableau drawn as real tiles, two-tap logging.

``GET /games/<id>/table`` draws the round; ``?tile=5-6`` selects a tile from the picker and
lights the places where the engine accepts it; ``?ask=<place>`` answers "can I play this
there?" without logging. ``POST /games/<id>/table/act`` logs one action through
``store.change`` (the path the JSON API takes): a refusal is shown with its rule and
changes nothing; a stale version (another tablet logged first) shows the fresh table.

Views only parse, call the core and render: every ruling comes from the round engine
(``check`` / ``is_legal``); the helpers below only arrange the engine's state for drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError

from referee.match import Match
from referee.presenters import Presenter, presenter_for
from referee.presenters.base import parse_tile, place_key
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.rules.book import rule_text, rules_by_id
from referee.store import StoredGame, VersionConflict
from referee.tiles import Tile
from referee.web.db import get_store
from referee.web.errors import error_page
from referee.web.game_view import _
from referee.web.i18n import current_lang, translate_violation
from referee.web.rule_search import plain
from referee.web.service import PinRequired, check_pin
from referee.web.table_forms import CENTRE, ActionForm
from referee.web.views import pin_message

bp = Blueprint("table", __name__)

# Reminders shown as a banner: a player is down to one tile (mt.last-tile; chicken-foot
# reminds it under cf.end).


@dataclass(frozen=True)
class Refusal:
    """What the page shows when a change is refused: the rule and its sentence (already in
    the page's language: ``translate_violation``), and the rule's text in that language."""

    message: str
    rule: str | None = None
    game: str | None = None
    also: tuple[Refusal, ...] = ()  # the other rules behind it (RuleViolation.also)

    @classmethod
    def of(cls, error: RuleViolation | BadRequest, game: str | None) -> Refusal:
        """The refusal of ``error`` in the page's language, with the rules it also cites."""
        also = tuple(cls.of(more, game) for more in getattr(error, "also", ()))
        return cls(translate_violation(error), getattr(error, "rule_id", None), game, also)

    @property
    def rule_text(self) -> str | None:
        text = rule_text(self.rule, current_lang()) if self.rule else None
        return plain(text) if text else None

    @property
    def href(self) -> str | None:
        if not self.rule or self.rule not in rules_by_id() or not self.game:
            return None
        return f"/rules/{self.game}#{rules_by_id()[self.rule].anchor}"


# ----------------------------------------------------------------------------- views


def _load(game_id: str) -> StoredGame:
    return get_store().load(game_id)  # an unknown game: the app's "No such game" page


@bp.get("/games/<game_id>/table")
def show(game_id: str) -> ResponseReturnValue:
    game = _load(game_id)
    if not game.match.referee:
        return redirect(f"/games/{game_id}")
    return render_table(game)


@bp.errorhandler(CSRFError)
def _expired(error: CSRFError) -> ResponseReturnValue:
    """A missing or stale CSRF token (an old page): show the fresh table, log nothing."""
    game_id = (request.view_args or {}).get("game_id")
    if not game_id:
        return error_page(error)
    return render_table(
        _load(game_id),
        refusal=Refusal(
            _("This page is too old to send (its security token expired): the table is reloaded, tap again.")
        ),
        status=400,
    )


@bp.post("/games/<game_id>/table/act")
def act(game_id: str) -> ResponseReturnValue:
    game = _load(game_id)
    if not game.match.referee:
        return redirect(f"/games/{game_id}")
    form = ActionForm()
    move = request.form.get("move") or ""
    if move and "@" in move:  # a one-tap play from the picker: "<tile>@<place>"
        tile_text, _sep, place_text = move.partition("@")
        form.tile.data, form.place.data = tile_text, place_text
    keep_tile = form.tile.data or request.form.get("tile") or None
    if not form.validate_on_submit():
        problem = (
            _("This page is too old to send (its security token expired): the table is reloaded, tap again.")
            if "csrf_token" in form.errors
            else _(
                "The tap did not say what to log: %(problems)s",
                problems="; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()),
            )
        )
        return render_table(game, refusal=Refusal(problem), status=400)
    body = _action_body(game.match, form)
    try:
        action = Action.from_json(body)
        get_store().change(
            game_id,
            "action",
            action.to_json(),
            expected_version=form.version.data,
            guard=check_pin,
            key=form.key.data or None,
        )
    except RuleViolation as error:
        game = _load(game_id)  # unchanged by the refusal; fresh if another device logged meanwhile
        return render_table(
            game,
            tile=keep_tile,
            who=body.get("player"),
            refusal=Refusal.of(error, game.match.config.game),
            status=422,
        )
    except BadRequest as error:
        return render_table(game, tile=keep_tile, refusal=Refusal(translate_violation(error)), status=400)
    except VersionConflict:
        fresh = _load(game_id)
        return render_table(
            fresh,
            notice=_(
                "The table changed: reloaded. Another device logged first: check the table, then tap again."
            ),
            status=409,
        )
    except PinRequired as error:
        return render_table(game, refusal=Refusal(pin_message(error), None, None), status=403, unlock=True)
    logged = describe(action, game.match)
    if request.headers.get("X-Table-Fetch"):
        # The page's script swaps the table in place: the fresh table at once, without the
        # redirect's second round trip (a plain form post still gets the redirect).
        return render_table(
            _load(game_id), logged=logged if action.type != "undo" else None, flash_text=logged
        )
    flash(logged, "undoable" if action.type != "undo" else "logged")
    return redirect(url_for("table.show", game_id=game_id), code=303)


def _action_body(match: Match, form: ActionForm) -> dict[str, Any]:
    """The API body of the tapped action (its shape is checked by ``Action.from_json``)."""
    kind = form.type.data
    body: dict[str, Any] = {"type": kind}
    if kind != "undo":
        body["player"] = form.player.data or None
    if kind == "play":
        body["tile"] = form.tile.data or None
        body.update(presenter_for(match.config.game).play_body(form.place.data or None))
    return body


# ----------------------------------------------------------------------------- drawing


def describe(action: Action, match: Match) -> str:
    """One line for a person, in the page's language: what was logged (or is about to be
    undone)."""
    return presenter_for(match.config.game).describe(action, _)


def _place_from_key(presenter: Presenter, key: str | None, engine: Any) -> Any:
    for place in engine.targets():
        if place_key(place) == key:
            return place
    return presenter.place_from_key(key, engine.setup.highest)


def render_table(
    game: StoredGame,
    *,
    tile: str | None = None,
    who: str | None = None,
    refusal: Refusal | None = None,
    notice: str | None = None,
    status: int = 200,
    unlock: bool = False,
    logged: str | None = None,
    flash_text: str | None = None,
) -> tuple[str, int]:
    match = game.match
    config = match.config
    presenter = presenter_for(config.game)
    args = request.args if request.method == "GET" else {}
    tile_text = tile if tile is not None else args.get("tile")
    who = who or args.get("who")
    ask_key = args.get("ask")
    confirm = args.get("confirm")
    state = game.state()
    rnd = state["round"]
    round_status = match.round_status()
    engine = match.engine
    playing = round_status == "playing" and engine is not None
    turn = rnd.get("turn")
    actor = turn if turn else (who if who in config.players else None)
    selected = parse_tile(tile_text, config.highest) if playing else None
    on_table = engine.tiles_on_table() if engine is not None else frozenset()
    if selected in on_table:
        selected = None

    # Where the selected tile may go (lit places), and the "can I play this?" answer.
    targets = engine.targets() if engine is not None and playing else []
    # Every legal play of the player (the core's query), as the places of each tile.
    places_by_tile: dict[Tile, list[str]] = {}
    if engine is not None and playing and actor:
        for play in engine.legal_plays(actor):
            place = presenter.place_of(play)
            if play.tile is not None:
                places_by_tile.setdefault(play.tile, []).append(place_key(place))

    def refusal_of(error: RuleViolation | BadRequest) -> Refusal:
        return Refusal.of(error, config.game)

    lit: set[str] = set()
    nowhere: list[Refusal] = []
    if engine is not None and playing and selected is not None and actor:
        lit = {place_key(p) for p in engine.places_for(actor, selected)}
        if not lit:
            # "Fits nowhere": the engine's reason at each place, one per rule.
            seen: set[str | None] = set()
            for p in targets:
                try:
                    engine.check(engine.play_at(actor, selected, p))
                except (RuleViolation, BadRequest) as error:
                    reason = refusal_of(error)
                    for each in (reason, *reason.also):
                        if each.rule not in seen:
                            seen.add(each.rule)
                            nowhere.append(each)
    answer = None
    if engine is not None and playing and selected is not None and actor and ask_key:
        place = _place_from_key(presenter, ask_key, engine)
        try:
            engine.check(engine.play_at(actor, selected, place))
        except (RuleViolation, BadRequest) as error:
            answer = {"ok": False, "place": ask_key, "refusal": refusal_of(error)}
        else:
            answer = {"ok": True, "place": ask_key, "label": presenter.place_label(ask_key, _)}

    # The picker: the round's set less the tiles on the table, by suit, highest first. A tile
    # with exactly one lit place is logged by one tap (``move``: "<tile>@<place>").
    picker = []
    if playing:
        for high in range(config.highest, -1, -1):
            row = []
            for low in range(0, high + 1):
                t = Tile(low, high)
                if t in on_table:
                    continue
                places = places_by_tile.get(t, [])
                row.append(
                    {
                        "text": str(t),
                        "fits": bool(places),
                        "selected": t == selected,
                        "move": f"{t}@{places[0]}" if len(places) == 1 else None,
                        "label": presenter.place_label(places[0], _) if len(places) == 1 else None,
                    }
                )
            if row:
                picker.append({"high": high, "tiles": row})

    def verdict(kind: str, player: str | None = None) -> dict[str, Any]:
        """Whether the referee accepts ``kind`` now, and if not the engine's reason."""
        who_acts = player or actor
        if engine is None or not playing or not who_acts:
            return {"ok": False, "reason": None}
        try:
            engine.check(Action(kind, who_acts))
        except (RuleViolation, BadRequest) as error:
            return {"ok": False, "reason": refusal_of(error)}
        return {"ok": True, "reason": None}

    def legal(kind: str, player: str | None = None) -> bool:
        who_acts = player or actor
        return engine is not None and playing and bool(who_acts) and engine.is_legal(Action(kind, who_acts))

    draw, pass_ = verdict("draw"), verdict("pass")
    end_turn = verdict("end")
    controls = {
        "draw": draw["ok"],
        "pass": pass_["ok"],
        "end": match.rules.ends_first_turn(config.options),
        "end_legal": end_turn["ok"],
        "why": {"draw": draw["reason"], "pass": pass_["reason"], "end": end_turn["reason"]},
    }
    starters = []
    if playing and turn and any(legal("start", p) for p in config.players if p != turn):
        starters = [p for p in config.players if legal("start", p)]

    last_action = match.history[-1] if match.history else None
    reminders = rnd.get("reminders") or []
    banners = [r for r in reminders if r["rule"] == match.rules.last_tile_rule]
    notes = [r for r in reminders if r not in banners]
    # The engine's reminders end with what the player on turn must do now: shown at the top.
    now = notes.pop() if notes and playing else None
    form = ActionForm(formdata=None, version=game.version, player=actor or "")
    context = dict(
        game=game,
        match=match,
        config=config,
        state=state,
        rnd=rnd,
        round_status=round_status,
        playing=playing,
        turn=turn,
        actor=actor,
        who=who,
        selected=selected,
        lit=lit,
        nowhere=nowhere,
        started=bool(on_table) or selected is not None or presenter.table_starts_laid,
        undoable=[logged] if logged else [m for c, m in _flashed() if c == "undoable"],
        flash_text=flash_text,
        answer=answer,
        ask_key=ask_key,
        picker=picker,
        controls=controls,
        starters=starters,
        confirm_undo=confirm == "undo" and bool(match.history),
        last_action=last_action,
        last_text=describe(last_action, match) if last_action else None,
        banners=banners,
        notes=notes,
        now=now,
        refusal=refusal,
        notice=notice,
        form=form,
        highest=config.highest,
        hands=rnd.get("hands") or {},
        unlock=unlock,
        hands_url=f"/games/{game.id}/rounds/{rnd['number']}/hands",
        rules_url=f"/rules/{config.game}",
        overview_url=f"/games/{game.id}",
        end=rnd.get("end"),
        place_key=place_key,
        CENTRE=CENTRE,
        rule_href=lambda rule: Refusal("", rule, config.game).href,
        base=url_for("table.show", game_id=game.id),
    )
    context.update(presenter.table_view(match, rnd, _))
    context.update(words=presenter.table_words(_), accounts=presenter.accounts(match))
    return render_template(presenter.table_template, **context), status


def _flashed() -> list[tuple[str, str]]:
    """The flashed messages with their categories (Flask types both shapes as one)."""
    return cast(list[tuple[str, str]], get_flashed_messages(with_categories=True))
