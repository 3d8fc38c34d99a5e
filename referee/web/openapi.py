"""The OpenAPI 3.1 description of the JSON API (served at /api/openapi.json).

It is exact: request schemas accept what the API accepts (a ``null`` optional field is the
same as a missing one), and every answer of every endpoint — refusals included — is
described. ``tests/reliability/test_openapi.py`` runs Schemathesis against it and checks
that every ``/api`` route of the app is in it.
"""

from __future__ import annotations

from copy import deepcopy
from functools import lru_cache
from typing import Any

from referee.rules import GAMES
from referee.rules.options import CHOICE, FLAG, Option

TILE_PATTERN = r"^\s*[0-9]{1,2}\s*[-|:/]\s*[0-9]{1,2}\s*$"
TILE = {
    "type": "string",
    "pattern": TILE_PATTERN,
    "example": "5-12",
    "description": 'A tile as two pip values, either order: "5-12" = "12-5".',
}
CANONICAL_TILE = {
    "type": "string",
    "pattern": r"^[0-9]{1,2}-[0-9]{1,2}$",
    "example": "5-12",
    "description": "A tile as the API writes it: the smaller half first.",
}
NAME = {
    "type": "string",
    "minLength": 1,
    "maxLength": 40,
    "pattern": r"^[^<>\x00-\x1f\x7f]*$",
    "description": "A player name: 1–40 characters (after trimming spaces), any script; no '<' or '>', "
    "no control or format characters (400).",
}
ERROR = {
    "type": "object",
    "required": ["error", "rule"],
    "properties": {
        "error": {"type": "string", "minLength": 1, "description": "One sentence for a person."},
        "rule": {"type": ["string", "null"], "description": "Rule id from RULES.md, or null."},
        "rule_text": {"type": "string", "description": "The rule's text, when the refusal names one."},
    },
}
REFUSALS = {
    400: "Malformed body or wrong types",
    403: "The game is protected by a table PIN",
    404: "Unknown game or round",
    405: "Method not allowed at this address",
    409: "The game changed (stale version), or an imported game id exists already",
    413: "Body too large",
    415: "Not JSON",
    422: "Well-formed but against the rules or the state",
}


def _refusals(*codes: int) -> dict[str, Any]:
    return {
        str(code): {
            "description": REFUSALS[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in codes
    }


def _json(schema_ref: str, description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def _body(ref: str) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    schema = deepcopy(schema)
    types = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
    schema["type"] = types if "null" in types else [*types, "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema


LOCATION = {"Location": {"description": "The game's address in the API", "schema": {"type": "string"}}}
ATTACHMENT = {
    "Content-Disposition": {
        "description": 'attachment; filename="…json"',
        "schema": {"type": "string", "pattern": "^attachment"},
    }
}
INTS = {"type": "object", "additionalProperties": {"type": "integer"}}
ROUND_END = {
    "type": ["object", "null"],
    "required": ["reason", "player"],
    "properties": {
        "reason": {"type": "string", "enum": ["domino", "blocked", "fish", "table"]},
        "player": {"type": ["string", "null"]},
    },
}
STRINGS = {"type": "array", "items": {"type": "string"}}


def option_schema(option: Option, sets: tuple[int, ...]) -> dict[str, Any]:
    """The JSON schema of a declared option (``referee.rules.options``)."""
    schema: dict[str, Any]
    if option.kind == FLAG:
        schema = {"type": "boolean"}
    elif option.kind == CHOICE:
        schema = {"type": "integer" if option.numeric else "string", "enum": list(option.values)}
    else:
        schema = {"type": "integer"}
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


def _new_game(game: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["game", "players"],
        "additionalProperties": False,
        "properties": {
            "game": {"const": game},
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": 30,
                "uniqueItems": True,
                "items": NAME,
                "description": "Names in turn order, unique (ignoring case).",
            },
            "set": {"type": "integer", "description": "The highest pip of the set (12, 9, 6 by default)."},
            "mode": {"type": "string", "enum": ["referee", "scores"]},
            "options": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "description": "Every option is optional; null means the default.",
                "properties": {key: _nullable(value) for key, value in GAME_OPTIONS[game].items()},
            },
            "pin": {
                "type": ["string", "null"],
                "pattern": "^[0-9]{4,8}$",
                "description": "An optional table PIN: without it others may watch but not change the game.",
            },
        },
    }


GAME_STATE = {
    "type": "object",
    "required": [
        "id",
        "game",
        "mode",
        "set",
        "players",
        "options",
        "version",
        "status",
        "round",
        "rounds",
        "totals",
        "winners",
        "created",
    ],
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string", "enum": list(GAMES)},
        "mode": {"type": "string", "enum": ["referee", "scores"]},
        "set": {"type": "integer"},
        "players": STRINGS,
        "options": {"type": "object"},
        "version": {"type": "integer", "minimum": 1},
        "status": {"type": "string", "enum": ["playing", "finished"]},
        "created": {"type": "string"},
        "round": {
            "type": "object",
            "required": ["number", "double", "status", "turn", "boneyard", "hands", "end"],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "double": {"type": ["string", "null"]},
                "status": {"type": "string", "enum": ["playing", "scoring", "done"]},
                "turn": {"type": ["string", "null"]},
                "boneyard": {"type": ["integer", "null"], "minimum": 0},
                "hands": {
                    "type": ["object", "null"],
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
                "end": ROUND_END,
                "reminders": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["rule", "text"],
                        "properties": {"rule": {"type": "string"}, "text": {"type": "string"}},
                    },
                },
                "trains": {
                    "type": "object",
                    "description": "mexican-train: every train, the engine not included",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["tiles", "open", "marker"],
                        "properties": {
                            "tiles": STRINGS,
                            "open": {"type": "integer"},
                            "marker": {"type": "boolean"},
                        },
                    },
                },
                "open_doubles": {"type": "array", "items": {"type": "string"}},
                "open_ends": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["on", "value"],
                        "properties": {"on": {"type": "string"}, "value": {"type": "integer"}},
                    },
                },
                "foot": {
                    "type": ["object", "null"],
                    "properties": {"double": {"type": "string"}, "toes": {"type": "integer"}},
                },
                "ends": {"type": "array", "items": {"type": "integer"}},
            },
        },
        "rounds": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["number", "double", "points", "end"],
                "properties": {
                    "number": {"type": "integer", "minimum": 1},
                    "double": {"type": ["string", "null"]},
                    "points": INTS,
                    "end": ROUND_END,
                    "team_points": {"type": "array", "items": {"type": "integer"}},
                },
            },
        },
        "totals": INTS,
        "winners": STRINGS,
        "round_count": {"type": ["integer", "null"]},
        "rules_in_force": STRINGS,
        "tie_break": {"type": "string"},
        "remembered": INTS,
        "pot": {"type": "integer"},
        "goats": STRINGS,
        "rating": INTS,
        "left": {"type": ["string", "null"]},
        "teams": {
            "type": "array",
            "description": "kz.teams: each team's players, booked total and remembered points.",
            "items": {
                "type": "object",
                "properties": {
                    "players": STRINGS,
                    "total": {"type": "integer"},
                    "remembered": {"type": "integer"},
                },
            },
        },
    },
}

EVENT = {
    "type": "object",
    "required": ["version", "kind", "payload"],
    "additionalProperties": False,
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "kind": {"type": "string", "enum": ["create", "action", "hands"]},
        "payload": {
            "type": "object",
            "description": "create: the game's settings; action: the action; "
            'hands: {"round": n, "hands": {…}}',
        },
        "created": {"type": ["string", "null"], "minLength": 1, "maxLength": 40},
    },
}

EXPORTED_GAME = {
    "type": "object",
    "required": ["id", "events"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
        "created": {"type": ["string", "null"], "minLength": 1, "maxLength": 40},
        "protected": {
            "type": "boolean",
            "description": "The game has a table PIN.",
        },
        "pin_hash": {
            "type": "string",
            "pattern": "^[0-9a-f]{16}\\$[0-9a-f]{64}$",
            "description": "The table PIN's salted hash (never the PIN): a restore keeps the protection.",
        },
        "pin": {
            "type": ["string", "null"],
            "pattern": "^[0-9]{4,8}$",
            "description": "Import only: a table PIN for the imported game.",
        },
        "events": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Event"}},
    },
}


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    pin = {
        "name": "X-Table-Pin",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The game's table PIN (needed to change a protected game unless this "
        "browser unlocked it at /games/{game_id}/unlock).",
    }
    change_refusals = _refusals(400, 403, 404, 409, 413, 415, 422)
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": "Domino Referee API",
            "version": "1",
            "description": "Referee and score pad for Mexican Train, Chicken Foot and Kozel. "
            "A refusal changes nothing.",
        },
        "paths": {
            "/api/games": {
                "get": {
                    "summary": "List games",
                    "operationId": "listGames",
                    "responses": {"200": _json("GameList", "The games")},
                },
                "post": {
                    "summary": "Create a game",
                    "operationId": "createGame",
                    "requestBody": _body("NewGame"),
                    "responses": {
                        "201": _json("GameState", "The new game", LOCATION),
                        **_refusals(400, 413, 415, 422),
                    },
                },
            },
            "/api/games/{game_id}": {
                "get": {
                    "summary": "Game state",
                    "operationId": "getGame",
                    "parameters": [game_id],
                    "responses": {"200": _json("GameState", "The game", LOCATION), **_refusals(404)},
                },
                "delete": {
                    "summary": "Move the game to the trash (restorable there for 30 days)",
                    "operationId": "deleteGame",
                    "parameters": [game_id, pin],
                    "responses": {"204": {"description": "The game is in the trash"}, **_refusals(403, 404)},
                },
            },
            "/api/games/{game_id}/actions": {
                "post": {
                    "summary": "Log an action (referee mode), undo, or leave (kozel)",
                    "operationId": "postAction",
                    "parameters": [game_id, pin],
                    "requestBody": _body("Action"),
                    "responses": {"200": _json("GameState", "The new state", LOCATION), **change_refusals},
                },
            },
            "/api/games/{game_id}/rounds/{number}/hands": {
                "post": {
                    "summary": "Enter (or correct) the hands left of a round",
                    "operationId": "postHands",
                    "parameters": [
                        game_id,
                        {
                            "name": "number",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "pattern": "^[0-9]+$"},
                            "description": "The round number (1 …).",
                        },
                        pin,
                    ],
                    "requestBody": _body("Hands"),
                    "responses": {"200": _json("GameState", "The new state", LOCATION), **change_refusals},
                },
            },
            "/api/games/{game_id}/events": {
                "get": {
                    "summary": "The game's history of accepted changes",
                    "operationId": "getEvents",
                    "parameters": [game_id],
                    "responses": {"200": _json("EventList", "Events, oldest first"), **_refusals(404)},
                },
            },
            "/api/games/{game_id}/scoresheet.csv": {
                "get": {
                    "summary": "Scoresheet as CSV: a row per round, a column per player, a totals row",
                    "operationId": "getScoresheet",
                    "parameters": [game_id],
                    "responses": {
                        "200": {
                            "description": "CSV",
                            "headers": ATTACHMENT,
                            "content": {"text/csv": {"schema": {"type": "string"}}},
                        },
                        **_refusals(404),
                    },
                },
            },
            "/api/games/{game_id}/export": {
                "get": {
                    "summary": "Back up one game: its event log, as a JSON download",
                    "operationId": "exportGame",
                    "parameters": [game_id],
                    "responses": {"200": _json("Export", "The export", ATTACHMENT), **_refusals(404)},
                },
            },
            "/api/export": {
                "get": {
                    "summary": "Back up every game, as a JSON download",
                    "operationId": "exportAll",
                    "responses": {"200": _json("Export", "The export", ATTACHMENT)},
                },
            },
            "/api/import": {
                "post": {
                    "summary": "Restore games from an export: each is replayed through the rules, "
                    "all or nothing; ids that exist already are refused (409)",
                    "operationId": "importGames",
                    "requestBody": _body("Import"),
                    "responses": {
                        "201": _json("Imported", "The games created"),
                        **_refusals(400, 409, 413, 415, 422),
                    },
                },
            },
            "/api/rules/{game}": {
                "get": {
                    "summary": "The rule book of a game",
                    "operationId": "getRules",
                    "parameters": [
                        {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "responses": {"200": _json("RuleBook", "Rules"), **_refusals(404)},
                },
            },
            "/api/openapi.json": {
                "get": {
                    "summary": "This document",
                    "operationId": "getOpenApi",
                    "responses": {
                        "200": {
                            "description": "OpenAPI 3.1",
                            "content": {
                                "application/json": {
                                    "schema": {"type": "object", "required": ["openapi", "info", "paths"]}
                                }
                            },
                        }
                    },
                },
            },
        },
        "components": {
            "schemas": {
                "Error": ERROR,
                "Tile": TILE,
                "NewGame": {
                    "oneOf": [_new_game(game) for game in GAME_OPTIONS],
                    "description": "A new game; `set` and `options` depend on the game (API.md).",
                },
                "Action": {
                    "type": "object",
                    "required": ["type"],
                    "additionalProperties": False,
                    "properties": {
                        "type": {
                            "type": "string",
                            "enum": ["play", "draw", "pass", "end", "start", "leave", "undo"],
                        },
                        "player": {
                            "type": ["string", "null"],
                            "description": "Needed by every type but undo.",
                        },
                        "tile": _nullable(TILE),
                        "on": _nullable(TILE),
                        "train": {
                            "type": ["string", "null"],
                            "description": 'mexican-train: a player or "mexican".',
                        },
                        "version": {
                            "type": "integer",
                            "description": "409 unless the game is at this version.",
                        },
                    },
                    "anyOf": [
                        {"properties": {"type": {"const": "undo"}}},
                        {
                            "required": ["player"],
                            "properties": {
                                "type": {"enum": ["draw", "pass", "end", "start", "leave"]},
                                "player": {"type": "string"},
                            },
                        },
                        {
                            "required": ["player", "tile"],
                            "properties": {
                                "type": {"const": "play"},
                                "player": {"type": "string"},
                                "tile": TILE,
                            },
                        },
                    ],
                },
                "Hands": {
                    "type": "object",
                    "required": ["hands"],
                    "additionalProperties": False,
                    "properties": {
                        "hands": {
                            "type": "object",
                            "description": "One entry per player: tiles left, or points.",
                            "additionalProperties": {
                                "oneOf": [{"type": "array", "items": TILE}, {"type": "integer", "minimum": 0}]
                            },
                        },
                        "markers": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "Score pad with a marker penalty (mt.house.marker): the players "
                            "whose trains carried a marker when the round ended.",
                        },
                        "version": {"type": "integer"},
                    },
                },
                "GameState": GAME_STATE,
                "GameList": {
                    "type": "object",
                    "required": ["games"],
                    "properties": {
                        "games": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["id", "game", "players", "status", "created"],
                                "properties": {
                                    "id": {"type": "string"},
                                    "game": {
                                        "type": "string",
                                        "enum": list(GAMES),
                                    },
                                    "players": STRINGS,
                                    "status": {"type": "string", "enum": ["playing", "finished"]},
                                    "created": {"type": "string"},
                                },
                            },
                        }
                    },
                },
                "Event": EVENT,
                "EventList": {
                    "type": "object",
                    "required": ["events"],
                    "properties": {
                        "events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}
                    },
                },
                "Export": {
                    "type": "object",
                    "required": ["format", "format_version", "exported", "games"],
                    "properties": {
                        "format": {"const": "domino-referee"},
                        "format_version": {"const": 1},
                        "exported": {"type": "string"},
                        "games": {"type": "array", "items": {"$ref": "#/components/schemas/ExportedGame"}},
                    },
                },
                "ExportedGame": EXPORTED_GAME,
                "Import": {
                    "type": "object",
                    "required": ["games"],
                    "additionalProperties": False,
                    "properties": {
                        "format": {"const": "domino-referee"},
                        "format_version": {"const": 1},
                        "exported": {"type": "string"},
                        "games": {
                            "type": "array",
                            "minItems": 1,
                            "items": {"$ref": "#/components/schemas/ExportedGame"},
                        },
                    },
                },
                "Imported": {
                    "type": "object",
                    "required": ["imported"],
                    "properties": {
                        "imported": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["id", "version", "game", "status"],
                                "properties": {
                                    "id": {"type": "string"},
                                    "version": {"type": "integer"},
                                    "game": {"type": "string"},
                                    "status": {"type": "string"},
                                    "protected": {"type": "boolean"},
                                },
                            },
                        }
                    },
                },
                "RuleBook": {
                    "type": "object",
                    "required": ["game", "rules"],
                    "properties": {
                        "game": {"type": "string"},
                        "rules": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["id", "text"],
                                "properties": {"id": {"type": "string"}, "text": {"type": "string"}},
                            },
                        },
                    },
                },
            }
        },
    }
    add_photo_paths(document, game_id)
    add_server_answers(document)
    return document


# The answers that come from the server's side rather than the request (see
# referee.web.errors): which operations can give each.
WRITES = {"createGame", "deleteGame", "postAction", "postHands", "importGames"}
LOADS_A_GAME = {
    "getGame",
    "deleteGame",
    "postAction",
    "postHands",
    "getEvents",
    "getScoresheet",
    "exportGame",
    "exportAll",
    "readHandPhoto",
    "checkHand",
}
SERVER_ANSWERS = {
    500: "The referee hit an internal error, or the game's stored record is damaged and cannot "
    "be read (that game only): nothing was changed",
    503: "The database is read-only: nothing was saved (ask whoever runs the referee)",
    507: "The disk is full: nothing was saved (free some space and try again)",
}
WRONG_HOST = {
    "description": "Misdirected request: the Host header names an address this app does not serve "
    "(a guard against DNS rebinding: the addresses it serves on, and REFEREE_ALLOWED_HOSTS); plain text",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}


def add_server_answers(document: dict[str, Any]) -> None:
    """Every operation may answer 421 (a Host it does not serve) and 500 (an internal error;
    for an operation that loads a game, also that game's damaged record); a write may also
    answer 503 (a read-only database) and 507 (a full disk). All but 421 are JSON
    ``{"error", "rule"}`` like every refusal, and none of them changes anything."""
    for operations in document["paths"].values():
        for operation in operations.values():
            answers = operation["responses"]
            codes = [500] + ([503, 507] if operation["operationId"] in WRITES else [])
            for code in codes:
                description = SERVER_ANSWERS[code]
                if code == 500 and operation["operationId"] not in LOADS_A_GAME:
                    description = "The referee hit an internal error: nothing was changed"
                answers.setdefault(
                    str(code),
                    {
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                )
            answers.setdefault("421", WRONG_HOST)


# ----- hands from a photo (reads and checks, never writes) ---------------------------------


def add_photo_paths(document: dict[str, Any], game_id: dict[str, Any]) -> None:
    """The photo reading and the hand check: POST …/photo (multipart) and POST …/check."""
    number = {
        "name": "number",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
        "description": "The round number (1 …).",
    }
    warning = {
        "type": "object",
        "required": ["tile", "rule", "error"],
        "properties": {
            "tile": {
                **CANONICAL_TILE,
                "type": ["string", "null"],
                "description": "The tile, or null: the whole hand.",
            },
            "rule": {"type": ["string", "null"], "description": "Rule id from RULES.md."},
            "error": {"type": "string", "minLength": 1, "description": "One sentence (English)."},
            "text": {"type": "string", "description": "The sentence in the request's language."},
        },
    }
    tracked = {"type": ["integer", "null"], "description": "The hand's size by the log (referee mode)."}
    total = {"type": "integer", "minimum": 0, "description": "The hand's points by the game's scoring."}
    document["components"]["schemas"].update(
        {
            "PhotoReading": {
                "type": "object",
                "required": ["tiles", "total", "warnings"],
                "properties": {
                    "tiles": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["tile", "confidence", "box"],
                            "properties": {
                                "tile": CANONICAL_TILE,
                                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                                "box": {
                                    "type": "array",
                                    "items": {"type": "integer", "minimum": 0},
                                    "minItems": 4,
                                    "maxItems": 4,
                                    "description": "x, y, w, h in the photo's pixels after its EXIF rotation.",
                                },
                            },
                        },
                    },
                    "total": total,
                    "warnings": {"type": "array", "items": warning},
                    "width": {"type": "integer", "minimum": 1},
                    "height": {"type": "integer", "minimum": 1},
                    "tracked": tracked,
                },
            },
            "HandCheck": {
                "type": "object",
                "required": ["tiles"],
                "additionalProperties": False,
                "properties": {
                    "tiles": {"type": "array", "maxItems": 60, "items": TILE},
                    "player": {"type": ["string", "null"], "description": "Whose hand it is (optional)."},
                    "hands": {
                        "type": ["object", "null"],
                        "additionalProperties": {"type": "array", "maxItems": 60, "items": TILE},
                        "description": "Other players' hands, to find a tile in two hands.",
                    },
                },
            },
            "HandCheckAnswer": {
                "type": "object",
                "required": ["total", "warnings", "tracked"],
                "properties": {
                    "total": total,
                    "warnings": {"type": "array", "items": warning},
                    "tracked": tracked,
                },
            },
        }
    )
    document["paths"].update(
        {
            "/api/games/{game_id}/rounds/{number}/photo": {
                "post": {
                    "summary": "Read the tiles of a hand from a photo (changes nothing)",
                    "operationId": "readHandPhoto",
                    "parameters": [game_id, number],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "required": ["photo"],
                                    "properties": {
                                        "photo": {
                                            "type": "string",
                                            "format": "binary",
                                            "description": "A JPEG, PNG or HEIC photo, at most 20 MB.",
                                        },
                                        "player": {"type": "string", "description": "Whose hand it is."},
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _json(
                            "PhotoReading", "The tiles read, their points and the referee's warnings"
                        ),
                        **_refusals(400, 404, 413, 415, 422),
                    },
                },
            },
            "/api/games/{game_id}/rounds/{number}/check": {
                "post": {
                    "summary": "Check one hand before it is saved: its points and warnings (changes nothing)",
                    "operationId": "checkHand",
                    "parameters": [game_id, number],
                    "requestBody": _body("HandCheck"),
                    "responses": {
                        "200": _json("HandCheckAnswer", "The hand's points and the referee's warnings"),
                        **_refusals(400, 404, 415, 422),
                    },
                },
            },
        }
    )
