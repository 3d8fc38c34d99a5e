"""The checks of a hand's tiles that the hands entry and the photo reading share: a tile
outside the set, on the table or twice, a count the log disagrees with; and what the
referee says of one hand (``HandCheck``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.rules.base import RuleViolation, refuse
from referee.rules.refusals import Phrase, plural_phrase
from referee.tiles import Tile

HANDS_SHAPE = '{"hands": {"<player>": [tiles] or points, …}}'


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The referee's view of one hand that is not booked (a photo read, a hand sent)."""

    points: int  # by the game's own hand scoring
    warnings: tuple[tuple[Tile | None, RuleViolation], ...]  # the tile (None: the whole hand), why
    tracked: int | None  # the hand's size by the log, when the referee followed the round


def tile_problem(
    tile: Tile,
    player: str | None,
    on_table: frozenset[Tile],
    seen: Mapping[Tile, str | None],
    highest: int,
) -> RuleViolation | None:
    """Why ``tile`` cannot be in ``player``'s hand (outside the set, on the table, already
    in a hand: ``seen`` maps the tiles counted so far to their hand), or None.
    ``player`` is None for a hand nobody is named for yet (a photo)."""
    if not tile.in_set(highest):
        if player is None:
            return refuse(
                "tiles", "There is no {tile} in a double-{highest} set.", tile=tile, highest=highest
            )
        return refuse(
            "tiles",
            "There is no {tile} in a double-{highest} set ({player}'s hand).",
            tile=tile,
            highest=highest,
            player=player,
        )
    if tile in on_table:
        if player is None:
            return refuse("unique", "{tile} is already on the table, so it cannot be in a hand.", tile=tile)
        return refuse(
            "unique",
            "{tile} is already on the table, so it cannot be in {player}'s hand.",
            tile=tile,
            player=player,
        )
    if tile in seen:
        other = seen[tile]
        if other == player and player is None:
            return refuse("unique", "{tile} is read twice: each tile exists once.", tile=tile)
        if other == player:
            return refuse(
                "unique",
                "{tile} is entered twice in {player}'s hand: each tile exists once.",
                tile=tile,
                player=player,
            )
        if player is None:
            return refuse(
                "unique",
                "{tile} is also in {other}'s hand: each tile exists once.",
                tile=tile,
                other=other,
            )
        return refuse(
            "unique",
            "{tile} is entered in both {other}'s and {player}'s hands: each tile exists once.",
            tile=tile,
            other=other,
            player=player,
        )
    return None


def held_tiles(count: int) -> Phrase:
    """ "15 tiles", "1 tile": what a hand holds by the log."""
    return plural_phrase("{count} tile", "{count} tiles", count, count=count)


def entered_tiles(count: int) -> Phrase:
    """ "3 were entered", "1 was entered": the tiles entered for a hand."""
    return plural_phrase("{count} was entered", "{count} were entered", count, count=count)


def size_problem(player: str, count: int, sizes: Mapping[str, int]) -> RuleViolation | None:
    """The refusal when ``count`` tiles disagree with the hand the referee tracked."""
    if player in sizes and count != sizes[player]:
        return refuse(
            "hidden",
            "{player} holds {tiles} by the log, but {entered}.",
            player=player,
            tiles=held_tiles(sizes[player]),
            entered=entered_tiles(count),
        )
    return None
