"""The forms of the table page: every change is one small CSRF-protected POST.

The forms only carry what the player tapped; turning it into an ``Action`` is done by
``Action.from_json`` (the same shape check as the JSON API) and judging it by the engine.
"""

from __future__ import annotations

from wtforms import HiddenField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional, Regexp
from wtforms.widgets import HiddenInput

from referee.presenters.base import CENTRE
from referee.web.forms import Form, WholeNumberField
from referee.web.json_answers import CHANGE_KEY

TABLE_ACTIONS = ("play", "draw", "pass", "end", "start", "undo")
# ``CENTRE``: the value of ``place`` for the round's first tile, which joins nothing (Kozel's
# lead, Chicken Foot's spinner).
__all__ = ["CENTRE", "TABLE_ACTIONS", "ActionForm"]


class ActionForm(Form):
    """One logged step: a play (tile + place), a draw, a pass, an end, a start, an undo.

    ``version`` is the game version the page showed: a change by another tablet since then
    is refused with 409 and the fresh table. ``place`` is a train key (Mexican Train), a
    tile on the table (Kozel, Chicken Foot) or ``centre``; it is the value of the tapped
    place button, so one form serves every place on the tableau. ``key`` is added by the
    page's script.
    """

    class Meta:
        csrf_field_name = "csrf_token"

    version = WholeNumberField(widget=HiddenInput(), validators=[InputRequired()])
    type = HiddenField(validators=[InputRequired(), AnyOf(TABLE_ACTIONS)])
    player = HiddenField(validators=[Optional(), Length(max=40)])
    tile = HiddenField(validators=[Optional(), Length(max=8)])
    place = StringField(validators=[Optional(), Length(max=40)])
    # API.md's ``key``: the page's script gives each tap one, and sends the tap again with it
    # until the server answers (a Wi-Fi blip): a repeat is never logged twice.
    key = HiddenField(validators=[Optional(), Regexp(CHANGE_KEY.pattern + r"\Z")])
