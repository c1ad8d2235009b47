"""The course editor's and the translation form's posted rows, read into a course document
(docs/api-training.md#course-content) with one message a field or row."""

from __future__ import annotations

import re

from marshmallow import ValidationError

from app.core.fields import integer_text
from app.core.forms import first_message
from app.training.course_document import (
    LESSONS_MAX,
    OPTIONS_MAX,
    OPTIONS_MIN,
    QUESTIONS_MAX,
    TITLE_MAX,
    CourseDocumentSchema,
    TranslationSchema,
)

# The course editor (the course document of docs/api-training.md as a form). Rows are numbered
# fields: `lesson_title_<i>`, `lesson_body_<i>`, `question_<q>`, `option_<q>_<n>` (n from 0 to 5)
# and repeated `correct_<q>` (the ticked option rows); `title`, `pass_mark`, `published` (`on`).
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
