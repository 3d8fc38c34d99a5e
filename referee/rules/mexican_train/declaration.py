"""Mexican Train's declaration (`mt.*`): its sets, deal, players and options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.rules.base import PLAYERS_MOST, phrase
from referee.rules.options import CHOICE, FLAG, RANGE, SET_HIGHEST, Choice, GameDeclaration, Option
from referee.rules.scoring import LowestTotalOptions

# mt.deal: tiles per player by set and number of players.
DEAL = {
    12: {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
    9: {2: 15, 3: 13, 4: 10},
}
BIG_SET_HAND = 11  # double-15 / double-18 with 9–12 players (mt.deal)


DOUBLE_BLANK_CHOICES = (
    Choice(50, phrase("50 (usual)")),
    Choice(25, "25"),
    Choice(0, "0"),
)

DECLARATION = GameDeclaration(
    key="mexican-train",
    prefix="mt",
    title=phrase("Mexican Train"),
    sets=(6, 9, 12, 15, 18),
    default_set=12,
    presenter="referee.presenters.mexican_train:MexicanTrainPresenter",
    players=(2, PLAYERS_MOST),
    options=(
        Option(
            "double_blank",
            CHOICE,
            50,
            "mt.score",
            phrase("Double-blank 0-0 counts"),
            phrase("What a 0-0 left in a hand scores."),
            choices=DOUBLE_BLANK_CHOICES,
        ),
        Option(
            "first_turn",
            CHOICE,
            "single",
            "mt.first-turn",
            phrase("First turn"),
            phrase("Whether the first turn is one tile or a chain on your own train."),
            choices=(
                Choice("single", phrase("One tile, like any turn")),
                Choice("build", phrase("Build: lay a chain on your own train")),
            ),
        ),
        Option(
            "doubles_order",
            CHOICE,
            "oldest",
            "mt.double.order",
            phrase("Several open doubles"),
            phrase("Which open double must be satisfied first."),
            choices=(
                Choice("oldest", phrase("Satisfy the oldest first")),
                Choice("newest", phrase("Satisfy the newest first")),
            ),
        ),
        Option(
            "tie_break",
            CHOICE,
            "share",
            "mt.winner",
            phrase("Equal lowest totals"),
            phrase("What happens when two players end with the same lowest total."),
            choices=(
                Choice("share", phrase("Share the win")),
                Choice("chicken-foot", phrase("Chicken Foot tie-break")),
            ),
        ),
        Option(
            "hand_size",
            RANGE,
            None,
            "mt.deal",
            phrase("Tiles per player (blank: the usual deal)"),
            phrase("How many tiles each player is dealt."),
            low=1,
        ),
        Option(
            "first_double",
            RANGE,
            SET_HIGHEST,
            "mt.engine",
            phrase("First round's engine (blank: the highest double)"),
            phrase("The engine of the first round: a lower one makes a shorter game."),
            low=0,
            high=SET_HIGHEST,
        ),
        Option(
            "last_double",
            RANGE,
            0,
            "mt.engine",
            phrase("Last round's engine"),
            phrase("The engine of the last round."),
            low=0,
            high=SET_HIGHEST,
        ),
        # House rules (RULES.md section 4), off by default.
        Option(
            "own_train_first",
            FLAG,
            False,
            "mt.house.own-first",
            phrase("Own train first"),
            phrase("Until your own train has a tile, you may play only on it (or on an open double)."),
            house=True,
        ),
        Option(
            "double_out",
            CHOICE,
            "allowed",
            "mt.house.double-out",
            phrase("Going out on a double"),
            phrase("Whether the last tile of a hand may be a double."),
            choices=(
                Choice("allowed", phrase("Allowed")),
                Choice("refused", phrase("Not allowed: draw or pass instead")),
            ),
            house=True,
        ),
        Option(
            "draw",
            CHOICE,
            "one",
            "mt.house.draw",
            phrase("Drawing"),
            phrase("How many tiles a player who cannot play draws."),
            choices=(
                Choice("one", phrase("Draw one tile, then pass if it does not fit")),
                Choice("until", phrase("Draw until a tile fits")),
            ),
            house=True,
        ),
        Option(
            "out_bonus",
            RANGE,
            0,
            "mt.house.out-bonus",
            phrase("Bonus for going out"),
            phrase("The player who goes out scores minus this many points for the round."),
            low=0,
            high=50,
            house=True,
        ),
        Option(
            "marker_penalty",
            RANGE,
            0,
            "mt.house.marker",
            phrase("Marker penalty"),
            phrase("Points added at the round's end for a marker left on your own train."),
            low=0,
            high=50,
            house=True,
        ),
        Option(
            "blank_half",
            CHOICE,
            0,
            "mt.house.blank-half",
            phrase("Blank halves"),
            phrase("A blank half of a tile left in hand counts 25 (0-0 counts 50)."),
            choices=(Choice(0, phrase("Count 0 (usual)")), Choice(25, phrase("Count 25 each"))),
            house=True,
        ),
        Option(
            "doubles_in_hand",
            CHOICE,
            "single",
            "mt.house.doubles",
            phrase("Doubles left in hand"),
            phrase("Whether a double left in hand counts its pips or twice its pips."),
            choices=(
                Choice("single", phrase("Count their pips (usual)")),
                Choice("double", phrase("Count twice their pips")),
            ),
            house=True,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class MexicanTrainOptions(LowestTotalOptions):
    """The options of a Mexican Train game (``DECLARATION``; ``double_blank``,
    ``first_double`` and ``last_double`` are the ones Chicken Foot has too)."""

    declaration = DECLARATION
    first_turn: Literal["single", "build"] = "single"
    doubles_order: Literal["oldest", "newest"] = "oldest"
    tie_break: Literal["share", "chicken-foot"] = "share"
    hand_size: int | None = None  # None: the usual deal (mt.deal)
    own_train_first: bool = False
    double_out: Literal["allowed", "refused"] = "allowed"
    draw: Literal["one", "until"] = "one"
    out_bonus: int = 0
    marker_penalty: int = 0
    blank_half: Literal[0, 25] = 0
    doubles_in_hand: Literal["single", "double"] = "single"


def standard_hand_size(highest: int, player_count: int) -> int | None:
    """The hand mt.players/mt.deal allow without an override, or None if they do not."""
    if highest in DEAL:
        return DEAL[highest].get(player_count)
    if highest in (15, 18) and 9 <= player_count <= 12:
        return BIG_SET_HAND
    return None


MEXICAN = "mexican"  # the `train` key of the Mexican train (mt.train)
