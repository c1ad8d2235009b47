"""The single-instance ceiling (docs/capacity.md): how many requests a second one
web process serves per core of its own CPU, and how much CPU the database spends for them,
for the completions feed, the rider pages and the riders upsert.

On the rider benchmark's data set (300,000 riders, 300,000 passed course records), one web
process (WEB_CONCURRENCY=1) is kept busy by a closed loop of clients on localhost for
SECONDS per workload. The CPU time of the web process and of PostgreSQL's processes is read
from /proc before and after: requests per CPU-second of the web process is its ceiling per
core; the database's share is its CPU time over both. Bounded: about 1 minute of traffic to
127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime

import aiohttp
import psutil

from app.messaging.links import LINK_PURPOSE, LINK_TTL, sign
from bench.harness import BENCH_KEYS, ROOT, Server, fresh_database
from bench.rider import build, rider_id, second_course, timed

SECRET = "bench-session-secret-0123456789"
SECONDS = 15
FEED_PAGE = 1000
UPSERT_BATCH = 1000
API = {"x-api-key": BENCH_KEYS["INTEGRATION_API_KEY"]}


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def _database_processes() -> list[psutil.Process]:
    pid = int((ROOT / "var" / "bench" / "pgdata" / "postmaster.pid").read_text().split()[0])
    postmaster = psutil.Process(pid)
    return [postmaster, *postmaster.children()]


class CpuMeter:
    """CPU seconds of the web process and of the database's processes over a window."""

    def __init__(self, server: Server):
        # `serve` itself only supervises: the one web process (WEB_CONCURRENCY=1) serves.
        (self.web,) = [psutil.Process(pid) for pid in server.web_pids()]

    def read(self) -> tuple[float, dict[int, float]]:
        return _cpu_seconds(self.web), {
            p.pid: _cpu_seconds(p) for p in _database_processes() if p.is_running()
        }

    @staticmethod
    def spent(before, after) -> tuple[float, float]:
        (app_before, db_before), (app_after, db_after) = before, after
        database = sum(t - db_before.get(pid, 0.0) for pid, t in db_after.items())
        return app_after - app_before, database


async def _loop(clients: int, call) -> int:
    """Run `call()` back to back in `clients` loops for SECONDS; the number of calls done."""
    done = 0
    deadline = time.perf_counter() + SECONDS

    async def client(n: int) -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await call(n)
            done += 1

    await asyncio.gather(*(client(n) for n in range(clients)))
    return done


async def _feed(session, base):
    rng = random.Random(1)

    async def call(_):
        # A page from a random point of the feed (pages cost the same wherever they start).
        since = datetime.fromtimestamp(rng.uniform(1.7e9, 1.76e9), UTC).strftime("%Y-%m-%d")
        await timed(
            session,
            "GET",
            f"{base}/api/v1/completions",
            headers=API,
            params={"since": since, "limit": FEED_PAGE},
        )

    return call


async def _rider_pages(connector, base, clients):
    sessions = []
    for n in range(clients):
        i = 1001 + 997 * n
        session = aiohttp.ClientSession(
            connector=connector, connector_owner=False, cookie_jar=aiohttp.CookieJar(unsafe=True)
        )
        link = sign(SECRET, LINK_PURPOSE, rider_id(i), datetime.now(UTC) + LINK_TTL)
        await timed(session, "GET", f"{base}/t/{link}")
        sessions.append((i, session))

    async def call(n):
        i, session = sessions[n]
        await timed(session, "GET", f"{base}/training")
        await timed(session, "GET", f"{base}/training/courses/{second_course(i)}/lessons/3")

    return call, sessions


async def _upsert(session, base):
    rng = random.Random(2)

    async def call(_):
        first = rng.randrange(1, 300_000 - UPSERT_BATCH)
        riders = [
            {
                "riderId": rider_id(i),
                "name": f"Rider {i}",
                "market": "Qatar",
                "vehicleType": "Motorbike",
                "nationality": "Indian",
                "status": "active",
                "phone": "+974 5512 3456",
            }
            for i in range(first, first + UPSERT_BATCH)
        ]
        await timed(session, "POST", f"{base}/api/v1/riders", headers=API, json={"riders": riders})

    return call


def _line(name: str, unit: str, per_call: int, calls: int, app: float, db: float) -> None:
    print(
        f"{name:<34} {calls * per_call / SECONDS:>8.1f} {unit}/s  {calls * per_call / app:>9.1f} "
        f"{unit}/s per web-process CPU-second  database share {db / (app + db):>5.1%} "
        f"(web {app:.1f} s, database {db:.1f} s of CPU in {SECONDS} s)",
        flush=True,
    )


async def measure(server: Server) -> bool:
    base = server.url
    meter = CpuMeter(server)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
        workloads = [
            ("feed pages of 1,000 records", "pages", 1, 4, await _feed(session, base)),
            ("riders upsert, 1,000 a request", "requests", 1, 2, await _upsert(session, base)),
        ]
        pages, rider_sessions = await _rider_pages(connector, base, 16)
        workloads.insert(1, ("rider pages (training, lesson)", "pages", 2, 16, pages))
        for name, unit, per_call, clients, call in workloads:
            before = meter.read()
            calls = await _loop(clients, call)
            app, db = meter.spent(before, meter.read())
            _line(name, unit, per_call, calls, app, db)
        for _, rider_session in rider_sessions:
            await rider_session.close()
    await connector.close()
    return True


def main() -> bool:
    url = fresh_database("bench_capacity")
    build(url)
    with Server(url, SESSION_SECRET=SECRET) as server:
        return asyncio.run(measure(server))
