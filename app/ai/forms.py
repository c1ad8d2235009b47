"""The AI forms, validated at the edge (messages in English for the panel; the assistant's
question is checked in the rider's language by `assistant.question_error`)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.training.course_document import TRANSLATION_LANGUAGES

LANGUAGE_LABELS = {"ar": "Arabic", "ur": "Urdu", "ku": "Kurdish (Sorani)"}


class TranslateForm(Schema):
    language = fields.String(
        required=True,
        validate=validate.OneOf(
            TRANSLATION_LANGUAGES, error="Choose Arabic, Urdu or Kurdish (ar, ur or ku)."
        ),
    )
