from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.rules import GAMES
from referee.rules.book import (
    COMMON_IDS,
    RULES_FILE,
    all_rules,
    club_night_rules,
    game_of_rule,
    rule_text,
    rules_by_id,
    rules_for,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


def test_every_rule_id_of_the_rule_book_is_loaded():
    ids_in_file = re.findall(r"^- \*\*([a-z][a-z0-9.\-]*)\*\*", RULES_FILE.read_text(), re.M)
    assert [r.id for r in all_rules()] == ids_in_file
    assert len(ids_in_file) == len(set(ids_in_file))


@pytest.mark.skipif(not SHARED.exists(), reason="the shared rule book is not beside this checkout")
def test_bundled_rule_book_is_the_shared_one():
    assert RULES_FILE.read_text() == SHARED.read_text()


@pytest.mark.parametrize(
    "game, prefix", [("mexican-train", "mt."), ("chicken-foot", "cf."), ("kozel", "kz.")]
)
def test_each_game_gets_its_rules_and_the_common_ones(game, prefix):
    ids = [r.id for r in rules_for(game)]
    assert set(COMMON_IDS) <= set(ids)
    assert all(i in COMMON_IDS or i.startswith(prefix) for i in ids)


def test_the_game_of_a_rule_is_read_from_the_declared_prefixes():
    assert game_of_rule("kz.goat") == "kozel"
    assert game_of_rule("cf.house.foot") == "chicken-foot"
    assert game_of_rule("mt.double.open") == "mexican-train"
    assert [game_of_rule(rule) for rule in ("turn", "tiles", "mt", "xx.goat", "", None)] == [None] * 6
    # every rule of the book is a common one, a club night's, or belongs to exactly one
    # declared game's book
    night_ids = {rule.id for rule in club_night_rules()}
    for rule in all_rules():
        game = game_of_rule(rule.id)
        assert [rule.id in COMMON_IDS, rule.id in night_ids, game is not None].count(True) == 1, rule.id
        if rule.id in night_ids:
            assert not any(rule in rules_for(key) for key in GAMES)
            continue
        assert [key for key in GAMES if rule in rules_for(key)] == ([game] if game else list(GAMES))


def test_the_club_night_rules_are_read_in_every_language():
    ids = [rule.id for rule in club_night_rules()]
    assert ids[:2] == ["night.tables", "night.rounds"] and "night.stage.open" in ids
    for lang in ("hu", "hi", "pa"):
        translated = club_night_rules(lang)
        assert [rule.id for rule in translated] == ids
        assert all(rule.text != rule_text(rule.id) for rule in translated), lang


def test_rule_texts_are_plain_sentences():
    assert "50" in rule_text("mt.score")
    assert "**" not in rule_text("kz.fish") and "`" not in rule_text("kz.fish")
    assert rule_text("no.such.rule") is None
    assert rules_by_id()["mt.double.open"].anchor == "rule-mt-double-open"
