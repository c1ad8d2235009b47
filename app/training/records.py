"""load-data record schemas of the training family (docs/data-load.md): paths and completions.

Courses carry their document and are checked by `app.training.course_records`.

Riders are checked by `app.training.riders`, the same rules as `POST /api/v1/riders`.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.training.languages import LANGUAGES
from app.training.riders import MARKETS, MAX_LENGTHS, VEHICLE_TYPES
from app.training.schemas import FLAG_TYPES, StrictBoolean


class PathRecordSchema(Schema):
    id = fields.UUID(required=True)
    name = fields.String(required=True, validate=validate.Length(min=1))
    active = StrictBoolean(required=True)
    days_to_complete = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    rule = fields.String(
        required=True, validate=validate.OneOf(("manual", "all_matching", "onboarding", "flag"))
    )
    flag_types = fields.List(fields.String(validate=validate.OneOf(FLAG_TYPES)), load_default=list)
    markets = fields.List(fields.String(validate=validate.OneOf(MARKETS)), load_default=list)
    vehicle_types = fields.List(
        fields.String(validate=validate.OneOf(VEHICLE_TYPES)), load_default=list
    )
    nationalities = fields.List(
        fields.String(validate=validate.Length(1, MAX_LENGTHS["nationality"])), load_default=list
    )
    courses = fields.List(fields.UUID(), required=True)

    @validates_schema
    def _consistent(self, data: dict, **_: Any) -> None:
        if data.get("rule") == "flag" and not data.get("flag_types"):
            raise ValidationError("a flag path needs at least one flag type", "flag_types")
        courses = data.get("courses") or []
        if len(set(courses)) != len(courses):
            raise ValidationError("a course appears twice", "courses")


class CompletionRecordSchema(Schema):
    rider_id = fields.String(required=True, data_key="riderId")
    course_id = fields.UUID(required=True, data_key="courseId")
    language = fields.String(required=True, validate=validate.OneOf(LANGUAGES))
    started_at = fields.AwareDateTime(required=True, data_key="startedAt")
    completed_at = fields.AwareDateTime(required=True, data_key="completedAt")
    score = fields.Float(required=True, allow_none=True, validate=validate.Range(0, 100))
    attempts = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    time_spent_seconds = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=0), data_key="timeSpentSeconds"
    )

    @validates_schema
    def _ordered(self, data: dict, **_: Any) -> None:
        if data.get("started_at") and data.get("completed_at"):
            if data["completed_at"] < data["started_at"]:
                raise ValidationError("must not be before startedAt", "completedAt")


_COMPLETION_KEYS = frozenset(
    (
        "riderId",
        "courseId",
        "language",
        "startedAt",
        "completedAt",
        "score",
        "attempts",
        "timeSpentSeconds",
    )
)
_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?"
    r"(?:Z|[+-][0-9]{2}:[0-9]{2})\Z"
)


def _time(value: Any) -> datetime | None:
    if type(value) is not str or _TIME.match(value) is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:  # e.g. 2026-02-30: the schema words it
        return None


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def plain_completion(record: Any) -> dict | None:
    """The completion CompletionRecordSchema would load, for a record of the usual shape (every
    key, plain JSON types, times as the API writes them); None for any other, which the schema
    then loads or refuses with its message. A loop of 500,000 schema loads was most of
    load-data's time for a family's bench file (docs/data-load.md)."""
    if type(record) is not dict or record.keys() != _COMPLETION_KEYS:
        return None
    rider_id, course_id, score = record["riderId"], record["courseId"], record["score"]
    started_at, completed_at = _time(record["startedAt"]), _time(record["completedAt"])
    if (
        type(rider_id) is not str
        or "\x00" in rider_id
        or type(course_id) is not str
        or record["language"] not in LANGUAGES
        or started_at is None
        or completed_at is None
        or completed_at < started_at
        or not (score is None or (type(score) in (int, float) and 0 <= score <= 100))
        or not _count(record["attempts"])
        or not _count(record["timeSpentSeconds"])
    ):
        return None
    try:
        course = uuid.UUID(course_id)
    except ValueError:
        return None
    return {
        "rider_id": rider_id,
        "course_id": course,
        "language": record["language"],
        "started_at": started_at,
        "completed_at": completed_at,
        "score": None if score is None else float(score),
        "attempts": record["attempts"],
        "time_spent_seconds": record["timeSpentSeconds"],
    }
