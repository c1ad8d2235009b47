"""Course generation and translation (docs/ai.md): the prompts, the JSON schemas the model is
asked to follow, and the checks every answer passes before it is stored.

A long source is cut into parts that fit the model's context; each part becomes a share of the
lessons and questions, and the shares are joined in source order into one course (title from
the first part), which is validated whole by the course document schema.
A long course is translated likewise, in parts of whole lessons, since a model's answer is
limited far below a course's longest.
"""

from __future__ import annotations

import asyncio
import json

from marshmallow import ValidationError

from app.ai import sources
from app.ai.client import Provider
from app.core.forms import first_error
from app.training.course_document import (
    LESSONS_MAX,
    QUESTIONS_MAX,
    CourseDocumentSchema,
    TranslationSchema,
    translation_mismatch,
)
from app.training.courses import TranslationMismatch
from app.training.languages import DESCRIBED

# About 15,000 tokens of source a request: within the context of every current hosted model
# and of a local one run with a 32k context, with room for the answer.
PART_CHARS = 60_000
# Each part yields at least one lesson, and a course has at most LESSONS_MAX.
MAX_PARTS = LESSONS_MAX
# Parts sent to the provider at once.
CONCURRENT_PARTS = 3
# About 3,000 tokens of English a request: its translation (Arabic script takes more tokens
# than English) stays well within the answer limit of current models (commonly 8k to 16k
# tokens), which a whole course of up to 30 long lessons would not.
TRANSLATION_PART_CHARS = 12_000

_TEXT = {"type": "string"}
_LESSON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "body"],
    "properties": {"title": _TEXT, "body": _TEXT},
}


def _question(with_correct: bool) -> dict:
    properties = {
        "question": _TEXT,
        "options": {"type": "array", "items": _TEXT, "minItems": 2, "maxItems": 6},
    }
    if with_correct:
        properties["correct"] = {"type": "array", "items": {"type": "integer"}, "minItems": 1}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }


# §10's course document as a JSON schema (structured output).
COURSE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "lessons", "quiz", "pass_mark"],
    "properties": {
        "title": _TEXT,
        "lessons": {"type": "array", "items": _LESSON, "minItems": 1},
        "quiz": {"type": "array", "items": _question(True)},
        "pass_mark": {"type": "integer"},
    },
}
# A translation: the same texts without the answers (they stay the course's).
TRANSLATION_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "lessons", "quiz"],
    "properties": {
        "title": _TEXT,
        "lessons": {"type": "array", "items": _LESSON, "minItems": 1},
        "quiz": {"type": "array", "items": _question(False)},
    },
}

GENERATION_PROMPT = """\
You write training courses for delivery riders (motorbike, car and bicycle couriers).
From the source text the user sends, write a course in English: a short title, lessons with
a title and a body in Markdown (clear, practical, short sentences), and a multiple-choice quiz
that checks the lessons. Each question has 2 to 6 options; `correct` lists the 0-based indexes
of the right options (at least one). `pass_mark` is a percentage, normally 70.
Write {lessons} and {questions}. Use only what the source says."""

PART_NOTE = "The source is long: this is part {part} of {parts}; cover this part only."

TRANSLATION_PROMPT = """\
Translate the training course the user sends from English into {language}. Keep its shape
exactly: the same number of lessons, in the same order, each with a title and a Markdown body
(keep the Markdown formatting), and the same quiz questions with the same options in the same
order. Translate the texts only; answer with the title, the lessons and the quiz."""


class DocumentRefused(Exception):
    """The model's document fails validation; the message names where."""


def _at_most(count: int, word: str) -> str:
    return f"at most {count} {word}" if count > 1 else f"exactly 1 {word[:-1]}"


def _first_problem(messages) -> str:
    """`lessons.0.body: Shorter than maximum length 20000.` from marshmallow's nested
    messages: the first problem, with where it is."""
    keys, text = first_error(messages)
    return f"{'.'.join(map(str, keys))}: {text}" if keys else text


def validated(schema, answer) -> dict:
    if not isinstance(answer, dict):
        raise DocumentRefused("the answer is not a JSON object")
    try:
        return schema.load(answer, unknown="exclude")
    except ValidationError as exc:
        raise DocumentRefused(_first_problem(exc.messages)) from None


def parts(text: str) -> list[str]:
    """The source text in parts that fit the model's context. Raises sources.SourceError when
    it is too long for one course."""
    pieces = sources.pieces(text, PART_CHARS)
    if len(pieces) > MAX_PARTS:
        raise sources.SourceError(
            f"the source is too long for one course: {len(text):,} characters of text, "
            f"at most about {MAX_PARTS * PART_CHARS:,}"
        )
    return pieces


async def generate_course(provider: Provider, parts: list[str]) -> dict:
    """A validated course document from a source's parts (`parts()`). Raises
    client.ProviderError or DocumentRefused."""
    lessons_each = max(1, LESSONS_MAX // len(parts))
    questions_each = QUESTIONS_MAX // len(parts)
    prompt = GENERATION_PROMPT.format(
        lessons=_at_most(lessons_each, "lessons"),
        questions=_at_most(questions_each, "questions") if questions_each else "no questions",
    )
    gate = asyncio.Semaphore(CONCURRENT_PARTS)

    async def part_course(number: int, part: str) -> dict:
        system = (
            prompt
            if len(parts) == 1
            else (f"{prompt}\n{PART_NOTE.format(part=number, parts=len(parts))}")
        )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": part}]
        async with gate:
            answer = await provider.document(messages, "course_document", COURSE_SCHEMA)
        return validated(CourseDocumentSchema(), answer)

    shares = await asyncio.gather(*(part_course(n, part) for n, part in enumerate(parts, start=1)))
    return merged(shares)


def merged(shares: list[dict]) -> dict:
    """One course out of the parts' courses, in order, validated whole."""
    if len(shares) == 1:
        return shares[0]
    course = {
        "title": shares[0]["title"],
        "lessons": [lesson for share in shares for lesson in share["lessons"]][:LESSONS_MAX],
        "quiz": [question for share in shares for question in share["quiz"]][:QUESTIONS_MAX],
        "pass_mark": round(sum(share["pass_mark"] for share in shares) / len(shares)),
    }
    return validated(CourseDocumentSchema(), course)


async def translate_course(provider: Provider, document: dict, language: str) -> dict:
    """The course's translation into `language`, validated (its shape against the course is
    checked when it is saved). A long course goes in parts of whole lessons, each checked
    against its part, then joined. Raises client.ProviderError, DocumentRefused or
    courses.TranslationMismatch."""
    system = TRANSLATION_PROMPT.format(language=DESCRIBED[language])
    parts = translation_parts(document)
    gate = asyncio.Semaphore(CONCURRENT_PARTS)

    async def part_translation(number: int, part: dict) -> dict:
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": _course_text(part)},
        ]
        async with gate:
            answer = await provider.document(messages, "course_translation", TRANSLATION_SCHEMA)
        translation = validated(TranslationSchema(), answer)
        mismatch = translation_mismatch(part, translation) if len(parts) > 1 else None
        if mismatch is not None:
            field, message = mismatch
            raise TranslationMismatch(field, f"{message} in part {number} of {len(parts)}")
        return translation

    shares = await asyncio.gather(*(part_translation(n, p) for n, p in enumerate(parts, 1)))
    return {
        "title": shares[0]["title"],
        "lessons": [lesson for share in shares for lesson in share["lessons"]],
        "quiz": shares[-1]["quiz"],
        "given_correct": shares[-1]["given_correct"],
    }


def translation_parts(document: dict) -> list[dict]:
    """The course in parts of whole lessons of at most TRANSLATION_PART_CHARS of text (a
    longer lesson alone), in order; every part has the title, the last one the quiz."""
    groups: list[list[dict]] = [[]]
    size = 0
    for lesson in document["lessons"]:
        length = len(lesson["title"]) + len(lesson["body"])
        if groups[-1] and size + length > TRANSLATION_PART_CHARS:
            groups.append([])
            size = 0
        groups[-1].append(lesson)
        size += length
    last = len(groups) - 1
    return [
        {
            "title": document["title"],
            "lessons": group,
            "quiz": document["quiz"] if n == last else [],
        }
        for n, group in enumerate(groups)
    ]


def _course_text(document: dict) -> str:
    texts = {
        "title": document["title"],
        "lessons": document["lessons"],
        "quiz": [{"question": q["question"], "options": q["options"]} for q in document["quiz"]],
    }
    return json.dumps(texts, ensure_ascii=False)
