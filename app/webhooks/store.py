"""The delivery engine's SQL: claiming due deliveries and recording their attempts."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from app.core import sql

SQL = sql.load("webhooks", "lock_claims", "claim_deliveries", "record_attempts")


@dataclass(frozen=True)
class Attempt:
    endpoint_id: uuid.UUID
    delivery_id: int
    # The answer's HTTP status; None when there was none.
    status: int | None
    # Why there was no answer (a failed connection, a timeout, an address refused); None with
    # a status: the answer's body is never kept (docs/webhooks.md#addresses).
    why: str | None


async def turn(
    pool: asyncpg.Pool,
    finished: Sequence[Attempt],
    schedule: Sequence[float],
    per_endpoint: int,
    lease_seconds: float,
) -> list[asyncpg.Record]:
    """Record the finished attempts (retried on `schedule`), then claim the due deliveries
    for this process to send, at most `per_endpoint` in flight for each endpoint across every
    process; one transaction."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_claims)
        if finished:
            await conn.execute(
                SQL.record_attempts,
                [a.endpoint_id for a in finished],
                [a.status for a in finished],
                [a.why for a in finished],
                list(schedule),
                [a.delivery_id for a in finished],
            )
        return await conn.fetch(SQL.claim_deliveries, per_endpoint, lease_seconds)
