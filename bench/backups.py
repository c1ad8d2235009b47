"""Backups at scale (`python -m bench backups [COMPLETIONS]`): the training data set (300,000
riders, 2,000,000 completions by default; bench/training.py builds it), then a backup into an
S3 store on loopback with no local copy (`run-job backup`, BACKUP_DIR empty) and a restore of
it into an empty database (`restore latest`), each as the operator runs it: wall time and the
peak resident memory of each process of the run (the command's, pg_dump's or pg_restore's;
the archive streams through them in parts, so it should not grow with the archive).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time

import psutil
import psycopg

from bench import training
from bench.harness import ROOT, _status_kb, fresh_database, report, run_sql
from jobs import archives
from tests.jobs import s3


def _peaks(process: psutil.Process, peaks: dict[str, int]) -> None:
    """Each process of the tree's peak resident memory so far (VmHWM), by program name."""
    for member in [process, *process.children(recursive=True)]:
        try:
            name = member.name()
            peaks[name] = max(peaks.get(name, 0), _status_kb(member.pid, "VmHWM"))
        except (psutil.Error, OSError, RuntimeError):
            continue  # it ended meanwhile


def _timed(*args: str, env: dict[str, str]) -> tuple[float, dict[str, float], str]:
    """Run `python -m app ARGS`: (seconds, peak RSS in MB of each program it ran, stdout).

    The peaks are each process's own high-water mark, read every 50 ms while it runs (a
    child's ru_maxrss would count the pages it shared with this process when it was forked).
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "app", *args],
            cwd=ROOT,
            env={**os.environ, "LOG_FORMAT": "json", **env},
            stdout=out,
            stderr=err,
        )
        peaks: dict[str, int] = {}
        watched = psutil.Process(process.pid)
        while process.poll() is None:
            _peaks(watched, peaks)
            time.sleep(0.05)
        seconds = time.perf_counter() - started
        out.seek(0), err.seek(0)
        assert process.returncode == 0, err.read()
        return seconds, {name: kb / 1024 for name, kb in peaks.items()}, out.read()


def _empty_database(url: str, name: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return url.replace("/bench_backups?", f"/{name}?")


def _report_peaks(peaks: dict[str, float]) -> bool:
    return all(report(f"  peak RSS of {name}", mb, 300, "MB") for name, mb in sorted(peaks.items()))


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
        seconds, peaks, _ = _timed("run-job", "backup", env=env)
        (archive,) = [k for k in asyncio.run(store.keys()) if k.endswith(archives.SUFFIX)]
        size_mb = asyncio.run(store.head(archive))["ContentLength"] / 1e6
        parts = archives.PART_BYTES >> 20
        name = f"run-job backup to S3 ({size_mb:.0f} MB archive, {parts} MiB parts)"
        ok &= report(name, seconds, 600, "s")
        ok &= _report_peaks(peaks)
        target = _empty_database(url, "bench_backups_restored")
        seconds, peaks, out = _timed("restore", "latest", "--into", target, env=env)
        ok &= report("restore latest from S3 into an empty database", seconds, 1200, "s")
        ok &= _report_peaks(peaks)
        print("  " + out.splitlines()[0])
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(int(sys.argv[1]) if len(sys.argv) > 1 else training.RESULTS) else 1)
