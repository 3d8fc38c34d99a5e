"""House rules (RULES.md section 4): for each option, what it accepts, refuses and scores,
in referee mode and in the score pad where it applies, through ``Match`` (the pure core).

Every option is off by default, and a game without it plays exactly as before."""

from __future__ import annotations

import pytest

from referee.match import GameConfig, Match
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.rules.book import rules_by_id
from referee.rules.chicken_foot import ChickenFoot, ChickenFootOptions
from referee.rules.mexican_train import MexicanTrain, MexicanTrainOptions
from referee.tiles import Tile


def game(kind="mexican-train", players=("Ana", "Ben"), mode="referee", highest=9, **options) -> Match:
    body = {"game": kind, "players": list(players), "set": highest, "mode": mode, "options": options}
    return Match(GameConfig.from_json(body))


def step(match: Match, text: str) -> None:
    """``"Ana: play 9-1 Ana"`` (Mexican Train: the train), ``"Ana: play 9-1 on 9-9"``
    (Chicken Foot), ``"Ana: draw"``, ``"Ana: pass"``, ``"Ana: end"``."""
    player, rest = text.split(": ")
    words = rest.split()
    if words[0] != "play":
        match.apply(Action(words[0], player))
    elif match.config.game == "mexican-train":
        match.apply(Action("play", player, Tile.parse(words[1]), train=words[2]))
    elif len(words) == 2:
        match.apply(Action("play", player, Tile.parse(words[1])))
    else:
        match.apply(Action("play", player, Tile.parse(words[1]), on=Tile.parse(words[3])))


def play(match: Match, *steps: str) -> Match:
    for text in steps:
        step(match, text)
    return match


def refused(match: Match, text: str, rule: str) -> RuleViolation:
    before = match.state()
    with pytest.raises(RuleViolation) as caught:
        step(match, text)
    assert caught.value.rule_id == rule
    assert rule in rules_by_id()
    assert caught.value.message.endswith(".") and caught.value.message.count(". ") == 0  # one sentence
    assert match.state() == before  # a refusal changes nothing
    return caught.value


# ----- declarations: every house rule is off by default -------------------------------------


@pytest.mark.parametrize("rules", [MexicanTrain, ChickenFoot])
def test_house_rules_are_declared_off_and_echoed(rules):
    match = game(rules.name, highest=rules.default_set)
    options = match.state()["options"]
    for option in rules.declaration.house_rules:
        assert option.rule in rules_by_id()
        assert option.rule.startswith(f"{rules.prefix}.house.")
        assert options[option.name] == option.resolved_default(rules.default_set)
    assert rules.house_rules_in_force(match.config.options, rules.default_set) == []


# ----- mt.house.own-first -----------------------------------------------------------------

OWN_FIRST_TABLE = [
    # (options, steps before, the step, refused with)
    ({"own_train_first": True}, [], "Ana: play 9-1 Ana", None),
    ({"own_train_first": True}, [], "Ana: play 9-1 mexican", "mt.house.own-first"),
    ({}, [], "Ana: play 9-1 mexican", None),
    (
        {"own_train_first": True},
        ["Ana: play 9-1 Ana", "Ben: play 9-2 Ben", "Caro: play 9-4 Caro"],
        "Ana: play 9-3 mexican",
        None,
    ),
    (
        {"own_train_first": True},
        ["Ana: play 9-1 Ana", "Ben: draw", "Ben: pass"],
        "Caro: play 9-5 Ben",
        "mt.house.own-first",
    ),
    # An open double obliges: Ben's own train is empty, but he must satisfy the 3-3.
    (
        {"own_train_first": True},
        [
            "Ana: play 9-3 Ana",
            "Ben: draw",
            "Ben: pass",
            "Caro: play 9-4 Caro",
            "Ana: play 3-3 Ana",
            "Ana: draw",
            "Ana: pass",
        ],
        "Ben: play 3-5 Ana",
        None,
    ),
]


@pytest.mark.parametrize("options, before, text, rule", OWN_FIRST_TABLE)
def test_own_train_first(options, before, text, rule):
    match = play(game(players=("Ana", "Ben", "Caro"), **options), *before)
    if rule:
        refused(match, text, rule)
    else:
        step(match, text)


# ----- mt.house.double-out ----------------------------------------------------------------

DOUBLE_OUT_TABLE = [
    ({"double_out": "refused"}, "Ana: play 5-5 Ana", "mt.house.double-out"),
    ({"double_out": "refused"}, "Ana: play 5-4 Ana", None),
    ({}, "Ana: play 5-5 Ana", None),
]


@pytest.mark.parametrize("options, text, rule", DOUBLE_OUT_TABLE)
def test_double_out(options, text, rule):
    match = play(game(hand_size=2, **options), "Ana: play 9-5 Ana", "Ben: play 9-1 Ben")
    if rule:
        refused(match, text, rule)
        play(match, "Ana: draw", "Ana: pass")  # they draw or pass instead
        assert match.engine.turn() == "Ben"
    else:
        step(match, text)
        assert match.state()["round"]["end"] == {"reason": "domino", "player": "Ana"}


def test_a_double_before_the_last_tile_is_still_allowed():
    match = play(game(hand_size=3, double_out="refused"), "Ana: play 9-5 Ana", "Ben: play 9-1 Ben")
    step(match, "Ana: play 5-5 Ana")  # two tiles in hand: not going out


# ----- mt.house.draw ----------------------------------------------------------------------

DRAW_TABLE = [
    ({"draw": "until"}, ["Ana: draw"], "Ana: draw", None),
    ({}, ["Ana: draw"], "Ana: draw", "mt.draw"),
    ({"draw": "until"}, ["Ana: draw"], "Ana: pass", "mt.house.draw"),
    ({"draw": "until"}, [], "Ana: pass", "mt.house.draw"),
    ({}, ["Ana: draw"], "Ana: pass", None),
    ({"draw": "until"}, ["Ana: draw", "Ana: draw", "Ana: draw"], "Ana: play 9-4 Ana", None),
]


@pytest.mark.parametrize("options, before, text, rule", DRAW_TABLE)
def test_draw_until(options, before, text, rule):
    match = play(game(**options), *before)
    if rule:
        refused(match, text, rule)
    else:
        step(match, text)


def test_draw_until_passes_only_with_an_empty_boneyard():
    match = game(draw="until", hand_size=27)  # 2 × 27 + the engine: the boneyard is empty
    assert match.engine.boneyard() == 0
    play(match, "Ana: pass")
    assert match.state()["round"]["trains"]["Ana"]["marker"] is True


# ----- scoring: mt.house.out-bonus, mt.house.marker, mt.house.blank-half, mt.house.doubles -----

HAND_POINTS_TABLE = [
    # (options, tiles, points)
    ({}, ["0-7", "0-0", "6-6"], 7 + 50 + 12),
    ({"blank_half": 25}, ["0-7"], 32),
    ({"blank_half": 25}, ["0-0"], 50),
    ({"blank_half": 25}, ["3-4", "0-1"], 7 + 26),
    ({"doubles_in_hand": "double"}, ["6-6"], 24),
    ({"doubles_in_hand": "double"}, ["0-0"], 50),
    ({"doubles_in_hand": "double", "double_blank": 25}, ["0-0", "5-6"], 25 + 11),
    ({"doubles_in_hand": "double", "blank_half": 25}, ["0-0", "0-5", "2-2"], 50 + 30 + 8),
]


@pytest.mark.parametrize("mode", ["referee", "scores"])
@pytest.mark.parametrize("options, tiles, points", HAND_POINTS_TABLE)
def test_hand_points(mode, options, tiles, points):
    if mode == "referee":  # the hands entered must be as long as the tracked hands
        match = game(mode=mode, hand_size=len(tiles), **options)
        others = [f"{number}-9" for number in range(1, len(tiles) + 1)]
    else:
        match = game(mode=mode, **options)
        others = ["8-8"]
    match.enter_hands(1, {"hands": {"Ana": tiles, "Ben": others}})
    assert match.rounds[0].points["Ana"] == points
    assert MexicanTrain.hand_points([Tile.parse(t) for t in tiles], match.config.options) == points


def test_blank_half_wants_double_blank_unset():
    with pytest.raises(BadRequest) as caught:
        game(blank_half=25, double_blank=50)
    assert "mt.house.blank-half" in caught.value.message
    assert game(blank_half=25, double_blank=None).config.options.blank_half == 25


OUT_BONUS_TABLE = [
    # (mode, hands, points)
    ("scores", {"Ana": [], "Ben": ["5-6"]}, {"Ana": -20, "Ben": 11}),
    ("scores", {"Ana": 0, "Ben": 11}, {"Ana": -20, "Ben": 11}),
    ("scores", {"Ana": ["1-2"], "Ben": ["5-6"]}, {"Ana": 3, "Ben": 11}),
    ("scores", {"Ana": 0, "Ben": 0}, {"Ana": 0, "Ben": 0}),  # two zeros: nobody is known out
]


@pytest.mark.parametrize("mode, hands, points", OUT_BONUS_TABLE)
def test_out_bonus_in_the_score_pad(mode, hands, points):
    match = game(mode=mode, out_bonus=20)
    match.enter_hands(1, {"hands": hands})
    assert dict(match.rounds[0].points) == points
    assert match.state()["totals"] == points


def test_out_bonus_in_referee_mode_and_totals_below_zero():
    match = play(
        game(hand_size=2, out_bonus=20), "Ana: play 9-5 Ana", "Ben: play 9-1 Ben", "Ana: play 5-4 Ana"
    )
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-7"]}})
    assert dict(match.rounds[0].points) == {"Ana": -20, "Ben": 8}
    assert match.state()["totals"]["Ana"] == -20


def test_no_out_bonus_by_default():
    match = play(game(hand_size=2), "Ana: play 9-5 Ana", "Ben: play 9-1 Ben", "Ana: play 5-4 Ana")
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-7"]}})
    assert dict(match.rounds[0].points) == {"Ana": 0, "Ben": 8}


def test_marker_penalty_in_referee_mode_reads_the_table():
    match = play(
        game(hand_size=2, marker_penalty=15),
        "Ana: play 9-5 Ana",
        "Ben: draw",
        "Ben: pass",  # Ben's train gets its marker
        "Ana: play 5-4 Ana",
    )
    assert match.engine.round_facts() == {"markers": ["Ben"]}
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-7", "2-3", "3-3"]}})
    assert dict(match.rounds[0].points) == {"Ana": 0, "Ben": 8 + 5 + 6 + 15}
    # A correction keeps what the table showed.
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-7", "2-3", "2-2"]}})
    assert match.rounds[0].points["Ben"] == 8 + 5 + 4 + 15


def test_marker_penalty_in_the_score_pad_reads_the_entry():
    match = game(mode="scores", players=("Ana", "Ben", "Caro"), marker_penalty=10)
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": 12, "Caro": 3}, "markers": ["Ben", "Caro"]})
    assert dict(match.rounds[0].points) == {"Ana": 0, "Ben": 22, "Caro": 13}
    match.enter_hands(2, {"hands": {"Ana": 4, "Ben": [], "Caro": 3}})
    assert dict(match.rounds[1].points) == {"Ana": 4, "Ben": 0, "Caro": 3}


MARKER_REFUSALS = [
    # (options, mode, markers, error, rule)
    ({}, "scores", ["Ben"], BadRequest, None),
    ({"marker_penalty": 10}, "referee", ["Ben"], RuleViolation, "mt.house.marker"),
    ({"marker_penalty": 10}, "scores", ["Zed"], BadRequest, None),
    ({"marker_penalty": 10}, "scores", ["Ben", "Ben"], BadRequest, None),
    ({"marker_penalty": 10}, "scores", "Ben", BadRequest, None),
]


@pytest.mark.parametrize("options, mode, markers, error, rule", MARKER_REFUSALS)
def test_markers_refused(options, mode, markers, error, rule):
    match = game(mode=mode, **options)
    before = match.state()
    with pytest.raises(error) as caught:
        match.enter_hands(1, {"hands": {"Ana": [], "Ben": 12}, "markers": markers})
    if rule:
        assert caught.value.rule_id == rule
    assert match.state() == before


# ----- Chicken Foot ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, count, doubles",
    [({}, 10, ["9-9", "0-0"]), ({"first_double": 5, "last_double": 3}, 3, ["5-5", "3-3"])],
)
def test_cf_rounds(options, count, doubles):
    match = game("chicken-foot", mode="scores", **options)
    assert match.round_count() == count
    assert str(match.setup.double) == doubles[0]
    for number in range(1, count + 1):
        match.enter_hands(number, {"hands": {"Ana": [], "Ben": 5}})
    assert match.finished
    assert str(match.rounds[-1].double) == doubles[1]


def test_cf_rounds_refused_when_last_is_above_first():
    with pytest.raises(BadRequest):
        game("chicken-foot", first_double=3, last_double=5)


CF_START_TABLE = [
    ({"missing_start": "next"}, "Ana: play 7-7", None),
    ({"missing_start": "next"}, "Ana: play 9-9", None),
    ({"missing_start": "next"}, "Ana: play 7-5", "cf.house.start"),
    ({}, "Ana: play 7-7", "cf.start"),
]


@pytest.mark.parametrize("options, text, rule", CF_START_TABLE)
def test_cf_missing_start(options, text, rule):
    match = game("chicken-foot", **options)
    if rule:
        refused(match, text, rule)
        return
    step(match, text)
    spinner = text.split()[-1]
    assert match.state()["round"]["spinner"] == spinner
    value = spinner[0]
    refused(match, f"Ben: play 9-1 on {spinner}", "cf.match") if value != "9" else step(
        match, f"Ben: play 9-1 on {spinner}"
    )


# Ana lays the spinner and three arms' worth, Ben the others; Ana's 4-4 starts a foot.
FOOT = ["Ana: play 9-9", "Ben: play 9-1 on 9-9", "Ana: play 9-2 on 9-9", "Ben: play 9-3 on 9-9"]
FOOT += ["Ana: play 9-4 on 9-9", "Ben: play 3-5 on 9-3", "Ana: play 4-4 on 9-4"]


def test_cf_double_out_penalty():
    match = play(game("chicken-foot", hand_size=4, double_out_penalty=50), *FOOT)
    assert match.state()["round"]["end"] == {"reason": "domino", "player": "Ana"}
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-2"]}})
    assert dict(match.rounds[0].points) == {"Ana": 50, "Ben": 3}


def test_cf_no_double_out_penalty_by_default_or_for_a_single():
    match = play(game("chicken-foot", hand_size=4), *FOOT)
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-2"]}})
    assert match.rounds[0].points["Ana"] == 0
    match = play(game("chicken-foot", hand_size=4, double_out_penalty=50), *FOOT[:-1], "Ana: play 4-8 on 9-4")
    match.enter_hands(1, {"hands": {"Ana": [], "Ben": ["1-2"]}})
    assert match.rounds[0].points["Ana"] == 0


@pytest.mark.parametrize("penalty", [0, 30])
def test_cf_open_foot_penalty(penalty):
    # Ana draws once, so Ben goes out first, leaving Ana's foot with one toe of three.
    steps = FOOT[:2] + ["Ana: draw"] + FOOT[2:] + ["Ben: play 4-6 on 4-4"]
    match = play(game("chicken-foot", hand_size=4, open_foot_penalty=penalty), *steps)
    assert match.state()["round"]["end"] == {"reason": "domino", "player": "Ben"}
    match.enter_hands(1, {"hands": {"Ana": ["1-2"], "Ben": []}})
    assert dict(match.rounds[0].points) == {"Ana": 3 + penalty, "Ben": 0}


def test_cf_finished_foot_costs_nothing():
    steps = FOOT + ["Ben: play 4-6 on 4-4", "Ana: play 4-7 on 4-4", "Ben: play 4-8 on 4-4"]
    match = play(game("chicken-foot", hand_size=6, open_foot_penalty=30), *steps)
    assert match.engine.round_facts()["open_feet"] == []


# ----- what is in force, and old games --------------------------------------------------------


def test_house_rules_in_force_name_the_rule_and_the_value():
    options = game(out_bonus=20, draw="until", own_train_first=True).config.options
    lines = MexicanTrain.house_rules_in_force(options, 9)
    assert [line["rule"] for line in lines] == ["mt.house.own-first", "mt.house.draw", "mt.house.out-bonus"]
    assert lines[1]["value"] == "Draw until a tile fits" and lines[2]["value"] == "20"


OLD_OPTIONS = [
    (
        "mexican-train",
        {
            "double_blank": 25,
            "first_turn": "single",
            "doubles_order": "oldest",
            "hand_size": None,
            "first_double": 9,
            "last_double": 0,
            "tie_break": "share",
        },
    ),
    ("chicken-foot", {"double_blank": 50, "arms": 4, "hand_size": 7}),
]


@pytest.mark.parametrize("kind, options", OLD_OPTIONS)
def test_an_old_game_scores_as_before(kind, options):
    """A game created before the house rules (its create event has no house-rule keys)
    gets every house rule at its default: the old scoring, the old schedule."""
    match = game(kind, mode="scores", **options)
    rules = match.rules
    for option in rules.declaration.house_rules:
        assert match.state()["options"][option.name] == option.resolved_default(9)
    hands = {"Ana": [], "Ben": ["0-0", "0-7", "6-6"]}
    match.enter_hands(1, {"hands": hands})
    blank = options["double_blank"]
    assert dict(match.rounds[0].points) == {"Ana": 0, "Ben": blank + 7 + 12}
    assert match.round_count() == 10
    old = {"mexican-train": MexicanTrainOptions, "chicken-foot": ChickenFootOptions}[kind](**options)
    assert rules.round_points({"Ana": 0, "Ben": 5}, match.rounds[0].end, {"markers": ["Ben"]}, old) == {
        "Ana": 0,
        "Ben": 5,
    }
