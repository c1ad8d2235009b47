"""The panel's forms, validated at the edge."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from app.core.fields import Integer, Text
from app.core.passwords import MIN_LENGTH
from app.training.riders import MARKET_MESSAGE, MARKETS, MAX_LENGTHS, STATUS_MESSAGE, STATUSES

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


# CSV exports (issue 12): the filters of the page an export comes from, and its part.

MESSAGE_STATUSES = ("sent", "failed", "logged")
MESSAGE_KINDS = ("reminder", "flag")


class ExportQuery(Schema):
    part = Integer(
        load_default=1, validate=validate.Range(min=1, error="part must be a whole number from 1.")
    )


class RiderFiltersQuery(ExportQuery):
    """The riders list's filters (`/admin/riders`), each exact but the search text `q`."""

    q = Text(validate=validate.Length(max=200))
    market = fields.String(validate=validate.OneOf(MARKETS, error=MARKET_MESSAGE))
    status = fields.String(validate=validate.OneOf(STATUSES, error=STATUS_MESSAGE))
    vehicle_type = Text(validate=validate.Length(max=MAX_LENGTHS["vehicleType"]))
    city = Text(validate=validate.Length(max=MAX_LENGTHS["city"]))
    nationality = Text(validate=validate.Length(max=MAX_LENGTHS["nationality"]))


class MessageFiltersQuery(ExportQuery):
    """The messages page's filters (`/admin/messages`); `from` and `to` are UTC dates, both
    included."""

    status = fields.String(validate=validate.OneOf(MESSAGE_STATUSES))
    kind = fields.String(validate=validate.OneOf(MESSAGE_KINDS))
    from_ = fields.Date(data_key="from", format="%Y-%m-%d")
    to = fields.Date(format="%Y-%m-%d")


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
