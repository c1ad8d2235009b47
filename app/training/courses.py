"""Courses with their content (docs/api-training.md#course-content): what the admin editor, the
rider's player and the AI jobs call. Documents and translations arrive loaded by the schemas of
`course_document`; these functions apply the rules that need the stored course and run the SQL.

A rider reading a course in `ar`, `ur` or `ku` gets the translation when there is one that
still fits the course (same lessons, questions and options), else the English course; the
correct answers and the pass mark are always the course's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

import asyncpg

from app.core import sql
from app.training.course_document import (
    content,
    stored_translation,
    translation_mismatch,
)

SQL = sql.load(
    "training",
    "read_course",
    "upsert_course_documents",
    "lock_course_content",
    "upsert_course_translations",
    "review_translation",
    "course_translation_states",
)


class CourseNotFound(Exception):
    pass


class TranslationMismatch(Exception):
    """A translation that does not follow its course; `field` names where (e.g. `lessons`)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class Version(NamedTuple):
    """Which stored rows a Course was read from: the versions (xmin) of the course's row and
    of its translation's row into `language`, the language asked for (see read_course.sql)."""

    course: int
    language: str
    translation: int | None


@dataclass(frozen=True)
class Course:
    course_id: uuid.UUID
    title: str
    lessons: list[dict]  # [{title, body (Markdown)}]; [] for a course without content
    quiz: list[dict]  # [{question, options, correct (0-based option indexes)}]
    pass_mark: int | None
    has_quiz: bool
    published: bool
    updated_at: datetime  # when the content was last saved
    language: str  # of title, lessons and quiz: the language asked for, or "en"
    translation_state: str | None  # "machine" or "reviewed" when translated, else None
    version: Version

    @property
    def has_content(self) -> bool:
        return bool(self.lessons)

    def document(self) -> dict:
        """The course document (export, AI prompts); meaningful when `has_content`."""
        return {
            "title": self.title,
            "lessons": self.lessons,
            "quiz": self.quiz,
            "pass_mark": self.pass_mark,
        }


async def read_course(
    conn: asyncpg.Connection, course_id: uuid.UUID, language: str = "en"
) -> Course | None:
    """The course in `language` (falling back to English), or None for an unknown course."""
    row = await conn.fetchrow(SQL.read_course, course_id, language)
    if row is None:
        return None
    english = row["content"] or {"lessons": [], "quiz": []}
    course = Course(
        course_id=row["course_id"],
        title=row["title"],
        lessons=english["lessons"],
        quiz=english["quiz"],
        pass_mark=row["pass_mark"],
        has_quiz=row["has_quiz"],
        published=row["published"],
        updated_at=row["updated_at"],
        language="en",
        translation_state=None,
        version=Version(row["course_version"], language, row["translation_version"]),
    )
    translation = row["translation"]
    if translation is None or translation_mismatch(english, translation) is not None:
        return course
    quiz = [
        {**question, "correct": ours["correct"]}
        for question, ours in zip(translation["quiz"], english["quiz"], strict=True)
    ]
    return replace(
        course,
        title=translation["title"],
        lessons=translation["lessons"],
        quiz=quiz,
        language=language,
        translation_state=row["translation_state"],
    )


async def save_course(
    conn: asyncpg.Connection,
    document: dict,
    course_id: uuid.UUID | None = None,
    published: bool | None = None,
) -> uuid.UUID:
    """Create (no `course_id`, or a new one) or replace a course's document in one statement;
    returns the course id. `published` None keeps the stored value; a new course is then a
    draft (unpublished), as the editor and generation want."""
    course_id = course_id or uuid.uuid4()
    await conn.execute(
        SQL.upsert_course_documents, [document_record(course_id, document, published)], False
    )
    return course_id


def document_record(course_id: uuid.UUID, document: dict, published: bool | None) -> dict:
    """A course document as a record of `upsert_course_documents`."""
    return {
        "id": course_id,
        "title": document["title"],
        **content(document),
        "pass_mark": document["pass_mark"],
        "published": published,
    }


async def save_translation(
    conn: asyncpg.Connection,
    course_id: uuid.UUID,
    language: str,
    translation: dict,
    state: str = "machine",
) -> None:
    """Store the course's translation into `language` (replacing the previous one): checked
    against the course under a lock, so a concurrent save of the course cannot slip between.
    Raises CourseNotFound or TranslationMismatch."""
    async with conn.transaction():
        row = await conn.fetchrow(SQL.lock_course_content, course_id)
        if row is None:
            raise CourseNotFound(str(course_id))
        if row["content"] is None:
            raise TranslationMismatch("lessons", "the course has no lessons to translate")
        mismatch = translation_mismatch(row["content"], translation)
        if mismatch is not None:
            raise TranslationMismatch(*mismatch)
        await conn.execute(
            SQL.upsert_course_translations,
            [translation_record(course_id, language, translation, state)],
        )


def translation_record(course_id: uuid.UUID, language: str, translation: dict, state: str) -> dict:
    """A loaded translation as a record of `upsert_course_translations`."""
    return {
        "course_id": course_id,
        "language": language,
        "document": stored_translation(translation),
        "state": state,
    }


async def mark_reviewed(conn: asyncpg.Connection, course_id: uuid.UUID, language: str) -> bool:
    """Mark a translation reviewed; False when the course has none in that language."""
    return await conn.fetchval(SQL.review_translation, course_id, language) is not None


async def translation_states(conn: asyncpg.Connection, course_id: uuid.UUID) -> list[dict]:
    """[{language, state, updated_at, outdated}] of the course's translations, by language."""
    return [dict(row) for row in await conn.fetch(SQL.course_translation_states, course_id)]
