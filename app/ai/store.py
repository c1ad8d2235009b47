"""The AI package's SQL: jobs, knowledge passages, the assistant's hourly count."""

from __future__ import annotations

import uuid
from datetime import timedelta

import asyncpg

from app.core import sql
from app.core.database import Db
from app.core.http import MiB

SQL = sql.load(
    "ai",
    "insert_generation_job",
    "insert_job_source",
    "job_source",
    "insert_translation_job",
    "claim_job",
    "lock_running_job",
    "finish_job",
    "sweep_jobs",
    "job",
    "recent_jobs",
    "job_counts",
    "insert_knowledge",
    "knowledge_documents",
    "knowledge_document",
    "delete_knowledge",
    "search_knowledge",
    "search_rider_lessons",
    "lock_rider_questions",
    "record_question",
)


# A generation job's file is stored in chunks of this size (see migration 0016).
SOURCE_CHUNK = MiB


async def add_generation_job(
    conn: asyncpg.Connection, admin_id: int | None, source: bytes, name: str
) -> uuid.UUID:
    """A job and its file, in the caller's transaction; the file goes a chunk a statement, so
    the event loop never encodes more than SOURCE_CHUNK at once."""
    job_id = await conn.fetchval(SQL.insert_generation_job, admin_id, name)
    view = memoryview(source)
    for number, start in enumerate(range(0, len(source), SOURCE_CHUNK)):
        await conn.execute(
            SQL.insert_job_source, job_id, number, view[start : start + SOURCE_CHUNK]
        )
    return job_id


async def job_source(db: Db, job_id: uuid.UUID) -> list[bytes]:
    """The chunks of the job's file, in order."""
    return [row["chunk"] for row in await db.fetch(SQL.job_source, job_id)]


async def add_translation_job(
    db: Db, admin_id: int, course_id: uuid.UUID, language: str
) -> uuid.UUID:
    return await db.fetchval(SQL.insert_translation_job, admin_id, course_id, language)


async def claim_job(db: Db, worker: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.claim_job, worker)


async def lock_running_job(conn: asyncpg.Connection, job_id: uuid.UUID) -> bool:
    return bool(await conn.fetchval(SQL.lock_running_job, job_id))


async def finish_job(
    db: Db,
    job_id: uuid.UUID,
    status: str,
    error: str | None = None,
    course_id: uuid.UUID | None = None,
) -> str | None:
    """The job's kind, or None when it had already ended (the sweep was first)."""
    return await db.fetchval(SQL.finish_job, job_id, status, error, course_id)


async def sweep_jobs(db: Db, older_than: timedelta) -> list[asyncpg.Record]:
    return await db.fetch(SQL.sweep_jobs, older_than)


async def job(db: Db, job_id: uuid.UUID) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.job, job_id)


async def recent_jobs(db: Db, limit: int = 50) -> list[asyncpg.Record]:
    return await db.fetch(SQL.recent_jobs, limit)


async def job_counts(db: Db) -> list[tuple[tuple[str, str], float]]:
    """(kind, status) -> jobs, for the `ai_jobs` gauge."""
    return [((row["kind"], row["status"]), row["jobs"]) for row in await db.fetch(SQL.job_counts)]


async def add_knowledge(
    db: Db, name: str, size: int, characters: int, admin_id: int, passages: list[str]
) -> int:
    return await db.fetchval(SQL.insert_knowledge, name, size, characters, admin_id, passages)


async def knowledge_documents(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.knowledge_documents)


async def knowledge_document(db: Db, document_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.knowledge_document, document_id)


async def delete_knowledge(db: Db, document_id: int) -> str | None:
    return await db.fetchval(SQL.delete_knowledge, document_id)


async def search_knowledge(db: Db, question: str, limit: int) -> list[asyncpg.Record]:
    return await db.fetch(SQL.search_knowledge, question, limit)


async def search_rider_lessons(
    db: Db, rider_id: str, question: str, language: str, limit: int
) -> list[asyncpg.Record]:
    return await db.fetch(SQL.search_rider_lessons, rider_id, question, language, limit)


async def record_question(pool: asyncpg.Pool, rider_id: str, limit: int) -> timedelta | None:
    """Counts the rider's question; None when counted, else the wait until the next one."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_rider_questions, rider_id)
        return await conn.fetchval(SQL.record_question, rider_id, limit)
