"""Mexican Train's round engine (`mt.*`): the trains, the doubles left open, turns and plays."""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules.base import (
    DRAW,
    END,
    LEAVE,
    PASS,
    PLAY,
    START,
    UNDO,
    Action,
    EndReason,
    JSONValue,
    RoundEnd,
    RoundEngine,
    RoundFacts,
    RoundSetup,
    phrase,
    refuse,
)
from referee.rules.mexican_train.declaration import MEXICAN, MexicanTrainOptions
from referee.tiles import Tile


@dataclass
class Train:
    """One train growing from the engine: its tiles (engine outwards), open end and marker."""

    owner: str | None  # None for the Mexican train
    tiles: list[Tile]
    open_end: int
    marker: bool = False


@dataclass(frozen=True, slots=True)
class UncoveredDouble:
    """A double at the open end of a train (mt.double.open), with when it was played."""

    train: str
    tile: Tile
    order: int  # position among all doubles played this round (mt.double.order)
    turn: int  # number of the turn it was played in
    first_turn: bool  # ends a first-turn train with first_turn = build (mt.first-turn.double)


class MexicanTrainRound(RoundEngine[MexicanTrainOptions, str, None]):
    """One round in referee mode (see `mt.*`).

    The engine sees only what is logged (plays, draws, passes), so it tracks hand sizes and
    the boneyard, never hand contents. Turns are counted from 0; with ``first_turn = build``
    the first ``len(players)`` turns are the players' first turns.
    """

    former_names = {"_players": "players", "_hands": "hands"}

    def __init__(self, setup: RoundSetup[MexicanTrainOptions]) -> None:
        super().__init__(setup)
        highest, options = setup.highest, setup.options
        self._engine = setup.double if setup.double is not None else Tile(highest, highest)
        self._build = options.first_turn == "build"
        self._newest_first = options.doubles_order == "newest"
        self._own_first = options.own_train_first  # mt.house.own-first
        self._no_double_out = options.double_out == "refused"  # mt.house.double-out
        self._draw_until = options.draw == "until"  # mt.house.draw
        self._trains: dict[str, Train] = {name: Train(name, [], self._engine.high) for name in self.players}
        self._trains[MEXICAN] = Train(None, [], self._engine.high)
        # mt.deal / hidden: the engine is set aside before the deal.
        self._boneyard = max(0, self._boneyard - 1)
        self._table: set[Tile] = {self._engine}
        # How many tiles carrying each value are on the table: makes mt.double.dead O(1).
        self._on_table_with = [0] * (highest + 1)
        self._on_table_with[self._engine.high] = 1
        starter = setup.starter if setup.starter in self.players else self.players[0]
        self._turn_index = self.players.index(starter)
        self._turn_number = 0
        self._begun = False  # a play, draw, pass or end was accepted (mt.start)
        self._drawn = False  # drew since the turn began or the last double in it
        self._laid = 0  # tiles laid in the current turn
        self._turn_doubles = 0  # doubles laid in the current turn (mt.double.follow)
        self._follow_up_owed = False  # the player on turn laid a double and plays again
        self._uncovered: list[UncoveredDouble] = []  # in the order they were played
        self._doubles_played = 0
        self._passes_in_a_row = 0  # mt.end.blocked
        self._one_tile_done: str | None = None  # who just ended a turn with a tile (mt.one-tile)

    # ----------------------------------------------------------------- queries

    def turn(self) -> str | None:
        return None if self._outcome else self.players[self._turn_index]

    def tiles_on_table(self) -> frozenset[Tile]:
        return frozenset(self._table)

    def targets(self) -> list[str]:
        return list(self._trains)

    def play_at(self, player: str | None, tile: Tile, place: str) -> Action:
        return Action(PLAY, player, tile, train=place)

    def may_fit(self, tile: Tile, place: str) -> bool:
        """mt.match: a tile joins a train only with the train's open number."""
        train = self._trains.get(place)
        return train is None or tile.has(train.open_end)

    def in_first_turn(self) -> bool:
        """True while the player on turn builds their first train (first_turn = build)."""
        return self._build and self._turn_number < len(self.players)

    def open_doubles(self) -> list[UncoveredDouble]:
        """Every uncovered double that restricts play, in the order they must be satisfied:
        dead ones (mt.double.dead) and first-turn ones still waiting
        (mt.first-turn.double) are left out."""
        live = [
            double
            for double in self._uncovered
            if not self._is_dead(double.tile) and not self._waits_for_first_turns(double)
        ]
        if self._newest_first:
            live.reverse()
        return live

    def extra_state(self) -> dict[str, JSONValue]:
        return {
            "trains": {
                key: {
                    "tiles": [str(tile) for tile in train.tiles],
                    "open": train.open_end,
                    "marker": train.marker,
                }
                for key, train in self._trains.items()
            },
            "open_doubles": [str(double.tile) for double in self.open_doubles()],
        }

    def round_facts(self) -> RoundFacts:
        """What the house rules score from the table: whose own train carries a marker
        (`mt.house.marker`)."""
        return {"markers": [name for name in self.players if self._trains[name].marker]}

    def reminders(self) -> list[dict[str, str]]:
        notes = [
            {
                "rule": "mt.last-tile",
                "text": phrase(
                    "{player} has one tile left and must announce it (tap it on the table).", player=name
                ),
            }
            for name in self.players
            if self.hands[name] == 1
        ]
        if self._outcome is None:
            player = self.players[self._turn_index]
            required = self._requirement()
            if self.in_first_turn():
                text = phrase(
                    "{player}: lay every tile you can on your own train, then end the "
                    "turn; draw only if you cannot start it.",
                    player=player,
                )
            elif required is not None:
                text = phrase(
                    "{player} must play on the {double} on {train} if a tile in the hand fits it.",
                    player=player,
                    double=str(required[0].tile),
                    train=self._train_label(required[0].train),
                )
            else:
                text = phrase(
                    "{player} must play a tile that fits an available train; drawing or "
                    "passing is only for a hand with no such tile.",
                    player=player,
                )
            notes.append({"rule": "mt.must-play", "text": text})
        return notes

    # ----------------------------------------------------------------- actions

    def plan(self, action: Action) -> None:
        if action.type is START:
            self._check_start(action)
            return
        if action.type is LEAVE or action.type is UNDO:
            raise refuse(None, "'{action}' is not an action of a Mexican Train round.", action=action.type)
        self._check_not_over()
        player = self._check_player(action.player)
        if action.type is PLAY:
            self._check_play(action)
        elif action.type is DRAW:
            self._check_draw(player)
        elif action.type is PASS:
            self._check_pass(player)
        elif action.type is END:
            self._check_end(player)
        else:
            raise refuse(None, "'{action}' is not an action of a Mexican Train round.", action=action.type)

    def perform(self, action: Action, plan: None) -> None:
        player = self._check_player(action.player)
        if action.type is START:
            self._turn_index = self.players.index(player)
            return
        self._begun = True
        self._one_tile_done = None
        if action.type is PLAY:
            assert action.tile is not None and action.train is not None  # checked
            self._apply_play(player, action.tile, action.train)
        elif action.type is DRAW:
            self._boneyard -= 1
            self.hands[player] += 1
            self._drawn = True
        elif action.type is PASS:
            self._trains[player].marker = True  # mt.marker.place
            self._passes_in_a_row += 1
            self._end_turn()
            if self._passes_in_a_row >= len(self.players) and self._boneyard == 0:
                self._outcome = RoundEnd(EndReason.BLOCKED, None)
        elif action.type is END:
            self._end_turn()

    # ----------------------------------------------------------------- checks

    def _check_start(self, action: Action) -> None:
        self._check_not_over()
        self._check_player(action.player)
        if self._begun:
            raise refuse("mt.start", "The round has already begun: the starting player can no longer change.")

    def _check_not_over(self) -> None:
        if self._outcome is None:
            return
        if self._outcome.reason == "domino":
            raise refuse(
                "mt.end.domino",
                "The round is over: {player} went out. Enter the hands left.",
                player=self._outcome.player,
            )
        raise refuse("mt.end.blocked", "The round is over, blocked: enter the hands left.")

    def _check_player(self, player: str | None) -> str:
        if player is None or player not in self.hands:
            raise refuse(None, "{player!r} is not playing in this game.", player=player)
        return player

    def _check_turn(self, player: str, kind: str) -> None:
        on_turn = self.players[self._turn_index]
        if player == on_turn:
            return
        if kind == "play" and player == self._one_tile_done:
            raise refuse(
                "mt.one-tile",
                "{player} has already laid a tile this turn: it is {on_turn}'s turn now.",
                player=player,
                on_turn=on_turn,
            )
        raise self.refuse_turn(on_turn, player)

    def _check_play(self, action: Action) -> None:
        player, tile, key = self._check_player(action.player), action.tile, action.train
        self._check_turn(player, "play")
        if tile is None:
            raise refuse("tiles", 'Say which tile is played, written like "5-12".')
        if not tile.in_set(self.setup.highest):
            raise refuse(
                "tiles",
                "There is no {tile} in a double-{highest} set.",
                tile=str(tile),
                highest=self.setup.highest,
            )
        if key is None or key not in self._trains:
            raise refuse(
                "mt.train", 'There is no train {train!r}: name a player\'s train or "mexican".', train=key
            )
        if tile in self._table:
            if tile == self._engine:
                raise refuse(
                    "unique", "The {tile} cannot be played: it is the engine in the hub.", tile=str(tile)
                )
            raise refuse("unique", "The {tile} cannot be played: it is already on the table.", tile=str(tile))
        train = self._trains[key]
        if self.in_first_turn():
            if key != player:
                raise refuse(
                    "mt.first-turn",
                    "In the first turn {player} builds on their own train only, not on {train}.",
                    player=player,
                    train=self._train_label(key),
                )
        else:
            self._check_doubles(player, key)
            if (
                self._own_first
                and key != player
                and not self._trains[player].tiles
                and self._requirement() is None
            ):
                raise refuse(
                    "mt.house.own-first",
                    "{player}'s own train has no tile yet: with this house rule {player} plays on it "
                    "first, not on {train}.",
                    player=player,
                    train=self._train_label(key),
                )
            if self._requirement() is None and not self._available(player, key):
                raise refuse(
                    "mt.train.available",
                    "{train} has no marker: {player} may play only on their own train, the "
                    "Mexican train or a marked train.",
                    train=self._train_label(key, capital=True),
                    player=player,
                )
        if self._no_double_out and tile.is_double and self.hands[player] == 1:
            raise refuse(
                "mt.house.double-out",
                "{player} cannot go out on a double with this house rule: draw or pass instead of "
                "playing the {tile}.",
                player=player,
                tile=str(tile),
            )
        if not tile.has(train.open_end):
            raise refuse(
                "mt.match",
                "The {tile} does not match {train}, whose open end is {end}.",
                tile=str(tile),
                train=self._train_label(key),
                end=train.open_end,
            )

    def _check_doubles(self, player: str, key: str) -> None:
        requirement = self._requirement()
        if requirement is None:
            return
        target, reason = requirement
        if key == target.train:
            return
        others = {double.train: double for double in self.open_doubles()}
        double, train = str(target.tile), self._train_label(target.train)
        if reason == "follow":
            if key in others and others[key].turn == self._turn_number:
                raise refuse(
                    "mt.double.order",
                    "{player} played {count} doubles this turn: the next tile goes on the "
                    "{double} on {train} before the {other}.",
                    player=player,
                    count=self._turn_doubles,
                    double=double,
                    train=train,
                    other=str(others[key].tile),
                )
            raise refuse(
                "mt.double.follow",
                "{player} played {count} doubles this turn: the follow-up tile must go on the "
                "{double} on {train}.",
                player=player,
                count=self._turn_doubles,
                double=double,
                train=train,
            )
        if key in others:
            if self._newest_first:
                raise refuse(
                    "mt.double.order",
                    "The {double} on {train} is the newest open double: play on it before the {other}.",
                    double=double,
                    train=train,
                    other=str(others[key].tile),
                )
            raise refuse(
                "mt.double.order",
                "The {double} on {train} is the oldest open double: play on it before the {other}.",
                double=double,
                train=train,
                other=str(others[key].tile),
            )
        raise refuse(
            "mt.double.open", "The {double} on {train} is open: play on it first.", double=double, train=train
        )

    def _check_draw(self, player: str) -> None:
        self._check_turn(player, "draw")
        if self.in_first_turn() and self._laid:
            raise refuse(
                "mt.first-turn",
                "{player} has laid tiles in this first turn: no draw now, end the turn instead.",
                player=player,
            )
        if self._drawn and not self._draw_until:
            if self._turn_doubles:
                raise refuse(
                    "mt.draw",
                    "{player} has already drawn since the last double: play the drawn "
                    "tile if it fits, or pass.",
                    player=player,
                )
            raise refuse(
                "mt.draw",
                "{player} has already drawn this turn: play the drawn tile if it fits, or pass.",
                player=player,
            )
        if self._boneyard == 0:
            raise refuse("mt.draw", "The boneyard is empty: nothing to draw, pass instead.")

    def _check_pass(self, player: str) -> None:
        self._check_turn(player, "pass")
        if self.in_first_turn() and self._laid:
            raise refuse(
                "mt.first-turn",
                "{player} has laid tiles in this first turn: end the turn instead of passing.",
                player=player,
            )
        if self._draw_until and self._boneyard > 0:
            raise refuse(
                "mt.house.draw",
                "{player} draws until a tile fits with this house rule: a pass is allowed only "
                "when the boneyard is empty.",
                player=player,
            )
        if not self._drawn and self._boneyard > 0:
            if self._turn_doubles:
                raise refuse(
                    "mt.marker.place",
                    "{player} has not drawn since the last double: draw a tile "
                    "first, pass only if it does not fit.",
                    player=player,
                )
            raise refuse(
                "mt.marker.place",
                "{player} has not drawn this turn: draw a tile first, pass only if it does not fit.",
                player=player,
            )

    def _check_end(self, player: str) -> None:
        self._check_turn(player, "end")
        if self._follow_up_owed:
            raise refuse(
                "mt.double.follow",
                "{player} played a double: play again, or draw, and pass if nothing fits.",
                player=player,
            )
        if not self.in_first_turn():
            raise refuse(
                "mt.first-turn",
                "Only a first turn built with several tiles is ended with 'end': a turn ends by "
                "itself after one tile.",
            )
        if not self._laid:
            raise refuse(
                "mt.first-turn",
                "{player} has laid no tile this turn: play one, or draw, and pass if it does not fit.",
                player=player,
            )

    # ----------------------------------------------------------------- changes

    def _apply_play(self, player: str, tile: Tile, key: str) -> None:
        train = self._trains[key]
        train.open_end = tile.other(train.open_end)
        train.tiles.append(tile)
        self._table.add(tile)
        self._on_table_with[tile.low] += 1
        if not tile.is_double:
            self._on_table_with[tile.high] += 1
        self._uncovered = [double for double in self._uncovered if double.train != key]
        if train.owner == player:
            train.marker = False  # mt.marker.remove
        self.hands[player] -= 1
        self._laid += 1
        self._passes_in_a_row = 0
        first_turn = self.in_first_turn()
        if tile.is_double:
            self._uncovered.append(
                UncoveredDouble(key, tile, self._doubles_played, self._turn_number, first_turn)
            )
            self._doubles_played += 1
        if self.hands[player] == 0:
            # mt.end.domino / mt.double.last: out at once, no follow-up owed.
            self._outcome = RoundEnd(EndReason.DOMINO, player)
            return
        if first_turn:
            return  # the player goes on building and ends the turn with `end`
        if tile.is_double:
            self._turn_doubles += 1
            self._follow_up_owed = True
            self._drawn = False  # mt.draw: one more draw after each double
            return
        self._one_tile_done = player
        self._end_turn()

    def _end_turn(self) -> None:
        self._turn_number += 1
        self._turn_index = (self._turn_index + 1) % len(self.players)
        self._drawn = False
        self._laid = 0
        self._turn_doubles = 0
        self._follow_up_owed = False

    # ----------------------------------------------------------------- helpers

    def _requirement(self) -> tuple[UncoveredDouble, str] | None:
        """The double the next tile must go on, and why: ``"open"`` (mt.double.open, from
        an earlier turn) or ``"follow"`` (two or more doubles laid in this turn)."""
        live = self.open_doubles()
        earlier = [double for double in live if double.turn < self._turn_number]
        if earlier:
            return earlier[0], "open"
        if self._follow_up_owed and self._turn_doubles >= 2:
            current = [double for double in live if double.turn == self._turn_number]
            if current:
                return current[0], "follow"
        return None

    def _available(self, player: str, key: str) -> bool:
        # mt.train.available
        return key in (player, MEXICAN) or self._trains[key].marker

    def _is_dead(self, double: Tile) -> bool:
        # mt.double.dead: every tile carrying its number (the double included) is on the table.
        return self._on_table_with[double.high] == self.setup.highest + 1

    def _waits_for_first_turns(self, double: UncoveredDouble) -> bool:
        return double.first_turn and self._turn_number < len(self.players)

    def _train_label(self, key: str, capital: bool = False) -> str:
        if key == MEXICAN:
            return phrase("The Mexican train") if capital else phrase("the Mexican train")
        return phrase("{player}'s train", player=key)
