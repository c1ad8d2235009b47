"""load-data `courses` with section 10's course document, translations and `published`, next
to older records without lessons; the demo courses."""

import random
import uuid

import pytest

from app.core.loader import LoadError
from app.training import courses
from app.training.demo import demo
from tests.training.test_course_document import document, translation
from tests.training.test_loading import load

COURSE = str(uuid.uuid4())


def record(**fields):
    return {"courseId": COURSE, **document(), **fields}


async def test_a_document_record_loads_with_its_translations(db):
    counts = await load(
        db,
        {
            "courses": [
                record(
                    pass_mark=80,
                    translations={
                        "ar": translation(),
                        "ku": {**translation(title="ku"), "state": "reviewed"},
                    },
                )
            ]
        },
    )
    assert counts == {"courses": 1}
    course = await courses.read_course(db, uuid.UUID(COURSE))
    assert course.document() == {**document(), "pass_mark": 80}
    assert (course.has_quiz, course.published) == (True, True)
    ar = await courses.read_course(db, uuid.UUID(COURSE), "ar")
    ku = await courses.read_course(db, uuid.UUID(COURSE), "ku")
    assert (ar.title, ar.translation_state) == ("السلامة على الطريق", "machine")
    assert (ku.title, ku.translation_state) == ("ku", "reviewed")
    # Loading the same file again changes nothing.
    await load(db, {"courses": [record(pass_mark=80, translations={"ar": translation()})]})
    assert await db.fetchval("SELECT count(*) FROM course_translations") == 2


async def test_a_document_record_without_quiz_defaults_and_id_works_too(db):
    await load(
        db,
        {
            "courses": [
                {
                    "id": COURSE,
                    "title": "T",
                    "lessons": [{"title": "t", "body": "b"}],
                    "has_quiz": False,
                }
            ]
        },
    )
    row = await db.fetchrow("SELECT has_quiz, pass_mark, content FROM courses")
    assert (row["has_quiz"], row["pass_mark"], row["content"]["quiz"]) == (False, 70, [])


async def test_published_is_true_for_new_courses_and_kept_when_a_record_leaves_it_out(db):
    await load(
        db, {"courses": [record(), {"id": str(uuid.uuid4()), "title": "Old", "has_quiz": False}]}
    )
    assert await db.fetchval("SELECT bool_and(published) FROM courses")
    await db.execute("UPDATE courses SET published = false")
    await load(
        db, {"courses": [record(), {"id": str(uuid.uuid4()), "title": "Old 2", "has_quiz": False}]}
    )
    assert [
        tuple(r) for r in await db.fetch("SELECT title, published FROM courses ORDER BY title")
    ] == [("Old", False), ("Old 2", True), ("Road safety", False)]
    await load(db, {"courses": [record(published=True)]})
    assert (await courses.read_course(db, uuid.UUID(COURSE))).published is True
    await load(db, {"courses": [record(published=False)]})
    assert (await courses.read_course(db, uuid.UUID(COURSE))).published is False


async def test_an_older_record_updates_a_course_without_content(db):
    await load(db, {"courses": [{"id": COURSE, "title": "Old", "has_quiz": True}]})
    await load(
        db,
        {"courses": [{"id": COURSE, "title": "Old renamed", "has_quiz": False, "pass_mark": 50}]},
    )
    row = await db.fetchrow("SELECT title, has_quiz, pass_mark, content FROM courses")
    assert tuple(row) == ("Old renamed", False, 50, None)
    # And a document replaces it.
    await load(db, {"courses": [record()]})
    assert (await courses.read_course(db, uuid.UUID(COURSE))).has_content


async def test_an_older_record_cannot_wipe_a_course_with_content(db):
    await load(db, {"courses": [record()]})
    with pytest.raises(LoadError) as error:
        await load(
            db,
            {
                "courses": [
                    {"id": str(uuid.uuid4()), "title": "New", "has_quiz": False},
                    {"id": COURSE, "title": "Old", "has_quiz": False},
                ]
            },
        )
    assert str(error.value) == (
        f"data.json: courses[1].lessons: course {COURSE} has lessons:"
        " a record without lessons cannot replace them"
    )
    assert await db.fetchval("SELECT count(*) FROM courses") == 1
    assert (await courses.read_course(db, uuid.UUID(COURSE))).title == "Road safety"


def short_translation():
    return translation(lessons=translation()["lessons"][:1])


@pytest.mark.parametrize(
    ("record_", "message"),
    [
        ({"title": "T", "has_quiz": False}, "courses[0].id: Missing data for required field."),
        (record(id=COURSE), "courses[0].courseId: give id or courseId, not both"),
        (record(courseId="nope"), "courses[0].courseId: Not a valid UUID."),
        ({"id": COURSE, "title": "T"}, "courses[0].has_quiz: Missing data for required field."),
        (
            {"id": COURSE, "title": "T", "has_quiz": True, "quiz": document()["quiz"]},
            "courses[0].lessons: a course with quiz needs its lessons",
        ),
        (
            {"id": COURSE, "title": "T", "has_quiz": True, "translations": {"ar": translation()}},
            "courses[0].lessons: a course with translations needs its lessons",
        ),
        (
            {"id": COURSE, "title": " ", "has_quiz": True},
            "courses[0].title: Length must be between 1 and 200.",
        ),
        (record(has_quiz=False), "courses[0].has_quiz: must say whether the quiz has questions"),
        (record(lessons=[]), "courses[0].lessons: Length must be between 1 and 30."),
        (
            record(quiz=[{"question": "Q", "options": ["a", "b"], "correct": [2]}]),
            "courses[0].quiz[0].correct: option indexes go from 0 to 1",
        ),
        (
            record(quiz=[{"question": "Q", "options": ["a"], "correct": [0]}]),
            "courses[0].quiz[0].options: Length must be between 2 and 6.",
        ),
        (record(pass_mark=101), "courses[0].pass_mark: Must be greater than or equal to 0"),
        (record(published="yes"), "courses[0].published: Not a valid boolean."),
        (record(translations={"fr": translation()}), "courses[0].translations.fr: Unknown field."),
        (
            record(translations={"ar": {**translation(), "state": "draft"}}),
            "courses[0].translations.ar.state: Must be one of: machine, reviewed.",
        ),
        (
            record(translations={"ar": translation(title="")}),
            "courses[0].translations.ar.title: Length must be between 1 and 200.",
        ),
        (
            record(translations={"ur": short_translation()}),
            "courses[0].translations.ur.lessons: the course has 2 lessons",
        ),
        (
            record(translations={"ar": translation(quiz=translation()["quiz"][:1])}),
            "courses[0].translations.ar.quiz: the course has 2 questions",
        ),
    ],
)
async def test_a_bad_course_record_rejects_the_file_naming_it(db, record_, message):
    with pytest.raises(LoadError) as error:
        await load(db, {"courses": [record_]})
    assert str(error.value).startswith("data.json: " + message)
    assert await db.fetchval("SELECT count(*) FROM courses") == 0


async def test_a_course_given_twice_rejects_the_file(db):
    with pytest.raises(LoadError) as error:
        await load(db, {"courses": [record(), {"id": COURSE, "title": "T", "has_quiz": False}]})
    assert str(error.value).startswith("data.json: courses[1].id: duplicate id")


async def test_the_demo_courses_have_lessons_quizzes_and_an_arabic_translation(db):
    document_ = demo(random.Random(7), 50)
    await load(db, document_)
    rows = await db.fetch("SELECT course_id, has_quiz, published, content FROM courses")
    assert len(rows) == 8 and all(r["published"] and r["content"] for r in rows)
    quizzes = [len(r["content"]["quiz"]) for r in rows if r["has_quiz"]]
    assert len(quizzes) == 5 and all(3 <= n <= 5 for n in quizzes)
    arabic = await db.fetchval(
        "SELECT course_id FROM course_translations WHERE language = 'ar' AND state = 'machine'"
    )
    course = await courses.read_course(db, arabic, "ar")
    assert (course.language, course.title) == ("ar", "أساسيات سلامة الغذاء")
    # Every demo result passed: its score reaches the course's pass mark.
    assert (
        await db.fetchval(
            "SELECT count(*) FROM course_results r JOIN courses c USING (course_id)"
            " WHERE r.score < c.pass_mark"
        )
        == 0
    )
