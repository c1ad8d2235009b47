"""Daily database backup: a `pg_dump` custom-format archive in BACKUP_DIR, kept for 14 days.

An archive is written under a temporary name and renamed when `pg_dump` succeeded, so a file
named like an archive is always complete. Old archives are deleted only after a new one was
written: a run of failures never leaves the operator without the last good backups.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import structlog

from app.core.database import pg_bin_dir
from jobs.registry import JOBS, Job, JobContext, JobFailed

log = structlog.get_logger("jobs.backup")

RETENTION = timedelta(days=14)
PREFIX = "rider-ops-"
SUFFIX = ".dump"
STAMP = "%Y%m%dT%H%M%SZ"
# pg_dump's last lines say why it failed; more would flood the one-line error.
ERROR_CHARS = 300


def archive_name(at: datetime) -> str:
    return f"{PREFIX}{at.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def archive_time(name: str) -> datetime | None:
    """When the archive `name` was taken; None for a file that is not one of ours."""
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(name[len(PREFIX) : -len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def pg_dump_program(external_database: bool) -> str:
    """The embedded server's pg_dump, or the one on PATH for an external database.

    The embedded server's own client matches its version exactly; for an external server the
    operator installs the client that matches it.
    """
    if external_database:
        program = shutil.which("pg_dump")
        if program is None:
            raise JobFailed(
                "backup failed: pg_dump not found on PATH (install the PostgreSQL client)"
            )
        return program
    folder = pg_bin_dir()
    if folder is None:
        raise JobFailed("backup failed: the embedded PostgreSQL has no pg_dump")
    return str(folder / "pg_dump")


def libpq_target(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that carries the password.

    A password on the command line would be visible to every user of the machine (`ps`).
    """
    parts = urlsplit(url)
    env = {}
    if parts.password:
        env["PGPASSWORD"] = unquote(parts.password)
    netloc = parts.netloc.rpartition("@")[2]
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")), env


async def dump(program: str, url: str, target: Path) -> None:
    """Write a custom-format archive of the database at `url` to `target`."""
    dbname, env = libpq_target(url)
    try:
        process = await asyncio.create_subprocess_exec(
            program,
            "--format=custom",
            f"--file={target}",
            f"--dbname={dbname}",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, **env},
        )
    except OSError as exc:
        raise JobFailed(f"backup failed: cannot run {program}: {exc.strerror}") from None
    try:
        _, stderr = await process.communicate()
    except asyncio.CancelledError:
        # The server is shutting down: pg_dump must not outlive it, writing an orphan file.
        process.kill()
        await process.wait()
        raise
    if process.returncode != 0:
        reason = " ".join(stderr.decode(errors="replace").split())[-ERROR_CHARS:]
        raise JobFailed(f"backup failed: pg_dump exited with {process.returncode}: {reason}")


def delete_expired(folder: Path, now: datetime) -> list[str]:
    """Delete our archives taken more than RETENTION before `now`; returns their names."""
    deleted = []
    for path in sorted(folder.iterdir()):
        taken = archive_time(path.name)
        if taken is not None and now - taken > RETENTION and path.is_file():
            path.unlink()
            deleted.append(path.name)
    return deleted


async def backup(context: JobContext) -> None:
    folder = context.settings.backup_dir
    now = datetime.now(UTC)
    program = pg_dump_program(external_database=context.settings.database_url is not None)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JobFailed(f"backup failed: cannot create {folder}: {exc.strerror}") from None
    final = folder / archive_name(now)
    # A leading dot and another suffix: never mistaken for an archive, never deleted by age.
    partial = folder / f".{final.name}.partial"
    try:
        await dump(program, context.database_url, partial)
        partial.rename(final)
    except OSError as exc:
        raise JobFailed(f"backup failed: cannot write {partial}: {exc.strerror}") from None
    finally:
        partial.unlink(missing_ok=True)
    deleted = delete_expired(folder, now)
    log.info(
        "backup written",
        archive=str(final),
        bytes=final.stat().st_size,
        expired_deleted=len(deleted),
    )


JOBS["backup"] = Job(name="backup", schedule="30 2 * * *", run=backup, lock_id=7_200_002)
