"""A `serve` process at rest: `python -m app serve` with one web process (WEB_CONCURRENCY=1)
on an empty migrated database, after /healthz answers and a few seconds of quiet. Measured:
the resident memory (VmRSS) of the web process (target at most 75 MB: the AI and PDF libraries
are imported only when first used), of the supervising `serve` process (target at most 25 MB:
it imports neither aiohttp nor asyncpg nor structlog nor the app, see app/serve.py) and of the
whole process tree, as the peers' driver counts it (issue 30: under the 99 MB of the
single-process serve; the supervisor starts its processes with subprocess, so there is no
multiprocessing resource tracker in it).
"""

from __future__ import annotations

import time
from pathlib import Path

from bench.harness import Server, _status_kb, fresh_database, report

TARGET_MB = 75
SUPERVISOR_TARGET_MB = 25
TREE_TARGET_MB = 99
# Startup work (the pool's connections, the schedules, gc.freeze) is over by then.
SETTLE_SECONDS = 3


def main() -> bool:
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
                    sum(_status_kb(pid, "VmRSS") for pid in _tree(supervisor)) / 1024,
                    TREE_TARGET_MB,
                    "MB",
                ),
            ]
        )


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
