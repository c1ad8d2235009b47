"""The rider app's SQL, one function a use."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import asyncpg

from app.core import sessions, sql
from app.core.database import Db
from app.training import cursor
from app.training import store as training
from app.training.courses import Course, Version, read_course
from app.webhooks import events

SQL = sql.load(
    "rider",
    "rider_by_id",
    "rider_signing_in",
    "use_new_pin",
    "issue_pin_reset",
    "rider_session",
    "my_training",
    "view_course",
    "peek_course",
    "answer_quiz",
    "first_attempt",
    "pass_course",
    "proof",
    "verify_proof",
)


@dataclass(frozen=True)
class Rider:
    """The signed-in rider (`request[RIDER]`); `language` is the one the pages are shown in
    (the session's: the rider's own unless switched with `?lang=`)."""

    rider_id: str
    name: str
    language: str
    status: str


async def rider_by_id(db: Db, rider_id: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.rider_by_id, rider_id)


async def rider_signing_in(db: Db, rider_id: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.rider_signing_in, rider_id)


async def use_new_pin(db: Db, rider_id: str, pin_hash: str) -> None:
    await db.execute(SQL.use_new_pin, rider_id, pin_hash)


async def issue_pin_reset(db: Db, rider_id: str, pin_hash: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.issue_pin_reset, rider_id, pin_hash)


async def signed_in(db: Db, id_hash: bytes) -> tuple[sessions.Session, Rider] | None:
    """The live rider session with this id hash and its rider (active), in one statement; a
    rider session is fixed (never slides), so the visit writes nothing."""
    row = await db.fetchrow(SQL.rider_session, id_hash, sessions.RIDER.absolute)
    if row is None:
        return None
    session = sessions.Session(
        kind=sessions.RIDER.name,
        admin_id=None,
        rider_id=row["rider_id"],
        csrf_secret=row["csrf_secret"],
        language=row["session_language"],
        expires_at=row["expires_at"],
    )
    rider = Rider(row["rider_id"], row["name"], row["language"], row["status"])
    return session, rider


async def my_training(db: Db, rider_id: str, language: str) -> list[asyncpg.Record]:
    return await db.fetch(SQL.my_training, rider_id, language)


async def view_course(
    conn: asyncpg.Connection,
    rider_id: str,
    course: Course,
    lesson: int = 0,
    current: Version | None = None,
) -> asyncpg.Record | None:
    """Records a view of the course shown (see sql/rider/view_course.sql) and returns the
    rider's record, locked until the transaction ends; None when the rider may not open the
    course, or when `current` is given and the stored course is no longer that version."""
    return await conn.fetchrow(
        SQL.view_course, rider_id, course.course_id, course.language, lesson, *_check(current)
    )


async def peek_course(
    conn: asyncpg.Connection, rider_id: str, course: Course, current: Version | None = None
) -> asyncpg.Record | None:
    """The rider's record as `view_course` returns it, recording no view (offline copies)."""
    return await conn.fetchrow(
        SQL.peek_course, rider_id, course.course_id, course.language, *_check(current)
    )


def _check(current: Version | None) -> tuple:
    return current or (None, None, None)


async def answer_quiz(
    conn: asyncpg.Connection,
    rider_id: str,
    course: Course,
    chosen: list[set[int]],
    grade,
    attempt_id: uuid.UUID | None,
    current: Version | None,
    api_key: str | None,
) -> asyncpg.Record:
    """Count the attempt with the view of the page it answers, keep the options chosen
    question by question (the item analysis, docs/reports.md) and the quiz form's attempt_id
    with its grade, and pass the course when it passed, with its completion event when an
    endpoint takes one (sealed with `api_key`, as `pass_course`).

    One statement (sql/rider/functions/rider_answer_quiz.sql), atomic on its own; only a pass
    with an event to write runs in a transaction of its own. Returns `opened` (false: the
    rider may not open the course or, with `current`, the stored course is no longer that
    version; nothing written), `repeat` (the attempt_id was recorded before; nothing
    written) and the record's completedAt, proof code, best score and attempts."""
    wrong = set(grade.wrong)
    answers = [
        {"chosen": sorted(options), "correct": index not in wrong}
        for index, options in enumerate(chosen)
    ]
    args = (rider_id, course.course_id, course.language, grade.score, grade.passed, answers)
    args += (attempt_id, *_check(current))
    result = await conn.fetchrow(SQL.answer_quiz, *args, False)
    if not result["announce"]:
        return result
    async with conn.transaction():
        result = await conn.fetchrow(SQL.answer_quiz, *args, True)
        await _announce(conn, rider_id, result, api_key)
    return result


async def first_attempt(
    db: Db, rider_id: str, course_id: uuid.UUID, attempt_id: uuid.UUID
) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.first_attempt, rider_id, course_id, attempt_id)


async def pass_course(
    conn: asyncpg.Connection, rider_id: str, course_id: uuid.UUID, api_key: str | None
) -> asyncpg.Record:
    """Make the rider's record of a course a completion (first completedAt and proof code
    kept) and complete the assignments it finishes; in the caller's transaction, with the
    record locked, which the caller runs again when the new proof code repeats a stored one
    (`results.retrying_proof_codes`). A first pass writes its `completion.created` webhook
    event (its cursor sealed with `api_key`, the feed's secret: `cursor.secret`) when an
    endpoint takes them. Returns the record's completedAt, proof code, score and attempts."""
    result = await conn.fetchrow(SQL.pass_course, rider_id, course_id)
    await _announce(conn, rider_id, result, api_key)
    return result


async def _announce(
    conn: asyncpg.Connection, rider_id: str, passed: asyncpg.Record, api_key: str | None
) -> None:
    """A first pass's `completion.created` event, when an endpoint takes them: the completion
    as the feed prints it, the first record after (its time, its rider, the nil course),
    which is it (a rider passes one course a transaction)."""
    if not (passed["first_pass"] and passed["announced"]):
        return
    after = (passed["completed_at"], rider_id, cursor.NIL_COURSE)
    (row,) = await training.completions_page(conn, after, 1)
    await events.record(conn, "completion.created", [cursor.completion_event(row, api_key)])


async def proof(db: Db, proof_code: str, rider_id: str, language: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.proof, proof_code, rider_id, language)


async def verify_proof(db: Db, proof_code: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.verify_proof, proof_code)


# Nobody: no rider has an empty ID, no course or attempt the nil UUID. A kept copy's
# versions, as a page checks them (most pages show a kept copy).
_NOBODY, _NIL, _KEPT = "", uuid.UUID(int=0), (1, "en", None)


async def plan_ahead(conn: asyncpg.Connection) -> None:
    """The statements of the signed-in pages a rider opens most (session, training, course
    and lesson pages, quiz answers, passes), each once, for nobody: they plan, compile and
    read, and write nothing (app.web.plan_ahead)."""
    await signed_in(conn, b"")
    await my_training(conn, _NOBODY, "en")
    await read_course(conn, _NIL)
    await conn.fetchrow(SQL.view_course, _NOBODY, _NIL, "en", 0, *_KEPT)
    for passed in (False, True):
        answer = (_NOBODY, _NIL, "en", 0.0, passed, [], _NIL)
        await conn.fetchrow(SQL.answer_quiz, *answer, *_KEPT, False)
    await conn.fetchrow(SQL.pass_course, _NOBODY, _NIL)
