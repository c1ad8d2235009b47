"""AI jobs (docs/ai.md): rows of `ai_jobs`, run as asyncio tasks inside `serve`.

A job is written `running` and unclaimed by the page that starts it; the runner of any web
process claims it (`FOR UPDATE SKIP LOCKED`: each job once), runs it and stores its result in
the same transaction that marks it `succeeded`. A sweep every minute fails the jobs still
running 15 minutes after they started, which also catches the jobs of a process that died.
A failed job logs exactly one error line (`Course generation failed` / `Translation failed`,
with `job_id` and `reason`): whoever ends the row (the job or the sweep) logs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from datetime import timedelta

import asyncpg
import structlog
from aiohttp import web

from app.ai import documents, extraction, sources, store
from app.ai.client import PROVIDER, Provider, ProviderError
from app.core import audit
from app.core.keys import POOL
from app.training import courses

log = structlog.get_logger("ai")

TIMEOUT = timedelta(minutes=15)
TIMED_OUT = "timed out after 15 minutes"
SWEEP_EVERY = 60.0
# The worker sees a job the panel started (in a web process) at the latest after this; a job
# started in the worker's own process (the tests' apps) is started at once (`wake`).
POLL_EVERY = 2.0
# Jobs one process runs at once (each mostly waits for the provider).
JOBS_AT_ONCE = 2

FAILED = {"generation": "Course generation failed", "translation": "Translation failed"}

WAKE = web.AppKey("ai_jobs_wake", asyncio.Event)


class JobFailed(Exception):
    pass


def wake(app: web.Application) -> None:
    """A job was just written: this process's runner (if it runs one) claims it now."""
    if event := app.get(WAKE):
        event.set()


async def start_generation(
    app: web.Application, actor: audit.Actor, admin_id: int, source: bytes, name: str
) -> uuid.UUID:
    """A generation job for the uploaded file, with its audit event, claimed at once by this
    process's runner."""
    async with app[POOL].acquire() as conn, conn.transaction():
        job_id = await store.add_generation_job(conn, admin_id, source, name)
        summary = f"from {name} ({len(source):,} bytes)"
        await audit.record(conn, actor, "ai.generation_started", str(job_id), summary)
    wake(app)
    return job_id


async def start_translation(
    app: web.Application, actor: audit.Actor, admin_id: int, course_id: uuid.UUID, language: str
) -> uuid.UUID:
    """A translation job, with its audit event (on the course)."""
    async with app[POOL].acquire() as conn, conn.transaction():
        job_id = await store.add_translation_job(conn, admin_id, course_id, language)
        summary = f"language {language}, job {job_id}"
        await audit.record(conn, actor, "ai.translation_started", str(course_id), summary)
    wake(app)
    return job_id


async def find(pool: asyncpg.Pool, job_id: uuid.UUID) -> asyncpg.Record | None:
    """The job with its course title and admin name, or None."""
    return await store.job(pool, job_id)


async def recent(pool: asyncpg.Pool, limit: int) -> list[asyncpg.Record]:
    """The newest jobs first."""
    return await store.recent_jobs(pool, limit)


async def fail(pool: asyncpg.Pool, job_id: uuid.UUID, reason: str, **extra) -> None:
    kind = await store.finish_job(pool, job_id, "failed", reason)
    if kind is not None:
        log.error(FAILED[kind], job_id=str(job_id), reason=reason, **extra)


async def run(pool: asyncpg.Pool, provider: Provider, job: asyncpg.Record) -> None:
    """Run a claimed job to its end: succeeded with its result stored, or failed."""
    job_id = job["job_id"]
    try:
        async with asyncio.timeout(TIMEOUT.total_seconds()):
            if job["kind"] == "generation":
                await _generate(pool, provider, job)
            else:
                await _translate(pool, provider, job)
    except TimeoutError:
        await fail(pool, job_id, TIMED_OUT)
    except (
        ProviderError,
        sources.SourceError,
        documents.DocumentRefused,
        JobFailed,
        courses.TranslationMismatch,
        courses.CourseNotFound,
    ) as exc:
        await fail(pool, job_id, _reason(exc))
    except Exception as exc:
        # The one error line carries the traceback: still a single line to watch for.
        await fail(pool, job_id, f"unexpected error ({type(exc).__name__})", exc_info=True)


def _reason(exc: Exception) -> str:
    if isinstance(exc, documents.DocumentRefused):
        return f"the AI's course does not follow the course document: {exc}"
    if isinstance(exc, courses.TranslationMismatch):
        return f"the AI's translation does not follow the course: {exc}"
    if isinstance(exc, courses.CourseNotFound):
        return "the course no longer exists"
    return str(exc)


async def _generate(pool: asyncpg.Pool, provider: Provider, job: asyncpg.Record) -> None:
    kind = sources.kind_of(job["source_name"], sources.SOURCE_KINDS)
    if kind is None:
        raise JobFailed("the file is not a PDF, a SCORM package (.zip), .txt or .md")
    chunks = await store.job_source(pool, job["job_id"])
    text = await extraction.text_of(kind, b"".join(chunks), extraction.COURSE_SOURCE)
    parts = await asyncio.to_thread(documents.parts, text)
    document = await documents.generate_course(provider, parts)
    async with pool.acquire() as conn, conn.transaction():
        if not await store.lock_running_job(conn, job["job_id"]):
            return  # the sweep failed it meanwhile (and logged it)
        course_id = await courses.save_course(conn, document)
        await store.finish_job(conn, job["job_id"], "succeeded", course_id=course_id)


async def _translate(pool: asyncpg.Pool, provider: Provider, job: asyncpg.Record) -> None:
    # asyncpg's own UUID type does not go into the JSON of the translation's record.
    if job["course_id"] is None:  # deleted since the job was started
        raise courses.CourseNotFound("")
    course_id = uuid.UUID(str(job["course_id"]))
    async with pool.acquire() as conn:
        course = await courses.read_course(conn, course_id)
    if course is None:
        raise courses.CourseNotFound(str(course_id))
    if not course.has_content:
        raise JobFailed("the course has no lessons to translate")
    translation = await documents.translate_course(provider, course.document(), job["language"])
    async with pool.acquire() as conn, conn.transaction():
        if not await store.lock_running_job(conn, job["job_id"]):
            return
        await courses.save_translation(conn, course_id, job["language"], translation)
        await store.finish_job(conn, job["job_id"], "succeeded")


async def sweep(pool: asyncpg.Pool) -> None:
    for row in await store.sweep_jobs(pool, TIMEOUT):
        log.error(FAILED[row["kind"]], job_id=str(row["job_id"]), reason=TIMED_OUT)


async def _claiming(app: web.Application, event: asyncio.Event) -> None:
    worker = f"{socket.gethostname()}:{os.getpid()}"
    slots = asyncio.Semaphore(JOBS_AT_ONCE)
    running: set[asyncio.Task] = set()

    async def run_one(job):
        try:
            await run(app[POOL], app[PROVIDER], job)
        finally:
            slots.release()

    while True:
        await slots.acquire()
        try:
            job = await store.claim_job(app[POOL], worker)
        except Exception:
            log.warning("AI jobs could not be claimed", exc_info=True)
            job = None
        if job is None:
            slots.release()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), POLL_EVERY)
            event.clear()
            continue
        task = asyncio.create_task(run_one(job))
        running.add(task)
        task.add_done_callback(running.discard)


async def _sweeping(app: web.Application) -> None:
    while True:
        try:
            await sweep(app[POOL])
        except Exception:
            log.warning("AI jobs could not be swept", exc_info=True)
        await asyncio.sleep(SWEEP_EVERY)


def setup(app: web.Application) -> None:
    """Run AI jobs in this process (`serve` calls it, as it starts the schedules). Without a
    configured provider no job can run: they fail when the sweep finds them."""

    async def runner(app: web.Application):
        tasks = [asyncio.create_task(_sweeping(app))]
        if app[PROVIDER] is not None:
            app[WAKE] = event = asyncio.Event()
            tasks.append(asyncio.create_task(_claiming(app, event)))
        yield
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    app.cleanup_ctx.append(runner)
