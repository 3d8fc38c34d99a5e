"""The club nights' part of the OpenAPI document (API.md, "Club nights"): their paths and
schemas, merged into the document by ``referee.web.openapi``."""

from __future__ import annotations

from referee.match import MODES
from referee.nights.config import NAME_MOST, PLAYERS_FEWEST, PLAYERS_MOST, SEATINGS, STAGES_MOST
from referee.rules import GAMES
from referee.web.openapi_builders import (
    INTEGER,
    INTS,
    STRING,
    STRINGS,
    Schema,
    array,
    json_content,
    maybe,
    obj,
    of,
    ref,
    refusal_answer,
    strings,
)

NIGHT_STATUS = strings("playing", "finished")
NIGHT_REFUSALS = {
    400: "Malformed body, wrong types, or a night the club's rules refuse (`rule`: night.*); "
    "nothing was created",
    404: "Unknown night",
    413: "Body too large",
    415: "Not JSON",
    422: "Against the rules or the night's state: a table still playing (night.stage.open, naming "
    "the tables), a finished night, or options the game refuses",
}
NIGHT_PLAYER = of(
    "string",
    minLength=1,
    maxLength=40,
    pattern=r"^[^<>\x00-\x1f\x7f]*$",
    description="A player name, as in a game (API.md).",
)
NEW_NIGHT = obj(
    {
        "name": of("string", minLength=1, maxLength=NAME_MOST, description="The night's name."),
        "game": strings(*GAMES),
        "set": of("integer", description="The highest pip of the set (the game's default)."),
        "mode": strings(*MODES),
        "options": {
            "type": ["object", "null"],
            "description": "The game's options, for every table; null means the default.",
        },
        "players": array(
            NIGHT_PLAYER,
            minItems=PLAYERS_FEWEST,
            maxItems=PLAYERS_MOST,
            uniqueItems=True,
            description="Unique names; stage 1 deals them in this order, the first ones to table 1.",
        ),
        "table_size": of("integer", minimum=2, maximum=8, description="Tables seat this many, or one less."),
        "stages": of("integer", minimum=1, maximum=STAGES_MOST),
        "rounds_per_stage": maybe(
            "integer",
            minimum=1,
            description="mexican-train and chicken-foot: required; kozel: left out (a stage is a game).",
        ),
        "seating": strings(*SEATINGS),
    },
    *("name", "game", "players", "table_size", "stages", "seating"),
    closed=True,
)
NIGHT_TABLE = obj(
    {"table": of("integer", minimum=1), "players": STRINGS, "game": STRING, "status": NIGHT_STATUS},
    *("table", "players", "game", "status"),
)
CLOSED_TABLE = obj(
    {"table": of("integer", minimum=1), "players": STRINGS, "game": STRING, "totals": INTS},
    *("table", "players", "game", "totals"),
)
PLACING = obj(
    {"player": STRING, "total": INTEGER, "place": of("integer", minimum=1)}, "player", "total", "place"
)
NIGHT_STATE = obj(
    {
        "id": STRING,
        "name": STRING,
        "game": strings(*GAMES),
        "set": INTEGER,
        "mode": strings(*MODES),
        "options": of("object", description="Every option in force, defaults included."),
        "players": STRINGS,
        "table_size": INTEGER,
        "stages": INTEGER,
        "rounds_per_stage": maybe("integer"),
        "seating": strings(*SEATINGS),
        "stage": of("integer", minimum=1, description="The stage in play (the last one once finished)."),
        "status": NIGHT_STATUS,
        "created": STRING,
        "tables": array(NIGHT_TABLE, description="The stage in play; [] once the night is finished."),
        "history": array(
            obj({"stage": of("integer", minimum=1), "tables": array(CLOSED_TABLE)}, "stage", "tables"),
            description="The stages closed, oldest first.",
        ),
        "standings": array(PLACING, description="Every player, best first, over the stages closed."),
    },
    *("id", "name", "game", "set", "options", "players", "table_size", "stages", "rounds_per_stage"),
    *("seating", "stage", "status", "tables", "history", "standings"),
)
LISTED_NIGHT = obj(
    {"id": STRING, "name": STRING, "game": strings(*GAMES), "status": NIGHT_STATUS, "created": STRING},
    *("id", "name", "game", "status", "created"),
)
NEXT_STAGE = obj(
    {
        "key": of(
            "string",
            pattern="^[A-Za-z0-9_-]{8,64}$",
            description="Chosen by the client: a repeat with a key the night has accepted changes "
            "nothing and answers 200 with the night as it is.",
        )
    },
    closed=True,
)
# A table game's state names its night (GameState.night).
GAME_NIGHT = obj(
    {"id": STRING, "stage": of("integer", minimum=1), "table": of("integer", minimum=1)},
    *("id", "stage", "table"),
    description="A club night's table game: its night, stage and table.",
)
NIGHT_SCHEMAS: Schema = {
    "NewNight": NEW_NIGHT,
    "NightState": NIGHT_STATE,
    "NightList": obj({"nights": array(LISTED_NIGHT)}, "nights"),
    "NextStage": NEXT_STAGE,
}
NIGHT_WRITES = {"createNight", "nextStage"}
NIGHT_LOADS_A_GAME = {"nextStage"}  # it reads the finished games of the stage in play


def _answer(schema_name: str, description: str, location: bool = False) -> Schema:
    described: Schema = {"description": description, "content": json_content(ref(schema_name))}
    if location:
        described["headers"] = {
            "Location": {"description": "The night's address in the API", "schema": STRING}
        }
    return described


def _operation(
    operation_id: str,
    summary: str,
    ok: tuple[str, Schema],
    refused: tuple[int, ...],
    **more: Schema | list[Schema],
) -> Schema:
    status, answer = ok
    return {
        "summary": summary,
        "operationId": operation_id,
        **more,
        "responses": {
            status: answer,
            **{str(code): refusal_answer(NIGHT_REFUSALS[code]) for code in refused},
        },
    }


def night_paths() -> Schema:
    """The paths of club nights, each with its answers (the server's own are added with the
    rest of the document's)."""
    night_id = [{"name": "night_id", "in": "path", "required": True, "schema": STRING}]
    new_night = {"required": True, "content": json_content(ref("NewNight"))}
    next_body = {"required": False, "content": json_content(ref("NextStage"))}
    return {
        "/api/nights": {
            "get": _operation(
                "listNights", "List club nights", ("200", _answer("NightList", "The nights")), ()
            ),
            "post": _operation(
                "createNight",
                "Create a club night and its stage-1 games",
                ("201", _answer("NightState", "The new night", location=True)),
                (400, 413, 415, 422),
                requestBody=new_night,
            ),
        },
        "/api/nights/{night_id}": {
            "get": _operation(
                "getNight",
                "Club night state",
                ("200", _answer("NightState", "The night")),
                (404,),
                parameters=night_id,
            ),
        },
        "/api/nights/{night_id}/next": {
            "post": _operation(
                "nextStage",
                "Close the stage in play and seat the next (the last one finishes the night)",
                ("200", _answer("NightState", "The night")),
                (400, 404, 413, 415, 422),
                parameters=night_id,
                requestBody=next_body,
            ),
        },
    }
