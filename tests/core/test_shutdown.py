"""Graceful shutdown: the PaaS restarts processes daily with SIGTERM."""

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request

import aiohttp
import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port

from app.core.config import ConfigError, Settings
from app.core.http import json_response
from app.core.keys import POOL
from app.web import create_app
from tests.conftest import make_settings


async def test_in_flight_request_finishes_before_the_pool_closes(database_url):
    app = create_app(make_settings(), database_url)
    arrived = asyncio.Event()

    async def slow(_request):
        arrived.set()
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
        await asyncio.wait_for(arrived.wait(), timeout=30)  # in flight
        await runner.cleanup()
        response = await in_flight
        assert response.status == 200
        assert await response.json() == {"answer": 42}
    assert app[POOL].is_closing()


def test_serve_exits_cleanly_on_sigterm(database_url):
    port = unused_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "HOST": "127.0.0.1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        _listening(port)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
    assert '"event":"serving"' in server.stdout.read()


def _listening(port: int, seconds: float = 30) -> None:
    """Until a web process answers (the port itself is open from the start)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_web_concurrency_serves_from_that_many_processes_and_stops_them_all(database_url):
    port = unused_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": "2",
        "INTEGRATION_API_KEY": "k",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        _listening(port)
        serving = []
        while len(serving) < 2 and (line := server.stdout.readline()):
            if '"event":"serving"' in line:
                serving.append(line)
        pids = {orjson.loads(line)["pid"] for line in serving}
        # Two web processes; the process that was started supervises them and serves nothing.
        assert len(pids) == 2 and server.pid not in pids
        for _ in range(20):
            status = urllib.request.urlopen(
                urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/completions?limit=1",
                    headers={"x-api-key": "k"},
                )
            ).status
            assert status == 200
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0
        for worker in pids:
            assert not os.path.exists(f"/proc/{worker}") or _is_zombie(worker)
    finally:
        server.kill()


def _is_zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/status") as status:
        return any(line.startswith("State:") and "Z" in line for line in status)


def test_web_concurrency_must_be_a_small_number():
    for bad in ("0", "two", "\u0662", "65"):
        with pytest.raises(ConfigError, match="WEB_CONCURRENCY"):
            Settings.from_env({"WEB_CONCURRENCY": bad})
    assert Settings.from_env({}).web_concurrency == 1


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_web_process_that_dies_stops_the_service_with_exit_status_1(
    database_url, tmp_path, processes
):
    from tests.served import serving

    with serving(
        database_url, tmp_path / "serve.log", WEB_CONCURRENCY=processes, MEMORY_LIMIT_MB="0"
    ) as server:
        deadline = time.monotonic() + 30
        while len(serving_pids := _serving_pids(server.log)) < int(processes):
            assert time.monotonic() < deadline, server.log
            time.sleep(0.1)
        os.kill(min(serving_pids), signal.SIGKILL)
        assert server.process.wait(timeout=40) == 1
    assert '"event":"worker stopped"' in server.log
    assert "error: a web process or the worker stopped on its own" in server.log


def _serving_pids(log: str) -> set[int]:
    return {orjson.loads(line)["pid"] for line in log.splitlines() if '"event":"serving"' in line}


def _until_the_upsert_waits_for_a_lock(database_url: str, seconds: float = 20.0) -> None:
    """From a connection of its own: pg_stat_activity is a snapshot taken once per
    transaction, and through PgBouncer other server connections may wait on locks too. The
    statement is known by its first line: pg_stat_activity keeps a query's first kilobyte,
    the SQL file's heading."""
    import psycopg

    deadline = time.monotonic() + seconds
    with psycopg.connect(database_url, autocommit=True) as probe:
        while not probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database() AND query LIKE '-- Creates or updates riders,%'"
        ).fetchone()[0]:
            assert time.monotonic() < deadline, "the request never reached the row lock"
            time.sleep(0.05)


def test_sigterm_to_every_process_lets_an_in_flight_request_finish(database_url, tmp_path):
    """A platform may signal every process of the service (Heroku does) and the supervisor
    signals its web processes too: the second SIGTERM must not cut the first one's drain."""
    import concurrent.futures

    import psycopg

    from tests.conftest import TEST_KEYS
    from tests.served import serving

    rider = {"riderId": "R-1", "name": "Sam", "market": "AE"}
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'Sam', 'AE')")
    with serving(database_url, tmp_path / "serve.log") as server:
        request = urllib.request.Request(
            f"{server.base}/api/v1/riders",
            data=orjson.dumps({"riders": [rider]}),
            headers={
                "x-api-key": TEST_KEYS["INTEGRATION_API_KEY"],
                "Content-Type": "application/json",
            },
        )
        with (
            psycopg.connect(database_url) as lock,
            concurrent.futures.ThreadPoolExecutor(1) as pool,
        ):
            lock.execute("SELECT FROM riders WHERE rider_id = 'R-1' FOR UPDATE")
            in_flight = pool.submit(lambda: urllib.request.urlopen(request, timeout=30).status)
            _until_the_upsert_waits_for_a_lock(database_url)  # in flight, at the row lock
            os.killpg(server.process.pid, signal.SIGTERM)
            time.sleep(1.5)
            lock.rollback()
            assert in_flight.result() == 200
        assert server.process.wait(timeout=40) == 0


def test_web_processes_stop_by_themselves_when_their_supervisor_is_killed(database_url, tmp_path):
    from tests.served import serving

    with serving(database_url, tmp_path / "serve.log", WEB_CONCURRENCY="2") as server:
        deadline = time.monotonic() + 30
        while len(pids := _serving_pids(server.log)) < 2:
            assert time.monotonic() < deadline, server.log
            time.sleep(0.1)
        os.kill(server.process.pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while any(os.path.exists(f"/proc/{pid}") and not _is_zombie(pid) for pid in pids):
            assert time.monotonic() < deadline, "a web process serves on without its supervisor"
            time.sleep(0.1)


TWO_SIGTERMS = """
import asyncio, os, signal
from aiohttp import web
from app.web_process import _stop_on_first_sigterm

async def started():
    await _stop_on_first_sigterm(None)
    os.kill(os.getpid(), signal.SIGTERM)  # the platform's
    os.kill(os.getpid(), signal.SIGTERM)  # the supervisor's, before the loop wakes
    await asyncio.sleep(0.2)

loop = asyncio.new_event_loop()
exits = 0
for step in (started(), asyncio.sleep(0.2)):  # serving, then the drain (aiohttp's cleanup)
    try:
        loop.run_until_complete(step)
    except web.GracefulExit:
        exits += 1
print(exits)
"""


def test_two_sigterms_before_the_loop_wakes_stop_a_web_process_once():
    """Each SIGTERM that reaches a busy web process before its loop wakes queues a call of the
    handler: only the first may end serving, or the second ends the drain of the first."""
    done = subprocess.run(
        [sys.executable, "-c", TWO_SIGTERMS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"
