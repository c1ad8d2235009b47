"""Webhooks and Idempotency-Key (docs/webhooks.md) through the real server: 250,000 assignments
with one endpoint subscribed (events written, not yet delivered), 10,000 events delivered to
a receiver on localhost, and what an Idempotency-Key adds to a 5,000-rider upsert.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid

import aiohttp
import psycopg
from aiohttp import web

from bench.harness import BENCH_KEYS, Server, fresh_database, report, run_sql

RIDERS = 250_000
RUNS = 3
DELIVERED = 10_000
UPSERT_RUNS = 31
HEADERS = {"x-api-key": BENCH_KEYS["INTEGRATION_API_KEY"]}
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

DATA_SET = [
    f"""INSERT INTO riders (rider_id, name, market, status)
        SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, 'AE', 'active'
        FROM generate_series(1, {RIDERS}) AS i""",
    "INSERT INTO courses (course_id, title, has_quiz) VALUES (gen_random_uuid(), 'Course', true)",
]


class Receiver:
    """Answers every delivery 204; `slow` holds each for a minute (events stay undelivered)."""

    def __init__(self, slow: bool = False):
        self.slow = slow
        self.ids: set[str] = set()
        self.done = asyncio.Event()
        self.expected = 0

    async def hook(self, request: web.Request) -> web.Response:
        await request.read()
        if self.slow:
            await asyncio.sleep(60)
        self.ids.add(request.headers["webhook-id"])
        if len(self.ids) >= self.expected:
            self.done.set()
        return web.Response(status=204)

    async def start(self) -> tuple[web.AppRunner, int]:
        app = web.Application()
        app.router.add_post("/hook", self.hook)
        runner = web.AppRunner(app, shutdown_timeout=0.1)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, runner.addresses[0][1]


def _endpoint(url: str, port: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE webhook_endpoints SET enabled = false")
        conn.execute(
            "INSERT INTO webhook_endpoints (url, events, secret) VALUES (%s, %s, %s)",
            (f"http://127.0.0.1:{port}/hook", ["assignment.created"], SECRET),
        )


def _new_path(url: str) -> str:
    path_id = str(uuid.uuid4())
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO paths (path_id, name, active, days_to_complete, rule)"
            " VALUES (%s, 'Path', true, 7, 'manual')",
            (path_id,),
        )
        conn.execute(
            "INSERT INTO path_courses (path_id, course_id, position)"
            " SELECT %s, course_id, 1 FROM courses LIMIT 1",
            (path_id,),
        )
    return path_id


async def _post(session, base: str, path: str, body, headers=None) -> float:
    started = time.perf_counter()
    async with session.post(
        f"{base}{path}", json=body, headers={**HEADERS, **(headers or {})}
    ) as r:
        await r.read()
        if r.status != 200:
            raise RuntimeError(f"POST {path}: {r.status}")
    return time.perf_counter() - started


async def _assignments(session, server: Server, url: str) -> bool:
    ids = [f"R{i:07d}" for i in range(1, RIDERS + 1)]
    unsubscribed = [
        await _post(
            session, server.url, "/api/v1/assignments", {"pathId": _new_path(url), "riderIds": ids}
        )
        for _ in range(RUNS)
    ]
    print(f"for comparison, no endpoint: slowest of {RUNS} {max(unsubscribed) * 1000:.0f} ms")
    slow = Receiver(slow=True)
    runner, port = await slow.start()
    _endpoint(url, port)
    times = []
    for _ in range(RUNS):
        body = {"pathId": _new_path(url), "riderIds": ids}
        times.append(await _post(session, server.url, "/api/v1/assignments", body))
    with psycopg.connect(url) as conn:
        events = conn.execute("SELECT count(*) FROM webhook_deliveries").fetchone()[0]
    print(f"events written: {events:,} for {RUNS} x {RIDERS:,} assignments", flush=True)
    await runner.cleanup()
    return report(
        "POST /assignments, 250,000 riderIds, 1 endpoint subscribed", max(times) * 1000, 3000, "ms"
    )


async def _delivery(session, server: Server, url: str) -> bool:
    receiver = Receiver()
    receiver.expected = DELIVERED
    runner, port = await receiver.start()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM webhook_deliveries")
    _endpoint(url, port)
    body = {"pathId": _new_path(url), "riderIds": [f"R{i:07d}" for i in range(1, DELIVERED + 1)]}
    started = time.perf_counter()
    await _post(session, server.url, "/api/v1/assignments", body)
    try:
        await asyncio.wait_for(receiver.done.wait(), 120)
    except TimeoutError:
        print(f"only {len(receiver.ids):,} of {DELIVERED:,} events received in 120 s")
    finally:
        await runner.cleanup()
    return report(
        "10,000 events written, then received on localhost",
        time.perf_counter() - started,
        30,
        "s",
    )


def _riders(count: int, run: int) -> dict:
    return {
        "riders": [
            {"riderId": f"R{i:07d}", "name": f"Rider {i} run {run}", "market": "AE"}
            for i in range(1, count + 1)
        ]
    }


async def _idempotency(session, server: Server) -> bool:
    """Pairs of calls, one with a key (a fresh key each) and one without, the keyed one first
    in every other pair (so neither gains from going second); the median of the pairs'
    differences, which the drift of a shared machine cancels out of."""
    plain, keyed = [], []
    for run in range(UPSERT_RUNS):
        calls = [(plain, {}), (keyed, {"Idempotency-Key": str(uuid.uuid4())})]
        for turn, (times, headers) in enumerate(calls[:: 1 if run % 2 else -1]):
            body = _riders(5000, 2 * run + turn)
            times.append(await _post(session, server.url, "/api/v1/riders", body, headers))
    without, with_key = statistics.median(plain) * 1000, statistics.median(keyed) * 1000
    added = statistics.median(k - p for k, p in zip(keyed, plain, strict=True)) * 1000
    print(f"POST /riders, 5,000 updated: median {without:.1f} ms, with a key {with_key:.1f} ms")
    return report("Idempotency-Key: added to a 5,000-rider upsert (paired)", added, 5, "ms")


async def measure(server: Server, url: str) -> bool:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        ok = await _assignments(session, server, url)
        ok &= await _delivery(session, server, url)
        ok &= await _idempotency(session, server)
    return ok


def main() -> bool:
    url = fresh_database("bench_webhooks")
    run_sql(url, *DATA_SET)
    # The receiver is on this machine: a private address (docs/webhooks.md#addresses).
    with Server(url, WEBHOOKS_ALLOW_PRIVATE="1") as server:
        return asyncio.run(measure(server, url))
