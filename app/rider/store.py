"""The rider app's SQL, one function a use."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import asyncpg

from app.core import sql
from app.core.database import Db
from app.training import cursor
from app.training import store as training
from app.training.results import merge_results
from app.webhooks import events

SQL = sql.load(
    "rider",
    "rider_by_id",
    "signed_in_rider",
    "my_training",
    "view_course",
    "peek_course",
    "record_attempt",
    "record_answers",
    "keep_attempt_id",
    "first_attempt",
    "course_result",
    "complete_rider_assignments",
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


async def signed_in_rider(db: Db, rider_id: str) -> Rider | None:
    row = await db.fetchrow(SQL.signed_in_rider, rider_id)
    return Rider(**row) if row else None


async def my_training(db: Db, rider_id: str, language: str) -> list[asyncpg.Record]:
    return await db.fetch(SQL.my_training, rider_id, language)


async def view_course(
    conn: asyncpg.Connection, rider_id: str, course_id: uuid.UUID, language: str, lesson: int = 0
) -> asyncpg.Record | None:
    """Records a view of the course (see sql/rider/view_course.sql) and returns the rider's
    record, locked until the transaction ends; None when the rider may not open the course."""
    return await conn.fetchrow(SQL.view_course, rider_id, course_id, language, lesson)


async def peek_course(
    conn: asyncpg.Connection, rider_id: str, course_id: uuid.UUID, language: str
) -> asyncpg.Record | None:
    """The rider's record as `view_course` returns it, recording no view (offline copies)."""
    return await conn.fetchrow(SQL.peek_course, rider_id, course_id, language)


async def record_attempt(
    conn: asyncpg.Connection, rider_id: str, course_id: uuid.UUID, score: float
) -> asyncpg.Record:
    return await conn.fetchrow(SQL.record_attempt, rider_id, course_id, score)


async def record_answers(
    conn: asyncpg.Connection,
    attempt: asyncpg.Record,
    chosen: list[set[int]],
    grade,
) -> None:
    """Keep the options chosen in the attempt `record_attempt` just counted, question by
    question, for the item analysis (docs/admin-panel.md: reports)."""
    wrong = set(grade.wrong)
    await conn.execute(
        SQL.record_answers,
        attempt["rider_id"],
        attempt["course_id"],
        attempt["attempts"],
        grade.score,
        grade.passed,
        ["{" + ",".join(map(str, sorted(options))) + "}" for options in chosen],
        [index not in wrong for index in range(len(chosen))],
    )


async def keep_attempt_id(
    conn: asyncpg.Connection, rider_id: str, course_id: uuid.UUID, attempt_id: uuid.UUID, grade
) -> bool:
    """Record the quiz form's attempt_id with its grade; False when it was recorded before."""
    kept = await conn.fetchval(
        SQL.keep_attempt_id, rider_id, course_id, attempt_id, grade.score, grade.passed, grade.wrong
    )
    return kept is not None


async def first_attempt(
    db: Db, rider_id: str, course_id: uuid.UUID, attempt_id: uuid.UUID
) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.first_attempt, rider_id, course_id, attempt_id)


async def pass_course(
    conn: asyncpg.Connection, record: dict, api_key: str | None
) -> asyncpg.Record:
    """Make the rider's record of a course a completion by the merge rules of load-data (first
    completedAt and proof code kept, score never lowered) and complete the assignments it
    finishes; in the caller's transaction, with the record locked. A first pass writes its
    `completion.created` webhook event (its cursor sealed with `api_key`, the integration
    key). Returns the record."""
    rider_id, course_id = record["rider_id"], record["course_id"]
    before = await conn.fetchrow(SQL.course_result, rider_id, course_id)
    await merge_results(conn, [record])
    await conn.execute(SQL.complete_rider_assignments, rider_id, course_id)
    result = await conn.fetchrow(SQL.course_result, rider_id, course_id)
    if before["completed_at"] is None:
        await _record_completion(conn, rider_id, result["completed_at"], api_key)
    return result


async def _record_completion(
    conn: asyncpg.Connection, rider_id: str, completed_at, api_key: str | None
) -> None:
    """The completion as the feed prints it: the first record after (its time, its rider,
    the nil course), which is it (a rider passes one course a transaction)."""
    (row,) = await training.completions_page(conn, (completed_at, rider_id, cursor.NIL_COURSE), 1)
    await events.record(conn, "completion.created", [cursor.completion_event(row, api_key)])


async def proof(db: Db, proof_code: str, rider_id: str, language: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.proof, proof_code, rider_id, language)


async def verify_proof(db: Db, proof_code: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.verify_proof, proof_code)
