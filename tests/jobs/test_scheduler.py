"""Exactly-once runs across web processes, and `run-job` as an operator runs it."""

import asyncio
from datetime import UTC, datetime

import orjson
import pytest
import structlog
from aiohttp import web

from app.core import database
from app.core.database import pg_bin_dir
from app.core.keys import DATABASE_URL, POOL, SETTINGS
from app.web import create_app
from jobs import Job, JobFailed, scheduler
from jobs.scheduler import JobLocked, run_locked, scheduled_run
from tests.conftest import POOL_MODE, make_settings
from tests.core.test_cli import _assert_one_clear_line, run
from tests.waiting import until


def _counting_job(runs: list, seconds: float = 0.0, schedule: str = "0 0 1 1 *") -> Job:
    async def work(context):
        runs.append(context)
        await asyncio.sleep(seconds)

    return Job(name="counting", schedule=schedule, run=work)


async def _process(database_url) -> web.Application:
    """What a web process holds for its jobs: its own settings and its own pool."""
    app = web.Application()
    app[SETTINGS] = make_settings()
    app[POOL] = await database.create_pool(
        database_url, pool_mode=POOL_MODE, min_size=1, max_size=2
    )
    app[DATABASE_URL] = database_url
    return app


async def test_two_processes_firing_together_run_the_job_once(database_url, db):
    runs = []
    job = _counting_job(runs, seconds=0.3)
    first, second = await _process(database_url), await _process(database_url)
    try:
        with structlog.testing.capture_logs() as logs:
            await asyncio.gather(scheduled_run(job, first), scheduled_run(job, second))
    finally:
        await first[POOL].close()
        await second[POOL].close()
    assert len(runs) == 1
    (skipped,) = [e for e in logs if e["event"] == "job skipped"]
    assert skipped["job"] == "counting"
    assert "already running in another process" in skipped["reason"]
    assert await db.fetchval("SELECT count(*) FROM job_runs WHERE job = 'counting'") == 1


async def test_a_process_firing_late_skips_the_slot_already_run(job_context):
    runs = []
    job = _counting_job(runs)
    slot = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    await run_locked(job, job_context(), slot)
    with pytest.raises(JobLocked, match="already ran for 2026-11-22T09:00:00"):
        await run_locked(job, job_context(), slot)
    # The next day's slot is a new run.
    await run_locked(job, job_context(), slot.replace(day=23))
    assert len(runs) == 2


async def test_failed_job_logs_one_error_line_and_releases_the_lock(job_context, database_url):
    async def broken(context):
        raise JobFailed("backup failed: disk full")

    job = Job(name="broken", schedule="0 0 1 1 *", run=broken)
    app = await _process(database_url)
    try:
        with structlog.testing.capture_logs() as logs:
            await scheduled_run(job, app)
    finally:
        await app[POOL].close()
    (line,) = [e for e in logs if e["event"] == "job failed"]
    assert line == {
        "event": "job failed",
        "job": "broken",
        "error": "backup failed: disk full",
        "log_level": "error",
    }
    runs = []
    await run_locked(_counting_job(runs), job_context())
    assert len(runs) == 1


async def test_live_schedulers_in_two_processes_share_each_slot(
    aiohttp_client, database_url, db, monkeypatch
):
    runs = []
    # Every second (aiocron's sixth field); a slot is a minute, so at most one run a minute.
    every_second = _counting_job(runs, schedule="* * * * * *")
    monkeypatch.setattr(scheduler, "JOBS", {"counting": every_second})
    for _ in range(2):
        app = create_app(make_settings(), database_url)
        scheduler.setup(app)
        await aiohttp_client(app)
    with structlog.testing.capture_logs() as logs:
        # Both processes tried a slot: one ran it, the other skipped it.
        await until(
            lambda: runs and any(e["event"] == "job skipped" for e in logs),
            "a run in one process and a skip in the other",
        )
    slots = await db.fetchval("SELECT count(*) FROM job_runs WHERE job = 'counting'")
    assert 1 <= len(runs) == slots


def _cli_env(database_url, session_env, tmp_path, **extra):
    return {
        "DATABASE_URL": database_url,
        "BACKUP_DIR": str(tmp_path / "b"),
        **session_env,
        **extra,
    }


def test_run_job_backup_exits_zero(database_url, session_env, tmp_path):
    env = _cli_env(database_url, session_env, tmp_path, PATH=str(pg_bin_dir()))
    result = run("run-job", "backup", env=env)
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "b").glob("rider-ops-*.dump"))) == 1


def test_run_job_failure_is_one_clear_line(database_url, session_env, tmp_path):
    (tmp_path / "file").write_text("")  # BACKUP_DIR below a file cannot be created
    env = _cli_env(database_url, session_env, tmp_path, BACKUP_DIR=str(tmp_path / "file" / "b"))
    result = run("run-job", "backup", env=env)
    _assert_one_clear_line(result, f"error: backup failed: cannot create {tmp_path}/file/b")


async def test_run_job_while_another_process_runs_it(database_url, session_env, db, tmp_path):
    await db.execute("INSERT INTO job_runs (job, slot) VALUES ('backup', NULL)")
    env = _cli_env(database_url, session_env, tmp_path, PATH=str(pg_bin_dir()))
    result = await asyncio.to_thread(run, "run-job", "backup", env=env)
    _assert_one_clear_line(result, "job backup is already running in another process")
    assert not (tmp_path / "b").exists()


def test_run_job_reminders_logs_its_line_and_exits_zero(database_url):
    result = run("run-job", "reminders", env={"DATABASE_URL": database_url})
    assert result.returncode == 0, result.stderr
    (line,) = [
        event
        for event in map(orjson.loads, result.stdout.splitlines())
        if event["event"] == "reminders sent"
    ]
    assert (line["riders_reminded"], line["delivered_by_messaging"]) == (0, 0)


async def test_every_run_is_recorded_with_its_outcome_and_result(job_context, db):
    async def work(context):
        return "did 3 things"

    async def broken(context):
        raise JobFailed("backup failed: disk full")

    async def crashed(context):
        raise KeyError("x")

    slot = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    assert await run_locked(Job("counting", "0 0 1 1 *", work), job_context()) == ("did 3 things")
    await run_locked(Job("counting", "0 0 1 1 *", work), job_context(), slot)
    with pytest.raises(JobFailed):
        await run_locked(Job("broken", "0 0 1 1 *", broken), job_context())
    with pytest.raises(KeyError):
        await run_locked(Job("crashed", "0 0 1 1 *", crashed), job_context())
    rows = await db.fetch(
        "SELECT job, slot, outcome, result, finished_at IS NOT NULL AS finished"
        " FROM job_runs ORDER BY run_id"
    )
    assert [tuple(row) for row in rows] == [
        ("counting", None, "succeeded", "did 3 things", True),
        ("counting", slot, "succeeded", "did 3 things", True),
        ("broken", None, "failed", "backup failed: disk full", True),
        ("crashed", None, "failed", "crashed: unexpected KeyError, see the log", True),
    ]


async def test_a_run_whose_process_stopped_is_abandoned_and_the_job_runs(job_context, db):
    await db.execute(
        "INSERT INTO job_runs (job, slot, alive_at)"
        " VALUES ('counting', NULL, now() - interval '3 minutes')"
    )
    runs = []
    with structlog.testing.capture_logs() as logs:
        await run_locked(_counting_job(runs), job_context())
    assert len(runs) == 1
    rows = await db.fetch("SELECT outcome, result FROM job_runs ORDER BY run_id")
    assert [tuple(row) for row in rows] == [
        ("failed", "abandoned: its process stopped mid-run"),
        ("succeeded", None),
    ]
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["job run abandoned"]


async def test_a_long_run_keeps_its_claim_alive(job_context, db, monkeypatch):
    monkeypatch.setattr(scheduler, "HEARTBEAT_SECONDS", 0.2)
    runs = []
    finish = asyncio.Event()

    async def work(context):
        runs.append(context)
        await finish.wait()

    long_job = Job(name="counting", schedule="0 0 1 1 *", run=work)
    run = asyncio.create_task(run_locked(long_job, job_context()))
    try:
        await until(lambda: runs, "the run started")
        started = await db.fetchval("SELECT alive_at FROM job_runs")

        async def beat() -> bool:
            return await db.fetchval("SELECT alive_at FROM job_runs") > started

        await until(beat, "a heartbeat of the running job")
        with pytest.raises(JobLocked, match="already running in another process"):
            await run_locked(_counting_job(runs), job_context())
    finally:
        finish.set()
        await run
    assert len(runs) == 1
