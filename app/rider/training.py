"""The rider's training: `/training`, the course player (course page, lessons, quiz,
completion of a course without quiz) and the proofs of completion (docs/rider-app.md).

Every course page first records the view (`store.view_course`; a quiz answer's count
records it too): that is where the rider's access is checked (a course not on the path of one
of their assignments, or unpublished, is a 404 page), where `startedAt` and the language are
recorded at the first opening, and where `timeSpentSeconds` grows — unless the GET carries
`X-Offline-Copy: 1` (the offline copy is being kept, no rider is reading). A quiz answer is
counted, and passed, by one statement that locks the record as it counts, so two tabs
passing at once give one completion and one proof code. The course itself is the process's
kept copy when the view finds it current (app/rider/kept_courses.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import TypeVar

import asyncpg
from aiohttp import web

from app.core import pages
from app.core.keys import POOL, SETTINGS
from app.rider import progress, store
from app.rider.forms import QuizAnswers
from app.rider.guard import RIDER, rider_key
from app.rider.kept_courses import KEPT_COURSES
from app.rider.layout import render
from app.rider.quiz_form import RENDERED_QUIZZES
from app.training import cursor, results
from app.training.courses import Course, Version, read_course

routes = web.RouteTableDef()

T = TypeVar("T")

# Marks a fetch made only to keep the rider's offline copy: not a page view
# (docs/rider-offline.md#offline).
OFFLINE_COPY = "X-Offline-Copy"


@routes.get("/training")
async def my_training(request: web.Request) -> web.Response:
    rider = request[RIDER]
    rows = await store.my_training(request.app[POOL], rider.rider_id, rider.language)
    now = datetime.now(UTC)
    open_assignments, finished = progress.overview(rows, now)
    context = {
        "open_assignments": open_assignments,
        "finished": finished,
        "now": now,
        "ai_configured": request.app[SETTINGS].ai_configured,
    }
    return render(request, "rider/training.html", context)


async def _open(
    conn: asyncpg.Connection, request: web.Request, lesson: str | None = None
) -> tuple[Course, asyncpg.Record, int]:
    """The course in the rider's language, the rider's record after this view and the lesson
    number asked for (0 for none); a 404 page when the rider may not open it."""
    return await _on_course(request, conn, partial(_view, conn, request, lesson=lesson))


async def _on_course(
    request: web.Request, conn: asyncpg.Connection, use: Callable[..., Awaitable[T]]
) -> T:
    """`use(course, current)` on the process's kept copy of the course in the rider's
    language (app/rider/kept_courses.py), `current` its version for the statement to check;
    when that answers None (no longer current, or not the rider's), on the course read now,
    `current` None. A 404 page when the course is unknown or `use` answers None again."""
    language = request[RIDER].language
    course_id = pages.uuid_in_path(request, "course_id")
    kept_courses = request.app[KEPT_COURSES]
    kept = kept_courses.get(course_id, language)
    if kept is not None:
        used = await use(kept, kept.version)
        if used is not None:
            return used
    course = await read_course(conn, course_id, language)
    if course is None:
        raise web.HTTPNotFound
    kept_courses.keep(course)
    used = await use(course, None)
    if used is None:
        raise web.HTTPNotFound
    return used


async def _view(
    conn: asyncpg.Connection,
    request: web.Request,
    course: Course,
    current: Version | None,
    lesson: str | None = None,
) -> tuple[Course, asyncpg.Record, int] | None:
    """Records the view of `course` (not for the offline copy's fetch): None when the rider
    may not open it, the lesson asked for is not one of its lessons, or (with `current`) the
    stored course is no longer that version."""
    rider_id = request[RIDER].rider_id
    number = 0
    if lesson is not None:
        number = progress.lesson_number(lesson, len(course.lessons))
        if number is None:
            return None
    if request.method == "GET" and request.headers.get(OFFLINE_COPY) == "1":
        record = await store.peek_course(conn, rider_id, course, current)
    else:
        record = await store.view_course(conn, rider_id, course, number, current)
    return None if record is None else (course, record, number)


def _course_page(request, course, record, status=200, problem=None) -> web.Response:
    context = {"course": course, "record": record, "problem": problem, "percent": progress.percent}
    return render(request, "rider/course.html", context, status=status)


@routes.get("/training/courses/{course_id}")
async def course_page(request: web.Request) -> web.Response:
    async with request.app[POOL].acquire() as conn:
        course, record, _ = await _open(conn, request)
    return _course_page(request, course, record)


@routes.get("/training/courses/{course_id}/lessons/{n}")
async def lesson_page(request: web.Request) -> web.Response:
    async with request.app[POOL].acquire() as conn:
        course, record, number = await _open(conn, request, request.match_info["n"])
    lesson = course.lessons[number - 1]
    context = {"course": course, "record": record, "number": number, "lesson": lesson}
    return render(request, "rider/lesson.html", context)


def _quiz_page(request, course, answers=None, status=200) -> web.Response:
    rendered = request.app[RENDERED_QUIZZES]
    questions = rendered.questions(course, request[RIDER].language, answers)
    context = {
        "course": course,
        "answers": answers,
        "questions": questions,
        "attempt_id": uuid.uuid4(),
    }
    return render(request, "rider/quiz.html", context, status=status)


@routes.get("/training/courses/{course_id}/quiz")
async def quiz_page(request: web.Request) -> web.Response:
    async with request.app[POOL].acquire() as conn:
        course, _, _ = await _open(conn, request)
    if not course.quiz:
        raise web.HTTPNotFound
    return _quiz_page(request, course)


@routes.post("/training/courses/{course_id}/quiz")
async def submit_quiz(request: web.Request) -> web.Response:
    """Grade and count an attempt. A form whose attempt_id was recorded before (a kept answer
    sent again, a double tap) counts nothing, view time included, and answers the first
    result (docs/rider-offline.md, "Offline"). A form answered under another rider is a 409 page."""
    form = await request.post()
    if not _answers_of_this_rider(request, form):
        context = {"heading": "answers_not_yours_title", "line": "answers_not_yours"}
        return render(request, "rider/offline.html", context, status=409)
    page = await results.retrying_proof_codes(partial(_submission, request, form))
    return page()


def _answers_of_this_rider(request: web.Request, form) -> bool:
    """Whether the form was answered under the signed-in rider: a quiz form carries the key
    of the rider it was shown to (`rider_key`), and a phone's kept answers sent under another
    rider's session are refused, nothing recorded (docs/rider-offline.md, "Shared phones"). A
    form without the field (scripts) is the session's."""
    given = form.get("rider_key")
    own = rider_key(request.app[SETTINGS].session_secret, request[RIDER].rider_id)
    return given is None or given == own


async def _submission(request: web.Request, form) -> Callable[[], web.Response]:
    """The page to render, once the connection is back in the pool."""
    async with request.app[POOL].acquire() as conn:
        return await _on_course(request, conn, partial(_submit, conn, request, form))


async def _submit(
    conn: asyncpg.Connection, request: web.Request, form, course: Course, current: Version | None
) -> Callable[[], web.Response] | None:
    """The answers graded against `course` and counted: the page to render, or None when the
    rider may not answer it or (with `current`) it is no longer that version."""
    if not course.quiz:
        return None
    answers = QuizAnswers(form, course.quiz)
    if not answers.valid:
        if await _view(conn, request, course, current) is None:
            return None
        return partial(_quiz_page, request, course, answers, status=400)
    grade = progress.grade(course.quiz, answers.chosen, course.pass_mark)
    rider_id = request[RIDER].rider_id
    result = await store.answer_quiz(
        conn,
        rider_id,
        course,
        answers.chosen,
        grade,
        answers.attempt_id,
        current,
        _integration_key(request),
    )
    if not result["opened"]:
        return None
    if result["repeat"]:
        first = await store.first_attempt(conn, rider_id, course.course_id, answers.attempt_id)
        grade = progress.Grade(first["score"], first["passed"], list(first["wrong"]))
        result = {**first, "score": first["best_score"]}
    return partial(_result_page, request, course, grade, result)


def _result_page(request, course, grade, result) -> web.Response:
    context = {"course": course, "grade": grade, "result": result, "percent": progress.percent}
    return render(request, "rider/result.html", context)


@routes.post("/training/courses/{course_id}/complete")
async def complete_course(request: web.Request) -> web.Response:
    return await results.retrying_proof_codes(lambda: _completion(request))


async def _completion(request: web.Request) -> web.Response:
    rider = request[RIDER]
    async with request.app[POOL].acquire() as conn, conn.transaction():
        course, record, _ = await _open(conn, request)
        if course.quiz or not course.lessons:
            raise web.HTTPNotFound
        if record["furthest_lesson"] < len(course.lessons):
            return _course_page(request, course, record, 400, "open_every_lesson")
        result = await store.pass_course(
            conn, rider.rider_id, course.course_id, _integration_key(request)
        )
    raise web.HTTPSeeOther(f"/training/proofs/{result['proof_code']}")


def _integration_key(request: web.Request) -> str | None:
    """The key the completions feed seals its cursors with (a completion event carries one)."""
    return cursor.secret(request.app[SETTINGS])


@routes.get("/training/proofs/{proof_code}")
async def proof_page(request: web.Request) -> web.Response:
    rider = request[RIDER]
    proof = await store.proof(
        request.app[POOL], request.match_info["proof_code"], rider.rider_id, rider.language
    )
    if proof is None:
        raise web.HTTPNotFound
    verify_url = f"{request.app[SETTINGS].public_base_url}/verify/{proof['proof_code']}"
    context = {"proof": proof, "verify_url": verify_url, "percent": progress.percent}
    return render(request, "rider/proof.html", context)
