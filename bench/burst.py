"""The 09:00 burst: the reminders job has messaged up to 5,000 riders a one-tap
link and they open it within minutes. Through the real server on localhost with
WEB_CONCURRENCY=2, on the rider benchmark's data set (300,000 riders), 5,000 riders each open
their link, their training, a lesson and the quiz, and pass it: 4,500 of them spread over 5
minutes and 500 within the same 10 seconds. Targets: no error, p99 of each step ≤ 250 ms, and
the database's connection count (pg_stat_activity, sampled every 0.2 s) never above its
max_connections.

Bounded: 25,000 requests to 127.0.0.1 in about 5 minutes. The client runs on the same machine
as the server and the database, so it takes some of their CPU.
"""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime

import aiohttp

from app.core import database
from app.messaging.links import LINK_PURPOSE, LINK_TTL, sign
from bench.harness import Server, fresh_database, report
from bench.rider import CSRF, build, p99, quiz_answers, rider_id, second_course, timed

SECRET = "bench-session-secret-0123456789"
RIDERS = 5_000
MINUTES = 5
SURGE_RIDERS = 500
SURGE_AT, SURGE_SECONDS = 120, 10
TARGET_MS = 250
STEPS = ("one-tap link", "training", "lesson", "quiz page", "quiz pass")
SAMPLE_EVERY = 0.2


async def _rider(base: str, connector, i: int, delay: float, times: dict) -> None:
    await asyncio.sleep(delay)
    link = sign(SECRET, LINK_PURPOSE, rider_id(i), datetime.now(UTC) + LINK_TTL)
    course = f"{base}/training/courses/{second_course(i)}"
    async with aiohttp.ClientSession(
        connector=connector, connector_owner=False, cookie_jar=aiohttp.CookieJar(unsafe=True)
    ) as session:
        for step, (method, url) in zip(
            STEPS[:4],
            [
                ("GET", f"{base}/t/{link}"),
                ("GET", f"{base}/training"),
                ("GET", f"{course}/lessons/3"),
                ("GET", f"{course}/quiz"),
            ],
            strict=True,
        ):
            elapsed, page = await timed(session, method, url)
            times[step].append(elapsed)
        elapsed, page = await timed(
            session, "POST", f"{course}/quiz", data=quiz_answers(True, CSRF.search(page).group(1))
        )
        times["quiz pass"].append(elapsed)
        if "proof-code" not in page:
            raise RuntimeError(f"rider {i} did not pass")


async def _connections(url: str, stop: asyncio.Event) -> tuple[int, int]:
    """(the most client connections seen at once, max_connections) while the load runs."""
    async with database.connect(url) as conn:
        limit = int(await conn.fetchval("SHOW max_connections"))
        most = 0
        while not stop.is_set():
            most = max(
                most,
                await conn.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                ),
            )
            await asyncio.sleep(SAMPLE_EVERY)
    return most, limit


def _schedule() -> list[tuple[int, float]]:
    """(rider, start second): riders of the rider data set that are active, none twice."""
    riders = [i for i in range(1, 300_000, 59) if i % 50][:RIDERS]
    rng = random.Random(9)
    rng.shuffle(riders)
    surge = [(i, SURGE_AT + rng.uniform(0, SURGE_SECONDS)) for i in riders[:SURGE_RIDERS]]
    spread = [(i, rng.uniform(0, MINUTES * 60)) for i in riders[SURGE_RIDERS:]]
    return surge + spread


async def measure(server: Server, url: str) -> bool:
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    stop = asyncio.Event()
    sampler = asyncio.create_task(_connections(url, stop))
    connector = aiohttp.TCPConnector(limit=0)
    started = time.perf_counter()
    try:
        results = await asyncio.gather(
            *(_rider(server.url, connector, i, delay, times) for i, delay in _schedule()),
            return_exceptions=True,
        )
    finally:
        await connector.close()
        stop.set()
    most, limit = await sampler
    errors = [r for r in results if isinstance(r, Exception)]
    requests = sum(map(len, times.values()))
    print(
        f"{RIDERS:,} riders, {requests:,} requests in {time.perf_counter() - started:.0f} s; "
        f"{SURGE_RIDERS} of them within {SURGE_SECONDS} s",
        flush=True,
    )
    ok = report("errors", len(errors), 0, "")
    for error in errors[:3]:
        print(f"  {error!r}")
    for step in STEPS:
        ok &= report(f"{step}, p99", p99(times[step]), TARGET_MS, "ms")
    ok &= report("database connections at most (pg_stat_activity)", most, limit, "")
    return ok


def main() -> bool:
    url = fresh_database("bench_burst")
    build(url)
    with Server(url, SESSION_SECRET=SECRET, WEB_CONCURRENCY="2") as server:
        return asyncio.run(measure(server, url))
