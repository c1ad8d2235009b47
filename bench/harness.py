"""What every benchmark needs: a database of its own, the real server in a subprocess, and
figures printed with their targets.

Each benchmark builds its data set itself, set-based, in a database named after it on the
embedded server under `var/bench` (or on `BENCH_DATABASE_URL`'s server when that is set).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg

from app.core import database, migrations

ROOT = Path(__file__).resolve().parents[1]
BENCH_KEYS = {
    "INTEGRATION_API_KEY": "bench-integration-key",
    "CHECKS_API_KEY": "bench-checks-key",
    "SHOP_IMPORT_API_KEY": "bench-import-key",
    "SHOP_ORDERS_API_KEY": "bench-orders-key",
    # PINs are hashed with the pepper, as in production.
    "PIN_PEPPER": "bench-pin-pepper-0123456789",
}


def _server_url() -> str:
    if url := os.environ.get("BENCH_DATABASE_URL"):
        return url
    return database.embedded_url(ROOT / "var" / "bench")


def fresh_database(name: str) -> str:
    """Drop and re-create database `name`, migrate it, and return its URL."""
    url = _recreate(name, "")
    migrations.apply(url)
    return url


def copy_database(source: str, name: str) -> str:
    """Drop database `name`, re-create it as a copy of database `source` (which nobody may be
    connected to), and return its URL."""
    return _recreate(name, f" TEMPLATE {source} STRATEGY FILE_COPY")


def _recreate(name: str, options: str) -> str:
    server = _server_url()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}{options}")
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))


def run_sql(url: str, *statements: str) -> None:
    """Run set-based statements that build a data set, then refresh planner statistics and
    write the data set's pages out, so that neither autovacuum nor a checkpoint of the data
    set's own writes lands in a measured request."""
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.execute("VACUUM ANALYZE")
        conn.execute("CHECKPOINT")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`python -m app serve` on a free local port, against `database_url`."""

    def __init__(self, database_url: str, **env: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve"],
            cwd=ROOT,
            env={
                **os.environ,
                **BENCH_KEYS,
                "DATABASE_URL": database_url,
                "HOST": "127.0.0.1",
                "PORT": str(self.port),
                "MIGRATE_ON_START": "0",
                **env,
            },
            stdout=subprocess.DEVNULL,
        )
        # The port opens before a web process serves: wait for an answer.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start within 60 s")

    def web_pids(self) -> list[int]:
        """The web processes (`serve` itself supervises them and serves nothing)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if parent == self.process.pid and b"app.web_process" in command:
                pids.append(int(entry.name))
        return sorted(pids)

    def rss_mb(self) -> float:
        """Resident memory of the largest web process."""
        return max(_status_kb(pid, "VmRSS") for pid in self.web_pids()) / 1024

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the largest web process since it started (VmHWM)."""
        return max(_status_kb(pid, "VmHWM") for pid in self.web_pids()) / 1024

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_) -> None:
        self.stop()


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def _database_processes() -> list[psutil.Process]:
    pid = int((ROOT / "var" / "bench" / "pgdata" / "postmaster.pid").read_text().split()[0])
    postmaster = psutil.Process(pid)
    return [postmaster, *postmaster.children()]


class CpuMeter:
    """CPU seconds of the web processes and of the database's processes over a window."""

    def __init__(self, server: Server):
        # The web processes: `serve` itself only supervises them.
        self.web = [psutil.Process(pid) for pid in server.web_pids()]

    def read(self) -> tuple[float, dict[int, float]]:
        return sum(map(_cpu_seconds, self.web)), {
            p.pid: _cpu_seconds(p) for p in _database_processes() if p.is_running()
        }

    @staticmethod
    def spent(before, after) -> tuple[float, float]:
        (app_before, db_before), (app_after, db_after) = before, after
        database = sum(t - db_before.get(pid, 0.0) for pid, t in db_after.items())
        return app_after - app_before, database


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not found")


def report(name: str, value: float, target: float, unit: str, higher_is_better=False) -> bool:
    met = value >= target if higher_is_better else value <= target
    sign = "≥" if higher_is_better else "≤"
    print(
        f"{name:<58} {value:>10.1f} {unit:<9} target {sign} {target:g} {unit:<9} "
        f"{'ok' if met else 'MISSED'}",
        flush=True,
    )
    return met


def best_of(runs: int, measure) -> float:
    """The best of `runs` measurements (in the unit `measure` returns)."""
    return min(measure() for _ in range(runs))
