"""Starting a refereed game and starting each of its rounds go straight to the table (one
tap fewer); a score pad, and a game over, still show the scores."""

from __future__ import annotations

from tests.web.page_helpers import MT_FORM


def test_a_new_refereed_game_opens_on_its_table_and_a_score_pad_on_its_page(client):
    data = dict(MT_FORM, mode="referee", **{"players-0": "Ana", "players-1": "Ben"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 303 and response.headers["Location"].endswith("/table")
    pad = client.post("/games/new", data=dict(data, mode="scores"))
    assert pad.status_code == 303 and not pad.headers["Location"].endswith("/table")


def test_booking_a_refereed_round_goes_on_at_the_table(client, api):
    game = api.create(game="mexican-train", mode="referee", set=9, players=["Ana", "Ben"])
    response = client.post(f"/games/{game['id']}/rounds/1/hands", data={"p0": "20", "p1": "31"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{game['id']}/table")
    assert api.state(game["id"])["round"]["number"] == 2
    pad = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    response = client.post(f"/games/{pad['id']}/rounds/1/hands", data={"p0": "20", "p1": "out"})
    assert response.headers["Location"].endswith(f"/games/{pad['id']}")
