"""Daily removal of what the service keeps only for a while (sessions, throttling counts,
rider-import rejects, Idempotency-Keys, the webhook delivery log, the panel's one-time
reveals): their own code removes them lazily, per subject, which leaves the rows of subjects
that never come back. Audit events are kept AUDIT_RETENTION_DAYS, then removed here only."""

from __future__ import annotations

import structlog

from app.core import sql
from jobs.job import Job, JobContext

log = structlog.get_logger("jobs.housekeeping")

SQL = sql.load("jobs", "housekeeping")


async def housekeeping(context: JobContext) -> str:
    retention = context.settings.audit_retention_days
    removed = dict(await context.pool.fetchrow(SQL.housekeeping, retention))
    log.info("housekeeping done", **removed)
    return (
        f"removed {removed['sessions']} expired sessions, {removed['sign_ins']} old failed "
        f"sign-ins, {removed['questions']} old assistant questions, {removed['imports']} old "
        f"rider imports, {removed['idempotency_keys']} expired idempotency keys, "
        f"{removed['webhook_deliveries']} old webhook deliveries, {removed['reveals']} expired "
        f"one-time reveals, {removed['audit_events']} audit events older than {retention} days"
    )


JOB = Job(name="housekeeping", schedule="15 3 * * *", run=housekeeping)
