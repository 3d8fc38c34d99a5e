"""The JSON API's general contract (API.md: conventions, games, rules, openapi, CSV)."""

from __future__ import annotations

import csv
import io

import pytest

from tests.helpers import RULE_IDS, RULE_IDS_COMMON, hands_ok, ok, refused

COMMON = RULE_IDS_COMMON
IDS = RULE_IDS
ALL_IDS = set(COMMON) | {i for ids in IDS.values() for i in ids}
GAMES = list(IDS)
STATE_KEYS = {
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
}
ROUND_KEYS = {"number", "double", "status", "turn", "boneyard", "hands", "end"}


# ----- creation and state ------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, highest, double", [("mexican-train", 12, "12-12"), ("chicken-foot", 9, "9-9"), ("kozel", 6, None)]
)
@pytest.mark.parametrize("mode", ["referee", "scores"])
def test_created_state_shape(api, game, highest, double, mode):
    status, data = api.post("/api/games", {"game": game, "players": ["Ana", "Ben"], "mode": mode})
    assert status == 201
    assert set(data) >= STATE_KEYS and set(data["round"]) >= ROUND_KEYS
    assert data["game"] == game and data["set"] == highest and data["mode"] == mode
    assert data["players"] == ["Ana", "Ben"] and isinstance(data["options"], dict)
    assert data["version"] == 1 and data["status"] == "playing"
    assert data["round"]["number"] == 1 and data["round"]["double"] == double
    assert data["round"]["status"] == ("playing" if mode == "referee" else "scoring")
    assert data["round"]["end"] is None
    assert data["rounds"] == [] and data["totals"] == {"Ana": 0, "Ben": 0} and data["winners"] == []
    assert api.state(data["id"]) == data
    if game == "mexican-train" and mode == "referee":
        assert {"trains", "open_doubles"} <= set(data["round"])
    if game == "chicken-foot" and mode == "referee":
        assert {"open_ends", "foot"} <= set(data["round"])
    if game == "kozel":
        assert {"remembered", "pot"} <= set(data)
        if mode == "referee":
            assert data["round"]["ends"] == []


@pytest.mark.parametrize(
    "game, options",
    [
        (
            "mexican-train",
            {
                "double_blank": 25,
                "first_turn": "build",
                "doubles_order": "newest",
                "tie_break": "chicken-foot",
            },
        ),
        ("mexican-train", {"first_double": 9, "last_double": 3}),
        ("chicken-foot", {"double_blank": 0, "arms": 6, "hand_size": 5}),
        ("kozel", {"fish": "one", "lose_at": 50, "zero_zero": 25}),
    ],
)
def test_options_are_kept(api, game, options):
    data = api.create(game=game, players=["Ana", "Ben"], set={"kozel": 6}.get(game, 9), options=options)
    for key, value in options.items():
        assert data["options"][key] == value


@pytest.mark.parametrize(
    "game, options",
    [
        ("mexican-train", {"arms": 4}),
        ("mexican-train", {"double_blank": 10}),
        ("mexican-train", {"first_turn": "many"}),
        ("mexican-train", {"doubles_order": "random"}),
        ("mexican-train", {"tie_break": "coin"}),
        ("chicken-foot", {"arms": 5}),
        ("chicken-foot", {"fish": "all"}),
        ("chicken-foot", {"double_blank": 30}),
        ("kozel", {"fish": "two"}),
        ("kozel", {"zero_zero": 0}),
        ("kozel", {"double_blank": 50}),
        ("kozel", {"lose_at": "101"}),
    ],
)
def test_bad_options_are_400(api, game, options):
    status, data = api.post("/api/games", {"game": game, "players": ["Ana", "Ben"], "options": options})
    assert status == 400 and data["error"] and data["rule"] is None
    assert api.get("/api/games")[1]["games"] == []


@pytest.mark.parametrize(
    "players, status",
    [
        (["a" * 40, "B"], 201),
        (["é" * 40, "B"], 201),
        (["a" * 41, "B"], 400),
        (["", "B"], 400),
        (["Ana", "Ana"], 400),
        (["Ana", 7], 400),
        ("Ana,Ben", 400),
        (["Дмитрий", "Zoë", "李"], 201),
    ],
)
def test_player_names(api, players, status):
    got, data = api.post("/api/games", {"game": "mexican-train", "players": players})
    assert got == status, data
    if status == 201:
        assert data["players"] == players


@pytest.mark.parametrize("given", ["Zoe\u0308", " Ana "])
def test_players_are_named_by_the_names_given(api, given):
    data = api.create(game="kozel", players=[given, "Ben"])
    ok(api, data["id"], type="start", player=given)
    hands_ok(api, data["id"], 1, {given: 0, "Ben": 5})


def test_kozel_set_is_six_only(api):
    status, data = api.post("/api/games", {"game": "kozel", "players": ["A", "B"], "set": 12})
    assert status in (400, 422) and data["error"]


# ----- conventions: 415, 400, 404, 409 ------------------------------------------------------


def endpoints(gid):
    return [f"/api/games/{gid}/actions", f"/api/games/{gid}/rounds/1/hands"]


def test_not_json_is_415_everywhere(api, client):
    gid = api.create(game="mexican-train", players=["Ana", "Ben"], set=9)["id"]
    before = api.state(gid)
    for url in ["/api/games"] + endpoints(gid):
        for kind, body in [
            ("text/plain", '{"type": "undo"}'),
            ("application/x-www-form-urlencoded", "type=undo"),
        ]:
            response = client.post(url, data=body, content_type=kind)
            assert response.status_code == 415, url
            assert response.get_json()["error"] and "rule" in response.get_json()
    assert api.state(gid) == before
    assert len(api.get("/api/games")[1]["games"]) == 1


@pytest.mark.parametrize(
    "body", [[], "x", 3, {"hands": []}, {"hands": "x"}, {"hands": {"Ana": 1, "Ben": 0}, "extra": 1}]
)
def test_malformed_hands_body_is_400(api, body):
    gid = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores")["id"]
    before = api.state(gid)
    status, data = api.post(f"/api/games/{gid}/rounds/1/hands", body)
    assert status == 400 and data["error"] and data["rule"] is None
    assert api.state(gid) == before


@pytest.mark.parametrize(
    "body", [[], "x", 3, {}, {"type": 3}, {"type": "play", "player": "Ana", "tile": "9-1", "train": 4}]
)
def test_malformed_action_is_400(api, body):
    gid = api.create(game="mexican-train", players=["Ana", "Ben"], set=9)["id"]
    before = api.state(gid)
    status, data = api.post(f"/api/games/{gid}/actions", body)
    assert status == 400 and data["error"] and data["rule"] is None
    assert api.state(gid) == before


def test_broken_json_is_400(api, client):
    gid = api.create(game="kozel", players=["Ana", "Ben"])["id"]
    for url in endpoints(gid):
        response = client.post(url, data="{nope", content_type="application/json")
        assert response.status_code == 400 and response.get_json()["rule"] is None


def test_unknown_game_is_404(api, client):
    for status, data in [
        api.get("/api/games/nope"),
        api.act("nope", type="undo"),
        api.hands("nope", 1, {"A": 1}),
    ]:
        assert status == 404 and data["error"] and data["rule"] is None
    assert client.get("/api/games/nope/scoresheet.csv").status_code == 404


@pytest.mark.parametrize("number", [0, 2, 99])
def test_unknown_round_is_404(api, number):
    gid = api.create(game="kozel", players=["Ana", "Ben"], mode="scores")["id"]
    before = api.state(gid)
    status, data = api.hands(gid, number, {"Ana": 1, "Ben": 0})
    assert status == 404 and data["error"] and data["rule"] is None
    assert api.state(gid) == before


@pytest.mark.parametrize("game", GAMES)
def test_version_conflict_is_409_and_changes_nothing(api, game):
    gid = api.create(game=game, players=["Ana", "Ben"])["id"]
    ok(api, gid, type="start", player="Ben", version=1)
    for stale in (1, 0, 3):
        refused(api, gid, {"type": "start", "player": "Ana", "version": stale}, 409)
    assert api.state(gid)["version"] == 2


def test_every_accepted_change_adds_one_to_version(api):
    gid = api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores")["id"]
    assert hands_ok(api, gid, 1, {"Ana": 1, "Ben": 0})["version"] == 2
    assert hands_ok(api, gid, 1, {"Ana": 2, "Ben": 0})["version"] == 3  # a correction
    assert ok(api, gid, type="undo")["version"] == 4
    assert api.state(gid)["totals"] == {"Ana": 1, "Ben": 0}


@pytest.mark.parametrize("game", GAMES)
def test_refusals_name_a_rule_of_the_book_or_null(api, game):
    gid = api.create(game=game, players=["Ana", "Ben"])["id"]
    attempts = [
        {"type": "play", "player": "Ben", "tile": "1-2", "train": "Ana"},
        {"type": "play", "player": "Ana", "tile": "1-2", "on": "5-5"},
        {"type": "play", "player": "Ana", "tile": "3-4"},
        {"type": "draw", "player": "Zed"},
        {"type": "pass", "player": "Ana"},
        {"type": "end", "player": "Ana"},
        {"type": "undo"},
        {"type": "leave", "player": "Ben"} if game != "kozel" else {"type": "undo"},
        {"type": "play", "player": "Ana", "tile": "1-20", "train": "mexican"},
    ]
    for action in attempts:
        before = api.state(gid)
        status, data = api.act(gid, **action)
        if status == 200:
            ok(api, gid, type="undo")
            continue
        assert 400 <= status < 500 and set(data) >= {"error", "rule"}, (action, data)
        assert data["rule"] is None or data["rule"] in ALL_IDS, (action, data)
        assert api.state(gid) == before


@pytest.mark.parametrize("game", GAMES)
def test_score_pad_refuses_plays(api, game):
    gid = api.create(game=game, players=["Ana", "Ben"], mode="scores")["id"]
    refused(api, gid, {"type": "draw", "player": "Ana"}, 422)
    refused(api, gid, {"type": "play", "player": "Ana", "tile": "1-1", "train": "Ana"}, 422)


# ----- games list, rules, openapi, scoresheet -----------------------------------------------------


def test_games_list(api):
    assert api.get("/api/games") == (200, {"games": []})
    a = api.create(game="kozel", players=["A", "B"], mode="scores", options={"lose_at": 10})
    b = api.create(game="mexican-train", players=["C", "D"])
    hands_ok(api, a["id"], 1, {"A": 20, "B": 0})
    games = {g["id"]: g for g in api.get("/api/games")[1]["games"]}
    assert set(games) == {a["id"], b["id"]}
    for game in games.values():
        assert {"id", "game", "players", "status", "created"} <= set(game)
    assert games[a["id"]]["status"] == "finished" and games[a["id"]]["game"] == "kozel"
    assert games[b["id"]]["status"] == "playing" and games[b["id"]]["players"] == ["C", "D"]
    assert games[b["id"]]["created"] == b.get("created", games[b["id"]]["created"])


@pytest.mark.parametrize("game", GAMES)
def test_rule_book(api, game):
    status, data = api.get(f"/api/rules/{game}")
    assert status == 200 and data["game"] == game
    ids = [rule["id"] for rule in data["rules"]]
    assert set(COMMON + IDS[game]) <= set(ids)
    assert all(isinstance(rule["text"], str) and rule["text"].strip() for rule in data["rules"])
    others = {i for g, lst in IDS.items() if g != game for i in lst}
    assert not (set(ids) & others - {"cf.tie"})  # mt.winner refers to cf.tie
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    "game, rule, words",
    [
        ("mexican-train", "mt.double.dead", "every other tile of its number is already on the table"),
        ("kozel", "kz.rating", "rounded half up"),
        ("chicken-foot", "cf.tie", "more zero-point rounds wins"),
        ("kozel", "unique", "Each tile exists once"),
    ],
)
def test_rule_texts_are_the_books(api, game, rule, words):
    rules = {r["id"]: r["text"] for r in api.get(f"/api/rules/{game}")[1]["rules"]}
    assert words in rules[rule]


def test_openapi(api):
    status, doc = api.get("/api/openapi.json")
    assert status == 200 and str(doc["openapi"]).startswith("3.")
    assert doc["info"]["title"] and doc["info"]["version"]
    paths = doc["paths"]
    expected = {
        ("post", "/api/games"),
        ("get", "/api/games"),
        ("get", "/api/games/{"),
        ("post", "/actions"),
        ("post", "/hands"),
        ("get", "/scoresheet.csv"),
        ("get", "/api/rules/{"),
        ("get", "/api/openapi.json"),
    }
    for path, ops in paths.items():
        for method, op in ops.items():
            if method in ("get", "post", "put", "patch", "delete"):
                assert op.get("responses"), (path, method)
    for method, fragment in expected:
        assert any(fragment in path and method in ops for path, ops in paths.items()), fragment


def sheet(client, gid):
    response = client.get(f"/api/games/{gid}/scoresheet.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


@pytest.mark.parametrize("game", GAMES)
def test_scoresheet_csv(api, client, game):
    gid = api.create(game=game, players=["Ana", "Ben", "Caro"], mode="scores")["id"]
    entries = [{"Ana": 13, "Ben": 0, "Caro": 20}, {"Ana": 5, "Ben": 7, "Caro": 0}]
    for number, hands in enumerate(entries, start=1):
        data = hands_ok(api, gid, number, hands)
    rows = [r for r in sheet(client, gid) if r]
    header = rows[0]
    columns = [header.index(name) for name in ("Ana", "Ben", "Caro")]
    body = rows[1:]
    assert len(body) == len(entries) + 1  # a row per round, a totals row
    for row, hands in zip(body, entries):
        if game == "kozel":
            continue  # what a kozel round row shows (hand, booked, before/after) is left open
        assert [int(row[c]) for c in columns] == [hands[n] for n in ("Ana", "Ben", "Caro")]
    assert [int(body[-1][c]) for c in columns] == [data["totals"][n] for n in ("Ana", "Ben", "Caro")]


def test_scoresheet_of_a_new_game(api, client):
    gid = api.create(game="mexican-train", players=["Ana", "Ben"])["id"]
    rows = [r for r in sheet(client, gid) if r]
    assert "Ana" in rows[0] and "Ben" in rows[0] and len(rows) == 2


def test_app_module_uses_referee_db(tmp_path, monkeypatch):
    import importlib
    import sys

    db = tmp_path / "env.db"
    monkeypatch.setenv("REFEREE_DB", str(db))
    sys.modules.pop("app", None)
    module = importlib.import_module("app")
    try:
        client = module.app.test_client()
        response = client.post("/api/games", json={"game": "kozel", "players": ["A", "B"]})
        assert response.status_code == 201  # JSON needs no CSRF token
        gid = response.get_json()["id"]
        response = client.post(f"/api/games/{gid}/actions", json={"type": "start", "player": "B"})
        assert response.status_code == 200 and response.get_json()["round"]["turn"] == "B"
        response = client.post(f"/api/games/{gid}/rounds/1/hands", json={"hands": {"A": 5, "B": 0}})
        assert response.status_code == 200 and response.get_json()["round"]["number"] == 2
        assert db.exists() and db.stat().st_size > 0
    finally:
        sys.modules.pop("app", None)
