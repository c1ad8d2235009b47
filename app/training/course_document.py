"""The course document (docs/api-training.md#course-content): the shape the AI is asked for, the
admin's course export/import and load-data's `courses` records.

    { "title": str, "lessons": [{ "title": str, "body": str (Markdown) }],
      "quiz": [{ "question": str, "options": [str, 2..6], "correct": [int, ≥1] }],
      "pass_mark": int 0..100 (default 70) }

`correct` holds 0-based option indexes (as the quiz form's `q0`, `q1` … count questions):
unique, in range, at least one. Texts are trimmed and must not be empty. A course without a
quiz has `quiz: []`. The bounds below (30 lessons of at most 20,000 characters, 30 questions,
titles of 200, questions of 1,000 and options of 500 characters) keep a whole course to about
650,000 characters at most and an AI answer reviewable.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from app.core.fields import Text

TITLE_MAX = 200
LESSONS_MAX = 30
LESSON_BODY_MAX = 20_000
QUESTIONS_MAX = 30
QUESTION_MAX = 1_000
OPTIONS_MIN, OPTIONS_MAX = 2, 6
OPTION_MAX = 500
PASS_MARK_DEFAULT = 70
TRANSLATION_STATES = ("machine", "reviewed")


class Trimmed(Text):
    """Text without surrounding blanks; an empty result is refused like an empty string."""

    def __init__(self, max_length: int, **kwargs: Any):
        super().__init__(required=True, validate=validate.Length(1, max_length), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return super()._deserialize(value, attr, data, **kwargs).strip()


class LessonSchema(Schema):
    title = Trimmed(TITLE_MAX)
    body = Trimmed(LESSON_BODY_MAX, metadata={"description": "Markdown"})


class QuestionSchema(Schema):
    question = Trimmed(QUESTION_MAX)
    options = fields.List(
        Trimmed(OPTION_MAX), required=True, validate=validate.Length(OPTIONS_MIN, OPTIONS_MAX)
    )
    correct = fields.List(
        fields.Integer(strict=True), required=True, validate=validate.Length(min=1)
    )

    @validates_schema
    def _correct_options(self, data: dict, **_: Any) -> None:
        correct, options = data.get("correct"), data.get("options")
        if correct is None or options is None:
            return
        if any(not 0 <= index < len(options) for index in correct):
            raise ValidationError(f"option indexes go from 0 to {len(options) - 1}", "correct")
        if len(set(correct)) != len(correct):
            raise ValidationError("an option index appears twice", "correct")


def lessons_field(**kwargs: Any) -> fields.List:
    return fields.List(
        fields.Nested(LessonSchema), validate=validate.Length(1, LESSONS_MAX), **kwargs
    )


def quiz_field(question: type[Schema] = QuestionSchema, **kwargs: Any) -> fields.List:
    return fields.List(
        fields.Nested(question), validate=validate.Length(max=QUESTIONS_MAX), **kwargs
    )


class CourseDocumentSchema(Schema):
    title = Trimmed(TITLE_MAX)
    lessons = lessons_field(required=True)
    quiz = quiz_field(load_default=list)
    pass_mark = fields.Integer(
        strict=True, load_default=PASS_MARK_DEFAULT, validate=validate.Range(0, 100)
    )


class TranslatedQuestionSchema(QuestionSchema):
    """A question in another language: the correct answers are the course's, so `correct`
    may be left out (when given it must be the course's)."""

    correct = fields.List(fields.Integer(strict=True), load_default=None)


class TranslationSchema(Schema):
    """A translated document: the course's title, lessons and quiz in another language, in the
    course's shape (same lessons, questions and options, in the same order)."""

    title = Trimmed(TITLE_MAX)
    lessons = lessons_field(required=True)
    quiz = quiz_field(TranslatedQuestionSchema, load_default=list)

    @post_load
    def _without_correct(self, data: dict, **_: Any) -> dict:
        data["given_correct"] = [q.pop("correct") for q in data["quiz"]]
        return data


def translation_mismatch(course: dict, translation: dict) -> tuple[str, str] | None:
    """(field, message) of the first place where a loaded translation does not follow the
    course's shape, or None when it does. `course` holds the course's lessons and quiz."""
    if len(translation["lessons"]) != len(course["lessons"]):
        return "lessons", f"the course has {_count(course['lessons'], 'lesson')}"
    if len(translation["quiz"]) != len(course["quiz"]):
        return "quiz", f"the course has {_count(course['quiz'], 'question')}"
    for index, (ours, theirs) in enumerate(zip(course["quiz"], translation["quiz"], strict=True)):
        if len(theirs["options"]) != len(ours["options"]):
            return f"quiz[{index}].options", f"the question has {len(ours['options'])} options"
        given = translation.get("given_correct", [None] * len(course["quiz"]))[index]
        if given is not None and sorted(given) != sorted(ours["correct"]):
            return f"quiz[{index}].correct", "must be the course's correct options"
    return None


def _count(items: list, noun: str) -> str:
    return f"{len(items)} {noun}" if len(items) == 1 else f"{len(items)} {noun}s"


def stored_translation(translation: dict) -> dict:
    """The translation as stored: title, lessons and the quiz without correct answers."""
    return {
        "title": translation["title"],
        "lessons": translation["lessons"],
        "quiz": translation["quiz"],
    }


def content(document: dict) -> dict:
    """The `content` column of a course document (its title and pass mark are columns)."""
    return {"lessons": document["lessons"], "quiz": document["quiz"]}
