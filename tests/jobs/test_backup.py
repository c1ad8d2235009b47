"""The backup job: a complete archive that restores, retention after success only."""

import asyncio
import hashlib
import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
import structlog

from app.core.database import pg_bin_dir
from jobs import JOBS, JobFailed, pg_clients
from jobs.archives import archive_name

backup = JOBS["backup"].run


def _archives(folder):
    return sorted(p.name for p in folder.iterdir())


def _row_counts(url):
    with psycopg.connect(url) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        return {
            table: conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables
        }


# Directly pg_dump reaches DATABASE_URL itself; through PgBouncer, DATABASE_DIRECT_URL.
@pytest.mark.direct
async def test_backup_restores_into_a_fresh_database(
    job_context, db, database_url, empty_database_url
):
    await db.execute(
        "INSERT INTO job_runs (job, slot, finished_at)"
        " SELECT 'demo', now() - g * interval '1 day', now() - g * interval '1 day'"
        " FROM generate_series(1, 25) g"
    )
    context = job_context()
    with structlog.testing.capture_logs() as logs:
        await backup(context)
    name, manifest = _archives(context.settings.backup_dir)
    assert name.startswith("rider-ops-") and name.endswith(".dump")
    assert manifest == name.removesuffix(".dump") + ".json"
    (line,) = [e for e in logs if e["event"] == "backup written"]
    assert line["archive"] == name and line["to"] == [str(context.settings.backup_dir)]

    # The restore documented in docs/backups.md.
    subprocess.run(
        [
            str(pg_bin_dir() / "pg_restore"),
            "--no-owner",
            "--no-privileges",
            f"--dbname={empty_database_url}",
            str(context.settings.backup_dir / name),
        ],
        check=True,
        capture_output=True,
    )
    counts = _row_counts(empty_database_url)
    # Every row, but the backup's own record, written after the dump.
    assert counts == {**_row_counts(database_url), "backups": 0}
    assert counts["job_runs"] == 25
    # The manifest recorded the same counts, and the archive's size and SHA-256.
    recorded = json.loads((context.settings.backup_dir / manifest).read_text())
    assert recorded["tables"] == counts
    archive = (context.settings.backup_dir / name).read_bytes()
    assert recorded["bytes"] == len(archive)
    assert recorded["sha256"] == hashlib.sha256(archive).hexdigest()


async def test_archives_older_than_14_days_are_deleted_after_a_backup(job_context):
    context = job_context()
    folder = context.settings.backup_dir
    folder.mkdir()
    now = datetime.now(UTC)
    kept = [archive_name(now - timedelta(days=d)) for d in (1, 13)]
    expired = [archive_name(now - timedelta(days=d)) for d in (15, 40)]
    unrelated = ["notes.txt", "rider-ops-old-copy.dump"]
    for name in kept + expired + unrelated:
        (folder / name).write_bytes(b"x")

    await backup(context)

    remaining = _archives(folder)
    assert not set(expired) & set(remaining)
    assert set(kept) | set(unrelated) <= set(remaining)
    # The new archive and its manifest.
    assert len(remaining) == len(kept) + len(unrelated) + 2


def fake_pg_dump(folder: Path, script: str, version: str = "18.6") -> None:
    """A pg_dump on PATH (and none bundled) that says `version` and then runs `script`."""
    program = folder / "pg_dump"
    program.parent.mkdir(exist_ok=True)
    program.write_text(
        f'#!/bin/sh\n[ "$1" = --version ] && echo "pg_dump (PostgreSQL) {version}" && exit 0\n'
        + script
    )
    program.chmod(0o755)


@pytest.fixture
def no_bundled_client(monkeypatch):
    monkeypatch.setattr(pg_clients, "pg_bin_dir", lambda: None)


async def test_missing_pg_dump_fails_and_keeps_old_archives(
    job_context, monkeypatch, no_bundled_client
):
    # No bundled client and no pg_dump on PATH.
    monkeypatch.setenv("PATH", "/nonexistent")
    context = job_context(DATABASE_URL="postgresql://rider@127.0.0.1:9/ops")
    folder = context.settings.backup_dir
    folder.mkdir()
    old = archive_name(datetime.now(UTC) - timedelta(days=30))
    (folder / old).write_bytes(b"x")

    with pytest.raises(JobFailed, match="pg_dump not found on PATH"):
        await backup(context)

    assert _archives(folder) == [old]


async def test_pg_dump_failure_names_the_reason(job_context):
    # The bundled pg_dump, pointed at a database it cannot reach.
    context = job_context(DATABASE_URL="postgresql://rider:s3cret@127.0.0.1:9/ops")
    folder = context.settings.backup_dir
    folder.mkdir()
    old = archive_name(datetime.now(UTC) - timedelta(days=30))
    (folder / old).write_bytes(b"x")

    with pytest.raises(JobFailed) as failure:
        await backup(context)

    message = str(failure.value)
    assert message.startswith("backup failed: pg_dump exited with 1:")
    assert "127.0.0.1" in message and "s3cret" not in message
    assert _archives(folder) == [old]


async def test_pg_dump_dying_midway_leaves_no_partial_file(
    job_context, monkeypatch, tmp_path, no_bundled_client
):
    # A pg_dump that writes part of the archive, then fails.
    fake_pg_dump(
        tmp_path / "bin",
        'for a; do case "$a" in --file=*) echo part > "${a#--file=}";; esac; done\n'
        'echo "pg_dump: error: could not write to output file: No space left on device" >&2\n'
        "exit 1\n",
    )
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    context = job_context(DATABASE_URL="postgresql://rider@127.0.0.1:9/ops")

    with pytest.raises(JobFailed, match="No space left on device"):
        await backup(context)

    # The listing includes dot files: the partial archive is gone too.
    assert _archives(context.settings.backup_dir) == []


async def test_a_cancelled_backup_stops_pg_dump(
    job_context, monkeypatch, tmp_path, no_bundled_client
):
    # A pg_dump that writes its pid, then takes forever.
    fake_pg_dump(tmp_path / "bin", f"echo $$ > {tmp_path}/pid\nexec /bin/sleep 60\n")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    run = asyncio.create_task(backup(job_context(DATABASE_URL="postgresql://rider@h/ops")))
    # The file exists before the shell has written the pid into it: wait for a whole line.
    deadline = asyncio.get_running_loop().time() + 30
    while not ((tmp_path / "pid").exists() and (tmp_path / "pid").read_text().endswith("\n")):
        assert asyncio.get_running_loop().time() < deadline, "pg_dump did not start"
        await asyncio.sleep(0.02)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    pid = int((tmp_path / "pid").read_text())
    assert not Path(f"/proc/{pid}").exists()


@pytest.mark.parametrize(
    ("on_path", "chosen"),
    [
        # The server is 18: a pg_dump 15 on PATH cannot dump it, the bundled 18 can.
        ("15.14", "bundled"),
        ("19.1", "path"),
    ],
)
async def test_the_newest_pg_dump_that_can_dump_the_server_is_used(
    job_context, monkeypatch, tmp_path, on_path, chosen
):
    fake_pg_dump(
        tmp_path / "bin",
        'for a; do case "$a" in --file=*) echo x > "${a#--file=}";; esac; done\n',
        version=on_path,
    )
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with structlog.testing.capture_logs() as logs:
        await backup(job_context())
    (line,) = [e for e in logs if e["event"] == "backup written"]
    if chosen == "bundled":
        assert line["pg_dump"] == str(pg_bin_dir() / "pg_dump")
        assert line["pg_dump_version"].startswith("18.") and line["server_major"] == 18
    else:
        assert (line["pg_dump"], line["pg_dump_version"]) == (
            str(tmp_path / "bin" / "pg_dump"),
            on_path,
        )


async def test_only_older_clients_fail_the_backup_with_their_versions(
    job_context, monkeypatch, tmp_path, no_bundled_client
):
    fake_pg_dump(tmp_path / "bin", "exit 0\n", version="15.14")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with pytest.raises(JobFailed, match=r"no pg_dump of version 18 or newer .*pg_dump 15\)"):
        await backup(job_context())


async def test_archives_and_their_folder_are_private(job_context):
    context = job_context()
    await backup(context)
    folder = context.settings.backup_dir
    archive, manifest = sorted(folder.iterdir())
    assert folder.stat().st_mode & 0o777 == 0o700
    assert archive.stat().st_mode & 0o777 == 0o600
    assert manifest.stat().st_mode & 0o777 == 0o600


async def test_an_existing_folder_is_made_private(job_context):
    context = job_context()
    context.settings.backup_dir.mkdir(mode=0o755)
    await backup(context)
    assert context.settings.backup_dir.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://rider:s3cret@127.0.0.1:9/ops",
        "postgresql://rider@127.0.0.1:9/ops?password=s3cret&sslmode=disable",
    ],
)
async def test_the_password_and_the_service_secrets_stay_off_pg_dump(
    job_context, monkeypatch, tmp_path, no_bundled_client, url
):
    # A pg_dump that writes down what it was given.
    fake_pg_dump(tmp_path / "bin", f'echo "$@" > {tmp_path}/args\n/usr/bin/env > {tmp_path}/env\n')
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("INTEGRATION_API_KEY", "do-not-pass-me")
    await backup(job_context(DATABASE_URL=url))
    args = (tmp_path / "args").read_text()
    assert "s3cret" not in args and "127.0.0.1:9/ops" in args
    env = (tmp_path / "env").read_text()
    assert "PGPASSWORD=s3cret" in env.splitlines()
    assert "do-not-pass-me" not in env


async def test_backup_through_a_transaction_pooler_needs_a_session_url(job_context, tmp_path):
    context = job_context(DATABASE_POOL_MODE="transaction", DATABASE_DIRECT_URL=None)
    with pytest.raises(JobFailed, match="set DATABASE_DIRECT_URL"):
        await backup(context)
    assert not context.settings.backup_dir.exists()
