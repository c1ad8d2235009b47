"""Reading a page's form or query into a marshmallow schema, and marshmallow's nested error
messages walked to the first one: the one way every page (panel and rider app) reads input."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields

REQUIRED = "This field is required."


def first_error(messages: Any) -> tuple[tuple, str]:
    """(keys, text): marshmallow's first message and the field names and item indexes that
    lead to it."""
    path = []
    while True:
        if isinstance(messages, dict):
            key, messages = next(iter(messages.items()))
            path.append(key)
        elif isinstance(messages, list) and messages and not isinstance(messages[0], str):
            messages = messages[0]
        else:
            break
    text = messages[0] if isinstance(messages, list) and messages else str(messages)
    return tuple(path), text


def first_message(messages: Any) -> str:
    """A field's first message, in words for a person."""
    text = first_error(messages)[1]
    return REQUIRED if text == "Missing data for required field." else text


def field_errors(error: ValidationError) -> dict[str, str]:
    """One message a field (a repeated field's first wrong value's)."""
    return {name: first_message(messages) for name, messages in error.messages.items()}


def read(schema: Schema, form) -> tuple[dict, dict[str, str]]:
    """(values, errors): valid values, or what was entered (to show again, passwords left out)
    with one message per field. Blank fields count as missing; text is stripped, passwords
    are taken as typed; a List field takes every non-blank value, in order; a field is read
    under its data_key (for names that are Python keywords)."""
    data: dict[str, Any] = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        if isinstance(field, fields.List):
            values = [v.strip() for v in form.getall(key, []) if isinstance(v, str) and v.strip()]
            if values:
                data[key] = values
        elif isinstance(value := form.get(key), str) and value.strip():
            data[key] = value if name == "password" else value.strip()
    try:
        return schema.load(data), {}
    except ValidationError as exc:
        entered = {key: value for key, value in data.items() if key != "password"}
        return entered, field_errors(exc)


def read_query(schema: Schema, query) -> dict:
    """The query's valid values (blank parameters count as absent; text is stripped), or
    ValidationError naming the first bad parameter."""
    data = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        value = query.get(key, "").strip()
        if value:
            data[key] = value
    return schema.load(data)
