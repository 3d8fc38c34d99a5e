"""Kozel, "Goat" (`kz.*`): table set-up, its own scoring, and the round engine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

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
    BadRequest,
    EndReason,
    GameResult,
    GameRules,
    JSONValue,
    LedgerRow,
    Phrase,
    RoundEnd,
    RoundEngine,
    RoundRecord,
    RoundSetup,
    RuleViolation,
    Standing,
    StandingDetail,
    StateData,
    Team,
    bad_request,
    phrase,
    placings_by,
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


_NON_DOUBLES_WITH = tuple(
    tuple(Tile(value, other) for other in range(SET_HIGHEST + 1) if other != value)
    for value in range(SET_HIGHEST + 1)
)


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


class Kozel(GameRules[KozelOptions]):
    declaration = DECLARATION
    Options = KozelOptions
    leaving = True  # kz.rating.left
    Round = KozelRound
    out_rule = "kz.out"
    zero_is_out = True  # kz.score.zero: a lone 0-0 counts 10 or 25, so only an empty hand is 0
    rated = True  # kz.goat, kz.rating
    round_double_name = ""  # a round's lead is any tile, not a double it grows from (kz.lead.next)

    @classmethod
    def pad_round_end(cls, empty: str | None) -> RoundEnd:
        """kz.out / kz.fish: a round nobody went out of ended in a fish."""
        return RoundEnd(EndReason.DOMINO, empty) if empty else RoundEnd(EndReason.FISH, None)

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: KozelOptions) -> None:
        if highest != 6:
            raise refuse(
                "kz.players",
                "Kozel is played with a double-6 set only, not double-{highest}.",
                highest=highest,
            )
        if not 2 <= len(players) <= 4:
            raise refuse("kz.players", "Kozel is for 2–4 players, not {count}.", count=len(players))
        if options.teams and len(players) != 4:
            raise refuse(
                "kz.teams",
                "Kozel in teams is for exactly 4 players (two pairs of partners), not {count}.",
                count=len(players),
            )

    @classmethod
    def round_count(cls, highest: int, options: KozelOptions) -> None:
        return None

    @classmethod
    def round_double(cls, number: int, highest: int, options: KozelOptions) -> None:
        return None

    @classmethod
    def round_setup(
        cls,
        number: int,
        players: tuple[str, ...],
        highest: int,
        options: KozelOptions,
        finished: list[RoundRecord],
    ) -> RoundSetup[KozelOptions]:
        # kz.lead.next: whoever went out or made the fish leads; unknown in round 1.
        leader = None
        if finished:
            last = finished[-1]
            leader = last.end.player if last.end.reason in ("domino", "fish", "table") else None
        return RoundSetup(
            players=players,
            highest=highest,
            options=options,
            number=number,
            double=None,
            starter=leader,
            hand_size=HAND_SIZE,
        )

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: KozelOptions) -> int:
        tiles = list(tiles)
        if tiles == [Tile(0, 0)]:
            return int(options.zero_zero)  # kz.score.zero
        return sum(tile.pips for tile in tiles)

    @classmethod
    def standing(
        cls,
        players: tuple[str, ...],
        highest: int,
        options: KozelOptions,
        rounds: list[RoundRecord],
        left: str | None = None,
    ) -> Standing:
        return book_game(players, options, rounds, left)

    @classmethod
    def leaders(cls, standing: Standing) -> list[str]:
        """Kozel has no leader: remembered points are not booked, so its standings show
        them instead (kz.score.display)."""
        return []

    @classmethod
    def zero_note(cls, options: KozelOptions) -> tuple[str, Phrase]:
        return "kz.score.zero", phrase("A lone 0-0 counts {points}.", points=options.zero_zero)

    @classmethod
    def rules_in_force(cls, options: KozelOptions) -> list[str]:
        fish: str = (
            phrase("Fish scoring: fish for all (kz.fish.all).")
            if options.fish == "all"
            else phrase("Fish scoring: fish to one (kz.fish.one).")
        )
        return [
            fish,
            phrase("A lone 0-0 counts {points} (kz.score.zero).", points=options.zero_zero),
            phrase("The goat is the first to {points} (kz.goat).", points=options.lose_at),
        ] + (
            [phrase("Played in teams: partners sit opposite and share one account (kz.teams).")]
            if options.teams
            else []
        )


def half_up(numerator: int, denominator: int = 10) -> int:
    """``numerator / denominator`` rounded half up (7.5 → 8, 2.5 → 3; not banker's rounding)."""
    return (2 * numerator + denominator) // (2 * denominator)


def rating_points(own: int, reference: int = RATING_BASE) -> int:
    """kz.rating / kz.rating.left: ``(reference − own) / 10``, rounded half up, at least 1."""
    return max(1, half_up(reference - own))


def teams_of(players: tuple[str, ...], options: KozelOptions) -> tuple[tuple[str, ...], ...]:
    """kz.teams: partners sit opposite (1st and 3rd against 2nd and 4th); else each player
    is a side of their own."""
    if options.teams and len(players) == 4:
        return ((players[0], players[2]), (players[1], players[3]))
    return tuple((name,) for name in players)


def _single_highest_side(scores: list[int]) -> int | None:
    top = max(scores)
    leaders = [index for index, score in enumerate(scores) if score == top]
    return leaders[0] if len(leaders) == 1 else None


def _rated_placings(
    players: tuple[str, ...], rating: dict[str, int], totals: dict[str, int]
) -> tuple[tuple[str, ...], ...]:
    """The rated players' places: most rating points first, then the lower account."""
    rated = [name for name in players if name in rating]
    return placings_by(rated, {name: (-rating[name], totals[name]) for name in rated})


def book_game(
    players: tuple[str, ...], options: KozelOptions, rounds: list[RoundRecord], left: str | None = None
) -> Standing:
    """The booked Kozel game (kz.score.*, kz.fish.*, kz.goat, kz.rating*, kz.teams) from its rounds.

    Each round's ``points`` are the hand points (kz.score.hand, kz.score.zero applied).
    The account is kept per side: a player, or with kz.teams a team of two partners, whose
    score is the sum of its hands (0 for the side of the player who went out).
    A round's "round score" is what goes through kz.score.remember / kz.score.open: the
    side's hand points, except in a fish to one (the taker scores every hand, the others 0)
    and for the taker of a pot (its hand plus the pot) — both booked by the usual rule.
    """
    sides = teams_of(players, options)
    side_of = {name: index for index, side in enumerate(sides) for name in side}
    count = len(sides)
    account = [0] * count
    is_open = [False] * count
    remembered = [0] * count
    pot = 0
    ledger: list[LedgerRow] = []
    goats: list[int] = []
    for record in rounds:
        if goats:
            break  # kz.goat: the game ended with the goat; later rounds are not booked
        hands = {name: int(record.points.get(name, 0)) for name in players}
        went_out = record.went_out()
        if went_out not in side_of:
            went_out = None  # no empty hand: kozel reads the round as a fish
        fish = went_out is None
        out_side = side_of[went_out] if went_out is not None else None
        side_hands = [
            0 if index == out_side else sum(hands[name] for name in side) for index, side in enumerate(sides)
        ]
        shown_before = [account[i] if is_open[i] else remembered[i] for i in range(count)]
        scores = list(side_hands)
        resets: set[int] = set()
        pot_taker: int | None = None
        drawn = False
        if fish and options.fish == "one":
            taker = _single_highest_side(side_hands)
            scores = [0] * count
            if taker is None:
                drawn = True  # kz.fish.pot: nobody books; the hands go to the pot
                pot += sum(side_hands)
            else:
                scores[taker] = sum(side_hands)
                resets = set(range(count)) - {taker}  # kz.fish.one
        else:
            if out_side is not None:
                resets = {out_side}  # kz.score.reset
            taker = _single_highest_side(side_hands) if pot else None
        if pot and not drawn and taker is not None:
            pot_taker = taker
            scores[taker] += pot
            pot = 0
        for index in range(count):
            if index in resets:
                remembered[index] = 0
            if drawn:
                continue
            score = scores[index]
            if is_open[index]:
                account[index] += score
            elif score > OPEN_AT:  # kz.score.open
                is_open[index] = True
                account[index] += remembered[index] + score
                remembered[index] = 0
            else:  # kz.score.remember
                remembered[index] += score
        row: LedgerRow = {
            "number": record.number,
            "fish": fish,
            "pot": pot,
            "players": {
                name: {
                    "before": shown_before[side_of[name]],
                    "hand": hands[name],
                    "points": scores[side_of[name]],
                    "after": account[side_of[name]] if is_open[side_of[name]] else remembered[side_of[name]],
                    "open": is_open[side_of[name]],
                    "remembered": remembered[side_of[name]],
                    "took_pot": side_of[name] == pot_taker,
                }
                for name in players
            },
        }
        if options.teams:
            row["team_points"] = list(scores)
        ledger.append(row)
        reached = [index for index in range(count) if account[index] >= options.lose_at]
        if reached:
            worst = max(account[index] for index in reached)
            goats = [index for index in reached if account[index] == worst]
    totals = {name: account[side_of[name]] for name in players}
    book = KozelBook(
        remembered={name: remembered[side_of[name]] for name in players},
        open={name: is_open[side_of[name]] for name in players},
        goat_at=options.lose_at,
        pot=pot,
        ledger=tuple(ledger),
        teams=tuple(
            Team(side, account[index], remembered[index], is_open[index]) for index, side in enumerate(sides)
        )
        if options.teams
        else (),
    )
    result: GameResult | None = None
    if goats:
        goat_names = tuple(name for name in players if side_of[name] in goats)
        rating = {name: rating_points(totals[name]) for name in players if name not in goat_names}
        result = GameResult(
            placings=_rated_placings(players, rating, totals) + (goat_names,),
            goats=goat_names,
            rating=rating,
        )
    elif left is not None and left in side_of:
        leavers = sides[side_of[left]]
        rating = {name: rating_points(totals[name], totals[left]) for name in players if name not in leavers}
        result = GameResult(
            placings=_rated_placings(players, rating, totals) + (leavers,),
            rating=rating,
            left=left,
        )
    return Standing(totals=totals, result=result, detail=book)
