"""A whole game as a pure value: its table, its rounds, the current round, undo.

``Match`` is what the store snapshots and what the API shows. It knows nothing about the
database or HTTP; every change goes through ``apply`` (an action) or ``enter_hands`` (the
hands left at the end of a round), which raise ``RuleViolation`` / ``BadRequest`` and
leave the match unchanged when they refuse.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from referee.match.config import GameConfig, UnknownRound
from referee.match.hands import (
    HANDS_SHAPE,
    HandCheck,
    entered_tiles,
    held_tiles,
    size_problem,
    tile_problem,
)
from referee.rules.base import (
    LEAVE,
    UNDO,
    Action,
    AnyGameRules,
    AnyRoundEngine,
    BadRequest,
    EndReason,
    GameResult,
    HandEntry,
    RoundEnd,
    RoundFacts,
    RoundRecord,
    RoundSetup,
    RuleViolation,
    Standing,
    bad_request,
    refuse,
    tile_error_text,
)
from referee.tiles import Tile, TileError, full_set


class Match:
    """One game: the booked rounds, the current round and how to take changes back."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.rounds: list[RoundRecord] = []
        self.number = 1
        self.left: str | None = None
        self.entry_undo: list[list[RoundRecord]] = []  # score pad: the rounds before each entry
        self.tables: dict[int, tuple[frozenset[Tile], dict[str, int]]] = {}
        self.setup: RoundSetup[Any] | None = None
        self.engine: AnyRoundEngine | None = None
        self.history: list[Action] = []
        self.standing = self._compute_standing()
        self._start_round()

    # ----- queries -------------------------------------------------------------------------

    @property
    def rules(self) -> AnyGameRules:
        return self.config.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def finished(self) -> bool:
        return self.standing.finished

    @property
    def referee(self) -> bool:
        return self.config.mode == "referee"

    def round_count(self) -> int | None:
        return self.rules.round_count(self.config.highest, self.config.options)

    def current_record(self) -> RoundRecord | None:
        return next((r for r in self.rounds if r.number == self.number), None)

    def round_status(self) -> str:
        if self.current_record() is not None or self.finished:
            return "done"
        if self.referee and self.engine is not None and self.engine.outcome() is None:
            return "playing"
        return "scoring"

    def state(self) -> dict[str, Any]:
        """The game state of the API (without id, version and created, which the store adds)."""
        config = self.config
        record = self.current_record()
        engine = self.engine if self.referee else None
        status = self.round_status()
        outcome = engine.outcome() if engine else None
        round_state: dict[str, Any] = {
            "number": self.number,
            "double": str(self.setup.double) if self.setup and self.setup.double else None,
            "status": status,
            "turn": engine.turn() if engine and status == "playing" else None,
            "boneyard": engine.boneyard() if engine else None,
            "hands": engine.hand_sizes() if engine else None,
            "end": record.end.to_json() if record else outcome.to_json() if outcome else None,
        }
        if engine:
            round_state.update(engine.extra_state())
            round_state["reminders"] = engine.reminders() if status == "playing" else []
        standing = self.standing
        data: dict[str, Any] = {
            **config.to_json(),
            "status": "finished" if self.finished else "playing",
            "round": round_state,
            "rounds": [r.to_json() for r in self.rounds],
            "totals": dict(standing.totals),
            "winners": list(standing.winners),
            "round_count": self.round_count(),
            "rules_in_force": self.rules.rules_in_force(config.options),
        }
        result = standing.result
        if result is not None and result.tie_break:
            data["tie_break"] = result.tie_break
        if standing.detail is not None:
            standing.detail.add_to_state(data, result)
        return data

    @property
    def result(self) -> GameResult | None:
        """The finished game's result (winners, places, goats, rating…), else ``None``."""
        return self.standing.result

    def leaders(self) -> list[str]:
        """Who leads so far (``[]`` when no one does), as the game's rules read the totals."""
        if not self.rounds:
            return []
        return self.rules.leaders(self.standing)

    def can_leave(self) -> bool:
        """Whether a player may leave now, ending the game (kz.rating.left)."""
        return self.rules.leaving and not self.finished

    def has_round(self, number: int) -> bool:
        """Whether ``number`` is a round of this game that hands can be shown or entered for:
        a booked round, or the current one while the game is not finished."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.number:
            return False
        return self.finished is False or any(r.number == number for r in self.rounds)

    # ----- changes -------------------------------------------------------------------------

    def player_named(self, name: Any) -> str:
        """The player a client means: names are matched as they were cleaned at creation
        (trimmed, NFC), so "Zoe\u0308" finds "Zoë"."""
        if isinstance(name, str):
            if name in self.players:
                return name
            cleaned = unicodedata.normalize("NFC", name).strip()
            if cleaned in self.players:
                return cleaned
        raise refuse(None, "There is no player called {name!r} in this game.", name=name)

    def apply(self, action: Action) -> None:
        if action.type is UNDO:
            self.undo()
            return
        player = self.player_named(action.player)
        if player != action.player:
            action = action._replace(player=player)
        if action.type is LEAVE:
            self._leave(player)
            return
        if self.finished:
            raise refuse(None, "This game is finished: nothing more can be played.")
        if not self.referee:
            raise refuse(
                None, "This game is a score pad: enter the hands left after each round instead of plays."
            )
        for tile in (action.tile, action.on):
            if tile is not None and not tile.in_set(self.config.highest):
                raise refuse(
                    "tiles",
                    "There is no {tile} in a double-{highest} set.",
                    tile=tile,
                    highest=self.config.highest,
                )
        if self.round_status() != "playing" or self.engine is None:
            outcome = self.engine.outcome() if self.engine else None
            raise refuse(
                self.rules.out_rule if outcome else None,
                "This round is over: enter the hands left to score it.",
            )
        self.engine.apply(action)
        self.history.append(action)

    def undo(self) -> None:
        """Take back the last change of this round (a play, draw, pass …; in a score pad,
        the last hands entry; a Kozel leave, which is always the last change, first)."""
        if self.left is not None:
            self.left = None
            self.standing = self._compute_standing()
            return
        if not self.referee:
            if not self.entry_undo:
                raise refuse(None, "There is no entry to undo.")
            self.rounds = self.entry_undo.pop()
            self._after_booking()
            return
        if not self.history or self.current_record() is not None or self.finished:
            raise refuse(None, "Nothing to undo: this round has no logged action yet.")
        self.history.pop()
        assert self.setup is not None  # every round is set up when it starts
        engine = self.rules.Round(self.setup)
        for action in self.history:
            engine.apply(action)
        self.engine = engine

    def _leave(self, player: str) -> None:
        if not self.rules.leaving:
            raise refuse(None, "Only Kozel has a 'leave' action (kz.rating.left).")
        if self.finished:
            raise refuse("kz.rating.left", "This game is already finished.")
        self.left = player
        self.standing = self._compute_standing()

    def enter_hands(self, number: Any, body: Any) -> None:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.number:
            raise UnknownRound(f"This game has no round {number} yet.")
        if self.left is not None:
            raise refuse("kz.rating.left", "{player} left: this game is finished.", player=self.left)
        if not isinstance(body, Mapping) or "hands" not in body or not isinstance(body["hands"], Mapping):
            raise bad_request("The body must be {shape}.", field="hands", shape=HANDS_SHAPE)
        config = self.config
        extra = {key: value for key, value in body.items() if key != "hands"}
        facts = self.rules.entry_facts(extra, config.options, config.players, self.referee)
        if number == self.number and self.finished and self.current_record() is None:
            raise refuse(None, "This game is finished.")
        record = self._record_from_hands(number, body["hands"], facts)
        if not self.referee:
            self.entry_undo.append(list(self.rounds))
        self.rounds = sorted(
            [r for r in self.rounds if r.number != number] + [record], key=lambda r: r.number
        )
        if self.referee and number == self.number and self.engine is not None:
            self.tables[number] = (self.engine.tiles_on_table(), self.engine.hand_sizes())
        self._after_booking()

    def hand_count_problems(self, number: int, hands: Mapping[str, Any]) -> list[RuleViolation]:
        """Every hand of an entry whose tile count disagrees with the log (rule ``hidden``),
        all at once, so a table can fix them together; ``enter_hands`` refuses the first."""
        previous = next((r for r in self.rounds if r.number == number), None)
        if number == self.number and previous is None and self.engine is not None and self.referee:
            sizes = self.engine.hand_sizes()
        else:
            sizes = self.tables.get(number, (frozenset(), {}))[1]
        problems = []
        for name in self.players:
            value = hands.get(name)
            if isinstance(value, list) and name in sizes and len(value) != sizes[name]:
                problems.append(
                    refuse(
                        "hidden",
                        "{player} holds {tiles} by the log, but {entered}.",
                        player=name,
                        tiles=held_tiles(sizes[name]),
                        entered=entered_tiles(len(value)),
                    )
                )
        return problems

    def entry_problems(
        self, number: int, hands: Mapping[str, Any]
    ) -> list[tuple[str, RuleViolation | BadRequest]]:
        """Every problem of a hands entry at once, by player in turn order: a tile written
        wrong, outside the set, on the table or in two hands (``tiles``, ``unique``), and a
        count that disagrees with the log (``hidden``), so a table fixes them in one go.
        A tile in two hands is named once, at the later hand. ``enter_hands`` still decides."""
        problems: list[tuple[str, RuleViolation | BadRequest]] = []
        earlier: dict[str, list[Tile]] = {}
        for name in self.players:
            value = hands.get(name)
            if not isinstance(value, list):
                continue
            tiles = []
            for text in value:
                try:
                    tiles.append(text if isinstance(text, Tile) else Tile.parse(str(text)))
                except (TileError, ValueError) as error:
                    problems.append((name, BadRequest(tile_error_text(error))))
            check = self.check_hand(number, tiles, name, earlier)
            problems.extend((name, problem) for _tile, problem in check.warnings)
            earlier[name] = tiles
        return problems

    def _record_from_hands(
        self, number: int, hands: Mapping[str, object], entered: RoundFacts | None = None
    ) -> RoundRecord:
        players, config = self.players, self.config
        named: dict[str, object] = {}
        for name, value in hands.items():
            player = self.player_named(name)
            if player in named:
                raise bad_request("{player} has two hands in this entry.", field=str(name), player=player)
            named[player] = value
        hands = named
        missing = [p for p in players if p not in hands]
        if missing:
            raise refuse(
                None, "The hand of {player} is missing: enter one for every player.", player=missing[0]
            )
        previous = next((r for r in self.rounds if r.number == number), None)
        on_table, sizes = self.table_of(number)
        seen: dict[Tile, str] = {}
        points: dict[str, int] = {}
        entries: dict[str, HandEntry] = {}
        ceiling = sum(t.pips for t in full_set(config.highest)) + 50
        for name in players:
            value = hands[name]
            if isinstance(value, bool) or not isinstance(value, (int, list)):
                raise bad_request(
                    "{player}'s hand must be a list of tiles or a number of points.", field=name, player=name
                )
            if isinstance(value, int):
                if value < 0:
                    raise bad_request("{player}'s points cannot be negative.", field=name, player=name)
                if value > ceiling:
                    raise bad_request(
                        "{points} points is more than a whole double-{highest} set holds.",
                        field=name,
                        points=value,
                        highest=config.highest,
                    )
                points[name], entries[name] = value, value
                continue
            tiles = []
            for text in value:
                try:
                    tile = Tile.parse(text)
                except TileError as error:
                    raise bad_request(
                        "{player}'s hand: {error}", field=name, player=name, error=tile_error_text(error)
                    ) from None
                problem = self.tile_problem(tile, name, on_table, seen)
                if problem is not None:
                    raise problem
                seen[tile] = name
                tiles.append(tile)
            problem = self.size_problem(name, len(tiles), sizes)
            if problem is not None:
                raise problem
            points[name] = self.rules.hand_points(tiles, config.options)
            entries[name] = [str(t) for t in tiles]
        # An empty list is a hand that went out; a typed 0 is one too in Kozel (API.md), but
        # elsewhere 0 may also be a lone 0-0 worth nothing, so it only names who went out
        # when it is the only zero.
        emptied = [p for p in players if entries[p] == []]
        zeros = [p for p in players if entries[p] == 0]
        if self.rules.zero_is_out:
            emptied, zeros = emptied + zeros, []
        end_rule = self.rules.out_rule
        if len(emptied) > 1:
            raise refuse(
                end_rule,
                "Only one player can go out in a round, but {first} and {second} have empty hands.",
                first=emptied[0],
                second=emptied[1],
            )
        out = emptied[0] if emptied else zeros[0] if len(zeros) == 1 else None
        end = self._round_end(number, previous, out)
        if end.reason == "fish" and emptied:
            raise refuse(
                "kz.fish",
                "{fisher} made the fish, so nobody went out: {player}'s hand cannot be empty (0).",
                fisher=end.player,
                player=emptied[0],
            )
        if end.reason == "domino" and end.player and entries[end.player] not in ([], 0):
            raise refuse(end_rule, "{player} went out, so their hand must be empty.", player=end.player)
        # What the table showed for the house rules: the referee's own view of a live round,
        # what was booked before for a correction, or what a score pad's entry names.
        if entered:
            facts: RoundFacts = entered.copy()
        elif number == self.number and previous is None and self.engine is not None and self.referee:
            facts = self.engine.round_facts()  # the round the referee is following
        elif previous is not None:
            facts = previous.facts
        else:
            facts = {}
        points = self.rules.round_points(points, end, facts, config.options)
        double = self.rules.round_double(number, config.highest, config.options)
        return RoundRecord(number, double, points, end, entries, facts)

    # ----- the checks of a hand's tiles (the hands entry and the photo reading share them) -----

    def table_of(self, number: int) -> tuple[frozenset[Tile], dict[str, int]]:
        """The tiles on the table and each hand's size by the log, for round ``number``
        (empty when the referee did not follow it: a score pad, an old round)."""
        previous = next((r for r in self.rounds if r.number == number), None)
        if number == self.number and previous is None and self.engine is not None and self.referee:
            return self.engine.tiles_on_table(), self.engine.hand_sizes()
        return self.tables.get(number, (frozenset(), {}))

    def tile_problem(
        self, tile: Tile, player: str | None, on_table: frozenset[Tile], seen: Mapping[Tile, str | None]
    ) -> RuleViolation | None:
        """Why ``tile`` cannot be in ``player``'s hand in this game's set (``hands.tile_problem``)."""
        return tile_problem(tile, player, on_table, seen, self.config.highest)

    def size_problem(self, player: str, count: int, sizes: Mapping[str, int]) -> RuleViolation | None:
        """The refusal when ``count`` tiles disagree with the hand the referee tracked."""
        return size_problem(player, count, sizes)

    def check_hand(
        self,
        number: Any,
        tiles: Sequence[Tile],
        player: Any = None,
        others: Mapping[str, Sequence[Tile]] | None = None,
    ) -> HandCheck:
        """What the referee would say about ``tiles`` as one hand of round ``number``,
        without booking anything: every problem the hands entry would refuse, as warnings
        (a tile outside the set, on the table, twice in this hand or in another hand of
        ``others``, and with ``player``, a count that disagrees with the tracked hand),
        and the hand's points by this game's scoring (double-blank, house rules)."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.number:
            raise UnknownRound(f"This game has no round {number} yet.")
        name = self.player_named(player) if player is not None else None
        on_table, sizes = self.table_of(number)
        seen: dict[Tile, str | None] = {}
        for other, hand in (others or {}).items():
            other_name = self.player_named(other)
            if other_name == name:
                continue
            for tile in hand:
                seen.setdefault(tile, other_name)
        warnings: list[tuple[Tile | None, RuleViolation]] = []
        for tile in tiles:
            problem = self.tile_problem(tile, name, on_table, seen)
            if problem is not None:
                warnings.append((tile, problem))
            if tile not in seen:
                seen[tile] = name
        if name is not None:
            problem = self.size_problem(name, len(tiles), sizes)
            if problem is not None:
                warnings.append((None, problem))
        points = self.rules.hand_points(list(tiles), self.config.options)
        return HandCheck(points, tuple(warnings), sizes.get(name) if name is not None else None)

    def _round_end(self, number: int, previous: RoundRecord | None, empty: str | None) -> RoundEnd:
        """How the round ended: what the referee saw, else what the hands say."""
        if previous is not None and previous.end.reason in ("domino", "blocked", "fish") and self.referee:
            return previous.end
        seen = self.engine.outcome() if self.engine else None
        if previous is None and self.referee and number == self.number and seen is not None:
            return seen
        if not self.referee:
            return self.rules.pad_round_end(empty)
        return RoundEnd(EndReason.TABLE, empty)

    def _after_booking(self) -> None:
        self.standing = self._compute_standing()
        if self.finished:
            self.number = max((r.number for r in self.rounds), default=self.number)
            return
        next_number = max((r.number for r in self.rounds), default=0) + 1
        if next_number != self.number or self.setup is None:
            self.number = next_number
            self._start_round()

    def _compute_standing(self) -> Standing:
        config = self.config
        return self.rules.standing(config.players, config.highest, config.options, self.rounds, self.left)

    def _start_round(self) -> None:
        config = self.config
        self.setup = self.rules.round_setup(
            self.number, config.players, config.highest, config.options, self.rounds
        )
        self.history = []
        self.engine = self.rules.Round(self.setup) if self.referee else None
