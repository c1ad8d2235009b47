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
    # The answer's HTTP status; None when there was none (timeout, refused connection).
    status: int | None
    # At most 1 kB of the answer's body, or why there was no answer.
    answer: str


async def claim(
    pool: asyncpg.Pool, per_endpoint: int, lease_seconds: float
) -> list[asyncpg.Record]:
    """Due deliveries for this process to send, at most `per_endpoint` in flight for each
    endpoint across every process."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_claims)
        return await conn.fetch(SQL.claim_deliveries, per_endpoint, lease_seconds)


async def record(
    pool: asyncpg.Pool, attempts: Sequence[Attempt], schedule: Sequence[float]
) -> None:
    await pool.execute(
        SQL.record_attempts,
        [a.endpoint_id for a in attempts],
        [a.status for a in attempts],
        [a.answer for a in attempts],
        list(schedule),
        [a.delivery_id for a in attempts],
    )
