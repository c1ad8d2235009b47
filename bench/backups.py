"""Backups at scale (`python -m bench backups [COMPLETIONS]`): the training data set (300,000
riders, 2,000,000 completions by default; bench/training.py builds it), then a backup into an
S3 store on loopback with no local copy (`run-job backup`, BACKUP_DIR empty) and a restore of
it into an empty database (`restore latest`), each as the operator runs it: wall time and the
peak resident memory of the largest process of the run (the service's, pg_dump's or
pg_restore's; the archive streams through either in parts, so it should not grow with it).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time

import psycopg

from bench import training
from bench.harness import ROOT, fresh_database, report, run_sql
from jobs import archives
from tests.jobs import s3


def _timed(*args: str, env: dict[str, str]) -> tuple[float, float, str]:
    """Run `python -m app ARGS`: (seconds, peak RSS in MB of its largest process, stdout)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "app", *args],
            cwd=ROOT,
            env={**os.environ, "LOG_FORMAT": "json", **env},
            stdout=out,
            stderr=err,
        )
        # wait4's usage: the command's, with the largest of the processes it waited for
        # (pg_dump, pg_restore) in ru_maxrss.
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        assert process.returncode == 0, err.read()
        return seconds, usage.ru_maxrss / 1024, out.read()


def _empty_database(url: str, name: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return url.replace("/bench_backups?", f"/{name}?")


def main(completions: int = training.RESULTS) -> bool:
    url = fresh_database("bench_backups")
    # The training data set with fewer completions when asked (a quicker run).
    results = training.RESULTS_SET.replace(f"{training.RESULTS - 1})", f"{completions - 1})")
    started = time.perf_counter()
    run_sql(url, *training.DATA_SET)
    training._insert_then_index(url, "course_results", results)
    run_sql(url)
    print(f"data set: {completions:,} completions in {time.perf_counter() - started:.0f} s")
    ok = True
    with s3.running() as endpoint:
        store = asyncio.run(s3.new_store(endpoint))
        env = {"DATABASE_URL": url, "BACKUP_DIR": "", "BACKUP_S3_URL": store.url}
        seconds, peak_mb, _ = _timed("run-job", "backup", env=env)
        (archive,) = [k for k in asyncio.run(store.keys()) if k.endswith(archives.SUFFIX)]
        size_mb = asyncio.run(store.head(archive))["ContentLength"] / 1e6
        parts = archives.PART_BYTES >> 20
        name = f"run-job backup to S3 ({size_mb:.0f} MB archive, {parts} MiB parts)"
        ok &= report(name, seconds, 600, "s")
        ok &= report("  peak RSS of its largest process", peak_mb, 300, "MB")
        target = _empty_database(url, "bench_backups_restored")
        seconds, peak_mb, out = _timed("restore", "latest", "--into", target, env=env)
        ok &= report("restore latest from S3 into an empty database", seconds, 1200, "s")
        ok &= report("  peak RSS of its largest process", peak_mb, 300, "MB")
        print("  " + out.splitlines()[0])
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(int(sys.argv[1]) if len(sys.argv) > 1 else training.RESULTS) else 1)
