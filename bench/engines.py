"""The rules engines alone: random full rounds a second, every action validated.

- ``engine_kozel_vs_dominoes``: random full Kozel rounds/s (4 players, hidden hands, bots
  that play the first legal tile, every action applied through ``KozelRound.apply``, which
  validates it) divided by random full games/s of the PyPI ``dominoes`` library (4 players,
  double-six, random valid moves); ``null`` when ``dominoes`` is not installed.
- ``engine_mt_rounds_per_s``: the same for Mexican Train (8 players, double-12).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable
from dataclasses import replace
from importlib.metadata import PackageNotFoundError, version
from typing import TypedDict

from bench.parts import Part, Row, Sizes, fmt
from referee.rules.base import Action, RoundEnd, RoundEngine, RoundSetup
from referee.rules.kozel import Kozel, KozelOptions, KozelRound, Plan, lead_order
from referee.rules.mexican_train import MexicanTrain, MexicanTrainOptions, MexicanTrainRound
from referee.tiles import Tile, full_set

KOZEL_PLAYERS = ("Ana", "Boris", "Vera", "Gleb")
MT_PLAYERS = ("Ana", "Ben", "Chloé", "Dara", "Eli", "Fay", "Gus", "Hana")


class Rate(TypedDict):
    """Whole rounds (or games) played in ``seconds``."""

    rounds: int
    actions: int
    seconds: float
    per_s: float


class ReplayRate(Rate):
    us_per_action: float


class LibraryRate(Rate):
    version: str | None


def _timed_loop(seconds: float, one: Callable[[], int]) -> tuple[int, int, float]:
    """Call ``one`` (which returns the actions it took) until ``seconds`` have passed."""
    count = actions = 0
    start = time.perf_counter()
    while True:
        actions += one()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, actions, elapsed


def _rate(count: int, actions: int, elapsed: float) -> Rate:
    return {"rounds": count, "actions": actions, "seconds": elapsed, "per_s": count / elapsed}


# ----- Kozel ------------------------------------------------------------------------------

_KOZEL_TILES = full_set(6)  # ordered as sorted: 0-0, 0-1, … 6-6
_KOZEL_LOW = tuple(tile.low for tile in _KOZEL_TILES)
_KOZEL_HIGH = tuple(tile.high for tile in _KOZEL_TILES)
_LEAD_ORDER = tuple(_KOZEL_TILES.index(tile) for tile in lead_order())
_KOZEL_SETUPS: dict[tuple[int, str | None], RoundSetup[KozelOptions]] = {}
# Actions are immutable values, made once: _KOZEL_PLAYS[seat][tile][on + 1] (on -1: none).
_KOZEL_PLAYS = tuple(
    tuple(
        tuple(
            Action("play", name, tile, None, _KOZEL_TILES[on] if on >= 0 else None)
            for on in range(-1, len(_KOZEL_TILES))
        )
        for tile in _KOZEL_TILES
    )
    for name in KOZEL_PLAYERS
)
_KOZEL_PASSES = tuple(Action("pass", name) for name in KOZEL_PLAYERS)
_KOZEL_SEATS = {name: seat for seat, name in enumerate(KOZEL_PLAYERS)}


def _kozel_setup(number: int, leader: str | None) -> RoundSetup[KozelOptions]:
    """The (immutable) round set-up, made once per round number and leader."""
    key = (number, leader if number > 1 else None)
    setup = _KOZEL_SETUPS.get(key)
    if setup is None:
        setup = Kozel.round_setup(number, KOZEL_PLAYERS, 6, KozelOptions(), [])
        if number > 1:
            setup = replace(setup, starter=leader)
        setup = _KOZEL_SETUPS.setdefault(key, setup)
    return setup


def kozel_round(
    rng: random.Random, number: int, leader: str | None, check_view: bool = False
) -> tuple[RoundEnd, int]:
    """One random full Kozel round, 4 players, all 28 tiles dealt (hidden from the engine).

    The bots see the table as players do (they track the two ends of the line from the
    plays they make) and each plays the first tile of its sorted hand that fits an end, or
    knocks. Every action goes through ``KozelRound.apply``, which validates it (a refusal
    raises). Round 1 is led by the first tile of the kz.lead.first order; later rounds by
    the player who went out or made the fish last round. ``check_view`` compares the
    bots' view of the ends with the engine's after every action (for the smoke test).
    The bots hold tiles as their index in the set, and reuse immutable actions.
    """
    order = list(range(len(_KOZEL_TILES)))
    rng.shuffle(order)
    hands = [sorted(order[seat * 7 : (seat + 1) * 7]) for seat in range(4)]
    engine = KozelRound(_kozel_setup(number, leader))
    low, high, seats = _KOZEL_LOW, _KOZEL_HIGH, _KOZEL_SEATS
    ends: list[list[int]] = []  # the bots' view: [tile at the end, value it shows] for both ends
    actions = 0
    while engine.outcome() is None:
        player = engine.turn()
        end = position = None
        if player is None:  # round 1: whoever holds the first tile in the lead order
            seat_of = {index: seat for seat, hand in enumerate(hands) for index in hand}
            first = next(index for index in _LEAD_ORDER if index in seat_of)
            seat = seat_of[first]
            position = hands[seat].index(first)
            action = _KOZEL_PLAYS[seat][first][0]
        else:
            seat = seats[player]
            hand = hands[seat]
            if not ends:
                position = 0
                action = _KOZEL_PLAYS[seat][hand[0]][0]
            else:
                action = _KOZEL_PASSES[seat]
                first_value, second_value = ends[0][1], ends[1][1]
                for index, tile in enumerate(hand):
                    if low[tile] == first_value or high[tile] == first_value:
                        end = 0
                    elif low[tile] == second_value or high[tile] == second_value:
                        end = 1
                    else:
                        continue
                    position = index
                    action = _KOZEL_PLAYS[seat][tile][ends[end][0] + 1]
                    break
        engine.apply(action)
        if position is not None:
            tile = hands[seat].pop(position)
            if end is None:
                ends = [[tile, low[tile]], [tile, high[tile]]]
            else:
                shown = ends[end][1]
                ends[end] = [tile, high[tile] if low[tile] == shown else low[tile]]
        actions += 1
        if check_view and engine.outcome() is None:
            assert engine.extra_state()["ends"] == [value for _, value in ends], (ends, engine.extra_state())
            assert engine.targets() == list(dict.fromkeys(_KOZEL_TILES[tile] for tile, _ in ends))
    outcome = engine.outcome()
    assert outcome is not None
    return outcome, actions


def bench_kozel(seconds: float, seed: int = 1) -> Rate:
    rng = random.Random(seed)
    played = 0
    leader: str | None = None

    def one() -> int:
        nonlocal played, leader
        number = played % 5 + 1  # a game of five rounds, then a fresh game
        outcome, actions = kozel_round(rng, number, leader)
        played += 1
        leader = outcome.player
        return actions

    return _rate(*_timed_loop(seconds, one))


def bench_kozel_engine_only(seconds: float, rounds: int = 500, seed: int = 11) -> ReplayRate:
    """The engine's share of ``bench_kozel``: the actions of ``rounds`` recorded rounds
    applied again on fresh engines (no dealing, no choosing), for ``seconds``."""
    rng = random.Random(seed)
    recorded: list[tuple[RoundSetup[KozelOptions], list[Action]]] = []
    leader = None
    log: list[Action] = []
    engine_apply = KozelRound.apply

    def recording(self: RoundEngine[KozelOptions, Tile | None, Plan], action: Action) -> None:
        log.append(action)
        engine_apply(self, action)

    KozelRound.apply = recording  # type: ignore[method-assign]  # a spy while recording, put back below
    try:
        for index in range(rounds):
            number = index % 5 + 1
            log = []
            outcome, _ = kozel_round(rng, number, leader)
            setup = Kozel.round_setup(number, KOZEL_PLAYERS, 6, KozelOptions(), [])
            recorded.append((replace(setup, starter=leader) if number > 1 else setup, log))
            leader = outcome.player
    finally:
        KozelRound.apply = engine_apply  # type: ignore[method-assign]  # the engine's own again
    replayed = 0

    def one() -> int:
        nonlocal replayed
        setup, log = recorded[replayed % rounds]
        replayed += 1
        engine = KozelRound(setup)
        for action in log:
            engine.apply(action)
        return len(log)

    count, actions, elapsed = _timed_loop(seconds, one)
    return {**_rate(count, actions, elapsed), "us_per_action": elapsed / actions * 1e6}


def bench_dominoes(seconds: float, seed: int = 1) -> LibraryRate | None:
    """Random full games of the PyPI ``dominoes`` library (4 players, double-six)."""
    try:
        import dominoes  # optional: the "bench" extra
    except ImportError:
        return None
    random.seed(seed)  # the library deals and chooses with the module-level random

    def one() -> int:
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            game.make_move(*game.valid_moves[0])
        return len(game.moves)

    return {**_rate(*_timed_loop(seconds, one)), "version": _version("dominoes")}


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def bench_kozel_vs_dominoes(seconds: float, slices: int = 10) -> tuple[Rate, LibraryRate | None]:
    """Both engines in alternating slices, so that a machine shared with other work slows
    both alike; returns their totals."""
    kozel_parts: list[Rate] = []
    dominoes_parts: list[LibraryRate] | None = []
    for index in range(slices):
        kozel_parts.append(bench_kozel(seconds / slices, seed=index + 1))
        other = bench_dominoes(seconds / slices, seed=index + 1)
        if other is None:
            dominoes_parts = None
        elif dominoes_parts is not None:
            dominoes_parts.append(other)
    kozel = _total(kozel_parts)
    if not dominoes_parts:
        return kozel, None
    return kozel, {**_total(dominoes_parts), "version": dominoes_parts[-1]["version"]}


def _total(parts: list[Rate] | list[LibraryRate]) -> Rate:
    rounds = sum(part["rounds"] for part in parts)
    seconds = sum(part["seconds"] for part in parts)
    return _rate(rounds, sum(part["actions"] for part in parts), seconds)


# ----- Mexican Train ----------------------------------------------------------------------


class MexicanTrainHands:
    """What the engine never sees in a Mexican Train round: the hands and the boneyard; and
    the table as the players see it (each train's open end, tracked from the plays)."""

    def __init__(
        self,
        rng: random.Random,
        setup: RoundSetup[MexicanTrainOptions],
        players: tuple[str, ...],
        trains: list[str],
    ) -> None:
        assert setup.double is not None  # a Mexican Train round grows from its double
        tiles = [tile for tile in full_set(setup.highest) if tile != setup.double]
        rng.shuffle(tiles)
        size = setup.hand_size
        self.hands: dict[str, list[Tile]] = {
            name: sorted(tiles[seat * size : (seat + 1) * size]) for seat, name in enumerate(players)
        }
        self.pool = tiles[len(players) * size :]
        self.open = {key: setup.double.high for key in trains}

    def next_action(self, engine: MexicanTrainRound) -> Action:
        """The first tile of the hand that the engine accepts (``is_legal``) on a train
        whose open end it matches, else a draw when the engine allows one, else a pass."""
        player = engine.turn()
        assert player is not None
        ends = self.open.items()
        for tile in self.hands[player]:
            for key, value in ends:
                if tile.has(value):
                    action = Action("play", player, tile, key)
                    if engine.is_legal(action):
                        return action
        draw = Action("draw", player)
        if self.pool and engine.is_legal(draw):
            return draw
        return Action("pass", player)

    def took(self, action: Action) -> None:
        """Book an accepted action in the hidden hands and the table."""
        assert action.player is not None
        if action.type == "play":
            assert action.tile is not None and action.train is not None
            self.hands[action.player].remove(action.tile)
            self.open[action.train] = action.tile.other(self.open[action.train])
        elif action.type == "draw":
            self.hands[action.player].append(self.pool.pop())

    def left(self) -> dict[str, list[str]]:
        return {name: [str(tile) for tile in hand] for name, hand in self.hands.items()}


def mt_round(rng: random.Random, number: int) -> tuple[RoundEnd, int]:
    """One random full Mexican Train round: 8 players, double-12, every action validated."""
    options = MexicanTrainOptions(first_double=12)
    setup = MexicanTrain.round_setup(number, MT_PLAYERS, 12, options, [])
    engine = MexicanTrainRound(setup)
    hidden = MexicanTrainHands(rng, setup, MT_PLAYERS, engine.targets())
    actions = 0
    while engine.outcome() is None:
        action = hidden.next_action(engine)
        engine.apply(action)
        hidden.took(action)
        actions += 1
    outcome = engine.outcome()
    assert outcome is not None
    return outcome, actions


def bench_mt(seconds: float, seed: int = 1) -> Rate:
    rng = random.Random(seed)
    played = 0

    def one() -> int:
        nonlocal played
        number = played % 13 + 1
        played += 1
        return mt_round(rng, number)[1]

    return _rate(*_timed_loop(seconds, one))


# ----- the profile and the report --------------------------------------------------------


def profile_engines(seconds: float = 2.0) -> str:
    """cProfile of both engines' random rounds, the functions that took longest first."""
    out = io.StringIO()
    benches: tuple[tuple[str, Callable[[float], Rate]], ...] = (
        ("Kozel", bench_kozel),
        ("Mexican Train", bench_mt),
    )
    for name, bench in benches:
        profiler = cProfile.Profile()
        profiler.enable()
        bench(seconds)
        profiler.disable()
        out.write(f"=== {name} engine ===\n")
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def run(sizes: Sizes) -> Part:
    kozel, dom = bench_kozel_vs_dominoes(sizes.engine_seconds)
    alone = bench_kozel_engine_only(sizes.engine_seconds / 5)
    mt = bench_mt(sizes.engine_seconds)
    ratio = kozel["per_s"] / dom["per_s"] if dom else None
    rows = [
        Row(
            "Kozel rounds/s (4 players)",
            fmt(kozel["per_s"], 0),
            f"{kozel['actions'] / kozel['rounds']:.1f} actions/round",
        ),
        Row(
            "  of which the engine alone could do",
            fmt(alone["per_s"], 0),
            f"rounds/s replaying recorded actions, {alone['us_per_action']:.2f} us/action",
        ),
        Row(
            "dominoes games/s (4 players, d6)",
            fmt(dom["per_s"], 0) if dom else "n/a",
            f"dominoes {dom['version']}" if dom else "pip install dominoes",
        ),
        Row("engine_kozel_vs_dominoes", fmt(ratio), "goal >= 2"),
        Row(
            "engine_mt_rounds_per_s (8 players, d12)",
            fmt(mt["per_s"], 0),
            f"{mt['actions'] / mt['rounds']:.1f} actions/round",
        ),
    ]
    figures = {
        "engine_kozel_vs_dominoes": round(ratio, 3) if ratio is not None else None,
        "engine_mt_rounds_per_s": round(mt["per_s"], 1),
    }
    return Part(rows, figures)
