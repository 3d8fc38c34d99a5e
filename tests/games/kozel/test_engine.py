"""Kozel (`kz.*`): the round engine, the redeal check and the game's booking."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.base import Action, BadRequest, RoundEnd, RoundRecord, RuleViolation
from referee.rules.kozel import (
    Kozel,
    KozelOptions,
    KozelRound,
    book_game,
    half_up,
    lead_order,
    rating_points,
    redeal_check,
)
from referee.tiles import Tile, full_set

TWO = ("Ana", "Ben")
THREE = ("Ana", "Ben", "Caro")
FOUR = ("Ana", "Ben", "Caro", "Dan")
SEED = ("Masha", "Alex", "Olya", "Serg")


DEFAULT_OPTIONS = KozelOptions()


# ----- helpers -------------------------------------------------------------------------------
def new_round(players=TWO, number=2, starter=None, options=DEFAULT_OPTIONS) -> KozelRound:
    """A round built the way the game builds it: round_setup from the finished rounds.

    By default a later round whose leader is unknown, so any player may lead any tile;
    round 1 (kz.lead.first) is asked for explicitly."""
    finished = []
    if number > 1:
        end = RoundEnd("domino", starter) if starter else RoundEnd("table", None)
        finished = [RoundRecord(n, None, {name: 0 for name in players}, end) for n in range(1, number)]
    setup = Kozel.round_setup(number, players, 6, options, finished)
    return KozelRound(setup)


def parse(step: str) -> Action:
    """A step of a scenario: "Ana 3-5", "Ben 5-6 on 3-5", "Ben draw", "Ben pass", "Ben start"."""
    words = step.split()
    player, rest = words[0], words[1:]
    if rest[0] in ("draw", "pass", "start", "end", "leave"):
        return Action(rest[0], player)
    on = Tile.parse(rest[2]) if len(rest) == 3 and rest[1] == "on" else None
    return Action("play", player, tile=Tile.parse(rest[0]), on=on)


def run(engine: KozelRound, steps: str) -> KozelRound:
    for step in filter(None, (part.strip() for part in steps.split(","))):
        engine.apply(parse(step))
    return engine


def snapshot(engine: KozelRound) -> tuple:
    return (
        engine.extra_state(),
        engine.turn(),
        engine.hand_sizes(),
        engine.boneyard(),
        engine.outcome(),
        engine.tiles_on_table(),
        engine.targets(),
        engine.reminders(),
    )


def refused(engine: KozelRound, step: str) -> RuleViolation:
    """The refusal of ``step``, asserting that neither check nor apply changed anything."""
    before = snapshot(engine)
    with pytest.raises(RuleViolation) as checked:
        engine.check(parse(step))
    with pytest.raises(RuleViolation) as applied:
        engine.apply(parse(step))
    assert snapshot(engine) == before
    assert checked.value.rule_id == applied.value.rule_id
    assert applied.value.message.endswith(".")
    return applied.value


# Four players play the seed's fish line: 1-2, 2-6, 0-2, 2-3 inside, 2-4 and 2-5 at the ends.
FISH_LINE = (
    "Ana 1-2, Ben 1-4 on 1-2, Caro 2-6 on 1-2, Dan 2-4 on 1-4, Ana 0-6 on 2-6, "
    "Ben 0-2 on 0-6, Caro 2-3 on 0-2, Dan 3-5 on 2-3"
)
# Ana plays seven tiles while the others knock (4 players: the bazaar is always empty).
ANA_GOES_OUT = (
    "Ana 0-0, Ben pass, Caro pass, Dan pass, Ana 0-1 on 0-0, Ben pass, Caro pass, "
    "Dan pass, Ana 1-2 on 0-1, Ben pass, Caro pass, Dan pass, Ana 2-3 on 1-2, Ben pass, "
    "Caro pass, Dan pass, Ana 3-4 on 2-3, Ben pass, Caro pass, Dan pass, "
    "Ana 4-5 on 3-4, Ben pass, Caro pass, Dan pass"
)
# The same fish line, but Ana lays seven of its nine tiles: her last one makes the fish.
ANA_FISH_LAST = (
    "Ana 1-2, Ben 1-4 on 1-2, Caro pass, Dan pass, Ana 2-6 on 1-2, Ben 2-4 on 1-4, "
    "Caro pass, Dan pass, Ana 0-6 on 2-6, Ben pass, Caro pass, Dan pass, "
    "Ana 0-2 on 0-6, Ben pass, Caro pass, Dan pass, Ana 2-3 on 0-2, Ben pass, "
    "Caro pass, Dan pass, Ana 3-5 on 2-3, Ben pass, Caro pass, Dan pass"
)


# ----- the situations table ------------------------------------------------------------------
# (players, round number, starter, steps before, the step, rule id refused or None if accepted)
SITUATIONS = [
    # kz.lead.first: hands are hidden, so in round 1 anyone may place the lead
    (TWO, 1, None, "", "Ben 2-5", None),
    (FOUR, 1, None, "", "Caro 1-1", None),
    (TWO, 1, None, "", "Ana 3-5 on 3-3", "kz.match"),
    (TWO, 1, None, "", "Ana draw", "kz.bazaar"),
    (FOUR, 1, None, "", "Ana pass", "kz.bazaar"),
    (THREE, 1, None, "", "Caro start", None),
    (THREE, 1, None, "Caro start", "Ana 1-1", "turn"),
    (THREE, 1, None, "Caro start", "Caro 1-1", None),
    (TWO, 1, None, "Ana 1-1", "Ben start", "kz.lead.first"),
    # kz.lead.first as public information decides it: no more tiles ahead of the lead
    # in the lead order than the bazaar can hide
    (FOUR, 1, None, "", "Ana 6-6", "kz.lead.first"),
    (FOUR, 1, None, "", "Ana 5-6", "kz.lead.first"),
    (THREE, 1, None, "", "Ana 0-0", None),
    (THREE, 1, None, "", "Ana 5-6", None),
    (THREE, 1, None, "", "Ana 4-6", "kz.lead.first"),
    (TWO, 1, None, "", "Ana 2-6", None),
    # kz.lead.next: the player who went out or made the fish leads, with any tile
    (THREE, 2, "Ben", "", "Ana start", "kz.lead.next"),
    (THREE, 2, "Ben", "", "Ben start", None),
    (THREE, 2, "Ben", "", "Ana 6-6", "kz.lead.next"),
    (THREE, 2, "Ben", "", "Ben 0-4", None),
    (THREE, 2, "Ben", "Ben 0-4", "Caro start", "kz.lead.next"),
    (THREE, 2, None, "", "Caro start", None),
    (THREE, 2, None, "", "Caro 2-3", None),
    # kz.match: one line, each tile matches the value at the end it joins
    (TWO, 1, None, "Ana 3-5", "Ben 5-6 on 3-5", None),
    (TWO, 1, None, "Ana 3-5", "Ben 1-3 on 3-5", None),
    (TWO, 1, None, "Ana 3-5", "Ben 2-4 on 3-5", "kz.match"),
    (TWO, 1, None, "Ana 3-5", "Ben 2-4", "kz.match"),
    (TWO, 1, None, "Ana 3-5", "Ben 1-5", None),
    (TWO, 1, None, "Ana 3-5", "Ben 1-5 on 1-1", "kz.match"),
    (TWO, 1, None, "Ana 3-5, Ben 5-6 on 3-5", "Ana 4-5 on 3-5", "kz.match"),
    (TWO, 1, None, "Ana 3-5, Ben 5-6 on 3-5", "Ana 4-6 on 5-6", None),
    (TWO, 1, None, "Ana 3-5, Ben 5-6 on 3-5, Ana 1-3 on 3-5", "Ben 2-5 on 3-5", "kz.match"),
    (TWO, 1, None, "Ana 3-5, Ben 5-6 on 3-5", "Ana 3-6", "kz.match"),  # fits both: which one?
    (TWO, 1, None, "Ana 3-5, Ben 5-6 on 3-5", "Ana 3-6 on 3-5", None),
    (TWO, 1, None, "Ana 4-4", "Ben 4-6 on 4-4", None),  # doubles lie in line
    (TWO, 1, None, "Ana 4-6", "Ben 4-4 on 4-6", None),
    (TWO, 1, None, "Ana 4-6", "Ben 4-6 on 4-6", "unique"),
    (TWO, 1, None, "Ana 4-6, Ben 4-4 on 4-6", "Ana 4-6 on 4-4", "unique"),
    # turn
    (TWO, 1, None, "Ana 3-5", "Ana 5-6 on 3-5", "turn"),
    (THREE, 2, None, "Ana 3-5", "Caro draw", "turn"),
    (FOUR, 2, None, "Ana 3-5", "Caro pass", "turn"),
    # kz.bazaar: draw one at a time while there are tiles, knock only when it is empty
    (TWO, 1, None, "Ana 3-5", "Ben draw", None),
    (TWO, 1, None, "Ana 3-5", "Ben pass", "kz.bazaar"),
    (TWO, 1, None, "Ana 3-5, Ben draw", "Ben draw", None),
    (TWO, 1, None, "Ana 3-5, Ben draw", "Ben 5-5 on 3-5", None),
    (TWO, 1, None, "Ana 3-5, Ben draw", "Ana 5-5 on 3-5", "turn"),
    (FOUR, 2, None, "Ana 3-5", "Ben draw", "kz.bazaar"),
    (FOUR, 2, None, "Ana 3-5", "Ben pass", None),
    (TWO, 1, None, "Ana 3-5" + ", Ben draw" * 14, "Ben draw", "kz.bazaar"),
    (TWO, 1, None, "Ana 3-5" + ", Ben draw" * 14, "Ben pass", None),
    (THREE, 2, None, "Ana 3-5" + ", Ben draw" * 6, "Ben pass", "kz.bazaar"),
    (THREE, 2, None, "Ana 3-5" + ", Ben draw" * 7, "Ben pass", None),
    # actions Kozel has no use for
    (TWO, 1, None, "Ana 3-5", "Ben end", "kz.bazaar"),
    (TWO, 1, None, "Ana 3-5", "Ben leave", "kz.rating.left"),
    # kz.out and kz.fish: the round is over, everything after is refused
    (FOUR, 2, None, ANA_GOES_OUT, "Ana 5-6 on 4-5", None),
    (FOUR, 2, None, ANA_GOES_OUT + ", Ana 5-6 on 4-5", "Ben 6-6 on 5-6", "kz.out"),
    (FOUR, 2, None, ANA_GOES_OUT + ", Ana 5-6 on 4-5", "Ben pass", "kz.out"),
    (FOUR, 2, None, FISH_LINE + ", Ana 2-5 on 3-5", "Ben 2-2 on 2-5", "kz.fish"),
    (FOUR, 2, None, FISH_LINE + ", Ana 2-5 on 3-5", "Ben start", "kz.fish"),
]


@pytest.mark.parametrize(
    "players, number, starter, before, step, rule",
    SITUATIONS,
    ids=[f"{case[4]} after [{case[3][-40:]}]" for case in SITUATIONS],
)
def test_situations(players, number, starter, before, step, rule):
    engine = run(new_round(players, number, starter), before)
    if rule is None:
        engine.check(parse(step))
        engine.apply(parse(step))
    else:
        assert refused(engine, step).rule_id == rule


# ----- deal, lead and turn -------------------------------------------------------------------
@pytest.mark.parametrize("players, bazaar", [(TWO, 14), (THREE, 7), (FOUR, 0)])
def test_deal_is_seven_each_and_the_rest_is_the_bazaar(players, bazaar):
    engine = new_round(players)
    assert engine.hand_sizes() == {name: 7 for name in players}
    assert engine.boneyard() == bazaar
    assert engine.tiles_on_table() == frozenset()
    assert engine.extra_state()["ends"] == []
    assert engine.targets() == [None]


def test_round_one_turn_is_unknown_until_the_lead_and_then_goes_clockwise():
    engine = new_round(THREE)
    assert engine.turn() is None
    run(engine, "Ben 1-1")
    assert engine.turn() == "Caro"
    run(engine, "Caro 1-4 on 1-1")
    assert engine.turn() == "Ana"


def test_a_start_in_round_one_names_the_leader():
    engine = run(new_round(THREE), "Caro start")
    assert engine.turn() == "Caro"
    run(engine, "Caro 1-1")
    assert engine.turn() == "Ana"


def test_later_round_turn_is_the_player_who_went_out_or_made_the_fish():
    finished = [
        RoundRecord(1, None, {"Ana": 5, "Ben": 0, "Caro": 9}, RoundEnd("domino", "Ben")),
        RoundRecord(2, None, {"Ana": 5, "Ben": 4, "Caro": 9}, RoundEnd("fish", "Caro")),
    ]
    assert KozelRound(Kozel.round_setup(2, THREE, 6, KozelOptions(), finished[:1])).turn() == "Ben"
    assert KozelRound(Kozel.round_setup(3, THREE, 6, KozelOptions(), finished)).turn() == "Caro"


def test_later_round_with_an_unknown_leader_waits_like_round_one():
    engine = new_round(THREE, number=2, starter=None)
    assert engine.turn() is None
    run(engine, "Caro 2-3")
    assert engine.turn() == "Ana"


# ----- the line and its ends -----------------------------------------------------------------
def test_lead_shows_both_halves_and_is_the_only_target():
    engine = run(new_round(), "Ana 3-5")
    assert engine.extra_state()["ends"] == [3, 5]
    assert engine.targets() == [Tile(3, 5)]
    assert engine.hand_sizes() == {"Ana": 6, "Ben": 7}
    assert engine.tiles_on_table() == {Tile(3, 5)}


@pytest.mark.parametrize(
    "step, ends, targets",
    [
        ("Ben 1-5 on 3-5", [3, 1], ["3-5", "1-5"]),
        ("Ben 3-4 on 3-5", [4, 5], ["3-4", "3-5"]),
        ("Ben 5-5 on 3-5", [3, 5], ["3-5", "5-5"]),
    ],
)
def test_a_play_on_the_lead_joins_the_half_it_matches(step, ends, targets):
    engine = run(new_round(), "Ana 3-5, " + step)
    assert engine.extra_state()["ends"] == ends
    assert engine.targets() == [Tile.parse(text) for text in targets]


@pytest.mark.parametrize("on, ends", [("5-6", [3, 3]), ("3-5", [6, 6])])
def test_when_a_tile_fits_both_ends_the_on_decides(on, ends):
    engine = run(new_round(), f"Ana 3-5, Ben 5-6 on 3-5, Ana 3-6 on {on}")
    assert sorted(engine.extra_state()["ends"]) == ends


def test_the_line_is_kept_in_order_from_the_first_end_to_the_second():
    engine = run(new_round(), "Ana 3-5, Ben 1-3 on 3-5, Ana 5-6 on 3-5, Ben 1-1 on 1-3")
    state = engine.extra_state()
    assert state["line"] == ["1-1", "1-3", "3-5", "5-6"]
    assert state["ends"] == [1, 6]


def test_a_play_without_on_is_placed_where_it_alone_fits():
    engine = run(new_round(), "Ana 3-5, Ben 5-6 on 3-5, Ana 1-6")
    assert engine.extra_state()["ends"] == [3, 1]


def test_a_double_lead_takes_a_tile_on_either_half():
    engine = run(new_round(), "Ana 4-4, Ben 4-6 on 4-4")
    assert sorted(engine.extra_state()["ends"]) == [4, 6]
    assert set(engine.targets()) == {Tile(4, 4), Tile(4, 6)}


def test_refusals_explain_the_ends():
    engine = run(new_round(), "Ana 3-5, Ben 5-6 on 3-5")
    error = refused(engine, "Ana 2-4 on 5-6")
    assert "2-4" in error.message and "6" in error.message
    assert "does not match" in error.message
    assert "already on the table" in refused(engine, "Ana 3-5 on 5-6").message
    assert "both ends" in refused(engine, "Ana 3-6").message
    assert "Ana's turn" in refused(engine, "Ben 1-6 on 5-6").message


# ----- bazaar --------------------------------------------------------------------------------
def test_a_draw_moves_a_tile_from_the_bazaar_and_keeps_the_turn():
    engine = run(new_round(THREE), "Ana 3-5, Ben draw, Ben draw")
    assert engine.boneyard() == 5
    assert engine.hand_sizes() == {"Ana": 6, "Ben": 9, "Caro": 7}
    assert engine.turn() == "Ben"


def test_a_knock_passes_the_turn():
    engine = run(new_round(FOUR), "Ana 3-5, Ben pass")
    assert engine.turn() == "Caro"
    assert engine.hand_sizes()["Ben"] == 7


def test_the_bazaar_refusal_says_how_many_tiles_are_left():
    engine = run(new_round(THREE), "Ana 3-5, Ben draw")
    assert "6 tiles" in refused(engine, "Ben pass").message
    assert "empty" in refused(run(new_round(FOUR), "Ana 3-5"), "Ben draw").message


# ----- out and fish --------------------------------------------------------------------------
def test_the_last_tile_ends_the_round_as_went_out():
    engine = run(new_round(FOUR), ANA_GOES_OUT + ", Ana 5-6 on 4-5")
    assert engine.outcome() == RoundEnd("domino", "Ana")
    assert engine.turn() is None
    assert engine.hand_sizes()["Ana"] == 0
    assert engine.targets() == []
    assert engine.reminders() == []
    assert "over" in refused(engine, "Ben pass").message


def test_the_seed_fish_ends_the_round_with_its_fisherman():
    engine = run(new_round(FOUR), FISH_LINE)
    assert engine.outcome() is None  # ends show 2 and 5: still open
    run(engine, "Ana 2-5 on 3-5")
    assert engine.extra_state()["ends"] == [2, 2]
    assert Tile(2, 2) not in engine.tiles_on_table()  # a fish even with the 2-2 still out
    assert engine.outcome() == RoundEnd("fish", "Ana")
    assert engine.turn() is None


def test_equal_ends_without_all_six_tiles_is_not_a_fish():
    engine = run(new_round(FOUR), "Ana 2-4, Ben 2-5 on 2-4, Caro 4-5 on 2-4")
    assert engine.extra_state()["ends"] == [5, 5]
    assert engine.outcome() is None
    assert engine.turn() == "Dan"
    assert run(new_round(), "Ana 3-3").outcome() is None


def test_a_fish_made_with_the_last_tile_is_went_out():
    engine = run(new_round(FOUR), ANA_FISH_LAST)
    assert engine.hand_sizes()["Ana"] == 1
    run(engine, "Ana 2-5 on 3-5")
    assert engine.extra_state()["ends"] == [2, 2]
    assert engine.outcome() == RoundEnd("domino", "Ana")


# ----- reminders -----------------------------------------------------------------------------
def test_reminders_show_who_leads_and_then_must_play():
    assert [r["rule"] for r in new_round(THREE, number=1).reminders()] == ["kz.lead.first"]
    assert "1-1" in new_round(THREE, number=1).reminders()[0]["text"]
    assert "every tile is dealt" in new_round(FOUR, number=1).reminders()[0]["text"]
    later = new_round(THREE, number=2, starter="Caro").reminders()
    assert later[0]["rule"] == "kz.lead.next" and "Caro" in later[0]["text"]
    assert new_round(THREE, number=2).reminders()[0]["rule"] == "kz.lead.next"
    assert [r["rule"] for r in run(new_round(), "Ana 3-5").reminders()] == ["kz.must-play"]


def test_lead_order_follows_kz_lead_first():
    order = lead_order()
    assert sorted(order) == sorted(full_set(6))
    assert [str(tile) for tile in order[:12]] == [
        "1-1",
        "2-2",
        "3-3",
        "4-4",
        "5-5",
        "6-6",
        "0-0",
        "5-6",
        "4-6",
        "3-6",
        "4-5",
        "2-6",
    ]
    assert str(order[-1]) == "0-1"


def test_the_round_pickles():
    engine = run(new_round(THREE), "Ana 3-5, Ben draw, Ben 5-6 on 3-5")
    copy = pickle.loads(pickle.dumps(engine))
    assert snapshot(copy) == snapshot(engine)
    copy.apply(parse("Caro 3-4 on 3-5"))
    assert snapshot(copy) != snapshot(engine)


# ----- kz.redeal -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, redeal, words",
    [
        ("0-0 1-1 2-2 3-3 4-4 0-1 5-6", True, "5 doubles"),
        ("0-0 1-1 2-2 3-3 0-1 0-2 5-6", False, "4 doubles"),
        ("4-4 0-4 1-4 2-4 3-4 4-5 0-1", True, "6 tiles with a 4"),  # the double counts once
        ("4-4 0-4 1-4 2-4 3-4 0-1 0-2", False, "5 tiles"),
        ("0-6 1-6 2-6 3-6 4-6 5-6 6-6", True, "7 tiles with a 6"),
        ("0-0 1-1 2-2 3-3 4-4 5-5 6-6", True, "7 doubles"),
    ],
)
def test_redeal_check(hand, redeal, words):
    must, reason = redeal_check([Tile.parse(text) for text in hand.split()])
    assert must is redeal
    assert words in reason and "kz.redeal" in reason


@pytest.mark.parametrize(
    "hand, rule",
    [
        ("0-0 1-1 2-2 3-3 4-4 0-1", "kz.redeal"),
        ("0-0 1-1 2-2 3-3 4-4 0-1 5-6 2-3", "kz.redeal"),
        ("0-0 1-1 2-2 3-3 4-4 0-1 1-0", "unique"),
        ("0-0 1-1 2-2 3-3 4-4 0-1 5-7", "tiles"),
    ],
)
def test_redeal_check_wants_seven_distinct_double_six_tiles(hand, rule):
    with pytest.raises(RuleViolation) as error:
        redeal_check([Tile.parse(text) for text in hand.split()])
    assert error.value.rule_id == rule


def test_redeal_check_reads_text_and_rejects_non_tiles():
    assert redeal_check(["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "5-6"])[0] is True
    with pytest.raises(BadRequest):
        redeal_check(["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "five"])


# ----- hand points (kz.score.hand, kz.score.zero) --------------------------------------------
@pytest.mark.parametrize(
    "hand, zero_zero, points",
    [("0-0", 10, 10), ("0-0", 25, 25), ("0-0 1-2", 10, 3), ("5-6 4-4", 10, 19), ("", 10, 0)],
)
def test_hand_points(hand, zero_zero, points):
    tiles = [Tile.parse(text) for text in hand.split()]
    assert Kozel.hand_points(tiles, KozelOptions(zero_zero=zero_zero)) == points


# ----- Hypothesis: random full rounds --------------------------------------------------------
def expected_fish(line_ends: list[int], placed: set[Tile]) -> bool:
    a, b = line_ends
    return a == b and all(Tile(a, other) in placed for other in range(7) if other != a)


@st.composite
def deals(draw):
    players = draw(st.sampled_from([TWO, THREE, FOUR]))
    tiles = draw(st.permutations(full_set(6)))
    number = draw(st.sampled_from([1, 1, 2]))
    starter = draw(st.sampled_from(players)) if number > 1 else None
    announce = draw(st.booleans())
    return players, list(tiles), number, starter, announce


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), data=st.data())
def test_random_rounds(deal, data):
    players, tiles, number, starter, announce = deal
    engine = new_round(players, number, starter)
    hands = {name: tiles[7 * seat : 7 * seat + 7] for seat, name in enumerate(players)}
    bazaar = tiles[7 * len(players) :]
    assert engine.boneyard() == len(bazaar)
    line_ends: list[int] = []  # the test's own line: the value and the tile at each end
    end_tiles: list[Tile] = []
    placed: set[Tile] = set()
    accepted: list[Action] = []

    def accept(action: Action) -> None:
        engine.check(action)
        engine.apply(action)
        accepted.append(action)

    def try_illegal(action: Action) -> None:
        before = snapshot(engine)
        with pytest.raises(RuleViolation):
            engine.check(action)
        with pytest.raises(RuleViolation):
            engine.apply(action)
        assert snapshot(engine) == before

    # The lead: kz.lead.first in round 1, the named starter's choice later.
    if number == 1:
        lead = next(tile for tile in lead_order() if any(tile in hand for hand in hands.values()))
        leader = next(name for name in players if lead in hands[name])
    else:
        leader = starter
        lead = data.draw(st.sampled_from(hands[leader]), label="lead")
    assert engine.turn() == (leader if number > 1 else None)
    if announce:
        accept(Action("start", leader))
        assert engine.turn() == leader
    others = [name for name in players if name != leader]
    if number > 1 or announce:
        try_illegal(Action("play", others[0], tile=hands[others[0]][0]))
    accept(Action("play", leader, tile=lead))
    hands[leader].remove(lead)
    placed.add(lead)
    line_ends = [lead.low, lead.high]
    end_tiles = [lead, lead]

    for _ in range(200):
        if engine.outcome() is not None:
            break
        player = engine.turn()
        assert player is not None
        assert engine.extra_state()["ends"] == line_ends
        # Every tile that matches an end value must be accepted on that end, and no other.
        moves = []
        for tile in hands[player]:
            for on in engine.targets():
                action = Action("play", player, tile=tile, on=on)
                matches = any(end_tiles[end] == on and tile.has(line_ends[end]) for end in (0, 1))
                assert engine.is_legal(action) is matches, (action, line_ends)
                if matches:
                    moves.append(action)
        # A refused action changes nothing: a tile of another hand, or out of turn.
        intruder = next(name for name in players if name != player)
        if hands[intruder] and data.draw(st.booleans(), label="try out of turn"):
            try_illegal(Action("play", intruder, tile=hands[intruder][0], on=engine.targets()[0]))
        if moves:
            action = data.draw(st.sampled_from(moves), label="move")
            if bazaar and data.draw(st.booleans(), label="try a knock"):
                try_illegal(Action("pass", player))  # kz.bazaar: tiles left, no knock
            accept(action)
            tile, on = action.tile, action.on
            # With a one-tile line both ends are the lead: the first half that matches is used.
            end = next(end for end in (0, 1) if end_tiles[end] == on and tile.has(line_ends[end]))
            line_ends[end] = tile.other(line_ends[end])
            end_tiles[end] = tile
            hands[player].remove(tile)
            placed.add(tile)
            if not hands[player]:
                assert engine.outcome() == RoundEnd("domino", player)
            elif expected_fish(line_ends, placed):
                assert engine.outcome() == RoundEnd("fish", player)
            else:
                assert engine.outcome() is None
                assert engine.turn() == players[(players.index(player) + 1) % len(players)]
        elif bazaar:
            accept(Action("draw", player))
            hands[player].append(bazaar.pop())
            assert engine.turn() == player
        else:
            try_illegal(Action("draw", player))
            accept(Action("pass", player))
        # Conservation: every tile is in exactly one place, and the engine counts agree.
        everywhere = sorted(list(placed) + bazaar + [t for hand in hands.values() for t in hand])
        assert everywhere == sorted(full_set(6))
        assert engine.tiles_on_table() == placed
        assert engine.hand_sizes() == {name: len(hand) for name, hand in hands.items()}
        assert engine.boneyard() == len(bazaar)
    assert engine.outcome() is not None, "a round always ends: went out or fish"
    end = engine.outcome()
    if end.reason == "fish":
        assert expected_fish(line_ends, placed) and hands[end.player]
        assert all(hands.values())
    else:
        assert end.reason == "domino" and hands[end.player] == []
    try_illegal(Action("pass", players[0]))

    replay = new_round(players, number, starter)
    for action in accepted:
        replay.apply(action)
    assert snapshot(replay) == snapshot(engine)
    assert snapshot(pickle.loads(pickle.dumps(engine))) == snapshot(engine)


# ----- booking: kz.score.*, kz.fish.*, kz.goat, kz.rating --------------------------------------
def went_out(number: int, player: str, **points: int) -> RoundRecord:
    return RoundRecord(number, None, {player: 0, **points}, RoundEnd("domino", player))


def fish(number: int, fisherman: str | None = None, **points: int) -> RoundRecord:
    return RoundRecord(number, None, dict(points), RoundEnd("fish", fisherman))


def book(rounds, players=SEED, left=None, **options):
    return Kozel.standing(players, 6, KozelOptions(**options), rounds, left)


def shown(standing, name):
    """What kz.score.display shows: the open account, or "+n" remembered."""
    last = list(standing.detail.ledger)[-1]["players"][name]
    return last["after"] if last["open"] else f"+{last['after']}"


# Before the seed's worked round: Masha +19, Alex 0, Olya +7, Serg +4, nobody open.
SEED_BEFORE = [
    fish(1, "Serg", Masha=9, Alex=5, Olya=6, Serg=3),
    went_out(2, "Alex", Masha=10, Olya=1, Serg=1),
]


def test_seed_went_out_example():
    before = book(SEED_BEFORE)
    assert dict(before.detail.remembered) == {"Masha": 19, "Alex": 0, "Olya": 7, "Serg": 4}
    assert before.totals == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    standing = book(SEED_BEFORE + [went_out(3, "Masha", Alex=3, Olya=13, Serg=5)])
    assert standing.totals == {"Masha": 0, "Alex": 0, "Olya": 20, "Serg": 0}
    assert dict(standing.detail.remembered) == {"Masha": 0, "Alex": 3, "Olya": 0, "Serg": 9}
    assert [shown(standing, name) for name in SEED] == ["+0", "+3", 20, "+9"]
    row = list(standing.detail.ledger)[-1]
    assert row["number"] == 3 and row["fish"] is False and row["pot"] == 0
    assert row["players"]["Masha"] == {
        "before": 19,
        "hand": 0,
        "points": 0,
        "after": 0,
        "open": False,
        "remembered": 0,
        "took_pot": False,
        "pot_taken": 0,
    }
    assert row["players"]["Olya"] == {
        "before": 7,
        "hand": 13,
        "points": 13,
        "after": 20,
        "open": True,
        "remembered": 0,
        "took_pot": False,
        "pot_taken": 0,
    }
    assert standing.finished is False
    assert standing.result is None and standing.detail is not None


def test_an_open_account_books_every_score_and_ignores_going_out():
    rounds = [
        went_out(1, "Alex", Masha=20, Olya=1, Serg=1),
        went_out(2, "Alex", Masha=2, Olya=1, Serg=1),
        went_out(3, "Masha", Alex=4, Olya=1, Serg=1),
    ]
    standing = book(rounds)
    assert standing.totals["Masha"] == 22
    assert dict(standing.detail.remembered)["Masha"] == 0
    assert [row["players"]["Masha"]["after"] for row in list(standing.detail.ledger)] == [20, 22, 22]


def test_fish_for_all_books_every_hand_and_resets_nobody():
    standing = book(SEED_BEFORE + [fish(3, "Olya", Masha=2, Alex=3, Olya=13, Serg=5)])
    assert standing.totals == {"Masha": 0, "Alex": 0, "Olya": 20, "Serg": 0}
    assert dict(standing.detail.remembered) == {"Masha": 21, "Alex": 3, "Olya": 0, "Serg": 9}
    assert list(standing.detail.ledger)[-1]["fish"] is True


def test_seed_fish_to_one_example():
    rounds = [went_out(1, "Alex", Masha=2, Olya=7, Serg=4), fish(2, "Alex", Masha=2, Alex=3, Olya=13, Serg=5)]
    standing = book(rounds, fish="one")
    assert standing.totals == {"Masha": 0, "Alex": 0, "Olya": 30, "Serg": 0}
    assert dict(standing.detail.remembered) == {"Masha": 0, "Alex": 0, "Olya": 0, "Serg": 0}
    row = list(standing.detail.ledger)[-1]["players"]
    assert row["Olya"]["points"] == 23 and row["Olya"]["hand"] == 13 and row["Olya"]["after"] == 30
    assert row["Masha"]["points"] == 0 and row["Masha"]["before"] == 2 and row["Masha"]["after"] == 0


def test_fish_to_one_of_twelve_or_less_is_remembered():
    standing = book([fish(1, "Ana", Ana=2, Ben=3, Caro=6)], players=THREE, fish="one")
    assert standing.totals == {"Ana": 0, "Ben": 0, "Caro": 0}
    assert dict(standing.detail.remembered) == {"Ana": 0, "Ben": 0, "Caro": 11}


def test_seed_pot_of_35_waits_for_a_single_highest_score():
    tie = fish(1, "Masha", Masha=3, Alex=14, Olya=14, Serg=4)
    standing = book([went_out(0, "Serg", Masha=5, Alex=2, Olya=1), tie], fish="one")
    assert standing.detail.pot == 35
    assert standing.totals == {name: 0 for name in SEED}
    assert dict(standing.detail.remembered) == {"Masha": 5, "Alex": 2, "Olya": 1, "Serg": 0}  # no one books
    assert list(standing.detail.ledger)[-1]["pot"] == 35
    assert list(standing.detail.ledger)[-1]["players"]["Alex"]["points"] == 0

    # A went-out round with a tie for the highest score: the pot waits, the round is booked.
    waits = went_out(2, "Masha", Alex=6, Olya=6, Serg=2)
    standing = book([tie, waits], fish="one")
    assert standing.detail.pot == 35
    assert dict(standing.detail.remembered) == {"Masha": 0, "Alex": 6, "Olya": 6, "Serg": 2}

    # Another tied fish adds to the pot.
    standing = book([tie, fish(2, "Serg", Masha=5, Alex=5, Olya=1, Serg=2)], fish="one")
    assert standing.detail.pot == 48

    # The next single highest score takes the pot, however the round ended.
    standing = book([tie, waits, went_out(3, "Alex", Masha=4, Olya=9, Serg=2)], fish="one")
    assert standing.detail.pot == 0
    assert standing.totals["Olya"] == 6 + 9 + 35
    row = list(standing.detail.ledger)[-1]["players"]
    assert row["Olya"]["took_pot"] is True and row["Olya"]["points"] == 44
    assert row["Olya"]["pot_taken"] == 35 and row["Masha"]["pot_taken"] == 0
    assert row["Masha"]["took_pot"] is False

    standing = book([tie, fish(2, "Alex", Masha=4, Alex=20, Olya=3, Serg=1)], fish="one")
    assert standing.totals["Alex"] == 28 + 35
    assert standing.detail.pot == 0


def test_goat_at_101_ends_the_game_and_later_rounds_are_not_booked():
    rounds = [
        fish(1, "Alex", Masha=25, Alex=60, Olya=30, Serg=14),
        fish(2, "Alex", Masha=1, Alex=41, Olya=2, Serg=3),
    ]
    standing = book(rounds)
    assert standing.totals == {"Masha": 26, "Alex": 101, "Olya": 32, "Serg": 17}
    assert standing.finished is True
    assert list(standing.result.goats) == ["Alex"]
    assert dict(standing.result.rating) == {"Masha": 7, "Olya": 7, "Serg": 8}  # 7.4, 6.8, 8.3
    assert standing.result.left is None and standing.result.placings[-1] == ("Alex",)
    later = book(rounds + [went_out(3, "Masha", Alex=5, Olya=40, Serg=3)])
    assert later.totals == standing.totals
    assert len(list(later.detail.ledger)) == 2


def test_seed_rating_masha_25_gets_8():
    standing = book([fish(1, "Alex", Masha=25, Alex=120, Olya=75, Serg=99)])
    assert list(standing.result.goats) == ["Alex"]
    assert dict(standing.result.rating) == {"Masha": 8, "Olya": 3, "Serg": 1}  # 7.5, 2.5, 0.1


def test_several_reach_lose_at_the_highest_is_the_goat_ties_are_all_goats():
    one = book([fish(1, None, Masha=104, Alex=120, Olya=20, Serg=13)])
    assert list(one.result.goats) == ["Alex"]
    assert dict(one.result.rating) == {"Masha": 1, "Olya": 8, "Serg": 9}
    both = book([fish(1, None, Masha=120, Alex=120, Olya=20, Serg=13)])
    assert list(both.result.goats) == ["Masha", "Alex"]
    assert set(dict(both.result.rating)) == {"Olya", "Serg"}


def test_remembered_points_do_not_make_a_goat():
    rounds = [went_out(n, "Serg", Masha=12, Alex=1, Olya=1) for n in range(1, 10)]
    standing = book(rounds, lose_at=101)
    assert dict(standing.detail.remembered)["Masha"] == 108
    assert standing.totals["Masha"] == 0 and standing.finished is False


def test_lose_at_option():
    standing = book([fish(1, None, Masha=30, Alex=13, Olya=1, Serg=2)], lose_at=30)
    assert standing.finished and list(standing.result.goats) == ["Masha"]


def test_seed_leave_example():
    standing = book(
        [fish(1, None, Masha=30, Alex=32, Olya=13)], players=("Masha", "Alex", "Olya"), left="Alex"
    )
    assert standing.finished is True
    assert list(standing.result.goats) == [] and standing.result.left == "Alex"
    assert dict(standing.result.rating) == {"Masha": 1, "Olya": 2}
    assert standing.result.placings[-1] == ("Alex",)  # the leaver is last


def test_a_leave_before_any_round_gives_everyone_else_one():
    standing = book([], left="Serg")
    assert dict(standing.result.rating) == {"Masha": 1, "Alex": 1, "Olya": 1}
    assert list(standing.detail.ledger) == []


@pytest.mark.parametrize(
    "own, reference, rating",
    [
        (25, 100, 8),
        (75, 100, 3),
        (85, 100, 2),
        (86, 100, 1),
        (95, 100, 1),
        (99, 100, 1),
        (130, 100, 1),
        (0, 100, 10),
        (30, 32, 1),
        (13, 32, 2),
        (17, 32, 2),
        (16, 32, 2),
    ],
)
def test_rating_is_rounded_half_up_and_at_least_one(own, reference, rating):
    assert rating_points(own, reference) == rating


def test_half_up_is_not_bankers_rounding():
    assert [half_up(n) for n in (75, 25, 15, 5, 74, 76, -5, -6)] == [8, 3, 2, 1, 7, 8, 0, -1]


def test_went_out_is_read_from_the_hands_entered():
    record = RoundRecord(1, None, {"Ana": 0, "Ben": 9}, RoundEnd("table", None), hands={"Ana": [], "Ben": 9})
    after = book([went_out(0, "Ben", Ana=12), record], players=TWO)
    assert dict(after.detail.remembered) == {"Ana": 0, "Ben": 9}
    assert list(after.detail.ledger)[-1]["fish"] is False


# ----- Hypothesis: the booking's invariants --------------------------------------------------
@st.composite
def games(draw):
    players = draw(st.sampled_from([TWO, THREE, SEED]))
    options = KozelOptions(
        fish=draw(st.sampled_from(["all", "one"])), lose_at=draw(st.sampled_from([30, 60, 101]))
    )
    rounds = []
    for number in range(1, draw(st.integers(0, 14)) + 1):
        out = draw(st.sampled_from(list(players) + [None]))
        points = {name: 0 if name == out else draw(st.integers(1, 40), label="hand") for name in players}
        if draw(st.booleans(), label="tie") and out is None:
            points[players[1]] = points[players[0]] = max(points.values())
        end = RoundEnd("domino", out) if out else RoundEnd("fish", None)
        rounds.append(RoundRecord(number, None, points, end))
    left = draw(st.sampled_from([None, None, *players]))
    return players, options, rounds, left


@settings(max_examples=150, deadline=None)
@given(games())
def test_booking_invariants(game):
    players, options, rounds, left = game
    previous = book_game(players, options, [])
    assert previous.totals == {name: 0 for name in players}
    for count in range(1, len(rounds) + 1):
        standing = book_game(players, options, rounds[:count])
        ledger = list(standing.detail.ledger)
        if previous.finished:
            assert standing.totals == previous.totals and ledger == list(previous.detail.ledger)
            continue
        assert len(ledger) == count
        for name in players:
            assert standing.totals[name] >= previous.totals[name]
            assert 0 <= dict(standing.detail.remembered)[name] <= 12 * count
            row = ledger[-1]["players"][name]
            assert row["open"] is (standing.totals[name] > 0)
            if row["open"]:
                assert row["remembered"] == 0 and row["after"] == standing.totals[name]
            else:
                assert row["after"] == row["remembered"] == dict(standing.detail.remembered)[name]
                assert standing.totals[name] == 0
            if count > 1:
                assert row["before"] == ledger[-2]["players"][name]["after"]
        if options.fish == "all":
            assert standing.detail.pot == 0
        reached = [name for name in players if standing.totals[name] >= options.lose_at]
        assert standing.finished is bool(reached)
        if reached:
            worst = max(standing.totals.values())
            assert list(standing.result.goats) == [n for n in players if standing.totals[n] == worst]
            assert set(dict(standing.result.rating)) == set(players) - set(list(standing.result.goats))
            assert all(value >= 1 for value in dict(standing.result.rating).values())
        else:
            assert standing.result is None
        previous = standing
    final = book_game(players, options, rounds, left)
    if left is not None and not previous.finished:
        assert final.finished and list(final.result.goats) == [] and final.result.left == left
        assert set(dict(final.result.rating)) == set(players) - {left}
        assert all(value >= 1 for value in dict(final.result.rating).values())
