"""The flags endpoint's notification step (`POST /api/v1/flags` with `notify`, docs/messaging.md).

`notify_flag` is the one seam between the flags endpoint and messaging: it is called after
the flag's paths were assigned, outside the flag's transaction, and answers the
`notification` value of the response. The message is recorded whatever happens to it, and a
failed send is an answer (`failed`), never an error of the API call.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from uuid import UUID

import asyncpg
import structlog

from app.core import audit, sql
from app.core.config import Settings
from app.messaging.links import one_tap_link
from app.messaging.outbox import Draft, record
from app.messaging.provider import Messenger, Status
from app.messaging.texts import due_text, flag_text

log = structlog.get_logger("messaging.notifications")

SQL = sql.load("messaging", "flag_notification")

# The API client waits for this send: a shorter budget than a reminders run (at most
# 2 attempts of 5 s with 1 s between them), so a provider outage delays a flag by ~11 s.
IN_REQUEST = {"timeout": 5.0, "attempts": 2, "backoff": (1.0,)}


async def notify_flag(
    pool: asyncpg.Pool,
    settings: Settings,
    rider_id: str,
    path_ids: Sequence[UUID],
    *,
    notify: bool,
    actor: audit.Actor | None = None,
) -> Status | None:
    """Send the rider a one-tap link to the paths a flag assigned; None when nothing to tell.

    `sent` when the provider accepted the message, `failed` when it returned an error (or
    could not be reached), `logged` when messaging is not connected or the rider has no phone.
    An `actor` (an admin who asked for it) gets the message's audit event, written with it.
    """
    if not notify or not path_ids:
        return None
    now = datetime.now(UTC)
    rows = await pool.fetch(SQL.flag_notification, rider_id, list(path_ids))
    lines = [due_text(r["path"], r["deadline"], now, r["completed"]) for r in rows]
    link = one_tap_link(settings, rider_id, now)
    draft = Draft(rider_id, rows[0]["phone"], flag_text(rows[0]["name"], lines, link), link)
    async with Messenger(settings, **IN_REQUEST) as messenger:
        delivery = await messenger.send_text(draft.phone, draft.body)
    async with pool.acquire() as conn, conn.transaction():
        await record(conn, "flag", [draft], [delivery])
        if actor is not None:
            summary = f"flag notification, {delivery.status}"
            await audit.record(conn, actor, "message.sent", rider_id, summary)
    log.info("flag notification", rider_id=rider_id, status=delivery.status, error=delivery.error)
    return delivery.status
