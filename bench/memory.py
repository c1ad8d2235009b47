"""A `serve` process at rest: `python -m app serve` with one web process (WEB_CONCURRENCY=1)
on an empty migrated database, after /healthz answers and a few seconds of quiet. Measured:
the resident memory (VmRSS) of the web process (target at most 75 MB: the AI and PDF libraries
are imported only when first used) and, for comparison, of the supervising `serve` process.
"""

from __future__ import annotations

import time

from bench.harness import Server, _status_kb, fresh_database, report

TARGET_MB = 75
# Startup work (the pool's connections, the schedules, gc.freeze) is over by then.
SETTLE_SECONDS = 3


def main() -> bool:
    url = fresh_database("bench_memory")
    with Server(url, WEB_CONCURRENCY="1") as server:
        time.sleep(SETTLE_SECONDS)
        supervisor_mb = _status_kb(server.process.pid, "VmRSS") / 1024
        print(f"supervising serve process RSS, for comparison: {supervisor_mb:.1f} MB", flush=True)
        return report("web process RSS at rest", server.rss_mb(), TARGET_MB, "MB")


if __name__ == "__main__":
    main()
