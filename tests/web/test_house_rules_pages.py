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


def test_score_pad_hands_form_names_the_marked_trains(client, api):
    """mt.house.marker in a score pad: the hands page asks whose own train carried a marker,
    and a ticked box adds the penalty to that player's round."""
    game = api.create(
        game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores", options={"marker_penalty": 15}
    )
    page = client.get(f"/games/{game['id']}/rounds/1/hands").get_data(as_text=True)
    assert page.count('class="check marker-check"') == 2 and "mt.house.marker" in page
    form = {"p0": "out", "p1": "3-4", "m1": "y", "version": str(game["version"])}
    answer = client.post(f"/games/{game['id']}/rounds/1/hands", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    state = api.state(game["id"])
    assert state["rounds"][0]["points"] == {"Ana": 0, "Ben": 7 + 15}
    again = client.get(f"/games/{game['id']}/rounds/1/hands").get_data(as_text=True)
    assert re.search(r'id="m1" name="m1" value="y" checked', again)  # a correction keeps the marks
    assert not re.search(r'id="m0" name="m0" value="y" checked', again)


@pytest.mark.parametrize(
    "mode, options", [("referee", {"marker_penalty": 15}), ("scores", {}), ("scores", {"marker_penalty": 0})]
)
def test_hands_form_asks_for_markers_only_where_the_score_pad_needs_them(client, api, mode, options):
    game = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode=mode, options=options)
    page = client.get(f"/games/{game['id']}/rounds/1/hands").get_data(as_text=True)
    assert "marker-check" not in page
