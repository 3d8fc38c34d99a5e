"""Deleting games (to a trash, restorable for ``TRASH_DAYS``), and a game's table PIN set,
changed or removed from its page. The owner PIN (referee.web.owner) guards the trash.

    DELETE /api/games/<id>            → 204: to the trash (the table PIN, if any, as for any change)
    GET|POST /games/<id>/delete       the confirmation page, then to the trash
    GET  /trash                       the games in the trash (paged)
    POST /trash/<id>/restore          back to the lists        } the owner PIN,
    POST /trash/<id>/purge            gone for ever            } when one is set
    POST /trash/empty                 every game in the trash  }
    GET|POST /games/<id>/pin          set, change or remove the game's table PIN
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import PasswordField
from wtforms.validators import Optional

from referee.rules import GAMES
from referee.rules.base import RuleViolation
from referee.store import TRASH_DAYS, GameNotFound, NightNotFound, Store, StoredGame
from referee.web.db import get_store
from referee.web.extensions import csrf
from referee.web.forms import PIN_FORMAT, Form
from referee.web.i18n import game_title, translate_violation
from referee.web.json_answers import refusal
from referee.web.service import (
    PinRequired,
    check_pin,
    hash_pin,
    is_owner,
    owner_pin_hash,
    pin_attempt_allowed,
    pin_matches,
    record_pin_failure,
)
from referee.web.views import paged

bp = Blueprint("trash", __name__)


# ----------------------------------------------------------------------------- to the trash


@bp.delete("/api/games/<game_id>")
def api_delete(game_id: str) -> ResponseReturnValue:
    try:
        get_store().trash(game_id, guard=check_pin)
    except GameNotFound:
        return refusal(404, _("There is no game %(game)r.", game=game_id))
    except PinRequired:
        return refusal(403, _("This game is protected by a table PIN: enter it to make changes."))
    except RuleViolation as refused:  # a club night's table (night.tables)
        return refusal(422, refused.message, refused.rule_id)
    return Response(status=204)


csrf.exempt(api_delete)  # like the rest of the API: a cross-site form cannot send DELETE


class DeleteForm(Form):
    pass


def load_or_404(game_id: str, trashed: bool = False) -> StoredGame:
    try:
        return get_store().load(game_id, trashed=trashed)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r.", game=game_id))


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete_game(game_id: str) -> ResponseReturnValue:
    game = load_or_404(game_id)
    form = DeleteForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400, description=_("This page is too old to send: open it again."))
        try:
            get_store().trash(game_id, guard=check_pin)
        except PinRequired:
            flash(_("This game is protected by a table PIN: enter it to make changes."), "error")
            return redirect(
                url_for("owner.unlock", game_id=game_id, next=f"/games/{game_id}/delete"), code=303
            )
        except GameNotFound:
            abort(404)
        except RuleViolation as refused:  # a club night's table (night.tables)
            flash(translate_violation(refused), "error")
            return redirect(url_for("table.show", game_id=game_id), code=303)
        flash(
            _("The game is in the trash: it can be restored there for %(days)s days.", days=TRASH_DAYS),
            "info",
        )
        return redirect(url_for("pages.home"), code=303)
    return render_template("delete_game.html", game=game, form=form, days=TRASH_DAYS)


# ----------------------------------------------------------------------------- the trash


def purge_expired(store: Store) -> None:
    """Games thrown away more than ``TRASH_DAYS`` ago are gone."""
    limit = (datetime.now(UTC) - timedelta(days=TRASH_DAYS)).isoformat(timespec="seconds")
    store.purge_trash(older_than=limit)
    store.purge_nights(older_than=limit)


@bp.get("/trash")
def trash() -> ResponseReturnValue:
    store = get_store()
    purge_expired(store)
    listing = paged("trash", "page")
    for row in listing["rows"]:
        thrown = datetime.fromisoformat(row["trashed"])
        row["until"] = (thrown + timedelta(days=TRASH_DAYS)).date().isoformat()
    nights = store.trashed_nights()
    for row in nights:
        row["until"] = (
            (datetime.fromisoformat(row["trashed"]) + timedelta(days=TRASH_DAYS)).date().isoformat()
        )
    return render_template(
        "trash.html",
        listing=listing,
        nights=nights,
        form=DeleteForm(),
        has_owner=bool(owner_pin_hash(store)),
        owner=is_owner(),
        days=TRASH_DAYS,
        titles={k: game_title(k) for k in GAMES},
    )


def owner_only() -> ResponseReturnValue | None:
    """A trash action without the owner PIN: back to the owner page, changing nothing."""
    form = DeleteForm()
    if not form.validate_on_submit():
        abort(400, description=_("This page is too old to send: open it again."))
    if not is_owner():
        flash(_("Only the owner may do this here: enter the owner PIN first."), "error")
        return redirect(url_for("owner.owner"), code=303)
    return None


@bp.post("/trash/<game_id>/restore")
def restore(game_id: str) -> ResponseReturnValue:
    refused = owner_only()
    if refused:
        return refused
    try:
        get_store().restore(game_id)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r in the trash.", game=game_id))
    flash(_("The game is restored."), "info")
    return redirect(url_for("pages.game", game_id=game_id), code=303)


@bp.post("/trash/<game_id>/purge")
def purge(game_id: str) -> ResponseReturnValue:
    refused = owner_only()
    if refused:
        return refused
    store = get_store()
    try:
        if not store.load(game_id, trashed=True) or store.version_of(game_id) is not None:
            raise GameNotFound(game_id)  # only a game in the trash is deleted for ever
        store.delete(game_id)
    except GameNotFound:
        abort(404, description=_("There is no game %(game)r in the trash.", game=game_id))
    flash(_("The game is deleted for ever."), "info")
    return redirect(url_for("trash.trash"), code=303)


@bp.post("/trash/empty")
def empty() -> ResponseReturnValue:
    refused = owner_only()
    if refused:
        return refused
    count = get_store().purge_trash()
    get_store().purge_nights()
    flash(
        ngettext(
            "The trash is empty (%(num)s game deleted for ever).",
            "The trash is empty (%(num)s games deleted for ever).",
            count,
        ),
        "info",
    )
    return redirect(url_for("trash.trash"), code=303)


@bp.post("/trash/nights/<night_id>/restore")
def restore_night(night_id: str) -> ResponseReturnValue:
    """A whole club night back, with every table game of every stage."""
    refused = owner_only()
    if refused:
        return refused
    try:
        get_store().restore_night(night_id)
    except NightNotFound:
        abort(404, description=_("There is no club night %(night)r in the trash.", night=night_id))
    flash(_("The night is restored, with its tables' games."), "info")
    return redirect(url_for("trash.trash"), code=303)


@bp.post("/trash/nights/<night_id>/purge")
def purge_night(night_id: str) -> ResponseReturnValue:
    refused = owner_only()
    if refused:
        return refused
    if not get_store().purge_nights(night_id=night_id):
        abort(404, description=_("There is no club night %(night)r in the trash.", night=night_id))
    flash(_("The night is deleted for ever, with its tables' games."), "info")
    return redirect(url_for("trash.trash"), code=303)


# ----------------------------------------------------------------------------- a game's table PIN


class TablePinForm(Form):
    current = PasswordField(_l("Current table PIN"), validators=[Optional(), PIN_FORMAT])
    new = PasswordField(_l("New table PIN (empty: no PIN)"), validators=[Optional(), PIN_FORMAT])


@bp.route("/games/<game_id>/pin", methods=["GET", "POST"])
def table_pin(game_id: str) -> ResponseReturnValue:
    game = load_or_404(game_id)
    form = TablePinForm()
    problem, status = None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            errors = [str(e) for field in form.errors.values() for e in field]
            problem, status = (errors[0] if errors else _("Enter the PINs again.")), 400
        elif not game.pin_hash and not form.new.data:
            problem, status = _("Enter the new table PIN: 4 to 12 digits."), 400
        else:

            def current_pin_given(stored: StoredGame) -> None:
                """Changing or removing a PIN needs the current one (being unlocked is not enough)."""
                if not stored.pin_hash:
                    return
                if not pin_attempt_allowed(stored.id):
                    raise PinRequired()
                if not pin_matches(stored.pin_hash, form.current.data or ""):
                    raise PinRequired()

            new_hash = hash_pin(form.new.data) if form.new.data else None
            try:
                get_store().set_pin(game_id, new_hash, guard=current_pin_given)
            except PinRequired:
                if form.current.data:
                    record_pin_failure(game_id)
                problem, status = _("That is not this game's table PIN: nothing was changed."), 403
            else:
                unlocked = (
                    [g for g in session.get("unlocked", []) if g != game_id]
                    if isinstance(session.get("unlocked"), list)
                    else []
                )
                session["unlocked"] = unlocked + ([game_id] if new_hash else [])
                flash(_("The table PIN is set.") if new_hash else _("The table PIN is removed."), "info")
                return redirect(url_for("pages.game", game_id=game_id), code=303)
    return render_template("table_pin.html", game=game, form=form, problem=problem), status
