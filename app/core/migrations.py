"""Schema migrations: yoyo `.sql` files in `migrations/`, applied under yoyo's lock.

After them, under the same lock, come the repeatable scripts `sql/<family>/functions/*.sql`
(as Flyway's `R__` files): SQL functions that hold business rules and texts, each a
`CREATE OR REPLACE`, run in name order in one transaction on every `migrate` and `serve`. A
migration that first created a function stays as it was; to change the function, edit its
script.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from app.core.database import CONNECT_TIMEOUT, DatabaseUnavailable, describe
from app.core.sql import SQL_DIR

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
FUNCTIONS_GLOB = "*/functions/*.sql"
LOCK_TIMEOUT = 120
ROLLBACK = ".rollback.sql"


def yoyo_url(url: str) -> str:
    """The same database as a yoyo URL for its psycopg 3 backend, with a connect timeout."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.setdefault("connect_timeout", str(CONNECT_TIMEOUT))
    return urlunsplit(("postgresql+psycopg", parts.netloc, parts.path, urlencode(query), ""))


def _backend(url: str):
    # yoyo and psycopg are imported by the commands that migrate, not by a web process (which
    # only compares known_ids with the database's): they are a third of its memory at rest.
    import psycopg
    from yoyo import get_backend

    try:
        return get_backend(yoyo_url(url))
    except psycopg.OperationalError as exc:
        reason = (str(exc).strip().splitlines() or ["no answer"])[0]
        where = describe(url)
        raise DatabaseUnavailable(f"cannot connect to database at {where}: {reason}") from exc


def apply(url: str) -> int:
    """Apply pending migrations; returns how many were applied.

    Pending migrations are read inside the lock, so a second process that waited for the
    first one finds nothing left to do.
    """
    from yoyo import read_migrations
    from yoyo.exceptions import LockTimeout

    backend = _backend(url)
    migrations = read_migrations(str(MIGRATIONS_DIR))
    try:
        with backend.lock(timeout=LOCK_TIMEOUT):
            pending = backend.to_apply(migrations)
            backend.apply_migrations(pending)
            _apply_repeatable(backend)
    except LockTimeout as exc:
        raise DatabaseUnavailable(f"migrations are locked at {describe(url)}: {exc}") from exc
    finally:
        backend.connection.close()
    return len(pending)


def known_ids() -> frozenset[str]:
    """The IDs of every migration this code ships: yoyo's, the file name without `.sql` (a
    `.rollback.sql` undoes the migration of its name)."""
    return frozenset(
        path.name.removesuffix(".sql")
        for path in MIGRATIONS_DIR.glob("*.sql")
        if not path.name.endswith(ROLLBACK)
    )


def repeatable_scripts() -> list[Path]:
    return sorted(SQL_DIR.glob(FUNCTIONS_GLOB), key=lambda path: path.relative_to(SQL_DIR))


def _apply_repeatable(backend) -> None:
    with backend.transaction():
        cursor = backend.cursor()
        # A function may call one of another package, applied after it in name order: its
        # body is checked when first called (as pg_dump restores functions), not here.
        cursor.execute("SET LOCAL check_function_bodies = off")
        for script in repeatable_scripts():
            # No parameters: psycopg sends the text as is (`%` in a plpgsql format() stays).
            cursor.execute(script.read_text(encoding="utf-8"))


def rollback_all(url: str) -> None:
    """Undo every applied migration (used by the up/down/up test)."""
    from yoyo import read_migrations

    backend = _backend(url)
    migrations = read_migrations(str(MIGRATIONS_DIR))
    try:
        with backend.lock(timeout=LOCK_TIMEOUT):
            backend.rollback_migrations(backend.to_rollback(migrations))
    finally:
        backend.connection.close()
