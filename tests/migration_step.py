"""A data migration tested on the rows it meets: `with before(url, "NNNN.name"):` the schema
stands as it was before that migration (every other one applied), the block writes rows as
the code of then did, and the migration runs as the block ends."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from yoyo import get_backend, read_migrations

from app.core import migrations


@contextlib.contextmanager
def before(url: str, migration_id: str) -> Iterator[None]:
    migrations.apply(url)
    backend = get_backend(migrations.yoyo_url(url))
    step = read_migrations(str(migrations.MIGRATIONS_DIR)).filter(
        lambda migration: migration.id == migration_id
    )
    try:
        with backend.lock():
            backend.rollback_migrations(backend.to_rollback(step))
        yield
        with backend.lock():
            backend.apply_migrations(backend.to_apply(step))
    finally:
        backend.connection.close()
