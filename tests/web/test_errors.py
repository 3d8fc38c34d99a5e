"""What a request that goes wrong answers outside a blueprint's own refusals: the API keeps
its JSON contract for every address under /api/ (API.md: a refusal is a 4xx with
{"error", "rule"}), and a person gets a page of the app in their language with one
sentence and the way back, instead of the server's bare English page."""

from __future__ import annotations

import re

import pytest

from referee.web import create_app


def page_text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


@pytest.fixture
def guarded(tmp_path):
    """CSRF on and exceptions answered, as when served."""
    app = create_app({"DATABASE": str(tmp_path / "errors.db"), "SECRET_KEY": "errors-secret"})
    return app


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("get", "/api/nothing-here", 404),
        ("put", "/api/games", 405),
        ("delete", "/api/games", 405),
        ("get", "/api/games/no-such-game/rounds/1", 404),
    ],
)
def test_every_api_address_answers_json(client, method, path, status):
    response = getattr(client, method)(path)
    assert response.status_code == status
    assert response.is_json, response.get_data(as_text=True)[:80]
    body = response.get_json()
    assert set(body) >= {"error", "rule"} and body["rule"] is None and body["error"].endswith(".")
    if status == 405:
        assert "GET" in response.headers["Allow"] and "POST" in response.headers["Allow"]


@pytest.mark.parametrize(
    "method, path, status, title",
    [
        ("get", "/no/such/page", 404, "Nothing here"),
        ("delete", "/games/new", 405, "Not this way"),
        ("get", "/games/nosuchgame", 404, "No such game"),
        ("get", "/games/nosuchgame/table", 404, "No such game"),
    ],
)
def test_pages_answer_with_a_page_of_the_app(client, method, path, status, title):
    response = getattr(client, method)(path)
    assert response.status_code == status and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f"<h1>{title}</h1>" in html and 'class="topbar' in html  # the app's page, not the server's
    assert 'href="/"' in html  # the way back to all games
    if status == 405:
        assert "POST" in response.headers["Allow"]


def test_a_stale_form_is_refused_with_a_page_and_nothing_is_saved(guarded):
    client = guarded.test_client()
    game = client.post(
        "/api/games", json={"game": "kozel", "players": ["Ana", "Ben"], "mode": "scores"}
    ).get_json()
    client.post(f"/api/games/{game['id']}/rounds/1/hands", json={"hands": {"Ana": 0, "Ben": 20}})
    before = client.get(f"/api/games/{game['id']}").get_json()
    response = client.post(
        f"/games/{game['id']}/undo",
        data={"version": "2"},
        headers={"Referer": f"http://localhost/games/{game['id']}"},
    )
    assert response.status_code == 400
    text = page_text(response)
    assert "This page is too old to send" in text and "nothing was saved" in text
    html = response.get_data(as_text=True)
    assert f'<a class="button primary" href="/games/{game["id"]}">' in html  # back to the game
    assert client.get(f"/api/games/{game['id']}").get_json() == before


def test_the_back_link_never_leaves_the_app(client):
    html = client.get("/nowhere", headers={"Referer": "http://elsewhere.example/games/new"}).get_data(
        as_text=True
    )
    assert "elsewhere" not in html and "Back" not in html
    html = client.get("/nowhere", headers={"Referer": "http://localhost/rules/kozel?q=fish"}).get_data(
        as_text=True
    )
    assert 'href="/rules/kozel?q=fish"' in html


def test_an_unforeseen_crash_gets_a_page_that_says_nothing_changed(guarded):
    def explode():
        raise RuntimeError("a bug")

    guarded.add_url_rule("/explode", "explode", explode)
    response = guarded.test_client().get("/explode")
    assert response.status_code == 500
    text = page_text(response)
    assert "The referee hit an internal error" in text and "Nothing was changed" in text
    assert "a bug" not in text and "Traceback" not in text


def test_a_body_too_large_for_a_page_is_a_413_page(client):
    response = client.post("/games/new", data={"note": "x" * (200 * 1024)})
    assert response.status_code == 413
    assert "Too large" in page_text(response)


def test_an_unknown_player_is_named_on_the_page(client):
    response = client.get("/players/Nobody%20Here")
    assert response.status_code == 404
    assert "Nobody Here" in page_text(response) and "topbar" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "lang, title", [("hi", "यहाँ कुछ नहीं है"), ("pa", "ਇੱਥੇ ਕੁਝ ਨਹੀਂ ਹੈ"), ("hu", "Itt nincs semmi")]
)
def test_error_pages_speak_the_chosen_language(client, lang, title):
    client.set_cookie("lang", lang)
    response = client.get("/no/such/page")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html


def test_a_game_id_with_markup_is_shown_as_text(client):
    html = client.get("/games/%3Cscript%3Ealert(1)%3Cx/table").get_data(as_text=True)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;x" in html


def fresh_token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def test_a_stale_hands_form_comes_back_with_what_was_typed(guarded):
    client = guarded.test_client()
    game = client.post(
        "/api/games", json={"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"}
    ).get_json()
    url = f"/games/{game['id']}/rounds/1/hands"
    typed = {"version": "1", "p0": "0-0 5-9", "p1": "out", "csrf_token": "from-an-old-page"}
    response = client.post(url, data=typed)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "too old to send" in page_text(response) and "nothing was saved" in page_text(response)
    assert 'value="0-0 5-9"' in html and 'value="out"' in html  # nothing to type again
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1
    again = client.post(url, data={**typed, "csrf_token": fresh_token(html)})
    assert again.status_code == 303
    assert client.get(f"/api/games/{game['id']}").get_json()["totals"] == {"Ana": 64, "Ben": 0}


def test_a_stale_new_game_form_comes_back_with_what_was_typed(guarded):
    client = guarded.test_client()
    typed = {
        "game": "kozel",
        "mode": "scores",
        "players-0": "Masha",
        "players-1": "Alex",
        "players-2": "",
        "players-3": "",
        "start": "1",
        "csrf_token": "from-an-old-page",
    }
    response = client.post("/games/new", data=typed)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "nothing was started" in page_text(response)
    assert 'value="Masha"' in html and 'value="Alex"' in html
    assert client.get("/api/games").get_json()["games"] == []
    assert client.post("/games/new", data={**typed, "csrf_token": fresh_token(html)}).status_code == 303
    assert [g["players"] for g in client.get("/api/games").get_json()["games"]] == [["Masha", "Alex"]]
