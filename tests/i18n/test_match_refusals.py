"""Refusals of the match (entered hands, player names, undo …), malformed input
(``BadRequest``) and the table PIN page, in Hindi, Punjabi and Hungarian.

The match and the option checks build their refusals with ``refuse``/``bad_request``
templates; the pages show them through ``translate_violation``; the JSON API keeps the
English sentence (the API contract).
"""

from __future__ import annotations

import html
import re

import pytest

from referee.match import GameConfig, Match
from referee.rules.base import Action, BadRequest, RuleViolation
from referee.web.i18n import translate_violation
from tests.web.page_helpers import MT_FORM, refusal, text

LANGS = ("hi", "pa", "hu")
SCRIPT = {"hi": (0x0900, 0x097F), "pa": (0x0A00, 0x0A7F)}
HU_LETTERS = set("áéíóöőúüűÁÉÍÓÖŐÚÜŰ")  # Hungarian has no script of its own: its accents


def refusal_box(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", refusal(body)))


def in_language(sentence: str, lang: str) -> bool:
    if lang in SCRIPT:
        low, high = SCRIPT[lang]
        return any(low <= ord(ch) <= high for ch in sentence)
    return any(ch in HU_LETTERS for ch in sentence)


def choose(client, lang: str) -> None:
    assert client.get(f"/lang/{lang}").status_code == 303


# ----- the core: English unchanged, a template to translate ---------------------------------


def score_pad(players=("Ana", "Ben", "Caro")) -> Match:
    return Match(
        GameConfig.from_json({"game": "mexican-train", "mode": "scores", "set": 9, "players": list(players)})
    )


def refused(call, kind=RuleViolation):
    with pytest.raises(kind) as caught:
        call()
    return caught.value


def test_match_refusals_keep_their_english_and_carry_a_template():
    match = score_pad()
    error = refused(lambda: match.enter_hands(1, {"hands": {"Ana": ["5-6", "6-5"], "Ben": 3, "Caro": []}}))
    assert error.rule_id == "unique"
    assert error.message == "5-6 is entered twice in Ana's hand: each tile exists once."
    assert error.template == "{tile} is entered twice in {player}'s hand: each tile exists once."
    error = refused(lambda: match.apply(Action("undo")))
    assert error.message == "There is no entry to undo." and error.template == error.message
    error = refused(lambda: match.apply(Action("play", "Zed")))
    assert error.message == "There is no player called 'Zed' in this game."
    error = refused(lambda: GameConfig.from_json({"game": "kozel", "set": 12, "players": ["A", "B"]}))
    assert (error.rule_id, error.message) == ("kz.players", "Kozel is played with double-6, not double-12.")


def test_bad_requests_keep_their_english_and_carry_a_template():
    error = refused(lambda: GameConfig.from_json({"game": "kozel", "players": ["<b>", "C"]}), BadRequest)
    assert error.message == "A player name may not contain '<' or '>'." and error.field == "players"
    assert error.template == error.message
    error = refused(
        lambda: score_pad().enter_hands(1, {"hands": {"Ana": ["abc"], "Ben": 1, "Caro": 2}}), BadRequest
    )
    assert error.message == "Ana's hand: 'abc' is not a tile: write it as two numbers like \"5-12\"."
    assert error.template == "{player}'s hand: {error}"
    error = refused(
        lambda: GameConfig.from_json(
            {"game": "mexican-train", "players": ["A", "B"], "options": {"double_blank": 7}}
        ),
        BadRequest,
    )
    assert error.message == "Option 'double_blank' must be one of 0, 25, 50."
    assert error.params == {"key": "double_blank", "allowed": "0, 25, 50"}


@pytest.mark.parametrize("lang", LANGS)
def test_match_refusals_and_bad_requests_translate(lang):
    match = score_pad()
    errors = [
        refused(lambda: match.enter_hands(1, {"hands": {"Ana": ["5-6"], "Ben": ["6-5"], "Caro": []}})),
        refused(lambda: match.enter_hands(1, {"hands": {"Ana": [], "Ben": [], "Caro": 3}})),
        refused(lambda: match.enter_hands(1, {"hands": {"Ana": 3}})),
        refused(lambda: match.apply(Action("undo"))),
        refused(lambda: match.apply(Action("leave", "Ana"))),
        refused(lambda: GameConfig.from_json({"game": "chicken-foot", "set": 6, "players": ["A", "B"]})),
        refused(lambda: GameConfig.from_json({"game": "kozel", "players": ["Ana", "ana"]}), BadRequest),
        refused(lambda: match.enter_hands(1, {"hands": {"Ana": ["x"], "Ben": 1, "Caro": 2}}), BadRequest),
        refused(
            lambda: GameConfig.from_json(
                {
                    "game": "mexican-train",
                    "players": ["A", "B"],
                    "options": {"first_double": 3, "last_double": 5},
                }
            ),
            BadRequest,
        ),
    ]
    for error in errors:
        assert error.template, error
        sentence = translate_violation(error, lang)
        assert sentence != error.message and in_language(sentence, lang), (error.message, sentence)
    # the values keep their place: names and tiles appear in the translation
    assert "Ana" in translate_violation(errors[0], lang) and "5-6" in translate_violation(errors[0], lang)
    # a game's title and the sets inside a refusal are translated too
    sets = translate_violation(errors[5], lang)
    assert "Chicken Foot" not in sets and "double-9" not in sets and "9" in sets


# ----- the pages ----------------------------------------------------------------------------


def hands(client, game_id, number, *entries):
    return client.post(
        f"/games/{game_id}/rounds/{number}/hands", data={f"p{i}": entry for i, entry in enumerate(entries)}
    )


@pytest.mark.parametrize("lang", LANGS)
def test_hands_page_shows_a_match_refusal_in_the_language(client, api, lang):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    choose(client, lang)
    response = hands(client, game["id"], 1, "5-6 6-5", "3", "out")  # a tile entered twice
    assert response.status_code == 422
    box = refusal_box(text(response))
    assert "unique" in box and "5-6" in box and "Ana" in box
    assert "entered twice" not in box and "each tile exists once" not in box
    assert in_language(box, lang), box
    # another refusal of the match: one hand missing is not possible on the form, but two
    # players out is
    box = refusal_box(text(hands(client, game["id"], 1, "out", "3", "out")))
    assert "Only one player" not in box and in_language(box, lang), box
    # a malformed entry (BadRequest of the form) too
    box = refusal_box(text(hands(client, game["id"], 1, "abc", "3", "out")))
    assert "is not a tile" not in box and "abc" in box and in_language(box, lang), box
    # the API keeps the English sentence
    status, data = api.hands(game["id"], 1, {"Ana": ["5-6", "6-5"], "Ben": 3, "Caro": []})
    assert status == 422
    assert data["error"] == "5-6 is entered twice in Ana's hand: each tile exists once."


def new_game(client, players, **fields):
    data = dict(MT_FORM, **fields)
    for index, name in enumerate(players):
        data[f"players-{index}"] = name
    return client.post("/games/new", data=data)


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_form_shows_a_bad_request_in_the_language(client, api, lang):
    choose(client, lang)
    response = new_game(client, ["<b>Ana</b>", "Ben"])
    assert response.status_code == 422
    box = refusal_box(text(response))
    assert "may not contain" not in box and "'<' or '>'" not in box
    assert "'<'" in box and in_language(box, lang), box
    box = refusal_box(text(new_game(client, ["Ana", "ana"])))
    assert "must be unique" not in box and "'ana'" in box and in_language(box, lang), box
    box = refusal_box(text(new_game(client, ["Ana", "Ben"], game="kozel", set="12")))
    assert "is played with" not in box and "Kozel" not in box and in_language(box, lang), box
    # the same body through the API: English
    status, data = api.post("/api/games", {"game": "kozel", "players": ["<b>Ana</b>", "Ben"]})
    assert status == 400 and data["error"] == "A player name may not contain '<' or '>'."


ENGLISH_UNLOCK = (
    "Table PIN",
    "Anyone can watch this game",
    "Just watch",
    "Back to the game",
    "Unlock",
    "Language",
    "Domino Referee</a>",
)


@pytest.mark.parametrize("lang", LANGS)
def test_unlock_page_in_the_language(client, api, lang):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"], pin="2468")
    gid = game["id"]
    choose(client, lang)
    body = text(client.get(f"/games/{gid}/unlock"))
    main = body[body.index("<header") :]
    for english in ENGLISH_UNLOCK:
        assert english not in main, english
    assert in_language(re.sub(r"<[^>]+>", " ", main), lang)
    # a wrong PIN, a malformed PIN and an empty one: the problem is in the language too
    for pin, status, english in (
        ("1357", 403, "nothing was unlocked"),
        ("12", 400, "4 to 12 digits"),
        ("", 400, "Enter the table PIN"),
    ):
        response = client.post(f"/games/{gid}/unlock", data={"pin": pin})
        assert response.status_code == status
        problem = re.search(r'<p class="refusal" role="alert">(.*?)</p>', text(response), re.S).group(1)
        assert english not in problem and in_language(html.unescape(problem), lang), problem
    # a game without a PIN
    open_game = api.create(game="kozel", mode="scores", players=["Masha", "Alex"])
    body = text(client.get(f"/games/{open_game['id']}/unlock"))
    assert "has no table PIN" not in body and "Back to the game" not in body
    # the right PIN still unlocks
    response = client.post(f"/games/{gid}/unlock", data={"pin": "2468"})
    assert response.status_code == 303


def test_unlock_page_in_english_is_unchanged(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"], pin="2468")
    body = text(client.get(f"/games/{game['id']}/unlock"))
    for english in ENGLISH_UNLOCK:
        assert english in body, english
    response = client.post(f"/games/{game['id']}/unlock", data={"pin": "12"})
    assert "A table PIN is 4 to 12 digits." in text(response)


@pytest.mark.parametrize("lang", ["hi", "pa", "hu"])
def test_chicken_foot_tie_break_sentence_is_translated(lang):
    from referee.rules.base import RoundEnd, RoundRecord
    from referee.rules.scoring import lowest_total_winners
    from referee.web.i18n import translate_text

    rounds = [
        RoundRecord(1, None, {"Ana": 0, "Ben": 5}, RoundEnd("domino", "Ana")),
        RoundRecord(2, None, {"Ana": 10, "Ben": 5}, RoundEnd("domino", "Ben")),
    ]
    winners, how = lowest_total_winners(("Ana", "Ben"), rounds, "chicken-foot")
    assert winners == ["Ana"]
    assert str(how) == "Ana wins the tie on 10 points with one zero-point round (cf.tie)."
    translated = translate_text(how, lang)
    assert translated != str(how) and "Ana" in translated and "10" in translated
