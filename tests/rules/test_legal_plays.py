"""The legality query of every round engine (``legal_plays``, ``places_for``), like
python-chess's ``legal_moves``: every play it lists is accepted by ``check``, every play it
leaves out is refused, in all three games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.match import GameConfig, Match
from referee.rules.base import Action, RoundEngine
from referee.tiles import Tile


def match_of(game: str, players: tuple[str, ...], set: int | None = None, **options: object) -> Match:
    body = {"game": game, "players": list(players), "options": options}
    if set is not None:
        body["set"] = set
    return Match(GameConfig.from_json(body))


def engine_after(game: str, players: tuple[str, ...], steps: list[Action], **options: object) -> RoundEngine:
    match = match_of(game, players, **options)
    for action in steps:
        match.apply(action)
    assert match.engine is not None
    return match.engine


def play(player: str, tile: str, **where: str) -> Action:
    place = {key: (Tile.parse(value) if key == "on" else value) for key, value in where.items()}
    return Action("play", player, Tile.parse(tile), **place)


def plays_of(engine: RoundEngine, player: str | None = None) -> set[tuple[str, str]]:
    """The legal plays as (tile, place) texts."""
    return {(str(a.tile), str(a.train if a.train is not None else a.on)) for a in engine.legal_plays(player)}


# ----- rule tables: (game, players, steps, options, player, expected plays) ---------------------

THREE = ("Ana", "Ben", "Caro")
TWO = ("Ana", "Ben")

TABLES = [
    # mt.start / mt.match: the first tile matches the engine (12) on one's own train or the Mexican
    (
        "mexican-train",
        THREE,
        [],
        {},
        "Ana",
        {(f"{low}-12", train) for low in range(12) for train in ("Ana", "mexican")},
    ),
    # turn: nobody but the player on turn has a legal play
    ("mexican-train", THREE, [], {}, "Ben", set()),
    # cf.start: before the spinner only the spinner, in the centre (double-9 by default)
    ("chicken-foot", THREE, [], {}, "Ana", {("9-9", "None")}),
    # kz.match: on a 3-5 lead, a tile with a 3 or a 5 joins the line (on 3-5)
    (
        "kozel",
        TWO,
        [Action("start", "Ana"), play("Ana", "3-5")],
        {},
        "Ben",
        {(str(t), "3-5") for t in map(Tile.parse, ("0-3", "1-3", "2-3", "3-3", "3-4", "3-6"))}
        | {(str(t), "3-5") for t in map(Tile.parse, ("0-5", "1-5", "2-5", "4-5", "5-5", "5-6"))},
    ),
]


@pytest.mark.parametrize(("game", "players", "steps", "options", "player", "expected"), TABLES)
def test_legal_plays_table(game, players, steps, options, player, expected):
    engine = engine_after(game, players, steps, **options)
    assert plays_of(engine, player) == expected


def test_places_for_names_each_place_where_a_tile_fits():
    engine = engine_after("mexican-train", THREE, [])
    assert engine.places_for("Ana", Tile(5, 12)) == ("Ana", "mexican")
    assert engine.places_for("Ana", Tile(3, 4)) == ()
    assert engine.places_for("Ana", Tile(12, 12)) == ()  # the engine is on the table
    kozel = engine_after("kozel", TWO, [Action("start", "Ana"), play("Ana", "3-5"), play("Ben", "5-6")])
    assert kozel.places_for("Ana", Tile(3, 6)) == (Tile(3, 5), Tile(5, 6))  # both ends fit
    assert kozel.places_for("Ana", Tile(0, 6)) == (Tile(5, 6),)
    assert kozel.places_for("Ana", Tile(3, 5)) == ()  # on the table already


def test_legal_plays_default_to_the_player_on_turn_and_are_empty_once_the_round_is_over():
    engine = engine_after("mexican-train", THREE, [])
    assert engine.legal_plays() == engine.legal_plays("Ana")
    blocked = engine_after(
        "mexican-train", TWO, [Action("pass", "Ana"), Action("pass", "Ben")], set=9, hand_size=27
    )
    assert blocked.outcome() is not None  # mt.end.blocked
    assert blocked.legal_plays("Ana") == () and blocked.places_for("Ana", Tile(1, 9)) == ()


# ----- every listed play is accepted, every other play refused ---------------------------------

GAMES = [
    ("mexican-train", ("Ana", "Ben", "Caro"), {}),
    ("mexican-train", ("Ana", "Ben"), {"first_turn": "build"}),
    ("chicken-foot", ("Ana", "Ben", "Caro"), {}),
    ("kozel", ("Ana", "Ben", "Caro", "Dan"), {}),
    ("kozel", ("Ana", "Ben"), {}),
]


def _all_plays(engine: RoundEngine, player: str) -> list[Action]:
    return [
        engine.play_at(player, tile, place)
        for tile in engine.setup.tiles
        if tile not in engine.tiles_on_table()
        for place in engine.targets()
    ]


@given(case=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_legal_plays_agree_with_check(case, seed):
    game, players, options = case
    rng = random.Random(seed)
    match = match_of(game, players, **options)
    for _step in range(40):
        engine = match.engine
        if engine is None or match.round_status() != "playing":
            break
        mover = engine.turn() or rng.choice(players)
        legal = engine.legal_plays(mover)
        for action in legal:
            assert engine.is_legal(action), action
        listed = set(legal)
        for action in _all_plays(engine, mover):
            if action not in listed:
                assert not engine.is_legal(action), action
        for other in players:  # a player not on turn has no legal play (the turn rule)
            if engine.turn() is not None and other != engine.turn():
                assert all(not engine.is_legal(a) for a in _all_plays(engine, other)[:20])
        # move on: a legal play, else a draw, a pass or an end the rules accept
        options_now = list(legal) + [Action(kind, mover) for kind in ("draw", "pass", "end", "start")]
        accepted = [a for a in options_now if engine.is_legal(a)]
        if not accepted:
            break
        choice = rng.choice(list(legal)) if legal and rng.random() < 0.8 else rng.choice(accepted)
        match.apply(choice)
