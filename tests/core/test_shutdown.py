"""Graceful shutdown: the PaaS restarts processes daily with SIGTERM."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import aiohttp
from aiohttp import web
from aiohttp.test_utils import unused_port

from app.core.http import json_response
from app.core.keys import POOL
from app.web import create_app
from tests.conftest import make_settings


async def test_in_flight_request_finishes_before_the_pool_closes(database_url):
    app = create_app(make_settings(), database_url)

    async def slow(_request):
        await asyncio.sleep(0.5)
        return json_response({"answer": await app[POOL].fetchval("SELECT 42")})

    app.router.add_get("/api/v1/slow", slow)
    runner = web.AppRunner(app, shutdown_timeout=5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    async with aiohttp.ClientSession() as session:
        in_flight = asyncio.create_task(session.get(f"http://127.0.0.1:{port}/api/v1/slow"))
        await asyncio.sleep(0.1)
        await runner.cleanup()
        response = await in_flight
        assert response.status == 200
        assert await response.json() == {"answer": 42}
    assert app[POOL]._closed


def test_serve_exits_cleanly_on_sigterm(database_url):
    port = unused_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "HOST": "127.0.0.1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start")
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
    assert '"event":"serving"' in server.stdout.read()
