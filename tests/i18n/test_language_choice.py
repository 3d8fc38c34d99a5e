"""Language choice: the lang cookie (set by /lang/<code>), else Accept-Language, else en."""

from __future__ import annotations

import pytest

from referee.web.i18n import COOKIE, LANGUAGES


def probe(client, **headers):
    return client.get("/_i18n_probe", headers=headers).get_data(as_text=True)


def test_default_is_english(i18n_client):
    assert probe(i18n_client) == "en|Game"


@pytest.mark.parametrize(
    "header, expected",
    [
        ("hi-IN,hi;q=0.9,en;q=0.8", "hi|खेल"),
        ("pa-IN,pa;q=0.9", "pa|ਖੇਡ"),
        ("hu-HU,hu;q=0.9,en;q=0.5", "hu|Játék"),
        ("de-DE,de;q=0.9", "en|Game"),
    ],
)
def test_browser_language(i18n_client, header, expected):
    assert probe(i18n_client, **{"Accept-Language": header}) == expected


@pytest.mark.parametrize("code", ["en", "hi", "pa", "hu"])
def test_lang_route_sets_cookie_and_goes_back(i18n_client, code):
    response = i18n_client.get(f"/lang/{code}?next=/games/abc?x=1")
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/games/abc?x=1")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={code};")
    assert "Max-Age=" in cookie and "SameSite=Lax" in cookie
    assert i18n_client.get_cookie(COOKIE).value == code


def test_cookie_beats_the_browser(i18n_client):
    i18n_client.get("/lang/pa")
    assert probe(i18n_client, **{"Accept-Language": "hu"}) == "pa|ਖੇਡ"
    i18n_client.get("/lang/en")
    assert probe(i18n_client, **{"Accept-Language": "hu"}) == "en|Game"


def test_referrer_is_used_without_next(i18n_client):
    response = i18n_client.get("/lang/hu", headers={"Referer": "http://localhost/rules/kozel"})
    assert response.headers["Location"].endswith("/rules/kozel")


@pytest.mark.parametrize("target", ["https://evil.example/x", "//evil.example/x", "javascript:alert(1)"])
def test_no_open_redirect(i18n_client, target):
    response = i18n_client.get("/lang/hi", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_unknown_language_is_404(i18n_client):
    assert i18n_client.get("/lang/xx").status_code == 404
    assert i18n_client.get_cookie(COOKIE) is None


def test_switcher_globals(i18n_app):
    assert LANGUAGES == (("en", "English"), ("hi", "हिन्दी"), ("pa", "ਪੰਜਾਬੀ"), ("hu", "Magyar"))
    with i18n_app.test_request_context("/games/1?tab=x"):
        from flask import render_template_string

        html = render_template_string(
            '{% for code, name in LANGUAGES %}<a href="{{ lang_url(code) }}">{{ name }}</a>{% endfor %}'
        )
    assert (
        'href="/lang/hi?next=/games/1?tab%3Dx"' in html or 'href="/lang/hi?next=/games/1%3Ftab%3Dx"' in html
    )
    assert "ਪੰਜਾਬੀ" in html


def test_forms_can_be_translated(i18n_app):
    from referee.web.forms import NewGameForm
    from referee.web.i18n import translate_form

    with i18n_app.test_request_context("/", headers={"Accept-Language": "hu"}):
        form = translate_form(NewGameForm(meta={"csrf": False}))
        assert form.game.label.text == "Játék"
        assert ("kozel", "Kecske (Kozel)") in [tuple(c[:2]) for c in form.game.choices]
        assert form.players.entries[0].label.text == "Játékos"


@pytest.mark.parametrize(
    "lang, not_a_number, out_of_range",
    [
        (
            "en",
            "Write a whole number with the digits 0-9 (at most 9 of them).",
            "Number must be between 0 and 18.",
        ),
        ("hi", "0-9 अंकों से एक पूर्ण संख्या लिखें (अधिक से अधिक 9 अंक)।", "संख्या 0 और 18 के बीच होनी चाहिए।"),
        ("pa", "0-9 ਅੰਕਾਂ ਨਾਲ ਇੱਕ ਪੂਰੀ ਸੰਖਿਆ ਲਿਖੋ (ਵੱਧ ਤੋਂ ਵੱਧ 9 ਅੰਕ)।", "ਸੰਖਿਆ 0 ਅਤੇ 18 ਦੇ ਵਿਚਕਾਰ ਹੋਣੀ ਚਾਹੀਦੀ ਹੈ।"),
        (
            "hu",
            "Írj egész számot a 0-9 számjegyekkel (legfeljebb 9 számjeggyel).",
            "A szám 0 és 18 között legyen.",
        ),
    ],
)
def test_the_new_game_form_explains_bad_numbers_in_the_language(
    i18n_client, lang, not_a_number, out_of_range
):
    i18n_client.set_cookie("lang", lang)
    response = i18n_client.post(
        "/games/new",
        data={
            "game": "mexican-train",
            "mode": "referee",
            "players-0": "Ana",
            "players-1": "Ben",
            "mt_hand_size": "lots",
            "mt_first_double": "99",
            "start": "1",
        },
    )
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert f'<span class="field-error">{not_a_number}</span>' in html
    assert f'<span class="field-error">{out_of_range}</span>' in html
    assert i18n_client.get("/api/games").get_json()["games"] == []  # nothing was created
