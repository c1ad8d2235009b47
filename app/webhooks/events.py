"""The event types an endpoint may subscribe to, and writing events made in Python.

The assignment events are written by the triggers on assignments (webhook_assignment_events,
set-based, after each statement that makes or completes assignments); `flag.created` by the
statement that assigns a flag's paths; the few made one at a time in Python come here, always
inside the transaction of their change.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import asyncpg

from app.core import sql

SQL = sql.load("webhooks", "enqueue", "without_assignment_events")

EVENT_TYPES = ("completion.created", "assignment.created", "assignment.completed", "flag.created")
# Sent by "Send test event" to one endpoint, whatever it subscribes to.
TEST_EVENT = "webhook.test"


async def record(conn: asyncpg.Connection, event_type: str, data: Sequence[dict[str, Any]]) -> None:
    """Write these events for every enabled endpoint subscribed to `event_type`."""
    await conn.execute(SQL.enqueue, event_type, list(data), None)


async def without_assignment_events(conn: asyncpg.Connection) -> None:
    """Assignments made or completed in the rest of this transaction write no webhook events
    (load-data's)."""
    await conn.execute(SQL.without_assignment_events)


async def send_test(conn: asyncpg.Connection, endpoint_id: uuid.UUID) -> None:
    await conn.execute(
        SQL.enqueue,
        TEST_EVENT,
        [{"message": "A test event from the Rider Operations Service."}],
        endpoint_id,
    )
