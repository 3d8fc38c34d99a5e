"""The OpenAPI document is complete and exact: Schemathesis calls every endpoint in-process
(positive and negative examples, bounded) and checks every answer against the document.

Examples per endpoint: ``max-examples`` below (HYPOTHESIS_PROFILE=thorough raises it).
"""

from __future__ import annotations

import os
import re
import tempfile
from itertools import cycle

import pytest

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.config import SchemathesisConfig  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from referee.web import create_app  # noqa: E402

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
MAX_EXAMPLES = 200 if THOROUGH else 25
# 422 is "well-formed but against the rules or the state": a schema cannot hold the rules
# of dominoes, so a schema-valid request may meet it. A 400 for schema-valid data, though,
# means the document is looser than the API, and fails the test.
ACCEPTED_POSITIVE = ["2xx", "3xx", "403", "404", "409", "422"]
# ... except where a 400 depends on more than JSON Schema says: names unique ignoring case
# and free of Unicode format characters (createGame), points above what the game's set
# holds (postHands), an export's event versions in sequence (importGames). There only the
# other checks run (no 5xx, documented status, content type, headers and body).
# Likewise a night's table sizes, stages and rounds for its game and set (createNight).
SHAPE_BEYOND_SCHEMA = {"createGame", "postHands", "importGames", "createNight"}

_workdir = tempfile.mkdtemp(prefix="referee-schemathesis-")
app = create_app(
    {
        "TESTING": True,
        "DATABASE": os.path.join(_workdir, "referee.db"),
        "SECRET_KEY": "schemathesis",
        "WTF_CSRF_ENABLED": False,
    }
)


def _seed_games() -> list[str]:
    """Real games for the generated requests to hit (else every id is a 404)."""
    client = app.test_client()
    bodies = [
        {"game": "mexican-train", "players": ["Ana", "Ben", "Caro"], "set": 9},
        {"game": "mexican-train", "players": ["Ana", "Ben"], "mode": "scores"},
        {"game": "chicken-foot", "players": ["Ana", "Ben", "Caro"]},
        {"game": "chicken-foot", "players": ["Ana", "Ben"], "mode": "scores"},
        {"game": "kozel", "players": ["Ana", "Ben", "Caro"]},
        {"game": "kozel", "players": ["Ana", "Ben"], "mode": "scores", "pin": "2468"},
    ]
    ids = []
    for body in bodies:
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.get_json()
        ids.append(response.get_json()["id"])
    return ids


GAME_IDS = _seed_games()
_next_game = cycle(GAME_IDS)


def _seed_nights() -> list[str]:
    """Real club nights for the generated requests to hit."""
    client = app.test_client()
    players = ["Ana", "Ben", "Caro", "Dee", "Eve", "Finn"]
    bodies = [
        {"name": "Tuesday", "game": "mexican-train", "players": players, "table_size": 3, "stages": 2}
        | {"rounds_per_stage": 1, "seating": "progressive", "mode": "scores"},
        {"name": "Goats", "game": "kozel", "players": players[:4], "table_size": 4, "stages": 1}
        | {"seating": "fixed"},
    ]
    ids = []
    for body in bodies:
        response = client.post("/api/nights", json=body)
        assert response.status_code == 201, response.get_json()
        ids.append(response.get_json()["id"])
    return ids


_next_night = cycle(_seed_nights())

config = SchemathesisConfig.from_dict(
    {
        "generation": {"max-examples": MAX_EXAMPLES, "deterministic": not THOROUGH},
        "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED_POSITIVE}},
        "phases": {"stateful": {"enabled": False}},
    }
)
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)


@schema.parametrize()
def test_every_endpoint_answers_as_documented(case):
    game_id = case.path_parameters.get("game_id") if case.path_parameters else None
    if game_id is not None and case.meta and case.meta.generation.mode.is_positive and next(_counter) % 3:
        case.path_parameters["game_id"] = next(_next_game)  # two in three hit a real game
    night_id = case.path_parameters.get("night_id") if case.path_parameters else None
    if night_id is not None and case.meta and case.meta.generation.mode.is_positive and next(_counter) % 3:
        case.path_parameters["night_id"] = next(_next_night)
    excluded = (
        [positive_data_acceptance]
        if case.operation.definition.raw.get("operationId") in SHAPE_BEYOND_SCHEMA
        else []
    )
    # Identity: the answers are checked against the document as JSON, not as gzip/brotli bytes
    # (compression itself is tested in tests/web/test_table_one_hand.py).
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=excluded)
    assert response.status_code < 500
    TRIED[case.operation.label] = TRIED.get(case.operation.label, 0) + 1
    mode = "negative" if case.meta and case.meta.generation.mode.is_negative else "positive"
    MODES[mode] = MODES.get(mode, 0) + 1


TRIED: dict[str, int] = {}
MODES: dict[str, int] = {}


_counter = iter(range(10**9))


def test_every_api_route_is_documented():
    documented = set(schema.raw_schema["paths"])
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            served.add(re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule))
    assert served == documented


def test_documented_methods_are_the_served_ones():
    served: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
            served.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    documented = {path: set(ops) for path, ops in schema.raw_schema["paths"].items()}
    assert served == documented


def test_zz_every_endpoint_was_exercised(request):
    """Runs after the Schemathesis tests (file order; with -n 2 one worker runs the whole
    file, scripts/test's --dist loadfile): each operation got examples."""
    if not TRIED:
        pytest.skip("run together with test_every_endpoint_answers_as_documented")
    operations = {
        f"{method.upper()} {path}" for path, ops in schema.raw_schema["paths"].items() for method in ops
    }
    # Schemathesis leaves out the document's own address; it is fetched above to load it.
    assert set(TRIED) == operations - {"GET /api/openapi.json"}
    assert MODES.get("negative", 0) > 100 and MODES.get("positive", 0) > 100, MODES
    request.node.user_properties.append(
        ("Schemathesis", f"{sum(TRIED.values())} requests over {len(TRIED)} operations {MODES}")
    )
