"""The HTML forms of the pages (flask-wtf, so every one carries a CSRF token).

Forms only parse what a person typed into the shapes of the JSON API (API.md): the game
body of ``POST /api/games``, the ``hands`` of a round, a Kozel hand. Whether the result is
allowed is decided by the core (``GameConfig.from_json``, ``Match.enter_hands``,
``redeal_check``), exactly as for the API.
"""

from __future__ import annotations

import re
from typing import Any

from flask import g, has_request_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import NumberRange, Optional, Regexp

from referee.rules import DEFAULT_GAME, GAMES
from referee.rules.base import bad_request, phrase
from referee.rules.options import CHOICE, FLAG, Option
from referee.tiles import SET_SIZES
from referee.web.i18n import FORM_MESSAGES, FormMessages

# The page's script names the chosen game's usual set in the reader's language.
USUAL_SETS = ", ".join(f"{rules.title} {rules.default_set}" for rules in GAMES.values())
# A set's name is a phrase, so that each page names it in its reader's language.
SET_CHOICES = [("", f"The usual set ({USUAL_SETS})")] + [
    (str(size), phrase("double-{highest}", highest=size)) for size in SET_SIZES
]
OUT_WORDS = {"out", "-", "—", "none", "empty"}


def set_menu() -> dict[str, dict[str, Any]]:
    """What the set menu's script reads (``_options.html``, ``set_menu_script``): each game's
    sets, from its declaration, and its usual set named in the page's language."""
    return {
        "sets": {key: list(rules.declaration.sets) for key, rules in GAMES.items()},
        "usual": {
            key: _("The usual set (double-%(highest)s)", highest=rules.default_set)
            for key, rules in GAMES.items()
        },
    }


# ----- numbers typed into forms ----------------------------------------------------------------
#
# One rule for every whole number a form (or a path) carries: only the ASCII digits 0-9 are
# digits. Python's ``int`` also reads "١" (an Arabic-Indic one) as 1, " 1_0 " as 10 and "+5"
# as 5, and ``isdigit`` accepts "²", which ``int`` then refuses: each of them is refused here,
# with a sentence, before anything is changed.
DIGITS = re.compile(r"[0-9]+")
PIN_DIGITS = r"\A[0-9]{4,12}\Z"  # a table or owner PIN (``$`` would let a final newline in)


class NotANumber(ValueError):
    pass


def whole_number(text: str | None, most_digits: int) -> int | None:
    """The number written in ``text`` (spaces around it allowed), or None when it is blank;
    ``NotANumber`` when it is anything but 1 to ``most_digits`` ASCII digits."""
    raw = (text or "").strip(" \t")
    if not raw:
        return None
    if len(raw) > most_digits or not DIGITS.fullmatch(raw):
        raise NotANumber(raw[:20])
    return int(raw)


class WholeNumberField(IntegerField):
    """``IntegerField`` that reads only ASCII digits (``whole_number``); anything else is the
    field's error, in a sentence, and the form is refused."""

    most_digits = 9

    def validate(self, form: Any, extra_validators: Any = ()) -> bool:
        if self.process_errors:  # not a number: say that alone (a range check has nothing to check)
            self.errors = list(self.process_errors)
            return False
        return bool(super().validate(form, extra_validators))

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        try:
            self.data = whole_number(str(valuelist[0]), self.most_digits)
        except NotANumber:
            self.data = None
            raise ValueError(
                _(
                    "Write a whole number with the digits 0-9 (at most %(count)s of them).",
                    count=self.most_digits,
                )
            ) from None


def pin_format(message: Any) -> Regexp:
    """The validator of a PIN field: 4 to 12 ASCII digits."""
    return Regexp(PIN_DIGITS, message=message)


PIN_FORMAT = pin_format(_l("A PIN is 4 to 12 digits."))  # the owner's and a table's PIN fields


class Form(FlaskForm):
    """A form whose field messages speak the request's language (i18n.FormMessages), and
    whose CSRF field has an id of its own on the page (``csrf-<form>-<n>``), so two forms
    on one page never share an id."""

    class Meta:
        def get_translations(self, form: Any) -> FormMessages:
            return FORM_MESSAGES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        token = getattr(self, "csrf_token", None)
        if token is not None and has_request_context():
            count = g.get("csrf_fields", 0) + 1
            g.csrf_fields = count
            token.id = f"csrf-{type(self).__name__.lower()}-{count}"


class NewGameForm(Form):
    """New game: the same body as ``POST /api/games``."""

    game = SelectField(
        "Game",
        choices=[(key, rules.declaration.label) for key, rules in GAMES.items()],
        default=DEFAULT_GAME,
    )
    players = FieldList(StringField("Player"), min_entries=2)
    set = SelectField("Set", choices=SET_CHOICES, default="")
    mode = RadioField(
        "Mode",
        choices=[
            ("referee", "Referee: log every tile, the app checks each play"),
            ("scores", "Score pad: enter only the hands left after each round"),
        ],
        default="referee",
    )
    add_player = SubmitField("Add a player")
    start = SubmitField("Start the game")

    def names(self) -> list[str]:
        """The names typed, in turn order; blank seats are dropped."""
        return [(entry.data or "").strip() for entry in self.players.entries if (entry.data or "").strip()]

    def body(self) -> dict[str, Any]:
        """The ``POST /api/games`` body this form describes."""
        game = self.game.data
        body: dict[str, Any] = {"game": game, "players": self.names(), "mode": self.mode.data}
        if self.set.data:
            body["set"] = int(self.set.data)
        options: dict[str, Any] = {}
        if game in GAMES:
            for option in GAMES[game].declaration.options:
                value = option_value(option, self[field_name(game, option)].data)
                if value is not None and value != option.default:
                    options[option.name] = value
        body["options"] = options
        return body


def field_name(game: str, option: Option) -> str:
    """The form field of a game's option: ``mt_double_blank``, ``cf_arms`` …"""
    return f"{GAMES[game].declaration.prefix}_{option.name}"


def option_field(option: Option, highest: int) -> Any:
    """The form field of a declared option (labels are translated per request:
    ``referee.web.i18n.translate_form``)."""
    if option.kind == FLAG:
        return BooleanField(option.label, default=bool(option.default))
    if option.kind == CHOICE:
        return SelectField(
            option.label,
            choices=[(str(choice.value), choice.label) for choice in option.choices],
            default=str(option.default),
        )
    high = option.upper(highest)
    if high is None:  # the game checks the upper bound; the form keeps it to the biggest set
        high = FORM_MOST
    default = option.default if isinstance(option.default, int) else None
    return WholeNumberField(
        option.label, default=default, validators=[Optional(), NumberRange(min=option.low, max=high)]
    )


def option_value(option: Option, data: Any) -> Any:
    """The JSON value of an option's field as submitted (``None``: left blank)."""
    if option.kind == FLAG:
        return bool(data)
    if option.kind == CHOICE:
        for choice in option.choices:
            if str(choice.value) == data:
                return choice.value
        return option.default
    return data


FORM_MOST = 190  # tiles in a double-18 set: the most anything counted in tiles can be
for _key, _rules in GAMES.items():  # one field per declared option of every game
    for _option in _rules.declaration.options:
        setattr(NewGameForm, field_name(_key, _option), option_field(_option, max(_rules.declaration.sets)))


def hands_form_class(count: int) -> type[Form]:
    """A form with one text field per player (``p0`` … in seat order)."""
    fields: dict[str, Any] = {
        f"p{index}": StringField(f"p{index}", validators=[Optional()]) for index in range(count)
    }
    # mt.house.marker in a score pad: whose own train carried a marker when the round ended
    fields.update({f"m{index}": BooleanField(f"m{index}") for index in range(count)})
    fields["version"] = HiddenField()
    fields["save"] = SubmitField("Save the round")
    return type("HandsForm", (Form,), fields)


POINTS_DIGITS = 5  # more than any set's pips (a double-18 set holds 3,420)


def form_version(text: str | None) -> int | None:
    """The game's version a form was made from (its hidden field), or None when the form has
    none. A value that is not a whole number in ASCII digits is a malformed form: it raises
    ``ValueError`` rather than letting the change skip the "game changed meanwhile" check."""
    try:
        return whole_number(text, 12)
    except NotANumber:
        raise ValueError(f"not a version: {(text or '')[:20]!r}") from None


def _points(part: str, player: str) -> int:
    """One number of points as typed (ASCII digits), or the refusal that says how to write it."""
    try:
        points = whole_number(part, POINTS_DIGITS)
    except NotANumber:
        points = None
    if points is None:
        raise bad_request(
            "{player}'s hand: {part!r} is not a number of points; type the points with the "
            "digits 0-9 (at most {count} of them), or the tiles.",
            field=player,
            player=player,
            part=part if len(part) <= 12 else part[:12] + "…",
            count=POINTS_DIGITS,
        )
    return points


def parse_hand(text: str | None, player: str) -> int | list[str]:
    """One player's entry as typed: points ("17", or a sum "10+15+8"), tiles ("0-0 5-6"),
    or "out" (no tiles).

    Only the shape is read here; tiles are checked by the core (``Match.enter_hands``).
    """
    raw = (text or "").strip()
    if not raw:
        raise bad_request(
            'Enter {player}\'s hand: the points, the tiles left, or "out".', field=player, player=player
        )
    if raw.casefold() in OUT_WORDS:
        return []
    if "+" in raw and re.fullmatch(r"[^\s+]+(?:\s*\+\s*[^\s+]+)+", raw):
        # a counted hand added up at the table: "10+15+8" is 33 points
        return sum(_points(part.strip(), player) for part in raw.split("+"))
    if raw.isdigit() or raw.isdecimal() or raw.isnumeric():
        try:
            points = whole_number(raw, POINTS_DIGITS)
        except NotANumber:
            raise bad_request(
                "{player}'s hand: {part!r} is not a number of points; type the points with the "
                "digits 0-9 (at most {count} of them), or the tiles.",
                field=player,
                player=player,
                part=raw if len(raw) <= 12 else raw[:12] + "…",
                count=POINTS_DIGITS,
            ) from None
        assert points is not None
        return points
    parts = [part for part in re.split(r"[\s,;]+", raw) if part]
    for part in parts:
        if not re.fullmatch(r"[0-9]{1,2}\s*[-|:/]\s*[0-9]{1,2}", part):
            raise bad_request(
                '{player}\'s hand: {part!r} is not a tile; write tiles like "5-6" '
                "separated by spaces, or type the points.",
                field=player,
                player=player,
                part=part,
            )
    return parts


def hand_text(entry: Any) -> str:
    """The text field's value for a booked entry (RoundRecord.hands)."""
    if isinstance(entry, list):
        return " ".join(entry) if entry else "out"
    if entry is None:
        return ""
    return str(entry)


class RedealForm(Form):
    """Kozel redeal check: a hand of 7 from the double-6 set."""

    tiles = StringField("The 7 tiles of the hand", validators=[Optional()])
    check = SubmitField("Check the hand")

    def tile_list(self) -> list[str]:
        return [part for part in re.split(r"[\s,;]+", (self.tiles.data or "").strip()) if part]


class ConfirmForm(Form):
    """A bare POST with its CSRF token (undo the last entry)."""

    version = HiddenField()
    confirm = SubmitField("Yes, undo it")
