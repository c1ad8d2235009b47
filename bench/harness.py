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
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

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
    server = _server_url()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(server)
    url = urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))
    migrations.apply(url)
    return url


def run_sql(url: str, *statements: str) -> None:
    """Run set-based statements that build a data set, then refresh planner statistics."""
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.execute("VACUUM ANALYZE")


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
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start within 30 s")

    def rss_mb(self) -> float:
        return self._status_kb("VmRSS") / 1024

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the server process since it started (VmHWM)."""
        return self._status_kb("VmHWM") / 1024

    def _status_kb(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise RuntimeError(f"{field} not found")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_) -> None:
        self.stop()


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
