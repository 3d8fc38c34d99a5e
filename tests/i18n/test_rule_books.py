"""The translated rule books: same ids, in the same order, each with its own text."""

from __future__ import annotations

import re

import pytest

from referee.rules import GAMES, book

LANGS = book.TRANSLATED
ENGLISH = {rule.id: rule for rule in book.all_rules("en")}
CODE = re.compile(r"`[^`]*`|\b[a-z]{2}\.[a-z0-9.\-]+\b|\(?[a-z_]+ = [a-z]+\)?")
ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|player|players|tile|tiles|round|train|must|"
    r"which|when|until|every|their|double)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", LANGS)
def test_same_ids_in_the_same_order(lang):
    translated = book.read_book(book.rules_file(lang))  # the file itself, without fallback
    assert book.rules_file(lang).name == f"RULES.{lang}.md"
    assert [rule.id for rule in translated] == list(ENGLISH)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_translated(lang):
    for rule in book.read_book(book.rules_file(lang)):
        assert rule.text.strip(), rule.id
        assert rule.text != ENGLISH[rule.id].text, f"{lang} {rule.id} is the English text"
        prose = CODE.sub(" ", rule.text)
        leftovers = ENGLISH_WORDS.findall(prose)
        assert not leftovers, f"{lang} {rule.id}: English words left: {leftovers}"


# Latin words an Indic rule book keeps: option names and values, written as in the API.
KEPT = {
    "first_turn",
    "build",
    "newest",
    "end",
    "zero_zero",
    "lose_at",
    "true",
    "false",
    "teams",
    "rounds_per_stage",  # a club night's field (API.md, "Club nights")
} | {
    str(word)
    for rules in GAMES.values()
    for option in rules.declaration.options
    for word in (option.name, *option.values)
}


@pytest.mark.parametrize("lang", ("hi", "pa"))
def test_indic_books_are_in_their_script(lang):
    """Besides rule ids, tiles (`a-b`) and option names, no Latin word is left."""
    for rule in book.read_book(book.rules_file(lang)):
        prose = CODE.sub(" ", rule.text)
        latin = [word for word in re.findall(r"[A-Za-z_]{2,}", prose) if word not in KEPT]
        assert not latin, f"{lang} {rule.id}: {latin}"


def test_seed_terms_are_used():
    hu = book.rules_file("hu").read_text(encoding="utf-8")
    for word in ("bazár", "hal", "kecske", "csont", "dupla", "vonat", "jelző"):
        assert word in hu.lower(), word
    hi = book.rules_file("hi").read_text(encoding="utf-8")
    for word in ("हड्डी के ढेर", "ट्रेन", "मार्कर", "डबल", "चिकन यार्ड"):
        assert word in hi, word
    pa = book.rules_file("pa").read_text(encoding="utf-8")
    for word in ("ਹੱਡੀਆਂ ਦੇ ਢੇਰ", "ਟ੍ਰੇਨ", "ਮਾਰਕਰ", "ਡਬਲ"):
        assert word in pa, word


@pytest.mark.parametrize("lang", LANGS)
def test_rules_for_and_rule_text(lang):
    for game in GAMES:
        assert [r.id for r in book.rules_for(game, lang)] == [r.id for r in book.rules_for(game)]
    assert book.rule_text("mt.double.open", lang) != book.rule_text("mt.double.open")
    assert book.rule_text("no.such.rule", lang) is None


def test_english_is_default_and_fallback():
    assert book.rule_text("kz.fish") == book.rule_text("kz.fish", "en")
    assert book.rule_text("kz.fish", "xx") == book.rule_text("kz.fish")
    assert book.rules_for("kozel", "de") == book.rules_for("kozel")
