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
from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, IntegerField, RadioField, SelectField, StringField, SubmitField
from wtforms.validators import NumberRange, Optional

from referee.rules.base import bad_request

GAME_CHOICES = [
    ("mexican-train", "Mexican Train"),
    ("chicken-foot", "Chicken Foot"),
    ("kozel", "Kozel (Goat)"),
]
SET_CHOICES = [
    ("", "The usual set (Mexican Train 12, Chicken Foot 9, Kozel 6)"),
    ("6", "double-6"),
    ("9", "double-9"),
    ("12", "double-12"),
    ("15", "double-15"),
    ("18", "double-18"),
]
DOUBLE_BLANK = [("50", "50 (usual)"), ("25", "25"), ("0", "0")]
OUT_WORDS = {"out", "-", "—", "none", "empty"}


class Form(FlaskForm):
    """A form whose field messages speak the request's language (i18n.FormMessages), and
    whose CSRF field has an id of its own on the page (``csrf-<form>-<n>``), so two forms
    on one page never share an id."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            from referee.web.i18n import FORM_MESSAGES

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

    game = SelectField("Game", choices=GAME_CHOICES, default="mexican-train")
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
    # Mexican Train
    mt_double_blank = SelectField("Double-blank 0-0 counts", choices=DOUBLE_BLANK, default="50")
    mt_first_turn = SelectField(
        "First turn",
        choices=[("single", "One tile, like any turn"), ("build", "Build: lay a chain on your own train")],
        default="single",
    )
    mt_doubles_order = SelectField(
        "Several open doubles",
        choices=[("oldest", "Satisfy the oldest first"), ("newest", "Satisfy the newest first")],
        default="oldest",
    )
    mt_hand_size = IntegerField(
        "Tiles per player (blank: the usual deal)", validators=[Optional(), NumberRange(min=1, max=190)]
    )
    mt_first_double = IntegerField(
        "First round's engine (blank: the highest double)",
        validators=[Optional(), NumberRange(min=0, max=18)],
    )
    mt_last_double = IntegerField(
        "Last round's engine", default=0, validators=[Optional(), NumberRange(min=0, max=18)]
    )
    mt_tie_break = SelectField(
        "Equal lowest totals",
        choices=[("share", "Share the win"), ("chicken-foot", "Chicken Foot tie-break")],
        default="share",
    )
    # Chicken Foot
    cf_double_blank = SelectField("Double-blank 0-0 counts", choices=DOUBLE_BLANK, default="50")
    cf_arms = SelectField("Spinner arms", choices=[("4", "4 (usual)"), ("6", "6")], default="4")
    cf_hand_size = IntegerField(
        "Tiles per player", default=7, validators=[Optional(), NumberRange(min=1, max=190)]
    )
    # Kozel
    kz_fish = SelectField(
        "Fish",
        choices=[("all", "For all: each scores own hand"), ("one", "To one: highest hand takes all")],
        default="all",
    )
    kz_lose_at = IntegerField(
        "The goat is the first to reach", default=101, validators=[Optional(), NumberRange(min=1, max=10000)]
    )
    kz_zero_zero = SelectField(
        "A lone 0-0 counts", choices=[("10", "10 (usual)"), ("25", "25")], default="10"
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
        if game == "mexican-train":
            options["double_blank"] = int(self.mt_double_blank.data)
            options["first_turn"] = self.mt_first_turn.data
            options["doubles_order"] = self.mt_doubles_order.data
            options["tie_break"] = self.mt_tie_break.data
            for key in ("hand_size", "first_double", "last_double"):
                value = getattr(self, "mt_" + key).data
                if value is not None:
                    options[key] = value
        elif game == "chicken-foot":
            options["double_blank"] = int(self.cf_double_blank.data)
            options["arms"] = int(self.cf_arms.data)
            if self.cf_hand_size.data is not None:
                options["hand_size"] = self.cf_hand_size.data
        elif game == "kozel":
            options["fish"] = self.kz_fish.data
            options["zero_zero"] = int(self.kz_zero_zero.data)
            if self.kz_lose_at.data is not None:
                options["lose_at"] = self.kz_lose_at.data
        body["options"] = options
        return body


def hands_form_class(count: int) -> type[Form]:
    """A form with one text field per player (``p0`` … in seat order)."""
    fields: dict[str, Any] = {
        f"p{index}": StringField(f"p{index}", validators=[Optional()]) for index in range(count)
    }
    fields["version"] = HiddenField()
    fields["save"] = SubmitField("Save the round")
    return type("HandsForm", (Form,), fields)


def parse_hand(text: str | None, player: str) -> int | list[str]:
    """One player's entry as typed: points ("17"), tiles ("0-0 5-6"), or "out" (no tiles).

    Only the shape is read here; tiles are checked by the core (``Match.enter_hands``).
    """
    raw = (text or "").strip()
    if not raw:
        raise bad_request(
            'Enter {player}\'s hand: the points, the tiles left, or "out".', field=player, player=player
        )
    if raw.casefold() in OUT_WORDS:
        return []
    if raw.isdigit():
        return int(raw)
    parts = [part for part in re.split(r"[\s,;]+", raw) if part]
    for part in parts:
        if not re.fullmatch(r"\d{1,2}\s*[-|:/]\s*\d{1,2}", part):
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
