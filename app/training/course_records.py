"""load-data `courses` records (docs/data-load.md): the course document with `id` (or
`courseId`), `published` and `translations`; older records (`id`, `title`, `has_quiz`,
`pass_mark`) stay valid for courses without lessons.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from app.core import sql
from app.core.loader import RecordError, unique, validated
from app.training import courses
from app.training.course_document import (
    PASS_MARK_DEFAULT,
    TITLE_MAX,
    TRANSLATION_STATES,
    TranslationSchema,
    Trimmed,
    lessons_field,
    quiz_field,
    translation_mismatch,
)
from app.training.schemas import StrictBoolean

SQL = sql.load(
    "training", "upsert_courses", "upsert_course_documents", "upsert_course_translations"
)


class TranslationRecordSchema(TranslationSchema):
    state = fields.String(load_default="machine", validate=validate.OneOf(TRANSLATION_STATES))


class TranslationsSchema(Schema):
    ar = fields.Nested(TranslationRecordSchema)
    ur = fields.Nested(TranslationRecordSchema)
    ku = fields.Nested(TranslationRecordSchema)


class CourseRecordSchema(Schema):
    """A course: `id` (or `courseId`) plus section 10's course document, with `published`
    and `translations`; an older record has `title`, `has_quiz` and `pass_mark` only."""

    id = fields.UUID(load_default=None)
    course_id = fields.UUID(load_default=None, data_key="courseId")
    title = Trimmed(TITLE_MAX)
    has_quiz = StrictBoolean(load_default=None)
    pass_mark = fields.Integer(load_default=None, validate=validate.Range(0, 100), strict=True)
    lessons = lessons_field(load_default=None)
    quiz = quiz_field(load_default=None)
    published = StrictBoolean(load_default=None)
    translations = fields.Nested(TranslationsSchema, load_default=dict)

    @validates_schema
    def _one_kind(self, data: dict, **_: Any) -> None:
        if data["id"] is None and data["course_id"] is None:
            raise ValidationError("Missing data for required field.", "id")
        if data["id"] is not None and data["course_id"] is not None:
            raise ValidationError("give id or courseId, not both", "courseId")
        if data["lessons"] is None:
            for name in ("quiz", "translations"):
                if data[name]:
                    raise ValidationError(f"a course with {name} needs its lessons", "lessons")
            if data["has_quiz"] is None:
                raise ValidationError("Missing data for required field.", "has_quiz")
            return
        quiz = data["quiz"] or []
        if data["has_quiz"] is not None and data["has_quiz"] != bool(quiz):
            raise ValidationError("must say whether the quiz has questions", "has_quiz")
        for language, translation in data["translations"].items():
            mismatch = translation_mismatch({"lessons": data["lessons"], "quiz": quiz}, translation)
            if mismatch is not None:
                raise ValidationError(mismatch[1], f"translations.{language}.{mismatch[0]}")

    @post_load
    def _record(self, data: dict, **_: Any) -> dict:
        data["id"] = data.pop("course_id") or data["id"]
        if data["lessons"] is not None:
            data["quiz"] = data["quiz"] or []
            data["has_quiz"] = bool(data["quiz"])
            data["pass_mark"] = (
                PASS_MARK_DEFAULT if data["pass_mark"] is None else data["pass_mark"]
            )
        return data


validate_courses = validated(CourseRecordSchema, unique("id"))


async def write_courses(conn: asyncpg.Connection, records: list[dict]) -> None:
    """Older records first (set-based, refusing to strip a course of its lessons), then the
    documents and their translations, one statement each."""
    older = [r for r in records if r["lessons"] is None]
    written = {
        row["course_id"]
        for row in await conn.fetch(
            SQL.upsert_courses,
            [
                {k: r[k] for k in ("id", "title", "has_quiz", "pass_mark", "published")}
                for r in older
            ],
        )
    }
    for index, record in enumerate(records):
        if record["lessons"] is None and record["id"] not in written:
            raise RecordError(
                index,
                "lessons",
                f"course {record['id']} has lessons: a record without lessons cannot replace them",
            )
    documents = [r for r in records if r["lessons"] is not None]
    # load-data catalogues are live: a new course is published unless the record says not.
    await conn.execute(
        SQL.upsert_course_documents,
        [courses.document_record(r["id"], r, r["published"]) for r in documents],
        True,
    )
    await conn.execute(
        SQL.upsert_course_translations,
        [
            courses.translation_record(r["id"], language, translation, translation["state"])
            for r in documents
            for language, translation in r["translations"].items()
        ],
    )
