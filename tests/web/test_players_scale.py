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
