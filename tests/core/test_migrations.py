from concurrent.futures import ThreadPoolExecutor

import psycopg
from yoyo import read_migrations

from app.core import migrations


def _tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {name for (name,) in rows if not name.startswith("_yoyo") and name != "yoyo_lock"}


def test_apply_is_idempotent(empty_database_url):
    total = len(read_migrations(str(migrations.MIGRATIONS_DIR)))
    assert migrations.apply(empty_database_url) == total
    assert migrations.apply(empty_database_url) == 0


def test_up_down_up_leaves_the_same_schema(empty_database_url):
    migrations.apply(empty_database_url)
    schema = _tables(empty_database_url)
    assert "job_runs" in schema
    migrations.rollback_all(empty_database_url)
    assert _tables(empty_database_url) == set()
    migrations.apply(empty_database_url)
    assert _tables(empty_database_url) == schema


def test_two_processes_starting_together_migrate_once(empty_database_url):
    total = len(read_migrations(str(migrations.MIGRATIONS_DIR)))
    with ThreadPoolExecutor(2) as pool:
        applied = list(pool.map(migrations.apply, [empty_database_url] * 2))
    assert sorted(applied) == [0, total]
