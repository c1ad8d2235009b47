"""Recounts the summaries the reports read (app/admin/reports.py), every REFRESH_MINUTES: a
page then reads a few thousand rows instead of every assignment and completion."""

from __future__ import annotations

from jobs.job import Job, JobContext

# The pages say how old their figures may be from this.
REFRESH_MINUTES = 10


async def refresh_reports(context: JobContext) -> str:
    # Imported here: the panel's package imports `jobs` (its Jobs page), so importing it while
    # `jobs` imports its modules would be circular.
    from app.admin import reports

    async with context.pool.acquire() as conn:
        counted = await reports.refresh(conn)
    return f"reports recounted as of {counted:%Y-%m-%d %H:%M:%S} UTC"


JOB = Job(name="reports", schedule=f"*/{REFRESH_MINUTES} * * * *", run=refresh_reports)
