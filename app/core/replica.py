"""The heavy reads that tolerate a few seconds of lag (the checks stream, the completions feed,
the CSV exports) go to DATABASE_REPLICA_URL, a streaming read replica, when one is set
(docs/scale.md#read-replica). A replica that cannot be reached costs those reads at most a second:
they fall back to the primary, and the replica is tried again a few seconds later. The fallback is
logged once a minute, not once a request."""

from __future__ import annotations

import contextlib
import time

import asyncpg
import structlog

from app.core import database, sql

log = structlog.get_logger("database")

# A replica that does not give a connection within this long counts as down.
REPLICA_WAIT = 1.0
# After a failure the replica is left alone this long: requests go straight to the primary.
RETRY_AFTER = 5.0
LOG_EVERY = 60.0

SQL = sql.load("core", "replica_alive")


class ReplicaReads:
    """Quacks like the pool for the reads that may lag: `acquire()` gives a replica connection,
    or a primary one while the replica is down."""

    def __init__(self, primary: asyncpg.Pool, replica: asyncpg.Pool, where: str):
        self.primary = primary
        self.replica = replica
        self.where = where
        self._retry_at = 0.0
        self._logged_at = -LOG_EVERY

    async def _replica_connection(self) -> asyncpg.Connection | None:
        if time.monotonic() < self._retry_at:
            return None
        conn = None
        try:
            conn = await self.replica.acquire(timeout=REPLICA_WAIT)
            # A pooled connection may have lost its server without a word: ask first.
            await conn.fetchval(SQL.replica_alive, timeout=REPLICA_WAIT)
            return conn
        except database.UNAVAILABLE as exc:
            if conn is not None:
                await self.replica.release(conn)
            self._down(exc)
            return None

    def _down(self, exc: BaseException) -> None:
        now = time.monotonic()
        self._retry_at = now + RETRY_AFTER
        if now - self._logged_at >= LOG_EVERY:
            self._logged_at = now
            log.warning(
                "replica unavailable, reading from the primary",
                replica=self.where,
                error=f"{type(exc).__name__}: {exc}",
            )

    @contextlib.asynccontextmanager
    async def acquire(self, *, timeout: float | None = None):
        conn = await self._replica_connection()
        if conn is None:
            async with self.primary.acquire(timeout=timeout) as conn:
                yield conn
            return
        try:
            yield conn
        finally:
            await self.replica.release(conn)

    async def close(self) -> None:
        await self.replica.close()
