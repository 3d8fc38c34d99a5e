"""The small builders of the OpenAPI document (``referee.web.openapi``) and of its parts
kept in modules of their own (``referee.web.openapi_nights``): schemas, answers, bodies."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

Schema = dict[str, Any]  # a JSON schema, or any other part of the document

# ----------------------------------------------------------------------------- builders


def of(kind: str | list[str], **keywords: Any) -> Schema:
    return {"type": kind, **keywords}


def maybe(kind: str, **keywords: Any) -> Schema:  # kind, or null
    return of([kind, "null"], **keywords)


def array(items: Schema, **keywords: Any) -> Schema:
    return {"type": "array", "items": items, **keywords}


def obj(
    properties: Schema, *required: str, closed: bool = False, kind: Any = "object", **more: Any
) -> Schema:
    """An object with these ``properties`` (``required`` among them); ``closed``: no others."""
    schema: Schema = {"type": kind}
    if required:
        schema["required"] = list(required)
    if closed:
        schema["additionalProperties"] = False
    return {**schema, "properties": properties, **more}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: Schema) -> Schema:
    return {"application/json": {"schema": schema}}


def strings(*values: str) -> Schema:
    return of("string", enum=list(values))


def nullable(schema: Schema) -> Schema:
    """``schema`` that also accepts null (an optional field sent as null)."""
    schema = deepcopy(schema)
    types = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
    schema["type"] = types if "null" in types else [*types, "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema


STRING, INTEGER, BOOLEAN = of("string"), of("integer"), of("boolean")
STRINGS = array(STRING)
INTS = of("object", additionalProperties=INTEGER)
STAMP = maybe("string", minLength=1, maxLength=40)

# ----------------------------------------------------------------------------- answers

REFUSALS = {
    400: "Malformed body or wrong types",
    403: "The game is protected by a table PIN",
    -403: "The owner PIN is needed (X-Owner-Pin): for backups and exports once any PIN is set",
    404: "Unknown game or round",
    405: "Method not allowed at this address",
    409: "The game changed (stale version), or an imported game id exists already",
    413: "Body too large",
    415: "Not JSON",
    422: "Well-formed but against the rules or the state",
}


def refusal_answer(description: str) -> Schema:
    return {"description": description, "content": json_content(ref("Error"))}


def refusal_answers(*codes: int) -> Schema:  # (-403: the owner's 403)
    return {str(abs(code)): refusal_answer(REFUSALS[code]) for code in codes}


def json_answer(schema_ref: str, description: str, headers: Schema | None = None) -> Schema:
    answer: Schema = {"description": description, "content": json_content(ref(schema_ref))}
    if headers:
        answer["headers"] = headers
    return answer


def json_request(ref_name: str) -> Schema:
    return {"required": True, "content": json_content(ref(ref_name))}


LOCATION = {"Location": {"description": "The game's address in the API", "schema": STRING}}
ATTACHMENT = {
    "Content-Disposition": {
        "description": 'attachment; filename="…json"',
        "schema": of("string", pattern="^attachment"),
    }
}
CHANGE_REFUSED = (400, 403, 404, 409, 413, 415, 422)
