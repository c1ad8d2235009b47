"""How fast the service gives up or answers where the tests only check what it answers.

The tests assert the outcome (the error, the status, the line); how long it took depends on the
machine and its load, so those figures are measured here, each with the target a test once held
as a wall-clock bound:

- a PDF bomb killed at its time limit (2 s here): the error within 5 s;
- a messaging provider that never answers (0.2 s timeout, 3 attempts): failed within 2 s;
- `migrate` and `serve` against a database nothing listens for: one clear line within 30 s;
- an unknown email's password check beside a known one's (the same argon2 work): the ratio of
  their best times between 0.5 and 2;
- `/readyz` with every connection of the requests' turns held: 503 within 2 s; a request when
  no connection comes within ACQUIRE_TIMEOUT (0.3 s here): 500 within 2 s.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from app.ai import extraction
from app.ai.sources import Bounds, SourceError
from app.core import database, middleware, passwords
from app.core.config import Settings
from app.core.keys import POOL
from app.messaging.provider import Messenger
from app.web import create_app
from bench.harness import BENCH_KEYS, ROOT, fresh_database, report
from tests.ai.files import text_bomb_pdf

UNREACHABLE = "postgresql://ops:secret@127.0.0.1:9/ops"


async def _pdf_bomb_seconds() -> float:
    started = time.monotonic()
    try:
        await extraction.text_of("pdf", text_bomb_pdf(), Bounds(chars=10**9, pages=10), seconds=2)
    except SourceError:
        return time.monotonic() - started
    raise AssertionError("the PDF bomb was not stopped")


async def _silent_provider_seconds() -> float:
    async def hang(_request):
        await asyncio.sleep(5)
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/{tail:.*}", hang)
    async with TestServer(app) as server:
        settings = Settings.from_env(
            {
                "DATA_DIR": tempfile.gettempdir(),
                **BENCH_KEYS,
                "MESSAGING_API_URL": str(server.make_url("/v21.0")),
                "MESSAGING_TOKEN": "bench-token",
                "MESSAGING_PHONE_NUMBER_ID": "100200300",
            }
        )
        started = time.monotonic()
        async with Messenger(settings, timeout=0.2, backoff=(0.01, 0.01)) as messenger:
            delivery = await messenger.send_text("+971501234567", "Hi")
        seconds = time.monotonic() - started
    assert delivery.status == "failed", delivery
    return seconds


def _command_seconds(*args: str) -> float:
    env = {**os.environ, "DATABASE_URL": UNREACHABLE, "PORT": "18097"}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, timeout=120
    )
    assert result.returncode != 0, result
    return time.monotonic() - started


async def _password_ratio() -> float:
    known = await passwords.hash_password("correct horse battery")

    async def best(password_hash, network) -> float:
        times = []
        for n in range(5):
            started = time.perf_counter()
            await passwords.verify_password(password_hash, "wrong", f"192.0.{network}.{n}")
            times.append(time.perf_counter() - started)
        return min(times)

    await best(None, 1)  # the unknown email's hash is made when first needed
    return await best(None, 2) / await best(known, 3)


async def _busy_pool_seconds(database_url: str) -> tuple[float, float]:
    settings = Settings.from_env({"DATA_DIR": tempfile.gettempdir(), **BENCH_KEYS})
    async with TestClient(TestServer(create_app(settings, database_url))) as client:
        pool = client.app[POOL]
        held = [await pool.acquire() for _ in range(database.TURNS)]
        try:
            started = time.monotonic()
            response = await client.get("/readyz")
            readyz = time.monotonic() - started
            assert response.status == 503, response.status
            database.ACQUIRE_TIMEOUT, before = 0.3, database.ACQUIRE_TIMEOUT
            middleware.OUTAGES = middleware.OutageLog()
            try:
                headers = {"x-api-key": BENCH_KEYS["INTEGRATION_API_KEY"]}
                started = time.monotonic()
                response = await client.get("/api/v1/completions?limit=1", headers=headers)
                full = time.monotonic() - started
            finally:
                database.ACQUIRE_TIMEOUT = before
            assert response.status == 500, response.status
        finally:
            for conn in held:
                await pool.release(conn)
    return readyz, full


async def _measure() -> bool:
    met = report("PDF bomb: error after its 2 s limit", await _pdf_bomb_seconds(), 5, "s")
    seconds = await _silent_provider_seconds()
    met &= report("provider never answers: failed after 3 x 0.2 s", seconds, 2, "s")
    met &= report(
        "migrate, database unreachable: failed after", _command_seconds("migrate"), 30, "s"
    )
    met &= report("serve, database unreachable: failed after", _command_seconds("serve"), 30, "s")
    ratio = await _password_ratio()
    met &= report("unknown / known email, password check (best of 5)", ratio, 2, "x")
    met &= report("known / unknown email, password check (best of 5)", 1 / ratio, 2, "x")
    readyz, full = await _busy_pool_seconds(fresh_database("bench_bounds"))
    met &= report("/readyz, every turn's connection held: 503 after", readyz, 2, "s")
    met &= report("a request, no connection within 0.3 s: 500 after", full, 2, "s")
    return met


def main() -> bool:
    return asyncio.run(_measure())


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
