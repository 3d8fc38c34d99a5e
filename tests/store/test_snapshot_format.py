"""Snapshots are pickles of ``Match``: when what a pickle of a played game holds changes
shape (a class's fields, slots or attributes, a class moved or renamed, an enum's values,
a game's option names), snapshots written before would be read into the new code as they
are. ``SNAPSHOT_FORMAT`` is what keeps them out (a snapshot of another format is rebuilt
from the log), so it must change with that shape: this test fails when it does not."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import pickle
import random
from collections.abc import Mapping
from typing import Any

from referee.match import GameConfig, Match
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.store import SNAPSHOT_FORMAT

# The fingerprint of the pickled shape each SNAPSHOT_FORMAT stands for. Never change an
# entry: when the shape changes, bump SNAPSHOT_FORMAT and add its fingerprint here.
SNAPSHOT_SHAPES = {
    4: "581caacf41a8cb24",
    5: "3c9bde828b444240",  # options as dataclasses, actions typed by ActionType, Standing.detail
    6: "2431b9c328e9f735",  # the games' rules as packages; actions, records, results, match split
}

# Played games of each game, in both modes (config, rounds booked): between them they reach
# every class a snapshot holds (rounds booked, a round in play with its actions, an undone
# action, Kozel's teams, a finished game's result).
GAMES = [
    ({"game": "mexican-train", "players": ["Ana", "Ben", "Cy"], "set": 9}, 3),
    ({"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"}, 99),
    ({"game": "chicken-foot", "players": ["Ana", "Ben", "Cy"], "set": 9}, 3),
    ({"game": "chicken-foot", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"}, 3),
    ({"game": "kozel", "players": ["Ana", "Ben", "Cy", "Di"]}, 3),
    ({"game": "kozel", "players": ["Ana", "Ben", "Cy", "Di"], "options": {"teams": True}}, 3),
    ({"game": "kozel", "players": ["Ana", "Ben"], "mode": "scores"}, 3),
]

ATOMS = (type(None), bool, int, float, complex, str, bytes)
CONTAINERS = (list, tuple, set, frozenset, dict)


def played(config: dict[str, Any], seed: int, rounds: int) -> Match:
    """``rounds`` rounds booked (played through in referee mode, doubles first, one action
    undone; the score pad's rounds gone out by each player in turn, so that a finished
    game of two ends tied), then a few actions of the next round, up to a double left
    open."""
    rng = random.Random(seed)
    match = Match(GameConfig.from_json(config))
    undone = False
    for _ in range(5000):
        if match.finished or (match.number > rounds and (not match.referee or far_enough(match.history))):
            return match
        if match.referee and match.round_status() == "playing":
            assert match.engine is not None
            player = match.engine.turn() or rng.choice(match.players)
            plays = list(match.engine.legal_plays(player))
            doubles = [play for play in plays if play.tile is not None and play.tile.low == play.tile.high]
            tries = [rng.choice(doubles or plays)] if plays else []
            tries += [Action(kind, player) for kind in ("draw", "pass", "end", "start")]
            for action in tries:
                try:
                    match.apply(action)
                    break
                except (RuleViolation, BadRequest):
                    continue
            else:
                raise AssertionError(f"no action accepted in {config}")
            if not undone and len(match.history) == 5:
                match.apply(Action("undo"))
                undone = True
        else:
            sizes = match.engine.hand_sizes() if match.referee and match.engine is not None else {}
            if match.referee:
                hands = {
                    player: 0 if sizes[player] == 0 else 3 + seat for seat, player in enumerate(match.players)
                }
            else:
                out = match.players[match.number % len(match.players)]
                hands = {player: 0 if player == out else 5 for player in match.players}
            match.enter_hands(match.number, {"hands": hands})
    raise AssertionError(f"{config} did not get far enough")


def far_enough(history: list[Action]) -> bool:
    last = history[-1] if history else None
    double = last is not None and last.tile is not None and last.tile.low == last.tile.high
    return len(history) >= 30 or (len(history) >= 6 and double)


def name_of(thing: Any) -> str:
    return f"{thing.__module__}.{thing.__qualname__}"


def snapshot_shape(matches: list[Match]) -> dict[str, Any]:
    """Every class a pickle of ``matches`` holds, by its full name, with its shape: the
    fields of a dataclass or a named tuple (in order: they are pickled by position), an
    enum's values, the slots or attributes pickled of any other object, the keys of a
    mapping of the project's own (a game's options), and a custom reduction's function."""
    shapes: dict[str, Any] = {}
    seen: dict[int, Any] = {}  # (holding what it saw, so that no id is reused meanwhile)
    stack: list[Any] = list(matches)
    while stack:
        thing = stack.pop()
        kind = type(thing)
        if kind in ATOMS or id(thing) in seen:
            continue
        seen[id(thing)] = thing
        if kind in CONTAINERS:
            stack.extend([*thing.items()] if kind is dict else thing)
            continue
        if isinstance(thing, type):  # pickled by name
            shapes.setdefault(name_of(thing), "class")
            continue
        shape: dict[str, Any] = shapes.setdefault(name_of(kind), {})
        if isinstance(thing, enum.Enum):
            shape["values"] = sorted((member.name, repr(member.value)) for member in kind)
            continue
        if dataclasses.is_dataclass(thing):
            shape["fields"] = [field.name for field in dataclasses.fields(thing)]
        elif isinstance(thing, tuple) and hasattr(kind, "_fields"):
            shape["fields"] = list(kind._fields)
        if isinstance(thing, Mapping) and kind.__module__.startswith("referee"):
            shape["keys"] = sorted({*shape.get("keys", ()), *map(str, thing)})
        reduced = thing.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        function, args, state = reduced[0], reduced[1], reduced[2] if len(reduced) > 2 else None
        if name_of(function) != "copyreg.__newobj__":
            shape["reduced by"] = name_of(function)
        stack.extend(args)
        for part in state if isinstance(state, tuple) else (state,):
            if isinstance(part, dict):
                if "fields" not in shape:
                    shape["attributes"] = sorted({*shape.get("attributes", ()), *part})
                stack.extend(part.values())
            elif part is not None:
                stack.append(part)
    return shapes


def fingerprint(shapes: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(shapes, sort_keys=True).encode()).hexdigest()[:16]


def test_snapshot_format_changes_with_the_pickled_shape_of_a_match():
    shapes = snapshot_shape([played(config, seed, rounds) for seed, (config, rounds) in enumerate(GAMES)])
    assert "referee.match.game.Match" in shapes and "referee.rules.records.RoundRecord" in shapes
    found = fingerprint(shapes)
    listing = "\n".join(
        f"  {name}: {json.dumps(shape, sort_keys=True)}" for name, shape in sorted(shapes.items())
    )
    recorded = SNAPSHOT_SHAPES.get(SNAPSHOT_FORMAT)
    assert recorded is not None, (
        f"SNAPSHOT_FORMAT {SNAPSHOT_FORMAT} has no fingerprint yet: add SNAPSHOT_SHAPES[{SNAPSHOT_FORMAT}] = "
        f"{found!r} in this file.\nThe shape now:\n{listing}"
    )
    assert recorded == found, (
        f"A pickled Match no longer has the shape SNAPSHOT_FORMAT {SNAPSHOT_FORMAT} stands for: "
        f"bump SNAPSHOT_FORMAT (referee/store/snapshots.py) and update the fingerprint "
        f"(add SNAPSHOT_SHAPES[{SNAPSHOT_FORMAT + 1}] = {found!r} in this file).\n"
        f"The shape now:\n{listing}"
    )
