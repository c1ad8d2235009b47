"""Translation: POST /admin/courses/<courseId>/translate (`language`) → job → a `machine`
translation riders of that language see, or a failed job and one `Translation failed` line."""

from __future__ import annotations

import json
import uuid

import pytest
import structlog

from app.core import database
from app.training import courses
from tests.ai import fake_ai as fake
from tests.ai.conftest import wait_for_job

ARABIC = {
    "title": "سلامة الخوذة",
    "lessons": [
        {"title": "لماذا الخوذة", "body": "الخوذة **تنقذ الأرواح**."},
        {"title": "ارتداؤها", "body": "إصبعان فوق الحاجبين."},
    ],
    "quiz": [{"question": "متى ترتديها؟", "options": ["دائماً", "أبداً"]}],
}


@pytest.fixture
async def course_id(database_url) -> uuid.UUID:
    async with database.connect(database_url) as conn:
        return await courses.save_course(conn, fake.COURSE)


async def translate(client, course_id, language="ar"):
    path = f"/admin/courses/{course_id}/translate"
    return await client.submit(path, {"language": language})


async def test_a_machine_translation_is_stored_and_shown_to_riders(
    ai_admin, fake_ai, course_id, database_url
):
    fake_ai.script.append(fake.document(ARABIC))
    response = await translate(ai_admin, course_id)
    assert response.status == 303
    page = await wait_for_job(ai_admin, response.headers["Location"])
    assert 'data-job-status="succeeded"' in page and "Translation into Arabic" in page
    sent = fake_ai.requests[0]["json"]
    assert "into Arabic" in sent["messages"][0]["content"]
    assert "Why a helmet" in sent["messages"][1]["content"]
    assert sent["response_format"]["json_schema"]["name"] == "course_translation"
    async with database.connect(database_url) as conn:
        course = await courses.read_course(conn, course_id, "ar")
    assert course.language == "ar" and course.translation_state == "machine"
    assert course.title == "سلامة الخوذة"
    assert course.quiz[0]["correct"] == [0]  # the course's answers


async def test_a_translation_that_does_not_fit_the_course_fails(
    ai_admin, fake_ai, course_id, database_url
):
    fake_ai.script.append(fake.document({**ARABIC, "lessons": ARABIC["lessons"][:1]}))
    with structlog.testing.capture_logs() as logs:
        response = await translate(ai_admin, course_id, "ur")
        page = await wait_for_job(ai_admin, response.headers["Location"], logs=logs)
    reason = "the AI's translation does not follow the course: lessons: the course has 2 lessons"
    assert 'data-job-status="failed"' in page and reason in page.replace("&#39;", "'")
    lines = [line for line in logs if line["event"] == "Translation failed"]
    assert [line["reason"] for line in lines] == [reason]
    assert "job_id" in lines[0]
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM course_translations") == 0


async def test_a_provider_error_fails_the_translation(ai_admin, fake_ai, course_id):
    fake_ai.script.extend([fake.status(500)] * 3)
    with structlog.testing.capture_logs() as logs:
        response = await translate(ai_admin, course_id, "ku")
        page = await wait_for_job(ai_admin, response.headers["Location"], logs=logs)
    assert 'data-job-status="failed"' in page
    lines = [line for line in logs if line["event"] == "Translation failed"]
    assert len(lines) == 1 and lines[0]["reason"].startswith("the AI provider answered 500")


async def test_form_errors_and_unknown_courses(ai_admin, course_id, database_url):
    response = await translate(ai_admin, course_id, "fr")
    assert response.status == 400
    page = await response.text()
    assert "Choose Arabic, Urdu or Kurdish (ar, ur or ku)." in page
    response = await ai_admin.post(
        f"/admin/courses/{uuid.uuid4()}/translate",
        data={"language": "ar", "csrf_token": await ai_admin.csrf("/admin/courses/generate")},
    )
    assert response.status == 404
    response = await ai_admin.get("/admin/courses/nope/translate")
    assert response.status == 404
    async with database.connect(database_url) as conn:
        await conn.execute(
            "INSERT INTO courses (course_id, title, has_quiz, pass_mark)"
            " VALUES ('00000000-0000-4000-8000-000000000001', 'Old course', false, 70)"
        )
    response = await translate(ai_admin, "00000000-0000-4000-8000-000000000001")
    assert response.status == 400
    assert "This course has no lessons to translate yet." in await response.text()
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM ai_jobs") == 0


async def test_unconfigured_translation_is_refused(unconfigured_admin, course_id):
    response = await unconfigured_admin.get(f"/admin/courses/{course_id}/translate")
    assert "AI is not configured" in await response.text()
    token = await unconfigured_admin.csrf("/admin/knowledge")
    response = await unconfigured_admin.post(
        f"/admin/courses/{course_id}/translate", data={"language": "ar", "csrf_token": token}
    )
    assert response.status == 503 and "AI is not configured" in await response.text()


async def test_the_panels_course_pages_show_the_ai_actions(ai_admin, course_id):
    page = await (await ai_admin.get("/admin/courses")).text()
    assert 'href="/admin/courses/generate"' in page
    page = await (await ai_admin.get(f"/admin/courses/{course_id}")).text()
    assert page.count(f'action="/admin/courses/{course_id}/translate"') == 3
    assert 'name="language" value="ur"' in page
    assert 'enctype="multipart/form-data"' not in page  # no generate form on a course
    page = await (await ai_admin.get("/admin/courses/generate")).text()
    assert "/admin/courses/generate?csrf_token=" in page


async def test_unconfigured_the_course_pages_say_so(unconfigured_admin, course_id):
    page = await (await unconfigured_admin.get("/admin/courses")).text()
    assert "AI generation: not configured" in page
    page = await (await unconfigured_admin.get(f"/admin/courses/{course_id}")).text()
    assert "/translate" not in page


async def test_the_recent_jobs_partial_for_the_jobs_page(
    ai_admin, fake_ai, course_id, database_url
):
    from app.ai import store
    from app.core.html import ENVIRONMENT

    fake_ai.script.append(fake.document(ARABIC))
    response = await translate(ai_admin, course_id)
    await wait_for_job(ai_admin, response.headers["Location"])
    async with database.connect(database_url) as conn:
        jobs = await store.recent_jobs(conn)
    listed = ENVIRONMENT.get_template("admin/ai_jobs.html").render(ai_jobs=jobs)
    assert f'href="{response.headers["Location"]}"' in listed
    assert "Translation (ar)" in listed and 'data-job-status="succeeded"' in listed
    assert "No AI job yet." in ENVIRONMENT.get_template("admin/ai_jobs.html").render(ai_jobs=[])
    page = await (await ai_admin.get("/admin/jobs")).text()
    assert f'href="{response.headers["Location"]}"' in page and "AI jobs" in page


LONG_COURSE = {
    "title": "Night riding",
    "lessons": [
        {"title": f"Lesson {n}", "body": f"Part {n}. " + "Keep your lights on. " * 330}
        for n in range(1, 4)
    ],
    "quiz": [{"question": "Lights at night?", "options": ["On", "Off"], "correct": [0]}],
    "pass_mark": 70,
}


def _arabic_echo(extra_lesson: bool = False) -> object:
    """An answer that 'translates' whatever part it is sent (ع before every text), with a
    lesson too many when `extra_lesson`."""

    async def answer(request, body):
        sent = json.loads(body["messages"][1]["content"])
        lessons = [
            {"title": f"ع {lesson['title']}", "body": f"ع {lesson['body'][:20]}"}
            for lesson in sent["lessons"] + sent["lessons"][:1] * extra_lesson
        ]
        quiz = [
            {"question": f"ع {q['question']}", "options": [f"ع {o}" for o in q["options"]]}
            for q in sent["quiz"]
        ]
        return await fake.document(
            {"title": f"ع {sent['title']}", "lessons": lessons, "quiz": quiz}
        )(request, body)

    return answer


@pytest.fixture
async def long_course_id(database_url) -> uuid.UUID:
    async with database.connect(database_url) as conn:
        return await courses.save_course(conn, LONG_COURSE)


async def test_a_long_course_is_translated_in_parts_of_whole_lessons(
    ai_admin, fake_ai, long_course_id, database_url
):
    fake_ai.script.extend([_arabic_echo()] * 3)
    response = await translate(ai_admin, long_course_id)
    page = await wait_for_job(ai_admin, response.headers["Location"])
    assert 'data-job-status="succeeded"' in page
    sent = [json.loads(r["json"]["messages"][1]["content"]) for r in fake_ai.requests]
    # 3 lessons of ~6,900 characters: no two fit in one part of 12,000.
    assert sorted(lesson["title"] for part in sent for lesson in part["lessons"]) == [
        "Lesson 1",
        "Lesson 2",
        "Lesson 3",
    ]
    assert all(len(part["lessons"]) == 1 for part in sent)
    assert [len(part["quiz"]) for part in sent].count(1) == 1
    async with database.connect(database_url) as conn:
        course = await courses.read_course(conn, long_course_id, "ar")
    assert course.translation_state == "machine" and course.title == "ع Night riding"
    assert [lesson["title"] for lesson in course.lessons] == [
        "ع Lesson 1",
        "ع Lesson 2",
        "ع Lesson 3",
    ]
    assert course.lessons[1]["body"].startswith("ع Part 2.")
    assert course.quiz[0]["question"] == "ع Lights at night?"
    assert course.quiz[0]["correct"] == [0]


async def test_a_part_that_does_not_follow_its_lessons_fails_the_translation(
    ai_admin, fake_ai, long_course_id, database_url
):
    fake_ai.script.extend([_arabic_echo(), _arabic_echo(extra_lesson=True), _arabic_echo()])
    with structlog.testing.capture_logs() as logs:
        response = await translate(ai_admin, long_course_id)
        page = await wait_for_job(ai_admin, response.headers["Location"], logs=logs)
    assert 'data-job-status="failed"' in page
    (line,) = [line for line in logs if line["event"] == "Translation failed"]
    assert line["reason"].startswith(
        "the AI's translation does not follow the course: lessons: the course has 1 lesson in part "
    )
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM course_translations") == 0
