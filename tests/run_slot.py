"""`python -m tests.run_slot JOB SLOT`: one process firing a job's run for the scheduled minute
SLOT (ISO 8601), as a `serve` instance's schedule does: its settings from the environment, its
own pool. Prints `ran: <result>` or `skipped: <reason>`."""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime

from app.core import database
from app.core.config import Settings
from jobs import JOBS, JobContext
from jobs.scheduler import JobLocked, run_locked


async def main(job: str, slot: datetime) -> None:
    settings = Settings.from_env()
    pool = await database.create_pool(
        settings.database_url, pool_mode=settings.database_pool_mode, min_size=1, max_size=2
    )
    context = JobContext(settings=settings, pool=pool, database_url=settings.database_url)
    try:
        print(f"ran: {await run_locked(JOBS[job], context, slot)}")
    except JobLocked as exc:
        print(f"skipped: {exc}")
    finally:
        await pool.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], datetime.fromisoformat(sys.argv[2])))
