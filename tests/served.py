"""`python -m app serve` as a real process on a free local port, for tests that need one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from aiohttp.test_utils import unused_port

from tests.conftest import TEST_KEYS


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def serving(
    database_url: str,
    log_path: Path,
    *,
    port: int | None = None,
    args: tuple[str, ...] = (),
    **env: str,
):
    """Yield a running server on `database_url` (its `base` URL, its `log` so far); it is
    stopped with SIGTERM after the block. `port` (default: a free one) lets a test start it
    again where a browser left it; `args` follow `serve`; `env` adds or overrides environment
    variables."""
    port = port or unused_port()
    log = open(log_path, "ab")  # noqa: SIM115 - closed when the server has stopped
    environment = {
        **os.environ,
        **TEST_KEYS,
        "DATABASE_URL": database_url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "MIGRATE_ON_START": "0",
        **env,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *args],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    server = Served(base, process, log_path)
    try:
        deadline = time.monotonic() + 60
        while not _answers(f"{base}/api/openapi.json"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start:\n{server.log}")
            time.sleep(0.1)
        yield server
    finally:
        # The whole process group: with WEB_CONCURRENCY > 1 the workers go too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


class Served:
    def __init__(self, base: str, process: subprocess.Popen, log_path: Path):
        self.base = base
        self.process = process
        self._log_path = log_path

    @property
    def log(self) -> str:
        with open(self._log_path, encoding="utf-8", errors="replace") as file:
            return file.read()
