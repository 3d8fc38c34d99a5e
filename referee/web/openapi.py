"""The OpenAPI 3 description of the JSON API (served at /api/openapi.json)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

TILE = {"type": "string", "pattern": r"^\s*\d{1,2}\s*[-|:/]\s*\d{1,2}\s*$", "example": "5-12"}
ERROR = {
    "type": "object", "required": ["error", "rule"],
    "properties": {
        "error": {"type": "string", "description": "One sentence for a person."},
        "rule": {"type": ["string", "null"], "description": "Rule id from the rule book, or null."},
        "rule_text": {"type": "string"},
    },
}


def _refusals(*codes: int) -> dict[str, Any]:
    text = {400: "Malformed body or wrong types", 403: "The game is protected by a table PIN",
            404: "Unknown game or round", 409: "The game changed (stale version)",
            413: "Body too large", 415: "Not JSON", 422: "Against the rules or the state"}
    return {str(code): {"description": text[code], "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}} for code in codes}


def _json(schema_ref: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema_ref}"}}}}


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    body = lambda ref: {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}  # noqa: E731
    return {
        "openapi": "3.1.0",
        "info": {"title": "Domino Referee API", "version": "1",
                 "description": "Referee and score pad for Mexican Train, Chicken Foot and Kozel."},
        "paths": {
            "/api/games": {
                "get": {"summary": "List games", "responses": {"200": _json("GameList", "The games")}},
                "post": {"summary": "Create a game", "requestBody": body("NewGame"),
                         "responses": {"201": _json("GameState", "The new game"),
                                       **_refusals(400, 413, 415, 422)}},
            },
            "/api/games/{game_id}": {
                "get": {"summary": "Game state", "parameters": [game_id],
                        "responses": {"200": _json("GameState", "The game"), **_refusals(404)}},
            },
            "/api/games/{game_id}/actions": {
                "post": {"summary": "Log an action (referee mode), undo, or leave (kozel)",
                         "parameters": [game_id], "requestBody": body("Action"),
                         "responses": {"200": _json("GameState", "The new state"),
                                       **_refusals(400, 403, 404, 409, 413, 415, 422)}},
            },
            "/api/games/{game_id}/rounds/{number}/hands": {
                "post": {"summary": "Enter (or correct) the hands left of a round",
                         "parameters": [game_id, {"name": "number", "in": "path", "required": True,
                                                  "schema": {"type": "string"}}],
                         "requestBody": body("Hands"),
                         "responses": {"200": _json("GameState", "The new state"),
                                       **_refusals(400, 403, 404, 409, 413, 415, 422)}},
            },
            "/api/games/{game_id}/events": {
                "get": {"summary": "The game's history of accepted changes", "parameters": [game_id],
                        "responses": {"200": {"description": "Events", "content": {"application/json": {
                            "schema": {"type": "object"}}}}, **_refusals(404)}},
            },
            "/api/games/{game_id}/scoresheet.csv": {
                "get": {"summary": "Scoresheet as CSV", "parameters": [game_id],
                        "responses": {"200": {"description": "CSV", "content": {"text/csv": {
                            "schema": {"type": "string"}}}}, **_refusals(404)}},
            },
            "/api/rules/{game}": {
                "get": {"summary": "The rule book of a game",
                        "parameters": [{"name": "game", "in": "path", "required": True,
                                        "schema": {"type": "string"}}],
                        "responses": {"200": _json("RuleBook", "Rules"), **_refusals(404)}},
            },
            "/api/openapi.json": {
                "get": {"summary": "This document", "responses": {"200": {
                    "description": "OpenAPI 3", "content": {"application/json": {"schema": {"type": "object"}}}}}},
            },
        },
        "components": {"schemas": {
            "Error": ERROR,
            "Tile": TILE,
            "NewGame": {
                "type": "object", "required": ["game", "players"], "additionalProperties": False,
                "properties": {
                    "game": {"type": "string", "enum": ["mexican-train", "chicken-foot", "kozel"]},
                    "players": {"type": "array", "minItems": 1, "maxItems": 30,
                                "items": {"type": "string", "minLength": 1, "maxLength": 40}},
                    "set": {"type": "integer", "enum": [6, 9, 12, 15, 18]},
                    "mode": {"type": "string", "enum": ["referee", "scores"]},
                    "options": {"type": "object"},
                    "pin": {"type": "string", "pattern": "^[0-9]{4,8}$"},
                },
            },
            "Action": {
                "type": "object", "required": ["type"], "additionalProperties": False,
                "properties": {
                    "type": {"type": "string", "enum": ["play", "draw", "pass", "end", "start", "leave", "undo"]},
                    "player": {"type": "string"}, "tile": TILE, "on": TILE,
                    "train": {"type": "string"}, "version": {"type": "integer"},
                },
            },
            "Hands": {
                "type": "object", "required": ["hands"],
                "properties": {
                    "hands": {"type": "object", "additionalProperties": {"oneOf": [
                        {"type": "array", "items": TILE}, {"type": "integer", "minimum": 0}]}},
                    "version": {"type": "integer"},
                },
            },
            "RoundEnd": {"type": ["object", "null"], "properties": {
                "reason": {"type": "string", "enum": ["domino", "blocked", "fish", "table"]},
                "player": {"type": ["string", "null"]}}},
            "GameState": {
                "type": "object",
                "required": ["id", "game", "mode", "set", "players", "options", "version", "status",
                             "round", "rounds", "totals", "winners"],
                "properties": {
                    "id": {"type": "string"}, "game": {"type": "string"}, "mode": {"type": "string"},
                    "set": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
                    "options": {"type": "object"}, "version": {"type": "integer"},
                    "status": {"type": "string", "enum": ["playing", "finished"]},
                    "created": {"type": "string"},
                    "round": {"type": "object", "required": ["number", "double", "status", "turn", "boneyard", "hands", "end"],
                              "properties": {
                                  "number": {"type": "integer"}, "double": {"type": ["string", "null"]},
                                  "status": {"type": "string", "enum": ["playing", "scoring", "done"]},
                                  "turn": {"type": ["string", "null"]}, "boneyard": {"type": ["integer", "null"]},
                                  "hands": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}},
                                  "end": {"$ref": "#/components/schemas/RoundEnd"},
                                  "trains": {"type": "object"}, "open_doubles": {"type": "array", "items": {"type": "string"}},
                                  "open_ends": {"type": "array"}, "foot": {"type": ["object", "null"]},
                                  "ends": {"type": "array", "items": {"type": "integer"}},
                              }},
                    "rounds": {"type": "array", "items": {"type": "object", "properties": {
                        "number": {"type": "integer"}, "double": {"type": ["string", "null"]},
                        "points": {"type": "object", "additionalProperties": {"type": "integer"}},
                        "end": {"$ref": "#/components/schemas/RoundEnd"}}}},
                    "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "winners": {"type": "array", "items": {"type": "string"}},
                    "remembered": {"type": "object"}, "pot": {"type": "integer"},
                    "goats": {"type": "array", "items": {"type": "string"}},
                    "rating": {"type": "object"}, "left": {"type": ["string", "null"]},
                },
            },
            "GameList": {"type": "object", "properties": {"games": {"type": "array", "items": {
                "type": "object", "properties": {
                    "id": {"type": "string"}, "game": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "string"}},
                    "status": {"type": "string"}, "created": {"type": "string"}}}}}},
            "RuleBook": {"type": "object", "properties": {
                "game": {"type": "string"},
                "rules": {"type": "array", "items": {"type": "object", "properties": {
                    "id": {"type": "string"}, "text": {"type": "string"}}}}}},
        }},
    }
