"""The table page (referee mode), through the Flask test client: two-tap logging, refusals
with their rule, stale versions, undo, start, "can I play this?", the round's end."""

from __future__ import annotations

import random
import re

import pytest

from referee.rules.base import Action
from referee.tiles import Tile, full_set
from referee.web import create_app
from referee.web.db import get_store

MT = {"game": "mexican-train", "set": 9, "players": ["Ana", "Ben", "Caro"]}


def table(client, game_id, query=""):
    response = client.get(f"/games/{game_id}/table{query}")
    return response, response.get_data(as_text=True)


def act(client, game_id, version, **fields):
    data = {"version": version, **fields}
    return client.post(f"/games/{game_id}/table/act", data=data)


def lit_places(html: str) -> set[str]:
    return set(re.findall(r'class="place[^"]*\blit\b[^"]*" data-place="([^"]+)"', html))


def places(html: str) -> set[str]:
    return set(re.findall(r'data-place="([^"]+)"', html))


@pytest.fixture
def mt(api):
    return api.create(**MT)


def test_score_pad_games_go_to_the_overview(client, api):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"], mode="scores")
    response = client.get(f"/games/{game['id']}/table")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{game['id']}")


def test_unknown_game_is_404(client):
    assert client.get("/games/nope/table").status_code == 404


def test_table_shows_hub_trains_turn_and_counts(client, mt):
    response, html = table(client, mt["id"])
    assert response.status_code == 200
    assert re.search(r'class="turn"[^>]*><span class="turn-name">Ana</span>', html)
    assert 'aria-label="9-9"' in html  # the engine in the hub
    for key in ("Ana", "Ben", "Caro", "mexican"):
        assert f'data-train="{key}"' in html
    assert "Boneyard: <strong>15</strong>" in html  # 55 - 1 - 3 × 13
    assert html.count('data-player="Ana">13<') == 1
    # the picker: the whole set less the engine, as real faces
    assert len(re.findall(r'class="tile-button pick', html)) == 54
    assert 'data-tile="9-9"' not in html.split('class="picker')[1]


def test_first_tap_lights_the_legal_trains(client, mt):
    _, html = table(client, mt["id"], "?tile=8-9")
    assert 'data-selected="8-9"' in html
    assert places(html) == {"Ana", "Ben", "Caro", "mexican"}
    assert lit_places(html) == {"Ana", "mexican"}  # mt.train.available: Ben's is unmarked
    _, html = table(client, mt["id"], "?tile=1-2")
    assert lit_places(html) == set()
    assert "fits nowhere" in html


def test_a_legal_play_is_logged(client, api, mt):
    response = act(client, mt["id"], mt["version"], type="play", player="Ana", tile="8-9", place="Ana")
    assert response.status_code == 303
    state = api.state(mt["id"])
    assert state["version"] == mt["version"] + 1
    assert state["round"]["trains"]["Ana"]["tiles"] == ["8-9"]
    assert state["round"]["turn"] == "Ben"
    _, html = table(client, mt["id"])
    assert "Ana played 8-9 on their own train." in html
    assert re.search(r'data-train="Ana">.*?aria-label="9-8"', html, re.S)  # read from the engine out
    assert 'data-tile="8-9"' not in html.split('class="picker')[1]


@pytest.mark.parametrize(
    "fields, rule",
    [
        ({"tile": "8-9", "place": "Ben"}, "mt.train.available"),
        ({"tile": "1-2", "place": "Ana"}, "mt.match"),
        ({"tile": "9-9", "place": "Ana"}, "unique"),
    ],
)
def test_an_illegal_play_is_refused_with_its_rule_and_nothing_changes(client, api, mt, fields, rule):
    before = api.state(mt["id"])
    response = act(client, mt["id"], mt["version"], type="play", player="Ana", **fields)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(rf'<a class="rule-id" href="[^"]+"[^>]*>{re.escape(rule)}</a>', html)  # only as a link
    anchor = "rule-" + rule.replace(".", "-")
    assert f'href="/rules/mexican-train#{anchor}"' in html
    assert "Nothing was changed." in html
    assert api.state(mt["id"]) == before
    # the refusal page is served at the form's address: its links lead back to the table
    assert 'href="?' not in html
    assert f'href="/games/{mt["id"]}/table?tile=' in html


def test_a_refusal_names_the_open_double(client, api, mt):
    game_id = mt["id"]
    assert api.act(game_id, type="play", player="Ana", tile="9-5", train="Ana")[0] == 200
    assert api.act(game_id, type="play", player="Ben", tile="9-4", train="Ben")[0] == 200
    assert api.act(game_id, type="play", player="Caro", tile="9-3", train="Caro")[0] == 200
    assert api.act(game_id, type="play", player="Ana", tile="5-5", train="Ana")[0] == 200
    assert api.act(game_id, type="draw", player="Ana")[0] == 200
    state = api.act(game_id, type="pass", player="Ana")[1]
    assert state["round"]["open_doubles"] == ["5-5"]
    _, html = table(client, game_id)
    assert re.search(r'class="laid double open-double"\s+data-tile="5-5"', html)
    assert "marked" in html and "Open double" in html
    _, html = table(client, game_id, "?tile=4-8")
    assert lit_places(html) == set()
    response = act(client, game_id, state["version"], type="play", player="Ben", tile="4-8", place="Ben")
    assert response.status_code == 422
    assert '">mt.double.open</a>' in response.get_data(as_text=True)
    _, html = table(client, game_id, "?tile=5-1")
    assert lit_places(html) == {"Ana"}


def test_a_stale_version_shows_the_fresh_table(client, api, mt):
    old = mt["version"]
    assert api.act(mt["id"], type="play", player="Ana", tile="9-5", train="Ana")[0] == 200
    response = act(client, mt["id"], old, type="play", player="Ben", tile="9-4", place="Ben")
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "The table changed: reloaded." in html
    assert f'data-version="{old + 1}"' in html
    assert re.search(r'<span class="turn-name">Ben</span>', html)
    state = api.state(mt["id"])
    assert state["version"] == old + 1 and state["round"]["trains"]["Ben"]["tiles"] == []


def test_undo_asks_for_confirmation_then_takes_back(client, api, mt):
    _, html = table(client, mt["id"])
    assert "Undo…" not in html  # nothing to undo yet
    act(client, mt["id"], mt["version"], type="play", player="Ana", tile="8-9", place="Ana")
    _, html = table(client, mt["id"])
    assert f'href="/games/{mt["id"]}/table?confirm=undo"' in html
    _, html = table(client, mt["id"], "?confirm=undo")
    assert "Undo: Ana played 8-9 on their own train?" in html
    version = mt["version"] + 1
    response = act(client, mt["id"], version, type="undo")
    assert response.status_code == 303
    state = api.state(mt["id"])
    assert state["round"]["trains"]["Ana"]["tiles"] == [] and state["round"]["turn"] == "Ana"
    assert state["version"] == version + 1


def test_draw_and_pass_buttons_and_the_marker(client, api, mt):
    version = mt["version"]
    response = act(client, mt["id"], version, type="pass", player="Ana")
    assert response.status_code == 422
    assert '">mt.marker.place</a>' in response.get_data(as_text=True)
    assert act(client, mt["id"], version, type="draw", player="Ana").status_code == 303
    state = api.state(mt["id"])
    assert state["round"]["boneyard"] == 14 and state["round"]["hands"]["Ana"] == 14
    assert act(client, mt["id"], version + 1, type="pass", player="Ana").status_code == 303
    _, html = table(client, mt["id"])
    assert re.search(r'class="train marked" *data-train="Ana"', html.replace("\n", " "))
    assert '⚑ <span class="marker-word">marked</span>' in html
    _, html = table(client, mt["id"], "?tile=8-9")  # Ben may now play on Ana's marked train
    assert lit_places(html) == {"Ana", "Ben", "mexican"}


def test_start_names_the_starter_before_the_first_play(client, api, mt):
    _, html = table(client, mt["id"])
    assert 'aria-label="Who starts this round"' in html
    assert act(client, mt["id"], mt["version"], type="start", player="Ben").status_code == 303
    assert api.state(mt["id"])["round"]["turn"] == "Ben"
    act(client, mt["id"], mt["version"] + 1, type="play", player="Ben", tile="8-9", place="Ben")
    _, html = table(client, mt["id"])
    assert 'aria-label="Who starts this round"' not in html


def test_end_of_a_built_first_turn(client, api):
    game = api.create(**MT, options={"first_turn": "build"})
    game_id, version = game["id"], game["version"]
    _, html = table(client, game_id)
    assert 'data-action="end"' in html
    assert (
        act(client, game_id, version, type="play", player="Ana", tile="9-5", place="Ana").status_code == 303
    )
    assert (
        act(client, game_id, version + 1, type="play", player="Ana", tile="5-1", place="Ana").status_code
        == 303
    )
    assert api.state(game_id)["round"]["turn"] == "Ana"
    assert act(client, game_id, version + 2, type="end", player="Ana").status_code == 303
    assert api.state(game_id)["round"]["turn"] == "Ben"


def test_can_i_play_this_answers_without_logging(client, api, mt):
    before = api.state(mt["id"])
    _, html = table(client, mt["id"], "?tile=8-9&mode=ask&ask=Ben")
    assert "<strong>No:</strong>" in html and '">mt.train.available</a>' in html
    assert 'href="/rules/mexican-train#rule-mt-train-available"' in html
    _, html = table(client, mt["id"], "?tile=8-9&mode=ask&ask=mexican")
    assert "<strong>Yes:</strong> Ana may play 8-9 there." in html
    assert api.state(mt["id"]) == before


def test_forged_or_expired_forms_change_nothing(tmp_path, api):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "s"})
    client = app.test_client()
    assert client.post("/api/games", json=MT).status_code == 201
    game = client.get("/api/games").get_json()["games"][0]
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"version": 1, "type": "play", "player": "Ana", "tile": "8-9", "place": "Ana"},
    )
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1
    # with the page's token the same tap is logged
    html = client.get(f"/games/{game['id']}/table?tile=8-9").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={
            "csrf_token": token,
            "version": 1,
            "type": "play",
            "player": "Ana",
            "tile": "8-9",
            "place": "Ana",
        },
    )
    assert response.status_code == 303


def test_a_table_pin_protects_the_table(client, api):
    game = api.create(**MT, pin="4321")
    response = act(client, game["id"], game["version"], type="draw", player="Ana")
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "table PIN" in html and f'href="/games/{game["id"]}/unlock"' in html
    assert api.state(game["id"])["version"] == game["version"]


def _bot_round(api, game_id, seed, players, hand, highest, engine_tile):
    """Play a round through the API with hidden hands dealt here; returns the hands."""
    rng = random.Random(seed)
    tiles = [t for t in full_set(highest) if t != engine_tile]
    rng.shuffle(tiles)
    hands = {p: tiles[i * hand : (i + 1) * hand] for i, p in enumerate(players)}
    boneyard = tiles[len(players) * hand :]
    for _ in range(500):
        state = api.state(game_id)
        if state["round"]["status"] != "playing":
            return hands
        player = state["round"]["turn"]
        engine = _engine(api, game_id)
        moves = [(t, k) for t in hands[player] for k in engine.places_for(player, Tile.parse(t))]
        if moves:
            tile, train = rng.choice(moves)
            assert api.act(game_id, type="play", player=player, tile=str(tile), train=train)[0] == 200
            hands[player].remove(tile)
        elif engine.is_legal(Action("draw", player)):
            assert api.act(game_id, type="draw", player=player)[0] == 200
            hands[player].append(boneyard.pop())
        else:
            assert api.act(game_id, type="pass", player=player)[0] == 200
    raise AssertionError("round did not end")


def _engine(api, game_id):
    with api.client.application.app_context():
        return get_store().load(game_id).match.engine


def test_the_round_end_opens_the_hands_entry(client, api):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"])
    _bot_round(api, game["id"], 3, ["Ana", "Ben"], 15, 9, Tile(9, 9))
    state = api.state(game["id"])
    assert state["round"]["status"] == "scoring"
    _, html = table(client, game["id"])
    assert f'href="/games/{game["id"]}/rounds/1/hands"' in html
    assert "Enter the hands left" in html
    end = state["round"]["end"]
    if end["reason"] == "domino":
        assert f"<strong>{end['player']}</strong> went out." in html
    else:
        assert "blocked" in html
    assert 'class="tile-button pick' not in html  # no picker once the round is over
    # every train reads from the engine outwards: each tile's inner half matches the last;
    # a row shows the train's last four tiles (issue 27: every train in view), the rest counted
    for key, train in state["round"]["trains"].items():
        row = html.split(f'data-train="{key}"')[1].split("</li>")[0]
        faces = [tuple(map(int, label.split("-"))) for label in re.findall(r'aria-label="(\d+-\d+)"', row)]
        assert len(faces) == min(4, len(train["tiles"]))
        hidden = len(train["tiles"]) - len(faces)
        assert (f">+{hidden}</span>" in row) == (hidden > 0)
        value = 9
        if hidden:
            earlier = [tuple(map(int, t.split("-"))) for t in train["tiles"][:hidden]]
            for a, b in earlier:
                value = b if a == value else a
        for inner, outer in faces:
            assert inner == value
            value = outer
        assert value == train["open"]
    response = act(client, game["id"], state["version"], type="draw", player="Ana")
    assert response.status_code == 422


def test_the_one_tile_left_banner(client, api):
    # Play a real round until someone holds one tile, then look at the page.
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben"])
    game_id = game["id"]
    rng = random.Random(11)
    tiles = [t for t in full_set(9) if t != Tile(9, 9)]
    rng.shuffle(tiles)
    hands = {"Ana": tiles[:15], "Ben": tiles[15:30]}
    boneyard = tiles[30:]
    for _ in range(300):
        state = api.state(game_id)
        ones = [p for p, n in state["round"]["hands"].items() if n == 1]
        if ones and state["round"]["status"] == "playing":
            _, html = table(client, game_id)
            assert 'class="banner last-tile"' in html
            assert f"{ones[0]} has one tile left" in html and "mt.last-tile" in html
            return
        assert state["round"]["status"] == "playing", "no one was ever down to one tile"
        player = state["round"]["turn"]
        engine = _engine(api, game_id)
        moves = [(t, k) for t in hands[player] for k in engine.places_for(player, Tile.parse(t))]
        if moves:
            tile, train = rng.choice(moves)
            api.act(game_id, type="play", player=player, tile=str(tile), train=train)
            hands[player].remove(tile)
        elif engine.is_legal(Action("draw", player)):
            api.act(game_id, type="draw", player=player)
            hands[player].append(boneyard.pop())
        else:
            api.act(game_id, type="pass", player=player)
    raise AssertionError("no one held one tile")


# ----------------------------------------------------------------------------- kozel


def test_kozel_line_with_both_ends(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben", "Caro", "Dan"])
    game_id = game["id"]
    _, html = table(client, game_id)
    assert "Who is playing?" in html and "kz.lead.first" in html
    # with four players every tile is dealt: 1-1 leads; a 2-2 lead is refused with the rule
    response = act(client, game_id, game["version"], type="play", player="Ben", tile="2-2", place="centre")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert '">kz.lead.first</a>' in html and "#rule-kz-lead-first" in html
    assert (
        act(
            client, game_id, game["version"], type="play", player="Ben", tile="1-1", place="centre"
        ).status_code
        == 303
    )
    _, html = table(client, game_id, "?tile=1-4")
    assert re.search(r'<span class="turn-name">Caro</span>', html)
    assert lit_places(html) == {"1-1"}
    assert (
        act(
            client, game_id, game["version"] + 1, type="play", player="Caro", tile="1-4", place="1-1"
        ).status_code
        == 303
    )
    _, html = table(client, game_id, "?tile=1-6")
    assert lit_places(html) == {"1-1"}
    ends = api.state(game_id)["round"]["ends"]
    assert sorted(ends) == [1, 4]
    assert re.search(rf'data-end="left">{ends[0]}<', html) and re.search(
        rf'data-end="right">{ends[1]}<', html
    )
    _, html = table(client, game_id, "?tile=4-6")
    assert lit_places(html) == {"1-4"}
    _, html = table(client, game_id, "?tile=2-3")
    assert lit_places(html) == set() and "fits nowhere" in html
    # the bazaar is empty with four players: a draw is refused (kz.bazaar)
    response = act(client, game_id, game["version"] + 2, type="draw", player="Dan")
    assert response.status_code == 422 and "kz.bazaar" in response.get_data(as_text=True)
    assert act(client, game_id, game["version"] + 2, type="pass", player="Dan").status_code == 303
    assert api.state(game_id)["round"]["turn"] == "Ana"


def test_kozel_line_is_drawn_in_order(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben", "Caro", "Dan"])
    game_id = game["id"]
    for player, tile, on in [
        ("Ana", "1-1", None),
        ("Ben", "1-3", "1-1"),
        ("Caro", "1-5", "1-1"),
        ("Dan", "3-6", "1-3"),
        ("Ana", "5-5", "1-5"),
    ]:
        body = {"type": "play", "player": player, "tile": tile}
        if on:
            body["on"] = on
        status, data = api.post(f"/api/games/{game_id}/actions", body)
        assert status == 200, data
    _, html = table(client, game_id)
    line = html.split('class="line-tiles"')[1].split("</div>")[0]
    drawn = re.findall(r'data-tile="([^"]+)"', line)
    assert drawn in (["5-5", "1-5", "1-1", "1-3", "3-6"], ["3-6", "1-3", "1-1", "1-5", "5-5"])
    faces = [tuple(map(int, label.split("-"))) for label in re.findall(r'aria-label="(\d-\d)"', line)]
    ends = api.state(game_id)["round"]["ends"]
    assert faces[0][0] == ends[0] and faces[-1][1] == ends[1]  # the line reads end to end
    assert all(left[1] == right[0] for left, right in zip(faces, faces[1:]))
    assert re.search(rf'data-end="left">{ends[0]}<', html) and re.search(
        rf'data-end="right">{ends[1]}<', html
    )


# ----------------------------------------------------------------------------- chicken foot


def test_chicken_foot_spinner_arms_and_places(client, api):
    game = api.create(game="chicken-foot", set=9, players=["Ana", "Ben"])
    game_id, version = game["id"], game["version"]
    _, html = table(client, game_id, "?who=Ben&tile=9-9")
    assert lit_places(html) == {"centre"}
    response = act(client, game_id, version, type="play", player="Ben", tile="8-9", place="centre")
    assert response.status_code == 422 and "cf.start" in response.get_data(as_text=True)
    assert (
        act(client, game_id, version, type="play", player="Ben", tile="9-9", place="centre").status_code
        == 303
    )
    _, html = table(client, game_id, "?tile=9-3")
    assert re.search(r'<span class="turn-name">Ana</span>', html)
    assert lit_places(html) == {"9-9"}
    assert (
        act(client, game_id, version + 1, type="play", player="Ana", tile="9-3", place="9-9").status_code
        == 303
    )
    response = act(client, game_id, version + 2, type="play", player="Ben", tile="3-4", place="9-3")
    assert response.status_code == 422 and "cf.spinner" in response.get_data(as_text=True)
    engine = _engine(api, game_id)
    _, html = table(client, game_id, "?tile=9-4")
    assert lit_places(html) == {str(p) for p in engine.places_for("Ben", Tile(4, 9))} == {"9-9"}


def test_chicken_foot_is_drawn_as_a_foot(client, api):
    game = api.create(game="chicken-foot", set=9, players=["Ana", "Ben"])
    game_id = game["id"]
    plays = [
        ("Ben", "9-9", None),
        ("Ana", "9-1", "9-9"),
        ("Ben", "9-2", "9-9"),
        ("Ana", "9-3", "9-9"),
        ("Ben", "9-4", "9-9"),
        ("Ana", "1-1", "9-1"),
    ]
    for player, tile, on in plays:
        body = {"type": "play", "player": player, "tile": tile, **({"on": on} if on else {})}
        status, data = api.post(f"/api/games/{game_id}/actions", body)
        assert status == 200, data
    _, html = table(client, game_id, "?tile=1-5")
    assert re.search(r'class="foot restricting" data-foot="1-1"', html)
    assert "Chicken foot on <strong>1-1</strong>: 0 of 3 toes" in html
    assert lit_places(html) == {"1-1"}
    assert len(re.findall(r'class="arm"', html)) == 4
    version = api.state(game_id)["version"]
    response = act(client, game_id, version, type="play", player="Ben", tile="4-5", place="9-4")
    assert response.status_code == 422 and "cf.double" in response.get_data(as_text=True)
    for player, tile in [("Ben", "1-5"), ("Ana", "1-6"), ("Ben", "1-7")]:
        version = api.state(game_id)["version"]
        assert (
            act(client, game_id, version, type="play", player=player, tile=tile, place="1-1").status_code
            == 303
        )
    _, html = table(client, game_id, "?tile=5-8")
    foot = html.split('data-foot="1-1"')[1].split('class="arm"')[0]
    assert re.findall(r'data-tile="(\d-\d)"', foot) == ["1-1", "1-5", "1-6", "1-7"]
    assert re.findall(r'aria-label="(\d-\d)"', foot) == ["1-1", "1-5", "1-6", "1-7"]  # toes read outwards
    arms = re.findall(r'class="arm">(.*?)</li>', html, re.S)
    assert [re.findall(r'aria-label="(\d-\d)"', arm)[0] for arm in arms] == ["9-1", "9-2", "9-3", "9-4"]
    assert "restricting" not in html.split('data-foot="1-1"')[0][-40:]
    assert lit_places(html) == {"1-5"}
    assert "Chicken foot on" not in html


def test_kozel_fish_is_announced_with_its_fisherman(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben", "Caro", "Dan"])
    game_id = game["id"]
    plays = [
        ("Ana", "1-1", None),
        ("Ben", "1-2", "1-1"),
        ("Caro", "1-4", "1-1"),
        ("Dan", "2-3", "1-2"),
        ("Ana", "4-5", "1-4"),
        ("Ben", "1-3", "2-3"),
        ("Caro", "1-5", "4-5"),
        ("Dan", "1-6", "1-3"),
        ("Ana", "0-6", "1-6"),
    ]
    for player, tile, on in plays:
        body = {"type": "play", "player": player, "tile": tile, **({"on": on} if on else {})}
        status, data = api.post(f"/api/games/{game_id}/actions", body)
        assert status == 200, data
    version = api.state(game_id)["version"]
    assert (
        act(client, game_id, version, type="play", player="Ben", tile="0-1", place="0-6").status_code == 303
    )
    state = api.state(game_id)
    assert state["round"]["end"] == {"reason": "fish", "player": "Ben"}
    _, html = table(client, game_id)
    assert 'Fish! Made by <strong class="fisherman">Ben</strong>' in html
    assert 'a fish, made by <strong class="fisherman">Ben</strong>' in html
    assert f'href="/games/{game_id}/rounds/1/hands"' in html
    assert "🐟" not in html  # drawn as an inline SVG: no emoji font is needed
