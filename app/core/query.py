"""Query parameters read by the same marshmallow schema that documents them.

Every API reads its query here, so one rule holds for all of them: a parameter given twice is
ambiguous and refused (a client that repeats it meant something the server cannot guess), so
is text holding U+0000 (no parameter can be stored with it), the schema types and bounds every
value, names are case-sensitive and unknown names are ignored.
A package whose API counts an empty value as not sent says so on its schema
(`BLANK_IS_ABSENT`); the OpenAPI document reads the same flag (`app.core.openapi`).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError
from multidict import MultiMapping

from app.core.errors import ApiError

# The texts of a repeated parameter and of one holding U+0000 (which PostgreSQL cannot store),
# unless its field has its own (`error_messages["repeated"]`, `error_messages["nul"]`).
REPEATED = "must be given at most once"
NUL = "must not contain the NUL character (U+0000)"


def blank_is_absent(schema: Schema | type[Schema]) -> bool:
    """Whether `name=` counts as not sent (else the empty text is the value to validate)."""
    return bool(getattr(schema, "BLANK_IS_ABSENT", False))


def read_query(schema: Schema, query: MultiMapping[str]) -> dict[str, Any]:
    """The schema's parameters that were given, loaded; a ValidationError keyed by parameter
    name (the first repeated one, or one holding U+0000, alone, before any value is read)."""
    blanks_absent = blank_is_absent(schema)
    given: dict[str, str] = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        values = [value for value in query.getall(key, ()) if value or not blanks_absent]
        if len(values) > 1:
            raise ValidationError({key: [field.error_messages.get("repeated", REPEATED)]})
        if any("\x00" in value for value in values):
            raise ValidationError({key: [field.error_messages.get("nul", NUL)]})
        if values:
            given[key] = values[0]
    return schema.load(given)


def first_error(schema: Schema, exc: ValidationError) -> tuple[str, str]:
    """(parameter, text) of the first failing parameter in the schema's order."""
    messages = exc.messages if isinstance(exc.messages, dict) else {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in messages:
            texts = messages[key]
            return key, texts[0] if isinstance(texts, list) else str(texts)
    return "query", str(exc.messages)


def parse_query(schema: Schema, query: MultiMapping[str]) -> dict[str, Any]:
    """`read_query` for the `{error, code}` APIs: a refused parameter answers 400
    `invalid_request` with `"<parameter> <text>"`."""
    try:
        return read_query(schema, query)
    except ValidationError as exc:
        name, text = first_error(schema, exc)
        raise ApiError(400, f"{name} {text}") from None
