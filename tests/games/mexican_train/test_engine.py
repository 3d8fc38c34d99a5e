"""Mexican Train round engine (`mt.*`): rule tables and random full rounds."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.base import Action, RoundEnd, RoundSetup, RuleViolation
from referee.rules.mexican_train import (
    MEXICAN,
    MexicanTrain,
    MexicanTrainOptions,
    MexicanTrainRound,
)
from referee.tiles import Tile, full_set, set_size

T = Tile.parse

PLAYERS = ("Ana", "Ben", "Caro")


def make_round(
    players=PLAYERS, highest=12, engine=12, hand_size=None, starter=None, **options
) -> MexicanTrainRound:
    options = MexicanTrainOptions(**options)
    hand = hand_size or MexicanTrain.hand_size(highest, len(players), options)
    setup = RoundSetup(
        players=tuple(players),
        highest=highest,
        options=options,
        number=1,
        double=Tile(engine, engine),
        starter=starter or players[0],
        hand_size=hand,
    )
    return MexicanTrainRound(setup)


def parse(step: str) -> Action:
    """``"Ana play 12-5 mexican"``, ``"Ben draw"``, ``"Caro pass"``, ``"Ana end"``."""
    words = step.split()
    player, kind = words[0], words[1]
    if kind == "play":
        return Action("play", player, Tile.parse(words[2]), words[3])
    return Action(kind, player)


def run(engine: MexicanTrainRound, steps) -> MexicanTrainRound:
    for step in steps:
        engine.apply(parse(step))
    return engine


def rule_of(engine: MexicanTrainRound, step: str) -> str | None:
    """The rule id that refuses ``step`` (checked with both check and apply), or None."""
    action = parse(step)
    before = snapshot(engine)
    try:
        engine.check(action)
    except RuleViolation as refusal:
        with pytest.raises(RuleViolation) as again:
            engine.apply(action)
        assert again.value.rule_id == refusal.rule_id
        assert snapshot(engine) == before, "a refused action changed the state"
        assert refusal.message and refusal.message[0].isupper() and refusal.message.endswith(".")
        return refusal.rule_id
    engine.apply(action)
    return None


def snapshot(engine: MexicanTrainRound):
    return (
        pickle.dumps(engine.__dict__),
        engine.extra_state(),
        engine.turn(),
        engine.hand_sizes(),
        engine.boneyard(),
        engine.outcome(),
    )


# Opening moves shared by the tables: each player starts a train with one tile.
OPEN_THREE = ["Ana play 12-5 Ana", "Ben play 12-6 mexican", "Caro play 12-7 Caro"]
# Ana then lays two doubles (5-5 on her train, 6-6 on the Mexican train).
TWO_DOUBLES = OPEN_THREE + ["Ana play 5-5 Ana", "Ana play 6-6 mexican"]
# Ana lays 5-5 and follows elsewhere: the 5-5 stays open for everyone.
OPEN_FIVE = OPEN_THREE + ["Ana play 5-5 Ana", "Ana play 6-1 mexican"]
# Ana lays 5-5, cannot follow, draws and passes: 5-5 open on her marked train.
OPEN_FIVE_MARKED = OPEN_THREE + ["Ana play 5-5 Ana", "Ana draw", "Ana pass"]

SINGLE_CASES = [
    # turn
    ("turn: out of turn play", {}, [], "Ben play 12-3 Ben", "turn"),
    ("turn: out of turn draw", {}, [], "Caro draw", "turn"),
    ("turn: out of turn pass", {}, ["Ana draw"], "Ben pass", "turn"),
    ("turn: on turn", {}, [], "Ana play 12-3 Ana", None),
    # mt.start
    ("start names another starter", {}, ["Ben start"], "Ben play 12-3 Ben", None),
    ("start: old starter is no longer on turn", {}, ["Ben start"], "Ana play 12-3 Ana", "turn"),
    ("start twice before play", {}, ["Ben start"], "Caro start", None),
    ("start after a play", {}, ["Ana play 12-3 Ana"], "Caro start", "mt.start"),
    ("start after a draw", {}, ["Ana draw"], "Ana start", "mt.start"),
    # mt.train / unique / mt.match
    ("unknown train", {}, [], "Ana play 12-3 Dora", "mt.train"),
    ("tile outside the set", {}, [], "Ana play 12-13 Ana", "tiles"),
    ("tile already on the table", {}, ["Ana play 12-3 Ana"], "Ben play 12-3 Ben", "unique"),
    ("the engine is on the table", {}, [], "Ana play 12-12 Ana", "unique"),
    ("empty train opens with engine value", {}, [], "Ana play 3-4 Ana", "mt.match"),
    (
        "tile must match open end",
        {},
        ["Ana play 12-3 Ana", "Ben draw", "Ben pass", "Caro draw", "Caro pass"],
        "Ana play 4-5 Ana",
        "mt.match",
    ),
    (
        "open end follows the tile's other half",
        {},
        ["Ana play 12-3 Ana", "Ben draw", "Ben pass", "Caro draw", "Caro pass"],
        "Ana play 3-9 Ana",
        None,
    ),
    ("mexican train open to all", {}, [], "Ana play 12-3 mexican", None),
    # mt.train.available
    ("unmarked other train", {}, [], "Ana play 12-3 Ben", "mt.train.available"),
    ("marked other train", {}, ["Ana draw", "Ana pass"], "Ben play 12-3 Ana", None),
    ("own train always", {}, ["Ana draw", "Ana pass"], "Ben play 12-3 Ben", None),
    # mt.one-tile
    ("second tile in a turn", {}, ["Ana play 12-3 Ana"], "Ana play 3-4 Ana", "mt.one-tile"),
    (
        "second tile after the next player drew",
        {},
        ["Ana play 12-3 Ana", "Ben draw"],
        "Ana play 3-4 Ana",
        "turn",
    ),
    # mt.draw
    ("second draw", {}, ["Ana draw"], "Ana draw", "mt.draw"),
    ("draw after a double", {}, OPEN_THREE + ["Ana play 5-5 Ana"], "Ana draw", None),
    ("draw again after a double", {}, OPEN_THREE + ["Ana draw", "Ana play 5-5 Ana"], "Ana draw", None),
    ("second draw after a double", {}, OPEN_THREE + ["Ana play 5-5 Ana", "Ana draw"], "Ana draw", "mt.draw"),
    ("draw after two doubles", {}, TWO_DOUBLES + ["Ana draw"], "Ana draw", "mt.draw"),
    (
        "drawn double earns another draw",
        {},
        OPEN_THREE + ["Ana play 5-5 Ana", "Ana draw", "Ana play 6-6 mexican"],
        "Ana draw",
        None,
    ),
    # mt.marker.place
    ("pass without drawing", {}, [], "Ana pass", "mt.marker.place"),
    ("pass after drawing", {}, ["Ana draw"], "Ana pass", None),
    (
        "pass after a double without drawing",
        {},
        OPEN_THREE + ["Ana draw", "Ana play 5-5 Ana"],
        "Ana pass",
        "mt.marker.place",
    ),
    ("pass after a double and a draw", {}, OPEN_THREE + ["Ana play 5-5 Ana", "Ana draw"], "Ana pass", None),
    # mt.double.follow
    ("double: same player again", {}, OPEN_THREE + ["Ana play 5-5 Ana"], "Ben play 6-1 mexican", "turn"),
    ("follow-up on the double", {}, OPEN_THREE + ["Ana play 5-5 Ana"], "Ana play 5-1 Ana", None),
    ("follow-up elsewhere", {}, OPEN_THREE + ["Ana play 5-5 Ana"], "Ana play 6-1 mexican", None),
    (
        "follow-up still needs an available train",
        {},
        OPEN_THREE + ["Ana play 5-5 Ana"],
        "Ana play 7-1 Caro",
        "mt.train.available",
    ),
    ("two doubles: follow-up on the first", {}, TWO_DOUBLES, "Ana play 5-1 Ana", None),
    ("two doubles: not on the second first", {}, TWO_DOUBLES, "Ana play 6-1 mexican", "mt.double.order"),
    ("two doubles: not elsewhere", {}, TWO_DOUBLES, "Ana play 12-1 Ben", "mt.double.follow"),
    ("two doubles: the first must still match", {}, TWO_DOUBLES, "Ana play 12-1 Ana", "mt.match"),
    ("newest: follow-up on the last", {"doubles_order": "newest"}, TWO_DOUBLES, "Ana play 6-1 mexican", None),
    (
        "newest: not on the first",
        {"doubles_order": "newest"},
        TWO_DOUBLES,
        "Ana play 5-1 Ana",
        "mt.double.order",
    ),
    ("two doubles: no end action", {}, TWO_DOUBLES, "Ana end", "mt.double.follow"),
    # mt.double.open / mt.double.order
    ("open double binds the next player", {}, OPEN_FIVE, "Ben play 6-2 Ben", "mt.double.open"),
    ("open double binds mexican too", {}, OPEN_FIVE, "Ben play 1-2 mexican", "mt.double.open"),
    ("open double on unmarked train may be played", {}, OPEN_FIVE, "Ben play 5-2 Ana", None),
    ("open double must still match", {}, OPEN_FIVE, "Ben play 6-2 Ana", "mt.match"),
    (
        "open double binds its own player later",
        {},
        OPEN_FIVE + ["Ben draw", "Ben pass", "Caro draw", "Caro pass"],
        "Ana play 1-2 mexican",
        "mt.double.open",
    ),
    ("open double after a pass", {}, OPEN_FIVE_MARKED, "Ben play 6-2 mexican", "mt.double.open"),
    ("open double after a pass: play on it", {}, OPEN_FIVE_MARKED, "Ben play 5-2 Ana", None),
    ("open double: draw then pass", {}, OPEN_FIVE + ["Ben draw"], "Ben pass", None),
    (
        "two open doubles: oldest first",
        {},
        TWO_DOUBLES + ["Ana draw", "Ana pass"],
        "Ben play 6-2 mexican",
        "mt.double.order",
    ),
    ("two open doubles: the oldest", {}, TWO_DOUBLES + ["Ana draw", "Ana pass"], "Ben play 5-2 Ana", None),
    (
        "two open doubles: not elsewhere",
        {},
        TWO_DOUBLES + ["Ana draw", "Ana pass"],
        "Ben play 12-2 Ben",
        "mt.double.open",
    ),
    (
        "newest: newest first",
        {"doubles_order": "newest"},
        TWO_DOUBLES + ["Ana draw", "Ana pass"],
        "Ben play 6-2 mexican",
        None,
    ),
    (
        "newest: not the oldest",
        {"doubles_order": "newest"},
        TWO_DOUBLES + ["Ana draw", "Ana pass"],
        "Ben play 5-2 Ana",
        "mt.double.order",
    ),
    ("satisfied double frees play", {}, OPEN_FIVE + ["Ben play 5-2 Ana"], "Caro play 7-2 Caro", None),
    (
        "second open double next",
        {},
        TWO_DOUBLES + ["Ana draw", "Ana pass", "Ben play 5-2 Ana"],
        "Caro play 7-2 Caro",
        "mt.double.open",
    ),
    # mt.first-turn (single)
    ("no end action in single", {}, [], "Ana end", "mt.first-turn"),
    ("first turn single: one tile", {}, ["Ana play 12-5 Ana"], "Ana play 5-6 Ana", "mt.one-tile"),
]

BUILD = {"first_turn": "build"}
BUILD_CASES = [
    ("build: chain on own train", BUILD, ["Ana play 12-5 Ana"], "Ana play 5-6 Ana", None),
    ("build: end after laying", BUILD, ["Ana play 12-5 Ana", "Ana play 5-6 Ana"], "Ana end", None),
    ("build: end after laying nothing", BUILD, [], "Ana end", "mt.first-turn"),
    ("build: not on mexican", BUILD, [], "Ana play 12-5 mexican", "mt.first-turn"),
    ("build: not on another's train", BUILD, [], "Ana play 12-5 Ben", "mt.first-turn"),
    ("build: not on a marked train", BUILD, ["Ana draw", "Ana pass"], "Ben play 12-5 Ana", "mt.first-turn"),
    ("build: no draw after laying", BUILD, ["Ana play 12-5 Ana"], "Ana draw", "mt.first-turn"),
    ("build: no pass after laying", BUILD, ["Ana play 12-5 Ana"], "Ana pass", "mt.first-turn"),
    ("build: draw once", BUILD, ["Ana draw"], "Ana draw", "mt.draw"),
    ("build: draw then lay", BUILD, ["Ana draw"], "Ana play 12-5 Ana", None),
    ("build: draw, lay, go on building", BUILD, ["Ana draw", "Ana play 12-5 Ana"], "Ana play 5-6 Ana", None),
    ("build: draw, lay, no pass", BUILD, ["Ana draw", "Ana play 12-5 Ana"], "Ana pass", "mt.first-turn"),
    ("build: draw then pass", BUILD, ["Ana draw"], "Ana pass", None),
    (
        "build: double mid-chain owes nothing",
        BUILD,
        ["Ana play 12-5 Ana", "Ana play 5-5 Ana"],
        "Ana end",
        None,
    ),
    (
        "build: first-turn double does not bind yet",
        BUILD,
        ["Ana play 12-5 Ana", "Ana play 5-5 Ana", "Ana end"],
        "Ben play 12-6 Ben",
        None,
    ),
    (
        "build: first-turn double binds after the first turns",
        BUILD,
        [
            "Ana play 12-5 Ana",
            "Ana play 5-5 Ana",
            "Ana end",
            "Ben draw",
            "Ben pass",
            "Caro draw",
            "Caro pass",
        ],
        "Ana play 12-1 mexican",
        "mt.double.open",
    ),
    (
        "build: first-turn double satisfied later",
        BUILD,
        [
            "Ana play 12-5 Ana",
            "Ana play 5-5 Ana",
            "Ana end",
            "Ben draw",
            "Ben pass",
            "Caro draw",
            "Caro pass",
        ],
        "Ana play 5-1 Ana",
        None,
    ),
    (
        "build: second turn is one tile",
        BUILD,
        [
            "Ana play 12-5 Ana",
            "Ana end",
            "Ben draw",
            "Ben pass",
            "Caro draw",
            "Caro pass",
            "Ana play 5-6 Ana",
        ],
        "Ana play 6-1 Ana",
        "mt.one-tile",
    ),
    (
        "build: marked trains open after the first turns",
        BUILD,
        ["Ana play 12-5 Ana", "Ana end", "Ben draw", "Ben pass", "Caro draw", "Caro pass"],
        "Ana play 12-1 Ben",
        None,
    ),
    (
        "build: mexican open after the first turns",
        BUILD,
        ["Ana play 12-5 Ana", "Ana end", "Ben draw", "Ben pass", "Caro draw", "Caro pass"],
        "Ana play 12-1 mexican",
        None,
    ),
    (
        "build: no end after the first turns",
        BUILD,
        ["Ana play 12-5 Ana", "Ana end", "Ben draw", "Ben pass", "Caro draw", "Caro pass", "Ana draw"],
        "Ana end",
        "mt.first-turn",
    ),
    (
        "build: first turns follow the named starter",
        BUILD,
        ["Caro start", "Caro play 12-5 Caro", "Caro end", "Ana draw", "Ana pass", "Ben draw", "Ben pass"],
        "Caro play 12-6 mexican",
        None,
    ),
]


@pytest.mark.parametrize(
    "name, options, before, step, expected",
    SINGLE_CASES + BUILD_CASES,
    ids=[case[0] for case in SINGLE_CASES + BUILD_CASES],
)
def test_rule_table(name, options, before, step, expected):
    engine = run(make_round(**options), before)
    assert rule_of(engine, step) == expected


def test_setup_counts_and_engine():
    engine = make_round()
    assert engine.boneyard() == 91 - 1 - 3 * 16
    assert engine.hand_sizes() == {"Ana": 16, "Ben": 16, "Caro": 16}
    assert engine.tiles_on_table() == {Tile(12, 12)}
    assert engine.turn() == "Ana"
    assert engine.targets() == ["Ana", "Ben", "Caro", "mexican"]
    assert engine.extra_state() == {
        "trains": {key: {"tiles": [], "open": 12, "marker": False} for key in engine.targets()},
        "open_doubles": [],
    }
    assert make_round(starter="Caro").turn() == "Caro"
    assert make_round(highest=9, engine=9, players=("Ana", "Ben")).boneyard() == 55 - 1 - 30


def test_trains_state_after_plays():
    engine = run(
        make_round(engine=9),
        ["Ana play 9-3 Ana", "Ben play 9-12 mexican", "Caro draw", "Caro pass", "Ana play 3-3 Ana"],
    )
    state = engine.extra_state()
    assert state["trains"]["Ana"] == {"tiles": ["3-9", "3-3"], "open": 3, "marker": False}
    assert state["trains"]["mexican"] == {"tiles": ["9-12"], "open": 12, "marker": False}
    assert state["trains"]["Caro"] == {"tiles": [], "open": 9, "marker": True}
    assert state["open_doubles"] == ["3-3"]  # the current turn's double is listed
    assert engine.turn() == "Ana"
    assert engine.hand_sizes() == {"Ana": 14, "Ben": 15, "Caro": 17}
    assert engine.boneyard() == 90 - 48 - 1
    assert engine.tiles_on_table() == {Tile(9, 9), Tile(3, 9), Tile(9, 12), Tile(3, 3)}


def test_marker_removed_only_by_owner_on_own_train():
    engine = run(make_round(), ["Ana draw", "Ana pass", "Ben play 12-3 Ana"])
    assert engine.extra_state()["trains"]["Ana"]["marker"] is True
    run(engine, ["Caro draw", "Caro pass", "Ana play 12-4 mexican"])
    assert engine.extra_state()["trains"]["Ana"]["marker"] is True
    run(engine, ["Ben draw", "Ben pass", "Caro draw", "Caro pass", "Ana play 3-4 Ana"])
    assert engine.extra_state()["trains"]["Ana"]["marker"] is False


def test_double_on_marked_train_keeps_marker_unless_owner():
    engine = run(make_round(), OPEN_FIVE_MARKED + ["Ben play 5-2 Ana"])
    assert engine.extra_state()["trains"]["Ana"]["marker"] is True
    assert engine.extra_state()["open_doubles"] == []
    owner = run(
        make_round(),
        OPEN_FIVE_MARKED + ["Ben draw", "Ben pass", "Caro draw", "Caro pass", "Ana play 5-2 Ana"],
    )
    assert owner.extra_state()["trains"]["Ana"]["marker"] is False


def test_open_doubles_listed_in_order():
    assert run(make_round(), TWO_DOUBLES).extra_state()["open_doubles"] == ["5-5", "6-6"]
    newest = run(make_round(doubles_order="newest"), TWO_DOUBLES)
    assert newest.extra_state()["open_doubles"] == ["6-6", "5-5"]
    after_pass = run(make_round(), TWO_DOUBLES + ["Ana draw", "Ana pass"])
    assert after_pass.extra_state()["open_doubles"] == ["5-5", "6-6"]
    assert after_pass.turn() == "Ben"
    assert after_pass.extra_state()["trains"]["Ana"]["marker"] is True


def test_build_first_turn_double_listed_after_everyone_started():
    engine = run(make_round(first_turn="build"), ["Ana play 12-5 Ana", "Ana play 5-5 Ana", "Ana end"])
    assert engine.extra_state()["open_doubles"] == []
    run(engine, ["Ben draw", "Ben pass"])
    assert engine.extra_state()["open_doubles"] == []
    run(engine, ["Caro play 12-7 Caro", "Caro end"])
    assert engine.extra_state()["open_doubles"] == ["5-5"]
    assert engine.turn() == "Ana"


def dead_five_round():
    """Ana lays every 5 but the double on her train, then 5-5: the 5-5 is dead at once."""
    engine = make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=20)
    chain = ["9-5", "5-0", "0-1", "1-5", "5-2", "2-3", "3-5", "5-4", "4-6", "6-5", "5-7", "7-8", "8-5"]
    for tile in chain:
        run(engine, [f"Ana play {tile} Ana", "Ben draw", "Ben pass"])
    return engine


def test_dead_double_does_not_restrict():
    engine = dead_five_round()
    run(engine, ["Ana play 5-5 Ana", "Ana draw", "Ana pass"])
    assert engine.extra_state()["trains"]["Ana"]["open"] == 5
    assert engine.extra_state()["open_doubles"] == []
    assert rule_of(engine, "Ben play 9-1 Ben") is None


def test_double_dies_when_its_last_tile_goes_elsewhere():
    # An empty boneyard (hands of 27) lets Ben pass at once while Ana lays her 5s.
    engine = make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=27)
    run(engine, ["Ana play 9-5 mexican", "Ben pass"])
    for tile in ["9-1", "1-5", "5-0", "0-2", "2-5", "5-3", "3-4", "4-5", "5-6", "6-8", "8-5"]:
        run(engine, [f"Ana play {tile} Ana", "Ben pass"])
    run(engine, ["Ana play 5-5 mexican"])
    assert engine.extra_state()["open_doubles"] == ["5-5"]  # 5-7 is still out
    run(engine, ["Ana play 5-7 Ana"])  # the free follow-up lays the last 5 elsewhere
    assert engine.extra_state()["open_doubles"] == []
    assert engine.extra_state()["trains"]["mexican"]["open"] == 5
    assert rule_of(engine, "Ben play 9-2 Ben") is None


def test_open_double_binds_until_dead():
    engine = make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=27)
    run(engine, ["Ana play 9-5 mexican", "Ben pass", "Ana play 5-5 mexican", "Ana play 9-1 Ana"])
    assert rule_of(engine, "Ben play 9-2 Ben") == "mt.double.open"


def test_domino_ends_round_at_once():
    engine = make_round(hand_size=1)
    run(engine, ["Ana play 12-5 Ana"])
    assert engine.outcome() == RoundEnd("domino", "Ana")
    assert engine.turn() is None
    assert rule_of(engine, "Ben draw") == "mt.end.domino"
    assert rule_of(engine, "Ben start") == "mt.end.domino"


def test_last_tile_double_owes_no_follow_up():
    engine = run(make_round(hand_size=2), OPEN_THREE + ["Ana play 5-5 Ana"])
    assert engine.outcome() == RoundEnd("domino", "Ana")
    assert engine.hand_sizes()["Ana"] == 0
    assert rule_of(engine, "Ana play 5-1 Ana") == "mt.end.domino"


def empty_boneyard_round():
    return make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=27)


def test_blocked_when_everyone_passes_with_empty_boneyard():
    engine = empty_boneyard_round()
    assert engine.boneyard() == 0
    assert rule_of(engine, "Ana draw") == "mt.draw"
    run(engine, ["Ana pass"])
    assert engine.outcome() is None
    run(engine, ["Ben pass"])
    assert engine.outcome() == RoundEnd("blocked", None)
    assert rule_of(engine, "Ana pass") == "mt.end.blocked"


def test_tile_between_passes_resets_blocked_count():
    engine = run(empty_boneyard_round(), ["Ana pass", "Ben play 9-1 Ben", "Ana pass"])
    assert engine.outcome() is None
    run(engine, ["Ben pass"])
    assert engine.outcome() == RoundEnd("blocked", None)


def test_blocked_needs_empty_boneyard_after_last_pass():
    engine = make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=26)
    assert engine.boneyard() == 2
    run(engine, ["Ana draw", "Ana pass", "Ben draw", "Ben pass"])
    assert engine.outcome() == RoundEnd("blocked", None)
    engine = make_round(players=("Ana", "Ben"), highest=9, engine=9, hand_size=25)
    run(engine, ["Ana draw", "Ana pass", "Ben draw", "Ben pass"])
    assert engine.outcome() is None and engine.boneyard() == 2


def test_reminders():
    engine = run(make_round(hand_size=2), ["Ana play 12-5 Ana"])
    notes = engine.reminders()
    assert notes[0]["text"].startswith("Ana has one tile left")
    assert [note["rule"] for note in notes] == ["mt.last-tile", "mt.must-play"]
    assert "Ben" in notes[-1]["text"]
    assert [note["rule"] for note in make_round().reminders()] == ["mt.must-play"]
    bound = run(make_round(), OPEN_FIVE)
    assert "5-5" in bound.reminders()[-1]["text"]


def test_places_for_names_the_legal_trains():
    engine = make_round()
    assert engine.places_for("Ana", T("12-5")) == ("Ana", "mexican")
    assert engine.places_for("Ana", Tile(3, 4)) == ()
    assert engine.places_for("Ben", T("12-5")) == ()
    run(engine, ["Ana draw", "Ana pass"])
    assert engine.places_for("Ben", T("5-12")) == ("Ana", "Ben", "mexican")
    bound = run(make_round(), OPEN_FIVE)
    assert bound.places_for("Ben", T("5-2")) == ("Ana",)


def test_actions_that_do_not_apply():
    engine = make_round()
    with pytest.raises(RuleViolation):
        engine.apply(Action("leave", "Ana"))
    with pytest.raises(RuleViolation) as refusal:
        engine.apply(Action("play", "Ana", Tile(12, 5), None))
    assert refusal.value.rule_id == "mt.train"


def test_state_is_picklable():
    engine = run(make_round(first_turn="build"), ["Ana play 12-5 Ana", "Ana play 5-5 Ana"])
    copy = pickle.loads(pickle.dumps(engine))
    assert copy.extra_state() == engine.extra_state()
    copy.apply(parse("Ana end"))
    assert copy.turn() == "Ben" and engine.turn() == "Ana"


# ---------------------------------------------------------------- random full rounds


@st.composite
def tables(draw):
    highest = draw(st.sampled_from([9, 12]))
    count = draw(st.integers(2, 4 if highest == 9 else 8))
    players = tuple(["Ana", "Ben", "Caro", "Dev", "Eli", "Fay", "Gus", "Hana"][:count])
    options = MexicanTrainOptions(
        first_turn=draw(st.sampled_from(["single", "build"])),
        doubles_order=draw(st.sampled_from(["oldest", "newest"])),
    )
    number = draw(st.integers(1, highest + 1))
    hand = MexicanTrain.hand_size(highest, count, options)
    if draw(st.booleans()):
        hand = draw(st.integers(1, (set_size(highest) - 1) // count))  # a table override
    setup = RoundSetup(
        players=players,
        highest=highest,
        options=options,
        number=number,
        double=MexicanTrain.round_double(number, highest, MexicanTrainOptions(first_double=highest)),
        starter=players[(number - 1) % count],
        hand_size=hand,
    )
    return setup


class Table:
    """The hidden side of a round: real hands and the boneyard, known only to the test."""

    def __init__(self, setup: RoundSetup, rng: random.Random) -> None:
        tiles = [tile for tile in full_set(setup.highest) if tile != setup.double]
        rng.shuffle(tiles)
        self.hands = {}
        for index, name in enumerate(setup.players):
            self.hands[name] = tiles[index * setup.hand_size : (index + 1) * setup.hand_size]
        self.boneyard = tiles[len(setup.players) * setup.hand_size :]
        self.table = [setup.double]
        self.open_ends = {key: setup.double.high for key in list(setup.players) + [MEXICAN]}


def legal_plays(engine, player, hand):
    return [
        Action("play", player, tile, key)
        for tile in hand
        for key in engine.targets()
        if engine.is_legal(Action("play", player, tile, key))
    ]


def bot_action(engine, table, player, rng) -> Action:
    plays = legal_plays(engine, player, table.hands[player])
    others = [
        Action(kind, player) for kind in ("draw", "end", "pass") if engine.is_legal(Action(kind, player))
    ]
    # A round must never get stuck: someone on turn always has a legal step.
    assert plays or others, (player, engine.extra_state())
    if plays and (not others or rng.random() < 0.9):
        return rng.choice(plays)
    # Hidden hands: drawing while holding a playable tile is not refused (mt.must-play).
    return rng.choice(others)


def assert_consistent(engine, table, setup):
    on_table = list(engine.tiles_on_table())
    assert sorted(on_table) == sorted(table.table)
    everywhere = on_table + table.boneyard + [tile for hand in table.hands.values() for tile in hand]
    assert sorted(everywhere) == sorted(full_set(setup.highest))
    assert engine.boneyard() == len(table.boneyard)
    assert engine.hand_sizes() == {name: len(hand) for name, hand in table.hands.items()}
    trains = engine.extra_state()["trains"]
    assert {key: train["open"] for key, train in trains.items()} == table.open_ends
    assert len(engine.extra_state()["open_doubles"]) == len(set(engine.extra_state()["open_doubles"]))


def try_refused(engine, setup, rng):
    """A few actions the engine refuses must leave it exactly as it was."""
    candidates = [
        Action(
            "play",
            rng.choice(setup.players),
            rng.choice(full_set(setup.highest)),
            rng.choice(engine.targets()),
        )
        for _ in range(4)
    ]
    candidates += [Action(kind, rng.choice(setup.players)) for kind in ("draw", "pass", "end", "start")]
    for action in candidates:
        before = snapshot(engine)
        try:
            engine.check(action)
        except RuleViolation as refusal:
            with pytest.raises(RuleViolation) as again:
                engine.apply(action)
            assert again.value.rule_id == refusal.rule_id
            assert snapshot(engine) == before
        else:
            assert snapshot(engine) == before  # check alone changes nothing


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=tables(), seed=st.integers(0, 2**32 - 1))
def test_random_full_rounds(setup, seed):
    rng = random.Random(seed)
    table = Table(setup, rng)
    engine = MexicanTrainRound(setup)
    accepted: list[Action] = []
    if rng.random() < 0.3:
        accepted.append(Action("start", rng.choice(setup.players)))
        engine.apply(accepted[-1])
    for _ in range(5000):
        if engine.outcome() is not None:
            break
        player = engine.turn()
        action = bot_action(engine, table, player, rng)
        was_first_turn = engine.in_first_turn()
        trains_before = engine.extra_state()["trains"]
        bound_before = engine.extra_state()["open_doubles"]
        engine.apply(action)  # a legal step by check() must be accepted
        accepted.append(action)
        if action.type == "play":
            key, tile = action.train, action.tile
            # Independent of the engine: the tile matched the open end and the train was one
            # the rules allow (own, Mexican, marked, or carrying a double that binds).
            assert tile.has(table.open_ends[key])
            if was_first_turn and setup.options.first_turn == "build":
                assert key == player
            else:
                binding_train = (
                    trains_before[key]["tiles"] and trains_before[key]["tiles"][-1] in bound_before
                )
                assert key in (player, MEXICAN) or trains_before[key]["marker"] or binding_train
            table.open_ends[key] = tile.other(table.open_ends[key])
            table.hands[player].remove(tile)
            table.table.append(tile)
        elif action.type == "draw":
            table.hands[player].append(table.boneyard.pop())
        elif action.type == "pass":
            assert engine.extra_state()["trains"][player]["marker"] is True
        assert_consistent(engine, table, setup)
        if rng.random() < 0.15:
            try_refused(engine, setup, rng)
    outcome = engine.outcome()
    assert outcome is not None, "the round did not end"
    if outcome.reason == "domino":
        assert table.hands[outcome.player] == []
        assert all(table.hands[name] for name in setup.players if name != outcome.player)
    else:
        assert outcome == RoundEnd("blocked", None)
        assert table.boneyard == []
        tail = [action for action in accepted if action.type in ("play", "pass")][-len(setup.players) :]
        assert [action.type for action in tail] == ["pass"] * len(setup.players)
    try_refused(engine, setup, rng)
    replay = MexicanTrainRound(setup)
    for action in accepted:
        replay.apply(action)
    assert snapshot(replay) == snapshot(engine)
    assert pickle.loads(pickle.dumps(engine)).extra_state() == engine.extra_state()
