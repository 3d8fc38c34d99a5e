"""The home page: the game being played comes first (by its last play, before the games
not begun, however new), each game says when it was last played (or made) in the page's
language, and identical games are told apart by their set, round and last play."""

from __future__ import annotations

import html
import re


def test_the_game_being_played_comes_first_with_its_set_round_and_last_play(client, api):
    played = api.create(game="mexican-train", mode="scores", set=12, players=["Ana", "Ben"])
    api.hands(played["id"], 1, {"Ana": 0, "Ben": 7})
    untouched = [
        api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben"]) for _ in range(3)
    ]
    page = html.unescape(client.get("/").get_data(as_text=True))
    ids = [i for i in re.findall(r'href="/games/([\w-]+)"', page) if i != "new"]
    assert ids[0] == played["id"] and ids.index(untouched[-1]["id"]) < ids.index(untouched[0]["id"])
    card = page[page.index(f'href="/games/{played["id"]}"') :]
    card = card[: card.index("</a>")]
    assert "double-12" in card and "Round 2" in card and "last play just now" in card
    assert "nothing logged yet" in page and "double-9" in page
    # in Hungarian, the same words in Hungarian
    client.get("/lang/hu")
    page = html.unescape(client.get("/").get_data(as_text=True))
    assert "utolsó lépés" in page and "dupla-12" in page


def test_dates_are_said_plainly_in_the_page_s_language(app):
    from datetime import UTC, datetime, timedelta

    from referee.web.i18n import when_text

    now = datetime.now(UTC)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert when_text(now - timedelta(hours=3)) == "3 hours ago"
        assert when_text(now - timedelta(days=40)) == (now - timedelta(days=40)).strftime("%b %-d, %Y")
        assert when_text("not a date at all") == "not a date"
    with app.test_request_context(headers={"Accept-Language": "hu"}):
        assert when_text(now - timedelta(hours=3)) == "3 órával ezelőtt"
