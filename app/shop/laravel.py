"""Laravel's wording and error body (docs/api-shop.md#keys-and-errors), for marshmallow fields and
the shop's errors.

Laravel names a field by its key with underscores as spaces ("The product id field is
required."); the `errors` object keeps the key itself.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate
from multidict import MultiMapping

from app.core.errors import ApiError, ErrorShape
from app.core.fields import Integer
from app.core.http import json_response
from app.core.query import read_query

# The numbers 1 and 0 are in the sets too: they equal True and False.
TRUTHY = {True, "1", "true"}
FALSY = {False, "0", "false"}


def blanks_as_null(values: dict[str, Any]) -> dict[str, Any]:
    """Laravel's ConvertEmptyStringsToNull: an empty string in a body is null."""
    return {key: None if value == "" else value for key, value in values.items()}


def label(name: str) -> str:
    return name.replace("_", " ")


def required(name: str) -> str:
    return f"The {label(name)} field is required."


def field_messages(name: str, kind: str) -> dict[str, str]:
    return {
        "required": required(name),
        "null": required(name),
        "invalid": f"The {label(name)} field must be {kind}.",
        "repeated": f"The {label(name)} field must be given at most once.",
        "nul": f"The {label(name)} field must not contain the NUL character.",
    }


BIGINT = 2**63


class _Integer(Integer):
    """An integer: from a query, its digits; in a JSON body (`json_only`), a JSON number with
    no fraction only (`12` or `12.0`, as JSON Schema counts integers; not `"12"` or `true`)."""

    def __init__(self, *, json_only: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.json_only = json_only

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or (isinstance(value, str) and self.json_only):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def integer(name: str, **kwargs: Any) -> fields.Integer:
    """An integer the database can hold (a larger one is "not an integer" rather than a crash);
    the range is a validator, so the OpenAPI document states it too."""
    messages = field_messages(name, "an integer")
    bigint = validate.Range(-BIGINT, BIGINT - 1, error=messages["invalid"])
    extra = kwargs.pop("validate", [])
    extra = list(extra) if isinstance(extra, (list, tuple)) else [extra]
    return _Integer(error_messages=messages, validate=[bigint, *extra], **kwargs)


def string(name: str, **kwargs: Any) -> fields.String:
    return fields.String(error_messages=field_messages(name, "a string"), **kwargs)


class _StrictBoolean(fields.Boolean):
    """A JSON true or false only (1 and "1" equal True for marshmallow's sets)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


def boolean(name: str, *, strict: bool = False, **kwargs: Any) -> fields.Boolean:
    """From a query: 1/true/0/false; in a JSON body (`strict`): true or false."""
    messages = field_messages(name, "true or false")
    if strict:
        return _StrictBoolean(error_messages=messages, **kwargs)
    return fields.Boolean(truthy=TRUTHY, falsy=FALSY, error_messages=messages, **kwargs)


def filled(name: str, high: int = 255) -> list:
    """Non-empty (an empty string counts as missing, as in Laravel) and at most `high` long."""

    # A regular expression rather than a function, so that the OpenAPI document shows it.
    not_blank = validate.Regexp(r"[\s\S]*\S", error=required(name))
    too_long = f"The {label(name)} field must not be greater than {high} characters."
    return [not_blank, validate.Length(max=high, error=too_long)]


def email(name: str, **kwargs: Any) -> fields.String:
    """A required, filled, valid email address; the texts come in that order."""
    invalid = f"The {label(name)} field must be a valid email address."
    return fields.String(
        required=True,
        error_messages=field_messages(name, "a string"),
        validate=[*filled(name), validate.Email(error=invalid)],
        **kwargs,
    )


def between(name: str, low: int, high: int) -> validate.Range:
    return validate.Range(
        low, high, error=f"The {label(name)} field must be between {low} and {high}."
    )


def at_least(name: str, low: int) -> validate.Range:
    return validate.Range(min=low, error=f"The {label(name)} field must be at least {low}.")


def one_of(name: str, choices: tuple[str, ...]) -> validate.OneOf:
    return validate.OneOf(choices, error=f"The selected {label(name)} is invalid.")


def errors_of(exc: ValidationError) -> dict[str, list[str]]:
    """marshmallow's messages as Laravel's `errors` object: field -> list of texts."""
    messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
    return {
        name: [
            text
            for text in (texts if isinstance(texts, list) else [texts])
            if isinstance(text, str)
        ]
        for name, texts in messages.items()
    }


def unprocessable(errors: dict[str, list[str]]) -> ApiError:
    """Laravel's 422: the first text as `message`, "(and N more errors)" when there are more."""
    texts = [text for field_texts in errors.values() for text in field_texts]
    message = texts[0]
    if len(texts) > 1:
        more = len(texts) - 1
        message += f" (and {more} more error{'s' if more > 1 else ''})"
    return ApiError(422, message, errors=errors)


def load(schema: Any, data: Any) -> Any:
    """Load `data` with a schema instance, or raise the 422 ApiError."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise unprocessable(errors_of(exc)) from None


def load_query(schema: Any, query: MultiMapping[str]) -> Any:
    """The request's query read by `schema` (`app.core.query`), or the 422 ApiError."""
    try:
        return read_query(schema, query)
    except ValidationError as exc:
        raise unprocessable(errors_of(exc)) from None


class ShopErrorSchema(Schema):
    """The shop's error body in the OpenAPI document; `errors` only on 422."""

    success = fields.Boolean(required=True, metadata={"example": False})
    message = fields.String(required=True)
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))


def _error(error: ApiError) -> web.Response:
    body = {"success": False, "message": error.message, **error.extra}
    return json_response(body, status=error.status)


# `{"success": false, "message"}`, with `errors` on a 422; refused input is a 422, as in Laravel.
ERRORS = ErrorShape(_error, invalid_status=422, schema=ShopErrorSchema)
