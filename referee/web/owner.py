"""The PIN pages: the owner PIN, and a game's table PIN given to unlock it in this browser.

    GET|POST /owner                 set, change or remove the owner PIN; unlock as owner
    GET|POST /games/<id>/unlock     the table PIN page: a correct PIN unlocks the game for
                                    this browser (session["unlocked"])

The checks themselves (``is_owner``, ``check_pin``) are in referee.web.service, which every
blueprint that guards something imports.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import PasswordField
from wtforms.validators import InputRequired, Optional

from referee.store import GameNotFound
from referee.web.db import get_store
from referee.web.forms import PIN_FORMAT, Form, pin_format
from referee.web.safety import own_path
from referee.web.service import (
    OWNER_KEY,
    OWNER_THROTTLE_ID,
    hash_pin,
    is_local_request,
    is_owner,
    owner_mark,
    owner_pin_hash,
    pin_attempt_allowed,
    pin_matches,
    record_pin_failure,
    rehash_owner_pin,
    rehash_table_pin,
    reserve_pin_attempt,
    unlock_in_session,
)

bp = Blueprint("owner", __name__)


# ----------------------------------------------------------------------------- the owner PIN


class OwnerForm(Form):
    current = PasswordField(_l("Current owner PIN"), validators=[Optional(), PIN_FORMAT])
    new = PasswordField(_l("New owner PIN (empty: no owner PIN)"), validators=[Optional(), PIN_FORMAT])


class OwnerUnlockForm(Form):
    pin = PasswordField(_l("Owner PIN"), validators=[Optional(), PIN_FORMAT])


def first_pin_elsewhere() -> str:
    return str(
        _(
            "The owner PIN is set on the server's own machine: open this page there (as localhost), "
            "or enter it at the server's console when it starts."
        )
    )


@bp.route("/owner", methods=["GET", "POST"])
def owner() -> ResponseReturnValue:
    store = get_store()
    form, unlock_form = OwnerForm(prefix="set"), OwnerUnlockForm(prefix="unlock")
    problem, status = None, 200
    if request.method == "POST":
        pin_hash = owner_pin_hash(store)
        if request.form.get("action") == "unlock":
            if not unlock_form.validate_on_submit() or not unlock_form.pin.data:
                problem, status = _("Enter the owner PIN: 4 to 12 digits."), 400
            elif not pin_hash:
                return redirect(url_for("trash.trash"), code=303)
            elif not pin_attempt_allowed(OWNER_THROTTLE_ID):
                problem, status = _("Too many wrong PINs: wait a minute and try again."), 429
            elif pin_matches(pin_hash, unlock_form.pin.data):
                session["owner"] = owner_mark(rehash_owner_pin(pin_hash, unlock_form.pin.data))
                flash(_("You are the owner on this device until the browser is closed."), "info")
                return redirect(url_for("trash.trash"), code=303)
            else:
                record_pin_failure(OWNER_THROTTLE_ID)
                problem, status = _("That is not the owner PIN: nothing was changed."), 403
        elif not form.validate_on_submit():
            errors = [str(e) for field in form.errors.values() for e in field]
            problem, status = (errors[0] if errors else _("Enter the PINs again.")), 400
        elif pin_hash and not pin_attempt_allowed(OWNER_THROTTLE_ID):
            problem, status = _("Too many wrong PINs: wait a minute and try again."), 429
        elif pin_hash and not pin_matches(pin_hash, form.current.data or ""):
            record_pin_failure(OWNER_THROTTLE_ID)
            problem, status = _("That is not the owner PIN: nothing was changed."), 403
        elif not pin_hash and not is_local_request():
            problem, status = first_pin_elsewhere(), 403
        elif not pin_hash and not form.new.data:
            problem, status = _("Enter the new owner PIN: 4 to 12 digits."), 400
        else:
            new_hash = hash_pin(form.new.data) if form.new.data else None
            store.set_setting(OWNER_KEY, new_hash)
            session["owner"] = owner_mark(new_hash) if new_hash else None
            flash(_("The owner PIN is set.") if new_hash else _("The owner PIN is removed."), "info")
            return redirect(url_for("owner.owner"), code=303)
    return render_template(
        "owner.html",
        form=form,
        unlock_form=unlock_form,
        has_pin=bool(owner_pin_hash(store)),
        owner=is_owner(),
        may_set_first=is_local_request(),
        elsewhere=first_pin_elsewhere(),
        problem=problem,
    ), status


# ----------------------------------------------------------------------------- a game's table PIN


class UnlockForm(Form):
    pin = PasswordField(
        _l("Table PIN"),
        validators=[
            InputRequired(_l("Enter the table PIN.")),
            pin_format(_l("A table PIN is 4 to 12 digits.")),
        ],
    )


def unlocked_games() -> list[str]:
    value = session.get("unlocked", [])
    return list(value) if isinstance(value, list) else []


def safe_next(target: str | None, game_id: str) -> str:
    """Only a page of this app (an undo's POST-only address leads back to the game)."""
    return own_path(target, f"/games/{game_id}")


@bp.route("/games/<game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: str) -> ResponseReturnValue:
    try:
        game = get_store().load(game_id)
    except GameNotFound:
        abort(404)
    form = UnlockForm()
    target = safe_next(request.values.get("next"), game_id)
    problem = None
    status = 200
    if not game.pin_hash:
        return render_template(
            "unlock.html", game=game, form=form, target=target, protected=False, unlocked=True, problem=None
        )
    if request.method == "POST":
        if form.validate_on_submit():
            attempt = reserve_pin_attempt(game.id)  # counted first: exact however many at once
            if attempt is None:
                problem, status = (
                    _("Too many wrong table PINs for this game: wait a minute and try again."),
                    429,
                )
            elif pin_matches(game.pin_hash, form.pin.data):
                get_store().forgive_pin_attempt(attempt)
                rehash_table_pin(game, form.pin.data)
                unlock_in_session(game.id)
                return redirect(target, code=303)
            else:
                problem, status = _("That is not this game's table PIN: nothing was unlocked."), 403
        else:
            errors = [e for field in form.errors.values() for e in field]
            if "csrf_token" in form.errors:
                problem = _("This page is too old to send (its security token expired): enter the PIN again.")
            else:
                problem = str(errors[0]) if errors else _("Enter the table PIN.")
            status = 400
    return render_template(
        "unlock.html",
        game=game,
        form=form,
        target=target,
        protected=True,
        unlocked=game.id in unlocked_games(),
        problem=problem,
    ), status
