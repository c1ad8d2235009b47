"""Query parameters of Family A: names are case-sensitive, unknown ones are ignored, and a
malformed value answers 400 `invalid_request` naming the parameter."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError
from multidict import MultiMapping

from app.core.errors import ApiError


def parse(schema: Schema, query: MultiMapping[str]) -> dict[str, Any]:
    """The schema's parameters that were given, typed; the first bad one (in the schema's
    order) raises a 400 naming it. A parameter given twice is ambiguous, so it is refused."""
    for name in schema.fields:
        if len(query.getall(name, ())) > 1:
            raise ApiError(400, f"{name} must be given at most once")
    try:
        return schema.load({name: query[name] for name in schema.fields if name in query})
    except ValidationError as exc:
        name = next(name for name in schema.fields if name in exc.messages)
        raise ApiError(400, f"{name} {exc.messages[name][0]}") from None
