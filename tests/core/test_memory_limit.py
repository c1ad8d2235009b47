"""MEMORY_LIMIT_MB in a real `serve` under a steady stream of requests
(docs/operations.md#memory-limit): a web process above the limit is replaced and not one request
fails, at any WEB_CONCURRENCY."""

import asyncio
import time
from collections.abc import Callable

import aiohttp
import orjson
import pytest

from tests.conftest import TEST_KEYS
from tests.served import serving

API = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}
CLIENTS = 4
# Each client's pause between two requests: a steady stream, not a load test.
PAUSE = 0.02


async def steady_stream(
    base: str, seconds: float, enough: Callable[[], bool] = lambda: False
) -> tuple[int, list[str]]:
    """CLIENTS keep-alive clients ask for one completion each in a loop for `seconds` at most,
    until `enough()`; returns how many requests answered 200 and what went wrong with the
    others."""
    failures: list[str] = []
    answered = 0
    deadline = time.monotonic() + seconds
    done = False

    async def watch() -> None:  # twice a second: `enough` may read the whole log
        nonlocal done
        while not done and time.monotonic() < deadline:
            done = enough()
            await asyncio.sleep(0.5)

    async def ask(session: aiohttp.ClientSession) -> int:
        async with session.get(f"{base}/api/v1/completions?limit=1", headers=API) as r:
            await r.read()
            return r.status

    async def client(session: aiohttp.ClientSession) -> None:
        nonlocal answered
        while time.monotonic() < deadline and not done:
            try:
                try:
                    status = await ask(session)
                except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
                    # A stopping process closes its idle keep-alive connections; a request
                    # sent on one in that instant meets the close. HTTP lets a client send an
                    # idempotent request again when a connection closes before any answer
                    # (RFC 9112 §9.3.1), as browsers and routers do: once, on a new one.
                    status = await ask(session)
                if status == 200:
                    answered += 1
                else:
                    failures.append(f"status {status}")
            except aiohttp.ClientError as exc:
                failures.append(repr(exc))
            await asyncio.sleep(PAUSE)

    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        await asyncio.gather(watch(), *(client(session) for _ in range(CLIENTS)))
    return answered, failures


def events(log: str, name: str) -> list[dict]:
    return [orjson.loads(line) for line in log.splitlines() if f'"event":"{name}"' in line]


@pytest.mark.parametrize("processes", [1, 2])
async def test_a_limit_below_every_process_replaces_them_again_and_again_and_no_request_fails(
    database_url, tmp_path, processes
):
    files = tmp_path / "metrics"
    with serving(
        database_url,
        tmp_path / "serve.log",
        WEB_CONCURRENCY=str(processes),
        MEMORY_LIMIT_MB="1",
        PROMETHEUS_MULTIPROC_DIR=str(files),
    ) as server:
        deadline = time.monotonic() + 30
        while len(first := {line["pid"] for line in events(server.log, "serving")}) < processes:
            assert time.monotonic() < deadline, server.log
            await asyncio.sleep(0.1)
        # Until every first process and then one replacement each were replaced (starting a
        # process takes seconds on a busy machine), or 3 minutes.
        answered, failures = await steady_stream(
            server.base,
            seconds=180,
            enough=lambda: len(events(server.log, "web process replaced")) >= 2 * processes,
        )
        log = server.log
        # A replaced process's gauges leave the sums (once it has exited), its counters stay.
        deadline = time.monotonic() + 10
        while any((files / f"gauge_livesum_{pid}.db").exists() for pid in first):
            assert time.monotonic() < deadline, sorted(path.name for path in files.iterdir())
            await asyncio.sleep(0.1)
        # (A process that got no connection before it was replaced counted nothing.)
        assert any((files / f"counter_{pid}.db").exists() for pid in first)
        # The worker watches its memory too, and its replacement says it is the worker's.
        deadline = time.monotonic() + 60
        while not events(server.log, "worker process replaced"):
            assert time.monotonic() < deadline, server.log
            await asyncio.sleep(0.1)
    assert not failures, failures[:5]
    assert answered > 100
    replaced = events(log, "web process replaced")
    assert first <= {line["pid"] for line in replaced}
    assert len(replaced) >= 2 * processes
    reached = events(log, "memory limit reached")
    assert reached and all(
        line["level"] == "warning" and line["limit_mb"] == 1 and line["rss_mb"] > 1
        for line in reached
    )
    assert '"event":"worker stopped"' not in log


async def test_a_realistic_limit_replaces_nothing(database_url, tmp_path):
    with serving(database_url, tmp_path / "serve.log", WEB_CONCURRENCY="2") as server:
        answered, failures = await steady_stream(server.base, seconds=10)
        log = server.log
    assert not failures and answered > 100
    assert "memory limit reached" not in log and "web process replaced" not in log
    assert len(events(log, "serving")) == 2
