"""Schemas of Family A: query parameters, response bodies (they feed the OpenAPI document) and
load-data records."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from marshmallow import EXCLUDE, Schema, fields, validate

from app.core.fields import Text

BIGINT_MAX = 2**63 - 1
_DECIMAL = re.compile(r"[+-]?[0-9]{1,19}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


# --- Query parameters: strings in, every error message completes "<parameter> ...". ---


class QueryBigint(fields.Integer):
    """A bigint written in decimal digits, nothing else (no `1.0`, no `1_000`); the range is a
    validator, so the OpenAPI document states it too."""

    default_error_messages = {"invalid": "must be an integer (bigint)"}

    def __init__(self, **kwargs: Any):
        bigint = validate.Range(-BIGINT_MAX - 1, BIGINT_MAX, error="must be an integer (bigint)")
        super().__init__(validate=bigint, **kwargs)

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int:
        if not isinstance(value, str) or not _DECIMAL.fullmatch(value):
            raise self.make_error("invalid")
        return int(value)


class QueryDate(fields.Date):
    """A calendar date written exactly `YYYY-MM-DD`."""

    default_error_messages = {"invalid": "must be a date written YYYY-MM-DD"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> dt.date:
        if not isinstance(value, str) or not _DATE.fullmatch(value):
            raise self.make_error("invalid")
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise self.make_error("invalid") from None


class QueryBoolean(fields.Boolean):
    """`true`, `false`, `1` or `0`, in any case."""

    default_error_messages = {"invalid": "must be true, false, 1 or 0"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        spelled = value.lower() if isinstance(value, str) else None
        if spelled in ("true", "1"):
            return True
        if spelled in ("false", "0"):
            return False
        raise self.make_error("invalid")


class ChecksQuerySchema(Schema):
    class Meta:
        unknown = EXCLUDE

    recorder_id = QueryBigint(metadata={"description": "Only checks by this ambassador."})
    rider_id = QueryBigint(metadata={"description": "Only checks of this rider."})
    check_date_from = QueryDate(
        metadata={"description": "First local date of `Check_date` (inclusive), YYYY-MM-DD."}
    )
    check_date_to = QueryDate(
        metadata={"description": "Last local date of `Check_date` (inclusive), YYYY-MM-DD."}
    )
    is_validation = QueryBoolean(
        metadata={"description": "`ID_validation` result: true/false/1/0, any case."}
    )
    license_plate = QueryBoolean(
        metadata={"description": "`License_plate` result: true/false/1/0, any case."}
    )


class QuestionerQuerySchema(Schema):
    class Meta:
        unknown = EXCLUDE

    country_id = QueryBigint(metadata={"description": "Only the questions of this country."})


# --- Response bodies. ---


class QuestionerEntrySchema(Schema):
    question = fields.String(
        required=True, metadata={"description": "Text at the time of the check."}
    )
    question_id = fields.String(required=True, metadata={"example": "101"})
    answer = fields.String(required=True, allow_none=True)
    imageUrl = fields.String(required=True, allow_none=True)
    evidenceImageUrl = fields.String(required=True, allow_none=True)
    score = fields.String(required=True, allow_none=True, metadata={"example": "1"})
    category = fields.String(required=True, metadata={"description": "At the time of the check."})


class CheckSchema(Schema):
    ID = fields.Integer(required=True)
    Rider_ID = fields.Integer(required=True)
    Rider_name = fields.String(required=True)
    third_party_logistics = fields.String(required=True, data_key="3PL")
    Recorder_ID = fields.Integer(required=True)
    Check_date = fields.String(
        required=True,
        metadata={"example": "2026-03-14 09:30:00", "description": "Local wall-clock time."},
    )
    ID_validation = fields.Integer(required=True, metadata={"enum": [0, 1]})
    License_plate = fields.Integer(required=True, metadata={"enum": [0, 1]})
    Reported_item = fields.List(fields.Raw(), required=True, allow_none=True)
    Questioner = fields.List(fields.Nested(QuestionerEntrySchema), required=True)
    Country_code = fields.String(required=True, allow_none=True, metadata={"example": "AE"})
    Timezone = fields.String(required=True, allow_none=True, metadata={"example": "UTC+04:00"})


class AnswerOptionSchema(Schema):
    name = Text(required=True)
    name_ar = Text(required=True)
    score = Text(required=True)
    jump = Text(load_default="")
    skip = fields.List(Text(), load_default=list)


class QuestionSchema(Schema):
    question_id = fields.Integer(required=True)
    question = Text(required=True)
    question_type = Text(required=True, metadata={"example": "MULTIPLE_CHOICE:SINGLE"})
    answers = fields.List(fields.Nested(AnswerOptionSchema), required=True)
