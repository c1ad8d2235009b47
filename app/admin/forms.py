"""The panel's forms, validated at the edge."""

from __future__ import annotations

import re
from datetime import date

from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema

from app.core.fields import Integer, Text, integer_text
from app.core.forms import field_errors, first_message
from app.core.passwords import MIN_LENGTH
from app.training.assignments import MAX_RIDER_IDS, MAX_VALUE_LENGTH
from app.training.course_document import (
    LESSONS_MAX,
    OPTIONS_MAX,
    OPTIONS_MIN,
    QUESTIONS_MAX,
    TITLE_MAX,
    CourseDocumentSchema,
    TranslationSchema,
)
from app.training.records import PathRecordSchema
from app.training.riders import MARKETS, MAX_LENGTHS, STATUSES
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
        return data, field_errors(exc)


# The course editor (DESIGN §10's course document as a form). Rows are numbered fields:
# `lesson_title_<i>`, `lesson_body_<i>`, `question_<q>`, `option_<q>_<n>` (n from 0 to 5) and
# repeated `correct_<q>` (the ticked option rows); `title`, `pass_mark`, `published` (`on`).
# Rows left blank are dropped, so blank rows can be offered for filling without JavaScript.
_ROW = re.compile(r"(?:lesson_title|lesson_body|question)_([0-9]{1,3})")
BLANK_OPTION = "Ticked options need their text."
# The editor's messages where marshmallow's would puzzle a person ("Length must be …").
_FRIENDLY = {
    "lessons": f"A course needs 1 to {LESSONS_MAX} lessons.",
    "quiz": f"A quiz has at most {QUESTIONS_MAX} questions.",
    "options": f"Give {OPTIONS_MIN} to {OPTIONS_MAX} options.",
    "pass_mark": "Enter a whole number from 0 to 100.",
    "title": f"Enter a title of at most {TITLE_MAX} characters.",
}


def _rows(form, prefix: str) -> list[int]:
    """The row numbers of the form's fields named `<prefix>_<n>`, in order."""
    numbers = set()
    for key in form:
        found = _ROW.fullmatch(key)
        if found and key.startswith(prefix):
            numbers.add(int(found.group(1)))
    return sorted(numbers)


def _text(form, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def course_values(form) -> dict:
    """The editor's rows as posted, blank rows dropped and options closed up (ticks follow
    their option): {title, pass_mark, published, lessons [{title, body}], quiz [{question,
    options, correct, blank_ticked}]}."""
    lessons = [
        {"title": _text(form, f"lesson_title_{i}"), "body": _text(form, f"lesson_body_{i}")}
        for i in _rows(form, "lesson_")
    ]
    quiz = []
    for q in _rows(form, "question_"):
        ticked = {integer_text(v) for v in form.getall(f"correct_{q}", []) if isinstance(v, str)}
        texts = [_text(form, f"option_{q}_{n}") for n in range(OPTIONS_MAX)]
        kept = [n for n, text in enumerate(texts) if text.strip()]
        question = {
            "question": _text(form, f"question_{q}"),
            "options": [texts[n] for n in kept],
            "correct": [position for position, n in enumerate(kept) if n in ticked],
            # A tick on an empty option row, or on no row at all (a scripted post).
            "blank_ticked": bool(ticked - set(kept)),
        }
        if question["question"].strip() or question["options"] or question["blank_ticked"]:
            quiz.append(question)
    return {
        "title": _text(form, "title"),
        "pass_mark": _text(form, "pass_mark").strip(),
        "published": form.get("published") == "on",
        "lessons": [row for row in lessons if row["title"].strip() or row["body"].strip()],
        "quiz": quiz,
    }


def read_course(schema: CourseDocumentSchema, form) -> tuple[dict, dict | None, dict[str, str]]:
    """(values, document, errors): the posted rows (to show again), the course document when
    it is valid, and one message per field or row (`lesson_<i>`, `question_<q>`)."""
    values = course_values(form)
    document = {
        "title": values["title"],
        "lessons": [dict(row) for row in values["lessons"]],
        "quiz": [{k: q[k] for k in ("question", "options", "correct")} for q in values["quiz"]],
    }
    if values["pass_mark"]:  # not a number: None, refused by the schema
        document["pass_mark"] = integer_text(values["pass_mark"])
    errors = {}
    try:
        document = schema.load(document)
    except ValidationError as exc:
        errors = _document_errors(exc.messages)
        document = None
    for q, question in enumerate(values["quiz"]):
        if question["blank_ticked"]:
            errors[f"question_{q}"] = BLANK_OPTION
    return values, (None if errors else document), errors


def _document_errors(messages: dict) -> dict[str, str]:
    """marshmallow's nested messages of a course document as the editor's field errors."""
    errors = {}
    for name, found in messages.items():
        if name in ("lessons", "quiz") and isinstance(found, dict):
            row_name = "lesson" if name == "lessons" else "question"
            for index, row in found.items():
                errors[f"{row_name}_{index}"] = _row_error(row)
        else:
            errors[name] = _FRIENDLY.get(name, first_message(found))
    return errors


def _row_error(row) -> str:
    """One message for a lesson or question row: which part is wrong, and how."""
    if not isinstance(row, dict):
        return first_message(row)
    part, messages = next(iter(row.items()))
    if part in _FRIENDLY:
        return _FRIENDLY[part]
    if part == "correct":
        message = first_message(messages)
        return "Tick at least one correct option." if message.startswith("Shorter") else message
    message = first_message(messages)
    if message.startswith("Length must be between 1"):
        limit = message.rsplit(" ", 1)[1].rstrip(".")
        return f"The {part} cannot be empty (at most {limit} characters)."
    return f"{part.capitalize()}: {message}"


def read_translation(schema: TranslationSchema, form, course) -> tuple[dict, dict | None, dict]:
    """(values, translation, errors) of the translation form: one row for each of the course's
    lessons, questions and options (nothing is dropped: every text is needed)."""
    values = {
        "title": _text(form, "title"),
        "lessons": [
            {"title": _text(form, f"lesson_title_{i}"), "body": _text(form, f"lesson_body_{i}")}
            for i in range(len(course.lessons))
        ],
        "quiz": [
            {
                "question": _text(form, f"question_{q}"),
                "options": [_text(form, f"option_{q}_{n}") for n in range(len(ours["options"]))],
            }
            for q, ours in enumerate(course.quiz)
        ],
    }
    try:
        return values, schema.load(values), {}
    except ValidationError as exc:
        return values, None, _document_errors(exc.messages)


# Riders, rider page, assign, messages, admins (issue 10: panel-riders).

ASCII_DIGITS = re.compile(r"[0-9]{1,18}\Z")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
DAY_ERROR = "Enter a date as YYYY-MM-DD."
MESSAGE_STATUSES = ("sent", "failed", "logged")
MESSAGE_KINDS = ("reminder", "flag")
SHORT_TEXT = validate.Length(max=MAX_VALUE_LENGTH)


class RiderFilters(Schema):
    """The riders list's filters, read alike by its page and its exports (README, riders
    list): each exact but the search text `q`, at most as long as the rider's field."""

    q = Text(validate=validate.Length(max=200))
    market = fields.String(validate=validate.OneOf(MARKETS))
    status = fields.String(validate=validate.OneOf(STATUSES))
    vehicle_type = Text(validate=validate.Length(max=MAX_LENGTHS["vehicleType"]))
    city = Text(validate=validate.Length(max=MAX_LENGTHS["city"]))
    nationality = Text(validate=validate.Length(max=MAX_LENGTHS["nationality"]))


class RidersQuery(RiderFilters):
    """The riders list's query: the filters and the keyset (the last rider ID shown)."""

    after = Text(validate=SHORT_TEXT)


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


# CSV exports (issue 12): the filters of the page an export comes from, and its part.


class ExportQuery(Schema):
    part = Integer(
        load_default=1, validate=validate.Range(min=1, error="part must be a whole number from 1.")
    )


class RiderFiltersQuery(RiderFilters, ExportQuery):
    """The riders list's filters and the part."""


class MessageFiltersQuery(ExportQuery):
    """The messages page's filters (`/admin/messages`); `from` and `to` are UTC dates, both
    included."""

    status = fields.String(validate=validate.OneOf(MESSAGE_STATUSES))
    kind = fields.String(validate=validate.OneOf(MESSAGE_KINDS))
    from_ = fields.Date(data_key="from", format="%Y-%m-%d")
    to = fields.Date(format="%Y-%m-%d")
