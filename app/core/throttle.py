"""Sign-in throttling (DESIGN §7): 5 failed attempts per subject in any 15 minutes, counted in
PostgreSQL so that it holds across processes. Only failures are recorded."""

from __future__ import annotations

import asyncpg

from app.core import sql

SQL = sql.load("web", "throttle_wait", "record_failure")


class TooManyAttempts(Exception):
    def __init__(self, minutes: int):
        super().__init__(f"Too many sign-in attempts. Try again in {minutes} minutes.")
        self.minutes = minutes


async def check(pool: asyncpg.Pool, kind: str, subject: str) -> None:
    """Raises TooManyAttempts while the subject is throttled."""
    minutes = await pool.fetchval(SQL.throttle_wait, kind, subject)
    if minutes is not None:
        raise TooManyAttempts(minutes)


async def record_failure(pool: asyncpg.Pool, kind: str, subject: str) -> None:
    await pool.execute(SQL.record_failure, kind, subject)
