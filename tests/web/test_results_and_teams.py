"""Pages: every player's place in a finished game, Kozel in teams (new-game form, game page,
scoresheet, table page) and a Kozel player leaving, recorded from the game page."""

from __future__ import annotations

import re

from tests.web.page_helpers import MT_FORM, text

FOUR = ["Ana", "Ben", "Caro", "Dan"]


def new_game(client, players, **fields):
    data = dict(MT_FORM, **fields)
    for index, name in enumerate(players):
        data[f"players-{index}"] = name
    return client.post("/games/new", data=data)


def test_a_finished_game_shows_every_place_first_to_last(client, api):
    game = api.create(
        game="mexican-train",
        mode="scores",
        set=9,
        players=["Ana", "Ben", "Caro"],
        options={"first_double": 0},  # one round
    )
    status, _ = api.hands(game["id"], 1, {"Ana": 12, "Ben": 0, "Caro": 30})
    assert status == 200
    for url in (f"/games/{game['id']}", f"/games/{game['id']}/scoresheet"):
        body = text(client.get(url))
        places = re.findall(
            r'<span class="place">([^<]+)</span> <span class="name">([^<]+)</span> <span class="total">(\d+)',
            body,
        )
        assert places == [("1st", "Ben", "0"), ("2nd", "Ana", "12"), ("3rd", "Caro", "30")], url


def test_tied_players_share_a_place(client, api):
    game = api.create(game="chicken-foot", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    for number in range(1, 11):
        api.hands(game["id"], number, {"Ana": 5, "Ben": 5, "Caro": 9})
    body = text(client.get(f"/games/{game['id']}"))
    labels = re.findall(r'<span class="place">([^<]+)</span> <span class="name">([^<]+)</span>', body)
    assert labels == [("1st", "Ana"), ("1st", "Ben"), ("3rd", "Caro")]


def test_the_new_game_form_plays_kozel_in_teams(client, api):
    form = text(client.get("/games/new?game=kozel"))
    assert 'name="kz_teams"' in form and 'data-option="kz_teams"' in form
    response = new_game(client, FOUR, game="kozel", set="", kz_teams="yes")
    assert response.status_code == 303
    state = api.state(response.headers["Location"].rsplit("/", 1)[1])
    assert state["options"]["teams"] is True
    refused = new_game(client, FOUR[:3], game="kozel", set="", kz_teams="yes")
    assert refused.status_code == 422 and "kz.teams" in text(refused)


def test_a_team_game_shows_the_teams_and_one_column_per_team(client, api):
    game = api.create(game="kozel", mode="scores", players=FOUR, options={"teams": True, "lose_at": 20})
    status, _ = api.hands(game["id"], 1, {"Ana": 0, "Ben": 9, "Caro": 20, "Dan": 14})
    assert status == 200
    page = text(client.get(f"/games/{game['id']}"))
    assert "Team 1: Ana and Caro" in page and "Team 2: Ben and Dan" in page
    assert "goat team" in page  # Ben and Dan: 23 reaches 20
    sheet = text(client.get(f"/games/{game['id']}/scoresheet"))
    head = re.search(r"<thead>(.*?)</thead>", sheet, re.S).group(1)
    assert re.findall(r'<th scope="col">([^<]+)</th>', head)[1:] == ["Ana and Caro", "Ben and Dan"]
    assert "Goat:" in sheet and "Ben and Dan" in sheet


def test_the_kozel_table_page_shows_the_teams(client, api):
    game = api.create(game="kozel", players=FOUR, options={"teams": True})
    body = text(client.get(f"/games/{game['id']}/table"))
    assert "Team 1: Ana and Caro" in body and "Team 2: Ben and Dan" in body
    assert "kz.teams" in body


def test_a_kozel_player_leaving_is_recorded_from_the_game_page(client, api):
    game = api.create(game="kozel", mode="scores", players=["Masha", "Alex", "Olya"])
    api.hands(game["id"], 1, {"Masha": 30, "Alex": 32, "Olya": 13})
    page = text(client.get(f"/games/{game['id']}"))
    assert 'action="/games/' + game["id"] + '/leave"' in page and "kz.rating.left" in page
    version = api.state(game["id"])["version"]
    response = client.post(f"/games/{game['id']}/leave", data={"player": "Alex", "version": str(version)})
    assert response.status_code == 303
    state = api.state(game["id"])
    assert state["status"] == "finished" and state["left"] == "Alex"
    assert state["rating"] == {"Masha": 1, "Olya": 2}  # the seed's example
    finished = text(client.get(f"/games/{game['id']}"))
    assert "/leave" not in finished  # nothing more to leave


def test_leaving_names_a_player_of_the_game(client, api):
    game = api.create(game="kozel", mode="scores", players=["Masha", "Alex"])
    version = api.state(game["id"])["version"]
    response = client.post(f"/games/{game['id']}/leave", data={"player": "Zed", "version": str(version)})
    assert response.status_code == 303
    assert api.state(game["id"])["status"] == "playing"
    assert "There is no player called" in text(client.get(f"/games/{game['id']}"))
    not_kozel = api.create(game="mexican-train", mode="scores", players=["Ana", "Ben"])
    assert "/leave" not in text(client.get(f"/games/{not_kozel['id']}"))


def test_stats_count_a_team_game_for_both_partners():
    from referee.match import GameConfig, Match
    from referee.stats import leaderboard, player_stats, summarize

    match = Match(
        GameConfig.from_json(
            {"game": "kozel", "mode": "scores", "players": FOUR, "options": {"teams": True, "lose_at": 20}}
        )
    )
    match.enter_hands(1, {"hands": {"Ana": 0, "Ben": 9, "Caro": 20, "Dan": 14}})  # Ben and Dan: 23
    summary = summarize("g1", "2026-01-01", match)
    assert summary.winners == ("Ana", "Caro") and set(summary.goats) == {"Ben", "Dan"}
    stats = player_stats([summary])
    assert stats["ana"].wins == stats["caro"].wins == 1
    assert stats["ben"].goat == stats["dan"].goat == 1 and stats["ben"].wins == 0
    assert stats["ana"].rating_points == stats["caro"].rating_points > 0
    assert stats["ana"].head_to_head["caro"].level == 1  # partners share their place
    assert stats["ana"].head_to_head["ben"].ahead == 1
    assert [row.key for row in leaderboard([summary], "kozel")][:2] == ["ana", "caro"]
