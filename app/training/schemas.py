"""Request and response shapes of the training API.

The flags body is loaded with `FlagRequestSchema`. Rider rows and the assignment body are
checked by plain functions (`riders.py`, `assignments.py`), because 5,000 rows or 250,000
IDs per request must be checked in milliseconds; their schemas here describe them in the
OpenAPI document.
"""

from __future__ import annotations

from typing import get_args

from marshmallow import EXCLUDE, Schema, fields, validate

from app.messaging.messaging import Status
from app.training.assignments import MAX_FILTER_VALUES, MAX_RIDER_IDS, MAX_VALUE_LENGTH
from app.training.riders import LANGUAGES, MARKETS, MAX_LENGTHS, MAX_RIDERS, STATUSES

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


class RiderSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    riderId = fields.String(
        required=True,
        metadata={
            "description": (
                f"1 to {MAX_LENGTHS['riderId']} characters after trimming; the match key."
            ),
            "maxLength": MAX_LENGTHS["riderId"],
        },
    )
    name = fields.String(required=True, metadata={"maxLength": MAX_LENGTHS["name"]})
    market = fields.String(
        required=True,
        metadata={
            "description": "Code (" + ", ".join(MARKETS) + ") or market name (UAE, Kuwait, Qatar, "
            "Bahrain, Oman, Jordan, Egypt, Iraq), any case; stored as the code."
        },
    )
    phone = fields.String(
        metadata={
            "description": "International format; spaces, dashes and brackets are removed, then "
            "`+` and 7 to 15 digits.",
            "maxLength": MAX_LENGTHS["phone"],
        }
    )
    city = fields.String(metadata={"maxLength": MAX_LENGTHS["city"]})
    vehicleType = fields.String(
        metadata={
            "description": (
                "Stored in lower case. motorbike, car, bicycle, scooter and walker match path "
                "filters; other values are accepted but never match."
            ),
            "maxLength": MAX_LENGTHS["vehicleType"],
        }
    )
    nationality = fields.String(metadata={"maxLength": MAX_LENGTHS["nationality"]})
    language = fields.String(
        metadata={"description": "Any case. Default for new riders: en.", "enum": list(LANGUAGES)}
    )
    status = fields.String(
        metadata={
            "description": "Lower case only. Default for new riders: active.",
            "enum": list(STATUSES),
        }
    )
    pin = fields.String(
        metadata={"description": "4 to 8 digits; stored hashed.", "pattern": "^[0-9]{4,8}$"}
    )


class RidersRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    riders = fields.List(
        fields.Nested(RiderSchema), required=True, metadata={"minItems": 1, "maxItems": MAX_RIDERS}
    )


class RowErrorSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "Zero-based row index."})
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
        required=True, metadata={"description": "Matched exactly as stored, untrimmed."}
    )
    type = fields.String(required=True, validate=validate.OneOf(FLAG_TYPES))
    note = fields.String(validate=validate.Length(max=1000), load_default=None)
    notify = StrictBoolean(load_default=False)


class FlagResultSchema(Schema):
    flagId = fields.UUID(required=True)
    enrollmentsCreated = fields.Integer(required=True)
    notification = fields.String(
        required=True, allow_none=True, metadata={"enum": [*NOTIFICATIONS, None]}
    )


VALUE = {"minLength": 1, "maxLength": MAX_VALUE_LENGTH}
FILTER = {"maxItems": MAX_FILTER_VALUES}


class AssignmentRequestSchema(Schema):
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


class CompletionsQuerySchema(Schema):
    cursor = fields.String(
        metadata={
            "description": "The nextCursor of the previous page; when given, since is ignored."
        }
    )
    since = fields.String(
        metadata={
            "description": "ISO 8601 date or date-time (no offset: UTC). Records completed "
            "strictly after it."
        }
    )
    limit = fields.Integer(
        metadata={
            "description": "1 to 5000, default 1000; higher is capped at 5000; 0 or "
            "non-numeric means 1000."
        }
    )


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
