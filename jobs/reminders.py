"""Daily reminders to riders with unfinished training (docs/jobs.md#reminders).

One run takes the 5,000 open assignments with the oldest deadlines (overdue ones first) of
riders who are not inactive, and sends each of those riders one message that lists them with a
one-tap link. A rider without a phone, or every rider while messaging is not connected, gets a
`logged` message for the training team instead. Every message is recorded in `messages`.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import structlog

from app.core import sql
from app.messaging.links import one_tap_link
from app.messaging.outbox import Draft, deliver, record
from app.messaging.provider import Messenger
from app.messaging.texts import due_text, reminder_text
from jobs.job import Job, JobContext, JobFailed

log = structlog.get_logger("jobs.reminders")

SQL = sql.load("jobs", "reminder_riders")

ASSIGNMENTS_PER_RUN = 5000
# Messages are recorded after each batch, so a stopped run keeps the record of what it sent.
BATCH = 500


def drafts(rows, settings, now: datetime) -> list[Draft]:
    result = []
    for row in rows:
        link = one_tap_link(settings, row["rider_id"], now)
        lines = [
            due_text(path, deadline, now)
            for path, deadline in zip(row["paths"], row["deadlines"], strict=True)
        ]
        body = reminder_text(row["name"], lines, link)
        result.append(Draft(row["rider_id"], row["phone"], body, link))
    return result


async def remind(context: JobContext) -> str:
    now = datetime.now(UTC)
    if not context.settings.session_secret_ok:
        # `run-job` is its own process: the operator sees why the messages carry no link.
        log.error("SESSION_SECRET must be set", consequence="reminders carry no one-tap link")
    rows = await context.pool.fetch(SQL.reminder_riders, ASSIGNMENTS_PER_RUN)
    messages = drafts(rows, context.settings, now)
    outcomes: Counter[str] = Counter()
    first_error = None
    async with Messenger(context.settings) as messenger:
        for start in range(0, len(messages), BATCH):
            batch = messages[start : start + BATCH]
            deliveries = await deliver(messenger, batch)
            await record(context.pool, "reminder", batch, deliveries)
            outcomes.update(d.status for d in deliveries)
            first_error = first_error or next((d.error for d in deliveries if d.error), None)
    assignments = sum(len(row["paths"]) for row in rows)
    log.info(
        "reminders sent",
        riders_reminded=len(messages),
        delivered_by_messaging=outcomes["sent"],
        failed=outcomes["failed"],
        logged=outcomes["logged"],
        assignments=assignments,
    )
    if outcomes["failed"] and not outcomes["sent"]:
        raise JobFailed(
            f"reminders: all {outcomes['failed']} messaging sends failed, e.g. {first_error}"
        )
    return (
        f"{len(messages)} riders reminded of {assignments} assignments: {outcomes['sent']} "
        f"sent, {outcomes['failed']} failed, {outcomes['logged']} logged"
    )


JOB = Job(name="reminders", schedule="0 9 * * *", run=remind)
