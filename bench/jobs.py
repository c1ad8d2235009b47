"""Jobs at scale: 200,000 riders with 400,000 open and 200,000 completed assignments, built
set-based in SQL; then the reminders selection, whole reminders runs (not connected, and
against a fake provider on localhost that answers in 100 ms) and a backup.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from aiohttp import web

from app.core import database
from app.core.config import Settings
from app.core.database import pg_bin_dir
from bench.harness import ROOT, fresh_database, report, run_sql
from jobs import JOBS, JobContext
from jobs.reminders import ASSIGNMENTS_PER_RUN, SQL

RIDERS = 200_000
PATHS = 3
PAID_RIDERS = 500  # riders of the connected run: at 50 requests a second, about 10 s
PROVIDER_LATENCY = 0.1

PATH = "('00000000-0000-4000-9000-' || lpad(to_hex({n}), 12, '0'))::uuid"


def data_set(riders: int) -> list[str]:
    """`riders` riders (1 in 50 inactive), each with 2 open paths and 1 completed one;
    deadlines spread over 60 days around now."""
    return [
        f"""INSERT INTO paths (path_id, name, days_to_complete)
            SELECT {PATH.format(n="n")}, 'Path ' || n, 14 FROM generate_series(1, {PATHS}) n""",
        f"""INSERT INTO riders (rider_id, name, market, phone, status)
            SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, 'AE',
                   '+9715' || lpad(i::text, 8, '0'),
                   CASE WHEN i % 50 = 0 THEN 'inactive' ELSE 'active' END
            FROM generate_series(1, {riders}) i""",
        f"""INSERT INTO assignments (rider_id, path_id, why, assigned_at, deadline, completed_at)
            SELECT 'R' || lpad(i::text, 7, '0'), {PATH.format(n="n")}, 'rule',
                   now() - interval '30 days',
                   now() + ((i * 7919 + n * 104729) % 86400) * interval '1 minute'
                         - interval '30 days',
                   CASE WHEN n = {PATHS} THEN now() END
            FROM generate_series(1, {riders}) i CROSS JOIN generate_series(1, {PATHS}) n""",
    ]


async def _selection_ms(url: str) -> float:
    async with database.connect(url) as conn:
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            await conn.fetch(SQL.reminder_riders, ASSIGNMENTS_PER_RUN)
            best = min(best, time.perf_counter() - started)
    return best * 1000


def _run_job(url: str, name: str, **env: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "app", "run-job", name],
        cwd=ROOT,
        # An external database's pg_dump comes from PATH: the embedded server's matches it.
        env={"PATH": f"{pg_bin_dir()}:/usr/bin:/bin", "DATABASE_URL": url, **env},
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


async def _connected_run(url: str) -> tuple[float, int]:
    """A reminders run against a provider that takes PROVIDER_LATENCY to answer."""
    served = 0

    async def answer(request: web.Request) -> web.Response:
        nonlocal served
        served += 1
        await asyncio.sleep(PROVIDER_LATENCY)
        return web.json_response({"messages": [{"id": f"wamid.{served}"}]})

    app = web.Application()
    app.router.add_post("/v21.0/1/messages", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    settings = Settings.from_env(
        {
            "SESSION_SECRET": "bench-session-secret-0123",
            "MESSAGING_API_URL": f"http://127.0.0.1:{port}/v21.0",
            "MESSAGING_TOKEN": "bench",
            "MESSAGING_PHONE_NUMBER_ID": "1",
        }
    )
    pool = await database.create_pool(url, min_size=1, max_size=4)
    try:
        started = time.perf_counter()
        await JOBS["reminders"].run(JobContext(settings=settings, pool=pool, database_url=url))
        seconds = time.perf_counter() - started
    finally:
        await pool.close()
        await runner.cleanup()
    return seconds, served


def main() -> bool:
    url = fresh_database("bench_jobs")
    started = time.perf_counter()
    run_sql(url, *data_set(RIDERS))
    print(
        f"data set: {RIDERS} riders, {RIDERS * PATHS} assignments "
        f"in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    ok = True

    selection_ms = asyncio.run(_selection_ms(url))
    ok &= report("reminders selection (5,000 of 400,000 open)", selection_ms, 1000, "ms")

    seconds = _run_job(url, "reminders")
    ok &= report("run-job reminders, not connected (5,000 logged)", seconds, 10, "s")
    with psycopg.connect(url) as conn:
        recorded = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    print(f"  messages recorded: {recorded}", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        seconds = _run_job(url, "backup", BACKUP_DIR=folder)
        size_mb = sum(p.stat().st_size for p in Path(folder).iterdir()) / 1e6
    ok &= report(f"run-job backup ({size_mb:.0f} MB archive)", seconds, 60, "s")

    small = fresh_database("bench_jobs_send")
    run_sql(small, *data_set(PAID_RIDERS))
    seconds, served = asyncio.run(_connected_run(small))
    ok &= report(
        f"connected run, {served} sends at {PROVIDER_LATENCY * 1000:.0f} ms each",
        seconds,
        served / 50 + 5,
        "s",
    )
    ok &= report("send rate (the provider allows 80/s)", served / seconds, 50.5, "/s")
    return ok
