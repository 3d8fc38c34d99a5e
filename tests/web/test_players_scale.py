"""The players' pages summarize each game once per version, however many games there are
(above 5,000 games the summaries used to be thrown away on every request)."""

from __future__ import annotations

from referee.match import GameConfig
from referee.store import Store
from referee.web.companion import players as players_module


def test_players_summarize_each_game_once_even_with_many_games(app, client, monkeypatch):
    store = Store(app.config["DATABASE"])
    config = GameConfig.from_json({"game": "kozel", "players": ["Ana", "Ben"]})
    with store.write():
        for _ in range(5_050):
            store.create(config)
    store.close()
    calls = []
    real = players_module.summarize

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(players_module, "summarize", counted)
    assert client.get("/players").status_code == 200
    assert len(calls) == 5_050
    assert client.get("/players").status_code == 200
    assert client.get("/leaderboard/kozel").status_code == 200
    assert len(calls) == 5_050  # nothing summarized again


def test_the_lists_are_kept_until_a_game_changes(app, client, api, monkeypatch):
    """/players and the leaderboards are made once per state of the games: a new play, a
    new game or a game thrown away makes them again (and they show it)."""
    from referee.web.companion import players as module

    game = api.create(game="kozel", players=["Ana", "Ben"], mode="scores")
    made = []

    def counting(name):
        real = getattr(module, name)

        def counted(*args, **kwargs):
            made.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    counting("player_stats")
    counting("leaderboard")
    assert "Ana" in client.get("/players").get_data(as_text=True)
    assert client.get("/leaderboard/kozel").status_code == 200
    count = len(made)
    assert count == 2
    for _ in range(3):
        client.get("/players")
        client.get("/leaderboard/kozel")
    assert len(made) == count  # nothing changed: nothing made again
    other = api.create(game="kozel", players=["Caro", "Dan"])
    assert "Caro" in client.get("/players").get_data(as_text=True)
    assert len(made) == count + 1
    client.delete(f"/api/games/{other['id']}")
    assert "Caro" not in client.get("/players").get_data(as_text=True)
    status, _ = api.hands(game["id"], 1, {"Ana": 0, "Ben": 12})
    assert status == 200
    before = len(made)
    client.get("/leaderboard/kozel")
    assert len(made) == before + 1
