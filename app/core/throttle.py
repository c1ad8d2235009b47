"""Sign-in limits (the rules and why in docs/security.md), counted in PostgreSQL so that they
hold across processes and instances.

An attempt is admitted (its secret may be checked) only once it is recorded, and admissions of
a kind take turns under a transaction's advisory lock: each sees the rows of those before it,
so N parallel attempts get at most the allowance checked, at any concurrency. The row is the
failure; a right secret removes it (`forget`).

An attempt made with a valid device cookie for its account (app/core/devices.py) names its
device and is counted against that device alone, under the device's own lock: the account's
lock, the per-address limit and the ceiling, which guessing from anywhere can reach, count
unknown devices only and never hold a known one back.
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
    "web",
    "lock_sign_in_attempts",
    "sign_in_standing",
    "device_standing",
    "record_attempt",
    "forget_attempt",
)

log = structlog.get_logger("app.throttle")

# At the ceiling an attempt waits at most this long for the minute's count to drop, then is
# refused: everyone is slowed, no one account is locked.
SLOWDOWN_SECONDS = 5.0
CEILING_LOG = Sampled(log, "sign-in ceiling reached", level="warning", interval=60.0)


@dataclass(frozen=True)
class Limits:
    kind: str
    # Attempts of unknown devices in any 15 minutes: on one subject whatever the address, and
    # from one address (an IPv6 address's /64) over every subject of the kind.
    per_subject: int
    per_address: int
    # Attempts of unknown devices of the kind in any minute, from everyone: past it each of
    # them is slowed.
    per_minute: int | None = None
    # Attempts in any 15 minutes with one device cookie (None: the kind has no device cookie).
    per_device: int | None = None


def sign_in_limits(kind: str) -> Limits:
    """The admin's and the rider's sign-in: 5 attempts per account (docs/security.md); 20 per
    address, since riders share addresses (a depot's Wi-Fi, a mobile carrier's NAT); 30
    failures a minute over the whole service, far above its honest rate; 5 per known device,
    as many as the account gives unknown ones."""
    return Limits(kind, per_subject=5, per_address=20, per_minute=30, per_device=5)


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
    address: float | None
    ceiling: float | None


def held_back_for(standing: Standing) -> float | None:
    """Seconds until an unknown device's attempt may be checked, the ceiling aside; None: it
    may be now. The account's lock holds whatever the address, so more addresses give no
    more guesses; the per-address limit bounds what each address tries over all subjects."""
    return max(
        (wait for wait in (standing.subject, standing.address) if wait is not None), default=None
    )


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


def counted_address(address: str) -> str:
    """The address as the per-address limit counts it: an IPv4 address itself, an IPv6
    address's /64 (one subscriber's network: whoever holds an address of it may use any
    other), an IPv4 address written as IPv6 (`::ffff:a.b.c.d`) as that IPv4 address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)


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
        return await conn.fetchval(SQL.record_attempt, limits.kind, subject, address, None)


async def _admit_device(
    pool: asyncpg.Pool, limits: Limits, subject: str, address: str, device: str
) -> int:
    """The new attempt's id; each device takes its own turns, so the guesses of unknown
    devices on the kind never queue ahead of it."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_sign_in_attempts, f"{limits.kind}:{device}")
        wait = await conn.fetchval(SQL.device_standing, limits.kind, device, limits.per_device)
        if wait is not None:
            raise TooManyAttempts(_minutes(wait))
        return await conn.fetchval(SQL.record_attempt, limits.kind, subject, address, device)


async def admit(
    pool: asyncpg.Pool, limits: Limits, subject: str, address: str, device: str | None = None
) -> int:
    """Records an attempt on `subject` from `address` before its secret is checked, and returns
    its id (for `forget` when the secret is right); raises TooManyAttempts past a limit.

    `device` is the nonce of a valid device cookie for the subject's account: then only the
    device's own limit applies. Without one, at the ceiling the attempt waits once for the
    minute's count to drop, then is refused."""
    address = counted_address(address)
    if device is not None and limits.per_device is not None:
        return await _admit_device(pool, limits, subject, address, device)
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
