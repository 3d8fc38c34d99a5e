"""The generic presenter: how a lowest-total game is shown, and the contract every game's
presenter keeps.

A presenter turns the core's values (a ``Match``, its round state, an ``Action``) into plain
data for the pages and names the templates that draw them; the web layer asks it and never
asks which game it is talking to (as ``chess.svg`` draws any board from the core's values).
It imports no Flask and nothing of ``referee.web``: the words it writes come from the
``gettext`` the page passes in (``_``), so the catalogs still find its messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from referee.match import Match
from referee.rules.base import Action
from referee.tiles import Tile, TileError

# The value of a place for the round's first tile, which joins nothing (Kozel's lead,
# Chicken Foot's spinner).
CENTRE = "centre"


class Gettext(Protocol):
    """The page's ``gettext``: a message in the request's language, ``%(name)s`` filled in."""

    def __call__(self, string: str, /, **variables: Any) -> str: ...


@dataclass(frozen=True, slots=True)
class Series:
    """What the running-totals chart shows: x = round numbers, one list of totals per player."""

    rounds: list[int]
    totals: dict[str, list[int]]
    last_round: int  # the x extent: the game's round count when known
    threshold: int | None = None  # a line drawn across (Kozel's goat)
    label: str = "total"  # "total" or "booked account"


@dataclass(frozen=True, slots=True)
class Account:
    """A player's account where the game keeps one beside the total (kz.score.display):
    whether it is open, and the points remembered but not yet booked."""

    open: bool
    remembered: int = 0


@dataclass(frozen=True, slots=True)
class RoundDetail:
    """A booked round as the game's own book tells it (Kozel's ledger row), and whose
    account was open before it."""

    ledger: Mapping[str, Any]
    before_open: dict[str, bool] = field(default_factory=dict)


def parse_tile(text: str | None, highest: int) -> Tile | None:
    """A tile as typed or tapped: "3-11", "3 11", "11:3"; None when it is not one of the set."""
    if not text:
        return None
    if not text.isascii():  # only the digits 0-9 are digits (forms.whole_number)
        return None
    halves = re.fullmatch(r"\s*([0-9]{1,2})\s*(?:[-|:/,. ]\s*)?([0-9]{1,2})\s*", text)
    try:
        tile = Tile.parse(f"{halves.group(1)}-{halves.group(2)}" if halves and " " in text else text)
    except TileError:
        return None
    return tile if tile.in_set(highest) else None


def place_key(place: object) -> str:
    """A place as the table's form sends it: a train key, a tile's text or ``centre``."""
    if place is None:
        return CENTRE
    return str(place)


def join_names(names: Sequence[str], _: Gettext) -> str:
    """``Ana and Ben`` in the page's language."""
    return _(" and ").join(names)


class Presenter:
    """How a game is shown. The defaults are a lowest-total game's: totals per player, one
    column each, a place is a tile on the table (or the centre for the first tile)."""

    # The table page's template (it extends ``table/_table.html`` and fills ``tableau``).
    table_template: ClassVar[str] = ""
    # The macros that draw a score's cells on the game page and the scoresheet.
    score_macros: ClassVar[str] = "score/totals.html"
    # True where the table shows its tableau before the first tile (Mexican Train's engine).
    table_starts_laid: ClassVar[bool] = False
    # The page that judges a dealt hand by the game's redeal rule (Kozel's kz.redeal), if any.
    redeal_template: ClassVar[str | None] = None

    # ----- the table page

    def play_body(self, place: str | None) -> dict[str, Any]:
        """The API fields that say where a tapped play goes (``place`` as the form sends it)."""
        return {"on": place} if place and place != CENTRE else {}

    def place_of(self, play: Action) -> object:
        """The place a legal play of the core goes to (``place_key`` makes it the form's)."""
        return play.on

    def place_from_key(self, key: str | None, highest: int) -> object:
        """A place the form named that the engine does not offer now: the core judges it."""
        return parse_tile(key, highest)

    def place_label(self, key: str, _: Gettext) -> str:
        """A place for a person: "the centre", "5-6" (a tile on the table)."""
        if key == CENTRE:
            return _("the centre")
        return self.named_place(key, _)

    def named_place(self, key: str, _: Gettext) -> str:
        return key

    def describe(self, action: Action, _: Gettext) -> str:
        """One line for a person: what was logged (or is about to be undone)."""
        who = action.player or _("Someone")
        if action.type == "play":
            return self.play_line(action, who, str(action.tile), _)
        if action.type == "undo":
            return _("The last action was undone.")
        if action.type == "draw":
            return _("%(player)s drew a tile.", player=who)
        if action.type == "pass":
            return self.pass_line(who, _)
        if action.type == "end":
            return _("%(player)s ended the first turn.", player=who)
        if action.type == "start":
            return _("%(player)s starts the round.", player=who)
        return f"{who} {action.type}."

    def play_line(self, action: Action, who: str, tile: str, _: Gettext) -> str:
        if action.on is None:
            return self.lead_line(who, tile, _)
        return _("%(player)s played %(tile)s on %(on)s.", player=who, tile=tile, on=str(action.on))

    def lead_line(self, who: str, tile: str, _: Gettext) -> str:
        return _("%(player)s played %(tile)s (the lead).", player=who, tile=tile)

    def pass_line(self, who: str, _: Gettext) -> str:
        return _("%(player)s passed.", player=who)

    def table_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        """What the game's table template draws, from the round's state."""
        return {}

    def table_words(self, _: Gettext) -> dict[str, str]:
        """The table's words for the tiles left to draw and the draw and pass buttons."""
        return {"boneyard": _("Boneyard"), "draw": _("Draw"), "pass": _("Pass")}

    # ----- the follow page

    def follow_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        """The tableau as the follow page draws it (``trains``, ``arms``)."""
        return {"trains": [], "arms": []}

    # ----- the game page, the scoresheet, the PDF and the chart

    def accounts(self, match: Match) -> dict[str, Account] | None:
        """Each player's account where the game keeps one (None: the totals say it all)."""
        return None

    def pot(self, match: Match) -> int:
        """Points waiting in a pot for the next round's winner (kz.fish.pot)."""
        return 0

    def round_details(self, match: Match) -> dict[int, RoundDetail]:
        """The game's own book of each booked round, by round number (none by default)."""
        return {}

    def running_summary(self, match: Match, _: Gettext) -> str:
        """How a game in progress stands, in one line for the list of games."""
        leaders = match.leaders()
        if not leaders:
            return _("No round booked yet")
        return _("Leading: %(players)s", players=join_names(leaders, _))

    def columns(self, match: Match, _: Gettext) -> list[tuple[str, str]]:
        """The score columns: (label, the player whose standing the column shows)."""
        return [(name, name) for name in match.players]

    def teams(self, match: Match, _: Gettext) -> list[dict[str, Any]]:
        """The teams sharing one account (kz.teams); none by default."""
        return []

    def double_words(self, tile: str, _: Gettext) -> str:
        """The game page's words for the round's opening double."""
        return _("start double %(tile)s", tile=tile)

    def redeal_link(self, _: Gettext) -> str:
        """The home page's words for the redeal page (where ``redeal_template`` names one)."""
        return ""

    def redeal(self, tiles: Sequence[str]) -> tuple[bool, str]:
        """A dealt hand judged by the game's redeal rule: (deal again?, why, a ``Phrase``)."""
        raise NotImplementedError

    def rule_book_extras(self, _: Gettext) -> dict[str, Any]:
        """What the game's rule book page shows beside the rules' texts: a ``deal`` table
        (``rule``: the rule it belongs under, ``counts``, ``rows``, ``big``) or None."""
        return {"deal": None}

    def chart_series(self, match: Match) -> Series:
        """Each player's running total after each booked round."""
        players = list(match.players)
        rounds: list[int] = []
        totals: dict[str, list[int]] = {p: [] for p in players}
        running = {p: 0 for p in players}
        for record in match.rounds:
            rounds.append(record.number)
            for p in players:
                running[p] += int(record.points.get(p, 0))
                totals[p].append(running[p])
        return Series(rounds, totals, last_round(match, rounds))

    def sheet_cell(self, row: Mapping[str, Any], name: str) -> str:
        """A printed scoresheet's cell: the round's points, and below them the running total."""
        return f"{row['points'][name]}\n{row['totals'][name]}"

    def sheet_total(self, standing: Mapping[str, Any]) -> str:
        return str(standing["total"])


def last_round(match: Match, rounds: Sequence[int]) -> int:
    """The chart's x extent: the game's round count when known, else the last round booked."""
    count = match.round_count()
    return max([count or 0, *rounds, 1]) if count else max([*rounds, 1])
