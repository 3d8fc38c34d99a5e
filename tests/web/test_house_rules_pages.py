"""The pages show the house rules: the new-game form groups them per game with their one
line and rule id, and the game, table and scoresheet pages name those in force."""

from __future__ import annotations

import re

import pytest

from referee.rules import GAMES
from tests.web.test_pages import created_id, new_game


def test_new_game_page_groups_house_rules_per_game(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert "House rules" in page
    for key, rules in GAMES.items():
        if not rules.declaration.house_rules:
            continue
        group = re.search(rf'<details class="house" data-game="{key}".*?</details>', page, re.S).group(0)
        for option in rules.declaration.house_rules:
            assert f'name="{rules.prefix}_{option.name}"' in group
            assert option.rule in group and str(option.help) in group


def test_new_game_page_explains_house_rules_in_the_language(client):
    client.get("/lang/hu")
    page = client.get("/games/new").get_data(as_text=True)
    assert "Házszabályok" in page and "Előbb a saját vonat" in page
    assert "Addig húz, amíg egy csont nem illik" in page  # a choice's label


def test_house_rules_chosen_on_the_form_are_in_force_on_every_page(client, api):
    fields = {"mt_out_bonus": "20", "mt_draw": "until", "mt_own_train_first": "y"}
    game_id = created_id(new_game(client, ["Ana", "Ben"], **fields))
    state = api.state(game_id)
    assert state["options"]["out_bonus"] == 20
    assert state["options"]["draw"] == "until" and state["options"]["own_train_first"] is True
    assert state["options"]["marker_penalty"] == 0  # every option echoed
    for path in (f"/games/{game_id}", f"/games/{game_id}/scoresheet"):
        page = client.get(path).get_data(as_text=True)
        assert "House rules in force" in page
        for rule in ("mt.house.own-first", "mt.house.draw", "mt.house.out-bonus"):
            assert rule in page
        assert "mt.house.marker" not in page


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot"])
def test_no_house_rules_block_without_house_rules(client, api, game):
    created = api.create(game=game, players=["Ana", "Ben"], mode="scores")
    page = client.get(f"/games/{created['id']}/scoresheet").get_data(as_text=True)
    assert "House rules in force" not in page
