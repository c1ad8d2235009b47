"""Weekly restore drill: the latest archive restored into a scratch database, its row counts
compared with those recorded at backup time, the scratch database dropped. A backup is only as
good as its last restore; the outcome is a job run (the panel's jobs page) and a metric an
alert watches (docs/jobs.md#restore-drill)."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit, urlunsplit

import structlog

from app.core import database, sql
from app.core.database_url import DatabaseUnavailable
from jobs.job import Job, JobContext, JobFailed
from jobs.restore import LATEST, restore

log = structlog.get_logger("jobs.restore_drill")

SQL = sql.load("jobs", "scratch_database")

SCRATCH_PREFIX = "rider_ops_restore_drill_"


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))


async def _drill(context: JobContext) -> str:
    # A name of our own (no user value); one run at a time (the job's claimed run).
    name = SCRATCH_PREFIX + datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    async with database.connect(context.database_url) as conn:
        statements = await conn.fetchrow(SQL.scratch_database, name)
        await conn.execute(statements["create_statement"])
    scratch_url = _with_database(context.database_url, name)
    try:
        restored = await restore(context.settings, LATEST, scratch_url)
    finally:
        async with database.connect(context.database_url) as conn:
            await conn.execute(statements["drop_statement"])
    if restored.recorded is None:
        raise JobFailed(f"{restored.archive} has no manifest: no row counts to compare with")
    differences = restored.differences()
    if differences:
        raise JobFailed(f"{restored.archive}: " + "; ".join(differences[:5]))
    rows = sum(restored.tables.values())
    log.info(
        "restore drill passed",
        archive=restored.archive,
        source=restored.source,
        tables=len(restored.tables),
        rows=rows,
    )
    return (
        f"{restored.archive} from {restored.source} restored: {len(restored.tables)} tables,"
        f" {rows} rows, as at backup time"
    )


async def restore_drill(context: JobContext) -> str:
    try:
        return await _drill(context)
    except (JobFailed, DatabaseUnavailable) as exc:
        raise JobFailed(f"restore drill failed: {exc}") from None


# Sundays at 04:00 UTC, after the night's backup.
JOB = Job(name="restore-drill", schedule="0 4 * * 0", run=restore_drill, tz=UTC)
