"""Delivering webhook events (DESIGN §12): a loop in every `serve` process.

Each turn the loop records the attempts that finished and claims what is due, in one
transaction (any process
may: `FOR UPDATE SKIP LOCKED`, at most MAX_IN_FLIGHT requests in flight per endpoint across
processes, each claim leased for LEASE_SECONDS) and sends it: a signed POST, no redirect
followed, TIMEOUT_SECONDS to answer. At least once: a process that dies mid-send leaves its
claims to another after the lease, and the receiver may see an event twice (the `webhook-id`
is the same on every attempt: receivers deduplicate on it).
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

from app.core.keys import POOL
from app.core.metrics import WEBHOOK_DELIVERIES
from app.webhooks import signing, store
from app.webhooks.store import Attempt

log = structlog.get_logger("webhooks")

MAX_IN_FLIGHT = 10
TIMEOUT_SECONDS = 15.0
# Longer than a request may take (the timeout) plus recording it.
LEASE_SECONDS = 60.0
# Seconds to wait after a failed attempt, attempt by attempt (Standard Webhooks' schedule):
# 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; the eighth failure is final.
RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)
# A receiver's answer is kept for people to read on its page, and no more of it is read.
ANSWER_BYTES = 1024
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
    """At most ANSWER_BYTES of UTF-8, without NUL (PostgreSQL text cannot hold it)."""
    return text.replace("\x00", "").encode()[:ANSWER_BYTES].decode(errors="ignore")


async def send(session: aiohttp.ClientSession, delivery: asyncpg.Record) -> Attempt:
    status, answer = await _post(session, delivery)
    return Attempt(delivery["endpoint_id"], delivery["delivery_id"], status, answer)


async def _post(session: aiohttp.ClientSession, delivery: asyncpg.Record) -> tuple[int | None, str]:
    """The answer's status (None: no answer) and text, or why there was none."""
    payload = body(delivery)
    try:
        async with session.post(
            delivery["url"],
            data=payload,
            headers=headers(delivery, payload, int(time.time())),
            allow_redirects=False,
        ) as response:
            answer = await response.content.read(ANSWER_BYTES)
            return response.status, _clip(answer.decode(errors="ignore"))
    except TimeoutError:
        return None, f"No answer within {TIMEOUT_SECONDS:g} s."
    except (aiohttp.ClientError, ValueError) as exc:
        return None, _clip(f"Not sent: {exc!r}")


class Deliverer:
    """The loop of one process: claims, sends, records."""

    def __init__(self, pool: asyncpg.Pool, session: aiohttp.ClientSession):
        self._pool = pool
        self._session = session
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
            task = asyncio.create_task(send(self._session, delivery))
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
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            loop = Deliverer(app[POOL], session)
            task = asyncio.create_task(loop.run())
            yield
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await loop.stop()

    app.cleanup_ctx.append(deliverer)
