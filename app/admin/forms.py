"""The panel's forms, validated at the edge."""

from __future__ import annotations

import re
from datetime import date

from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema

from app.core.passwords import MIN_LENGTH
from app.training.assignments import MAX_RIDER_IDS, MAX_VALUE_LENGTH
from app.training.riders import MARKETS, STATUSES
from app.training.schemas import FLAG_TYPES

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


# Riders, rider page, assign, messages, admins (issue 10: panel-riders).

ASCII_DIGITS = re.compile(r"[0-9]{1,18}\Z")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
DAY_ERROR = "Enter a date as YYYY-MM-DD."
MESSAGE_STATUSES = ("sent", "failed", "logged")
MESSAGE_KINDS = ("reminder", "flag")
SHORT_TEXT = validate.Length(max=MAX_VALUE_LENGTH)


class RidersQuery(Schema):
    """The riders list's query; the export links pass the same names (README, riders list)."""

    q = fields.String(validate=validate.Length(max=200))
    market = fields.String(validate=validate.OneOf(MARKETS))
    status = fields.String(validate=validate.OneOf(STATUSES))
    vehicle_type = fields.String(validate=SHORT_TEXT)
    city = fields.String(validate=SHORT_TEXT)
    nationality = fields.String(validate=SHORT_TEXT)
    after = fields.String(validate=SHORT_TEXT)


class RiderStatusForm(Schema):
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))


class RiderFlagForm(Schema):
    type = fields.String(required=True, validate=validate.OneOf(FLAG_TYPES))
    note = fields.String(validate=validate.Length(max=1000))
    notify = fields.String(validate=validate.Equal("on"))


class RiderPathForm(Schema):
    path_id = fields.UUID(required=True, error_messages={"invalid_uuid": "Choose a path."})


class AssignForm(Schema):
    """DESIGN §8's assign form; the filters are repeated fields, `rider_ids` one ID a line."""

    path_id = fields.UUID(required=True, error_messages={"invalid_uuid": "Choose a path."})
    markets = fields.List(fields.String(validate=validate.OneOf(MARKETS)))
    statuses = fields.List(fields.String(validate=validate.OneOf(STATUSES)))
    vehicle_types = fields.List(fields.String(validate=SHORT_TEXT))
    cities = fields.List(fields.String(validate=SHORT_TEXT))
    rider_ids = fields.String()
    confirm = fields.String(validate=validate.Equal("1"))

    @validates("rider_ids")
    def _rider_ids(self, value: str, **_) -> None:
        ids = value.split()
        if len(ids) > MAX_RIDER_IDS:
            raise ValidationError(f"Paste at most {MAX_RIDER_IDS} rider IDs.")
        if any(len(rider_id) > MAX_VALUE_LENGTH for rider_id in ids):
            raise ValidationError(f"A rider ID has at most {MAX_VALUE_LENGTH} characters.")

    @validates_schema
    def _some_riders(self, data: dict, **_) -> None:
        if not any(data.get(name) for name in ("rider_ids", *ASSIGN_FILTERS)):
            raise ValidationError(
                "Choose riders: paste rider IDs or choose at least one filter.", "rider_ids"
            )


ASSIGN_FILTERS = ("markets", "statuses", "vehicle_types", "cities")


class MessagesQuery(Schema):
    status = fields.String(validate=validate.OneOf(MESSAGE_STATUSES))
    kind = fields.String(validate=validate.OneOf(MESSAGE_KINDS))
    # `from` is a Python keyword: the field is `since` with the query name `from`.
    since = fields.String(data_key="from", validate=validate.Regexp(DAY, error=DAY_ERROR))
    until = fields.String(data_key="to", validate=validate.Regexp(DAY, error=DAY_ERROR))
    before = fields.String(validate=validate.Regexp(ASCII_DIGITS, error="Not a message."))

    @validates_schema
    def _real_days(self, data: dict, **_) -> None:
        for name, key in (("since", "from"), ("until", "to")):
            if name in data:
                try:
                    date.fromisoformat(data[name])
                except ValueError:
                    raise ValidationError(DAY_ERROR, key) from None


class AdminForm(SetupForm):
    """Another admin, added in the panel: the setup form's fields without its token."""

    class Meta:
        exclude = ("token",)


class DisableAdminForm(Schema):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))


def read_fields(schema: Schema, form) -> tuple[dict, dict[str, str]]:
    """`read` for forms and queries with repeated fields (List fields: every non-blank value,
    in order) or names that are Python keywords (a field's data_key); passwords are not read.
    The entered values come back on errors, repeated ones as lists."""
    data = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        if isinstance(field, fields.List):
            values = [value.strip() for value in form.getall(key, []) if value.strip()]
            if values:
                data[key] = values
        elif isinstance(value := form.get(key), str) and value.strip():
            data[key] = value.strip()
    try:
        return schema.load(data), {}
    except ValidationError as exc:
        return data, {key: _first(_innermost(messages)) for key, messages in exc.messages.items()}


def _innermost(messages):
    """A repeated field's messages are keyed by the value's index: the first value's."""
    while isinstance(messages, dict):
        messages = next(iter(messages.values()))
    return messages
