"""Sign-in limits (DESIGN §7; the rules and why in docs/security.md), counted in PostgreSQL so
that they hold across processes and instances.

An attempt is admitted (its secret may be checked) only once it is recorded, and admissions of
a kind take turns under a transaction's advisory lock: each sees the rows of those before it,
so N parallel attempts get at most the allowance checked, at any concurrency. The row is the
failure; a right secret removes it (`forget`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
from dataclasses import dataclass

import asyncpg
import structlog
from aiohttp import web

from app.core import sql
from app.core.keys import SETTINGS
from app.core.logs import Sampled
from app.core.metrics import SIGN_IN_FAILURES

SQL = sql.load(
    "web", "lock_sign_in_attempts", "sign_in_standing", "record_attempt", "forget_attempt"
)

log = structlog.get_logger("app.throttle")

# At the ceiling an attempt waits at most this long for the minute's count to drop, then is
# refused: everyone is slowed, no one account is locked.
SLOWDOWN_SECONDS = 5.0
CEILING_LOG = Sampled(log, "sign-in ceiling reached", level="warning", interval=60.0)


@dataclass(frozen=True)
class Limits:
    kind: str
    # Attempts in any 15 minutes: on one subject (spec, Limits), and from one address over
    # every subject of the kind.
    per_subject: int
    per_address: int
    # Attempts of the kind in any minute, from everyone: past it every attempt is slowed.
    per_minute: int | None = None


def sign_in_limits(kind: str) -> Limits:
    """The admin's and the rider's sign-in: 5 attempts per subject (spec, Limits); 20 per
    address, since riders share addresses (a depot's Wi-Fi, a mobile carrier's NAT); 30
    failures a minute over the whole service, far above its honest rate."""
    return Limits(kind, per_subject=5, per_address=20, per_minute=30)


# The throttled kinds that are sign-ins, each the `area` of `sign_in_failures_total` (another
# kind, such as the proof checks' "verify", is throttled but is no sign-in).
SIGN_IN_AREAS = frozenset(("admin", "rider"))


class TooManyAttempts(Exception):
    def __init__(self, minutes: int):
        super().__init__(f"Too many sign-in attempts. Try again in {minutes} minutes.")
        self.minutes = minutes


@dataclass(frozen=True)
class Standing:
    """Seconds until each limit frees (sign_in_standing.sql); None: not reached."""

    subject: float | None
    address_on_subject: float | None
    address: float | None
    ceiling: float | None


def held_back_for(standing: Standing) -> float | None:
    """Seconds until the attempt may be checked, the ceiling aside; None: it may be now.

    A subject past its limit holds back only the addresses that failed on it themselves, so
    nobody locks a rider or an admin out from elsewhere; the per-address limit bounds what
    each address tries over all subjects."""
    waits = []
    if standing.address is not None:
        waits.append(standing.address)
    if standing.subject is not None and standing.address_on_subject is not None:
        waits.append(min(standing.subject, standing.address_on_subject))
    return max(waits, default=None)


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def client_address(request: web.Request) -> str:
    """The client's address: the TCP peer's, or behind TRUSTED_PROXY_HOPS proxies that each
    append the address they saw to X-Forwarded-For, the one the outermost of them saw. Entries
    further left are the client's own say and could be forged; a header with fewer entries
    than hops did not come through those proxies, and an entry that is no IP address was not
    written by one, so the peer's address counts then."""
    hops = request.app[SETTINGS].trusted_proxy_hops
    forwarded = ",".join(request.headers.getall("X-Forwarded-For", ())).split(",")
    if hops and len(forwarded) >= hops:
        try:
            return str(ipaddress.ip_address(forwarded[-hops].strip()))
        except ValueError:
            pass
    return request.remote or "unknown"


async def _try_admit(pool: asyncpg.Pool, limits: Limits, subject: str, address: str):
    """The new attempt's id, or the standing that kept it out at the ceiling."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_sign_in_attempts, limits.kind)
        row = await conn.fetchrow(
            SQL.sign_in_standing,
            limits.kind,
            subject,
            address,
            limits.per_subject,
            limits.per_address,
            limits.per_minute,
        )
        standing = Standing(**row)
        if (wait := held_back_for(standing)) is not None:
            raise TooManyAttempts(_minutes(wait))
        if standing.ceiling is not None:
            return standing
        return await conn.fetchval(SQL.record_attempt, limits.kind, subject, address)


async def admit(pool: asyncpg.Pool, limits: Limits, subject: str, address: str) -> int:
    """Records an attempt on `subject` from `address` before its secret is checked, and returns
    its id (for `forget` when the secret is right); raises TooManyAttempts past a limit. At
    the ceiling it waits once for the minute's count to drop, then is refused."""
    admitted = await _try_admit(pool, limits, subject, address)
    if isinstance(admitted, int):
        return admitted
    CEILING_LOG(limits.kind, kind=limits.kind, per_minute=limits.per_minute)
    await asyncio.sleep(min(admitted.ceiling, SLOWDOWN_SECONDS))
    admitted = await _try_admit(pool, limits, subject, address)
    if isinstance(admitted, int):
        return admitted
    raise TooManyAttempts(_minutes(admitted.ceiling))


async def forget(pool: asyncpg.Pool, attempt_id: int) -> None:
    """The attempt's secret was right: it is no failure."""
    await pool.execute(SQL.forget_attempt, attempt_id)


def failed(limits: Limits) -> None:
    """The attempt's secret was wrong (it stays counted): a sign-in counts in the metrics."""
    if limits.kind in SIGN_IN_AREAS:
        SIGN_IN_FAILURES.labels(limits.kind).inc()
