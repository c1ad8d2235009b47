"""The worker (app/worker_process.py): `serve` runs one beside its web processes unless
`--no-worker`, and `python -m app worker` runs it alone, as the Procfile's worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import psycopg

from tests.served import serving

TIMED_OUT_JOB = (
    "INSERT INTO ai_jobs (kind, started_at) VALUES ('generation', now() - interval '1 hour')"
    " RETURNING job_id"
)


def _children(pid: int) -> dict[int, str]:
    """The processes `pid` started, each with its command line."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            found[int(child)] = command.decode()
    return found


def _pids_of(log: str, event: str) -> set[int]:
    return {orjson.loads(line)["pid"] for line in log.splitlines() if f'"event":"{event}"' in line}


def _wait_for(condition, what: str, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return value


def _job_status(database_url: str, job_id) -> str:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT status FROM ai_jobs WHERE job_id = %s", (job_id,)).fetchone()[0]


def _timed_out_job(database_url: str):
    with psycopg.connect(database_url) as conn:
        return conn.execute(TIMED_OUT_JOB).fetchone()[0]


def test_serve_runs_one_worker_beside_its_web_processes(database_url, tmp_path):
    job_id = _timed_out_job(database_url)
    with serving(database_url, tmp_path / "serve.log", WEB_CONCURRENCY="2") as server:
        web = _wait_for(lambda: len(_pids_of(server.log, "serving")) == 2, server.log)
        working = _wait_for(lambda: _pids_of(server.log, "working"), server.log)
        assert web and len(working) == 1
        commands = list(_children(server.process.pid).values())
        assert sum("-m app.web_process" in command for command in commands) == 2
        assert sum("-m app.worker_process" in command for command in commands) == 1
        # The worker's AI sweep fails the job that ran out of time.
        _wait_for(lambda: _job_status(database_url, job_id) == "failed", "not swept")


def test_serve_no_worker_runs_web_processes_only(database_url, tmp_path):
    with serving(database_url, tmp_path / "serve.log", args=("--no-worker",)) as server:
        _wait_for(lambda: _pids_of(server.log, "serving"), server.log)
        # The supervisor starts every process before it watches any: all are there now.
        commands = list(_children(server.process.pid).values())
        assert len(commands) == 1 and "app.web_process" in commands[0]
    assert '"event":"working"' not in server.log


def test_a_worker_that_dies_stops_the_service_with_exit_status_1(database_url, tmp_path):
    with serving(database_url, tmp_path / "serve.log", MEMORY_LIMIT_MB="0") as server:
        (worker,) = _wait_for(lambda: _pids_of(server.log, "working"), server.log)
        os.kill(worker, signal.SIGKILL)
        assert server.process.wait(timeout=40) == 1
    assert "error: a web process or the worker stopped on its own" in server.log


def test_python_m_app_worker_works_until_sigterm(database_url, tmp_path):
    job_id = _timed_out_job(database_url)
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "worker"],
            env={**os.environ, "DATABASE_URL": database_url, "LOG_FORMAT": "json"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for(lambda: _job_status(database_url, job_id) == "failed", log_path.read_text())
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=40) == 0
    finally:
        process.kill()
    output = log_path.read_text()
    assert '"event":"working"' in output and '"event":"worker stopped by signal"' in output


def test_python_m_app_worker_with_unreachable_database_is_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "app", "worker"],
        env={**os.environ, "DATABASE_URL": "postgresql://u:p@127.0.0.1:9/ops"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("error: cannot connect to database")
