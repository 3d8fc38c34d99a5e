"""The "New club night" form: what a person types, in the shape of ``POST /api/nights``.

Like the new-game form it only parses; whether the night can be played is decided by the
core (``NightConfig.from_json``), exactly as for the API. The options' fields are built
from each game's declaration by the new game's builders (``option_field``).
"""

from __future__ import annotations

import re
from typing import Any

from wtforms import HiddenField, RadioField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.validators import Optional

from referee.nights.config import NAME_MOST, PLAYERS_MOST, SEATINGS
from referee.rules import DEFAULT_GAME, GAMES
from referee.web.forms import SET_CHOICES, Form, WholeNumberField, field_name, option_field, option_value
from referee.web.i18n import N_

# One sentence per seating, shown beside its choice (RULES.md section 5).
SEATING_HELP = {
    "fixed": N_("Everyone keeps the table of the first stage all night."),
    "progressive": N_(
        "After each stage the best of every table moves up one table and the worst moves down one."
    ),
    "mixer": N_("Each stage seats the players so that as few as possible meet again."),
    "teams": N_("Kozel with teams: partners stay together and every team meets every other team once."),
}
SEATING_NAMES = {
    "fixed": N_("Fixed"),
    "progressive": N_("Progressive"),
    "mixer": N_("Mixer"),
    "teams": N_("Teams"),
}
SEATING_RULE = {
    "fixed": "night.tables",
    "progressive": "night.progressive",
    "mixer": "night.mixer",
    "teams": "night.teams",
}
ACTIONS = ("preview", "shuffle", "start")


def _staged_by_rounds(key: str) -> bool:
    """Whether a night of ``key`` plays its stages as rounds (night.rounds; Kozel's stage is
    one whole game), as the game's rules say for its usual set and options."""
    rules = GAMES[key]
    options = rules.parse_options({}, rules.default_set, ("A", "B", "C", "D"))
    return rules.round_count(rules.default_set, options) is not None


STAGED_BY_ROUNDS = {key: _staged_by_rounds(key) for key in GAMES}


class NightForm(Form):
    """New club night: the body of ``POST /api/nights`` plus the shuffle's seed."""

    name = StringField("Name of the night", default="")
    game = SelectField(
        "Game",
        choices=[(key, rules.declaration.label) for key, rules in GAMES.items()],
        default=DEFAULT_GAME,
    )
    set = SelectField("Set", choices=SET_CHOICES, default="")
    mode = RadioField(
        "Mode",
        choices=[
            ("referee", "Referee: log every tile, the app checks each play"),
            ("scores", "Score pad: enter only the hands left after each round"),
        ],
        default="referee",
    )
    players = TextAreaField("Players, one a line", default="")
    # The numbers are only read here: their bounds are the core's (night.tables, night.rounds),
    # refused there with the rule's sentence.
    table_size = WholeNumberField("Players at a table", default=4, validators=[Optional()])
    stages = WholeNumberField("Stages", default=3, validators=[Optional()])
    rounds_per_stage = WholeNumberField("Rounds per stage", default=3, validators=[Optional()])
    seating = RadioField("Seating", choices=[(key, key) for key in SEATINGS], default="progressive")
    seed = HiddenField(default="")
    preview = SubmitField("Show the tables")
    shuffle = SubmitField("Shuffle")
    start = SubmitField("Start the night")

    def action(self) -> str:
        """Which button sent the form (the Enter key: show the tables)."""
        if self.start.data:
            return "start"
        if self.shuffle.data:
            return "shuffle"
        return "preview"

    def names(self, picked: list[str]) -> list[str]:
        """The names typed (one a line; blank lines dropped), then those picked from the
        players known to this server."""
        typed = [line.strip() for line in re.split(r"[\r\n]+", self.players.data or "")]
        return [name for name in typed if name][: PLAYERS_MOST + 1] + picked[: PLAYERS_MOST + 1]

    def body(self, players: list[str]) -> dict[str, Any]:
        """The ``POST /api/nights`` body this form describes (``players`` in dealing order)."""
        game = self.game.data if self.game.data in GAMES else DEFAULT_GAME
        body: dict[str, Any] = {
            "name": (self.name.data or "")[: NAME_MOST + 1],
            "game": game,
            "mode": self.mode.data,
            "players": players,
            "table_size": self.table_size.data if self.table_size.data is not None else 4,
            "stages": self.stages.data if self.stages.data is not None else 1,
            "seating": self.seating.data,
        }
        if self.set.data:
            body["set"] = int(self.set.data)
        if STAGED_BY_ROUNDS[game]:
            body["rounds_per_stage"] = (
                self.rounds_per_stage.data if self.rounds_per_stage.data is not None else 1
            )
        options: dict[str, Any] = {}
        for option in GAMES[game].declaration.options:
            value = option_value(option, self[field_name(game, option)].data)
            if value is not None and value != option.default:
                options[option.name] = value
        body["options"] = options
        return body


for _key, _rules in GAMES.items():  # one field per declared option of every game, as NewGameForm
    for _option in _rules.declaration.options:
        setattr(NightForm, field_name(_key, _option), option_field(_option, max(_rules.declaration.sets)))
