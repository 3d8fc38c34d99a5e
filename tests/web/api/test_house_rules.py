"""House rules through the JSON API: the options echoed, markers in a score pad's entry,
and an old game (its events written before the house rules existed) re-scored as before."""

from __future__ import annotations

import copy

from referee.rules import GAMES

OLD_MT_OPTIONS = {
    "double_blank": 25,
    "first_turn": "single",
    "doubles_order": "oldest",
    "hand_size": None,
    "first_double": 9,
    "last_double": 0,
    "tie_break": "share",
}


def test_state_echoes_every_option_with_its_default(api):
    for key, rules in GAMES.items():
        players = ["Ana", "Ben"]
        state = api.create(game=key, players=players)
        assert set(state["options"]) == {option.name for option in rules.declaration.options}


def test_markers_in_a_score_pad_entry(api):
    game = api.create(
        game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores", options={"marker_penalty": 10}
    )
    status, state = api.post(
        f"/api/games/{game['id']}/rounds/1/hands", {"hands": {"Ana": [], "Ben": ["5-6"]}, "markers": ["Ben"]}
    )
    assert status == 200, state
    assert state["rounds"][0]["points"] == {"Ana": 0, "Ben": 21}


def test_markers_refused_without_the_house_rule(api):
    game = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores")
    status, body = api.post(
        f"/api/games/{game['id']}/rounds/1/hands", {"hands": {"Ana": [], "Ben": 4}, "markers": ["Ben"]}
    )
    assert status == 400 and "mt.house.marker" in body["error"]
    assert api.state(game["id"])["version"] == game["version"]


def test_blank_half_with_double_blank_is_a_clear_400(api):
    status, body = api.post(
        "/api/games",
        {
            "game": "mexican-train",
            "players": ["Ana", "Ben"],
            "options": {"blank_half": 25, "double_blank": 50},
        },
    )
    assert status == 400 and "mt.house.blank-half" in body["error"]


def test_house_rule_refusal_cites_its_id(api):
    game = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, options={"own_train_first": True})
    status, body = api.act(game["id"], type="play", player="Ana", tile="9-1", train="mexican")
    assert status == 422 and body["rule"] == "mt.house.own-first"


def test_an_old_game_from_a_backup_is_rescored_exactly_as_before(client, api):
    """A backup whose create event has no house-rule keys (written before they existed)."""
    game = api.create(
        game="mexican-train", players=["Ana", "Ben", "Caro"], set=9, mode="scores", options=OLD_MT_OPTIONS
    )
    rounds = [
        {"Ana": [], "Ben": ["0-0", "5-6"], "Caro": 17},
        {"Ana": ["0-7", "6-6"], "Ben": 0, "Caro": ["1-2"]},
    ]
    for number, hands in enumerate(rounds, start=1):
        assert api.hands(game["id"], number, hands)[0] == 200
    before = api.state(game["id"])
    status, export = api.get(f"/api/games/{game['id']}/export")
    assert status == 200
    old = copy.deepcopy(export)
    create = old["games"][0]["events"][0]
    assert create["kind"] == "create"
    create["payload"]["options"] = dict(OLD_MT_OPTIONS)  # the old shape: no house-rule keys
    old["games"][0]["id"] = "old" + game["id"][3:]  # imported beside the original
    status, imported = api.post("/api/import", old)
    assert status == 201, imported
    after = api.state(imported["imported"][0]["id"])
    assert after["totals"] == before["totals"] == {"Ana": 7 + 12, "Ben": 25 + 11, "Caro": 17 + 3}
    assert after["rounds"] == before["rounds"]
    for option in GAMES["mexican-train"].declaration.house_rules:
        assert after["options"][option.name] == option.resolved_default(9)
