"""A game defined only here, served by the real pages: what adding a lowest-total game takes.

"Little Foot" is a lowest-total game with its own declaration (its own key, title, sets and
player range), its own presenter and its own table template (written to a temporary folder).
It is registered for the test the way a real game is (a line in ``GAMES``), and then driven
through the real pages, none of which is changed for it: the new-game form, the table (plays
and a refusal), the hands, the game page, the scoresheet, the follow page and the PDF.

The second half counts the files each real lowest-total game needs, from the repository
itself: what names the game, and that nothing else does.
"""

from __future__ import annotations

import inspect
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader
from pypdf import PdfReader
from wtforms import SelectField

from referee.match import Match
from referee.presenters import Presenter, presenter_for
from referee.presenters.base import Gettext
from referee.rules import GAMES
from referee.rules.chicken_foot import DECLARATION as CHICKEN_FOOT
from referee.rules.chicken_foot import ChickenFoot, ChickenFootOptions
from referee.rules.options import GameDeclaration
from referee.rules.scoring import LowestTotalGame
from referee.web.companion.pdf import sheet_of
from referee.web.db import get_store
from referee.web.forms import NewGameForm
from referee.web.game_view import game_context
from tests.web.page_helpers import MT_FORM, refusal, text

ROOT = Path(__file__).resolve().parents[2]
KEY = "little-foot"

# ----- the game: its rules, its presenter, its table template --------------------------------


LITTLE_FOOT = GameDeclaration(
    key=KEY,
    prefix=CHICKEN_FOOT.prefix,  # its rules are Chicken Foot's (cf.*): the same rule book
    title="Little Foot",
    sets=(9,),
    default_set=9,
    players=(2, 4),
    options=CHICKEN_FOOT.options,
    presenter=f"{__name__}:LittleFootPresenter",
)


@dataclass(frozen=True, slots=True)
class LittleFootOptions(ChickenFootOptions):
    """Chicken Foot's options, held to Little Foot's declaration."""

    declaration = LITTLE_FOOT


class LittleFoot(ChickenFoot):
    """Chicken Foot's engine and scoring (lowest total, cf.*) on a small table of its own."""

    declaration = LITTLE_FOOT
    Options = LittleFootOptions


class LittleFootPresenter(Presenter):
    """The arms as plain rows of tile texts; the spinner is "the foot"."""

    table_template = "little_foot.html"

    def lead_line(self, who: str, tile: str, _: Gettext) -> str:
        return f"{who} put down the foot {tile}."

    def table_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        return {
            "foot": rnd.get("spinner"),
            "rows": [[entry["tile"] for entry in arm] for arm in rnd.get("arms") or []],
        }


TABLE_TEMPLATE = """{% extends "table/_table.html" %}
{% from "table/_place.html" import place with context %}
{% block tableau %}
<div class="little-foot">
  {% if foot %}<p class="foot">Foot {{ foot }}</p>{{ place(foot, 'a new row of ' ~ foot) }}
  {% else %}{{ place(CENTRE, 'the foot') }}{% endif %}
  <ol class="rows">{% for row in rows %}<li class="row">{{ row|join(' ') }}</li>{% endfor %}</ol>
</div>
{% endblock %}
"""


@pytest.fixture
def little_foot(app, tmp_path, monkeypatch):
    """Little Foot registered like a real game (one line in ``GAMES``); the new-game form's
    choice of games is made again (forms.py builds it when it is imported)."""
    monkeypatch.setitem(GAMES, KEY, LittleFoot)
    game_field = NewGameForm.game
    monkeypatch.setattr(
        NewGameForm,
        "game",
        SelectField(
            game_field.args[0] if game_field.args else "Game",
            choices=[(key, rules.declaration.label) for key, rules in GAMES.items()],
        ),
    )
    (tmp_path / "little_foot.html").write_text(TABLE_TEMPLATE)
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, FileSystemLoader(str(tmp_path))])
    return app


def start(client, mode: str) -> str:
    form = dict(MT_FORM, game=KEY, mode=mode, **{"players-0": "Ana", "players-1": "Ben"})
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, text(response)[:2000]
    return response.headers["Location"].split("/games/", 1)[1].split("/")[0]  # (a table: /games/<id>/table)


def act(client, game_id: str, **fields: str):
    version = get_store().version_of(game_id)
    return client.post(f"/games/{game_id}/table/act", data={"version": version, **fields})


def test_a_game_defined_only_here_is_served_by_the_real_pages(little_foot, client):
    assert "Little Foot" in text(client.get("/games/new"))
    assert "cf.match" in text(client.get(f"/rules/{KEY}"))  # its rule book: Chicken Foot's rules

    # The table: the game's own template, fed by its presenter.
    game_id = start(client, "referee")
    with little_foot.test_request_context():
        assert get_store().load(game_id).match.config.game == KEY
    html = text(client.get(f"/games/{game_id}/table"))
    assert "<title>Little Foot table · round 1 · Domino Referee</title>" in html
    assert 'class="tableau' not in html  # (no tableau before the first tile)

    # Plays, logged by the real table and described by the presenter.
    with little_foot.test_request_context():
        assert act(client, game_id, type="play", player="Ana", tile="9-9", place="centre").status_code == 303
        html = text(client.get(f"/games/{game_id}/table"))
        assert "Ana put down the foot 9-9." in html  # the presenter's words for the lead
        assert '<div class="little-foot">' in html  # the game's own template draws the table
        assert '<p class="foot">Foot 9-9</p>' in html
        assert act(client, game_id, type="play", player="Ben", tile="9-1", place="9-9").status_code == 303
        html = text(client.get(f"/games/{game_id}/table"))
        assert '<li class="row">1-9</li>' in html
        assert "Ben played 1-9 on 9-9." in html  # the generic presenter's words

        # A refusal, with the rule that forbids it, changes nothing.
        before = get_store().version_of(game_id)
        response = act(client, game_id, type="play", player="Ana", tile="2-3", place="9-9")
        assert response.status_code == 422
        assert "cf." in refusal(text(response))
        assert get_store().version_of(game_id) == before

    # A score pad of the same game: hands, the game page, the scoresheet, following, the PDF.
    pad = start(client, "scores")
    hands = client.get(f"/games/{pad}/rounds/1/hands")
    assert hands.status_code == 200 and "Little Foot" in text(hands)
    with little_foot.test_request_context():
        version = get_store().version_of(pad)
    response = client.post(
        f"/games/{pad}/rounds/1/hands", data={"version": version, "p0": "out", "p1": "5-6 0-0"}
    )
    assert response.status_code == 303, text(response)[:2000]

    page = text(client.get(f"/games/{pad}"))
    assert "<h1>Little Foot</h1>" in page
    assert re.search(r'<span class="name">Ana</span>\s*<span class="badge lead">leads</span>', page)
    assert '<span class="pts">61</span> <span class="run muted" title="total">61</span>' in page  # 11 + 50

    sheet = text(client.get(f"/games/{pad}/scoresheet"))
    assert (
        "Little Foot — scoresheet" in sheet
        and '<span class="pts">61</span><span class="run">61</span>' in sheet
    )

    follow = text(client.get(f"/games/{pad}/follow"))
    assert "Little Foot" in follow and 'class="totals-chart"' in follow and "Ben: round 1 61" in follow

    with little_foot.test_request_context():
        printed = sheet_of(game_context(get_store().load(pad)), "a4")
    assert printed.header == ["Round", "Double", "Ana", "Ben"]
    assert printed.rows[0][2:] == ["0\n0", "61\n61"] and printed.totals == ["Total", "", "0", "61"]
    response = client.get(f"/games/{pad}/scoresheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert f"scoresheet-{KEY}-" in response.headers["Content-Disposition"]
    words = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert "Little Foot" in words and "61" in words


# ----- what a game needs: the files that name it -------------------------------------------------

SOURCES = ("referee", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".po", ".pot", ".json", ".webmanifest"}
BOOKS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "referee" / "rules").glob("RULES*.md"))
CATALOGS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "referee" / "translations").rglob("*.po*"))
REGISTRY = "referee/rules/__init__.py"


def source_files() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8", errors="replace")
        for folder in SOURCES
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix in SUFFIXES
    }


def own_files(key: str) -> list[str]:
    """The files that are the game's own: its rules folder (``referee/rules/<game>/``: its
    declaration, engine and scoring, counted as one: a new game adds that folder), its
    presenter module and the templates its presenter names beyond the generic ones."""
    presenter = presenter_for(key)
    rules_module = inspect.getsourcefile(GAMES[key])
    presenter_module = inspect.getsourcefile(type(presenter))
    assert rules_module and presenter_module
    templates = [presenter.table_template]
    if presenter.score_macros != Presenter.score_macros:
        templates.append(presenter.score_macros)
    return [
        f"{Path(rules_module).parent.relative_to(ROOT)}/",
        str(Path(presenter_module).relative_to(ROOT)),
    ] + [f"templates/{t}" for t in templates]


def naming(key: str, files: dict[str, str]) -> set[str]:
    """Every file that names the game: its key, its rules or presenter module (as a module or
    a path: the catalogs cite their sources), its templates; a rule book its rule ids."""
    rules, presenter = GAMES[key], presenter_for(key)
    names = [f'"{key}"', f"'{key}'"]
    rules_package = rules.__module__.rpartition(".")[0]  # the game's rules folder
    names += [rules_package, rules_package.replace(".", "/") + "/"]
    module = type(presenter).__module__
    names += [module, module.replace(".", "/") + ".py"]
    names += [path.removeprefix("templates/") for path in own_files(key) if path.startswith("templates/")]
    pattern = re.compile("|".join(re.escape(name) + (r"\b" if name[-1].isalnum() else "") for name in names))
    ids = re.compile(rf"\b{re.escape(rules.prefix)}\.[a-z]")
    return {
        path for path, body in files.items() if pattern.search(body) or (path in BOOKS and ids.search(body))
    }


LOWEST_TOTAL = sorted(key for key, rules in GAMES.items() if issubclass(rules, LowestTotalGame))


@pytest.mark.parametrize("key", LOWEST_TOTAL)
def test_a_lowest_total_game_needs_eight_files(key):
    """Adding a lowest-total game = its rules folder (``referee/rules/<game>/``, its
    declaration, engine and scoring as modules of one package: one thing added, counted as
    one file), its presenter, its table template, its
    line in ``GAMES`` and its rules in the rule book and the book's three translations: each
    real one is counted here from what names it, and nothing else in the app may name it
    (the message catalogs cite it as the source of its messages, which they translate)."""
    files = source_files()
    own = own_files(key)
    folder = own[0]  # the game's rules folder: its files count as one
    assert len(own) == 3 and all(path in files for path in own[1:]), own
    assert sum(path.startswith(folder) and path.endswith(".py") for path in files) > 1, folder
    named = {folder if path.startswith(folder) else path for path in naming(key, files)}
    assert REGISTRY in named and set(BOOKS) <= named and len(BOOKS) == 4
    # Another rules module may name the game (Mexican Train's tie-break option is Chicken
    # Foot's, cf.tie): that is the rules speaking, not a page; adding a game touches none.
    core = {path for path in named if path.startswith("referee/rules/") and path.endswith(".py")}
    needed = (named | set(own)) - (core - {*own, REGISTRY}) - set(CATALOGS)
    assert needed == {*own, REGISTRY, *BOOKS}, sorted(needed)
    assert len(needed) <= 8
