"""Scoring shared by the games whose lowest total wins (Mexican Train, Chicken Foot)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from referee.rules.base import GameResult, GameRules, RoundRecord, Standing, placings_by
from referee.rules.options import GameOptions
from referee.rules.refusals import Phrase, bad_request, phrase
from referee.tiles import Tile


def summed_totals(players: tuple[str, ...], rounds: list[RoundRecord]) -> dict[str, int]:
    totals = {name: 0 for name in players}
    for record in rounds:
        for name, points in record.points.items():
            totals[name] += points
    return totals


def lowest_total_winners(
    players: tuple[str, ...], rounds: list[RoundRecord], tie_break: str
) -> tuple[list[str], Phrase | None]:
    """Winners by lowest total (`mt.winner`), with the `cf.tie` tie-break when asked.

    Returns the winners and, when the tie-break decided, a sentence saying how.
    """
    totals = summed_totals(players, rounds)
    best = min(totals.values())
    tied = [name for name in players if totals[name] == best]
    if len(tied) == 1 or tie_break != "chicken-foot":
        return tied, None
    zeros = {name: sum(1 for r in rounds if r.points[name] == 0) for name in tied}
    most = max(zeros.values())
    tied2 = [name for name in tied if zeros[name] == most]
    if len(tied2) == 1:
        if most == 1:
            return tied2, phrase(
                "{name} wins the tie on {points} points with one zero-point round (cf.tie).",
                name=tied2[0],
                points=best,
            )
        return tied2, phrase(
            "{name} wins the tie on {points} points with {count} zero-point rounds (cf.tie).",
            name=tied2[0],
            points=best,
            count=most,
        )
    lowest = {
        name: min((r.points[name] for r in rounds if r.points[name] > 0), default=None) for name in tied2
    }
    known = [v for v in lowest.values() if v is not None]
    if not known:
        return tied2, None
    smallest = min(known)
    tied3 = [name for name in tied2 if lowest[name] == smallest]
    if len(tied3) == 1:
        return tied3, phrase(
            "{name} wins the tie on {points} points: equal zero-point rounds, "
            "and the smallest non-zero round score ({smallest}) (cf.tie).",
            name=tied3[0],
            points=best,
            smallest=smallest,
        )
    return tied3, None


def lowest_total_standing(
    players: tuple[str, ...], rounds: list[RoundRecord], round_count: int, tie_break: str
) -> Standing:
    """The standing of a game whose lowest total wins (mt.winner, cf.score): once every round
    is booked, the winners (after any tie-break) are 1st and the others follow by total."""
    totals = summed_totals(players, rounds)
    if len(rounds) < round_count:
        return Standing(totals=totals)
    winners, how = lowest_total_winners(players, rounds, tie_break)
    rest = [name for name in players if name not in winners]
    placings = (tuple(winners), *placings_by(rest, totals))
    return Standing(
        totals=totals, result=GameResult(placings=placings, winners=tuple(winners), tie_break=how)
    )


@dataclass(frozen=True, slots=True)
class LowestTotalOptions(GameOptions):
    """The options Mexican Train and Chicken Foot share (each game declares them)."""

    double_blank: Literal[50, 25, 0] = 50  # mt.score, cf.score
    first_double: int | None = None  # mt.engine, cf.house.rounds (None: the set's highest)
    last_double: int = 0


LowestOptionsT = TypeVar("LowestOptionsT", bound=LowestTotalOptions)


class LowestTotalGame(GameRules[LowestOptionsT]):
    """What Mexican Train and Chicken Foot share: one round per double from ``first_double``
    down to ``last_double`` (`mt.engine`, `cf.house.rounds`), hands scored with the
    double-blank option (`mt.score`, `cf.score`), and the lowest total wins."""

    @classmethod
    def check_options(cls, raw: Mapping[str, object], options: LowestOptionsT, highest: int) -> None:
        if options.last_double > cls.first_double(highest, options):
            raise bad_request("'last_double' must not be higher than 'first_double'.", field="last_double")

    @classmethod
    def first_double(cls, highest: int, options: LowestOptionsT) -> int:
        return highest if options.first_double is None else options.first_double

    @classmethod
    def round_count(cls, highest: int, options: LowestOptionsT) -> int:
        return cls.first_double(highest, options) - options.last_double + 1

    @classmethod
    def round_double(cls, number: int, highest: int, options: LowestOptionsT) -> Tile:
        value = cls.first_double(highest, options) - (number - 1)
        return Tile(value, value)

    @classmethod
    def tie_break(cls, options: LowestOptionsT) -> str:
        """How equal lowest totals are settled: ``share`` or ``chicken-foot`` (`cf.tie`)."""
        raise NotImplementedError

    @classmethod
    def standing(
        cls,
        players: tuple[str, ...],
        highest: int,
        options: LowestOptionsT,
        rounds: list[RoundRecord],
        left: str | None = None,
    ) -> Standing:
        return lowest_total_standing(
            players, rounds, cls.round_count(highest, options), cls.tie_break(options)
        )

    @classmethod
    def zero_note(cls, options: LowestOptionsT) -> tuple[str, Phrase]:
        return f"{cls.prefix}.score", phrase("Double-blank 0-0 counts {points}.", points=options.double_blank)
