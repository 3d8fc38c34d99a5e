"""Chicken Foot's round engine (`cf.*`): the spinner, the feet and their toes, turns and plays."""

from __future__ import annotations

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
    RuleViolation,
    phrase,
    refuse,
)
from referee.rules.chicken_foot.declaration import TOES_PER_FOOT, ChickenFootOptions
from referee.tiles import Tile


class ChickenFootRound(RoundEngine[ChickenFootOptions, Tile | None, None]):
    """One round of Chicken Foot in referee mode (rules `cf.*`).

    The tableau is a tree grown from the spinner (the round's double). Every tile on the
    table offers a number of places and the value a newcomer must match there:

    - the spinner: ``arms`` places (4, or 6 with the option), each asking for its number
      (`cf.match`: the touching half equals the spinner's number);
    - a double laid on an arm end or on a toe: a chicken foot, three toe places asking for
      the double's number (`cf.double`);
    - any other tile: one place, its outer half.

    Before the spinner is down nobody's turn is known (``turn()`` is ``None``): anyone may
    draw (looking for it, `cf.start`), and the first play must be the spinner, with no
    ``on``. A ``start`` action names the holder; from then on only they may act, by
    placing it. After the spinner play goes clockwise from the player who placed it.

    ``extra_state()`` keys:

    - ``open_ends``: every place a tile may go now, one entry per tile that has a free
      place, in the order those tiles were laid: ``{"on": "4-9", "value": 4, "free": 1}``.
      ``free`` (an added key) is how many tiles that place still takes: for the spinner the
      arms not yet started, for a foot the toes missing. While arms are unstarted only the
      spinner is listed (`cf.spinner`); while a foot is unfinished only its double
      (`cf.double`). Empty before the spinner and once the round is over.
    - ``foot``: the unfinished foot that restricts play, ``{"double": "4-4", "toes": 1}``,
      or ``None`` (a dead foot, `cf.foot.dead`, restricts nothing and is not shown here).
    - added keys for drawing the table: ``spinner`` ("9-9" or ``None``), ``arm_count``
      (4 or 6), ``starter`` (who placed or was named to place the spinner, or ``None``),
      ``drew`` (whether the player to move has drawn this turn), and ``arms``: one list per
      started arm, in the order the arms were started, of the tiles from the spinner
      outwards. Each entry is ``{"tile": "4-9", "end": 4}`` (``end``: the half facing away
      from the spinner, so the page can orient it). A double is the last entry of its arm
      or toe, ``{"tile": "4-4", "end": 4, "toes": [[...], ...], "dead": false}``, where each
      toe is again a list of entries from the double outwards.
    """

    former_names = {"yard": "_boneyard", "end": "_outcome"}

    def __init__(self, setup: RoundSetup[ChickenFootOptions]) -> None:
        super().__init__(setup)
        self.highest: int = setup.highest
        self.spinner: Tile = setup.double or Tile(setup.highest, setup.highest)
        self.arm_count: int = setup.options.arms
        # The tableau: laid tiles in order, each one's parent, children and outer value.
        self.laid: list[Tile] = []
        self.laid_by: dict[Tile, str] = {}
        self.parent: dict[Tile, Tile | None] = {}
        self.children: dict[Tile, list[Tile]] = {}
        self.outer: dict[Tile, int] = {}
        # How many laid tiles carry each pip value (a double once): feeds `cf.foot.dead`.
        self.laid_with_value: list[int] = [0] * (setup.highest + 1)
        self.newest_foot: Tile | None = None
        self.starter: str | None = setup.starter
        self.turn_index: int | None = None
        self.drew_this_turn: bool = False
        self.passes_in_a_row: int = 0

    # ------------------------------------------------------------------ queries

    def turn(self) -> str | None:
        if self._outcome is not None:
            return None
        if self.turn_index is None:
            return self.starter
        return self.players[self.turn_index]

    def tiles_on_table(self) -> frozenset[Tile]:
        return frozenset(self.laid)

    def spinner_placed(self) -> bool:
        return bool(self.laid)

    def free_places(self, tile: Tile) -> int:
        """How many more tiles ``tile`` (on the table) can take."""
        if tile == self.spinner:
            capacity = self.arm_count
        elif tile.is_double:
            capacity = TOES_PER_FOOT
        else:
            capacity = 1
        return capacity - len(self.children[tile])

    def arms_unstarted(self) -> int:
        if not self.spinner_placed():
            return self.arm_count
        return self.arm_count - len(self.children[self.spinner])

    def foot_is_dead(self, double: Tile) -> bool:
        """`cf.foot.dead`: every tile of its number is on the table, so no toe can come.

        While any tile of its number is off the table (in a hand or the yard) the foot
        keeps its claim, even when fewer remain than toes are missing."""
        return self.laid_with_value[double.low] == self.highest + 1

    def round_facts(self) -> RoundFacts:
        """What the house rules score from the table (`cf.house.double-out`,
        `cf.house.foot`): whether the player who went out laid a double last, and who laid
        each foot that still lacks toes (and is not dead)."""
        out_on_double = bool(
            self._outcome is not None
            and self._outcome.reason == "domino"
            and self.laid
            and self.laid[-1].is_double
        )
        open_feet = [
            self.laid_by[tile]
            for tile in self.laid
            if tile.is_double
            and self.parent[tile] is not None
            and self.free_places(tile) > 0
            and not self.foot_is_dead(tile)
        ]
        return {"out_on_double": out_on_double, "open_feet": open_feet}

    def restricting_foot(self) -> Tile | None:
        """The foot every play must go to (`cf.double`), if any.

        Only the newest foot can restrict: while one restricts, only its toes (never a
        double) can be played, so no newer foot can start until it is finished or dead.
        """
        foot = self.newest_foot
        if foot is None or self.free_places(foot) == 0 or self.foot_is_dead(foot):
            return None
        return foot

    def open_places(self) -> list[Tile]:
        """Tiles on the table where a tile may be laid now, in the order they were laid."""
        if self._outcome is not None or not self.spinner_placed():
            return []
        if self.arms_unstarted() > 0:
            return [self.spinner]
        foot = self.restricting_foot()
        if foot is not None:
            return [foot]
        return [tile for tile in self.laid if self.free_places(tile) > 0]

    def targets(self) -> list[Tile | None]:
        if self._outcome is not None:
            return []
        if not self.spinner_placed():
            return [None]
        return list[Tile | None](self.open_places())

    def play_at(self, player: str | None, tile: Tile, place: Tile | None) -> Action:
        return Action(PLAY, player, tile, on=place)

    def extra_state(self) -> dict[str, JSONValue]:
        foot = self.restricting_foot() if self._outcome is None else None
        return {
            "open_ends": [
                {"on": str(tile), "value": self.outer[tile], "free": self.free_places(tile)}
                for tile in self.open_places()
            ],
            "foot": None if foot is None else {"double": str(foot), "toes": len(self.children[foot])},
            "spinner": str(self.spinner) if self.spinner_placed() else None,
            "arm_count": self.arm_count,
            "starter": self.starter,
            "drew": self.drew_this_turn,
            "arms": [self._branch(first) for first in self.children.get(self.spinner, [])],
        }

    def _branch(self, first: Tile) -> list[JSONValue]:
        entries: list[JSONValue] = []
        tile: Tile | None = first
        while tile is not None:
            entry: dict[str, JSONValue] = {"tile": str(tile), "end": self.outer[tile]}
            entries.append(entry)
            if tile.is_double:
                entry["toes"] = [self._branch(toe) for toe in self.children[tile]]
                entry["dead"] = self.free_places(tile) > 0 and self.foot_is_dead(tile)
                tile = None
            else:
                following = self.children[tile]
                tile = following[0] if following else None
        return entries

    def reminders(self) -> list[dict[str, str]]:
        if self._outcome is not None:
            return []
        notes: list[dict[str, str]] = []
        player = self.turn()
        if not self.spinner_placed():
            if player:
                text = phrase(
                    "{player} places the {spinner} in the centre; if no one holds it, "
                    "players draw from the yard in turn until it turns up.",
                    player=player,
                    spinner=str(self.spinner),
                )
            else:
                text = phrase(
                    "Whoever holds it places the {spinner} in the centre; if no one "
                    "holds it, players draw from the yard in turn until it turns up.",
                    spinner=str(self.spinner),
                )
            notes.append({"rule": "cf.start", "text": text})
        elif self.drew_this_turn:
            notes.append(
                {
                    "rule": "cf.draw",
                    "text": phrase(
                        "{player} has drawn: play the drawn tile if it fits, otherwise pass.", player=player
                    ),
                }
            )
        elif self._boneyard == 0:
            notes.append(
                {
                    "rule": "cf.draw",
                    "text": phrase(
                        "The yard is empty: {player} plays a tile if they can, otherwise passes.",
                        player=player,
                    ),
                }
            )
        else:
            notes.append(
                {
                    "rule": "cf.draw",
                    "text": phrase(
                        "{player} must play a tile if they can; with no legal play they draw one "
                        "from the yard.",
                        player=player,
                    ),
                }
            )
        for name in self.players:
            if self.hands[name] == 1:
                notes.append(
                    {
                        "rule": "cf.end",
                        "text": phrase(
                            "{player} has one tile left: the round ends when it is played.", player=name
                        ),
                    }
                )
        return notes

    # ------------------------------------------------------------------ actions

    def plan(self, action: Action) -> None:
        if action.type is UNDO:
            raise refuse(None, "Undo is done by the game, not by the round.")
        if action.type is LEAVE:
            raise refuse(
                "cf.rounds", "Chicken Foot has no leaving: the game is played through all its rounds."
            )
        if action.type is END:
            raise refuse(
                "cf.one-tile",
                "There is no 'end' in Chicken Foot: a turn is one tile, or a draw and then a play or a pass.",
            )
        if self._outcome is not None:
            raise refuse("cf.end", "The round is over: enter the hands left.")
        if action.type is START:
            self._check_start(action)
        elif not self.spinner_placed():
            self._check_before_spinner(action)
        else:
            player = self._check_turn(action.player)
            if action.type is PLAY:
                self._check_play(action)
            elif action.type is DRAW:
                self._check_draw(player)
            elif action.type is PASS:
                self._check_pass(player)
            else:
                raise refuse(None, "A {action!r} action does not exist in Chicken Foot.", action=action.type)

    def perform(self, action: Action, plan: None) -> None:
        player = action.player
        assert player is not None  # check refuses a player not on turn or named to start
        if action.type is START:
            self.starter = player
        elif action.type is PLAY:
            assert action.tile is not None  # check refuses a play without a tile
            self._lay(player, action.tile, action.on)
        elif action.type is DRAW:
            self._boneyard -= 1
            self.hands[player] += 1
            if self.spinner_placed():
                self.drew_this_turn = True
        elif action.type is PASS:
            self.passes_in_a_row += 1
            if self.passes_in_a_row >= len(self.players) and self._boneyard == 0:
                self._outcome = RoundEnd(EndReason.BLOCKED, None)
            else:
                self._next_turn()

    def _check_start(self, action: Action) -> None:
        if self.spinner_placed():
            raise refuse(
                "cf.start",
                "The round has already started: {player} placed the {spinner}.",
                player=self.starter,
                spinner=str(self.spinner),
            )

    def _check_before_spinner(self, action: Action) -> None:
        player = action.player
        if self.starter is not None and player != self.starter:
            raise refuse(
                "turn",
                "{player} was named to start: it is their turn to place the {spinner}.",
                player=self.starter,
                spinner=str(self.spinner),
            )
        if action.type is PLAY:
            tile = action.tile
            assert tile is not None  # Action.from_json: a play has a tile
            if tile != self.spinner and self._lower_start_allowed():
                if not (tile.is_double and tile.low < self.spinner.low):
                    raise refuse(
                        "cf.house.start",
                        "The round starts with the {spinner}, or when no one holds it with the highest "
                        "double someone holds: the {tile} is not a lower double.",
                        spinner=str(self.spinner),
                        tile=str(action.tile),
                    )
            elif action.tile != self.spinner:
                raise refuse(
                    "cf.start",
                    "The round starts with the {spinner} in the centre, not the {tile}.",
                    spinner=str(self.spinner),
                    tile=str(action.tile),
                )
            if action.on is not None:
                raise refuse(
                    "cf.start",
                    "The {spinner} is the first tile: it goes in the centre, not on the {on}.",
                    spinner=str(self.spinner),
                    on=str(action.on),
                )
        elif action.type is DRAW:
            if self.starter is not None:
                raise refuse(
                    "cf.start",
                    "{player} was named to start with the {spinner}: place it, no draw is needed.",
                    player=player,
                    spinner=str(self.spinner),
                )
            if self._boneyard == 0:
                raise refuse("cf.draw", "The yard is empty: there is nothing to draw.")
        elif action.type is PASS:
            raise refuse(
                "cf.start",
                "No one can pass before the {spinner} is placed: whoever holds it "
                "starts, otherwise draw until it turns up.",
                spinner=str(self.spinner),
            )
        else:
            raise refuse(None, "A {action!r} action does not exist in Chicken Foot.", action=action.type)

    def _lower_start_allowed(self) -> bool:
        """cf.house.start = next: a lower double may start the round (nobody holds its double)."""
        return self.setup.options.missing_start == "next"

    def _check_turn(self, player: str | None) -> str:
        current = self.turn()
        if current is None or player != current:
            raise self.refuse_turn(current, player)
        return current

    def _check_play(self, action: Action) -> None:
        tile, on = action.tile, action.on
        if tile in self.parent:
            raise refuse("unique", "The {tile} is already on the table.", tile=str(tile))
        if on is None:
            raise refuse("cf.match", "Say which tile on the table the {tile} joins ('on').", tile=str(tile))
        if tile is None:
            raise refuse("tiles", 'Say which tile is played, written like "5-12".')
        if on not in self.parent:
            raise refuse(
                "cf.match",
                "The {on} is not on the table, so the {tile} cannot join it.",
                on=str(on),
                tile=str(tile),
            )
        if self.free_places(on) == 0:
            raise self._full_refusal(on)
        unstarted = self.arms_unstarted()
        if unstarted > 0 and on != self.spinner:
            started = self.arm_count - unstarted
            raise refuse(
                "cf.spinner",
                "Only {started} of the spinner's {arms} arms are started: "
                "play on the {spinner} until every arm has a tile.",
                started=started,
                arms=self.arm_count,
                spinner=str(self.spinner),
            )
        foot = self.restricting_foot()
        if foot is not None and on != foot:
            toes = len(self.children[foot])
            raise refuse(
                "cf.double",
                "The chicken foot on the {foot} has {toes} of its {all} toes: "
                "the next tile must be a toe on the {foot}.",
                foot=str(foot),
                toes=toes,
                all=TOES_PER_FOOT,
            )
        value = self.outer[on]
        if not tile.has(value):
            # Why no other end is open: the newest double still needs its toes (cf.double).
            why_closed = (
                (
                    refuse(
                        "cf.double",
                        "The {foot} needs all {all} of its toes first: every other end is "
                        "closed until its chicken foot is complete.",
                        foot=str(foot),
                        all=TOES_PER_FOOT,
                    ),
                )
                if foot is not None and on == foot
                else ()
            )
            if on == self.spinner:
                raise refuse(
                    "cf.match",
                    "Next to the spinner a tile must show {value}: the {tile} does not fit on the {on}.",
                    value=value,
                    tile=str(tile),
                    on=str(on),
                )
            raise refuse(
                "cf.match",
                "The {tile} does not match the open {value} of the {on}.",
                tile=str(tile),
                value=value,
                on=str(on),
                also=why_closed,
            )

    def _full_refusal(self, on: Tile) -> RuleViolation:
        if on == self.spinner:
            return refuse(
                "cf.spinner",
                "All {arms} arms of the spinner {on} are started: play on an arm's end.",
                arms=self.arm_count,
                on=str(on),
            )
        if on.is_double:
            return refuse(
                "cf.match",
                "The {on} has its {toes} toes: play on the end of a toe.",
                on=str(on),
                toes=TOES_PER_FOOT,
            )
        return refuse("cf.match", "The {on} is already covered: play on an open end.", on=str(on))

    def _check_draw(self, player: str) -> None:
        if self.drew_this_turn:
            raise refuse(
                "cf.draw",
                "{player} has already drawn this turn: play the drawn tile if it fits, otherwise pass.",
                player=player,
            )
        if self._boneyard == 0:
            raise refuse(
                "cf.draw",
                "The yard is empty: {player} plays a tile if they can, otherwise passes.",
                player=player,
            )

    def _check_pass(self, player: str) -> None:
        if not self.drew_this_turn and self._boneyard > 0:
            raise refuse(
                "cf.draw",
                "{player} may pass only after drawing a tile from the yard this turn.",
                player=player,
            )

    def _lay(self, player: str, tile: Tile, on: Tile | None) -> None:
        if on is None:
            self.spinner = tile  # the round's double, or a lower one (cf.house.start)
            self.outer[tile] = tile.low
            self.starter = player
        elif tile.is_double:
            self.outer[tile] = tile.low
            self.newest_foot = tile
        else:
            self.outer[tile] = tile.other(self.outer[on])
        self.laid.append(tile)
        self.laid_by[tile] = player
        self.parent[tile] = on
        self.children[tile] = []
        if on is not None:
            self.children[on].append(tile)
        for value in {tile.low, tile.high}:
            self.laid_with_value[value] += 1
        self.hands[player] -= 1
        self.passes_in_a_row = 0
        if self.hands[player] == 0:
            self._outcome = RoundEnd(EndReason.DOMINO, player)
            return
        if on is None:
            self.turn_index = self.players.index(player)
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn_index = ((self.turn_index or 0) + 1) % len(self.players)
        self.drew_this_turn = False
