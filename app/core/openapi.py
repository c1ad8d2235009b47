"""OpenAPI 3.1 document generated from the route table and the marshmallow schemas.

Handlers describe themselves with `@operation(...)`; `build_spec(app)` walks the routes, so a
route without a description is simply not documented (and a test catches that).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from aiohttp import web
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from marshmallow import Schema, fields

from app.core import pages
from app.core.errors import ErrorShape
from app.core.http import json_response
from app.core.keys import ERROR_SHAPES
from app.core.query import blank_is_absent

OPENAPI_ATTR = "__openapi__"
# Marks an operation whose query schema counts an empty value as not sent, until the document
# is built (`_allow_blank_parameters`).
BLANK_IS_ABSENT = "x-blank-is-absent"
EMPTY_TEXT = {"type": "string", "maxLength": 0}
NO_NUL = {"pattern": "^[^\\x00]*$"}
# Any JSON value as `anyOf` branches, one a type: the same as `{}`, but a client generator
# keeps a model beside it (openapi-python-client refuses one multi-type `type`).
ANY_JSON = [
    {"type": "object"},
    {"type": "array", "items": {}},
    {"type": "string"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
]

UNEXPECTED = (
    "Unexpected server error, e.g. the database cannot be reached (`internal_error`); "
    "retry later with backoff"
)


def bearer_schemes(name: str, scope: str, variable: str, owner: str) -> dict[str, dict[str, Any]]:
    """The two ways `auth.api_key` takes a key of `scope` (or environment variable
    `variable`), as the security schemes `<name>Key` and `<name>Bearer` of a package (its
    descriptor carries them)."""
    key = (
        f"An API key of scope {scope}, or {variable} ({owner}). Keys are made and revoked with"
        " `python -m app create-api-key` or at /admin/api-keys; any number may be live at once"
    )
    return {
        f"{name}Key": {
            "type": "apiKey",
            "in": "header",
            "name": "x-api-key",
            "description": f"{key}. Wins over Bearer.",
        },
        f"{name}Bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": f"{key}, as a Bearer token.",
        },
    }


def any_of(schemes: Mapping[str, Any]) -> list[dict[str, list]]:
    """An operation's security: any one of `schemes`."""
    return [{name: []} for name in schemes]


class ErrorSchema(Schema):
    """The JSON error body (`errors.JSON_ERRORS`), of every package whose ErrorShape names no
    schema of its own."""

    error = fields.String(required=True, metadata={"example": "Invalid API key"})
    code = fields.String(required=True, metadata={"example": "unauthorized"})


def operation(
    *,
    summary: str,
    tag: str,
    security: list[dict[str, list]],
    responses: dict[int, tuple[str, Any]],
    description: str = "",
    request: Any = None,
    query: type[Schema] | None = None,
    request_example: Any = None,
    headers: tuple[dict[str, Any], ...] = (),
    links: dict[str, dict[str, Any]] | None = None,
):
    """Describe a handler for the OpenAPI document.

    `security` is the requirement (`any_of` the package's schemes); `responses` maps a status
    to (description, schema or None); `query` is a schema whose fields are the query
    parameters; `headers` are request header parameter objects; `links` are the 200 answer's
    OpenAPI links (name -> link object, naming the next operation by its `operationId`, the
    handler's name).
    """

    def decorate(handler):
        doc: dict[str, Any] = {
            "operationId": handler.__name__,
            "summary": summary,
            "tags": [tag],
            "security": security,
            "responses": {
                str(status): _response(text, schema) for status, (text, schema) in responses.items()
            },
        }
        if description:
            doc["description"] = description
        if links:
            doc["responses"]["200"]["links"] = links
        parameters = [{"in": "header", **header} for header in headers]
        if query is not None:
            parameters.append({"in": "query", "schema": query})
            if blank_is_absent(query):
                doc[BLANK_IS_ABSENT] = True
        if parameters:
            doc["parameters"] = parameters
        if request is not None:
            media: dict[str, Any] = {"schema": request}
            if request_example is not None:
                media["example"] = request_example
            doc["requestBody"] = {"required": True, "content": {"application/json": media}}
        setattr(handler, OPENAPI_ATTR, doc)
        return handler

    return decorate


def _response(text: str, schema: Any) -> dict[str, Any]:
    if schema is None:
        return {"description": text}
    return {"description": text, "content": {"application/json": {"schema": schema}}}


def _json_schema_keywords(_converter: Any, field: Any, **_: Any) -> dict[str, Any]:
    """A field's `metadata["json_schema"]`: JSON Schema keywords apispec does not carry over
    (`contains`) or sets from the field itself (`items`), for a rule the validator applies."""
    return field.metadata.get("json_schema", {})


def _refuse_nul_in_parameters(operation: dict[str, Any]) -> None:
    """No query parameter may hold U+0000 (`app.core.query`): PostgreSQL cannot store it. (A
    number, date or boolean cannot hold it anyway; a pattern only speaks of text.)"""
    for parameter in operation.get("parameters", []):
        schema = parameter["schema"]
        types = schema.get("type", [])
        if parameter["in"] == "query" and "string" in (
            types if isinstance(types, list) else [types]
        ):
            parameter["schema"] = {**schema, "allOf": [*schema.get("allOf", []), NO_NUL]}


def _allow_blank_parameters(operation: dict[str, Any]) -> None:
    """An optional query parameter whose empty value counts as not sent (`app.core.query`)
    also takes the empty text."""
    if not operation.pop(BLANK_IS_ABSENT, False):
        return
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "query" and not parameter.get("required"):
            parameter["schema"] = {"anyOf": [parameter["schema"], EMPTY_TEXT]}
            parameter["description"] = " ".join(
                filter(None, [parameter.get("description"), "Empty: as if not sent."])
            )


def _path_parameters(path: str) -> list[dict[str, Any]]:
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    return [
        {"in": "path", "name": name, "required": True, "schema": {"type": "string"}}
        for name in names
    ]


def _with_common_responses(shape: ErrorShape, responses: dict[str, Any]) -> dict[str, Any]:
    """Answers any operation can give, added where a handler did not describe them itself:
    500 (the database is down: retry later), and the package's status for refused input
    (400, the shop's 422) for text PostgreSQL cannot store (U+0000) in a parameter."""
    error = shape.schema or ErrorSchema
    common = {
        "500": _response(UNEXPECTED, error),
        str(shape.invalid_status): _response(
            "A parameter holds text that cannot be stored (U+0000)", error
        ),
    }
    return dict(sorted({**common, **responses}.items()))


def _request_schemas(operations: dict[str, dict[str, Any]]) -> list[Any]:
    bodies = [entry.get("requestBody") for ops in operations.values() for entry in ops.values()]
    return [body["content"]["application/json"]["schema"] for body in bodies if body]


def build_spec(app: web.Application) -> dict[str, Any]:
    marshmallow = MarshmallowPlugin()
    spec = APISpec(
        title="Rider Operations Service",
        version="1.0.0",
        openapi_version="3.1.0",
        plugins=[marshmallow],
        info={"description": app.get(DESCRIPTION_KEY, "")},
    )
    marshmallow.converter.add_attribute_function(_json_schema_keywords)
    for name, scheme in app[SECURITY_SCHEMES_KEY].items():
        spec.components.security_scheme(name, scheme)
    operations: dict[str, dict[str, Any]] = {}
    shapes = app[ERROR_SHAPES]
    for route in app.router.routes():
        doc = getattr(route.handler, OPENAPI_ATTR, None)
        # aiohttp adds a HEAD route to every GET route; documenting it would also share the
        # GET operation's parameter objects, which apispec resolves in place.
        if doc is None or route.resource is None or route.method == "HEAD":
            continue
        path = route.resource.canonical
        responses = _with_common_responses(shapes.for_path(path), doc["responses"])
        entry = {**doc, "responses": responses}
        if params := _path_parameters(path):
            entry["parameters"] = params + entry.get("parameters", [])
        operations.setdefault(path, {})[route.method.lower()] = entry
    for schema in _request_schemas(operations):
        # A rule across fields (JSON Schema keywords next to the properties, e.g. `anyOf`).
        if extra := getattr(schema, "JSON_SCHEMA", None):
            spec.components.schema(resolver(schema), extra, schema=schema)
    for path, ops in operations.items():
        spec.path(path=path, operations=ops)
    document = spec.to_dict()
    for ops in document["paths"].values():
        for entry in ops.values():
            _refuse_nul_in_parameters(entry)
            _allow_blank_parameters(entry)
    return document


DESCRIPTION_KEY = web.AppKey("openapi_description", str)
SECURITY_SCHEMES_KEY = web.AppKey("openapi_security_schemes", dict)
SPEC_KEY = web.AppKey("openapi_spec", dict)


async def openapi_json(request: web.Request) -> web.Response:
    document = request.app[SPEC_KEY]  # built on first use: every route is known by then
    if not document:
        document.update(build_spec(request.app))
    return json_response(document)


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rider Operations Service API</title>
<link rel="stylesheet" href="/api/docs/static/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/api/docs/static/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body></html>
"""


async def docs_page(_: web.Request) -> web.Response:
    response = web.Response(text=DOCS_PAGE, content_type="text/html", charset="utf-8")
    pages.frame_headers(response)  # under /api, so not a page to the headers hook
    return response


def _swagger_static_dir() -> str:
    import swagger_ui

    return os.path.join(os.path.dirname(swagger_ui.__file__), "static")


def setup(app: web.Application, description: str, schemes: dict[str, dict[str, Any]]) -> None:
    """Serve the document, with the packages' security `schemes`, and a docs page that needs no
    internet access."""
    app[DESCRIPTION_KEY] = description
    app[SECURITY_SCHEMES_KEY] = schemes
    app[SPEC_KEY] = {}
    app.router.add_get("/api/openapi.json", openapi_json)
    app.router.add_get("/api/docs", docs_page)
    app.router.add_static("/api/docs/static", _swagger_static_dir())
