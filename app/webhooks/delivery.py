"""Delivering webhook events (docs/webhooks.md): a loop in each worker process (the one `serve`
starts beside its web processes, or `python -m app worker`).

Each turn the loop records the attempts that finished and claims what is due, in one
transaction (any number of workers may: `FOR UPDATE SKIP LOCKED`, at most MAX_IN_FLIGHT
requests in flight per endpoint across them, each claim leased for LEASE_SECONDS) and sends
it: a signed POST, only to the addresses the rules allow (app/webhooks/client.py), no
redirect followed, TIMEOUT_SECONDS to answer. At least once: a process that dies mid-send
leaves its claims to another after the lease, and the receiver may see an event twice (the
`webhook-id` is the same on every attempt: receivers deduplicate on it).

An attempt records the answer's status, never its body, or why there was none in words that
do not tell an open port from a closed one (docs/webhooks.md#addresses): the delivery log is
read on the panel, and must not be a way to look into a network.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Sequence

import aiohttp
import asyncpg
import orjson
import structlog
from aiohttp import web

from app.core.keys import POOL, SETTINGS
from app.core.metrics import WEBHOOK_DELIVERIES
from app.webhooks import signing, store
from app.webhooks.addresses import Refused
from app.webhooks.client import Client
from app.webhooks.store import Attempt

log = structlog.get_logger("webhooks")

MAX_IN_FLIGHT = 10
TIMEOUT_SECONDS = 15.0
# A connection not made within this (the TLS handshake included) failed, as a refused one did.
CONNECT_SECONDS = 10.0
# Longer than a request may take (the timeout) plus recording it.
LEASE_SECONDS = 60.0
# Seconds to wait after a failed attempt, attempt by attempt (Standard Webhooks' schedule):
# 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; the eighth failure is final.
RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)
# Why an attempt got no answer, the same for a connection refused, reset, unreachable or not
# made in time; and for a connection made that gave no answer in time.
CONNECTION_FAILED = "connection failed"
TIMED_OUT = "timed out"
# What webhook_deliveries.last_answer holds at most.
WHY_BYTES = 1024
# Deliveries made by another process are seen at the latest after this.
POLL_SECONDS = 1.0


def body(delivery: asyncpg.Record) -> bytes:
    """`{"type", "timestamp", "data"}`: the same bytes on every attempt."""
    timestamp = delivery["created_at"].isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return orjson.dumps(
        {"type": delivery["event_type"], "timestamp": timestamp, "data": delivery["data"]}
    )


def headers(delivery: asyncpg.Record, payload: bytes, now: int) -> dict[str, str]:
    message_id = f"msg_{delivery['delivery_id']}"
    return {
        "content-type": "application/json",
        "webhook-id": message_id,
        "webhook-timestamp": str(now),
        "webhook-signature": signing.sign(delivery["secret"], message_id, now, payload),
    }


def _clip(text: str) -> str:
    """At most WHY_BYTES of UTF-8."""
    return text.encode()[:WHY_BYTES].decode(errors="ignore")


async def send(client: Client, delivery: asyncpg.Record) -> Attempt:
    status, why = await _post(client, delivery)
    return Attempt(delivery["endpoint_id"], delivery["delivery_id"], status, why)


async def _post(client: Client, delivery: asyncpg.Record) -> tuple[int | None, str | None]:
    """The answer's status, or None and why there was none. The answer's body is not read."""
    payload = body(delivery)
    try:
        async with client.post(
            delivery["url"],
            data=payload,
            headers=headers(delivery, payload, int(time.time())),
            allow_redirects=False,
        ) as response:
            return response.status, None
    except Refused as refused:
        return None, _clip(str(refused))
    except aiohttp.ConnectionTimeoutError:
        return None, CONNECTION_FAILED
    except TimeoutError:
        return None, TIMED_OUT
    except (aiohttp.ClientError, ValueError):
        return None, CONNECTION_FAILED


class Deliverer:
    """The loop of one process: claims, sends, records."""

    def __init__(self, pool: asyncpg.Pool, client: Client):
        self._pool = pool
        self._client = client
        self._finished: list[Attempt] = []
        self._changed = asyncio.Event()
        self._sending: set[asyncio.Task] = set()

    async def run(self) -> None:
        while True:
            try:
                await self.turn()
            except Exception:
                log.warning("webhook deliveries could not be claimed or recorded", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), POLL_SECONDS)
            self._changed.clear()

    async def turn(self) -> None:
        """Record what finished, then start what is due."""
        finished, self._finished = self._finished, []
        try:
            claimed = await store.turn(
                self._pool, finished, RETRY_SCHEDULE, MAX_IN_FLIGHT, LEASE_SECONDS
            )
        except BaseException:
            self._finished.extend(finished)
            raise
        if finished:
            _count(finished)
        for delivery in claimed:
            task = asyncio.create_task(send(self._client, delivery))
            self._sending.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._sending.discard(task)
        if not task.cancelled():
            self._finished.append(task.result())
            self._changed.set()

    async def stop(self) -> None:
        """Cancel the sends in flight (their leases lapse and another turn sends them)."""
        for task in self._sending:
            task.cancel()
        await asyncio.gather(*self._sending, return_exceptions=True)


# What `outcome` answers: `webhook_deliveries_total`'s label values.
OUTCOMES = ("succeeded", "refused", "gone", "no_answer")


def outcome(attempt: Attempt) -> str:
    if attempt.status is None:
        return "no_answer"
    if 200 <= attempt.status < 300:
        return "succeeded"
    return "gone" if attempt.status == 410 else "refused"


def _count(attempts: Sequence[Attempt]) -> None:
    """One log line a batch of attempts, by outcome, and `webhook_deliveries_total{outcome}`."""
    outcomes = Counter(outcome(attempt) for attempt in attempts)
    for name, count in outcomes.items():
        WEBHOOK_DELIVERIES.labels(name).inc(count)
    log.info("webhook attempts", **outcomes)


def setup(app: web.Application) -> None:
    """Deliver webhook events from this process (`serve` calls it, as it starts the schedules)."""

    async def deliverer(app: web.Application):
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS, connect=CONNECT_SECONDS)
        async with Client(app[SETTINGS].webhooks_allow_private, timeout) as client:
            loop = Deliverer(app[POOL], client)
            task = asyncio.create_task(loop.run())
            yield
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await loop.stop()

    app.cleanup_ctx.append(deliverer)
