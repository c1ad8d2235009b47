"""The panel's forms, validated at the edge."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from app.core.passwords import MIN_LENGTH

EMAIL = validate.And(
    validate.Length(max=254),
    validate.Regexp(r"^[^@\s]+@[^@\s]+$", error="Enter an email address like name@example.com."),
)


class SignInForm(Schema):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))


class SetupForm(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=200))
    email = fields.String(required=True, validate=EMAIL)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    password = fields.String(
        required=True,
        validate=validate.Length(
            min=MIN_LENGTH, max=1024, error=f"Use at least {MIN_LENGTH} characters."
        ),
    )


def read(schema: Schema, form) -> tuple[dict, dict[str, str]]:
    """(values, errors): valid values, or what was entered (to show again, passwords left out)
    with one message per field. Blank fields count as missing; text is stripped, passwords
    are taken as typed."""
    data = {}
    for name in schema.fields:
        value = form.get(name)
        if isinstance(value, str) and value.strip():
            data[name] = value if name == "password" else value.strip()
    try:
        return schema.load(data), {}
    except ValidationError as exc:
        entered = {name: value for name, value in data.items() if name != "password"}
        return entered, {name: _first(messages) for name, messages in exc.messages.items()}


def _first(messages) -> str:
    message = messages[0] if isinstance(messages, list) else str(messages)
    return "This field is required." if message == "Missing data for required field." else message
