"""The folder of the web processes' metric files, kept by serve's supervising process.

Each web process writes its values to files in PROMETHEUS_MULTIPROC_DIR (see
app/core/metrics.py); the supervisor makes the folder before it starts them and takes an exited
process's gauges out of it. Apart from metrics.py, whose imports (aiohttp, asyncpg) the
supervisor does without.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_DIR) or None


@contextlib.contextmanager
def multiprocess_files() -> Iterator[Path]:
    """For `serve`, before it starts a web process: the folder their values go to (the
    operator's PROMETHEUS_MULTIPROC_DIR, else a fresh one removed at the end), emptied of a
    previous run's files, whose counters would otherwise be added to this run's."""
    given = multiprocess_dir()
    path = Path(given) if given else Path(tempfile.mkdtemp(prefix="rider-ops-metrics-"))
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_DIR] = str(path)
    try:
        yield path
    finally:
        if given is None:
            shutil.rmtree(path, ignore_errors=True)


def process_exited(pid: int) -> None:
    """A web process has exited: its gauges leave the sums (its counters stay)."""
    # Imported when a web process first exits: the supervisor rests without the library.
    from prometheus_client.multiprocess import mark_process_dead

    mark_process_dead(pid, multiprocess_dir())
