"""The table page with one hand, without JavaScript (plain GETs and form posts): one tap for
a tile with one place, the reasons of a tile that fits nowhere, disabled buttons with the
engine's reason, the reminder of what to do now, typed tiles, the undo sentence, the
"can I play this?" button that logs, compressed responses, unique CSRF ids; the hands
entry (out filled in); the rule-book search in every language; players never see sources."""

from __future__ import annotations

import gzip
import re

import pytest

from referee.web import create_app
from referee.web.rule_search import plain, search

MT6 = {"game": "mexican-train", "set": 6, "players": ["Ana", "Ben"], "options": {"hand_size": 7}}


def html_of(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def one_place_moves(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="move" value="([^"@]+)@([^"]+)"', html))


def test_a_tile_with_one_place_is_logged_by_one_tap(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben"])
    html = html_of(client, f"/games/{game['id']}/table?who=Ana")
    moves = one_place_moves(html)
    # the lead: every tile the engine accepts goes to the one place there is (the empty table)
    assert moves and set(moves.values()) == {"centre"}
    assert 'id="quick"' in html and 'form="quick"' in html
    assert 'class="tableau' not in html  # no empty table panel before the first play
    tile = "1-1" if "1-1" in moves else next(iter(moves))
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"version": game["version"], "type": "play", "player": "Ana", "move": f"{tile}@centre"},
    )
    assert response.status_code == 303
    state = api.state(game["id"])
    assert state["version"] == game["version"] + 1 and state["round"]["ends"]
    html = html_of(client, f"/games/{game['id']}/table")
    toast = re.search(r'<div class="toast"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert f"Ana played {tile}" in toast and 'data-action="undo"' in toast


def test_the_scripted_post_answers_with_the_table_at_once(client, api):
    game = api.create(game="kozel", players=["Ana", "Ben"])
    html = html_of(client, f"/games/{game['id']}/table?who=Ana")
    tile = next(iter(one_place_moves(html)))
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"version": game["version"], "type": "play", "player": "Ana", "move": f"{tile}@centre"},
        headers={"X-Table-Fetch": "1"},
    )
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert f'data-version="{game["version"] + 1}"' in body and "Logged:" in body


def test_a_tile_that_fits_nowhere_shows_each_reason_with_its_rule(client, api):
    game = api.create(**MT6)
    html = html_of(client, f"/games/{game['id']}/table?tile=0-0")
    box = re.search(r'<div class="refusal nowhere" role="alert">(.*?)</div>', html, re.S).group(1)
    assert "0-0 fits nowhere for Ana now." in box
    assert "mt.match" in box and "/rules/mexican-train#rule-mt-match" in box
    assert 'aria-live="assertive"' in html  # announced beside the picker


def test_buttons_the_referee_would_refuse_are_disabled_with_its_reason(client, api):
    game = api.create(**MT6)
    html = html_of(client, f"/games/{game['id']}/table")
    knock = re.search(r'<button type="submit" class="[^"]*" data-action="pass"([^>]*)>', html).group(1)
    assert "disabled" in knock and 'title="Ana has not drawn this turn' in knock
    why = re.search(r'<small class="why" id="act-pass-why">(.*?)</small>', html, re.S).group(1)
    assert why.startswith("Ana has not drawn")  # the reason beside the button, its rule as a link
    assert '<a class="rule-id" href="/rules/mexican-train#rule-mt-marker-place">mt.marker.place</a>' in why
    draw = re.search(r'data-action="draw"([^>]*)>', html).group(1)
    assert "disabled" not in draw
    now = re.search(r'<p class="now"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "mt.must-play" in now and "Ana must play" in now


def test_a_typed_tile_is_picked(client, api):
    game = api.create(**MT6)
    for typed in ("3 5", "3-5", "5 3", "5:3"):
        html = html_of(client, f"/games/{game['id']}/table?tile={typed}")
        assert 'data-selected="3-5"' in html, typed
    html = html_of(client, f"/games/{game['id']}/table?tile=3 11")  # not in a double-6 set
    assert 'data-selected=""' in html


def test_undo_confirmation_reads_as_a_sentence_and_can_i_play_logs(client, api):
    game = api.create(**MT6)
    html = html_of(client, f"/games/{game['id']}/table?tile=5-6&mode=ask&ask=Ana")
    button = re.search(
        r'<button type="submit" form="play" name="place" value="Ana"[^>]*>(.*?)</button>', html
    )
    assert button and "Log it: 5-6 on Ana&#39;s train" in button.group(1)
    response = client.post(
        f"/games/{game['id']}/table/act",
        data={"version": game["version"], "type": "play", "player": "Ana", "tile": "5-6", "place": "Ana"},
    )
    assert response.status_code == 303
    html = html_of(client, f"/games/{game['id']}/table?confirm=undo")
    assert "Undo: Ana played 5-6 on their own train?" in html


def test_every_csrf_field_has_its_own_id(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "x"})
    client = app.test_client()
    game = client.post("/api/games", json=MT6).get_json()
    html = client.get(f"/games/{game['id']}/table?tile=5-6").get_data(as_text=True)
    ids = re.findall(r'<input id="([^"]+)" name="csrf_token"', html)
    assert len(ids) >= 3 and len(ids) == len(set(ids))


def test_responses_are_compressed(client, api):
    game = api.create(**MT6)
    response = client.get(f"/games/{game['id']}/table", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(response.data)
    assert len(response.data) < 12_000
    css = client.get("/static/table.css", headers={"Accept-Encoding": "br, gzip"})
    assert css.headers["Content-Encoding"] in ("br", "gzip")
    api_state = client.get(f"/api/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert json_ok(gzip.decompress(api_state.data))


def json_ok(data: bytes) -> bool:
    import json

    return isinstance(json.loads(data), dict)


def test_hands_entry_fills_in_who_went_out(app, client, api):
    from referee.rules.base import Action
    from referee.tiles import full_set
    from referee.web.db import get_store

    game = api.create(game="kozel", players=["Ana", "Ben"])
    gid = game["id"]
    html = html_of(client, f"/games/{gid}/rounds/1/hands")
    assert 'value="out"' not in html  # nobody went out yet
    # Play legal tiles through the API (the engine cannot know the hands) until someone is out.
    for _ in range(40):
        with app.app_context():
            engine = get_store().load(gid).match.engine
        if engine.outcome() is not None:
            break
        player = engine.turn() or "Ana"
        move = next(
            (
                (tile, place)
                for tile in full_set(6)
                if tile not in engine.tiles_on_table()
                for place in engine.targets() or [None]
                if engine.is_legal(Action("play", player, tile, on=place))
            ),
            None,
        )
        body = (
            {"type": "play", "player": player, "tile": str(move[0])}
            if move
            else {"type": "draw", "player": player}
        )
        if move and move[1] is not None:
            body["on"] = str(move[1])
        status, data = api.act(gid, **body)
        assert status == 200, data
    end = api.state(gid)["round"]["end"]
    assert end and end["reason"] == "domino"
    html = html_of(client, f"/games/{gid}/rounds/1/hands")
    index = ["Ana", "Ben"].index(end["player"])
    assert re.search(rf'id="p{index}" name="p{index}" value="out"', html)
    assert 'value="out"' in html and html.count('value="out"') == 1


# ----- the rule book -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "game", "question", "rule"),
    [
        ("en", "mexican-train", "can I play on Ben's train", "mt.train.available"),
        ("en", "mexican-train", "how many tiles", "mt.deal"),
        ("en", "kozel", "fish", "kz.fish"),
        ("hu", "mexican-train", "rakhatok Ben vonatára", "mt.train.available"),
        ("hu", "mexican-train", "hány csont", "mt.deal"),
        ("hi", "mexican-train", "क्या मैं बेन की ट्रेन पर खेल सकता हूँ", "mt.train.available"),
        ("hi", "mexican-train", "कितनी टाइलें", "mt.deal"),
        ("pa", "mexican-train", "ਕੀ ਮੈਂ ਬੇਨ ਦੀ ਟ੍ਰੇਨ 'ਤੇ ਖੇਡ ਸਕਦਾ ਹਾਂ", "mt.train.available"),
        ("pa", "mexican-train", "ਕਿੰਨੀਆਂ ਟਾਈਲਾਂ", "mt.deal"),
    ],
)
def test_rule_search_finds_everyday_questions(lang, game, question, rule):
    top = [hit.rule.id for hit in search(game, question, lang)[:3]]
    assert rule in top, top


def test_rule_search_ignores_words_the_book_never_uses():
    assert search("kozel", "zebra xylophone", "en") == []
    assert search("kozel", "", "en") == []


def test_rules_page_answers_a_question_without_javascript(client):
    html = html_of(client, "/rules/mexican-train?q=how+many+tiles")
    answers = re.search(r'<div id="rule-answers"[^>]*>(.*?)</div>\n', html, re.S).group(1)
    assert 'data-rule="mt.deal"' in answers
    html = html_of(client, "/rules/mexican-train?q=zebra")
    assert "No rule uses these words" in html


@pytest.mark.parametrize("lang", ["en", "hi", "pa", "hu"])
def test_players_never_see_the_books_sources_or_markup(client, lang):
    client.get(f"/lang/{lang}")
    for game in ("mexican-train", "chicken-foot", "kozel"):
        html = html_of(client, f"/rules/{game}")
        text = re.sub(r"<[^>]+>", " ", html)
        assert "`" not in text and "seed" not in text.lower()
        assert not re.search(r"\b00[0-4]\b", text), re.search(r".{40}\b00[0-4]\b.{20}", text)


def test_plain_drops_sources_and_markup():
    assert plain("1. Mexican Train (`mt.*`) — seeds 000, 001, 002") == "1. Mexican Train"
    assert plain("Tiles per player (seed 000): more") == "Tiles per player: more"
    assert plain("2. Tyúkláb (`cf.*`) — 003 forrás") == "2. Tyúkláb"
