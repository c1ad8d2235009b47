"""The asyncpg pool the handlers share, and the connections of the commands."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import orjson

from app.core import sql

# Where the database is lives apart (serve's supervising process finds it without asyncpg);
# the commands and handlers reach it here, as before.
from app.core.database_url import DatabaseUnavailable as DatabaseUnavailable
from app.core.database_url import describe as describe
from app.core.database_url import embedded_package
from app.core.database_url import embedded_url as embedded_url
from app.core.database_url import resolve_url as resolve_url
from app.core.database_url import session_url as session_url
from app.core.turns import LONG_HOLD, Turns

CONNECT_TIMEOUT = 10
# A request waits at most this long for a pooled connection, then answers 500 (retry later):
# a full pool must not queue requests for minutes.
ACQUIRE_TIMEOUT = 5
# The connections a process's requests use at once for their statements. More only add cold
# server processes and contention for a small server's cores: on the 2-core machine of
# bench/README.md, six cold bursts served through 4 a process had p99s of 211–238 ms, through
# 10 of 230–323 ms. The pool's other connections are for the long holders (streams, exports,
# bulk loads), which their gates bound instead (app/core/gates.py).
TURNS = 4
# Guards for the server's sake: no statement runs longer, and no transaction idles longer
# (a stream whose client stopped reading is cut instead of holding its connection).
# In milliseconds (PostgreSQL's unit for both), so that a pooler's connect query can use them
# unquoted (tests/pgbouncer.py).
SESSION_LIMITS = {
    "statement_timeout": "60000",
    "idle_in_transaction_session_timeout": "60000",
}

# What a request meets while the database is down, restarting or out of reach (or the pool
# is exhausted): the middleware answers 500 (a page: 503) and logs one line per kind now and then.
UNAVAILABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,  # admin or crash shutdown, cannot connect now, timeouts
    asyncpg.ConnectionDoesNotExistError,
    # A pooled connection whose server process was ended while it was idle.
    asyncpg.InternalClientError,
    asyncpg.ObjectNotInPrerequisiteStateError,  # "database ... is not accepting connections"
    asyncpg.TooManyConnectionsError,
    asyncpg.InvalidCatalogNameError,  # the database itself is missing
)

SQL = sql.load("core", "plan_per_call")
_ISOLATION = {None: "", "repeatable_read": " ISOLATION LEVEL REPEATABLE READ"}


async def _init_connection(conn: asyncpg.Connection) -> None:
    for type_name in ("json", "jsonb"):
        await _decode_json(conn, type_name)


async def _decode_json(conn: asyncpg.Connection, type_name: str) -> None:
    await conn.set_type_codec(
        type_name,
        schema="pg_catalog",
        encoder=lambda value: orjson.dumps(value).decode(),
        decoder=orjson.loads,
    )


@contextlib.asynccontextmanager
async def json_as_text(conn: asyncpg.Connection):
    """`json` values go as JSON text meanwhile (asyncpg's own codec): COPY sends rows in the
    binary format, which the service's codec (text format) cannot write."""
    await conn.reset_type_codec("json", schema="pg_catalog")
    try:
        yield conn
    finally:
        await _decode_json(conn, "json")


async def _end_transaction(conn: asyncpg.Connection) -> None:
    """What a connection needs on its way back to the pool: the end of a transaction left
    open by a failure. asyncpg's default reset (unlock advisory locks, close cursors, UNLISTEN,
    RESET ALL) cost a round trip on every release, for state the service never leaves on a
    pooled connection: settings are SET LOCAL, cursors live in transactions, nothing listens,
    no lock outlives its transaction. Behind a transaction pooler the default reset would even
    act on a server session that is already another client's."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class _Acquire:
    """What `Pool.acquire()` returns: awaited, a connection to release; entered, one released
    at the block's end (asyncpg's own acquire works both ways too)."""

    __slots__ = ("_pool", "_timeout", "_connection")

    def __init__(self, pool: Pool, timeout: float):
        self._pool = pool
        self._timeout = timeout
        self._connection = None

    def __await__(self):
        return self._pool._take(self._timeout).__await__()

    async def __aenter__(self) -> asyncpg.Connection:
        self._connection = await self._pool._take(self._timeout)
        return self._connection

    async def __aexit__(self, *exc_info) -> None:
        connection, self._connection = self._connection, None
        await self._pool.release(connection)


class Pool:
    """asyncpg's pool, built with its public `create_pool` and used through its public
    methods, whose connections go to the oldest request first, `turns` of them at once
    (app/core/turns.py; a gate's holder takes one outside the turns), whose `acquire()` gives
    up after ACQUIRE_TIMEOUT unless told otherwise, and that counts the acquirers still waiting
    for a connection (`db_pool_waiting`). It has the pool's query methods, each on a connection
    taken in turn."""

    def __init__(self, pool: asyncpg.Pool, turns: int):
        self._pool = pool
        self.turns = Turns(min(turns, pool.get_max_size()))
        self._turn_holders: set = set()  # the acquired connections that hold a turn
        self.waiting = 0

    def acquire(self, *, timeout: float | None = None) -> _Acquire:
        return _Acquire(self, ACQUIRE_TIMEOUT if timeout is None else timeout)

    async def _take(self, timeout: float) -> asyncpg.Connection:
        # The timeout is ours, not asyncpg's: its wait_for runs every acquire as a task of its
        # own, a tenth of a small request's CPU (py-spy), where a timeout context costs a timer.
        self.waiting += 1
        try:
            async with asyncio.timeout(timeout):
                if LONG_HOLD.get():  # a gate's holder, rare: no turn
                    return await self._pool.acquire()
                await self.turns.take()
                try:
                    connection = await self._pool.acquire()
                except BaseException:
                    self.turns.give_back()
                    raise
        finally:
            self.waiting -= 1
        self._turn_holders.add(connection)
        return connection

    async def release(self, connection: asyncpg.Connection) -> None:
        try:
            await self._pool.release(connection)
        finally:
            if connection in self._turn_holders:  # once, though a connection is released twice
                self._turn_holders.discard(connection)
                self.turns.give_back()

    async def execute(self, query: str, *args, timeout: float | None = None) -> str:
        async with self.acquire() as conn:
            return await conn.execute(query, *args, timeout=timeout)

    async def executemany(self, command: str, args, *, timeout: float | None = None) -> None:
        async with self.acquire() as conn:
            return await conn.executemany(command, args, timeout=timeout)

    async def fetch(self, query: str, *args, timeout: float | None = None) -> list:
        async with self.acquire() as conn:
            return await conn.fetch(query, *args, timeout=timeout)

    async def fetchrow(self, query: str, *args, timeout: float | None = None):
        async with self.acquire() as conn:
            return await conn.fetchrow(query, *args, timeout=timeout)

    async def fetchval(self, query: str, *args, column: int = 0, timeout: float | None = None):
        async with self.acquire() as conn:
            return await conn.fetchval(query, *args, column=column, timeout=timeout)

    async def close(self) -> None:
        await self._pool.close()

    def terminate(self) -> None:
        self._pool.terminate()

    def is_closing(self) -> bool:
        return self._pool.is_closing()

    def get_size(self) -> int:
        return self._pool.get_size()

    def get_idle_size(self) -> int:
        return self._pool.get_idle_size()

    def get_max_size(self) -> int:
        return self._pool.get_max_size()


# What a query function takes: a connection (inside a transaction) or the pool.
Db = asyncpg.Connection | Pool


def pool_options(pool_mode: str) -> dict:
    """What a connection may ask of its server session in `pool_mode` (docs/scale.md)."""
    if pool_mode == "transaction":
        # Behind a transaction pooler every transaction may run on another server session:
        # a prepared statement (asyncpg's cache) would be missing there, and the pooler
        # refuses startup parameters it does not track (the SESSION_LIMITS are the role's
        # settings there, see docs/scale.md).
        return {
            "statement_cache_size": 0,
            "reset": _end_transaction,
            "server_settings": {"application_name": "rider-ops", "timezone": "UTC"},
        }
    return {
        "statement_cache_size": 100,
        "reset": _end_transaction,
        "server_settings": {"application_name": "rider-ops", "timezone": "UTC", **SESSION_LIMITS},
    }


async def create_pool(
    url: str,
    *,
    pool_mode: str = "session",
    min_size: int = 2,
    max_size: int = 10,
    turns: int = TURNS,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> Pool:
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            max_queries=50000,
            max_inactive_connection_lifetime=300.0,
            init=_init_connection,
            timeout=connect_timeout,
            **pool_options(pool_mode),
        )
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"cannot connect to database at {describe(url)}: {exc}") from exc
    return Pool(pool, turns)


@contextlib.asynccontextmanager
async def planned_per_call(
    pool: asyncpg.Pool, *, readonly: bool = False, isolation: str | None = None
):
    """A connection in a transaction whose statements are planned for their actual values
    (see sql/core/plan_per_call.sql): for statements with optional filters. `isolation`
    "repeatable_read" lets several statements read one snapshot."""
    begin = "BEGIN" + _ISOLATION[isolation] + (" READ ONLY" if readonly else "")
    async with pool.acquire() as conn:
        # BEGIN and the SET LOCAL in one round trip (one simple query): on a busy machine each
        # round trip waits for both processes to be scheduled, and a request makes few others.
        await conn.execute(f"{begin};\n{SQL.plan_per_call}")
        try:
            yield conn
        except BaseException:
            if not conn.is_closed():
                await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")


@contextlib.asynccontextmanager
async def connect(url: str):
    """One connection with the pool's codecs, for commands that run outside the server.

    Without a statement cache, so that it works through a transaction pooler too: a command
    runs each statement a few times at most, a cache would save nothing."""
    try:
        conn = await asyncpg.connect(
            url,
            timeout=CONNECT_TIMEOUT,
            statement_cache_size=0,
            server_settings={"timezone": "UTC"},
        )
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"cannot connect to database at {describe(url)}: {exc}") from exc
    try:
        await _init_connection(conn)
        yield conn
    finally:
        await conn.close()


@functools.cache
def pg_bin_dir() -> Path | None:
    """Folder of the embedded server's client programs (pg_dump, pg_restore), if installed, as
    its own `pg_config` tells it (the package names no folder in its public API)."""
    try:
        pg_config = embedded_package().pg_config
    except (ImportError, AttributeError):  # not installed, or installed without its programs
        return None
    folder = Path(pg_config(["--bindir"]).strip())
    return folder if folder.is_dir() else None


async def batches(cursor, rows: int) -> AsyncIterator[list[asyncpg.Record]]:
    """The cursor's rows a batch at a time; the next batch is asked for before this one is
    handed out, so the database reads it while the caller writes this one."""
    pending = asyncio.ensure_future(cursor.fetch(rows))
    try:
        while batch := await pending:
            pending = asyncio.ensure_future(cursor.fetch(rows))
            yield batch
    finally:
        # The connection takes one command at a time: the transaction can end only after it.
        await asyncio.wait([pending])
        if not pending.cancelled():
            pending.exception()  # retrieved: the caller's own error (if any) is the one raised
