"""The hands page lists every problem of an entry at once, in one save (a tile written wrong,
a duplicate, a tile outside the set, counts that disagree with the log), each with its
rule's sentence and the rule id as a link; and a counted hand may be typed as a sum."""

from __future__ import annotations

import html
import re

from tests.web.page_helpers import refusal


def post(client, game_id, *entries):
    return client.post(
        f"/games/{game_id}/rounds/1/hands", data={f"p{i}": entry for i, entry in enumerate(entries)}
    )


def test_every_problem_of_an_entry_is_listed_at_once_with_its_rule(client, api):
    game = api.create(game="mexican-train", set=9, players=["Ana", "Ben", "Caro", "Dee"])  # referee
    response = post(client, game["id"], "0-1 0-1 9-10", "0-1 3-4", "5-x", "7")
    assert response.status_code == 422
    box = html.unescape(refusal(response.get_data(as_text=True)))
    items = re.findall(r'<li data-rule="([^"]*)" data-player="([^"]+)">', box)
    assert items == [
        ("", "Caro"),  # a tile written wrong: no rule, a sentence on how to write it
        ("unique", "Ana"),
        ("tiles", "Ana"),
        ("hidden", "Ana"),
        ("unique", "Ben"),
        ("hidden", "Ben"),
    ]
    assert "6 things to fix before the round is saved" in box
    assert "0-1 is entered twice in Ana's hand" in box and "There is no 9-10 in a double-9 set" in box
    assert "Ana holds 10 tiles by the log, but 3 were entered." in box
    for rule in ("unique", "tiles", "hidden"):  # each rule's own sentence once, its id a link
        assert box.count(f'<p class="rule-sentence" data-rule="{rule}">') == 1
        assert f'href="/rules/mexican-train#rule-{rule}">{rule}</a>' in box
    assert "Each tile exists once." in box
    assert api.state(game["id"])["version"] == 1  # nothing booked
    # in Hungarian, the sentences and the rules' own words in Hungarian
    client.get("/lang/hu")
    box = html.unescape(refusal(post(client, game["id"], "0-1 0-1", "7", "7", "7").get_data(as_text=True)))
    assert "kétszer" in box and 'href="/rules/mexican-train#rule-unique">unique</a>' in box


def test_a_counted_hand_may_be_a_sum(client, api):
    pad = api.create(game="mexican-train", mode="scores", set=9, players=["Ana", "Ben", "Caro"])
    response = post(client, pad["id"], "10+15+8", "4 + 3", "out")
    assert response.status_code == 303
    assert api.state(pad["id"])["rounds"][0]["points"] == {"Ana": 33, "Ben": 7, "Caro": 0}
    refused = post(client, pad["id"], "10+x", "1", "out")
    assert refused.status_code == 422 and "is not a number of points" in html.unescape(
        refusal(refused.get_data(as_text=True))
    )
