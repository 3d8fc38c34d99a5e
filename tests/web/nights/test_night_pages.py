"""Club nights through their pages (the test client): the new-night form and its preview,
shuffle and refusals; the night page, its live part, "Next stage" and its key; the board;
the night sheet and its PDF; the trash; the players' pages."""

from __future__ import annotations

import re
from typing import Any

import pytest

EIGHT = ["Ana", "Ben", "Caro", "Dee", "Eve", "Finn", "Gus", "Hana"]


def form(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Tuesday club",
        "game": "mexican-train",
        "mode": "scores",
        "players": "\n".join(EIGHT),
        "table_size": "4",
        "stages": "2",
        "rounds_per_stage": "1",
        "seating": "progressive",
        "preview": "1",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def start_night(client, **changes: Any) -> str:
    response = client.post("/nights/new", data=form(**{"preview": None, "start": "1", **changes}))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rsplit("/", 1)[1]


def finish_stage(api, night_id: str, points: dict[str, int]) -> dict[str, Any]:
    status, night = api.get(f"/api/nights/{night_id}")
    for table in night["tables"]:
        status, game = api.hands(table["game"], 1, {p: points[p] for p in table["players"]})
        assert status == 200 and game["status"] == "finished", game
    return night


POINTS = dict(zip(EIGHT, [5, 10, 15, 20, 1, 2, 3, 4]))


def test_preview_shuffle_and_start(client, api):
    page = client.get("/nights/new")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for seating in ("Progressive", "Mixer", "Fixed", "Teams"):
        assert seating in text
    preview = client.post("/nights/new", data=form())
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "Table 2" in text and "Start the night" in text
    assert api.get("/api/nights")[1]["nights"] == []  # a preview creates nothing
    shuffled = client.post("/nights/new", data=form(preview=None, shuffle="1"))
    seed = re.search(r'name="seed" type="hidden" value="(\d+)"', shuffled.get_data(as_text=True))
    assert seed, shuffled.get_data(as_text=True)[:500]
    night_id = start_night(client, seed=seed.group(1))
    status, night = api.get(f"/api/nights/{night_id}")
    assert status == 200 and sorted(night["players"]) == sorted(EIGHT)
    assert night["seating"] == "progressive" and len(night["tables"]) == 2


@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"table_size": "9"}, "night.tables", "seat 2 to 8"),
        ({"stages": "20", "rounds_per_stage": "5"}, "night.rounds", "need 100 rounds"),
        ({"players": "Ana\nana\nBen\nCaro"}, None, "must be unique"),
        ({"players": "Ana\n\u0410na\nBen\nCaro"}, None, "look the same"),  # a Cyrillic А
        (
            {
                "game": "kozel",
                "kz_teams": "y",
                "seating": "teams",
                "players": "\n".join(EIGHT[:6]),
                "table_size": "4",
            },
            "night.teams",
            "multiple of 4",
        ),
        (
            {"game": "kozel", "kz_teams": "y", "seating": "teams", "players": "\n".join(EIGHT[:7])},
            "night.teams",
            "needs an even number of players",
        ),
        (
            {
                "game": "kozel",
                "kz_teams": "y",
                "seating": "teams",
                "players": "\n".join(EIGHT + ["Ivy", "Jo", "Kim", "Lou"]),
                "table_size": "3",
            },
            "night.teams",
            "tables of 4, not 3",
        ),
    ],
)
def test_refusals_are_shown_on_the_form_and_create_nothing(client, api, changes, rule, words):
    response = client.post("/nights/new", data=form(**changes, preview=None, start="1"))
    text = response.get_data(as_text=True)
    assert response.status_code == 422, text[:1000]
    assert words in text
    if rule:
        assert f'#rule-{rule.replace(".", "-")}"' in text
    assert api.get("/api/nights")[1]["nights"] == []


def test_night_page_next_stage_key_and_moves(client, api):
    client.application.config["NIGHT_LIVE_FRESH_SECONDS"] = 0  # every change seen at once
    night_id = start_night(client)
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert "<svg" in page and f"/nights/{night_id}/1" in page and "Next stage" in page
    key = re.search(r'name="key" type="hidden" value="([^"]+)"', page).group(1)
    refused = client.post(f"/nights/{night_id}/next", data={"key": key})
    assert refused.status_code == 422
    assert "night.stage.open" in refused.get_data(
        as_text=True
    ) and "Tables 1, 2 are still playing" in refused.get_data(as_text=True)
    short = client.get(f"/nights/{night_id}/2")
    assert short.status_code == 303 and "/games/" in short.headers["Location"]
    live = client.get(f"/nights/{night_id}/live")
    mark = re.search(r'data-live-mark="([^"]+)"', live.get_data(as_text=True)).group(1)
    assert client.get(f"/nights/{night_id}/live?mark={mark}").status_code == 204
    finish_stage(api, night_id, POINTS)
    assert client.get(f"/nights/{night_id}/live?mark={mark}").status_code == 200
    done = client.post(f"/nights/{night_id}/next", data={"key": key})
    assert done.status_code == 303
    again = client.post(f"/nights/{night_id}/next", data={"key": key})  # the same page sent twice
    assert again.status_code == 303
    night = api.get(f"/api/nights/{night_id}")[1]
    assert night["stage"] == 2 and len(night["history"]) == 1
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    # table 1's worst (Dee, 20) and table 2's best (Eve, 1) change places
    assert "<strong>Dee</strong> → table 2" in page and "<strong>Eve</strong> → table 1" in page
    assert "Finish the night" in page
    board = client.get(f"/nights/{night_id}/board")
    assert board.status_code == 200 and "Standing" in board.get_data(as_text=True)
    assert client.get(f"/nights/{night_id}/live?view=board").status_code == 200
    finish_stage(api, night_id, POINTS)
    key = re.search(r'name="key" type="hidden" value="([^"]+)"', page).group(1)
    assert client.post(f"/nights/{night_id}/next", data={"key": key}).status_code == 303
    night = api.get(f"/api/nights/{night_id}")[1]
    assert night["status"] == "finished"
    sheet = client.get(f"/nights/{night_id}/sheet").get_data(as_text=True)
    assert "Final standing" in sheet and "Stage 2" in sheet and "Options in force" in sheet
    pdf = client.get(f"/nights/{night_id}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    player = client.get("/players/Eve").get_data(as_text=True)
    assert "Club nights" in player and "Tuesday club" in player
    assert client.get("/lang/hi").status_code == 303  # the sheet's PDF in Devanagari
    pdf = client.get(f"/nights/{night_id}/sheet.pdf")
    assert pdf.status_code == 200 and b"NotoSansDevanagari" in pdf.data


def test_a_whole_night_goes_to_the_trash_and_back(client, api):
    night_id = start_night(client)
    night = api.get(f"/api/nights/{night_id}")[1]
    game_id = night["tables"][0]["game"]
    refused = client.post(f"/games/{game_id}/delete", data={})
    assert refused.status_code == 303  # a night's table is not deleted on its own
    assert api.get(f"/api/games/{game_id}")[0] == 200
    assert client.get(f"/nights/{night_id}/delete").status_code == 200
    assert client.post(f"/nights/{night_id}/delete", data={}).status_code == 303
    assert client.get(f"/nights/{night_id}").status_code == 404
    assert api.get(f"/api/games/{game_id}")[0] == 404
    trash = client.get("/trash").get_data(as_text=True)
    assert "Tuesday club" in trash and game_id not in trash
    assert client.post(f"/trash/nights/{night_id}/restore", data={}).status_code == 303
    assert client.get(f"/nights/{night_id}").status_code == 200
    assert api.get(f"/api/games/{game_id}")[0] == 200
    client.post(f"/nights/{night_id}/delete", data={})
    assert client.post(f"/trash/nights/{night_id}/purge", data={}).status_code == 303
    assert client.get("/trash").get_data(as_text=True).count("Tuesday club") == 0
    assert api.get(f"/api/games/{game_id}")[0] == 404


def test_the_pages_and_refusals_speak_hungarian(client, api):
    assert client.get("/lang/hu").status_code == 303
    refused = client.post("/nights/new", data=form(table_size="9", preview=None, start="1"))
    assert refused.status_code == 422
    assert "asztaloknál 2–8 játékos ül, nem 9" in refused.get_data(as_text=True)
    night_id = start_night(client)
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert "Következő szakasz" in page and "1. asztal" in page
    refused = client.post(f"/nights/{night_id}/next", data={"key": "abcdefgh12"})
    assert "még játszik" in refused.get_data(as_text=True)


def test_a_stale_live_part_is_rendered_by_one_screen_while_the_others_get_the_kept_one(
    app, client, api, monkeypatch
):
    import threading

    from referee.web import nights as night_pages

    app.config["NIGHT_LIVE_FRESH_SECONDS"] = 0
    night_id = start_night(client)
    assert client.get(f"/nights/{night_id}/live").status_code == 200  # kept
    table = api.get(f"/api/nights/{night_id}")[1]["tables"][0]
    api.hands(table["game"], 1, {player: 3 for player in table["players"]})  # a new mark
    rendering, renders = threading.Event(), []
    render_live = night_pages.render_live

    def slow_render(*args: Any) -> str:
        renders.append(args)
        rendering.set()
        threading.Event().wait(0.3)
        return render_live(*args)

    monkeypatch.setattr(night_pages, "render_live", slow_render)
    answers: list[int] = []
    first = threading.Thread(
        target=lambda: answers.append(app.test_client().get(f"/nights/{night_id}/live").status_code)
    )
    first.start()
    assert rendering.wait(5)
    others = [app.test_client().get(f"/nights/{night_id}/live").status_code for _ in range(3)]
    first.join(5)
    assert len(renders) == 1 and others == [200, 200, 200] and answers == [200]
