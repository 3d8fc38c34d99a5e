"""Plurals through Babel's plural forms in all four languages: "1 tile", "1 was entered",
"(1 game)", never "1 pts" nor "1 were entered"; each catalog names its language's plural
rule and gives every plural message both forms."""

from __future__ import annotations

import html

import pytest
from babel.messages.plurals import get_plural

from referee.match.hands import size_problem
from referee.web.i18n import translate_violation
from tests.i18n.test_catalogs import LANGS, catalog


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_has_its_language_s_plural_rule_and_both_forms(lang):
    po = catalog(lang)
    assert po.plural_expr == get_plural(lang).plural_expr and po.num_plurals == 2
    for message in po:
        if isinstance(message.id, (list, tuple)):
            assert len(message.string) == 2 and all(message.string), message.id


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        (
            "en",
            "Ben holds 1 tile by the log, but 3 were entered.",
            "Ben holds 15 tiles by the log, but 1 was entered.",
        ),
        ("hu", "kezében 1 csont van, de 3 lett beírva", "kezében 15 csont van, de 1 lett beírva"),
        ("hi", "के पास 1 टाइल, पर 3 भरी गईं", "के पास 15 टाइलें, पर 1 भरी गई"),
        ("pa", "ਕੋਲ 1 ਟਾਈਲ, ਪਰ 3 ਭਰੀਆਂ ਗਈਆਂ", "ਕੋਲ 15 ਟਾਈਲਾਂ, ਪਰ 1 ਭਰੀ ਗਈ"),
    ],
)
def test_a_hand_count_refusal_says_one_and_many_rightly(app, lang, one, many):
    with app.test_request_context():
        assert one in translate_violation(size_problem("Ben", 3, {"Ben": 1}), lang)
        assert many in translate_violation(size_problem("Ben", 1, {"Ben": 15}), lang)
    assert size_problem("Ben", 0, {"Ben": 1}).message == "Ben holds 1 tile by the log, but 0 were entered."


def test_pages_count_one_game_and_one_round_in_the_singular(client, api):
    game = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"])
    api.hands(game["id"], 1, {"Ana": 0, "Ben": 7})
    page = html.unescape(client.get("/players/Ana").get_data(as_text=True))
    assert "average round (1 round)" in page
    other = api.create(game="kozel", mode="scores", players=["A", "B"])
    client.delete(f"/api/games/{other['id']}")
    trash = html.unescape(client.get("/trash").get_data(as_text=True))
    assert "Empty the trash (1 game)" in trash and "(1 games)" not in trash
    client.get("/lang/hi")
    trash = html.unescape(client.get("/trash").get_data(as_text=True))
    assert "कूड़ेदान खाली करें (1 खेल)" in trash
