"""Whole rounds through ``Match`` for every game, with hidden hands held by the test.

Bots play from the hands the test dealt; every change is checked against the invariants
of the referee: tiles are conserved (table + hands + boneyard is the set, each tile once),
the tracked hand sizes and boneyard equal the real ones, an undo restores exactly the
state before the action it takes back, and replaying the accepted actions on a fresh
match gives the live state. The round is then scored with the real hands.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.match import GameConfig, Match
from referee.rules import GAMES as RULES
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.rules.options import Option
from referee.tiles import full_set

GAMES = [
    {"game": "mexican-train", "players": ["Ana", "Ben", "Caro"], "set": 9},
    {
        "game": "mexican-train",
        "players": ["Ana", "Ben", "Caro", "Dan", "Eve"],
        "set": 12,
        "options": {"first_turn": "build", "doubles_order": "newest"},
    },
    {"game": "chicken-foot", "players": ["Ana", "Ben", "Caro", "Dan"], "set": 9},
    {"game": "chicken-foot", "players": ["Ana", "Ben"], "set": 12, "options": {"arms": 6}},
    {"game": "kozel", "players": ["Ana", "Ben"]},
    {"game": "kozel", "players": ["Ana", "Ben", "Caro", "Dan"]},
]


class Table:
    """The real table: who holds what, and the boneyard, which the referee never sees."""

    def __init__(self, match: Match, rng: random.Random) -> None:
        tiles = list(full_set(match.config.highest))
        if match.config.game == "mexican-train":
            tiles.remove(match.setup.double)  # the engine is set aside before the deal
        rng.shuffle(tiles)
        size = match.setup.hand_size
        self.hands = {name: tiles[i * size : (i + 1) * size] for i, name in enumerate(match.players)}
        self.boneyard = tiles[len(match.players) * size :]
        self.rng = rng

    def candidates(self, match: Match, player: str) -> list[Action]:
        engine = match.engine
        plays = []
        for tile in self.hands[player]:
            for target in engine.targets():
                if match.config.game == "mexican-train":
                    plays.append(Action("play", player, tile, train=target))
                else:
                    plays.append(Action("play", player, tile, on=target))
        self.rng.shuffle(plays)
        return plays + [Action(kind, player) for kind in ("end", "draw", "pass")]

    def next_action(self, match: Match) -> Action:
        engine = match.engine
        turn = engine.turn()
        players = [turn] if turn else list(match.players)
        for player in players:
            for action in self.candidates(match, player):
                if engine.is_legal(action):
                    return action
        raise AssertionError(f"nobody can act: {match.state()['round']}")

    def saved(self) -> tuple[dict, list]:
        return {name: list(hand) for name, hand in self.hands.items()}, list(self.boneyard)

    def restore(self, saved: tuple[dict, list]) -> None:
        self.hands, self.boneyard = saved

    def carry_out(self, action: Action) -> None:
        if action.type == "play":
            self.hands[action.player].remove(action.tile)
        elif action.type == "draw":
            self.hands[action.player].append(self.boneyard.pop(self.rng.randrange(len(self.boneyard))))


def check_conservation(match: Match, table: Table) -> None:
    engine = match.engine
    on_table = engine.tiles_on_table()
    held = [tile for hand in table.hands.values() for tile in hand]
    everything = list(on_table) + held + table.boneyard
    assert sorted(everything) == sorted(full_set(match.config.highest))
    assert engine.hand_sizes() == {name: len(hand) for name, hand in table.hands.items()}
    assert engine.boneyard() == len(table.boneyard)


@settings(max_examples=30)
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False), st.floats(0, 0.25))
def test_random_rounds_keep_the_referees_invariants(body, rng, undo_rate):
    play_a_checked_round(body, rng, undo_rate)


def option_values(option: Option, highest: int) -> st.SearchStrategy:
    """Any value a declared option allows."""
    if option.kind == "flag":
        return st.booleans()
    if option.kind == "choice":
        return st.sampled_from(option.values)
    return st.integers(option.low or 0, option.upper(highest) or 50)


@st.composite
def bodies_with_house_rules(draw) -> dict:
    """A Mexican Train or Chicken Foot table with every house rule drawn at random."""
    body = dict(draw(st.sampled_from([g for g in GAMES if g["game"] != "kozel"])))
    rules = RULES[body["game"]]
    options = dict(body.get("options", {}))
    for option in rules.declaration.house_rules:
        if option.name in ("first_double", "last_double"):
            continue  # the schedule of rounds: round 1 is played here
        if draw(st.booleans()):
            options[option.name] = draw(option_values(option, body["set"]))
    body["options"] = options
    return body


@settings(max_examples=30)
@given(bodies_with_house_rules(), st.randoms(use_true_random=False), st.floats(0, 0.25))
def test_random_rounds_with_house_rules_keep_the_referees_invariants(body, rng, undo_rate):
    play_a_checked_round(body, rng, undo_rate)


def play_a_checked_round(body: dict, rng: random.Random, undo_rate: float) -> None:
    """Play round 1 with bots, checking the invariants at every step, then score it."""
    match = Match(GameConfig.from_json(body))
    table = Table(match, rng)
    history: list[tuple[dict, tuple, Action]] = []
    steps = 0
    while match.round_status() == "playing":
        steps += 1
        assert steps < 5000, "the round does not end"
        if history and rng.random() < undo_rate:
            before, saved_table, _ = history.pop()
            match.apply(Action("undo"))
            assert match.state() == before  # undo restores exactly
            table.restore(saved_table)
            continue
        action = table.next_action(match)
        before = match.state()
        history.append((before, table.saved(), action))
        match.apply(action)
        table.carry_out(action)
        check_conservation(match, table)
        placed = sorted(match.engine.tiles_on_table())
        if placed and match.round_status() == "playing":
            again = Action(
                "play", match.engine.turn() or action.player, placed[0], train="mexican", on=placed[-1]
            )
            after = match.state()
            try:
                match.apply(again)  # a tile already on the table: always refused
            except (RuleViolation, BadRequest):
                pass
            else:
                raise AssertionError("a tile on the table was accepted again")
            assert match.state() == after  # a refusal changes nothing

    replayed = Match(match.config)
    for _, _, action in history:
        replayed.apply(action)
    assert replayed.state() == match.state()

    end = match.engine.outcome()
    assert end is not None
    hands = {name: [str(t) for t in hand] for name, hand in table.hands.items()}
    if end.reason == "domino":
        assert hands[end.player] == []
    facts = match.engine.round_facts()
    last_round = match.state()["round"]
    match.enter_hands(1, {"hands": hands})
    record = match.rounds[0]
    options = match.config.options
    for name, hand in table.hands.items():
        expected = match.rules.hand_points(hand, options)
        if end.reason == "domino" and end.player == name:
            expected = 0
            if match.config.game == "mexican-train":
                expected -= options.out_bonus  # mt.house.out-bonus
            elif (
                match.config.game == "chicken-foot"
                and options.double_out_penalty
                and history[-1][2].tile.is_double
            ):
                expected = options.double_out_penalty  # cf.house.double-out
        if match.config.game == "mexican-train" and last_round["trains"][name]["marker"]:
            expected += options.marker_penalty  # mt.house.marker
        if match.config.game == "chicken-foot":
            expected += options.open_foot_penalty * facts["open_feet"].count(name)  # cf.house.foot
        assert record.points[name] == expected
    assert match.number == 2 or match.finished
