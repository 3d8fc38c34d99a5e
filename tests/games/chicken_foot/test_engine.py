"""Chicken Foot round engine (`cf.*`): rule-by-rule situations and random full rounds."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.rules.base import Action, RoundEnd, RuleViolation
from referee.rules.book import rules_by_id
from referee.rules.chicken_foot import (
    ChickenFoot,
    ChickenFootOptions,
    ChickenFootRound,
)
from referee.tiles import Tile, full_set, set_size

T = Tile.parse
TWO = ("Ana", "Ben")


def make_round(players=TWO, highest=9, arms=4, hand_size=20, number=1) -> ChickenFootRound:
    options = ChickenFootOptions(arms=arms, hand_size=hand_size)
    setup = ChickenFoot.round_setup(number, tuple(players), highest, options, [])
    return ChickenFootRound(setup)


def parse_step(engine: ChickenFootRound, step: str) -> Action:
    """``"[Name:] verb [tile] [on tile]"``; without a name the player to move acts."""
    player = None
    if ":" in step:
        player, step = (part.strip() for part in step.split(":", 1))
    words = step.split()
    verb, rest = words[0], words[1:]
    if verb == "start":
        return Action("start", rest[0])
    player = player or engine.turn()
    tile = T(rest[0]) if rest else None
    on = T(rest[2]) if len(rest) >= 3 and rest[1] == "on" else None
    return Action(verb, player, tile, on=on)


def run(engine: ChickenFootRound, steps) -> ChickenFootRound:
    for step in steps:
        engine.apply(parse_step(engine, step))
    return engine


def snapshot(engine: ChickenFootRound):
    return (
        engine.extra_state(),
        engine.turn(),
        engine.hand_sizes(),
        engine.boneyard(),
        engine.outcome(),
        engine.tiles_on_table(),
        engine.reminders(),
        engine.targets(),
    )


SPUN = ["Ana: play 9-9"]
# Ana places the spinner, then Ben, Ana, Ben, Ana start the four arms: Ben is to move.
ARMS = SPUN + ["play 1-9 on 9-9", "play 2-9 on 9-9", "play 3-9 on 9-9", "play 4-9 on 9-9"]
# Ben lays 1-1 on the 1 arm: a chicken foot; Ana is to move.
FOOT = ARMS + ["play 1-1 on 1-9"]
FOOT_DONE = FOOT + ["play 1-5 on 1-1", "play 1-6 on 1-1", "play 1-7 on 1-1"]

# (id, engine options, steps before, the step judged, rule id of the refusal or None)
SITUATIONS = [
    # cf.start
    ("first tile must be the double", {}, [], "Ana: play 4-9", "cf.start"),
    ("first tile has no on", {}, [], "Ana: play 9-9 on 4-9", "cf.start"),
    ("anyone may place the spinner", {}, [], "Ben: play 9-9", None),
    ("later round starts with its own double", {"number": 3}, [], "Ana: play 9-9", "cf.start"),
    ("later round double accepted", {"number": 3}, [], "Ben: play 7-7", None),
    ("no pass before the spinner", {}, [], "Ana: pass", "cf.start"),
    ("anyone may draw looking for it", {}, ["Ben: draw"], "Ben: draw", None),
    ("named starter places it", {}, ["start Ben"], "Ben: play 9-9", None),
    ("only the named starter places it", {}, ["start Ben"], "Ana: play 9-9", "turn"),
    ("others do not draw once a starter is named", {}, ["start Ben"], "Ana: draw", "turn"),
    ("the named starter need not draw", {}, ["start Ben"], "Ben: draw", "cf.start"),
    ("the starter can be renamed", {}, ["start Ben"], "start Ana", None),
    ("no start after the spinner", {}, SPUN, "start Ben", "cf.start"),
    # turn and cf.one-tile
    ("the spinner's player does not play again", {}, SPUN, "Ana: play 1-9 on 9-9", "turn"),
    ("next player clockwise plays", {}, SPUN, "Ben: play 1-9 on 9-9", None),
    ("no draw out of turn", {}, SPUN, "Ana: draw", "turn"),
    ("no end action", {}, SPUN, "Ben: end", "cf.one-tile"),
    ("a double ends its player's turn", {}, FOOT, "Ben: play 1-5 on 1-1", "turn"),
    # cf.match and unique
    ("next to the spinner the half must be its number", {}, SPUN, "play 1-2 on 9-9", "cf.match"),
    ("a play must say where", {}, SPUN, "play 1-9", "cf.match"),
    ("on must be on the table", {}, SPUN, "play 1-9 on 1-1", "cf.match"),
    ("arm end value must match", {}, ARMS, "play 5-6 on 1-9", "cf.match"),
    ("arm end value matches", {}, ARMS, "play 1-5 on 1-9", None),
    ("covered tile has no place", {}, ARMS + ["play 1-5 on 1-9"], "play 1-6 on 1-9", "cf.match"),
    ("chain continues on the new end", {}, ARMS + ["play 1-5 on 1-9"], "play 5-6 on 1-5", None),
    ("the spinner has only its arms", {}, ARMS, "play 5-9 on 9-9", "cf.spinner"),
    ("tile already on the table", {}, ARMS, "play 1-9 on 4-9", "unique"),
    ("the spinner is on the table", {}, ARMS, "play 9-9 on 1-9", "unique"),
    # cf.spinner
    ("all arms before a second tile", {}, SPUN + ["play 1-9 on 9-9"], "play 1-5 on 1-9", "cf.spinner"),
    ("three arms are not four", {}, ARMS[:-1], "play 1-5 on 1-9", "cf.spinner"),
    ("six arms option", {"arms": 6}, ARMS, "play 1-5 on 1-9", "cf.spinner"),
    ("six arms: fifth arm", {"arms": 6}, ARMS, "play 5-9 on 9-9", None),
    (
        "six arms all started",
        {"arms": 6},
        ARMS + ["play 5-9 on 9-9", "play 6-9 on 9-9"],
        "play 1-5 on 1-9",
        None,
    ),
    # cf.double
    ("a double on an arm end", {}, ARMS, "play 1-1 on 1-9", None),
    ("no play elsewhere during a foot", {}, FOOT, "play 2-5 on 2-9", "cf.double"),
    ("a toe on the foot", {}, FOOT, "play 1-5 on 1-1", None),
    ("a toe matches the double", {}, FOOT, "play 2-5 on 1-1", "cf.match"),
    ("two toes are not three", {}, FOOT_DONE[:-1], "play 2-5 on 2-9", "cf.double"),
    ("after three toes play is free", {}, FOOT_DONE, "play 2-5 on 2-9", None),
    ("a finished foot takes no fourth toe", {}, FOOT_DONE, "play 1-8 on 1-1", "cf.match"),
    ("a toe is an open end", {}, FOOT_DONE, "play 5-8 on 1-5", None),
    (
        "a double on a toe starts a new foot",
        {},
        FOOT_DONE + ["play 5-5 on 1-5"],
        "play 2-3 on 2-9",
        "cf.double",
    ),
    ("the new foot takes toes", {}, FOOT_DONE + ["play 5-5 on 1-5"], "play 5-8 on 5-5", None),
    # cf.draw
    ("a draw on the turn", {}, SPUN, "Ben: draw", None),
    ("one draw per turn", {}, SPUN + ["Ben: draw"], "Ben: draw", "cf.draw"),
    ("no pass before the draw", {}, SPUN, "Ben: pass", "cf.draw"),
    ("a pass after the draw", {}, SPUN + ["Ben: draw"], "Ben: pass", None),
    ("the drawn tile may be played", {}, SPUN + ["Ben: draw"], "Ben: play 1-9 on 9-9", None),
    ("the next player draws afresh", {}, SPUN + ["Ben: draw", "Ben: pass"], "Ana: draw", None),
    ("no draw from an empty yard", {"hand_size": 27}, ["Ben: draw", "Ana: play 9-9"], "Ben: draw", "cf.draw"),
    ("pass with an empty yard", {"hand_size": 27}, ["Ben: draw", "Ana: play 9-9"], "Ben: pass", None),
    (
        "no draw before the spinner from an empty yard",
        {"hand_size": 27},
        ["Ben: draw"],
        "Ana: draw",
        "cf.draw",
    ),
    # cf.end
    ("nothing after the last tile", {"hand_size": 1}, SPUN, "Ben: draw", "cf.end"),
    (
        "nothing after a block",
        {"hand_size": 27},
        ["Ben: draw", "Ana: play 9-9", "Ben: pass", "Ana: pass"],
        "Ben: pass",
        "cf.end",
    ),
]


@pytest.mark.parametrize(
    "options, before, step, rule", [case[1:] for case in SITUATIONS], ids=[case[0] for case in SITUATIONS]
)
def test_situation(options, before, step, rule):
    engine = run(make_round(**options), before)
    action = parse_step(engine, step)
    before_state = snapshot(engine)
    if rule is None:
        engine.check(action)
        assert snapshot(engine) == before_state
        engine.apply(action)
        assert snapshot(engine) != before_state
        return
    with pytest.raises(RuleViolation) as refused:
        engine.check(action)
    assert refused.value.rule_id == rule
    with pytest.raises(RuleViolation) as refused_apply:
        engine.apply(action)
    assert refused_apply.value.rule_id == rule
    assert refused.value.message == refused_apply.value.message
    assert refused.value.message.endswith(".") and "\n" not in refused.value.message
    assert snapshot(engine) == before_state


def test_every_rule_cited_exists_in_the_rule_book():
    cited = {case[4] for case in SITUATIONS if case[4]} | {"cf.rounds"}
    assert cited <= set(rules_by_id())


# ---------------------------------------------------------------- state and reporting


def test_fresh_round_counts_and_no_turn_before_the_spinner():
    engine = make_round(players=("A", "B", "C"), hand_size=7)
    assert engine.boneyard() == 55 - 21
    assert engine.hand_sizes() == {"A": 7, "B": 7, "C": 7}
    assert engine.turn() is None
    assert engine.targets() == [None]
    assert engine.extra_state()["open_ends"] == [] and engine.extra_state()["foot"] is None
    assert engine.outcome() is None
    engine.apply(Action("draw", "C"))
    engine.apply(Action("draw", "A"))
    assert engine.boneyard() == 55 - 23
    assert engine.hand_sizes() == {"A": 8, "B": 7, "C": 8}
    assert engine.turn() is None
    engine.apply(Action("start", "C"))
    assert engine.turn() == "C"
    engine.apply(Action("play", "C", T("9-9")))
    assert engine.turn() == "A"  # clockwise from the spinner's player
    assert engine.hand_sizes() == {"A": 8, "B": 7, "C": 7}
    assert engine.tiles_on_table() == frozenset({T("9-9")})


def test_open_ends_follow_spinner_arms_and_feet():
    engine = run(make_round(), SPUN + ["play 1-9 on 9-9"])
    state = engine.extra_state()
    assert state["open_ends"] == [{"on": "9-9", "value": 9, "free": 3}]
    assert engine.targets() == [T("9-9")]
    run(engine, ARMS[2:])
    assert engine.extra_state()["open_ends"] == [
        {"on": "1-9", "value": 1, "free": 1},
        {"on": "2-9", "value": 2, "free": 1},
        {"on": "3-9", "value": 3, "free": 1},
        {"on": "4-9", "value": 4, "free": 1},
    ]
    run(engine, ["play 1-1 on 1-9"])
    state = engine.extra_state()
    assert state["foot"] == {"double": "1-1", "toes": 0}
    assert state["open_ends"] == [{"on": "1-1", "value": 1, "free": 3}]
    assert engine.targets() == [T("1-1")]
    run(engine, ["play 1-5 on 1-1", "play 1-6 on 1-1"])
    assert engine.extra_state()["foot"] == {"double": "1-1", "toes": 2}
    run(engine, ["play 1-7 on 1-1"])
    state = engine.extra_state()
    assert state["foot"] is None
    assert [end["on"] for end in state["open_ends"]] == ["2-9", "3-9", "4-9", "1-5", "1-6", "1-7"]
    assert [end["value"] for end in state["open_ends"]] == [2, 3, 4, 5, 6, 7]


def test_tableau_structure_for_drawing():
    engine = run(make_round(), FOOT_DONE + ["play 5-5 on 1-5", "play 5-8 on 5-5"])
    state = engine.extra_state()
    assert state["spinner"] == "9-9" and state["arm_count"] == 4 and state["starter"] == "Ana"
    assert state["arms"][1:] == [
        [{"tile": "2-9", "end": 2}],
        [{"tile": "3-9", "end": 3}],
        [{"tile": "4-9", "end": 4}],
    ]
    assert state["arms"][0] == [
        {"tile": "1-9", "end": 1},
        {
            "tile": "1-1",
            "end": 1,
            "dead": False,
            "toes": [
                [
                    {"tile": "1-5", "end": 5},
                    {"tile": "5-5", "end": 5, "dead": False, "toes": [[{"tile": "5-8", "end": 8}]]},
                ],
                [{"tile": "1-6", "end": 6}],
                [{"tile": "1-7", "end": 7}],
            ],
        },
    ]
    assert state["foot"] == {"double": "5-5", "toes": 1}


def test_double_player_turn_ends_and_toes_come_from_anyone():
    engine = run(
        make_round(players=("A", "B", "C")),
        ["A: play 9-9", "play 1-9 on 9-9", "play 2-9 on 9-9", "play 3-9 on 9-9", "play 4-9 on 9-9"],
    )
    assert engine.turn() == "C"
    run(engine, ["play 4-4 on 4-9"])
    assert engine.turn() == "A"
    run(engine, ["A: draw", "A: pass", "B: play 4-0 on 4-4", "C: draw", "C: play 4-2 on 4-4"])
    assert engine.extra_state()["foot"] == {"double": "4-4", "toes": 2}
    assert engine.turn() == "A"


# The 1 tiles 1-9, 1-0, 1-2, 1-3, 1-5, 1-6, 1-4 go on the table, then 1-1 on a 1 end:
# only 1-7 and 1-8 are left for its three toes.
NEARLY_ALL_ONES = ARMS + [
    "play 0-1 on 1-9",
    "play 1-2 on 2-9",
    "play 1-3 on 1-2",
    "play 3-5 on 3-9",
    "play 1-5 on 3-5",
    "play 1-6 on 1-5",
    "play 1-4 on 4-9",
]


def test_foot_keeps_its_claim_while_a_tile_of_its_number_is_off_the_table():
    # `cf.foot.dead`: two tiles of 1 are off the table for three missing toes: the foot
    # still claims them until the last one is on the table.
    engine = run(make_round(), NEARLY_ALL_ONES + ["play 1-1 on 1-4"])
    state = engine.extra_state()
    assert state["foot"] == {"double": "1-1", "toes": 0}
    assert [end["on"] for end in state["open_ends"]] == ["1-1"]
    assert_refused_changes_nothing(engine, parse_step(engine, "play 0-8 on 0-1"), "cf.double")
    assert state["arms"][3][-1]["dead"] is False
    run(engine, ["play 1-7 on 1-1"])
    assert engine.extra_state()["foot"] == {"double": "1-1", "toes": 1}
    run(engine, ["play 1-8 on 1-1"])
    # Every 1 is on the table now: the foot is dead and restricts nothing.
    state = engine.extra_state()
    assert state["foot"] is None
    assert engine.is_legal(parse_step(engine, "play 0-8 on 0-1"))
    # Its third toe place stays an open end, like any end no tile can match any more.
    assert {"on": "1-1", "value": 1, "free": 1} in state["open_ends"]
    assert state["arms"][3][-1]["dead"] is True


def test_foot_with_enough_tiles_left_restricts():
    # Without 1-6 on the table three tiles of 1 (1-6, 1-7, 1-8) can still be its toes.
    steps = [step for step in NEARLY_ALL_ONES if "1-6" not in step] + ["play 1-1 on 1-5"]
    engine = run(make_round(), steps)
    assert engine.extra_state()["foot"] == {"double": "1-1", "toes": 0}
    with pytest.raises(RuleViolation) as refused:
        engine.check(parse_step(engine, "play 0-8 on 0-1"))
    assert refused.value.rule_id == "cf.double"
    run(engine, ["play 1-6 on 1-1"])
    assert engine.extra_state()["foot"] == {"double": "1-1", "toes": 1}


def test_domino_ends_the_round_and_refuses_everything():
    engine = run(make_round(hand_size=2), SPUN + ["play 1-9 on 9-9"])
    assert engine.reminders()[-2:] == [
        {"rule": "cf.end", "text": "Ana has one tile left: the round ends when it is played."},
        {"rule": "cf.end", "text": "Ben has one tile left: the round ends when it is played."},
    ]
    run(engine, ["Ana: play 2-9 on 9-9"])
    assert engine.outcome() == RoundEnd("domino", "Ana")
    assert engine.turn() is None and engine.targets() == [] and engine.reminders() == []
    assert engine.hand_sizes() == {"Ana": 0, "Ben": 1}
    for step in ["Ben: play 3-9 on 9-9", "Ben: draw", "Ben: pass", "start Ben"]:
        with pytest.raises(RuleViolation) as refused:
            engine.check(parse_step(engine, step))
        assert refused.value.rule_id == "cf.end"


def test_spinner_as_last_tile_goes_out():
    engine = run(make_round(hand_size=1), ["Ben: play 9-9"])
    assert engine.outcome() == RoundEnd("domino", "Ben")


def test_blocked_needs_every_player_to_pass_in_a_row_with_an_empty_yard():
    players = ("A", "B", "C")
    # 3 x 18 = 54: one tile in the yard.
    engine = run(make_round(players=players, hand_size=18), ["B: play 9-9", "C: draw"])
    assert engine.boneyard() == 0
    run(engine, ["C: pass", "A: pass"])
    assert engine.outcome() is None
    run(engine, ["B: play 1-9 on 9-9", "C: pass", "A: pass"])
    assert engine.outcome() is None  # a tile was played in between
    run(engine, ["B: pass"])
    assert engine.outcome() == RoundEnd("blocked", None)
    assert engine.turn() is None


def test_block_waits_until_the_yard_is_empty_after_the_last_pass():
    engine = run(make_round(hand_size=26), ["Ana: play 9-9"])  # yard 3
    run(engine, ["Ben: draw", "Ben: pass", "Ana: draw", "Ana: pass"])
    assert engine.boneyard() == 1 and engine.outcome() is None  # everyone passed, yard not empty
    run(engine, ["Ben: draw"])
    assert engine.outcome() is None
    # Ana's pass and Ben's are in a row, nothing was laid since, and the yard is now empty.
    run(engine, ["Ben: pass"])
    assert engine.outcome() == RoundEnd("blocked", None)


def test_reminders_follow_the_draw():
    engine = make_round()
    assert engine.reminders()[0]["rule"] == "cf.start"
    run(engine, SPUN)
    assert engine.reminders() == [
        {
            "rule": "cf.draw",
            "text": ("Ben must play a tile if they can; with no legal play they draw one from the yard."),
        }
    ]
    run(engine, ["Ben: draw"])
    assert engine.reminders() == [
        {"rule": "cf.draw", "text": ("Ben has drawn: play the drawn tile if it fits, otherwise pass.")}
    ]
    assert engine.extra_state()["drew"] is True


def test_legal_places_lights_every_fitting_place():
    engine = make_round()
    assert engine.places_for("Ana", T("9-9")) == (None,)
    assert engine.places_for("Ana", T("4-9")) == ()
    run(engine, ARMS + ["play 1-5 on 1-9", "play 3-5 on 3-9"])
    assert engine.turn() == "Ben"
    assert engine.places_for("Ben", T("2-5")) == (T("2-9"), T("1-5"), T("3-5"))
    assert engine.places_for("Ben", T("6-7")) == ()
    assert engine.places_for("Ana", T("2-5")) == ()  # not Ana's turn


def test_round_state_pickles_and_keeps_playing():
    engine = run(make_round(), FOOT + ["play 1-5 on 1-1"])
    copy = pickle.loads(pickle.dumps(engine))
    assert snapshot(copy) == snapshot(engine)
    for target in (engine, copy):
        run(target, ["play 1-6 on 1-1"])
    assert snapshot(copy) == snapshot(engine)


def test_leave_and_undo_are_not_round_actions():
    engine = run(make_round(), SPUN)
    with pytest.raises(RuleViolation) as refused:
        engine.check(Action("leave", "Ben"))
    assert refused.value.rule_id == "cf.rounds"
    with pytest.raises(RuleViolation):
        engine.check(Action("undo"))


# ---------------------------------------------------------------- random full rounds


class TableModel:
    """An independent, simple reading of where a tile may go (`cf.match`, `cf.spinner`,
    `cf.double`, `cf.foot.dead`), kept by the test to judge the engine."""

    def __init__(self, spinner: Tile, arms: int, highest: int) -> None:
        self.spinner, self.arms, self.highest = spinner, arms, highest
        self.free: dict[Tile, int] = {}
        self.value: dict[Tile, int] = {}
        self.order: list[Tile] = []
        self.feet: list[Tile] = []

    def place(self, tile: Tile, on: Tile | None) -> None:
        if on is None:
            self.free[tile], self.value[tile] = self.arms, tile.low
        else:
            self.free[on] -= 1
            if tile.is_double:
                self.free[tile], self.value[tile] = 3, tile.low
                self.feet.append(tile)
            else:
                self.free[tile], self.value[tile] = 1, tile.other(self.value[on])
        self.order.append(tile)

    def places(self) -> list[Tile]:
        if self.free[self.spinner] > 0:
            return [self.spinner]
        for foot in self.feet:
            if self.free[foot] > 0 and self.tiles_left(foot.low) > 0:
                return [foot]
        return [tile for tile in self.order if self.free[tile] > 0]

    def tiles_left(self, number: int) -> int:
        return sum(1 for other in range(self.highest + 1) if Tile(number, other) not in self.free)

    def dead_feet(self) -> int:
        return sum(1 for foot in self.feet if self.free[foot] > 0 and self.tiles_left(foot.low) == 0)

    def fits(self, tile: Tile, on: Tile, places: list[Tile]) -> bool:
        """``places``: this turn's ``places()``, passed in because the model is slow."""
        return tile not in self.free and on in places and tile.has(self.value[on])


def assert_refused_changes_nothing(engine: ChickenFootRound, action: Action, rule: str | None = None):
    before = snapshot(engine)
    with pytest.raises(RuleViolation) as refused:
        engine.apply(action)
    if rule is not None:
        assert refused.value.rule_id == rule
    assert refused.value.rule_id in rules_by_id()
    assert snapshot(engine) == before


def assert_conserved(engine, hands, yard, highest):
    table = engine.tiles_on_table()
    everything = list(table) + [tile for hand in hands.values() for tile in hand] + yard
    assert sorted(everything) == sorted(full_set(highest))
    assert engine.hand_sizes() == {name: len(hand) for name, hand in hands.items()}
    assert engine.boneyard() == len(yard)


@st.composite
def tables(draw):
    highest = draw(st.sampled_from([9, 12]))
    hand_size = draw(st.sampled_from([7, 7, 5, 3, None]))
    if hand_size is None:
        # Nearly the whole set dealt: a small yard makes blocked rounds likely.
        count = draw(st.integers(2, 8))
        hand_size = set_size(highest) // count - draw(st.integers(0, 1))
    else:
        count = draw(st.integers(2, min(8, set_size(highest) // hand_size)))
    arms = draw(st.sampled_from([4, 6]))
    number = draw(st.integers(1, highest + 1))
    return highest, hand_size, count, arms, number


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), rng=st.randoms(use_true_random=False))
def test_random_full_round(table, rng: random.Random):
    highest, hand_size, count, arms, number = table
    players = tuple(f"P{seat}" for seat in range(count))
    options = ChickenFootOptions(arms=arms, hand_size=hand_size)
    setup = ChickenFoot.round_setup(number, players, highest, options, [])
    engine = ChickenFootRound(setup)
    spinner = setup.double
    tiles = list(full_set(highest))
    rng.shuffle(tiles)
    hands = {name: tiles[seat * hand_size : (seat + 1) * hand_size] for seat, name in enumerate(players)}
    yard = tiles[count * hand_size :]
    model = TableModel(spinner, arms, highest)
    accepted: list[Action] = []

    def accept(action: Action) -> None:
        engine.apply(action)
        accepted.append(action)

    # cf.start: the holder places the spinner; if no one holds it, players draw in turn.
    holder = next((name for name, hand in hands.items() if spinner in hand), None)
    event("spinner in a hand" if holder else "spinner drawn from the yard")
    seat = rng.randrange(count)
    while holder is None:
        assert engine.turn() is None
        drawer = players[seat]
        if yard[-1] != spinner:
            assert_refused_changes_nothing(engine, Action("play", drawer, yard[-1]), "cf.start")
        tile = yard.pop()
        accept(Action("draw", drawer))
        hands[drawer].append(tile)
        if tile == spinner:
            holder = drawer
        seat = (seat + 1) % count
    assert_refused_changes_nothing(engine, Action("pass", holder), "cf.start")
    if rng.random() < 0.5:
        accept(Action("start", holder))
        assert engine.turn() == holder
        other = players[(players.index(holder) + 1) % count]
        assert_refused_changes_nothing(engine, Action("play", other, spinner), "turn")
    assert_refused_changes_nothing(engine, Action("play", holder, spinner, on=spinner), "cf.start")
    accept(Action("play", holder, spinner))
    hands[holder].remove(spinner)
    model.place(spinner, None)
    assert_conserved(engine, hands, yard, highest)

    passes_in_a_row = 0
    while engine.outcome() is None:
        player = engine.turn()
        assert player is not None
        hand = hands[player]
        places = model.places()
        assert engine.targets() == places
        assert [end["on"] for end in engine.extra_state()["open_ends"]] == [str(p) for p in places]
        laid = list(engine.tiles_on_table())
        probes = set(places) | set(rng.sample(laid, min(2, len(laid))))
        moves = []
        for tile in hand:
            for on in probes:
                fits = model.fits(tile, on, places)
                assert engine.is_legal(Action("play", player, tile, on=on)) == fits, (tile, on)
                if fits:
                    moves.append((tile, on))
        if rng.random() < 0.1:
            stranger = players[(players.index(player) + 1) % count]
            assert_refused_changes_nothing(engine, Action("draw", stranger), "turn")
            assert_refused_changes_nothing(engine, Action("end", player), "cf.one-tile")
            if laid:
                assert_refused_changes_nothing(
                    engine, Action("play", player, rng.choice(laid), on=places[0]), "unique"
                )
        if not moves and yard:
            assert_refused_changes_nothing(engine, Action("pass", player), "cf.draw")
            drawn = yard.pop()
            accept(Action("draw", player))
            hand.append(drawn)
            assert_refused_changes_nothing(engine, Action("draw", player), "cf.draw")
            moves = [(drawn, on) for on in places if model.fits(drawn, on, places)]
        if moves:
            tile, on = rng.choice(sorted(moves))
            accept(Action("play", player, tile, on=on))
            hand.remove(tile)
            model.place(tile, on)
            passes_in_a_row = 0
        else:
            if not yard:
                assert_refused_changes_nothing(engine, Action("draw", player), "cf.draw")
            accept(Action("pass", player))
            passes_in_a_row += 1
        assert_conserved(engine, hands, yard, highest)
        if rng.random() < 0.05:
            copy = pickle.loads(pickle.dumps(engine))
            assert snapshot(copy) == snapshot(engine)

    end = engine.outcome()
    event(f"round ends {end.reason}")
    event(f"{len(model.feet)} feet" if len(model.feet) < 3 else "3+ feet")
    event("a dead foot" if model.dead_feet() else "no dead foot")
    if end.reason == "domino":
        assert hands[end.player] == [] and all(hands[name] for name in players if name != end.player)
    else:
        assert end == RoundEnd("blocked", None)
        assert not yard and passes_in_a_row >= count
        places = model.places()
        assert not any(
            model.fits(tile, on, places) for hand in hands.values() for tile in hand for on in places
        )
    assert_refused_changes_nothing(engine, Action("draw", players[0]), "cf.end")

    replay = ChickenFootRound(setup)
    for action in accepted:
        replay.apply(action)
    assert snapshot(replay) == snapshot(engine)
