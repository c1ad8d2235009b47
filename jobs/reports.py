"""Recounts the summaries the reports read (app/admin/reports.py, docs/reports.md,
"Reports"), every REFRESH_MINUTES or when an editor presses Recount now: a page then reads a
few thousand rows instead of every assignment, completion and quiz answer."""

from __future__ import annotations

from datetime import datetime

import asyncpg

from app.core import sql
from jobs.job import Job, JobContext

SQL = sql.load(
    "jobs",
    "refresh_report_assignments",
    "refresh_report_completions",
    "refresh_report_quiz_answers",
    "refresh_report_quiz_options",
    "refresh_report_quiz_attempts",
    "report_refreshed",
)

# The pages say how old their figures may be from this.
REFRESH_MINUTES = 10


async def recount(conn: asyncpg.Connection) -> datetime:
    """Recount every summary the reports read, in one transaction (a page reads either the
    old set or the new one, never a mix); returns when they were counted."""
    async with conn.transaction():
        for statement in (
            SQL.refresh_report_assignments,
            SQL.refresh_report_completions,
            SQL.refresh_report_quiz_answers,
            SQL.refresh_report_quiz_options,
            SQL.refresh_report_quiz_attempts,
        ):
            await conn.execute(statement)
        return await conn.fetchval(SQL.report_refreshed)


async def refresh_reports(context: JobContext) -> str:
    async with context.pool.acquire() as conn:
        counted = await recount(conn)
    return f"reports recounted as of {counted:%Y-%m-%d %H:%M:%S} UTC"


JOB = Job(name="reports", schedule=f"*/{REFRESH_MINUTES} * * * *", run=refresh_reports)
