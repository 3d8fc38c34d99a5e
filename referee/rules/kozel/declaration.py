"""Kozel's declaration (`kz.*`): its set, players and options, the lead order and the redeal check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from referee.rules.base import (
    BadRequest,
    GameResult,
    LedgerRow,
    StandingDetail,
    StateData,
    Team,
    phrase,
    refuse,
    tile_error_text,
)
from referee.rules.options import CHOICE, FLAG, RANGE, Choice, GameDeclaration, GameOptions, Option
from referee.tiles import Tile, TileError, full_set

HAND_SIZE = 7
SET_HIGHEST = 6
OPEN_AT = 12  # kz.score.remember / kz.score.open: a round score over 12 opens the account
RATING_BASE = 100  # kz.rating: (100 - own points) / 10


@dataclass(frozen=True, slots=True)
class KozelBook(StandingDetail):
    """Kozel's running account (kz.score.*): what each player has remembered, whose account
    is open, the pot, the teams and one ledger row per booked round."""

    remembered: Mapping[str, int]
    open: Mapping[str, bool]
    goat_at: int  # kz.goat: the account that makes the goat (option lose_at)
    pot: int = 0
    ledger: tuple[LedgerRow, ...] = ()
    teams: tuple[Team, ...] = ()

    def add_to_state(self, data: StateData, result: GameResult | None) -> None:
        """The API state's Kozel fields: remembered points, the pot, the teams, goats, rating."""
        data["remembered"] = dict(self.remembered)
        data["pot"] = self.pot
        if self.teams:
            data["teams"] = [team.to_json() for team in self.teams]
            points = {row["number"]: row["team_points"] for row in self.ledger if "team_points" in row}
            for entry in data["rounds"]:
                if entry["number"] in points:
                    entry["team_points"] = list(points[entry["number"]])
        if result is not None:
            data["goats"] = list(result.goats)
            data["rating"] = dict(result.rating)
            if result.left is not None:
                data["left"] = result.left


DECLARATION = GameDeclaration(
    key="kozel",
    prefix="kz",
    title=phrase("Kozel"),
    choice_label=phrase("Kozel (Goat)"),
    sets=(SET_HIGHEST,),
    default_set=SET_HIGHEST,
    presenter="referee.presenters.kozel:KozelPresenter",
    players=(2, 4),
    options=(
        Option(
            "fish",
            CHOICE,
            "all",
            "kz.fish",
            phrase("Fish"),
            phrase("Who scores when the line is blocked."),
            choices=(
                Choice("all", phrase("For all: each scores own hand")),
                Choice("one", phrase("To one: highest hand takes all")),
            ),
        ),
        Option(
            "zero_zero",
            CHOICE,
            10,
            "kz.score.zero",
            phrase("A lone 0-0 counts"),
            phrase("What a 0-0 left alone in a hand scores."),
            choices=(Choice(10, phrase("10 (usual)")), Choice(25, "25")),
        ),
        Option(
            "lose_at",
            RANGE,
            101,
            "kz.goat",
            phrase("The goat is the first to reach"),
            phrase("The account that makes a player the goat."),
            low=1,
            high=10000,
        ),
        # House rules (RULES.md section 4), off by default.
        Option(
            "teams",
            FLAG,
            False,
            "kz.teams",
            phrase("Teams (4 players)"),
            phrase("Partners sit opposite and share one account (kz.teams)."),
            house=True,
            players=4,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class KozelOptions(GameOptions):
    """The options of a Kozel game (``DECLARATION``)."""

    declaration = DECLARATION
    fish: Literal["all", "one"] = "all"
    zero_zero: Literal[10, 25] = 10
    lose_at: int = 101
    teams: bool = False


@cache
def lead_order() -> tuple[Tile, ...]:
    """kz.lead.first's order of precedence for the round-1 lead.

    1-1 … 6-6, then 0-0, then the non-doubles by pip total and then by the higher half
    (the **Reading** of "next highest": 5-6, 4-6, 3-6, 4-5, 2-6, …).
    """
    doubles = [Tile(value, value) for value in range(1, SET_HIGHEST + 1)] + [Tile(0, 0)]
    others = sorted(
        (tile for tile in full_set(SET_HIGHEST) if not tile.is_double),
        key=lambda tile: (tile.pips, tile.high),
        reverse=True,
    )
    return tuple(doubles + others)


def redeal_check(tiles: Iterable[Tile | str]) -> tuple[bool, str]:
    """kz.redeal for one dealt hand: (must the tiles be dealt again?, the reason as a sentence).

    A double counts once for its suit (a 4-4 is one tile "of fours").
    """
    hand: list[Tile] = []
    for item in tiles:
        try:
            tile = Tile.parse(item)
        except TileError as error:
            raise BadRequest(tile_error_text(error), field="tiles") from None
        if not tile.in_set(SET_HIGHEST):
            raise refuse("tiles", "{tile} is not in a double-6 set.", tile=str(tile))
        if tile in hand:
            raise refuse("unique", "{tile} is in the hand twice: each tile exists once.", tile=str(tile))
        hand.append(tile)
    if len(hand) != HAND_SIZE:
        raise refuse(
            "kz.redeal",
            "A Kozel hand has {size} tiles, not {count}: enter the whole hand as dealt.",
            size=HAND_SIZE,
            count=len(hand),
        )
    doubles = [tile for tile in hand if tile.is_double]
    suits = {value: sum(1 for tile in hand if tile.has(value)) for value in range(SET_HIGHEST + 1)}
    biggest_suit = max(suits, key=lambda value: (suits[value], value))
    reasons = []
    if len(doubles) >= 5:
        reasons.append(
            phrase(
                "{count} doubles ({tiles})", count=len(doubles), tiles=", ".join(map(str, sorted(doubles)))
            )
        )
    full_suits = [value for value in range(SET_HIGHEST + 1) if suits[value] >= 6]
    for value in full_suits:
        reasons.append(phrase("{count} tiles with a {value}", count=suits[value], value=value))
    if reasons:
        if len(reasons) == 1:
            return True, phrase(
                "Deal again: this hand has {reason}, and a hand with 5 or more "
                "doubles or 6 or more tiles of one suit is thrown in (kz.redeal).",
                reason=reasons[0],
            )
        return True, phrase(
            "Deal again: this hand has {reason} and {other}, and a hand with 5 or "
            "more doubles or 6 or more tiles of one suit is thrown in (kz.redeal).",
            reason=reasons[0],
            other=" and ".join(reasons[1:]),
        )
    if len(doubles) == 1:
        return False, phrase(
            "No redeal: 1 double and at most {most} tiles of one suit ({suit}s) — "
            "a redeal needs 5 doubles or 6 tiles of one suit (kz.redeal).",
            most=suits[biggest_suit],
            suit=biggest_suit,
        )
    return False, phrase(
        "No redeal: {count} doubles and at most {most} tiles of one suit ({suit}s) "
        "— a redeal needs 5 doubles or 6 tiles of one suit (kz.redeal).",
        count=len(doubles),
        most=suits[biggest_suit],
        suit=biggest_suit,
    )
