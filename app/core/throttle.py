"""Sign-in throttling (DESIGN §7): 5 failed attempts per subject in any 15 minutes, counted in
PostgreSQL so that it holds across processes. Only failures are recorded."""

from __future__ import annotations

import asyncpg
from aiohttp import web

from app.core import sql
from app.core.keys import SETTINGS
from app.core.metrics import SIGN_IN_FAILURES

SQL = sql.load("web", "throttle_wait", "record_failure")

# The throttled kinds that are sign-ins, each the `area` of `sign_in_failures_total` (another
# kind, such as the proof checks' "verify", is throttled but is no sign-in).
SIGN_IN_AREAS = frozenset(("admin", "rider"))


class TooManyAttempts(Exception):
    def __init__(self, minutes: int):
        super().__init__(f"Too many sign-in attempts. Try again in {minutes} minutes.")
        self.minutes = minutes


def client_address(request: web.Request) -> str:
    """The client's address: the TCP peer's, or behind TRUSTED_PROXY_HOPS proxies that each
    append the address they saw to X-Forwarded-For, the one the outermost of them saw. Entries
    further left are the client's own say and could be forged; a header with fewer entries
    than hops did not come through those proxies, so the peer's address counts."""
    hops = request.app[SETTINGS].trusted_proxy_hops
    forwarded = ",".join(request.headers.getall("X-Forwarded-For", ())).split(",")
    if hops and len(forwarded) >= hops and forwarded[-hops].strip():
        return forwarded[-hops].strip()
    return request.remote or "unknown"


async def check(pool: asyncpg.Pool, kind: str, subject: str) -> None:
    """Raises TooManyAttempts while the subject is throttled."""
    minutes = await pool.fetchval(SQL.throttle_wait, kind, subject)
    if minutes is not None:
        raise TooManyAttempts(minutes)


async def record_failure(pool: asyncpg.Pool, kind: str, subject: str) -> None:
    await pool.execute(SQL.record_failure, kind, subject)
    if kind in SIGN_IN_AREAS:
        SIGN_IN_FAILURES.labels(kind).inc()
