"""Send messages to riders and record every one of them in `messages`, set-based."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import asyncpg

from app.core import sql
from app.core.metrics import MESSAGES
from app.messaging.links import signature_removed
from app.messaging.provider import Delivery, Messenger

SQL = sql.load("messaging", "record_messages")

Kind = Literal["reminder", "flag", "pin_reset", "admin"]

# Sends in flight at once: with the provider's usual few hundred milliseconds a request, 10
# keep close to the Messenger's rate of 50 a second without piling up requests when it slows.
SEND_CONCURRENCY = 10


@dataclass(frozen=True)
class Draft:
    rider_id: str
    phone: str | None
    body: str
    link: str | None


async def deliver(
    messenger: Messenger, drafts: Sequence[Draft], concurrency: int = SEND_CONCURRENCY
) -> list[Delivery]:
    """Send every draft, at most `concurrency` at a time; deliveries in the drafts' order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(draft: Draft) -> Delivery:
        async with gate:
            return await messenger.send_text(draft.phone, draft.body)

    return await asyncio.gather(*(one(draft) for draft in drafts))


async def record(
    db: asyncpg.Pool | asyncpg.Connection,
    kind: Kind,
    drafts: Sequence[Draft],
    deliveries: Sequence[Delivery],
) -> None:
    await db.execute(
        SQL.record_messages,
        [d.rider_id for d in drafts],
        kind,
        # Without their signatures: a leaked table or backup must sign no one in.
        [signature_removed(d.body) for d in drafts],
        [signature_removed(d.link) for d in drafts],
        [d.status for d in deliveries],
        [d.provider_message_id for d in deliveries],
        [d.error for d in deliveries],
    )
    for status, count in Counter(d.status for d in deliveries).items():
        MESSAGES.labels(status).inc(count)
