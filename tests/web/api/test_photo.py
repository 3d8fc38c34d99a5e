"""POST /api/games/<id>/rounds/<n>/photo and …/check: they read and check, never write."""

from __future__ import annotations

import io

import pytest

from tests.web.photo_helpers import fixed_reader, reading

PNG_HEAD = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def game(api):
    """Mexican Train double-12, referee mode: Ana laid 12-5 (15 tiles left, others 16)."""
    data = api.create(game="mexican-train", players=["Ana", "Ben", "Caro"], set=12)
    status, _ = api.act(data["id"], type="play", player="Ana", tile="12-5", train="Ana")
    assert status == 200
    return data["id"]


def post_photo(client, game_id, data=PNG_HEAD + b"0" * 100, number=1, **form):
    body = {"photo": (io.BytesIO(data), "hand.png", "image/png"), **form}
    return client.post(
        f"/api/games/{game_id}/rounds/{number}/photo", data=body, content_type="multipart/form-data"
    )


def test_a_reading_with_its_total_and_warnings(client, api, game, monkeypatch):
    calls = fixed_reader(
        monkeypatch,
        reading(
            ("12-5", 0.97, (10, 20, 100, 50)), ("3-3", 0.55, (200, 20, 100, 50)), ("0-0", 0.9, (0, 0, 5, 5))
        ),
    )
    version = api.state(game)["version"]
    response = post_photo(client, game)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["tiles"] == [
        {"tile": "5-12", "confidence": 0.97, "sure": True, "box": [10, 20, 100, 50]},
        {"tile": "3-3", "confidence": 0.55, "sure": False, "box": [200, 20, 100, 50]},
        {"tile": "0-0", "confidence": 0.9, "sure": True, "box": [0, 0, 5, 5]},
    ]  # sure: the reader's own flag, passed on as it is (the stand-in's is confidence >= 0.9)
    assert body["total"] == 17 + 6 + 50  # the double-blank counts 50 in Mexican Train
    assert [(w["tile"], w["rule"]) for w in body["warnings"]] == [("5-12", "unique")]
    assert "already on the table" in body["warnings"][0]["error"]
    assert (body["width"], body["height"]) == (800, 600)
    assert calls and calls[0][1] == 12
    assert api.state(game)["version"] == version


def test_with_player_the_tracked_count_is_checked(client, game, monkeypatch):
    fixed_reader(monkeypatch, reading(("3-4", 0.9, (0, 0, 10, 10))))
    body = post_photo(client, game, player="Ben").get_json()
    assert [(w["tile"], w["rule"]) for w in body["warnings"]] == [(None, "hidden")]
    assert body["warnings"][0]["error"] == "Ben holds 16 tiles by the log, but 1 was entered."
    assert body["tracked"] == 16


def test_a_tile_in_a_hand_sent_from_a_phone_is_read_in_two_hands(app, client, game, monkeypatch):
    from referee.web.db import get_store

    with app.test_request_context():
        get_store().send_hand(game, 1, "Caro", ["3-4"], 1.0)
    fixed_reader(monkeypatch, reading(("3-4", 0.9, (0, 0, 10, 10))))
    body = post_photo(client, game, player="Ben").get_json()
    assert ("3-4", "unique") in [(w["tile"], w["rule"]) for w in body["warnings"]]


def test_no_tiles_is_an_empty_list(client, game, monkeypatch):
    fixed_reader(monkeypatch, reading())
    body = post_photo(client, game).get_json()
    assert body["tiles"] == [] and body["total"] == 0 and body["warnings"] == []


def test_a_photo_larger_than_the_app_body_limit_is_accepted(client, game, monkeypatch):
    calls = fixed_reader(monkeypatch, reading())
    assert post_photo(client, game, data=PNG_HEAD + b"0" * 3_000_000).status_code == 200
    assert len(calls[0][0]) == 3_000_008


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/games/nope/rounds/1/photo", 404),
        ("/api/games/{game}/rounds/0/photo", 404),
        ("/api/games/{game}/rounds/2/photo", 404),
        ("/api/games/{game}/rounds/x/photo", 404),
    ],
)
def test_unknown_game_or_round(client, game, monkeypatch, url, status):
    calls = fixed_reader(monkeypatch, reading())
    body = {"photo": (io.BytesIO(PNG_HEAD), "hand.png")}
    response = client.post(url.format(game=game), data=body, content_type="multipart/form-data")
    assert response.status_code == status
    assert set(response.get_json()) >= {"error", "rule"}
    assert not calls


def test_bad_requests_get_clear_answers(client, api, game, monkeypatch):
    calls = fixed_reader(monkeypatch, reading())
    url = f"/api/games/{game}/rounds/1/photo"
    version = api.state(game)["version"]
    response = client.post(url, json={"photo": "x"})
    assert response.status_code == 415 and "multipart" in response.get_json()["error"]
    response = client.post(url, data={"player": "Ana"}, content_type="multipart/form-data")
    assert response.status_code == 400 and "'photo'" in response.get_json()["error"]
    response = post_photo(client, game, data=b"")
    assert response.status_code == 415
    response = post_photo(client, game, player="Zed")
    assert response.status_code == 422 and "Zed" in response.get_json()["error"]
    too_large = PNG_HEAD + b"0" * (20 * 1024 * 1024 + 70_000)
    response = post_photo(client, game, data=too_large)
    assert response.status_code == 413 and response.get_json()["rule"] is None
    assert not calls
    assert api.state(game)["version"] == version


def test_the_check_endpoint(api, game):
    status, body = api.post(
        f"/api/games/{game}/rounds/1/check",
        {"tiles": ["5-12", "3-4"], "player": "Ben", "hands": {"Caro": ["4-3"]}},
    )
    assert status == 200
    assert [(w["tile"], w["rule"]) for w in body["warnings"]] == [
        ("5-12", "unique"),
        ("3-4", "unique"),
        (None, "hidden"),
    ]
    assert body["total"] == 24 and body["tracked"] == 16


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"tiles": "5-12"}, 400),
        ({"tiles": ["5-x"]}, 400),
        ({"tiles": ["1-2"], "hands": []}, 400),
        ({"tiles": ["1-2"], "other": 1}, 400),
        ({"tiles": ["1-2"], "player": "Zed"}, 422),
        ({}, 400),
    ],
)
def test_the_check_endpoint_refuses_bad_bodies(api, game, body, status):
    got, answer = api.post(f"/api/games/{game}/rounds/1/check", body)
    assert got == status and answer["error"]


# ----- the real reader: files that are not readable photos ------------------------------------


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (64, 48)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, (40, 110, 60)).save(out, format=fmt)
    return out.getvalue()


def bomb() -> bytes:
    """A PNG of a few kilobytes that claims 30 000 × 30 000 pixels."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("1", (30_000, 30_000)).save(out, format="PNG", optimize=True)
    return out.getvalue()


@pytest.mark.parametrize(
    ("make", "status"),
    [
        (lambda: b"%PDF-1.7 this is not a photo" * 10, 415),
        (lambda: b"plain text, not a picture" * 10, 415),
        (lambda: image_bytes("JPEG")[:300], 400),
        (lambda: image_bytes("PNG")[:60], 400),
        (bomb, 413),
    ],
    ids=["pdf", "text", "truncated-jpeg", "truncated-png", "decompression-bomb"],
)
def test_files_that_are_no_readable_photo(client, api, game, make, status):
    version = api.state(game)["version"]
    response = post_photo(client, game, data=make())
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert body["error"] and body["rule"] is None
    assert api.state(game)["version"] == version


def test_a_plain_photo_with_no_tiles_reads_nothing(client, game):
    response = post_photo(client, game, data=image_bytes("JPEG", (640, 480)))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["tiles"] == [] and body["total"] == 0
    assert (body["width"], body["height"]) == (640, 480)
