"""The OpenAPI 3.1 description of the JSON API (served at /api/openapi.json).

It is exact: request schemas accept what the API accepts (a ``null`` optional field is the
same as a missing one), and every answer of every endpoint — refusals included — is
described. ``tests/reliability/test_openapi.py`` runs Schemathesis against it and checks
that every ``/api`` route of the app is in it.

What the games declare (their keys, options, action types, round ends, modes) is read from
``referee.rules`` and ``referee.match``; the small builders (``referee.web.openapi_builders``) spell the rest once.
"""

from __future__ import annotations

from copy import deepcopy
from functools import lru_cache
from typing import Any

from referee.match import MODES
from referee.rules import GAMES
from referee.rules.base import ACTION_TYPES, EndReason
from referee.rules.options import CHOICE, FLAG, Option
from referee.web.openapi_builders import (
    ATTACHMENT,
    BOOLEAN,
    CHANGE_REFUSED,
    INTEGER,
    INTS,
    LOCATION,
    STAMP,
    STRING,
    STRINGS,
    Schema,
    array,
    json_answer,
    json_content,
    json_request,
    maybe,
    nullable,
    obj,
    of,
    ref,
    refusal_answer,
    refusal_answers,
    strings,
)
from referee.web.openapi_nights import (
    GAME_NIGHT,
    NIGHT_LOADS_A_GAME,
    NIGHT_SCHEMAS,
    NIGHT_WRITES,
    night_paths,
)

# ----------------------------------------------------------------------------- schemas

TILE = of(
    "string",
    pattern=r"^\s*[0-9]{1,2}\s*[-|:/]\s*[0-9]{1,2}\s*$",
    example="5-12",
    description='A tile as two pip values, either order: "5-12" = "12-5".',
)
CANONICAL_TILE = of(
    "string",
    pattern=r"^[0-9]{1,2}-[0-9]{1,2}$",
    example="5-12",
    description="A tile as the API writes it: the smaller half first.",
)
NAME = of(
    "string",
    minLength=1,
    maxLength=40,
    pattern=r"^[^<>\x00-\x1f\x7f]*$",
    description="A player name: 1–40 characters (after trimming spaces), any script; no '<' or '>', "
    "no control or format characters (400).",
)
ERROR = obj(
    {
        "error": of("string", minLength=1, description="One sentence for a person."),
        "rule": maybe("string", description="Rule id from RULES.md, or null."),
        "rule_text": of("string", description="The rule's text, when the refusal names one."),
    },
    "error",
    "rule",
)
PIN = maybe("string", pattern="^[0-9]{4,12}$")
GAME_KEY = strings(*GAMES)
GAME_STATUS = strings("playing", "finished")
ROUND_END = obj(
    {"reason": strings(*(str(reason) for reason in EndReason)), "player": maybe("string")},
    "reason",
    "player",
    kind=["object", "null"],
)


def option_schema(option: Option, sets: tuple[int, ...]) -> Schema:
    """The JSON schema of a declared option (``referee.rules.options``)."""
    schema: Schema
    if option.kind == FLAG:
        schema = of("boolean")
    elif option.kind == CHOICE:
        schema = of("integer" if option.numeric else "string", enum=list(option.values))
    else:
        schema = of("integer")
        if option.low is not None:
            schema["minimum"] = option.low
        high = option.upper(max(sets))
        if high is not None:
            schema["maximum"] = high
    if option.default is None:
        schema["type"] = [schema["type"], "null"]
    schema["description"] = f"{option.help} ({option.rule})"
    return schema


# Every game's options, as its rules module declares them.
GAME_OPTIONS = {
    key: {option.name: option_schema(option, rules.declaration.sets) for option in rules.declaration.options}
    for key, rules in GAMES.items()
}


PLAYERS_ORDER = "Names in turn order, unique (ignoring case)."


def _new_game(game: str) -> Schema:
    options = {key: nullable(value) for key, value in GAME_OPTIONS[game].items()}
    players = array(NAME, minItems=1, maxItems=30, uniqueItems=True, description=PLAYERS_ORDER)
    return obj(
        {
            "game": {"const": game},
            "players": players,
            "set": of("integer", description="The highest pip of the set (12, 9, 6 by default)."),
            "mode": strings(*MODES),
            "options": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "description": "Every option is optional; null means the default.",
                "properties": options,
            },
            "pin": {
                **PIN,
                "description": "An optional table PIN: without it others may watch but not change the game.",
            },
        },
        "game",
        "players",
        closed=True,
    )


CURRENT_ROUND = obj(
    {
        "number": of("integer", minimum=1),
        "double": maybe("string"),
        "status": strings("playing", "scoring", "done"),
        "turn": maybe("string"),
        "boneyard": maybe("integer", minimum=0),
        "hands": maybe("object", additionalProperties=of("integer", minimum=0)),
        "end": ROUND_END,
        "reminders": array(obj({"rule": STRING, "text": STRING}, "rule", "text")),
        "trains": of(
            "object",
            description="mexican-train: every train, the engine not included",
            additionalProperties=obj(
                {"tiles": STRINGS, "open": INTEGER, "marker": BOOLEAN}, "tiles", "open", "marker"
            ),
        ),
        "open_doubles": STRINGS,
        "open_ends": array(obj({"on": STRING, "value": INTEGER}, "on", "value")),
        "foot": obj({"double": STRING, "toes": INTEGER}, kind=["object", "null"]),
        "ends": array(INTEGER),
    },
    *("number", "double", "status", "turn", "boneyard", "hands", "end"),
)
PLAYED_ROUND = obj(
    {
        "number": of("integer", minimum=1),
        "double": maybe("string"),
        "points": INTS,
        "end": ROUND_END,
        "team_points": array(INTEGER),
    },
    *("number", "double", "points", "end"),
)
TEAM = obj({"players": STRINGS, "total": INTEGER, "remembered": INTEGER})
GAME_STATE = obj(
    {
        "id": STRING,
        "game": GAME_KEY,
        "mode": strings(*MODES),
        "set": INTEGER,
        "players": STRINGS,
        "options": of("object"),
        "version": of("integer", minimum=1),
        "status": GAME_STATUS,
        "created": STRING,
        "round": CURRENT_ROUND,
        "rounds": array(PLAYED_ROUND),
        "totals": INTS,
        "winners": STRINGS,
        "round_count": maybe("integer"),
        "rules_in_force": STRINGS,
        "tie_break": STRING,
        "remembered": INTS,
        "pot": INTEGER,
        "goats": STRINGS,
        "rating": INTS,
        "left": maybe("string"),
        "teams": array(
            TEAM, description="kz.teams: each team's players, booked total and remembered points."
        ),
        "night": GAME_NIGHT,
    },
    *("id", "game", "mode", "set", "players", "options", "version", "status", "round", "rounds"),
    *("totals", "winners", "created"),
)
ACTION_KINDS = [str(kind) for kind in ACTION_TYPES]
CHANGE_KEY = of(
    "string",
    pattern="^[A-Za-z0-9_-]{8,64}$",
    description="Chosen by the client, one per tap: a change whose key the game has already "
    "accepted changes nothing and answers 200 with the game as it is (a retry is never logged twice).",
)
ACTION = obj(
    {
        "type": strings(*ACTION_KINDS),
        "player": maybe("string", description="Needed by every type but undo."),
        "tile": nullable(TILE),
        "on": nullable(TILE),
        "train": maybe("string", description='mexican-train: a player or "mexican".'),
        "version": of("integer", description="409 unless the game is at this version."),
        "key": CHANGE_KEY,
    },
    "type",
    closed=True,
    anyOf=[
        {"properties": {"type": {"const": "undo"}}},
        {
            "required": ["player"],
            "properties": {
                "type": {"enum": [kind for kind in ACTION_KINDS if kind not in ("play", "undo")]},
                "player": STRING,
            },
        },
        {
            "required": ["player", "tile"],
            "properties": {"type": {"const": "play"}, "player": STRING, "tile": TILE},
        },
    ],
)
HANDS = obj(
    {
        "hands": of(
            "object",
            description="One entry per player: tiles left, or points.",
            additionalProperties={"oneOf": [array(TILE), of("integer", minimum=0)]},
        ),
        "markers": array(
            STRING,
            description="Score pad with a marker penalty (mt.house.marker): the players "
            "whose trains carried a marker when the round ended.",
        ),
        "version": INTEGER,
        "key": CHANGE_KEY,
    },
    "hands",
    closed=True,
)
LISTED_GAME = obj(
    {"id": STRING, "game": GAME_KEY, "players": STRINGS, "status": GAME_STATUS, "created": STRING},
    *("id", "game", "players", "status", "created"),
)
EVENT = obj(
    {
        "version": of("integer", minimum=1),
        "kind": strings("create", "action", "hands"),
        "payload": of(
            "object",
            description='create: the game\'s settings; action: the action; hands: {"round": n, "hands": {…}}',
        ),
        "created": STAMP,
    },
    *("version", "kind", "payload"),
    closed=True,
)
EXPORTED_GAME = obj(
    {
        "id": of("string", pattern="^[A-Za-z0-9_-]{1,64}$"),
        "created": STAMP,
        "protected": of("boolean", description="The game has a table PIN."),
        "pin_hash": of(
            "string",
            pattern="^[0-9a-f]{16}\\$[0-9a-f]{64}$",
            description="The table PIN's salted hash (never the PIN): a restore keeps the protection.",
        ),
        "pin": {**PIN, "description": "Import only: a table PIN for the imported game."},
        "events": array(ref("Event"), minItems=1),
    },
    "id",
    "events",
    closed=True,
)
ENVELOPE = {"format": {"const": "domino-referee"}, "format_version": {"const": 1}, "exported": STRING}
IMPORTED_GAME = obj(
    {"id": STRING, "version": INTEGER, "game": STRING, "status": STRING, "protected": BOOLEAN},
    *("id", "version", "game", "status"),
)
RULE = obj({"id": STRING, "text": STRING}, "id", "text")

SCHEMAS = {
    "Error": ERROR,
    "Tile": TILE,
    "NewGame": {
        "oneOf": [_new_game(game) for game in GAME_OPTIONS],
        "description": "A new game; `set` and `options` depend on the game (API.md).",
    },
    "Action": ACTION,
    "Hands": HANDS,
    "GameState": GAME_STATE,
    "GameList": obj({"games": array(LISTED_GAME)}, "games"),
    "Event": EVENT,
    "EventList": obj({"events": array(ref("Event"))}, "events"),
    "Export": obj(
        {**ENVELOPE, "games": array(ref("ExportedGame"))}, *("format", "format_version", "exported", "games")
    ),
    "ExportedGame": EXPORTED_GAME,
    "Import": obj({**ENVELOPE, "games": array(ref("ExportedGame"), minItems=1)}, "games", closed=True),
    "Imported": obj({"imported": array(IMPORTED_GAME)}, "imported"),
    "RuleBook": obj({"game": STRING, "rules": array(RULE)}, "game", "rules"),
}

# ----------------------------------------------------------------------------- paths


def parameter(name: str, schema: Schema, where: str = "path", **keywords: Any) -> Schema:
    return {"name": name, "in": where, "required": where == "path", "schema": schema, **keywords}


GAME_ID = parameter("game_id", STRING)
ROUND = parameter("number", of("string", pattern="^[0-9]+$"), description="The round number (1 …).")
TABLE_PIN = parameter(
    "X-Table-Pin",
    STRING,
    "header",
    description="The game's table PIN (needed to change a protected game unless this "
    "browser unlocked it at /games/{game_id}/unlock).",
)
OWNER_PIN = parameter("X-Owner-Pin", STRING, "header", description="The owner PIN (if one is set).")
# Every operation, in the document's order: its method, its path and its summary.
OPERATIONS = {
    "listGames": "GET /api/games List games",
    "createGame": "POST /api/games Create a game",
    "getGame": "GET /api/games/{game_id} Game state",
    "deleteGame": "DELETE /api/games/{game_id} Move the game to the trash (restorable there for 30 days)",
    "postAction": "POST /api/games/{game_id}/actions Log an action (referee mode), undo, or leave (kozel)",
    "postHands": "POST /api/games/{game_id}/rounds/{number}/hands Enter (or correct) the hands left of a round",
    "getEvents": "GET /api/games/{game_id}/events The game's history of accepted changes",
    "getScoresheet": "GET /api/games/{game_id}/scoresheet.csv "
    "Scoresheet as CSV: a row per round, a column per player, a totals row",
    "exportGame": "GET /api/games/{game_id}/export Back up one game: its event log, as a JSON download",
    "exportAll": "GET /api/export Back up every game, as a JSON download",
    "importGames": "POST /api/import Restore games from an export: each is replayed through the rules, "
    "all or nothing; ids that exist already are refused (409)",
    "getRules": "GET /api/rules/{game} The rule book of a game",
    "getOpenApi": "GET /api/openapi.json This document",
    # the photo reading and the hand check: they read and check, never write
    "readHandPhoto": "POST /api/games/{game_id}/rounds/{number}/photo "
    "Read the tiles of a hand from a photo (changes nothing)",
    "checkHand": "POST /api/games/{game_id}/rounds/{number}/check "
    "Check one hand before it is saved: its points and warnings (changes nothing)",
}


def _paths() -> Schema:
    paths: Schema = {}

    def add(
        operation_id: str,
        answer: tuple[str, Schema],
        refused: tuple[int, ...] = (),
        parameters: list[Schema] | None = None,
        body: Schema | None = None,
    ) -> None:
        """One operation: its success ``answer`` (status, answer) and the ``refused`` codes."""
        method, path, summary = OPERATIONS[operation_id].split(" ", 2)
        described: Schema = {"summary": summary, "operationId": operation_id}
        if parameters:
            described["parameters"] = parameters
        if body:
            described["requestBody"] = body
        status, ok = answer
        paths.setdefault(path, {})[method.lower()] = {
            **described,
            "responses": {status: ok, **refusal_answers(*refused)},
        }

    game, changed = [GAME_ID], ("200", json_answer("GameState", "The new state", LOCATION))
    export = ("200", json_answer("Export", "The export", ATTACHMENT))
    csv = {"description": "CSV", "headers": ATTACHMENT, "content": {"text/csv": {"schema": STRING}}}
    schema = of("object", required=["openapi", "info", "paths"])
    add("listGames", ("200", json_answer("GameList", "The games")))
    add(
        "createGame",
        ("201", json_answer("GameState", "The new game", LOCATION)),
        (400, 413, 415, 422),
        body=json_request("NewGame"),
    )
    add("getGame", ("200", json_answer("GameState", "The game", LOCATION)), (404,), game)
    add(
        "deleteGame",
        ("204", {"description": "The game is in the trash"}),
        (403, 404, 422),
        [GAME_ID, TABLE_PIN],
    )
    add("postAction", changed, CHANGE_REFUSED, [GAME_ID, TABLE_PIN], json_request("Action"))
    add("postHands", changed, CHANGE_REFUSED, [GAME_ID, ROUND, TABLE_PIN], json_request("Hands"))
    add("getEvents", ("200", json_answer("EventList", "Events, oldest first")), (404,), game)
    add("getScoresheet", ("200", csv), (404,), game)
    add("exportGame", export, (-403, 404), [GAME_ID, OWNER_PIN])
    add("exportAll", export, (-403,), [OWNER_PIN])
    add(
        "importGames",
        ("201", json_answer("Imported", "The games created")),
        (400, -403, 409, 413, 415, 422),
        [OWNER_PIN],
        json_request("Import"),
    )
    add("getRules", ("200", json_answer("RuleBook", "Rules")), (404,), [parameter("game", STRING)])
    add("getOpenApi", ("200", {"description": "OpenAPI 3.1", "content": json_content(schema)}))
    photo = of("string", format="binary", description="A JPEG, PNG or HEIC photo, at most 20 MB.")
    form = obj({"photo": photo, "player": of("string", description="Whose hand it is.")}, "photo")
    upload = {"required": True, "content": {"multipart/form-data": {"schema": form}}}
    read = ("200", json_answer("PhotoReading", "The tiles read, their points and the referee's warnings"))
    add("readHandPhoto", read, (400, 404, 413, 415, 422), [GAME_ID, ROUND], upload)
    checked = ("200", json_answer("HandCheckAnswer", "The hand's points and the referee's warnings"))
    add("checkHand", checked, (400, 404, 415, 422), [GAME_ID, ROUND], json_request("HandCheck"))
    return paths


@lru_cache(maxsize=1)
def openapi_document() -> Schema:
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": "Domino Referee API",
            "version": "1",
            "description": "Referee and score pad for Mexican Train, Chicken Foot and Kozel. "
            "A refusal changes nothing.",
        },
        "paths": {**_paths(), **night_paths()},
        "components": {"schemas": {**deepcopy(SCHEMAS), **photo_schemas(), **deepcopy(NIGHT_SCHEMAS)}},
    }
    add_server_answers(document)
    return document


# ----------------------------------------------------------------------------- server's answers

# The answers that come from the server's side rather than the request (see
# referee.web.errors): which operations can give each.
WRITES = {"createGame", "deleteGame", "postAction", "postHands", "importGames"} | NIGHT_WRITES
LOADS_A_GAME = (
    {key for key, line in OPERATIONS.items() if "{game_id}" in line} | {"exportAll"} | NIGHT_LOADS_A_GAME
)
SERVER_ANSWERS = {
    500: "The referee hit an internal error, or the game's stored record is damaged and cannot "
    "be read (that game only): nothing was changed",
    503: "The database is read-only: nothing was saved (ask whoever runs the referee)",
    507: "The disk is full: nothing was saved (free some space and try again)",
}
WRONG_HOST = {
    "description": "Misdirected request: the Host header names an address this app does not serve "
    "(a guard against DNS rebinding: the addresses it serves on, and REFEREE_ALLOWED_HOSTS); plain text",
    "content": {"text/plain": {"schema": STRING}},
}


def add_server_answers(document: Schema) -> None:
    """Every operation may answer 421 (a Host it does not serve) and 500 (an internal error;
    for an operation that loads a game, also that game's damaged record); a write may also
    answer 503 (a read-only database) and 507 (a full disk). All but 421 are JSON
    ``{"error", "rule"}`` like every refusal, and none of them changes anything."""
    for operations in document["paths"].values():
        for described in operations.values():
            answers = described["responses"]
            codes = [500] + ([503, 507] if described["operationId"] in WRITES else [])
            for code in codes:
                description = SERVER_ANSWERS[code]
                if code == 500 and described["operationId"] not in LOADS_A_GAME:
                    description = "The referee hit an internal error: nothing was changed"
                answers.setdefault(str(code), refusal_answer(description))
            answers.setdefault("421", WRONG_HOST)
    busy = "Photos are being read (2 at once, 4 waiting) or this one took too long: send it again later"
    photo = document["paths"]["/api/games/{game_id}/rounds/{number}/photo"]["post"]["responses"]
    photo["503"] = {**refusal_answer(busy), "headers": {"Retry-After": {"schema": INTEGER}}}


# ----------------------------------------------------------------------------- hands from a photo


WHOLE_HAND = "The tile, or null: the whole hand."
BOX = "x, y, w, h in the photo's pixels after its EXIF rotation."


def photo_schemas() -> Schema:
    """What the photo reading (POST …/photo, multipart) and the hand check (POST …/check) answer."""
    warning = obj(
        {
            "tile": {**CANONICAL_TILE, "type": ["string", "null"], "description": WHOLE_HAND},
            "rule": maybe("string", description="Rule id from RULES.md."),
            "error": of("string", minLength=1, description="One sentence (English)."),
            "text": of("string", description="The sentence in the request's language."),
        },
        *("tile", "rule", "error"),
    )
    tracked = maybe("integer", description="The hand's size by the log (referee mode).")
    total = of("integer", minimum=0, description="The hand's points by the game's scoring.")
    box = array(of("integer", minimum=0), minItems=4, maxItems=4, description=BOX)
    read = obj(
        {
            "tile": CANONICAL_TILE,
            "confidence": of("number", minimum=0, maximum=1),
            "sure": of(
                "boolean",
                description="True only where the reader's calibration puts the reading right at least "
                "99 times in 100; a person looks at every tile that is not sure.",
            ),
            "box": box,
        },
        *("tile", "confidence", "sure", "box"),
    )
    hand = array(TILE, maxItems=60)
    return {
        "PhotoReading": obj(
            {
                "tiles": array(read),
                "total": total,
                "warnings": array(warning),
                "width": of("integer", minimum=1),
                "height": of("integer", minimum=1),
                "tracked": tracked,
            },
            *("tiles", "total", "warnings"),
        ),
        "HandCheck": obj(
            {
                "tiles": hand,
                "player": maybe("string", description="Whose hand it is (optional)."),
                "hands": maybe(
                    "object",
                    additionalProperties=hand,
                    description="Other players' hands, to find a tile in two hands.",
                ),
            },
            "tiles",
            closed=True,
        ),
        "HandCheckAnswer": obj(
            {"total": total, "warnings": array(warning), "tracked": tracked},
            *("total", "warnings", "tracked"),
        ),
    }
