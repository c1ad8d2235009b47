"""Arranging webhook endpoints and reading the events written for them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from app.webhooks.events import EVENT_TYPES

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


async def add_endpoint(
    db,
    url: str = "https://receiver.example/hooks",
    events: Sequence[str] = EVENT_TYPES,
    *,
    enabled: bool = True,
) -> uuid.UUID:
    return await db.fetchval(
        "INSERT INTO webhook_endpoints (url, events, secret, enabled) VALUES ($1, $2, $3, $4)"
        " RETURNING endpoint_id",
        url,
        list(events),
        SECRET,
        enabled,
    )


async def events(db, endpoint_id: uuid.UUID | None = None) -> list[tuple[str, dict]]:
    """(type, data) of every event written (for one endpoint), in the order written."""
    rows = await db.fetch(
        "SELECT event_type, webhook_event_data(event_type, data, rider_id, path_id, deadline,"
        " completed_at, why) AS data FROM webhook_deliveries"
        " WHERE $1::uuid IS NULL OR endpoint_id = $1 ORDER BY delivery_id",
        endpoint_id,
    )
    return [(row["event_type"], row["data"]) for row in rows]
