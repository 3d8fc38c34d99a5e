"""Kozel's round engine (`kz.*`): one line with two ends, leads, plays, draws and passes."""

from __future__ import annotations

from typing import NamedTuple

from referee.rules.base import (
    DRAW,
    END,
    LEAVE,
    PASS,
    PLAY,
    PLAYERS_MOST,
    START,
    UNDO,
    Action,
    EndReason,
    JSONValue,
    RoundEnd,
    RoundEngine,
    RoundSetup,
    RuleViolation,
    bad_request,
    phrase,
    refuse,
)
from referee.rules.kozel.declaration import SET_HIGHEST, KozelOptions, lead_order
from referee.tiles import Tile

# kz.fish: the six non-doubles of each number, which a fish needs all on the table.
_NON_DOUBLES_WITH = tuple(
    tuple(Tile(value, other) for other in range(SET_HIGHEST + 1) if other != value)
    for value in range(SET_HIGHEST + 1)
)


class Plan(NamedTuple):
    """What an accepted action does to a Kozel round: its kind (``play`` on an end, ``lead``
    the first tile, ``draw``, ``pass`` or ``start``), the player's seat and, for a play,
    the end (0 or 1) the tile joins."""

    kind: str
    seat: int
    end: int = 0


def _each_seat(kind: str, end: int = 0) -> tuple[Plan, ...]:
    return tuple(Plan(kind, seat, end) for seat in range(PLAYERS_MOST))


# Plans are immutable values, so each is made once, here, and every round reuses them.
_PLAYS = tuple(zip(_each_seat("play", 0), _each_seat("play", 1), strict=True))  # [seat][end]
_LEADS, _DRAWS, _PASSES, _STARTS = (_each_seat(kind) for kind in ("lead", "draw", "pass", "start"))


class KozelRound(RoundEngine[KozelOptions, Tile | None, Plan]):
    """One round in referee mode (see `kz.*`): a single line with two ends.

    The line is kept as its two ends only (the tile at each end and the value it shows):
    that is all the rules look at, and it keeps every action O(1). With one tile on the
    table both ends are that tile, showing its two halves.
    """

    def __init__(self, setup: RoundSetup[KozelOptions]) -> None:
        super().__init__(setup)
        self.seats = dict(zip(self.players, range(len(self.players)), strict=True))
        self.placed: set[Tile] = set()
        self.end_tiles: list[Tile] = []
        self.line: list[Tile] = []  # from the end_tiles[0] end to the end_tiles[1] end
        self.end_values: list[int] = []
        # kz.lead.next: a known leader has the turn at once; round 1 waits for the lead.
        self.leader = setup.starter if setup.number > 1 and setup.starter in self.players else None
        self.turn_index: int | None = self.seats[self.leader] if self.leader is not None else None

    # ----- queries -------------------------------------------------------------------------
    def turn(self) -> str | None:
        if self._outcome is not None or self.turn_index is None:
            return None
        return self.players[self.turn_index]

    def tiles_on_table(self) -> frozenset[Tile]:
        return frozenset(self.placed)

    def targets(self) -> list[Tile | None]:
        if self._outcome is not None:
            return []
        if not self.end_tiles:
            return [None]
        if self.end_tiles[0] == self.end_tiles[1]:
            return [self.end_tiles[0]]
        return list(self.end_tiles)

    def play_at(self, player: str | None, tile: Tile, place: Tile | None) -> Action:
        return Action(PLAY, player, tile, on=place)

    def extra_state(self) -> dict[str, JSONValue]:
        return {"ends": list[JSONValue](self.end_values), "line": [str(tile) for tile in self.line]}

    def reminders(self) -> list[dict[str, str]]:
        if self._outcome is not None:
            return []
        if not self.end_tiles:
            return [self._lead_reminder()]
        return [
            {
                "rule": "kz.must-play",
                "text": phrase(
                    "Draw or knock only without a matching tile: a player who can play "
                    "must play, and a tile drawn that fits must be played."
                ),
            }
        ]

    def _lead_reminder(self) -> dict[str, str]:
        if self.setup.number > 1:
            if self.leader:
                text = phrase(
                    "{player} went out or made the fish last round, so {player} leads, with any tile.",
                    player=self.leader,
                )
            else:
                text = phrase("The player who went out or made the fish last round leads, with any tile.")
            return {"rule": "kz.lead.next", "text": text}
        if self._boneyard == 0:
            return {
                "rule": "kz.lead.first",
                "text": phrase(
                    "Round 1: every tile is dealt, so someone holds 1-1: that player leads with it."
                ),
            }
        return {
            "rule": "kz.lead.first",
            "text": phrase(
                "Round 1: whoever holds 1-1 leads with it; if no one does, 2-2, then "
                "3-3 … 6-6, then 0-0; with no double in any hand, 5-6, then the next "
                "highest tile."
            ),
        }

    # ----- actions -------------------------------------------------------------------------
    def perform(self, action: Action, plan: Plan) -> None:
        kind, seat, end = plan
        _, player, tile, _, _ = action
        assert player is not None  # plan refuses an action without a player
        if kind == "play":  # on one end: the usual action, so it comes first
            assert tile is not None  # plan refuses a play without a tile
            low, high = tile
            values = self.end_values
            values[end] = high if values[end] == low else low
            self.end_tiles[end] = tile
            if end:
                self.line.append(tile)
            else:
                self.line.insert(0, tile)  # at most 28 tiles: an insert costs nothing
        elif kind == "pass":
            self.turn_index = (seat + 1) % len(self.players)
            return
        elif kind == "lead":
            assert tile is not None  # plan refuses a play without a tile
            self.end_tiles = [tile, tile]
            self.end_values = values = list(tile)
            self.line = [tile]
        elif kind == "draw":
            self._boneyard -= 1
            self.hands[player] += 1
            return
        else:  # start
            self.turn_index = seat
            return
        # A tile was laid (a play or the lead).
        placed = self.placed
        placed.add(tile)
        left = self.hands[player] - 1
        self.hands[player] = left
        if left == 0:
            self._outcome = RoundEnd(EndReason.DOMINO, player)  # kz.out, even when the line is also a fish
        elif values[0] == values[1] and placed.issuperset(_NON_DOUBLES_WITH[values[0]]):
            # kz.fish: both ends show one number and its six non-doubles are all on the table.
            self._outcome = RoundEnd(EndReason.FISH, player)
        else:
            self.turn_index = (seat + 1) % len(self.players)

    def plan(self, action: Action) -> Plan:
        """Validate ``action`` against the state; return what ``apply`` must do. Changes nothing."""
        kind, player, tile, _, on = action
        if kind is UNDO:
            raise refuse(None, "Undo is done by replaying the round, not by the round itself.")
        if kind is PLAY and tile is None:
            raise bad_request("A play needs 'tile', written like \"5-12\".", field="tile")
        if self._outcome is not None:
            raise self._refuse_over(self._outcome)
        index = self.seats.get(player) if isinstance(player, str) else None
        if player is None or index is None:
            raise refuse(None, "{player!r} is not a player in this game.", player=player)
        if kind is PLAY and self.end_tiles:
            assert tile is not None  # refused above
            if self.turn_index != index:
                self._check_turn(player)
            if on is not None and tile not in self.placed:  # the usual play: on a tile at an end
                first_tile, second_tile = self.end_tiles
                if on == first_tile and self.end_values[0] in tile:
                    return _PLAYS[index][0]
                if on == second_tile and self.end_values[1] in tile:
                    return _PLAYS[index][1]
            return _PLAYS[index][self._choose_end(tile, on)]
        if kind is START:
            return self._plan_start(player, index)
        if kind is LEAVE:
            raise refuse(
                "kz.rating.left",
                "Leaving ends the whole game, not a move in the round: send it to the game, not the round.",
            )
        if kind is END:
            raise refuse(
                "kz.bazaar",
                "Kozel has no 'end' action: each turn is one tile, and "
                "a player with nothing to play draws from the bazaar, "
                "or knocks (pass) once it is empty.",
            )
        if kind is not PLAY and kind is not DRAW and kind is not PASS:
            raise refuse(None, "A {action!r} action does not exist in Kozel.", action=kind)
        if not self.end_tiles:
            return self._plan_lead(action, index)
        if self.turn_index != index:
            self._check_turn(player)
        if kind is DRAW:
            if self._boneyard == 0:
                raise refuse(
                    "kz.bazaar",
                    "The bazaar is empty: with no matching tile, knock (pass) instead of drawing.",
                )
            return _DRAWS[index]
        if self._boneyard == 1:
            raise refuse(
                "kz.bazaar",
                "The bazaar still has 1 tile: draw one at a time "
                "until a tile fits; knock only once it is empty.",
            )
        if self._boneyard > 1:
            raise refuse(
                "kz.bazaar",
                "The bazaar still has {count} tiles: draw one at a time "
                "until a tile fits; knock only once it is empty.",
                count=self._boneyard,
            )
        return _PASSES[index]

    def _refuse_over(self, outcome: RoundEnd) -> RuleViolation:
        if outcome.reason == "domino":
            return refuse(
                "kz.out",
                "The round is over ({player} went out): enter the hands left.",
                player=outcome.player,
            )
        return refuse(
            "kz.fish",
            "The round is over ({player} made the fish): enter the hands left.",
            player=outcome.player,
        )

    def _plan_start(self, player: str, index: int) -> Plan:
        rule = "kz.lead.first" if self.setup.number == 1 else "kz.lead.next"
        if self.end_tiles:
            raise refuse(
                rule,
                "The lead is already on the table: {on_turn} is to play, there is no start to name now.",
                on_turn=self.turn(),
            )
        if self.leader is not None and player != self.leader:
            raise refuse(
                "kz.lead.next",
                "{leader} went out or made the fish last round, so {leader} leads, not {player}.",
                leader=self.leader,
                player=player,
            )
        return _STARTS[index]

    def _plan_lead(self, action: Action, index: int) -> Plan:
        player, tile = action.player, action.tile
        assert player is not None  # plan checked it is a player of the round
        if action.type is DRAW or action.type is PASS:
            if action.type is DRAW:
                raise refuse(
                    "kz.bazaar",
                    "The line is empty and any tile can lead, so there is "
                    "no reason to draw from the bazaar: lead a tile.",
                )
            raise refuse(
                "kz.bazaar",
                "The line is empty and any tile can lead, so there is no reason to knock: lead a tile.",
            )
        if self.leader is not None and player != self.leader:
            raise refuse(
                "kz.lead.next",
                "{leader} went out or made the fish last round, so {leader} leads, not {player}.",
                leader=self.leader,
                player=player,
            )
        self._check_turn(player)
        if tile is None:
            raise bad_request("A play needs 'tile', written like \"5-12\".", field="tile")
        self._check_unique(tile)
        if action.on is not None:
            raise refuse(
                "kz.match",
                "The table is empty: {tile} is the lead and joins nothing, so it takes no 'on'.",
                tile=str(action.tile),
            )
        if self.setup.number == 1:
            self._check_first_lead(tile)
        return _LEADS[index]

    def _check_first_lead(self, tile: Tile) -> None:
        """kz.lead.first, as far as public information decides it: a lead is impossible when
        more tiles come before it in the lead order than the bazaar can hide (with 4 players
        every tile is dealt, so 1-1 must lead)."""
        ahead = lead_order().index(tile)
        if ahead > self._boneyard:
            first = lead_order()[0]
            if self._boneyard == 0:
                raise refuse(
                    "kz.lead.first",
                    "{tile} cannot lead round 1: every tile is dealt, so "
                    "someone holds {first} and leads with it.",
                    tile=str(tile),
                    first=str(first),
                )
            raise refuse(
                "kz.lead.first",
                "{tile} cannot lead round 1: only {bazaar} tiles are in "
                "the bazaar, so one of the {ahead} tiles before {tile} in "
                "the lead order is in a hand and leads instead.",
                tile=str(tile),
                bazaar=self._boneyard,
                ahead=ahead,
            )

    def _check_turn(self, player: str) -> None:
        if self.turn_index is not None and self.players[self.turn_index] != player:
            raise self.refuse_turn(self.players[self.turn_index], player)

    def _check_unique(self, tile: Tile) -> None:
        if tile in self.placed:
            raise refuse("unique", "{tile} is already on the table: each tile exists once.", tile=str(tile))

    def _describe_ends(self) -> str:
        first, second = self.end_tiles
        if first == second:
            return phrase(
                "the line is just {tile}, showing {first} and {second}",
                tile=str(first),
                first=self.end_values[0],
                second=self.end_values[1],
            )
        return phrase(
            "the ends are {first} (on {first_tile}) and {second} (on {second_tile})",
            first=self.end_values[0],
            first_tile=str(first),
            second=self.end_values[1],
            second_tile=str(second),
        )

    def _choose_end(self, tile: Tile, on: Tile | None) -> int:
        """Which end (0 or 1) ``tile`` joins (played ``on`` a tile or not), or the kz.match refusal."""
        if tile in self.placed:
            self._check_unique(tile)
        first_value, second_value = self.end_values
        first_fits = first_value in tile  # a tile is the pair of its halves
        second_fits = second_value in tile
        if on is not None:
            first_tile, second_tile = self.end_tiles
            if on == first_tile and first_fits:
                return 0
            if on == second_tile and second_fits:
                return 1
            raise self._wrong_end(tile, on)
        if first_fits:
            if second_fits and self.end_tiles[0] != self.end_tiles[1]:
                raise refuse(
                    "kz.match",
                    "{tile} fits both ends ({first} and {second}): say which one with 'on'.",
                    tile=str(tile),
                    first=str(self.end_tiles[0]),
                    second=str(self.end_tiles[1]),
                )
            return 0
        if second_fits:
            return 1
        raise refuse(
            "kz.match", "{tile} matches neither end: {ends}.", tile=str(tile), ends=self._describe_ends()
        )

    def _wrong_end(self, tile: Tile, on: Tile) -> Exception:
        """The kz.match refusal of ``tile`` played ``on`` a tile it cannot join."""
        ends = [end for end in (0, 1) if self.end_tiles[end] == on]
        if not ends:
            if on in self.placed:
                return refuse(
                    "kz.match",
                    "{on} is not at an end of the line: {ends}.",
                    on=str(on),
                    ends=self._describe_ends(),
                )
            return refuse(
                "kz.match", "{on} is not on the table: {ends}.", on=str(on), ends=self._describe_ends()
            )
        shown = " or ".join(str(self.end_values[end]) for end in ends)
        return refuse(
            "kz.match",
            "{tile} does not match the {shown} shown by {on}: {ends}.",
            tile=str(tile),
            shown=shown,
            on=str(on),
            ends=self._describe_ends(),
        )
