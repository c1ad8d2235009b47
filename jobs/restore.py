"""Restoring an archive into an empty database: `python -m app restore` and the restore drill.

The archive comes from the S3 store when BACKUP_S3_URL is set, else from BACKUP_DIR; pg_restore
is chosen as the backup's pg_dump is (jobs/pg_clients.py). A target that holds any table of the
service is refused before anything is written, and the restore is one transaction: a failed
one leaves the target as it was. See docs/backups.md#restore.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app.core import database, sql
from app.core.database_url import describe
from jobs import archives
from jobs.job import JobFailed
from jobs.pg_clients import find_client, run

SQL = sql.load("jobs", "server_major", "public_tables", "table_rows")

LATEST = "latest"


@dataclass(frozen=True)
class Restored:
    archive: str
    source: str
    # Every table's row count in the restored database.
    tables: dict[str, int]
    # The counts recorded at backup time (the archive's manifest); None without one.
    recorded: dict[str, int] | None

    def differences(self) -> list[str]:
        """Each table whose restored row count is not the recorded one."""
        recorded = self.recorded or {}
        return [
            f"{table}: {self.tables.get(table, 'missing')} restored, {count} at backup time"
            for table, count in sorted(recorded.items())
            if self.tables.get(table) != count
        ]


def _choose(names: list[str], which: str, source) -> str:
    if which == LATEST:
        chosen = archives.latest(names)
        if chosen is None:
            raise JobFailed(f"no archive in {source}")
        return chosen
    if archives.archive_time(which) is None or not which.endswith(archives.SUFFIX):
        raise JobFailed(f"not an archive name: {which!r} (rider-ops-YYYYMMDDTHHMMSSZ.dump)")
    if which not in names:
        raise JobFailed(f"no archive {which} in {source}")
    return which


async def _target(url: str, manifest: dict | None) -> int:
    """The target's server major version, once it is known to hold none of the service's
    tables (any table at all, for an archive without a manifest)."""
    async with database.connect(url) as conn:
        present = {row["table_name"] for row in await conn.fetch(SQL.public_tables)}
        server_major = await conn.fetchval(SQL.server_major)
    held = sorted(present & set(manifest["tables"])) if manifest else sorted(present)
    if held:
        shown = ", ".join(held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
        raise JobFailed(
            f"{describe(url)} is not empty (it holds {shown}): restore into an empty database"
        )
    return server_major


async def _check_download(path: Path, manifest: dict | None) -> None:
    if manifest is None:
        return
    sha256 = await asyncio.to_thread(archives.file_sha256, path)
    if sha256 != manifest["sha256"]:
        raise JobFailed(f"{path.name} does not match its manifest's SHA-256: not restored")


async def restore(settings, which: str, url: str) -> Restored:
    """Restore the archive `which` (a name, or LATEST) into the empty database at `url`."""
    async with archives.restore_source(settings) as source:
        archive = _choose(await source.names(), which, source)
        manifest = await source.read_manifest(archive)
        client = await find_client("pg_restore", await _target(url, manifest))
        with tempfile.TemporaryDirectory(prefix="rider-ops-restore-") as scratch:
            async with source.fetched(archive, Path(scratch)) as path:
                await _check_download(path, manifest)
                await run(
                    client.program,
                    "--no-owner",
                    "--no-privileges",
                    "--single-transaction",
                    "--exit-on-error",
                    str(path),
                    url=url,
                )
    async with database.connect(url) as conn:
        counts = {row["table_name"]: row["row_count"] for row in await conn.fetch(SQL.table_rows)}
    return Restored(
        archive=archive,
        source=str(source),
        tables=counts,
        recorded=manifest["tables"] if manifest else None,
    )
