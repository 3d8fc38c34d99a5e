"""A refusal names every rule behind it (issue 27, point 10): in Chicken Foot, "3-4 fits
nowhere" is a `cf.match` refusal on the double whose toes must come first, and it also
cites `cf.double`, the reason every other end is closed."""

from __future__ import annotations

import pytest

from referee.rules.base import RuleViolation
from referee.tiles import Tile
from tests.games.chicken_foot.test_engine import FOOT, make_round, run


def test_a_tile_that_fits_no_toe_cites_the_foot_that_closes_the_other_ends():
    engine = run(make_round(), FOOT)  # 1-1 laid on an arm: its toes come first
    assert engine.targets() == [engine.restricting_foot()]
    with pytest.raises(RuleViolation) as refused:
        engine.check(engine.play_at("Ana", Tile.parse("3-4"), engine.restricting_foot()))
    error = refused.value
    assert error.rule_id == "cf.match"
    assert [(also.rule_id, also.message) for also in error.also] == [
        (
            "cf.double",
            "The 1-1 needs all 3 of its toes first: every other end is closed until its "
            "chicken foot is complete.",
        )
    ]
    assert error.also[0].template and error.also[0].params == {"foot": "1-1", "all": 3}


def test_a_plain_mismatch_cites_only_its_own_rule():
    engine = run(make_round(), FOOT + ["play 1-5 on 1-1", "play 1-6 on 1-1", "play 1-7 on 1-1"])
    with pytest.raises(RuleViolation) as refused:
        engine.check(engine.play_at("Ben", Tile.parse("3-4"), Tile.parse("1-5")))
    assert refused.value.rule_id == "cf.match" and refused.value.also == ()
