"""load-data record schemas of the training family (docs/data-load.md): paths and completions.

Courses carry their document and are checked by `app.training.course_records`.

Riders are checked by `app.training.riders`, the same rules as `POST /api/v1/riders`.
"""

from __future__ import annotations

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
