"""The panel's forms, validated at the edge."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from app.core.fields import Integer, Text
from app.core.passwords import MIN_LENGTH
from app.training.records import PathRecordSchema

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
    """The first message of a field; a list's errors come by item index ({0: [...]})."""
    while isinstance(messages, dict):
        messages = next(iter(messages.values()))
    message = messages[0] if isinstance(messages, list) else str(messages)
    return "This field is required." if message == "Missing data for required field." else message


# Learning paths (DESIGN §8's stable field names): load-data's path record without its id,
# with upper limits a person's typing should not exceed.
PATH_NAME_MAX = 200
PATH_DAYS_MAX = 730
PATH_LISTS = ("flag_types", "markets", "vehicle_types", "nationalities", "courses")


class PathForm(PathRecordSchema):
    class Meta:
        exclude = ("id",)

    name = Text(required=True, validate=validate.Length(1, PATH_NAME_MAX))
    days_to_complete = Integer(
        required=True,
        validate=validate.Range(
            1, PATH_DAYS_MAX, error=f"Enter a number of days from 1 to {PATH_DAYS_MAX}."
        ),
    )


def read_path(schema: PathForm, form) -> tuple[dict, dict[str, str]]:
    """(values, errors) of the path form, as `read` does. `active` is a checkbox (`on`); the
    repeated fields keep their order without blanks; `nationalities` also takes one a line
    (the form's text area)."""
    data = {"active": form.get("active") == "on"}
    for name in ("name", "days_to_complete", "rule"):
        value = form.get(name)
        if isinstance(value, str) and value.strip():
            data[name] = value.strip()
    for name in PATH_LISTS:
        entered = [
            line.strip()
            for value in form.getall(name, [])
            if isinstance(value, str)
            for line in (value.splitlines() if name == "nationalities" else [value])
        ]
        data[name] = [value for value in entered if value]
    data["nationalities"] = list(dict.fromkeys(data["nationalities"]))
    try:
        return schema.load(data), {}
    except ValidationError as exc:
        return data, {name: _first(messages) for name, messages in exc.messages.items()}
