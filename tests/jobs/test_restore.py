"""`python -m app restore latest|ARCHIVE --into DATABASE_URL`, as an operator runs it: from the
S3 store (or BACKUP_DIR) into an empty database, what it restored printed, and a target that
holds the service's tables refused with one line."""

import os
import re
import subprocess
import sys

import pytest

from jobs import JOBS
from tests.jobs.test_backup import _row_counts

backup = JOBS["backup"].run


def restore(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "app", "restore", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "LOG_FORMAT": "json", **env},
        timeout=120,
    )


def printed_counts(stdout: str) -> dict[str, int]:
    return {
        table: int(count) for table, count in re.findall(r"^  (\w+) (\d+)$", stdout, re.MULTILINE)
    }


@pytest.mark.direct
async def test_restore_latest_from_the_store_gives_the_same_rows(
    job_context, db, database_url, s3_store, empty_database_url, tmp_path
):
    await db.execute(
        "INSERT INTO job_runs (job, finished_at, outcome) SELECT 'demo', now(), 'succeeded'"
        " FROM generate_series(1, 7)"
    )
    await backup(job_context(BACKUP_S3_URL=s3_store.url, BACKUP_DIR=""))
    (archive,) = [k.rsplit("/", 1)[1] for k in await s3_store.keys() if k.endswith(".dump")]

    # A new machine: nothing local, only the store.
    result = restore(
        "latest",
        "--into",
        empty_database_url,
        env={"BACKUP_S3_URL": s3_store.url, "BACKUP_DIR": "", "DATA_DIR": str(tmp_path)},
    )

    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"restored {archive} from s3://{s3_store.bucket}/nightly/db/ into ")
    restored = _row_counts(empty_database_url)
    assert printed_counts(result.stdout) == restored
    assert restored == {**_row_counts(database_url), "backups": 0}
    assert restored["job_runs"] == 7
    assert f"{len(restored)} tables, {sum(restored.values())} rows" in first
    assert "at backup time" not in result.stdout  # every count as recorded


async def test_a_named_archive_from_the_folder(job_context, empty_database_url, tmp_path):
    context = job_context()
    await backup(context)
    await backup(context)  # a second, later one: the named one is restored, not the latest
    first = min(p.name for p in context.settings.backup_dir.glob("*.dump"))

    result = restore(
        first, "--into", empty_database_url, env={"BACKUP_DIR": str(context.settings.backup_dir)}
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"restored {first} from {context.settings.backup_dir} into ")
    assert printed_counts(result.stdout) == _row_counts(empty_database_url)


def _one_line(result) -> str:
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    return line


async def test_a_target_holding_the_services_tables_is_refused(
    job_context, database_url, s3_store, tmp_path
):
    await backup(job_context(BACKUP_S3_URL=s3_store.url))
    before = _row_counts(database_url)

    result = restore("latest", "--into", database_url, env={"BACKUP_S3_URL": s3_store.url})

    line = _one_line(result)
    assert line.startswith("error: restore failed: ")
    assert "is not empty (it holds _yoyo_log, _yoyo_migration, _yoyo_version and " in line
    assert line.endswith("restore into an empty database")
    assert _row_counts(database_url) == before


async def test_an_unknown_archive_and_an_empty_store_are_one_line_each(
    s3_store, empty_database_url, tmp_path
):
    env = {"BACKUP_S3_URL": s3_store.url}
    line = _one_line(restore("latest", "--into", empty_database_url, env=env))
    assert line == f"error: restore failed: no archive in s3://{s3_store.bucket}/nightly/db/"
    line = _one_line(
        restore("rider-ops-20260101T000000Z.dump", "--into", empty_database_url, env=env)
    )
    assert line.endswith(
        f"no archive rider-ops-20260101T000000Z.dump in s3://{s3_store.bucket}/nightly/db/"
    )
    line = _one_line(restore("backup.sql", "--into", empty_database_url, env=env))
    assert "not an archive name: 'backup.sql'" in line
    line = _one_line(restore("latest", "--into", "mysql://x/y", env=env))
    assert line == "error: --into must be a postgresql:// URL"
    assert _row_counts(empty_database_url) == {}
