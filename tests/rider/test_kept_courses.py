"""A web process keeps the courses it reads (app/rider/kept_courses.py) and the quiz forms it
rendered (app/rider/quiz_form.py), and a page never shows a kept copy that is no longer
current: a course or a translation written since (here straight into the database, as another
instance, the API or an operator would) is read again, and answers are graded against the
course as it is now."""

import uuid

from app.rider.kept_courses import KeptCourses
from app.training.courses import Course, Version, save_course
from tests.rider.rows import (
    QUIZ,
    RIGHT,
    add_rider,
    add_translation,
    course_for,
    form,
    signed_in,
)


def _document(*, lessons=2, quiz=QUIZ, title="Food safety") -> dict:
    return {
        "title": title,
        "lessons": [{"title": f"Lesson {n}", "body": f"Text {n}."} for n in range(1, lessons + 1)],
        "quiz": quiz,
        "pass_mark": 70,
    }


async def test_a_course_saved_after_it_was_kept_is_shown_and_graded_as_saved(client, db):
    await add_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    quiz = f"/training/courses/{course_id}/quiz"
    assert "Where do you keep hot food?" in await (await rider.get(quiz)).text()

    moved = [{**QUIZ[0], "question": "Where does hot food go?", "correct": [1]}, *QUIZ[1:]]
    await save_course(db, _document(lessons=3, quiz=moved), course_id)
    lesson = await rider.get(f"/training/courses/{course_id}/lessons/3")  # the kept copy has 2
    assert lesson.status == 200 and "Text 3." in await lesson.text()
    assert "Where does hot food go?" in await (await rider.get(quiz)).text()

    # Saved again while the rider answers: graded by the right option of the saved course.
    await save_course(db, _document(lessons=3, quiz=QUIZ), course_id)
    result = await rider.submit(quiz, form(RIGHT))
    assert result.status == 200 and "proof-code" in await result.text()
    record = await db.fetchrow("SELECT attempts, score, furthest_lesson FROM course_results")
    assert dict(record) == {"attempts": 1, "score": 100, "furthest_lesson": 3}


async def test_a_translation_written_after_the_english_copy_was_kept_is_shown(client, db):
    await add_rider(client, language="ar")
    rider = await signed_in(client)
    course_id = await course_for(db)
    page, quiz = f"/training/courses/{course_id}", f"/training/courses/{course_id}/quiz"
    shown = await (await rider.get(page)).text()
    assert "Food safety" in shown and "سلامة الغذاء" not in shown
    shown = await (await rider.get(quiz)).text()
    assert "Where do you keep hot food?" in shown and "سؤال 0" not in shown

    await add_translation(db, course_id, "ar")
    shown = await (await rider.get(page)).text()
    assert "سلامة الغذاء" in shown and "هذه الترجمة آلية." in shown
    shown = await (await rider.get(quiz)).text()
    assert "سؤال 0" in shown and "Where do you keep hot food?" not in shown

    await db.execute("UPDATE course_translations SET state = 'reviewed'")
    shown = await (await rider.get(page)).text()
    assert "سلامة الغذاء" in shown and "هذه الترجمة آلية." not in shown
    assert await db.fetchval("SELECT language FROM course_results") == "ar"


async def test_a_kept_course_the_rider_may_no_longer_open_is_a_404_page(client, db):
    await add_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    quiz = f"/training/courses/{course_id}/quiz"
    assert (await rider.get(quiz)).status == 200
    await db.execute("DELETE FROM assignments")
    assert (await rider.get(quiz)).status == 404
    for answers in (RIGHT, {"q0": ["0"]}):  # a whole answer and one with a form error
        response = await rider.submit(quiz, form(answers), form_page="/training")
        assert response.status == 404
        assert "Where do you keep hot food?" not in await response.text()
    assert await db.fetchval("SELECT attempts FROM course_results") == 0


def _course(n: int) -> Course:
    return Course(
        course_id=uuid.UUID(int=n),
        title=f"Course {n}",
        lessons=[],
        quiz=[],
        pass_mark=None,
        has_quiz=False,
        published=True,
        updated_at=None,
        language="en",
        translation_state=None,
        version=Version(n, "en", None),
    )


def test_a_process_keeps_the_courses_it_used_last_up_to_its_size():
    kept = KeptCourses(size=2)
    for n in (1, 2):
        kept.keep(_course(n))
    assert kept.get(uuid.UUID(int=1), "en").title == "Course 1"  # used: now the newest
    kept.keep(_course(3))
    assert kept.get(uuid.UUID(int=2), "en") is None
    assert kept.get(uuid.UUID(int=1), "ar") is None  # kept by the language asked for
    assert [kept.get(uuid.UUID(int=n), "en").title for n in (1, 3)] == ["Course 1", "Course 3"]


async def test_a_form_with_errors_on_a_course_saved_since_shows_the_quiz_as_saved(client, db):
    await add_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    quiz = f"/training/courses/{course_id}/quiz"
    assert (await rider.get(quiz)).status == 200
    moved = [{**QUIZ[0], "question": "Where does hot food go?"}, *QUIZ[1:]]
    await save_course(db, _document(quiz=moved), course_id)
    response = await rider.submit(quiz, form({"q0": ["0"]}))
    assert response.status == 400
    page = await response.text()
    assert "Where does hot food go?" in page and "Choose an answer." in page
    assert await db.fetchval("SELECT attempts FROM course_results") == 0
