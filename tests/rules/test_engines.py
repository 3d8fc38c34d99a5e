"""What the three round engines share: one vocabulary (``players``, ``hands``, ``_boneyard``,
``_outcome``) behind the public queries, and snapshots pickled before the engines shared it
still read."""

from __future__ import annotations

import copy
import pickle

import pytest

from referee.match import GameConfig, Match
from referee.rules.base import Action, RoundEngine
from referee.tiles import Tile

# Each game: its new-game body and a few accepted actions that leave a round in play.
GAMES = {
    "mexican-train": (
        {"game": "mexican-train", "set": 12, "players": ["Ana", "Ben", "Caro"]},
        [Action("play", "Ana", Tile(5, 12), train="Ana"), Action("draw", "Ben")],
    ),
    "chicken-foot": (
        {"game": "chicken-foot", "set": 9, "players": ["Ana", "Ben", "Caro"]},
        [
            Action("draw", "Ben"),
            Action("play", "Ana", Tile(9, 9)),
            Action("play", "Ben", Tile(4, 9), on=Tile(9, 9)),
        ],
    ),
    "kozel": (
        {"game": "kozel", "players": ["Ana", "Ben", "Caro"]},
        [Action("play", "Ben", Tile(1, 1)), Action("play", "Caro", Tile(1, 5), on=Tile(1, 1))],
    ),
}


def engine_of(game: str) -> RoundEngine:
    body, actions = GAMES[game]
    match = Match(GameConfig.from_json(body))
    for action in actions:
        match.apply(action)
    assert match.engine is not None
    return match.engine


def seen(engine: RoundEngine) -> tuple[object, ...]:
    """Everything the API shows of a round, and what the rules would accept next."""
    return (
        engine.turn(),
        engine.outcome(),
        engine.boneyard(),
        engine.hand_sizes(),
        engine.tiles_on_table(),
        engine.extra_state(),
        engine.reminders(),
        engine.legal_plays(),
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_queries_read_the_shared_names(game: str) -> None:
    engine = engine_of(game)
    assert engine.players == tuple(GAMES[game][0]["players"])
    assert engine.hand_sizes() == engine.hands and engine.hand_sizes() is not engine.hands
    assert engine.boneyard() == engine._boneyard > 0
    assert engine.outcome() is engine._outcome is None
    engine.hands[engine.players[0]] += 1  # a copy is handed out, the engine's own count read
    assert engine.hand_sizes()[engine.players[0]] == engine.hands[engine.players[0]]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_snapshot_pickled_under_the_former_names_reads_the_same(game: str) -> None:
    engine = engine_of(game)
    former = {new: old for old, new in type(engine).former_names.items()}
    old = copy.copy(engine)
    old.__dict__ = {former.get(key, key): value for key, value in engine.__dict__.items()}
    body = pickle.dumps(old, protocol=pickle.HIGHEST_PROTOCOL)
    for name in former.values():
        assert name.encode() in body  # the pickle really carries the former name
    restored = pickle.loads(body)
    assert not set(former.values()) & set(restored.__dict__)
    assert seen(restored) == seen(engine)
    # and it goes on playing like the engine it was taken from
    following = engine.legal_plays()[0]
    restored.apply(following)
    engine.apply(following)
    assert seen(restored) == seen(engine)


def test_the_former_names_are_those_of_chicken_foot_and_mexican_train() -> None:
    assert set(type(engine_of("chicken-foot")).former_names) == {"yard", "end"}
    assert set(type(engine_of("mexican-train")).former_names) == {"_players", "_hands"}
    assert type(engine_of("kozel")).former_names == {}
