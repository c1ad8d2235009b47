"""Runs the registered jobs on their schedules inside the web process's event loop.

Several web processes may serve one database. A run first takes the job's PostgreSQL advisory
lock (a process that cannot get it skips and logs that), then claims the scheduled minute in
`job_runs`, so a process whose clock fires a little later does not run the job a second time.
Every run (scheduled, `run-job`, the panel's Run now) is a `job_runs` row with its outcome and
result line, which the panel's jobs page lists.
"""

from __future__ import annotations

from datetime import UTC, datetime

import aiocron
import structlog
from aiohttp import web

from app.core import sql
from app.core.keys import DATABASE_URL, POOL, SETTINGS
from app.core.metrics import JOB_RUNS
from jobs.registry import JOBS, Job, JobContext, JobFailed

log = structlog.get_logger("jobs")

SQL = sql.load("jobs", "try_lock", "unlock", "claim_slot", "finish_run")


class JobLocked(Exception):
    """Another process runs the job now, or already ran it for this slot."""


async def run_locked(
    job: Job, context: JobContext, slot: datetime | None = None, started_by: int | None = None
) -> str | None:
    """Run `job` under its advisory lock; with a `slot`, only if no process ran that slot.
    Returns the run's result line; `started_by` is the admin who pressed Run now."""
    outcome = "failed"
    try:
        result = await _run_locked(job, context, slot, started_by)
    except JobLocked:
        outcome = "skipped"
        raise
    else:
        outcome = "succeeded"
        return result
    finally:
        JOB_RUNS.labels(job.name, outcome).inc()


async def _run_locked(
    job: Job, context: JobContext, slot: datetime | None, started_by: int | None
) -> str | None:
    async with context.pool.acquire() as conn:
        if not await conn.fetchval(SQL.try_lock, job.lock_id):
            raise JobLocked(f"job {job.name} is already running in another process")
        try:
            run_id = await conn.fetchval(SQL.claim_slot, job.name, slot, started_by)
            if run_id is None:
                raise JobLocked(f"job {job.name} already ran for {slot.isoformat()}")
            try:
                result = await job.run(context)
            except JobFailed as exc:
                await conn.execute(SQL.finish_run, run_id, "failed", str(exc))
                raise
            except Exception as exc:
                await conn.execute(
                    SQL.finish_run,
                    run_id,
                    "failed",
                    f"{job.name}: unexpected {type(exc).__name__}, see the log",
                )
                raise
            await conn.execute(SQL.finish_run, run_id, "succeeded", result)
            return result
        finally:
            await conn.fetchval(SQL.unlock, job.lock_id)


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
            aiocron.crontab(job.schedule, func=scheduled_run, args=(job, app), start=True)
            for job in JOBS.values()
        ]
        yield
        for cron in started:
            cron.stop()

    app.cleanup_ctx.append(crons)
