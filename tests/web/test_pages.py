"""The pages through the Flask test client: home, new game, the game, hands left, undo, the
scoresheet (Kozel's ledger included), the rule book and the redeal check; every refusal
shown with its rule id linked to the rule book; CSRF on the served app."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import quote

import pytest

from referee.rules.book import rules_for
from tests.web.page_helpers import MT_FORM, refusal, text


def new_game(client, players, **fields):
    data = dict(MT_FORM, **fields)
    for index, name in enumerate(players):
        data[f"players-{index}"] = name
    return client.post("/games/new", data=data)


def created_id(response) -> str:
    """The new game's id from the redirect: a refereed game opens on its table
    (/games/<id>/table), a score pad on its page (/games/<id>)."""
    assert response.status_code == 303, text(response)
    return response.headers["Location"].split("/games/", 1)[1].split("/")[0]


def hands(client, game_id, number, *entries, version=None):
    data = {f"p{i}": entry for i, entry in enumerate(entries)}
    if version is not None:
        data["version"] = str(version)
    return client.post(f"/games/{game_id}/rounds/{number}/hands", data=data)


# ----- home and new game ---------------------------------------------------------------------


def test_home_lists_games_in_progress_first_and_finished_below(client, api):
    done = api.create(
        game="mexican-train", set=9, mode="scores", players=["Ana", "Ben"], options={"first_double": 0}
    )
    api.hands(done["id"], 1, {"Ana": 0, "Ben": 7})
    playing = api.create(game="kozel", mode="scores", players=["Masha", "Alex"])
    body = text(client.get("/"))
    assert body.index("In progress") < body.index(f"/games/{playing['id']}") < body.index("Finished")
    assert body.index("Finished") < body.index(f"/games/{done['id']}")
    assert "Won by Ana" in body and "Round 1" in body
    assert 'href="/games/new"' in body


def test_new_game_form_creates_a_score_pad_and_remembers_the_table(client, api):
    response = new_game(client, ["Ana", "", "Ben", "Caro"], mt_double_blank="25")
    game_id = created_id(response)
    state = api.state(game_id)
    assert state["players"] == ["Ana", "Ben", "Caro"]  # blank seats dropped, order kept
    assert (state["set"], state["mode"], state["options"]["double_blank"]) == (9, "scores", 25)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("last_table=")
    # the next new game is prefilled with the remembered names, game, set and mode
    form = text(client.get("/games/new"))
    for index, name in enumerate(["Ana", "Ben", "Caro"]):
        assert f'id="players-{index}" value="{name}"' in form
    assert '<input checked id="mode-1" name="mode" type="radio" value="scores">' in form
    assert 'name="game" value="mexican-train" checked>' in form
    assert re.search(r'<option selected value="9">|<option value="9" selected>', form)


@pytest.mark.parametrize(
    "game, fields, options",
    [
        (
            "mexican-train",
            {
                "mt_first_turn": "build",
                "mt_doubles_order": "newest",
                "mt_hand_size": "12",
                "mt_first_double": "9",
                "mt_last_double": "3",
                "mt_tie_break": "chicken-foot",
            },
            {
                "first_turn": "build",
                "doubles_order": "newest",
                "hand_size": 12,
                "first_double": 9,
                "last_double": 3,
                "tie_break": "chicken-foot",
            },
        ),
        (
            "chicken-foot",
            {"set": "", "cf_arms": "6", "cf_double_blank": "0", "cf_hand_size": "6"},
            {"arms": 6, "double_blank": 0, "hand_size": 6},
        ),
        (
            "kozel",
            {"set": "", "kz_fish": "one", "kz_lose_at": "51", "kz_zero_zero": "25"},
            {"fish": "one", "lose_at": 51, "zero_zero": 25},
        ),
    ],
)
def test_new_game_passes_each_games_options(client, api, game, fields, options):
    game_id = created_id(new_game(client, ["Ana", "Ben", "Caro"], game=game, mode="referee", **fields))
    state = api.state(game_id)
    assert state["game"] == game and state["mode"] == "referee"
    assert state["set"] == {"mexican-train": 9, "chicken-foot": 9, "kozel": 6}[game]
    for key, value in options.items():
        assert state["options"][key] == value


@pytest.mark.parametrize(
    "game, players, fields, rule",
    [
        ("mexican-train", ["A", "B", "C", "D", "E"], {}, "mt.players"),  # 5 players, double-9
        ("mexican-train", ["Ana"], {}, "mt.players"),
        ("kozel", ["A", "B", "C", "D", "E"], {"set": ""}, "kz.players"),
        ("kozel", ["A", "B"], {"set": "9"}, "kz.players"),  # kozel: double-6 only
        ("chicken-foot", ["A", "B", "C", "D", "E", "F", "G", "H", "I"], {"set": "9"}, "cf.players"),
    ],
)
def test_new_game_refusals_show_the_rule_id_linked_to_the_rule_book(client, api, game, players, fields, rule):
    response = new_game(client, players, game=game, **fields)
    assert response.status_code == 422
    box = refusal(text(response))
    game_book = {"mt": "mexican-train", "kz": "kozel", "cf": "chicken-foot"}[rule[:2]]
    anchor = "rule-" + rule.replace(".", "-")
    assert f'href="/rules/{game_book}#{anchor}">{rule}</a>' in box
    assert api.get("/api/games")[1]["games"] == []  # nothing created
    # the names typed are still there
    assert f'value="{players[0]}"' in text(response)


def test_new_game_malformed_names_are_refused_without_a_rule_and_nothing_is_created(client, api):
    response = new_game(client, ["Ana", "ana"])
    assert response.status_code == 422
    assert "names must be unique" in html.unescape(refusal(text(response)))
    response = new_game(client, ["", ""])
    assert response.status_code == 422 and "Enter the players" in refusal(text(response))
    response = new_game(client, ["Ana", "Ben"], mt_hand_size="lots")
    assert response.status_code == 400 and "Write a whole number with the digits 0-9" in text(response)
    assert api.get("/api/games")[1]["games"] == []


@pytest.mark.parametrize("page", ["/games/new", "/nights/new"])
@pytest.mark.parametrize(("lang", "twelve"), [("en", "double-12"), ("hu", "dupla-12"), ("hi", "डबल-12")])
def test_the_set_menu_names_each_set_in_the_readers_language(client, page, lang, twelve):
    assert client.get(f"/lang/{lang}").status_code == 303
    menu = re.search(r'<select id="set"[^>]*>.*?</select>', text(client.get(page)), re.S)
    assert menu is not None
    assert f'<option value="12">{twelve}</option>' in menu.group(0)
    if lang != "en":
        assert "double-" not in menu.group(0).split("</option>", 1)[1]  # past the usual set's option


def test_add_player_without_javascript_adds_a_field(client):
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "Ben", "add_player": "Add a player"})
    data.pop("start")
    body = text(client.post("/games/new", data=data))
    assert 'id="players-2"' in body and 'value="Ana"' in body


def test_names_with_markup_characters_are_shown_as_text(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=['Tom & "Jerry"', "Zoë"])
    for url in (
        "/",
        f"/games/{game['id']}",
        f"/games/{game['id']}/scoresheet",
        f"/games/{game['id']}/rounds/1/hands",
    ):
        body = text(client.get(url))
        assert "Tom &amp; &#34;Jerry&#34;" in body, url
        assert 'Tom & "Jerry"' not in body, url


def test_a_bad_remembered_cookie_is_ignored(client):
    client.set_cookie("last_table", quote("{not json"))
    assert client.get("/games/new").status_code == 200
    client.set_cookie("last_table", quote(json.dumps({"players": "Ana"})))
    assert client.get("/games/new").status_code == 200


# ----- the game page ---------------------------------------------------------------------------


def test_game_page_of_a_score_pad(client, api):
    game = api.create(game="mexican-train", mode="scores", players=["Ana", "Ben", "Caro"])
    body = text(client.get(f"/games/{game['id']}"))
    assert "Round 1 of 13" in body and 'aria-label="12-12"' in body
    assert f'href="/games/{game["id"]}/rounds/1/hands"' in body and "Enter round 1 hands" in body
    assert f"/api/games/{game['id']}/scoresheet.csv" in body and "Scoresheet" in body
    assert "Undo the last entry" not in body  # nothing to undo yet
    api.hands(game["id"], 1, {"Ana": ["0-0", "5-6"], "Ben": 12, "Caro": []})
    body = text(client.get(f"/games/{game['id']}"))
    assert "Round 2 of 13" in body and 'aria-label="11-11"' in body
    assert re.search(r'<span class="name">Ben</span>\s*<span class="badge lead">leads</span>', body) is None
    assert re.search(r'<span class="name">Caro</span>\s*<span class="badge lead">leads</span>', body)
    assert "Caro went out" in body and "Undo the last entry" in body
    assert "Edit round 1" in body


def test_game_page_in_referee_mode_links_to_the_table_while_playing(client, api):
    game = api.create(game="chicken-foot", players=["Ana", "Ben"])
    body = text(client.get(f"/games/{game['id']}"))
    assert f'href="/games/{game["id"]}/table"' in body and "Round 1 of 10" in body
    assert "Enter round 1 hands" not in body and "Undo the last entry" not in body


def test_kozel_game_page_counts_rounds_without_an_end(client, api):
    game = api.create(game="kozel", mode="scores", players=["Masha", "Alex", "Olya"])
    body = text(client.get(f"/games/{game['id']}"))
    assert "Round 1<" in body and "Round 1 of" not in body


def test_unknown_game_and_round_are_404(client, api):
    assert client.get("/games/nope").status_code == 404
    assert client.get("/games/nope/scoresheet").status_code == 404
    game = api.create(game="mexican-train", mode="scores", players=["Ana", "Ben"])
    assert client.get(f"/games/{game['id']}/rounds/2/hands").status_code == 404
    assert client.get(f"/games/{game['id']}/rounds/0/hands").status_code == 404
    assert client.get("/rules/chess").status_code == 404


# ----- hands left ------------------------------------------------------------------------------


def test_hands_page_shows_the_picker_and_the_zero_rule(client, api):
    game = api.create(
        game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"], options={"double_blank": 25}
    )
    body = text(client.get(f"/games/{game['id']}/rounds/1/hands"))
    assert body.count("data-tile=") == 55  # the whole double-9 set
    # the picker sums a hand with the game's own scoring, served per tile
    assert 'data-tile="0-0" data-points="25" data-points-alone="25"' in body
    assert 'data-tile="3-9" data-points="12" data-points-alone="12"' in body
    assert "Double-blank 0-0 counts 25" in body
    assert 'href="/rules/mexican-train#rule-mt-score">mt.score</a>' in body
    assert 'name="p0"' in body and 'name="p1"' in body and 'name="csrf_token"' not in body  # CSRF off here
    kozel = api.create(game="kozel", mode="scores", players=["Masha", "Alex"])
    body = text(client.get(f"/games/{kozel['id']}/rounds/1/hands"))
    assert body.count("data-tile=") == 28
    assert 'data-tile="0-0" data-points="0" data-points-alone="10"' in body  # kz.score.zero
    assert 'href="/rules/kozel#rule-kz-score-zero">kz.score.zero</a>' in body


def test_hands_typed_and_as_tiles_are_booked(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    response = hands(client, game["id"], 1, "0-0 6-5", "17", "out")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{game['id']}")
    state = api.state(game["id"])
    assert state["rounds"][0]["points"] == {"Ana": 61, "Ben": 17, "Caro": 0}
    assert state["rounds"][0]["end"] == {"reason": "table", "player": "Caro"}


@pytest.mark.parametrize(
    "entries, rule, words",
    [
        (("5-6 6-5", "3", "out"), "unique", "twice"),
        (("5-6", "5-6", "out"), "unique", "both"),
        (("9-10", "3", "out"), "tiles", "no 9-10"),
        (("out", "3", "out"), "mt.end.domino", "Only one player"),
    ],
)
def test_impossible_hands_are_refused_with_their_rule_and_nothing_changes(client, api, entries, rule, words):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    response = hands(client, game["id"], 1, *entries)
    assert response.status_code == 422
    box = refusal(text(response))
    anchor = "rule-" + rule.replace(".", "-")
    assert f'#{anchor}">{rule}</a>' in box and words in html.unescape(box)
    assert api.state(game["id"])["rounds"] == [] and api.state(game["id"])["version"] == 1
    assert f'value="{entries[0]}"' in text(response)  # what was typed is kept


@pytest.mark.parametrize(
    "entries, words",
    [
        (("abc", "3", "out"), "is not a tile"),
        (("", "3", "out"), "Enter Ana's hand"),
    ],
)
def test_malformed_hands_are_refused_without_a_rule(client, api, entries, words):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    response = hands(client, game["id"], 1, *entries)
    assert response.status_code == 422 and words in html.unescape(refusal(text(response)))
    assert api.state(game["id"])["version"] == 1


def test_editing_an_earlier_round_prefills_it_and_recomputes(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    api.hands(game["id"], 1, {"Ana": ["1-2", "3-4"], "Ben": []})
    api.hands(game["id"], 2, {"Ana": 0, "Ben": 20})
    body = text(client.get(f"/games/{game['id']}/rounds/1/hands"))
    assert 'value="1-2 3-4"' in body and 'value="out"' in body and "already booked" in body
    assert hands(client, game["id"], 1, "1-2 3-4 9-9", "out").status_code == 303
    state = api.state(game["id"])
    assert state["totals"] == {"Ana": 28, "Ben": 20} and state["round"]["number"] == 3


def test_a_stale_form_is_refused_as_changed_meanwhile(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    api.hands(game["id"], 1, {"Ana": 3, "Ben": []})
    response = hands(client, game["id"], 1, "9", "out", version=1)
    assert response.status_code == 422 and "changed on another screen" in refusal(text(response))
    assert api.state(game["id"])["totals"]["Ana"] == 3


def test_referee_mode_hands_leave_out_tiles_on_the_table_and_show_tracked_sizes(client, api):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben", "Caro"])
    status, _ = api.act(game["id"], type="play", player="Ana", tile="9-5", train="Ana")
    assert status == 200
    body = text(client.get(f"/games/{game['id']}/rounds/1/hands"))
    assert re.search(r'data-tile="5-9"[^>]* aria-pressed="false" disabled', body)
    assert re.search(r'data-tile="9-9"[^>]* aria-pressed="false" disabled', body)  # the engine
    assert not re.search(r'data-tile="4-9"[^>]* aria-pressed="false" disabled', body)
    assert "holds 12 tiles by the log" in body and "holds 13 tiles by the log" in body
    assert 'data-size="12"' in body and "still following this round" in body
    response = hands(client, game["id"], 1, "5-9", "4", "5")
    box = refusal(text(response))
    assert 'rule-unique">unique</a>' in box and "already on the table" in box
    response = hands(client, game["id"], 1, "0-1 0-2", "4", "5")  # 2 tiles, the log says 12
    assert 'rule-hidden">hidden</a>' in refusal(text(response))
    assert api.state(game["id"])["round"]["status"] == "playing"
    # Two hands of tiles disagree with the log: both are shown at once, each with its sentence,
    # beside the rule's own sentence (not a bare rule id).
    response = hands(client, game["id"], 1, "0-1 0-2", "1-2 1-3 1-4", "5")
    body = text(response)
    box = re.search(r'<div class="refusal mismatches problems" role="alert">(.*?)</div>', body, re.S).group(1)
    assert "2 things to fix before the round is saved" in box
    assert "Ana holds 12 tiles by the log, but 2 were entered." in box
    assert "Ben holds 13 tiles by the log, but 3 were entered." in box
    assert "The referee only sees what is logged" in box and 'rule-hidden">hidden</a>' in box
    assert body.count('class="hand-row mismatch"') == 2


# ----- undo ------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_entry(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    api.hands(game["id"], 1, {"Ana": 3, "Ben": []})
    api.hands(game["id"], 2, {"Ana": 5, "Ben": []})
    body = text(client.get(f"/games/{game['id']}"))
    assert "the entry of round 2" in body and "Ana 5" in body
    response = client.post(f"/games/{game['id']}/undo", data={"version": "3"})
    assert response.status_code == 303
    state = api.state(game["id"])
    assert state["totals"] == {"Ana": 3, "Ben": 0} and state["round"]["number"] == 2
    # a stale confirmation does nothing
    client.post(f"/games/{game['id']}/undo", data={"version": "3"})
    assert api.state(game["id"])["totals"] == {"Ana": 3, "Ben": 0}
    assert "changed meanwhile" in text(client.get(f"/games/{game['id']}"))


# ----- scoresheet -----------------------------------------------------------------------------


def test_scoresheet_of_a_finished_game_with_the_tie_break(client, api):
    game = api.create(
        game="mexican-train",
        mode="scores",
        set=9,
        players=["Ana", "Ben"],
        options={"first_double": 1, "tie_break": "chicken-foot", "double_blank": 25},
    )
    api.hands(game["id"], 1, {"Ana": [], "Ben": 5})
    api.hands(game["id"], 2, {"Ana": 10, "Ben": 5})
    body = text(client.get(f"/games/{game['id']}/scoresheet"))
    assert "Double-blank 0-0 counts 25 (mt.score)." in body
    assert re.search(r"Winner: <strong>Ana</strong>", body)
    assert "wins the tie on 10 points" in body and "(cf.tie)" in body
    assert body.count('<span class="double-text">') == 2 and ">1-1</span>" in body and ">0-0</span>" in body
    assert re.findall(r'<td class="total[^"]*">(\d+)</td>', body) == ["10", "10"]
    game_page = text(client.get(f"/games/{game['id']}"))
    assert "wins the tie on 10 points" in game_page and "Finished after 2 rounds" in game_page


def test_kozel_scoresheet_shows_remembered_open_fish_pot_goat_and_ratings(client, api):
    game = api.create(
        game="kozel", mode="scores", players=["Masha", "Alex", "Olya", "Serg"], options={"fish": "one"}
    )
    gid = game["id"]
    api.hands(gid, 1, {"Masha": [], "Alex": 3, "Olya": 13, "Serg": 5})  # Olya opens at 13
    api.hands(gid, 2, {"Masha": 10, "Alex": 10, "Olya": 5, "Serg": 2})  # fish, tie: pot 27
    body = text(client.get(f"/games/{gid}"))
    assert '<span class="remembered" title="remembered, not yet booked">+3</span>' in body
    assert '<span class="account" title="open account">13</span>' in body
    assert "<strong>+27</strong> in the pot" in body and 'class="fish-icon"' in body
    sheet = text(client.get(f"/games/{gid}/scoresheet"))
    assert '<span class="kz-points">3</span>' in sheet
    assert '<span class="kz-after"><span class="remembered">+3</span></span>' in sheet
    assert '<span class="kz-after"><span class="account">13</span></span>' in sheet
    assert "pot +27" in sheet and "Fish scoring: fish to one (kz.fish.one)." in sheet
    api.hands(gid, 3, {"Masha": [], "Alex": 4, "Olya": 20, "Serg": 6})  # Olya takes 20 + 27
    api.hands(gid, 4, {"Masha": 50, "Alex": [], "Olya": 50, "Serg": 1})  # Olya 110: the goat
    state = api.state(gid)
    assert state["goats"] == ["Olya"]
    sheet = text(client.get(f"/games/{gid}/scoresheet"))
    assert "kz-cell took-pot" in sheet
    assert '<span class="kz-points">20 <span class="kz-pot">+27 ' in sheet  # the pot: its own entry
    assert re.search(r"Goat: <strong>Olya</strong>", sheet)
    for name, points in state["rating"].items():
        assert f"{name} {points}" in sheet
    assert '<span class="kz-after"><span class="account">110</span></span>' in sheet


# ----- rule book and redeal ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot", "kozel"])
def test_rule_book_lists_every_rule_with_its_anchor(client, game):
    body = text(client.get(f"/rules/{game}"))
    for rule in rules_for(game):
        assert f'id="{rule.anchor}"' in body
        assert f'href="#{rule.anchor}">{rule.id}</a>' in body
    assert 'type="search"' in body


def test_rule_book_shows_the_deal_table(client):
    body = text(client.get("/rules/mexican-train"))
    table = re.search(r'<table class="sheet deal">(.*?)</table>', body, re.S).group(1)
    cells = re.findall(r"<td>(.*?)</td>", table)
    assert cells[:7] == ["16", "16", "15", "14", "12", "10", "9"]  # double-12, 2..8 players
    assert cells[7:10] == ["15", "13", "10"]  # double-9


@pytest.mark.parametrize(
    "tiles, verdict",
    [
        ("1-1 2-2 3-3 4-4 5-5 0-6 1-6", "Yes — deal again"),
        ("0-6 1-6 2-6 3-6 4-6 5-6 0-0", "Yes — deal again"),
        ("0-1 2-3 4-5 6-6 1-1 0-2 3-5", "No — play this hand"),
    ],
)
def test_redeal_check(client, tiles, verdict):
    response = client.post("/kozel/redeal", data={"tiles": tiles})
    body = text(response)
    assert response.status_code == 200 and verdict in body and "(kz.redeal)" in body
    assert body.count('<div class="verdict ') == 1


def test_redeal_refuses_a_hand_that_is_not_seven_tiles(client):
    response = client.post("/kozel/redeal", data={"tiles": "1-1 2-2"})
    assert response.status_code == 422
    assert 'href="/rules/kozel#rule-kz-redeal">kz.redeal</a>' in refusal(text(response))
    response = client.post("/kozel/redeal", data={"tiles": "1-1 1-1 2-2 3-3 4-4 5-5 6-6"})
    assert 'rule-unique">unique</a>' in refusal(text(response))
    assert client.get("/kozel/redeal").status_code == 200


# ----- CSRF on the served app ---------------------------------------------------------------------


def test_forms_without_a_csrf_token_are_refused(live_app):
    client = live_app.test_client()
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "Ben"})
    assert client.post("/games/new", data=data).status_code == 400
    assert client.post("/kozel/redeal", data={"tiles": "1-1"}).status_code == 400
    status = client.post(
        "/api/games", json={"game": "mexican-train", "mode": "scores", "set": 9, "players": ["Ana", "Ben"]}
    )
    game_id = status.get_json()["id"]
    assert client.post(f"/games/{game_id}/rounds/1/hands", data={"p0": "3", "p1": "out"}).status_code == 400
    assert client.post(f"/games/{game_id}/undo", data={}).status_code == 400
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == 1
    # with the token from the page, the same form is accepted
    page = client.get(f"/games/{game_id}/rounds/1/hands").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post(
        f"/games/{game_id}/rounds/1/hands", data={"p0": "3", "p1": "out", "csrf_token": token}
    )
    assert response.status_code == 303


def test_a_pin_protected_game_is_read_only_on_the_pages_until_unlocked(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"], pin="2468")
    gid = game["id"]
    assert "changes need the PIN" in text(client.get(f"/games/{gid}"))
    response = hands(client, gid, 1, "3", "out")
    assert response.status_code == 422
    box = refusal(text(response))
    assert "table PIN" in box and f"/games/{gid}/unlock" in box
    assert api.state(gid)["version"] == 1
    response = client.post(f"/games/{gid}/undo", data={})
    assert response.status_code == 303 and f"/games/{gid}/unlock" in response.headers["Location"]
    with client.session_transaction() as session:
        session["unlocked"] = [gid]
    assert hands(client, gid, 1, "3", "out").status_code == 303
    assert "changes need the PIN" not in text(client.get(f"/games/{gid}"))


def test_refusals_and_the_rule_book_follow_the_chosen_language(client, api):
    if client.get("/lang/hu").status_code != 303:
        pytest.skip("no language switch in this app")
    response = new_game(client, ["A", "B", "C", "D", "E"], game="kozel", set="")
    box = refusal(text(response))
    assert 'href="/rules/kozel#rule-kz-players">kz.players</a>' in box
    assert "Kozel is for 2–4 players" not in box and "5" in box
    body = text(client.get("/rules/kozel"))
    for rule in rules_for("kozel"):
        assert f'id="{rule.anchor}"' in body  # the same ids and anchors in every language
    assert rules_for("kozel")[0].text not in body
