"""load-data record schemas of the checks family (docs/data-load.md): questions and checks."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.checks.schemas import BIGINT_MAX, AnswerOptionSchema
from app.core.fields import Text

ID = {"strict": True, "required": True, "validate": validate.Range(min=1, max=BIGINT_MAX)}
TEXT = {"required": True, "validate": validate.Length(min=1)}


class QuestionRecordSchema(Schema):
    question_id = fields.Integer(**ID)
    question = Text(**TEXT)
    question_type = Text(**TEXT)
    country_id = fields.Integer(**ID)
    category = Text(**TEXT)
    image_url = fields.Url(allow_none=True, load_default=None)
    answers = fields.List(fields.Nested(AnswerOptionSchema), required=True)


class CheckAnswerRecordSchema(Schema):
    question_id = fields.Integer(**ID)
    answer = Text(required=True, allow_none=True)
    score = Text(required=True, allow_none=True)
    evidence_image_url = fields.Url(required=True, allow_none=True)
    # When left out: from the check as stored, else from the catalogue (see questioner.py).
    question = Text(validate=validate.Length(min=1))
    category = Text(validate=validate.Length(min=1))
    image_url = fields.Url(allow_none=True)


class CheckRecordSchema(Schema):
    id = fields.Integer(**ID)
    rider_id = fields.Integer(**ID)
    rider_name = Text(**TEXT)
    third_party_logistics = Text(**TEXT)
    recorder_id = fields.Integer(**ID)
    check_date = fields.DateTime(format="%Y-%m-%d %H:%M:%S", required=True)
    timezone = Text(
        allow_none=True,
        load_default=None,
        validate=validate.Regexp(
            r"UTC[+-](0[0-9]|1[0-4]):[0-5][0-9]\Z", error="must look like UTC+04:00"
        ),
    )
    country_code = Text(
        allow_none=True,
        load_default=None,
        validate=validate.Regexp(r"[A-Z]{2}\Z", error="must be two capital letters, e.g. AE"),
    )
    id_validation = fields.Boolean(required=True, truthy={True}, falsy={False})
    license_plate = fields.Boolean(required=True, truthy={True}, falsy={False})
    reported_items = fields.List(fields.Raw(), required=True, allow_none=True)
    answers = fields.List(fields.Nested(CheckAnswerRecordSchema), required=True)
