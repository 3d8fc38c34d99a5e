"""The API's game creation, score pad, corrections and refusals (API.md, mt.players …)."""

from __future__ import annotations

import pytest

PLAYERS3 = ["Ana", "Ben", "Caro"]


def test_create_answers_201_with_the_documented_state(api):
    status, data = api.post(
        "/api/games",
        {
            "game": "mexican-train",
            "players": PLAYERS3,
            "set": 12,
            "mode": "referee",
            "options": {"double_blank": 50},
        },
    )
    assert status == 201
    for key in (
        "id",
        "game",
        "mode",
        "set",
        "players",
        "options",
        "version",
        "status",
        "round",
        "rounds",
        "totals",
        "winners",
    ):
        assert key in data
    assert data["status"] == "playing" and data["version"] == 1
    assert data["round"]["number"] == 1 and data["round"]["double"] == "12-12"
    assert data["round"]["turn"] == "Ana"
    assert data["round"]["hands"] == {"Ana": 16, "Ben": 16, "Caro": 16}
    assert data["round"]["boneyard"] == 91 - 1 - 48
    assert data["totals"] == {"Ana": 0, "Ben": 0, "Caro": 0} and data["winners"] == []
    assert api.state(data["id"]) == data


@pytest.mark.parametrize("game, default_set", [("mexican-train", 12), ("chicken-foot", 9), ("kozel", 6)])
def test_set_defaults(api, game, default_set):
    data = api.create(game=game, players=["A", "B"])
    assert data["set"] == default_set and data["mode"] == "referee"


@pytest.mark.parametrize(
    "body, rule",
    [
        ({"game": "mexican-train", "players": ["A", "B", "C", "D", "E"], "set": 9}, "mt.players"),
        ({"game": "mexican-train", "players": [f"P{i}" for i in range(9)], "set": 12}, "mt.players"),
        ({"game": "mexican-train", "players": ["A", "B"], "set": 15}, "mt.players"),
        ({"game": "mexican-train", "players": ["A"], "set": 12}, "mt.players"),
        (
            {
                "game": "mexican-train",
                "players": ["A", "B", "C", "D", "E", "F"],
                "set": 9,
                "options": {"hand_size": 10},
            },
            "mt.deal",
        ),
        ({"game": "mexican-train", "players": ["A", "B"], "set": 6}, "mt.players"),
        ({"game": "kozel", "players": ["A", "B"], "set": 9}, "kz.players"),
        ({"game": "kozel", "players": ["A", "B", "C", "D", "E"]}, "kz.players"),
        ({"game": "kozel", "players": ["A"]}, "kz.players"),
        ({"game": "chicken-foot", "players": [f"P{i}" for i in range(8)], "set": 9}, "cf.players"),
        ({"game": "chicken-foot", "players": ["A"], "set": 9}, "cf.players"),
    ],
)
def test_tables_the_rules_refuse(api, body, rule):
    status, data = api.post("/api/games", body)
    assert status == 422, data
    assert data["rule"] == rule and data["error"]
    assert api.get("/api/games")[1]["games"] == []


@pytest.mark.parametrize(
    "body",
    [
        {
            "game": "mexican-train",
            "players": ["A", "B", "C", "D", "E"],
            "set": 9,
            "options": {"hand_size": 8},
        },
        {"game": "mexican-train", "players": [f"P{i}" for i in range(12)], "set": 18},
        {"game": "mexican-train", "players": [f"P{i}" for i in range(9)], "set": 15},
        {"game": "chicken-foot", "players": [f"P{i}" for i in range(7)], "set": 9},
        {"game": "kozel", "players": ["A", "B", "C", "D"]},
    ],
)
def test_tables_the_rules_allow(api, body):
    assert api.post("/api/games", body)[0] == 201


def test_big_set_default_hand_is_eleven(api):
    data = api.create(game="mexican-train", players=[f"P{i}" for i in range(9)], set=15)
    assert set(data["round"]["hands"].values()) == {11}
    assert data["round"]["boneyard"] == 136 - 1 - 99


@pytest.mark.parametrize(
    "body",
    [
        [],
        "x",
        {"players": ["A", "B"]},
        {"game": "poker", "players": ["A", "B"]},
        {"game": "kozel", "players": "A,B"},
        {"game": "kozel", "players": ["A", 3]},
        {"game": "kozel", "players": ["A", ""]},
        {"game": "kozel", "players": ["A", "a" * 41]},
        {"game": "kozel", "players": ["A", "A"]},
        {"game": "kozel", "players": ["A", "<script>alert(1)</script>"]},
        {"game": "kozel", "players": ["A", "B"], "set": "6"},
        {"game": "kozel", "players": ["A", "B"], "mode": "x"},
        {"game": "kozel", "players": ["A", "B"], "options": {"colour": 1}},
        {"game": "kozel", "players": ["A", "B"], "options": {"fish": "some"}},
        {"game": "mexican-train", "players": ["A", "B"], "options": {"double_blank": 10}},
        {"game": "mexican-train", "players": ["A", "B"], "options": {"first_double": 3, "last_double": 5}},
        {"game": "mexican-train", "players": ["A", "mexican"]},
        {"game": "kozel", "players": ["A", "B"], "extra": True},
    ],
)
def test_malformed_creations_are_400_and_create_nothing(api, body):
    status, data = api.post("/api/games", body)
    assert status == 400, data
    assert data["error"] and data["rule"] is None
    assert api.get("/api/games")[1]["games"] == []


def test_names_in_any_script_are_kept(api):
    names = ["अनीता", "ਗੁਰਪ੍ਰੀਤ", "Éva", "Tom & Jerry"]
    data = api.create(game="mexican-train", players=names, set=12)
    assert data["players"] == names
    assert list(data["totals"]) == names


def test_not_json_and_broken_json(client):
    assert (
        client.post(
            "/api/games", data="game=kozel", content_type="application/x-www-form-urlencoded"
        ).status_code
        == 415
    )
    response = client.post("/api/games", data="{nope", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["rule"] is None
    huge = '{"game": "kozel", "players": ["' + "a" * 70_000 + '"]}'
    response = client.post("/api/games", data=huge, content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()


def test_unknown_addresses_answer_json(api, client):
    assert api.get("/api/games/nope") == (404, {"error": "There is no game 'nope'.", "rule": None})
    assert api.get("/api/nothing-here")[0] == 404
    assert client.delete("/api/games").status_code == 405


def score_pad(api, **extra):
    return api.create(game="mexican-train", players=PLAYERS3, set=9, mode="scores", **extra)


def test_score_pad_round_applies_double_blank_and_books_totals(api):
    game = score_pad(api)
    assert game["round"]["status"] == "scoring"
    status, data = api.hands(game["id"], 1, {"Ana": [], "Ben": ["0-0", "5-6"], "Caro": 17})
    assert status == 200, data
    assert data["rounds"] == [
        {
            "number": 1,
            "double": "9-9",
            "points": {"Ana": 0, "Ben": 61, "Caro": 17},
            "end": {"reason": "table", "player": "Ana"},
        }
    ]
    assert data["totals"] == {"Ana": 0, "Ben": 61, "Caro": 17}
    assert data["round"]["number"] == 2 and data["round"]["double"] == "8-8"
    assert data["version"] == 2


@pytest.mark.parametrize(
    "hands, status, rule",
    [
        ({"Ana": [], "Ben": ["5-6", "6-5"], "Caro": 3}, 422, "unique"),
        ({"Ana": ["1-2"], "Ben": ["2-1"], "Caro": 3}, 422, "unique"),
        ({"Ana": [], "Ben": ["10-1"], "Caro": 3}, 422, "tiles"),
        ({"Ana": [], "Ben": ["x"], "Caro": 3}, 400, None),
        ({"Ana": [], "Ben": -3, "Caro": 3}, 400, None),
        ({"Ana": [], "Ben": 10**9, "Caro": 3}, 400, None),
        ({"Ana": [], "Ben": "12", "Caro": 3}, 400, None),
        ({"Ana": [], "Ben": True, "Caro": 3}, 400, None),
        ({"Ana": [], "Ben": 4}, 422, None),
        ({"Ana": [], "Ben": 4, "Caro": 3, "Dan": 1}, 422, None),
        ({"Ana": [], "Ben": [], "Caro": 3}, 422, "mt.end.domino"),
    ],
)
def test_impossible_hands_are_refused_and_change_nothing(api, hands, status, rule):
    game = score_pad(api)
    before = api.state(game["id"])
    got, data = api.hands(game["id"], 1, hands)
    assert got == status, data
    assert data["rule"] == rule and data["error"]
    assert api.state(game["id"]) == before


def test_rounds_not_reached_are_404(api):
    game = score_pad(api)
    assert api.hands(game["id"], 2, {"Ana": 1, "Ben": 2, "Caro": 3})[0] == 404
    assert api.hands(game["id"], 0, {"Ana": 1, "Ben": 2, "Caro": 3})[0] == 404
    assert api.post(f"/api/games/{game['id']}/rounds/x/hands", {"hands": {}})[0] == 404
    assert api.hands("nope", 1, {"Ana": 1})[0] == 404


def test_correction_recomputes_totals_and_is_kept_in_history(api):
    game = score_pad(api)
    api.hands(game["id"], 1, {"Ana": 0, "Ben": 10, "Caro": 20})
    api.hands(game["id"], 2, {"Ana": 5, "Ben": 0, "Caro": 7})
    status, data = api.hands(game["id"], 1, {"Ana": 0, "Ben": 12, "Caro": 20})
    assert status == 200
    assert data["totals"] == {"Ana": 5, "Ben": 12, "Caro": 27}
    assert data["round"]["number"] == 3
    events = api.get(f"/api/games/{game['id']}/events")[1]["events"]
    assert [e["kind"] for e in events] == ["create", "hands", "hands", "hands"]
    assert events[1]["payload"]["hands"]["Ben"] == 10  # the original entry is still there


def test_undo_takes_back_the_last_entry(api):
    game = score_pad(api)
    api.hands(game["id"], 1, {"Ana": 0, "Ben": 10, "Caro": 20})
    _, after_two = api.hands(game["id"], 2, {"Ana": 5, "Ben": 0, "Caro": 7})
    status, data = api.act(game["id"], type="undo")
    assert status == 200
    assert data["totals"] == {"Ana": 0, "Ben": 10, "Caro": 20} and data["round"]["number"] == 2
    assert data["version"] == after_two["version"] + 1
    api.act(game["id"], type="undo")
    status, data = api.act(game["id"], type="undo")
    assert status == 422 and data["error"]


def test_plays_are_refused_in_a_score_pad(api):
    game = score_pad(api)
    status, data = api.act(game["id"], type="draw", player="Ana")
    assert status == 422 and "score pad" in data["error"]


def whole_game(api, tie_break="share", points=None):
    game = score_pad(api, options={"tie_break": tie_break})
    data = None
    for number in range(1, 11):
        status, data = api.hands(
            game["id"], number, points(number) if points else {"Ana": number, "Ben": 0, "Caro": 2 * number}
        )
        assert status == 200, data
    return data


def test_a_whole_double9_game_ends_with_the_lowest_total_winning(api):
    data = whole_game(api)
    assert data["status"] == "finished"
    assert [r["double"] for r in data["rounds"]] == [f"{v}-{v}" for v in range(9, -1, -1)]
    assert data["totals"] == {"Ana": 55, "Ben": 0, "Caro": 110}
    assert data["winners"] == ["Ben"]
    assert data["round"]["number"] == 10 and data["round"]["status"] == "done"
    status, refused = api.act(data["id"], type="undo")
    assert status == 200  # the score pad's last entry can still be taken back
    assert refused["status"] == "playing"


def ana_and_ben_tie(ben_rounds):
    ana_rounds = [0, 0, 0, 0, 0, 0, 0, 0, 5, 5]
    return lambda number: {"Ana": ana_rounds[number - 1], "Ben": ben_rounds[number - 1], "Caro": 9}


MORE_ZEROS = [10, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # Ben: 9 zero rounds against Ana's 8
SMALLER_NONZERO = [1, 9, 0, 0, 0, 0, 0, 0, 0, 0]  # 8 zeros each; Ben's lowest non-zero is 1


def test_equal_lowest_totals_share_the_win_by_default(api):
    data = whole_game(api, points=ana_and_ben_tie(MORE_ZEROS))
    assert data["totals"]["Ana"] == data["totals"]["Ben"] == 10
    assert data["winners"] == ["Ana", "Ben"]
    assert "tie_break" not in data


@pytest.mark.parametrize("ben_rounds", [MORE_ZEROS, SMALLER_NONZERO])
def test_chicken_foot_tie_break_when_chosen(api, ben_rounds):
    data = whole_game(api, tie_break="chicken-foot", points=ana_and_ben_tie(ben_rounds))
    assert data["totals"]["Ana"] == data["totals"]["Ben"] == 10
    assert data["winners"] == ["Ben"]
    assert "cf.tie" in data["tie_break"]


def test_two_emptied_hands_are_refused_but_two_typed_zeros_are_not(api):
    game = score_pad(api, options={"double_blank": 0})
    assert api.hands(game["id"], 1, {"Ana": [], "Ben": [], "Caro": 4})[1]["rule"] == "mt.end.domino"
    status, data = api.hands(game["id"], 1, {"Ana": [], "Ben": ["0-0"], "Caro": 4})
    assert status == 200 and data["totals"]["Ben"] == 0


def test_a_shorter_game_runs_from_first_to_last_double(api):
    game = score_pad(api, options={"first_double": 9, "last_double": 7})
    for number in (1, 2, 3):
        _, data = api.hands(game["id"], number, {"Ana": 1, "Ben": 2, "Caro": 0})
    assert data["status"] == "finished" and data["round_count"] == 3
    assert [r["double"] for r in data["rounds"]] == ["9-9", "8-8", "7-7"]


def test_scoresheet_csv_has_a_row_per_round_and_totals(api, client):
    game = score_pad(api)
    api.hands(game["id"], 1, {"Ana": 0, "Ben": 10, "Caro": 20})
    api.hands(game["id"], 2, {"Ana": 5, "Ben": 0, "Caro": 7})
    response = client.get(f"/api/games/{game['id']}/scoresheet.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    lines = response.get_data(as_text=True).strip().splitlines()
    assert lines[0] == "round,double,Ana,Ben,Caro"
    assert lines[1] == "1,9-9,0,10,20" and lines[2] == "2,8-8,5,0,7"
    assert lines[-1] == "total,,5,10,27"


def test_version_guard_gives_409_and_changes_nothing(api):
    game = api.create(game="mexican-train", players=PLAYERS3, set=9)
    status, data = api.act(game["id"], type="draw", player="Ana", version=7)
    assert status == 409 and data["error"]
    assert api.state(game["id"])["version"] == 1
    status, data = api.act(game["id"], type="draw", player="Ana", version=1)
    assert status == 200 and data["version"] == 2
    assert api.act(game["id"], type="draw", player="Ben", version="2")[0] == 400


@pytest.mark.parametrize(
    "action, status",
    [
        ({"type": "fly", "player": "Ana"}, 400),
        ({"type": "play", "player": "Ana"}, 400),
        ({"type": "play", "player": "Ana", "tile": "x-y", "train": "Ana"}, 400),
        ({"type": "play", "player": "Ana", "tile": 56, "train": "Ana"}, 400),
        ({"type": "draw"}, 400),
        ({"type": "draw", "player": 3}, 400),
        ({"type": "draw", "player": "Zed"}, 422),
        ({"type": "play", "player": "Ana", "tile": "10-3", "train": "Ana"}, 422),
        ({"type": "draw", "player": "Ana", "bogus": 1}, 400),
    ],
)
def test_bad_actions_change_nothing(api, action, status):
    game = api.create(game="mexican-train", players=PLAYERS3, set=9)
    got, data = api.act(game["id"], **action)
    assert got == status, data
    assert set(data) >= {"error", "rule"}
    assert api.state(game["id"]) == game


def test_tile_outside_the_set_names_rule_tiles(api):
    game = api.create(game="mexican-train", players=PLAYERS3, set=9)
    _, data = api.act(game["id"], type="play", player="Ana", tile="10-3", train="Ana")
    assert data["rule"] == "tiles"


def test_rules_and_openapi(api):
    status, data = api.get("/api/rules/mexican-train")
    assert status == 200 and data["game"] == "mexican-train"
    ids = [r["id"] for r in data["rules"]]
    assert "mt.double.open" in ids and "tiles" in ids and not any(i.startswith("kz.") for i in ids)
    assert api.get("/api/rules/chess")[0] == 404
    status, doc = api.get("/api/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.")
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/rounds/{number}/hands",
        "/api/games/{game_id}/scoresheet.csv",
        "/api/rules/{game}",
        "/api/openapi.json",
    ):
        assert path in doc["paths"]


def test_list_games(api):
    a = api.create(game="kozel", players=["A", "B"])
    b = api.create(game="chicken-foot", players=["C", "D"])
    games = api.get("/api/games")[1]["games"]
    assert {g["id"] for g in games} == {a["id"], b["id"]}
    assert set(games[0]) == {"id", "game", "players", "status", "created"}
