"""Courses with content: save → read round trip, publishing, translations and the fallback to
English, and the database's guard on has_quiz / pass_mark."""

import uuid

import asyncpg
import psycopg
import pytest
from yoyo import get_backend, read_migrations

from app.core.migrations import MIGRATIONS_DIR, yoyo_url
from app.training import courses
from app.training.course_document import CourseDocumentSchema, TranslationSchema
from tests.training.helpers import add_course
from tests.training.test_course_document import document, translation


def loaded(**fields) -> dict:
    return CourseDocumentSchema().load(document(**fields))


def translated(**fields) -> dict:
    return TranslationSchema().load(translation(**fields))


async def test_a_saved_document_reads_back_as_saved(db):
    course_id = await courses.save_course(db, loaded(pass_mark=80))
    course = await courses.read_course(db, course_id)
    assert course.document() == loaded(pass_mark=80)
    assert (course.has_quiz, course.has_content, course.published) == (True, True, False)
    assert (course.language, course.translation_state) == ("en", None)
    # The completions feed reads the course's title from the same row.
    assert (
        await db.fetchval("SELECT title FROM courses WHERE course_id = $1", course_id)
        == "Road safety"
    )


async def test_saving_again_replaces_the_document_and_keeps_published(db):
    course_id = await courses.save_course(db, loaded(), published=True)
    before = (await courses.read_course(db, course_id)).updated_at
    await courses.save_course(db, loaded(title="Road safety 2", quiz=[]), course_id)
    course = await courses.read_course(db, course_id)
    assert (course.title, course.quiz, course.has_quiz, course.published) == (
        "Road safety 2",
        [],
        False,
        True,
    )
    assert course.updated_at >= before
    assert await db.fetchval("SELECT count(*) FROM courses") == 1


async def test_a_course_without_content_reads_with_no_lessons(db):
    course_id = await add_course(db, "Old course", quiz=True)
    course = await courses.read_course(db, course_id, "ar")
    assert (course.title, course.lessons, course.quiz, course.has_quiz, course.has_content) == (
        "Old course",
        [],
        [],
        True,
        False,
    )


def test_courses_from_before_the_migration_stay_published_and_new_rows_are_drafts(
    empty_database_url,
):
    backend = get_backend(yoyo_url(empty_database_url))
    every = read_migrations(str(MIGRATIONS_DIR))
    with backend.lock():
        backend.apply_migrations(
            backend.to_apply(every.filter(lambda m: m.id != "0008.course-content"))
        )
    with psycopg.connect(empty_database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO courses (course_id, title) VALUES (gen_random_uuid(), 'Old')")
    with backend.lock():
        backend.apply_migrations(backend.to_apply(every))
    backend.connection.close()
    with psycopg.connect(empty_database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO courses (course_id, title) VALUES (gen_random_uuid(), 'New')")
        rows = conn.execute("SELECT title, published, content FROM courses ORDER BY title")
        assert rows.fetchall() == [("New", False, None), ("Old", True, None)]


async def test_an_unknown_course_reads_as_none_and_cannot_be_changed(db):
    unknown = uuid.uuid4()
    assert await courses.read_course(db, unknown) is None
    assert await courses.mark_reviewed(db, unknown, "ar") is False
    with pytest.raises(courses.CourseNotFound):
        await courses.save_translation(db, unknown, "ar", translated())


async def test_a_translation_is_read_in_its_language_with_the_course_answers(db):
    course_id = await courses.save_course(db, loaded(pass_mark=60))
    await courses.save_translation(db, course_id, "ar", translated())
    course = await courses.read_course(db, course_id, "ar")
    assert (course.language, course.translation_state, course.title) == (
        "ar",
        "machine",
        "السلامة على الطريق",
    )
    assert course.lessons == translation()["lessons"]
    assert [q["correct"] for q in course.quiz] == [[1], [0]]
    assert course.quiz[0]["options"] == ["1 ث", "3 ث", "لا شيء"]
    assert (course.pass_mark, course.has_quiz) == (60, True)
    assert await courses.mark_reviewed(db, course_id, "ar") is True
    assert (await courses.read_course(db, course_id, "ar")).translation_state == "reviewed"
    # A new machine translation replaces the reviewed one.
    await courses.save_translation(db, course_id, "ar", translated(title="جديد"))
    course = await courses.read_course(db, course_id, "ar")
    assert (course.title, course.translation_state) == ("جديد", "machine")


async def test_a_language_without_a_translation_falls_back_to_english(db):
    course_id = await courses.save_course(db, loaded())
    await courses.save_translation(db, course_id, "ar", translated())
    for language in ("ur", "ku", "en"):
        course = await courses.read_course(db, course_id, language)
        assert (course.language, course.translation_state, course.title) == (
            "en",
            None,
            "Road safety",
        )
    assert await courses.mark_reviewed(db, course_id, "ur") is False


async def test_a_translation_that_no_longer_fits_the_course_falls_back_and_shows_outdated(db):
    course_id = await courses.save_course(db, loaded())
    await courses.save_translation(db, course_id, "ar", translated())
    assert [
        (t["language"], t["state"], t["outdated"])
        for t in await courses.translation_states(db, course_id)
    ] == [("ar", "machine", False)]
    await courses.save_course(db, loaded(lessons=document()["lessons"][:1]), course_id)
    course = await courses.read_course(db, course_id, "ar")
    assert (course.language, course.title, len(course.lessons)) == ("en", "Road safety", 1)
    assert [t["outdated"] for t in await courses.translation_states(db, course_id)] == [True]


async def test_a_translation_must_fit_its_course(db):
    course_id = await courses.save_course(db, loaded())
    with pytest.raises(courses.TranslationMismatch) as error:
        await courses.save_translation(
            db, course_id, "ar", translated(lessons=translation()["lessons"][:1])
        )
    assert (error.value.field, error.value.message) == ("lessons", "the course has 2 lessons")
    old = await add_course(db, "Old course")
    with pytest.raises(courses.TranslationMismatch) as error:
        await courses.save_translation(db, old, "ar", translated())
    assert error.value.message == "the course has no lessons to translate"
    assert await db.fetchval("SELECT count(*) FROM course_translations") == 0


LESSONS = [{"title": "t", "body": "b"}]


@pytest.mark.parametrize(
    ("has_quiz", "pass_mark", "content"),
    [
        (False, 70, {"lessons": LESSONS, "quiz": [{"question": "q"}]}),
        (True, 70, {"lessons": LESSONS, "quiz": []}),
        (False, None, {"lessons": LESSONS, "quiz": []}),
        (False, 70, {"lessons": [], "quiz": []}),
        (False, 70, {"lessons": LESSONS}),
        (False, 70, {"lessons": "many", "quiz": []}),
        (False, 70, "a text"),
    ],
)
async def test_the_database_keeps_has_quiz_and_pass_mark_in_step_with_the_content(
    db, has_quiz, pass_mark, content
):
    with pytest.raises(asyncpg.CheckViolationError):
        await db.execute(
            "INSERT INTO courses (course_id, title, has_quiz, pass_mark, content)"
            " VALUES ($1, 'T', $2, $3, $4)",
            uuid.uuid4(),
            has_quiz,
            pass_mark,
            content,
        )


async def test_translations_are_for_ar_ur_ku_and_two_states(db):
    course_id = await courses.save_course(db, loaded())
    for language, state in (("en", "machine"), ("fr", "machine"), ("ar", "draft")):
        with pytest.raises(asyncpg.CheckViolationError):
            await db.execute(
                "INSERT INTO course_translations (course_id, language, document,"
                " state) VALUES ($1, $2, '{}', $3)",
                course_id,
                language,
                state,
            )
