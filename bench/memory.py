"""A `serve` process at rest: `python -m app serve` with one web process (WEB_CONCURRENCY=1)
on an empty migrated database, after /healthz answers and a few seconds of quiet. Measured:
the resident memory (VmRSS) of the web process (target at most 75 MB: the AI and PDF libraries
are imported only when first used), of the supervising `serve` process (target at most 25 MB:
it imports neither aiohttp nor asyncpg nor structlog nor the app, see app/serve.py) and of the
whole process tree, as the peers' driver counts it (issue 30: under the 99 MB of the
single-process serve; the supervisor starts its processes with subprocess, so there is no
multiprocessing resource tracker in it).

Then the same tree while it streams the full checks list (GET /api/v2/checks) of
STREAMED_CHECKS checks of bench/checks.py's data set: its peak, sampled every 5 ms as the
peers' driver does (issue 30: the single-process service peaked at 99 MB there), and the
stream's rate beside it (bench/checks.py's target).
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from bench.checks import QUESTIONS_SQL, _stream, checks_sql
from bench.harness import Server, _status_kb, fresh_database, report, run_sql

TARGET_MB = 75
SUPERVISOR_TARGET_MB = 25
TREE_TARGET_MB = 99
# Startup work (the pool's connections, the schedules, gc.freeze) is over by then.
SETTLE_SECONDS = 3
STREAMED_CHECKS = 500_000
SAMPLE_SECONDS = 0.005


def main() -> bool:
    return _at_rest() & _streaming()


def _at_rest() -> bool:
    url = fresh_database("bench_memory")
    with Server(url, WEB_CONCURRENCY="1") as server:
        time.sleep(SETTLE_SECONDS)
        supervisor = server.process.pid
        return all(
            [
                report("web process RSS at rest", server.rss_mb(), TARGET_MB, "MB"),
                report(
                    "supervising serve process RSS at rest",
                    _status_kb(supervisor, "VmRSS") / 1024,
                    SUPERVISOR_TARGET_MB,
                    "MB",
                ),
                report(
                    "serve's process tree RSS at rest (sum)",
                    _tree_rss_mb(_tree(supervisor)),
                    TREE_TARGET_MB,
                    "MB",
                ),
            ]
        )


def _streaming() -> bool:
    url = fresh_database("bench_memory_stream")
    run_sql(url, QUESTIONS_SQL, checks_sql(STREAMED_CHECKS))
    with Server(url, WEB_CONCURRENCY="1") as server:
        time.sleep(SETTLE_SECONDS)
        tree = _tree(server.process.pid)
        before = _tree_rss_mb(tree)
        with _PeakSampler(tree) as sampler:
            count, _, seconds = asyncio.run(_stream(f"{server.url}/api/v2/checks"))
        assert count == STREAMED_CHECKS, count
        print(f"serve's process tree RSS before the stream (sum): {before:.1f} MB")
        return report(
            f"tree peak RSS streaming {count:,} checks (sum, every 5 ms)",
            sampler.peak_mb,
            TREE_TARGET_MB,
            "MB",
        ) & report("its stream's rate", count / seconds, 50_000, "checks/s", higher_is_better=True)


class _PeakSampler(threading.Thread):
    """The highest sum of the processes' VmRSS, read every SAMPLE_SECONDS while in use."""

    def __init__(self, pids: list[int]):
        super().__init__(daemon=True)
        self.pids = pids
        self.peak_mb = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(SAMPLE_SECONDS):
            self.peak_mb = max(self.peak_mb, _tree_rss_mb(self.pids))

    def __enter__(self) -> _PeakSampler:
        self.start()
        return self

    def __exit__(self, *_) -> None:
        self.done.set()
        self.join()


def _tree_rss_mb(pids: list[int]) -> float:
    return sum(_status_kb(pid, "VmRSS") for pid in pids) / 1024


def _tree(root: int) -> list[int]:
    """`root` and every process descended from it."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree = [root]
    for pid in tree:
        tree.extend(child for child, parent in parents.items() if parent == pid)
    return tree


if __name__ == "__main__":
    main()
