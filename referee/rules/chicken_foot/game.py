"""Chicken Foot's game-level rules (`cf.*`): table checks, hand sizes and scoring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee.rules.base import RoundEnd, RoundFacts, RoundRecord, RoundSetup, face_points, phrase, refuse
from referee.rules.chicken_foot.declaration import DECLARATION, ChickenFootOptions
from referee.rules.chicken_foot.engine import ChickenFootRound
from referee.rules.scoring import LowestTotalGame
from referee.tiles import Tile, set_size


class ChickenFoot(LowestTotalGame[ChickenFootOptions]):
    declaration = DECLARATION
    Options = ChickenFootOptions
    Round = ChickenFootRound
    out_rule = "cf.end"
    last_tile_rule = "cf.end"

    @classmethod
    def tie_break(cls, options: ChickenFootOptions) -> str:
        return "chicken-foot"  # cf.tie

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: ChickenFootOptions) -> None:
        if highest not in cls.sets:
            raise refuse(
                "cf.players",
                "Chicken Foot is played with a double-9, -12, -15 or -18 set, not double-{highest}.",
                highest=highest,
            )
        if len(players) < 2:
            raise refuse("cf.players", "Chicken Foot needs at least 2 players.")
        needed = len(players) * options.hand_size
        if needed > set_size(highest):
            raise refuse(
                "cf.players",
                "{count} hands of {hand} need {needed} tiles, but a "
                "double-{highest} set has only {size}: choose a bigger set.",
                count=len(players),
                hand=options.hand_size,
                needed=needed,
                highest=highest,
                size=set_size(highest),
            )

    @classmethod
    def round_setup(
        cls,
        number: int,
        players: tuple[str, ...],
        highest: int,
        options: ChickenFootOptions,
        finished: list[RoundRecord],
    ) -> RoundSetup[ChickenFootOptions]:
        # cf.start: whoever holds the round's double starts; the referee learns it from the play.
        return RoundSetup(
            players=players,
            highest=highest,
            options=options,
            number=number,
            double=cls.round_double(number, highest, options),
            starter=None,
            hand_size=options.hand_size,
        )

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: ChickenFootOptions) -> int:
        return face_points(tiles, options.double_blank)

    @classmethod
    def round_points(
        cls, points: Mapping[str, int], end: RoundEnd, facts: RoundFacts, options: ChickenFootOptions
    ) -> dict[str, int]:
        result = dict(points)
        out_penalty = options.double_out_penalty  # cf.house.double-out
        if out_penalty and end.reason == "domino" and end.player in result and facts.get("out_on_double"):
            result[end.player] = out_penalty
        foot_penalty = options.open_foot_penalty  # cf.house.foot
        if foot_penalty:
            for name in facts.get("open_feet", ()):
                result[name] += foot_penalty
        return result

    @classmethod
    def rules_in_force(cls, options: ChickenFootOptions) -> list[str]:
        return [
            phrase("Double-blank 0-0 counts {points} (cf.score).", points=options.double_blank),
            phrase(
                "The spinner has {arms} arms (cf.spinner); {hand} tiles each.",
                arms=options.arms,
                hand=options.hand_size,
            ),
            phrase(
                "Equal lowest totals: more zero-point rounds wins, then the smallest non-zero round (cf.tie)."
            ),
        ]
