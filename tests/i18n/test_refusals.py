"""Refusals of the two engines carry a template and come out translated."""

from __future__ import annotations

import pytest

from referee.rules.base import Action, Phrase, RuleViolation, refuse
from referee.rules.kozel import Kozel, KozelOptions, redeal_check
from referee.rules.mexican_train import MexicanTrain
from referee.tiles import Tile
from referee.web.i18n import translate_text, translate_violation

LANGS = ("hi", "pa", "hu")
SCRIPT = {"hi": (0x0900, 0x097F), "pa": (0x0A00, 0x0A7F)}


def mexican_round():
    players = ("Ana", "Ben", "Caro")
    options = MexicanTrain.parse_options({}, 12, players)
    return MexicanTrain.Round(MexicanTrain.round_setup(1, players, 12, options, []))


def kozel_round():
    players = ("Masha", "Alex")
    options = Kozel.parse_options({}, 6, players)
    return Kozel.Round(Kozel.round_setup(1, players, 6, options, []))


def refusal(engine, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        engine.apply(action)
    return caught.value


def assert_translated(error_or_text, english, lang, translated):
    assert translated and translated != english
    if lang in SCRIPT:
        low, high = SCRIPT[lang]
        assert any(low <= ord(ch) <= high for ch in translated), translated


def test_template_and_message_agree():
    error = refusal(mexican_round(), Action("play", "Ben", Tile(12, 3), "Ben"))
    assert error.rule_id == "turn"
    assert error.template == "It is {on_turn}'s turn, not {player}'s."
    assert error.params == {"on_turn": "Ana", "player": "Ben"}
    assert error.message == "It is Ana's turn, not Ben's."
    assert str(error) == "[turn] It is Ana's turn, not Ben's."


@pytest.mark.parametrize("lang", LANGS)
def test_mexican_train_refusals(lang):
    engine = mexican_round()
    for action in (
        Action("play", "Ben", Tile(12, 3), "Ben"),  # turn
        Action("play", "Ana", Tile(3, 4), "Ben"),  # mt.train.available
        Action("play", "Ana", Tile(3, 4), "Ana"),  # mt.match
        Action("pass", "Ana"),
    ):  # mt.marker.place
        error = refusal(engine, action)
        assert error.template, error
        text = translate_violation(error, lang)
        assert_translated(error, error.message, lang, text)
        assert "Ana" in text


def test_nested_phrase_is_translated():
    error = refusal(mexican_round(), Action("play", "Ana", Tile(3, 4), "mexican"))
    assert error.rule_id == "mt.match"
    assert isinstance(error.params["train"], Phrase)
    assert "मैक्सिकन ट्रेन" in translate_violation(error, "hi")
    assert "mexikói vonat" in translate_violation(error, "hu")


@pytest.mark.parametrize("lang", LANGS)
def test_kozel_refusals(lang):
    engine = kozel_round()
    engine.apply(Action("start", "Masha"))
    for action in (
        Action("pass", "Masha"),  # kz.bazaar (empty line)
        Action("play", "Alex", Tile(1, 1)),
    ):  # turn
        error = refusal(engine, action)
        text = translate_violation(error, lang)
        assert_translated(error, error.message, lang, text)
    engine.apply(Action("play", "Masha", Tile(1, 1)))
    error = refusal(engine, Action("pass", "Alex"))  # bazaar still has tiles
    assert error.rule_id == "kz.bazaar" and error.params == {"count": 14}
    text = translate_violation(error, lang)
    assert_translated(error, error.message, lang, text)
    assert "14" in text
    error = refusal(engine, Action("play", "Alex", Tile(2, 3)))  # kz.match, nested ends
    assert error.rule_id == "kz.match"
    assert_translated(error, error.message, lang, translate_violation(error, lang))


def test_seed_terms_in_refusals():
    engine = kozel_round()
    engine.apply(Action("start", "Masha"))
    engine.apply(Action("play", "Masha", Tile(1, 1)))
    error = refusal(engine, Action("pass", "Alex"))
    assert "bazár" in translate_violation(error, "hu")
    assert "बाज़ार" in translate_violation(error, "hi")
    assert "ਬਾਜ਼ਾਰ" in translate_violation(error, "pa")


def test_english_and_unknown_language_keep_the_message():
    error = refusal(mexican_round(), Action("play", "Ben", Tile(12, 3), "Ben"))
    assert translate_violation(error, "en") == error.message
    assert translate_violation(error, "xx") == error.message
    plain = RuleViolation("turn", "An old-style refusal.")
    assert translate_violation(plain, "hi") == "An old-style refusal."


def test_untranslated_template_falls_back_to_english():
    error = refuse("turn", "A sentence no catalog has, {name}.", name="Ana")
    assert translate_violation(error, "hu") == "A sentence no catalog has, Ana."


@pytest.mark.parametrize("lang", LANGS)
def test_reminders_redeal_and_scoresheet_lines(lang):
    engine = mexican_round()
    reminder = engine.reminders()[-1]["text"]
    assert isinstance(reminder, Phrase)
    assert_translated(reminder, str(reminder), lang, translate_text(reminder, lang))
    _again, verdict = redeal_check(["1-1", "2-2", "3-3", "4-4", "5-5", "0-6", "1-6"])
    assert_translated(verdict, str(verdict), lang, translate_text(verdict, lang))
    for line in Kozel.rules_in_force(KozelOptions()) + MexicanTrain.rules_in_force(
        MexicanTrain.parse_options({}, 12, ("a", "b"))
    ):
        assert_translated(line, str(line), lang, translate_text(line, lang))
    assert translate_text("plain text", lang) == "plain text"
