"""Chicken Foot's declaration (`cf.*`): its sets, players and options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.rules.base import PLAYERS_MOST, phrase
from referee.rules.options import CHOICE, RANGE, SET_HIGHEST, Choice, GameDeclaration, Option
from referee.rules.scoring import LowestTotalOptions

DECLARATION = GameDeclaration(
    key="chicken-foot",
    prefix="cf",
    title=phrase("Chicken Foot"),
    sets=(9, 12, 15, 18),
    default_set=9,
    presenter="referee.presenters.chicken_foot:ChickenFootPresenter",
    players=(2, PLAYERS_MOST),
    options=(
        Option(
            "double_blank",
            CHOICE,
            50,
            "cf.score",
            phrase("Double-blank 0-0 counts"),
            phrase("What a 0-0 left in a hand scores."),
            choices=(Choice(50, phrase("50 (usual)")), Choice(25, "25"), Choice(0, "0")),
        ),
        Option(
            "arms",
            CHOICE,
            4,
            "cf.spinner",
            phrase("Spinner arms"),
            phrase("How many arms grow from the spinner."),
            choices=(Choice(4, phrase("4 (usual)")), Choice(6, "6")),
        ),
        Option(
            "hand_size",
            RANGE,
            7,
            "cf.players",
            phrase("Tiles per player"),
            phrase("How many tiles each player is dealt."),
            low=1,
        ),
        # House rules (RULES.md section 4), off by default.
        Option(
            "first_double",
            RANGE,
            SET_HIGHEST,
            "cf.house.rounds",
            phrase("First round's double (blank: the highest double)"),
            phrase("The start double of the first round: a lower one makes a shorter game."),
            low=0,
            high=SET_HIGHEST,
            house=True,
        ),
        Option(
            "last_double",
            RANGE,
            0,
            "cf.house.rounds",
            phrase("Last round's double"),
            phrase("The start double of the last round."),
            low=0,
            high=SET_HIGHEST,
            house=True,
        ),
        Option(
            "missing_start",
            CHOICE,
            "draw",
            "cf.house.start",
            phrase("Nobody holds the round's double"),
            phrase("What happens when no one holds the round's double after the deal."),
            choices=(
                Choice("draw", phrase("Draw until someone has it (usual)")),
                Choice("next", phrase("Start with the highest double held")),
            ),
            house=True,
        ),
        Option(
            "double_out_penalty",
            RANGE,
            0,
            "cf.house.double-out",
            phrase("Penalty for going out on a double"),
            phrase("A player who goes out by playing a double scores this many points instead of 0."),
            low=0,
            high=100,
            house=True,
        ),
        Option(
            "open_foot_penalty",
            RANGE,
            0,
            "cf.house.foot",
            phrase("Penalty for an unfinished foot"),
            phrase("Points added at the round's end to whoever laid a double whose foot lacks toes."),
            low=0,
            high=100,
            house=True,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class ChickenFootOptions(LowestTotalOptions):
    """The options of a Chicken Foot game (``DECLARATION``; ``double_blank``,
    ``first_double`` and ``last_double`` are the ones Mexican Train has too)."""

    declaration = DECLARATION
    arms: Literal[4, 6] = 4
    hand_size: int = 7
    missing_start: Literal["draw", "next"] = "draw"
    double_out_penalty: int = 0
    open_foot_penalty: int = 0


TOES_PER_FOOT = 3
