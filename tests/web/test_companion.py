"""The companion: statistics across games, the totals chart, the follow view and its live
stream, the QR code, the installable app's files and the PDF route (client level)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import segno

from referee.match import GameConfig, Match
from referee.stats import leaderboard, player_key, player_stats, summarize
from referee.web.chart import chart_svg, running_totals
from referee.web.companion import share

SVG = "{http://www.w3.org/2000/svg}"


def pad(game: str, players: list[str], rounds: list[dict], **options) -> Match:
    """A score-pad match with the given round points entered."""
    body = {"game": game, "players": players, "mode": "scores"}
    if game == "mexican-train":
        body["set"] = 12
    if options:
        body["options"] = options
    match = Match(GameConfig.from_json(body))
    for number, points in enumerate(rounds, start=1):
        match.enter_hands(number, {"hands": points})
    return match


def short_mt(rounds: list[dict], players=("Ana", "Ben", "Caro")) -> Match:
    """Mexican Train of three rounds (engines 2-2, 1-1, 0-0)."""
    return pad("mexican-train", list(players), rounds, first_double=2, last_double=0)


# ----- statistics ------------------------------------------------------------------------


def test_summary_of_a_finished_mexican_train_game():
    match = short_mt(
        [{"Ana": 0, "Ben": 10, "Caro": 30}, {"Ana": 12, "Ben": 0, "Caro": 5}, {"Ana": 3, "Ben": 4, "Caro": 0}]
    )
    summary = summarize("g1", "2026-01-01T10:00:00+00:00", match)
    assert summary.finished and summary.totals == {"Ana": 15, "Ben": 14, "Caro": 35}
    assert summary.winners == ("Ben",)
    assert [summary.place(p) for p in ("Ben", "Ana", "Caro")] == [1, 2, 3]


def test_player_record_wins_averages_best_worst_and_head_to_head():
    g1 = summarize(
        "g1",
        "2026-01-01",
        short_mt(
            [
                {"Ana": 0, "Ben": 10, "Caro": 30},
                {"Ana": 12, "Ben": 0, "Caro": 5},
                {"Ana": 3, "Ben": 4, "Caro": 0},
            ]
        ),
    )  # Ben 14 < Ana 15 < Caro 35
    g2 = summarize(
        "g2",
        "2026-01-02",
        short_mt([{"ana": 0, "Ben": 50}, {"ana": 1, "Ben": 2}, {"ana": 0, "Ben": 0}], players=("ana", "Ben")),
    )  # ana 1 < Ben 52
    g3 = summarize("g3", "2026-01-03", short_mt([{"Ana": 99, "Ben": 0, "Caro": 7}]))  # unfinished
    stats = player_stats([g1, g2, g3])
    ana = stats[player_key("Ana")]
    assert ana.name == "Ana"  # the newest spelling
    assert (ana.games, ana.finished, ana.wins) == (3, 2, 1)
    assert ana.rounds == 7 and ana.round_points == 0 + 12 + 3 + 0 + 1 + 0 + 99
    assert ana.average_round == pytest.approx(115 / 7)
    assert ana.best.points == 0 and ana.worst.points == 99 and ana.worst.game_id == "g3"
    assert ana.worst.number == 1
    ben = ana.head_to_head[player_key("Ben")]
    assert (ben.games, ben.ahead, ben.behind, ben.level) == (2, 1, 1, 0)
    caro = ana.head_to_head[player_key("Caro")]
    assert (caro.games, caro.ahead, caro.behind) == (1, 1, 0)  # the unfinished game does not count
    assert stats[player_key("Caro")].head_to_head[player_key("Ana")].behind == 1
    assert sorted(g.id for g in ana.history) == ["g1", "g2", "g3"]


def test_shared_win_and_level_head_to_head():
    g = summarize(
        "g",
        "2026-02-01",
        short_mt([{"Ana": 5, "Ben": 5}, {"Ana": 0, "Ben": 0}, {"Ana": 1, "Ben": 1}], players=("Ana", "Ben")),
    )
    assert g.winners == ("Ana", "Ben")
    stats = player_stats([g])
    assert stats["ana"].wins == stats["ben"].wins == 1
    assert stats["ana"].head_to_head["ben"].level == 1


def kozel_game(**options) -> Match:
    # Ana goes out every round; Ben scores 60 twice: account opens and passes lose_at 101.
    return pad(
        "kozel",
        ["Ana", "Ben", "Caro"],
        [{"Ana": 0, "Ben": 60, "Caro": 20}, {"Ana": 0, "Ben": 60, "Caro": 5}],
        **options,
    )


def test_kozel_winner_is_the_best_rating_and_the_goat_is_last():
    match = kozel_game()
    assert match.finished and list(match.result.goats) == ["Ben"]
    summary = summarize("k", "2026-03-01", match)
    assert summary.winners == ("Ana",)  # account 0 → most rating points
    assert summary.place("Ben") == 3
    stats = player_stats([summary])
    assert stats["ben"].goat == 1 and stats["ana"].rating_points == match.result.rating["Ana"]
    board = leaderboard([summary], "kozel")
    assert [row.name for row in board] == ["Ana", "Caro", "Ben"]


def test_leaderboard_orders_by_wins_then_rate_and_filters_by_game():
    a = summarize(
        "a", "1", short_mt([{"Ana": 0, "Ben": 9}, {"Ana": 0, "Ben": 9}, {"Ana": 0, "Ben": 9}], ("Ana", "Ben"))
    )
    b = summarize(
        "b", "2", short_mt([{"Ana": 0, "Ben": 9}, {"Ana": 0, "Ben": 9}, {"Ana": 0, "Ben": 9}], ("Ana", "Ben"))
    )
    k = summarize("k", "3", kozel_game())
    board = leaderboard([a, b, k], "mexican-train")
    assert [(r.name, r.wins, r.finished) for r in board] == [("Ana", 2, 2), ("Ben", 0, 2)]
    assert all(r.games == 2 for r in board)  # the kozel game is not in this board
    assert leaderboard([a, b], "chicken-foot") == []


# ----- chart -----------------------------------------------------------------------------


def polyline_points(svg: str) -> list[list[tuple[float, float]]]:
    root = ET.fromstring(str(svg))
    return [
        [tuple(map(float, pair.split(","))) for pair in line.get("points").split()]
        for line in root.iter(SVG + "polyline")
    ]


def test_running_totals_per_round():
    match = short_mt([{"Ana": 0, "Ben": 10, "Caro": 30}, {"Ana": 12, "Ben": 0, "Caro": 5}])
    series = running_totals(match)
    assert series.rounds == [1, 2] and series.last_round == 3
    assert series.totals == {"Ana": [0, 12], "Ben": [10, 10], "Caro": [30, 35]}


def test_chart_is_accessible_labelled_svg_with_one_line_per_player():
    match = short_mt([{"Ana": 0, "Ben": 10, "Caro": 30}, {"Ana": 12, "Ben": 0, "Caro": 5}])
    svg = str(chart_svg(match, "c1"))
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("role") == "img" and root.get("aria-labelledby") == "c1-title c1-desc"
    assert root.find(SVG + "title").text.startswith("Running totals")
    desc = root.find(SVG + "desc").text
    assert "Caro: round 1 30, round 2 35" in desc
    lines = polyline_points(svg)
    assert len(lines) == 3 and all(len(points) == 3 for points in lines)  # origin + 2 rounds
    # y grows downwards: Caro (35) ends highest on the chart, Ana (12) above Ben (10)
    ends = {name: pts[-1][1] for name, pts in zip(("Ana", "Ben", "Caro"), lines)}
    assert ends["Caro"] < ends["Ana"] < ends["Ben"]
    labels = [t.text for t in root.iter(SVG + "text") if t.get("class") == "series-label"]
    assert labels == ["Ana 12", "Ben 10", "Caro 35"]
    assert "currentColor" in svg  # axes and text follow the page colour (light and dark)


def test_chart_labels_never_overlap_and_names_are_escaped():
    match = short_mt([{"A&b": 10, "Ben": 10, "Caro": 11}], players=("A&b", "Ben", "Caro"))
    svg = str(chart_svg(match, "c2"))
    root = ET.fromstring(svg)
    ys = sorted(float(t.get("y")) for t in root.iter(SVG + "text") if t.get("class") == "series-label")
    assert all(b - a >= 14 for a, b in zip(ys, ys[1:]))
    assert "A&amp;b 10" in svg


def test_chart_without_rounds_says_so():
    svg = str(chart_svg(short_mt([]), "c3"))
    ET.fromstring(svg)
    assert "No round scored yet" in svg and "<polyline" not in svg


def test_kozel_chart_uses_the_booked_account_and_shows_the_goat_line():
    # Caro: 20 opens her account in round 1, then +5 booked; Ana always 0; Ben 60 → 120.
    series = running_totals(kozel_game())
    assert series.totals == {"Ana": [0, 0], "Ben": [60, 120], "Caro": [20, 25]}
    assert series.threshold == 101
    remembered = running_totals(pad("kozel", ["Ana", "Ben"], [{"Ana": 0, "Ben": 7}]))
    assert remembered.totals["Ben"] == [0]  # 7 is remembered, not booked
    svg = str(chart_svg(kozel_game(), "k"))
    assert 'class="goat-line"' in svg and "goat at 101" in svg


# ----- pages -----------------------------------------------------------------------------


def test_follow_page_shows_round_turn_trains_and_scores(api, client):
    game = api.create(game="mexican-train", players=["Ana", "Bén", "Caro"], set=12)
    status, state = api.act(game["id"], type="play", player="Ana", tile="12-5", train="Ana")
    assert status == 200, state
    html = client.get(f"/games/{game['id']}/follow").get_data(as_text=True)
    assert "Round 1 of 13" in html
    assert "<strong>Bén</strong> to play" in html
    assert 'aria-label="12-5"' in html  # Ana's train, drawn from the engine out
    assert "Mexican train" in html and 'class="totals-chart"' in html
    assert f'data-version="{state["version"]}"' in html
    fragment = client.get(f"/games/{game['id']}/follow/fragment")
    assert fragment.status_code == 200 and fragment.headers["Cache-Control"] == "no-store"
    assert "<html" not in fragment.get_data(as_text=True)


def test_follow_page_escapes_names(api, client):
    game = api.create(game="kozel", players=["Ana & Co", '"Ben"', "Caro"])
    html = client.get(f"/games/{game['id']}/follow").get_data(as_text=True)
    assert "Ana &amp; Co" in html and "&#34;Ben&#34;" in html
    assert "Line ends" not in html and "No tile on the table yet" in html


def test_follow_of_an_unknown_game_is_404(client):
    for path in (
        "/games/nope/follow",
        "/games/nope/follow/fragment",
        "/games/nope/events/stream",
        "/games/nope/follow/qr.svg",
        "/games/nope/share",
        "/games/nope/scoresheet.pdf",
    ):
        assert client.get(path).status_code == 404, path


def read_events(response, limit: int) -> list[tuple[str | None, str]]:
    events, buffer = [], ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1)
                for line in block.splitlines()
                if ": " in line and not line.startswith(":")
            )
            if "data" in fields:
                events.append((fields.get("id"), fields["data"]))
        if len(events) >= limit:
            break
    response.close()
    return events


def test_event_stream_sends_the_version_and_each_new_one(app, api):
    app.config.update(FOLLOW_STREAM_SECONDS=3, FOLLOW_STREAM_POLL=0.05)
    game = api.create(game="mexican-train", players=["Ana", "Ben"], set=9)
    client = app.test_client()
    response = client.get(f"/games/{game['id']}/events/stream", buffered=False)
    assert response.mimetype == "text/event-stream" and response.headers["Cache-Control"] == "no-store"
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    assert b'"version": 1' in next(chunks)
    api.act(game["id"], type="draw", player="Ana")
    assert b'id: 2\nevent: version\ndata: {"version": 2}' in next(chunks)
    response.close()


def test_event_stream_resumes_from_last_event_id_and_ends_in_bounded_time(app, api):
    import time

    app.config.update(FOLLOW_STREAM_SECONDS=0.3, FOLLOW_STREAM_POLL=0.05)
    game = api.create(game="mexican-train", players=["Ana", "Ben"], set=9)
    started = time.monotonic()
    body = (
        app.test_client()
        .get(f"/games/{game['id']}/events/stream", headers={"Last-Event-ID": "1"})
        .get_data(as_text=True)
    )
    assert time.monotonic() - started < 3
    assert "event: version" not in body  # already up to date: nothing to send
    body = app.test_client().get(f"/games/{game['id']}/events/stream?since=0").get_data(as_text=True)
    assert 'data: {"version": 1}' in body


def test_qr_code_encodes_the_absolute_follow_url(api, client):
    game = api.create(game="chicken-foot", players=["Ana", "Ben"])
    response = client.get(f"/games/{game['id']}/follow/qr.svg")
    assert response.mimetype == "image/svg+xml"
    # the follow address carries the game's send code (a phone that scans it can send a hand)
    url = re.search(rb"QR code: ([^<\s]+)", response.data).group(1).decode()
    assert re.fullmatch(rf"http://localhost/games/{game['id']}/follow\?code=[a-z2-7]{{16}}", url)
    expected = segno.make(url, error="m")
    assert response.data == share.qr_svg(url)
    assert f"QR code: {url}".encode() in response.data
    # the drawn modules are exactly the matrix of a code made for that URL
    path = re.search(rb'stroke="#000" d="([^"]+)"', response.data).group(1).decode()
    assert modules_from_path(path, border=4) == {
        (x, y) for y, row in enumerate(expected.matrix) for x, dark in enumerate(row) if dark
    }


def modules_from_path(d: str, border: int) -> set[tuple[int, int]]:
    """The dark modules of segno's SVG path (horizontal runs: M/m x y, h length)."""
    dark, x, y = set(), 0.0, 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?:[ ,](-?[\d.]+))?", d.replace("\n", " ")):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        elif command in "hH":
            end = x + float(a) if command == "h" else float(a)
            for column in range(round(min(x, end)), round(max(x, end))):
                dark.add((column - border, int(y - 0.5) - border))
            x = end
    return dark


def test_public_url_setting_is_used_for_the_code(app, api, client):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000/"
    game = api.create(game="kozel", players=["Ana", "Ben"])
    html = client.get(f"/games/{game['id']}/share").get_data(as_text=True)
    assert f"http://192.168.1.20:5000/games/{game['id']}/follow" in html
    assert "cannot reach" not in html


def test_share_page_warns_when_the_tablet_uses_localhost(api, client):
    game = api.create(game="kozel", players=["Ana", "Ben"])
    html = client.get(f"/games/{game['id']}/share", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert "scripts/serve --lan" in html and "127.0.0.1:5000" in html


@pytest.mark.parametrize(
    "url, loopback",
    [
        ("http://localhost:5000/x", True),
        ("http://127.0.0.1/x", True),
        ("http://[::1]:80/x", True),
        ("http://192.168.1.4:5000/", False),
        ("https://dominoes.example/", False),
    ],
)
def test_is_loopback(url, loopback):
    assert share.is_loopback(url) is loopback


def test_players_pages_and_leaderboard(api, client):
    a = api.create(
        game="mexican-train",
        players=["Ana", "Ben"],
        set=12,
        mode="scores",
        options={"first_double": 1, "last_double": 0},
    )
    api.hands(a["id"], 1, {"Ana": 0, "Ben": 20})
    api.hands(a["id"], 2, {"Ana": 7, "Ben": 3})
    html = client.get("/players").get_data(as_text=True)
    assert "/players/Ana" in html and "/players/Ben" in html
    page = client.get("/players/ana").get_data(as_text=True)  # any case
    assert '<span class="stat-value" data-stat="wins">1</span>' in page
    assert '<span class="stat-value" data-stat="average">3.5</span>' in page
    assert '<span class="stat-value" data-stat="worst">7</span>' in page
    assert 'data-opponent="Ben"' in page
    board = client.get("/leaderboard/mexican-train").get_data(as_text=True)
    assert board.index("/players/Ana") < board.index("/players/Ben")
    assert client.get("/players/Nobody").status_code == 404
    assert client.get("/leaderboard/chess").status_code == 404
    assert "No Kozel game yet" in client.get("/leaderboard/kozel").get_data(as_text=True)


def test_player_names_with_slashes_and_markup_characters(api, client):
    api.create(game="kozel", players=["A/B", "Zoë & co"])
    assert client.get("/players/A/B").status_code == 200
    html = client.get("/players").get_data(as_text=True)
    assert "Zoë &amp; co" in html


def test_manifest_and_service_worker(client):
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = manifest.get_json(force=True)
    assert data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert icon["type"] == "image/svg+xml" and client.get(icon["src"]).status_code == 200
    sw = client.get("/sw.js")
    assert sw.mimetype == "text/javascript" and sw.headers["Cache-Control"] == "no-cache"
    script = sw.get_data(as_text=True)
    assert "__PRECACHE__" not in script and "__CACHE_VERSION__" not in script
    for name in ("app.css", "icon.svg", "app.js", "manifest.webmanifest"):
        assert f'"/static/{name}"' in script
    assert '"/static/sw.js"' not in script


def test_service_worker_version_follows_the_static_files(app, client, tmp_path):
    import shutil

    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)
    first = re.search(r'VERSION = "(\w+)"', client.get("/sw.js").get_data(as_text=True)).group(1)
    (static / "app.css").write_text((static / "app.css").read_text() + "\n/* changed */\n")
    second = re.search(r'VERSION = "(\w+)"', client.get("/sw.js").get_data(as_text=True)).group(1)
    assert first != second


def test_event_stream_beyond_the_limit_answers_at_once_and_asks_to_poll(app, api):
    import time

    app.config.update(FOLLOW_STREAMS_MAX=0, FOLLOW_STREAM_SECONDS=20)
    game = api.create(game="kozel", players=["Ana", "Ben"])
    started = time.monotonic()
    body = app.test_client().get(f"/games/{game['id']}/events/stream").get_data(as_text=True)
    assert time.monotonic() - started < 2
    assert body.startswith("retry: 4000") and 'data: {"version": 1}' in body
    assert app.extensions["companion_streams"]["open"] == 0


def test_event_stream_slots_are_given_back(app, api):
    app.config.update(FOLLOW_STREAMS_MAX=1, FOLLOW_STREAM_SECONDS=0.2, FOLLOW_STREAM_POLL=0.05)
    game = api.create(game="kozel", players=["Ana", "Ben"])
    for _ in range(3):  # one at a time: each gets the slot, holds it, then frees it
        body = app.test_client().get(f"/games/{game['id']}/events/stream").get_data(as_text=True)
        assert body.startswith("retry: 1500")
    assert app.extensions["companion_streams"]["open"] == 0


def test_follow_page_of_finished_games(api, client):
    kz = api.create(game="kozel", players=["Ana", "Ben", "Caro"], mode="scores")
    api.hands(kz["id"], 1, {"Ana": 0, "Ben": 60, "Caro": 20})
    api.hands(kz["id"], 2, {"Ana": 0, "Ben": 60, "Caro": 5})
    html = client.get(f"/games/{kz['id']}/follow").get_data(as_text=True)
    assert "The game is finished." in html and "Goat: <strong>Ben</strong>" in html
    assert '<span class="account">120</span>' in html and '<span class="remembered">+0</span>' in html
    mt = api.create(
        game="mexican-train",
        players=["Ana", "Ben"],
        set=12,
        mode="scores",
        options={"first_double": 0, "last_double": 0},
    )
    api.hands(mt["id"], 1, {"Ana": 3, "Ben": 0})
    html = client.get(f"/games/{mt['id']}/follow").get_data(as_text=True)
    assert "Winner: <strong>Ben</strong>" in html and "Round 1 of 1" in html
    assert 'class="follow-table"' not in html
