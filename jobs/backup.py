"""Daily database backup: a `pg_dump` custom-format archive with its manifest, in BACKUP_DIR
and, with BACKUP_S3_URL, in an S3 store off the machine; each keeps 14 days (docs/backups.md).

The row counts of the manifest are taken in the snapshot pg_dump dumps (exported, then given
to it), so a restore must show exactly them. An archive is written under a temporary name and
renamed when `pg_dump` succeeded, so a file named like an archive is always complete. Old
archives are deleted only after the new one is everywhere it goes: a run of failures never
leaves the operator without the last good backups.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import structlog

from app.core import sql
from jobs import archives
from jobs.archives import Bucket, Folder
from jobs.job import Job, JobContext, JobFailed
from jobs.pg_clients import find_client, run

log = structlog.get_logger("jobs.backup")

SQL = sql.load(
    "jobs", "server_major", "export_snapshot", "table_rows", "no_idle_timeout", "record_backup"
)


async def dump_with_counts(pool, program: str, url: str, target: Path) -> dict[str, int]:
    """Dump the database to `target`; returns every table's row count in the dumped snapshot."""
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        # An exported snapshot lives as long as its transaction, which waits idle while
        # pg_dump runs: no idle timeout may end it.
        await conn.execute(SQL.no_idle_timeout)
        snapshot = await conn.fetchval(SQL.export_snapshot)
        counts = {row["table_name"]: row["row_count"] for row in await conn.fetch(SQL.table_rows)}
        await run(program, "--format=custom", f"--file={target}", f"--snapshot={snapshot}", url=url)
    return counts


async def _to_bucket(bucket: Bucket, work: Path, manifest: dict, now: datetime) -> list[str]:
    name = manifest["archive"]
    await bucket.upload(work, name)
    await bucket.write_manifest(name, manifest)
    deleted = archives.expired(await bucket.names(), now)
    await bucket.delete(deleted)
    return deleted


async def _backup(context: JobContext) -> str:
    settings = context.settings
    if settings.database_pool_mode == "transaction" and settings.database_direct_url is None:
        # pg_dump's session settings would land on the pooler's server sessions of others.
        raise JobFailed(
            "pg_dump needs a session of its own: set DATABASE_DIRECT_URL"
            " (DATABASE_POOL_MODE is transaction)"
        )
    started = time.monotonic()
    now = datetime.now(UTC)
    name = archives.archive_name(now)
    server_major = await context.pool.fetchval(SQL.server_major)
    client = await find_client("pg_dump", server_major)
    folder = Folder(settings.backup_dir) if settings.backup_dir is not None else None
    if folder is not None:
        folder.make()
        # A leading dot and another suffix: never mistaken for an archive, never deleted by age.
        work = folder.folder / f".{name}.partial"
        scratch = None
    else:
        # No local copy: pg_dump writes to a private temporary folder, removed after upload.
        scratch = Path(tempfile.mkdtemp(prefix="rider-ops-backup-"))
        work = scratch / name
    try:
        try:
            archives.private_file(work)
            url = context.database_url
            counts = await dump_with_counts(context.pool, client.program, url, work)
            size, sha256 = work.stat().st_size, await asyncio.to_thread(archives.file_sha256, work)
        except OSError as exc:
            raise JobFailed(f"cannot write {work}: {exc.strerror}") from None
        manifest = {
            "archive": name,
            "taken_at": now.isoformat(),
            "bytes": size,
            "sha256": sha256,
            "pg_dump": client.program,
            "pg_dump_version": client.version_text,
            "server_major": server_major,
            "tables": counts,
        }
        if folder is not None:
            work.rename(folder.folder / name)
            work = folder.folder / name
            await folder.write_manifest(name, manifest)
        deleted = []
        if settings.backup_s3 is not None:
            async with archives.s3_bucket(settings.backup_s3) as bucket:
                deleted = await _to_bucket(bucket, work, manifest, now)
        if folder is not None:
            local = archives.expired(await folder.names(), now)
            await folder.delete(local)
            deleted = sorted({*deleted, *local})
    finally:
        if folder is not None:
            (folder.folder / f".{name}.partial").unlink(missing_ok=True)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - started
    await context.pool.execute(SQL.record_backup, name, size, seconds)
    expired_archives = sum(1 for n in deleted if n.endswith(archives.SUFFIX))
    places = [str(p) for p in (folder, settings.backup_s3) if p is not None]
    log.info(
        "backup written",
        archive=name,
        to=places,
        bytes=size,
        seconds=round(seconds, 3),
        expired_deleted=expired_archives,
        pg_dump=client.program,
        pg_dump_version=client.version_text,
        server_major=server_major,
    )
    return (
        f"{name} written to {' and '.join(places)} ({size} bytes),"
        f" {expired_archives} expired deleted"
    )


async def backup(context: JobContext) -> str:
    try:
        return await _backup(context)
    except JobFailed as exc:
        raise JobFailed(f"backup failed: {exc}") from None


JOB = Job(name="backup", schedule="30 2 * * *", run=backup)
