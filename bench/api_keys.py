"""What checking an integrator's API key costs a request (`app.core.auth.identify`, the guard's
whole work): a key of the database seen in the last 5 seconds (the cached path: a SHA-256 and a
dictionary look-up, no database round trip), the environment's key (a constant-time compare),
and, for scale, a key the process has not seen for 5 seconds (one round trip to PostgreSQL on
this machine, which also stamps the last use at most once a minute).

Each check is timed on its own with `perf_counter_ns`, in a request made by aiohttp's test
helper against an application holding the settings, the pool and the key cache as `serve`'s
does; 100 API keys live in the database.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from app.core import api_keys, database
from app.core.auth import identify
from app.core.config import Settings
from app.core.keys import POOL, SETTINGS
from bench.harness import BENCH_KEYS, fresh_database, report

CHECKS = 20_000
MISSES = 500
KEYS = 100


def _p(values: list[int], share: float) -> float:
    """The `share` quantile of nanosecond figures, in microseconds."""
    return statistics.quantiles(values, n=1000)[round(share * 1000) - 1] / 1e3


async def _timed(request: web.Request, key: str, count: int, fresh=None) -> list[int]:
    figures = []
    for _ in range(count):
        if fresh is not None:
            fresh()
        started = time.perf_counter_ns()
        caller = await identify(request, "training", key)
        figures.append(time.perf_counter_ns() - started)
        assert caller is not None
    return figures


async def _measure() -> dict[str, list[int]]:
    url = fresh_database("bench_api_keys")
    settings = Settings.from_env({"DATA_DIR": "var", **BENCH_KEYS})
    app = web.Application()
    app[SETTINGS] = settings
    app[api_keys.CACHE] = api_keys.KeyCache()
    app[POOL] = pool = await database.create_pool(url, min_size=1, max_size=4)
    try:
        keys = [
            (await api_keys.create(pool, f"integrator-{n}", ["training"], None)).key
            for n in range(KEYS)
        ]
        request = make_mocked_request("GET", "/api/v1/completions", app=app)
        await identify(request, "training", keys[0])  # read once: cached from now on
        cached = await _timed(request, keys[0], CHECKS)
        env = await _timed(request, BENCH_KEYS["INTEGRATION_API_KEY"], CHECKS)

        def forget() -> None:
            app[api_keys.CACHE] = api_keys.KeyCache()

        missed = await _timed(request, keys[1], MISSES, forget)
    finally:
        await pool.close()
    return {"cached": cached, "env": env, "missed": missed}


def main() -> bool:
    figures = asyncio.run(_measure())
    # Targets in µs: 100 µs is 0.1 ms.
    ok = report("API key seen in the last 5 s, p50", _p(figures["cached"], 0.5), 100, "µs")
    report("API key seen in the last 5 s, p99", _p(figures["cached"], 0.99), 1000, "µs")
    ok &= report("environment's key, p50", _p(figures["env"], 0.5), 100, "µs")
    report("API key not seen for 5 s (one query), p50", _p(figures["missed"], 0.5), 5000, "µs")
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
