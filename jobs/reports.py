"""Recounts the summaries the reports read (app/admin/reports.py), every 10 minutes: a page
then reads a few thousand rows instead of every assignment and completion."""

from __future__ import annotations

from app.admin import reports
from jobs.registry import JOBS, Job, JobContext


async def refresh_reports(context: JobContext) -> str:
    async with context.pool.acquire() as conn:
        counted = await reports.refresh(conn)
    return f"reports recounted as of {counted:%Y-%m-%d %H:%M:%S} UTC"


JOBS["reports"] = Job(
    name="reports", schedule=f"*/{reports.REFRESH_MINUTES} * * * *", run=refresh_reports
)
