"""Input a careless or curious guest may send: odd digits in paths and forms, lone
surrogates, names that look like another, a malformed version, a full or read-only disk, a
game whose stored record is damaged. Each gets a 4xx (or a clear 5xx) with a sentence, and
nothing changes."""

from __future__ import annotations

import html
import sqlite3

import pytest

from referee.store import Store
from referee.web import create_app
from tests.web.page_helpers import MT_FORM, refusal, text


def mt(api, players=("Ana", "Ben")):
    return api.create(game="mexican-train", mode="scores", set=9, players=list(players))


def hands_form(client, game_id, number, *entries, version=None):
    data = {f"p{i}": entry for i, entry in enumerate(entries)}
    if version is not None:
        data["version"] = version
    return client.post(f"/games/{game_id}/rounds/{number}/hands", data=data)


# ----- numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ["²", "5" * 5000, "١٢", "123456"])
def test_odd_points_in_the_hands_form_are_refused_with_a_sentence(client, api, entry):
    game = mt(api)
    response = hands_form(client, game["id"], 1, entry, "out")
    assert response.status_code == 422
    assert "is not a number of points" in html.unescape(refusal(text(response)))
    assert api.state(game["id"])["version"] == 1


def test_tiles_written_with_other_digits_are_not_tiles(client, api):
    game = mt(api)
    response = hands_form(client, game["id"], 1, "١-٢", "out")
    assert response.status_code == 422 and "is not a tile" in html.unescape(refusal(text(response)))
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("number", ["%C2%B2", "%D9%A1", "1" * 40])
def test_round_paths_with_odd_digits_are_404_pages(client, api, number):
    game = mt(api)
    assert client.get(f"/games/{game['id']}/rounds/{number}/hands").status_code == 404
    response = hands_form(client, game["id"], number, "0", "7")
    assert response.status_code == 404
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("number", ["%C2%B2", "%D9%A1", "1" * 40])
@pytest.mark.parametrize("what", ["hands", "photo", "check"])
def test_api_round_paths_with_odd_digits_are_404_json(client, api, number, what):
    game = mt(api)
    response = client.post(
        f"/api/games/{game['id']}/rounds/{number}/{what}", json={"hands": {"Ana": 0, "Ben": 7}}
    )
    assert response.status_code == 404, response.get_data(as_text=True)
    assert "has no round" in response.get_json()["error"]
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("version", ["abc", "²", "-1", "1.0"])
def test_a_malformed_version_in_the_hands_form_never_books(client, api, version):
    game = mt(api)
    response = hands_form(client, game["id"], 1, "0", "7", version=version)
    assert response.status_code == 400
    assert "could not be read" in html.unescape(refusal(text(response)))
    assert api.state(game["id"])["version"] == 1


@pytest.mark.parametrize("path", ["undo", "leave"])
def test_a_malformed_version_in_undo_or_leave_changes_nothing(client, api, path):
    game = api.create(game="kozel", mode="scores", players=["Masha", "Alex"])
    response = client.post(f"/games/{game['id']}/{path}", data={"version": "abc", "player": "Masha"})
    assert response.status_code == 400
    assert api.state(game["id"])["version"] == 1


# ----- names --------------------------------------------------------------------------------------


def test_a_lone_surrogate_in_the_api_is_a_400(client):
    raw = '{"game": "mexican-train", "mode": "scores", "set": 9, "players": ["Ana", "\\ud800"]}'
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400 and "lone surrogate" in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_lone_surrogate_in_the_new_game_form_is_not_a_crash(client):
    data = dict(MT_FORM, **{"players-0": "Ana", "players-1": "\ud800"})
    body = "&".join(f"{k}={v}" if k != "players-1" else "players-1=%ED%A0%80" for k, v in data.items())
    response = client.post("/games/new", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code in (303, 400, 422)


@pytest.mark.parametrize(
    "players, words",
    [
        (["Ana", "\u200d\u200d"], "visible"),
        (["Ana", "\u3164"], "visible"),
        (["Ana", "\u2800\u2800"], "visible"),
        (["Ana", "\u0301"], "visible"),
        (["Anna", "Аnna"], "look the same"),  # Cyrillic А
        (["Bob", "B\u200dob"], "look the same"),
        (["Zoë", "Zoe\u0308"], "names must be unique"),  # the same once normalised (NFC)
        (["Ａｎａ", "Ana"], "look the same"),  # full-width letters
        # from Unicode's confusables (UTS #39), beyond Cyrillic and Greek:
        (["Tom", "Tօm"], "look the same"),  # Armenian օ
        (["Ana", "Ꭺna"], "look the same"),  # Cherokee Ꭺ
        (["Ilona", "Ιlona"], "look the same"),  # Greek capital iota
        (["Sam", "Ꮪam"], "look the same"),  # Cherokee Ꮪ
    ],
)
def test_invisible_and_look_alike_names_are_refused(client, api, players, words):
    status, body = api.post(
        "/api/games", {"game": "mexican-train", "mode": "scores", "set": 9, "players": players}
    )
    assert status == 400 and words in body["error"] and body["rule"] is None
    assert client.get("/api/games").get_json()["games"] == []


def test_names_that_differ_to_the_eye_are_accepted(api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["José", "Jose", "गुरु", "गरु"])
    assert len(game["players"]) == 4


@pytest.mark.parametrize(
    "players",
    [
        # Hindi: names sharing most of their letters
        ["राम", "रमा", "राजू", "राज"],
        ["सीता", "गीता", "अनीता", "अनिता"],
        ["सुनील", "सुनीता", "कमल", "कमला"],
        # Punjabi (Gurmukhi), and a Hindi name that sounds the same
        ["ਗੁਰਪ੍ਰੀਤ", "ਹਰਪ੍ਰੀਤ", "ਮਨਪ੍ਰੀਤ", "ਜਸਪ੍ਰੀਤ"],
        ["ਸਿਮਰਨ", "ਸਿਮਰਤ", "ਰਾਮ", "राम"],
        # Hungarian: the accents tell them apart
        ["Ödön", "Ödon", "Győző", "Gyöző"],
        ["Ágnes", "Agnes", "Zsófi", "Zsofi"],
        # plain letters that Unicode also lists as drawn alike (m and rn)
        ["Amie", "Arnie", "Clara", "Dara"],
    ],
)
def test_real_names_that_share_letters_are_accepted(api, players):
    game = api.create(game="mexican-train", mode="scores", set=9, players=players)
    assert game["players"] == players


def test_a_look_alike_name_is_refused_on_the_new_game_page(client):
    data = dict(MT_FORM, **{"players-0": "Anna", "players-1": "Аnna"})
    response = client.post("/games/new", data=data)
    assert response.status_code in (400, 422) and "look the same" in html.unescape(text(response))


# ----- the disk ---------------------------------------------------------------------------------


@pytest.fixture
def failing_writes(monkeypatch):
    def fail_with(message: str, code: int):
        def append(self, *args, **kwargs):
            error = sqlite3.OperationalError(message)
            error.sqlite_errorcode = code
            raise error

        monkeypatch.setattr(Store, "_append", append)

    return fail_with


@pytest.mark.parametrize(
    "message, code, status, words",
    [
        ("database or disk is full", 13, 507, "The disk is full: nothing was saved"),
        ("attempt to write a readonly database", 8, 503, "read-only: nothing was saved"),
    ],
)
def test_a_full_or_read_only_disk_is_said_in_a_sentence(
    client, api, failing_writes, message, code, status, words
):
    game = mt(api)
    failing_writes(message, code)
    response = client.post(f"/api/games/{game['id']}/rounds/1/hands", json={"hands": {"Ana": 0, "Ben": 7}})
    assert response.status_code == status and words in response.get_json()["error"]
    page = hands_form(client, game["id"], 1, "0", "7")
    assert page.status_code == status and words in html.unescape(text(page))
    assert api.state(game["id"])["version"] == 1


def test_a_really_full_database_answers_507(app, client, api):
    game = mt(api)
    db = sqlite3.connect(app.config["DATABASE"])
    pages = db.execute("pragma page_count").fetchone()[0]
    db.close()
    # Every write is capped at the current size of the file: the next page cannot be had.
    original = Store.write

    def capped_write(self):
        self.db.execute(f"pragma max_page_count = {pages}")
        return original(self)

    Store.write = capped_write  # type: ignore[method-assign]
    try:
        status = None
        for points in range(200):  # until the file would have to grow
            response = client.post(
                f"/api/games/{game['id']}/rounds/1/hands",
                json={
                    "hands": {
                        "Ana": 0,
                        "Ben": points,
                    }
                },
            )
            status = response.status_code
            if status != 200:
                break
    finally:
        Store.write = original  # type: ignore[method-assign]
    assert status == 507, response.get_data(as_text=True)
    assert "The disk is full: nothing was saved" in response.get_json()["error"]


# ----- a damaged game ---------------------------------------------------------------------------


def damage(app, game_id):
    db = sqlite3.connect(app.config["DATABASE"])
    db.execute("update games set snapshot = null where id = ?", [game_id])
    db.execute(
        "update events set payload = ? where game_id = ? and version = 2",
        ['{"round": 1, "hands": {"Zed": 0}}', game_id],
    )
    db.commit()
    db.close()
    # Another start of the app on the damaged file (nothing of the game held in memory).
    return create_app(
        {key: app.config[key] for key in ("TESTING", "DATABASE", "SECRET_KEY", "WTF_CSRF_ENABLED")}
    )


def test_a_damaged_game_is_reported_on_its_own_and_skipped_elsewhere(app, client, api):
    broken, fine = mt(api), mt(api, ("Cy", "Dee"))
    api.hands(broken["id"], 1, {"Ana": 0, "Ben": 7})
    api.hands(fine["id"], 1, {"Cy": 0, "Dee": 4})
    fresh = damage(app, broken["id"]).test_client()
    page = fresh.get(f"/games/{broken['id']}")
    assert page.status_code == 500 and "This game cannot be read" in html.unescape(text(page))
    answer = fresh.get(f"/api/games/{broken['id']}")
    assert answer.status_code == 500 and "cannot be read" in answer.get_json()["error"]
    players = fresh.get("/players")
    assert players.status_code == 200
    body = html.unescape(text(players))
    assert "Dee" in body and "1 game is left out" in body
    board = fresh.get("/leaderboard/mexican-train")
    assert board.status_code == 200 and "1 game is left out" in html.unescape(text(board))
    home = fresh.get("/")
    assert home.status_code == 200 and "cannot be read" in html.unescape(text(home))


@pytest.mark.parametrize("since", ["9" * 5000, "²", "١"])
def test_an_odd_last_event_id_starts_the_stream_from_the_top(app, api, since):
    app.config.update(FOLLOW_STREAM_SECONDS=0.3, FOLLOW_STREAM_POLL=0.05)
    game = mt(api)
    response = app.test_client().get(f"/games/{game['id']}/events/stream", headers={"Last-Event-ID": since})
    assert response.status_code == 200 and 'data: {"version": 1}' in response.get_data(as_text=True)
