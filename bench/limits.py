"""Bulk bodies and process count: the server's peak memory for the worst bodies the bulk routes
accept, and `GET /api/v1/completions?limit=1` at WEB_CONCURRENCY 1 and 2.

The worst accepted body fills a route's byte limit with the most objects and arrays it lets
through unparsed, then two-character strings (~10 times their bytes once parsed). Sent two at
a time (the process's bulk concurrency), the server's peak RSS must stay well under the 1 GB
at which the platform restarts it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import time

import aiohttp

from app.core.http import BULK_CONCURRENCY, Bulk
from app.shop.importing import IMPORT_BODY as IMPORT
from app.training.assignments import ASSIGNMENTS_BODY as ASSIGNMENTS
from app.training.riders import RIDERS_BODY as RIDERS
from bench.harness import BENCH_KEYS, Server, fresh_database, report, run_sql

INTEGRATION = {"x-api-key": BENCH_KEYS["INTEGRATION_API_KEY"]}
SHOP = {"api-key": BENCH_KEYS["SHOP_IMPORT_API_KEY"]}
ROUTES = [
    ("/api/v1/riders", "riders", INTEGRATION, RIDERS),
    ("/api/v1/assignments", "riderIds", INTEGRATION, ASSIGNMENTS),
    ("/api/import/users", "users", SHOP, IMPORT),
]
LOAD_SECONDS = 8
CONNECTIONS = 16
CLIENT_PROCESSES = 2


def worst_body(key: str, bulk: Bulk) -> bytes:
    head = b'{"pathId":"00000000-0000-4000-9000-000000000001","%s":[' % key.encode()
    containers = b"{}," * (bulk.containers - 2)
    room = bulk.limit - len(head) - len(containers) - 4
    return head + containers + b'"ab",' * (room // 5) + b'"ab"]}'


async def _post_worst(server: Server) -> list[tuple[str, int, float]]:
    results = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        for path, key, headers, bulk in ROUTES:
            body = worst_body(key, bulk)
            assert len(body) <= bulk.limit

            async def post(path=path, body=body, headers=headers):
                async with session.post(server.url + path, data=body, headers=headers) as r:
                    await r.read()
                    return r.status

            statuses = await asyncio.gather(*(post() for _ in range(BULK_CONCURRENCY)))
            results.append((path, statuses[0], server.peak_rss_mb()))
    return results


async def _latencies(url: str, connections: int) -> list[float]:
    latencies: list[float] = []
    stop = time.monotonic() + LOAD_SECONDS
    target = f"{url}/api/v1/completions?limit=1"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=connections)) as session:

        async def client():
            while time.monotonic() < stop:
                started = time.perf_counter()
                async with session.get(target, headers=INTEGRATION) as response:
                    await response.read()
                    if response.status != 200:
                        raise RuntimeError(f"{response.status}")
                latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(client() for _ in range(connections)))
    return latencies


def _client_process(url: str) -> list[float]:
    return asyncio.run(_latencies(url, CONNECTIONS // CLIENT_PROCESSES))


def _load(url: str) -> tuple[float, float, float]:
    """Requests a second, median and 99th-percentile latency over LOAD_SECONDS, from
    CLIENT_PROCESSES client processes (one would be the bottleneck)."""
    with multiprocessing.get_context("spawn").Pool(CLIENT_PROCESSES) as pool:
        latencies = sorted(
            x for part in pool.map(_client_process, [url] * CLIENT_PROCESSES) for x in part
        )
    return (
        len(latencies) / LOAD_SECONDS,
        statistics.median(latencies) * 1000,
        latencies[int(len(latencies) * 0.99)] * 1000,
    )


def main() -> bool:
    url = fresh_database("bench_limits")
    run_sql(url, "INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'Sam', 'AE')")
    ok = True
    with Server(url) as server:
        print(f"server RSS at start: {server.rss_mb():.1f} MB", flush=True)
        for path, status, peak in asyncio.run(_post_worst(server)):
            ok &= report(
                f"peak RSS after 2 worst bodies at once, {path} ({status})", peak, 600, "MB"
            )
    rates = {}
    for processes in (1, 2):
        with Server(url, WEB_CONCURRENCY=str(processes)) as server:
            time.sleep(2)  # every process listening
            rate, median, p99 = _load(server.url)
        rates[processes] = rate
        print(
            f"GET /completions?limit=1, {processes} process(es), {CONNECTIONS} connections: "
            f"{rate:.0f} req/s, median {median:.1f} ms, p99 {p99:.1f} ms",
            flush=True,
        )
    # On 2 cores shared with the client processes and PostgreSQL a second web process cannot
    # add much; the target says it costs nothing (bench/README.md has the figures).
    ok &= report(
        "requests/s, 2 processes / 1 process", rates[2] / rates[1], 0.9, "x", higher_is_better=True
    )
    return ok
