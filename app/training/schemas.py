"""Request and response shapes of the training API.

The flags body is loaded with `FlagRequestSchema`. Rider rows and the assignment body are
checked by plain functions (`riders.py`, `assignments.py`), because 5,000 rows or 250,000
IDs per request must be checked in milliseconds; their schemas here describe them in the
OpenAPI document.
"""

from __future__ import annotations

from typing import get_args

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from app.core.fields import Text
from app.core.openapi import ANY_JSON
from app.messaging.provider import Status
from app.training import cursor
from app.training.assignments import FILTERS, MAX_FILTER_VALUES, MAX_RIDER_IDS, MAX_VALUE_LENGTH
from app.training.languages import LANGUAGES
from app.training.riders import (
    MARKET_NAMES,
    MARKETS,
    MAX_LENGTHS,
    MAX_RIDERS,
    STATUSES,
)

FLAG_TYPES = (
    "late_delivery",
    "customer_complaint",
    "unsafe_driving",
    "food_handling",
    "equipment",
    "cancellations",
)
NOTIFICATIONS = get_args(Status)


class StrictBoolean(fields.Boolean):
    """A JSON true or false only (marshmallow's Boolean also takes 1, "yes", "on", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


# JSON Schema patterns of the rider rules (`riders.py`), so that what the document allows is
# what a row passes. `(?![\s\S])` ends the text (`$` would also allow a final newline); NUL is
# refused in any text.
END = r"(?![\s\S])"
# What str.strip() removes (the characters str.isspace() is true of), spelled out: the `\s` of
# a JSON Schema pattern (ECMA-262's) is another set (it holds U+FEFF and lacks U+001C-U+001F
# and U+0085), so a name of U+001C and spaces would be valid to the document and empty here.
SPACE = r"\t-\r\x1c- \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# Text PostgreSQL can store: no NUL (else 400, like any text that reaches a statement).
NO_NUL = "^[^\\x00]*$"
# Characters besides a letter's two ASCII cases that str.upper() / str.lower() turn into it.
UPPER_TWINS = {"I": "\u0131", "S": "\u017f"}
LOWER_TWINS = {"k": "\u212a"}


def trimmed(most: int, *, required: bool) -> str:
    """Text whose trimmed value has 1 (0 unless `required`) to `most` characters."""
    value = rf"[^{SPACE}\x00](?:[^\x00]{{0,{most - 2}}}[^{SPACE}\x00])?"
    return rf"^[{SPACE}]*{value if required else f'(?:{value})?'}[{SPACE}]*{END}"


def any_case(words: tuple[str, ...] | list[str], twins: dict[str, str]) -> str:
    """One of `words` in any case, between blanks (as compared after strip() and a case
    change)."""

    def letter(char: str) -> str:
        return f"[{char.upper()}{char.lower()}{twins.get(char, '')}]"

    choices = "|".join("".join(map(letter, word)) for word in words)
    return rf"[{SPACE}]*(?:{choices})[{SPACE}]*"


def _trimmed_text(name: str, *, required: bool = False, rest: str = ".") -> fields.String:
    """A Rider field of at most MAX_LENGTHS[name] characters after trimming; `rest` ends its
    description."""
    least = "1" if required else "Up"
    return fields.String(
        required=required,
        metadata={
            "description": f"{least} to {MAX_LENGTHS[name]} characters after trimming{rest}",
            "pattern": trimmed(MAX_LENGTHS[name], required=required),
        },
    )


PHONE_NOISE = rf"[{SPACE}\-()\[\]]"
RIDER = "#/components/schemas/Rider"


class RiderSchema(Schema):
    """A row that is saved; any other row is reported in `errors` (see the request)."""

    class Meta:
        unknown = EXCLUDE

    riderId = _trimmed_text("riderId", required=True, rest="; the match key.")
    name = _trimmed_text("name", required=True)
    market = fields.String(
        required=True,
        metadata={
            "description": "Code (" + ", ".join(MARKETS) + ") or market name (UAE, Kuwait, Qatar, "
            "Bahrain, Oman, Jordan, Egypt, Iraq), any case; stored as the code.",
            "pattern": f"^{any_case([*MARKETS, *MARKET_NAMES], UPPER_TWINS)}{END}",
        },
    )
    phone = fields.String(
        metadata={
            "description": "International format; spaces, dashes and brackets are removed, then "
            f"`+` and 7 to 15 digits; up to {MAX_LENGTHS['phone']} characters after trimming. "
            "Empty or blank: the stored value is kept.",
            "allOf": [
                {"pattern": trimmed(MAX_LENGTHS["phone"], required=False)},
                {
                    "pattern": rf"^(?:{PHONE_NOISE}*\+{PHONE_NOISE}*(?:[0-9]{PHONE_NOISE}*)"
                    rf"{{7,15}})?[{SPACE}]*{END}"
                },
            ],
        }
    )
    city = _trimmed_text("city")
    vehicleType = _trimmed_text(
        "vehicleType",
        rest=", stored in lower case. motorbike, car, bicycle, scooter and walker match path "
        "filters; other values are accepted but never match.",
    )
    nationality = _trimmed_text("nationality")
    language = fields.String(
        metadata={
            "description": "en, ar, ur or ku in any case. Default for new riders: en; empty: "
            "the stored value is kept.",
            "pattern": f"^(?:{any_case(LANGUAGES, LOWER_TWINS)})?{END}",
        }
    )
    status = fields.String(
        metadata={
            "description": "Lower case only. Default for new riders: active; empty: the "
            "stored value is kept.",
            "enum": ["", *STATUSES],
        }
    )
    pin = fields.String(
        metadata={
            "description": "4 to 8 digits; stored hashed. Empty: the stored PIN is kept.",
            "pattern": f"^(?:[0-9]{{4,8}})?{END}",
        }
    )


class RidersRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    riders = fields.List(
        fields.Nested(RiderSchema),
        required=True,
        metadata={
            "description": (
                f"1 to {MAX_RIDERS} rows, at least one of them a valid Rider (else 400). A row "
                "that is not a valid Rider (any JSON value) is reported in `errors` and saves "
                "nothing."
            ),
            "minItems": 1,
            "maxItems": MAX_RIDERS,
            "json_schema": {
                "items": {"anyOf": [{"$ref": RIDER}, *ANY_JSON]},
                "contains": {"$ref": RIDER},
            },
        },
    )


class RowErrorSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "Zero-based row index."})
    field = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The field the error is about (the messages do not name it); "
            "null when the row is not an object.",
            "example": "riderId",
        },
    )
    error = fields.String(
        required=True, metadata={"example": "Invalid input: expected string, received undefined"}
    )


class RidersResultSchema(Schema):
    inserted = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    enrollmentsCreated = fields.Integer(
        required=True, metadata={"description": "New assignments made by the automatic rules."}
    )
    errors = fields.List(fields.Nested(RowErrorSchema), required=True)


class RidersRejectedSchema(Schema):
    """The 400 of the riders call: with the counts and `errors` when every row was rejected,
    only `error` and `code` when the body itself is wrong."""

    error = fields.String(required=True, metadata={"example": "No rider was saved."})
    code = fields.String(required=True, metadata={"example": "invalid_request"})
    inserted = fields.Integer()
    updated = fields.Integer()
    enrollmentsCreated = fields.Integer()
    errors = fields.List(fields.Nested(RowErrorSchema))


class FlagRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    riderId = fields.String(
        required=True,
        metadata={"description": "Matched exactly as stored, untrimmed.", "pattern": NO_NUL},
    )
    type = fields.String(required=True, validate=validate.OneOf(FLAG_TYPES))
    note = fields.String(
        validate=validate.Length(max=1000), load_default=None, metadata={"pattern": NO_NUL}
    )
    notify = StrictBoolean(load_default=False)


class FlagResultSchema(Schema):
    flagId = fields.UUID(required=True)
    enrollmentsCreated = fields.Integer(required=True)
    notification = fields.String(
        required=True, allow_none=True, metadata={"enum": [*NOTIFICATIONS, None]}
    )


VALUE = {"minLength": 1, "maxLength": MAX_VALUE_LENGTH, "pattern": NO_NUL}
FILTER = {"maxItems": MAX_FILTER_VALUES}


class AssignmentRequestSchema(Schema):
    # `riderIds`, or a filter with at least one value (an empty filter counts as not given):
    # a rule across fields, which `app.core.openapi` adds to the generated object schema
    # (inside `allOf`, where client generators keep the object's own model).
    JSON_SCHEMA = {
        "allOf": [
            {
                "anyOf": [
                    {"required": ["riderIds"]},
                    *(
                        {"required": [name], "properties": {name: {"minItems": 1}}}
                        for name in FILTERS
                    ),
                ]
            }
        ]
    }

    class Meta:
        unknown = EXCLUDE

    pathId = fields.UUID(required=True)
    riderIds = fields.List(fields.String(metadata=VALUE), metadata={"maxItems": MAX_RIDER_IDS})
    # Values are matched exactly; one that no rider has matches nobody (no enum is enforced).
    markets = fields.List(fields.String(metadata={"example": "AE", **VALUE}), metadata=FILTER)
    vehicleTypes = fields.List(
        fields.String(metadata={"example": "motorbike", **VALUE}), metadata=FILTER
    )
    statuses = fields.List(fields.String(metadata={"example": "active", **VALUE}), metadata=FILTER)


class AssignmentResultSchema(Schema):
    enrollmentsCreated = fields.Integer(required=True)


class PageSize(fields.Field):
    """The feed's lenient `limit`: any text; what is not a positive integer means 1,000."""

    def _deserialize(self, value, attr, data, **kwargs) -> int:
        return cursor.parse_limit(value)


class CompletionsQuerySchema(Schema):
    """Read by `app.core.query`; `since` is read only when no `cursor` is given (a cursor
    wins), so a bad `since` beside a cursor is ignored, as the description says."""

    BLANK_IS_ABSENT = True  # docs/api-contract.md: `cursor=` and `since=` count as absent

    class Meta:
        unknown = EXCLUDE

    cursor = Text(
        metadata={
            "description": "The nextCursor of the previous page, as it was given (opaque, "
            "signed by the server: any other value answers 400); when given, since is ignored.",
            "pattern": cursor.CURSOR_PATTERN,
        },
    )
    since = Text(
        metadata={
            "description": "ISO 8601 date or date-time (no offset: UTC). Records completed "
            "strictly after it.",
            "anyOf": [{"format": "date-time"}, {"format": "date"}],
        }
    )
    limit = PageSize(
        metadata={
            "description": "1 to 5000, default 1000; higher is capped at 5000; 0 or "
            "any text that is not a positive integer means 1000.",
            "type": ["integer", "string"],
        }
    )

    @post_load
    def start(self, query: dict, **_) -> dict:
        """`since` as a moment, unless a cursor makes it irrelevant."""
        since = query.pop("since", None)
        if since is not None and "cursor" not in query:
            try:
                query["since"] = cursor.parse_since(since)
            except cursor.BadSince:
                raise ValidationError(cursor.SINCE_TEXT, "since") from None
        return query


class CompletionSchema(Schema):
    riderId = fields.String(required=True)
    market = fields.String(required=True)
    courseId = fields.UUID(required=True)
    course = fields.String(required=True, allow_none=True)
    language = fields.String(required=True, metadata={"enum": list(LANGUAGES)})
    startedAt = fields.String(required=True, metadata={"example": "2026-03-01T08:15:00.000Z"})
    completedAt = fields.String(required=True, metadata={"example": "2026-03-01T08:47:12.345Z"})
    score = fields.Float(required=True, allow_none=True)
    attempts = fields.Integer(required=True)
    timeSpentSeconds = fields.Integer(required=True)
    proofCode = fields.String(required=True, metadata={"example": "K7QX3MPA"})


class CompletionsPageSchema(Schema):
    data = fields.List(fields.Nested(CompletionSchema), required=True)
    next = fields.String(required=True, allow_none=True)
    nextCursor = fields.String(required=True, allow_none=True)
