"""Runs the jobs of `jobs.JOBS` on their schedules inside the web process's event loop.

Several web processes and instances may serve one database. A run first claims its row in
`job_runs`: at most one unfinished run a job (a process that cannot claim skips and logs
that), and one run a scheduled minute, so a process whose clock fires a little later does not
run the job a second time. The claim is a row, not a lock, so it holds through a transaction
pooler (docs/scale.md#jobs).
Every run (scheduled, `run-job`, the panel's Run now) is a `job_runs` row with its outcome and
result line, which the panel's jobs page lists.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta

import aiocron
import structlog
from aiohttp import web

from app.core import audit, database, sql
from app.core.keys import DATABASE_URL, POOL, SETTINGS
from app.core.metrics import JOB_RUNS
from jobs import JOBS
from jobs.job import Job, JobContext, JobFailed

log = structlog.get_logger("jobs")

SQL = sql.load("jobs", "abandon_stale_run", "claim_slot", "job_running", "heartbeat", "finish_run")

# A running run refreshes its heartbeat this often; one whose heartbeat is older than
# ABANDONED_AFTER has lost its process (killed mid-run) and no longer blocks the job.
HEARTBEAT_SECONDS = 20
ABANDONED_AFTER = timedelta(minutes=2)


class JobLocked(Exception):
    """Another process runs the job now, or already ran it for this slot."""


async def _claim(
    job: Job, pool, slot: datetime | None, started_by: int | None, actor: audit.Actor | None
) -> int:
    """The run_id of a new run of `job`: a row in job_runs, which holds across instances and
    through a transaction pooler (a session's advisory lock would not). A run a person started
    (`actor`) has its audit event written with its claim."""
    abandoned = await pool.fetchval(SQL.abandon_stale_run, job.name, ABANDONED_AFTER)
    if abandoned is not None:
        log.warning("job run abandoned", job=job.name, run_id=abandoned)
    async with pool.acquire() as conn, conn.transaction():
        run_id = await conn.fetchval(SQL.claim_slot, job.name, slot, started_by)
        if run_id is not None and actor is not None:
            await audit.record(conn, actor, "job.run", job.name, f"run {run_id}")
    if run_id is not None:
        return run_id
    if slot is None or await pool.fetchval(SQL.job_running, job.name):
        raise JobLocked(f"job {job.name} is already running in another process")
    raise JobLocked(f"job {job.name} already ran for {slot.isoformat()}")


async def _beat(pool, run_id: int) -> None:
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        with contextlib.suppress(*database.UNAVAILABLE):
            await pool.execute(SQL.heartbeat, run_id)


async def run_locked(
    job: Job,
    context: JobContext,
    slot: datetime | None = None,
    started_by: int | None = None,
    actor: audit.Actor | None = None,
) -> str | None:
    """Run `job` unless a run of it is unfinished; with a `slot`, only if no process ran that
    slot. Returns the run's result line; `started_by` is the admin who pressed Run now, `actor`
    whoever started it by hand (the panel's admin, or the command line), for the audit log."""
    outcome = "failed"
    try:
        result = await _run_claimed(job, context, slot, started_by, actor)
    except JobLocked:
        outcome = "skipped"
        raise
    else:
        outcome = "succeeded"
        return result
    finally:
        JOB_RUNS.labels(job.name, outcome).inc()


async def _run_claimed(
    job: Job,
    context: JobContext,
    slot: datetime | None,
    started_by: int | None,
    actor: audit.Actor | None,
) -> str:
    pool = context.pool
    run_id = await _claim(job, pool, slot, started_by, actor)
    heartbeat = asyncio.create_task(_beat(pool, run_id))
    try:
        result = await job.run(context)
    except JobFailed as exc:
        await pool.execute(SQL.finish_run, run_id, "failed", str(exc))
        raise
    except Exception as exc:
        await pool.execute(
            SQL.finish_run,
            run_id,
            "failed",
            f"{job.name}: unexpected {type(exc).__name__}, see the log",
        )
        raise
    finally:
        heartbeat.cancel()
    await pool.execute(SQL.finish_run, run_id, "succeeded", result)
    return result


async def scheduled_run(job: Job, app: web.Application) -> None:
    context = JobContext(settings=app[SETTINGS], pool=app[POOL], database_url=app[DATABASE_URL])
    slot = datetime.now(UTC).replace(second=0, microsecond=0)
    try:
        await run_locked(job, context, slot)
    except JobLocked as exc:
        log.info("job skipped", job=job.name, reason=str(exc))
    except JobFailed as exc:
        # The operator's line says it all; a traceback would only bury it.
        log.error("job failed", job=job.name, error=str(exc))
    except Exception:
        log.exception("job failed", job=job.name)


def setup(app: web.Application) -> None:
    async def crons(app: web.Application):
        started = [
            aiocron.crontab(
                job.schedule, func=scheduled_run, args=(job, app), start=True, tz=job.tz
            )
            for job in JOBS.values()
        ]
        yield
        for cron in started:
            cron.stop()

    app.cleanup_ctx.append(crons)
