import re
from concurrent.futures import ThreadPoolExecutor

import psycopg
from yoyo import read_migrations

from app.core import migrations
from tests.migration_step import before


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


def _function_source(url: str, name: str) -> str:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [name]).fetchone()[0]


def test_repeatable_scripts_replace_their_functions_on_every_migrate(
    empty_database_url, tmp_path, monkeypatch
):
    migrations.apply(empty_database_url)
    scripts = migrations.repeatable_scripts()
    assert {path.stem for path in scripts} >= {
        "shop_import_users",
        "shop_kit_entries",
        "training_path_passers",
        "training_proof_code",
    }
    # The scripts, not the migrations' first versions, are what runs: the proof code draws on
    # gen_random_uuid (strong randomness), never random().
    assert "gen_random_uuid" in _function_source(empty_database_url, "training_proof_code")
    with psycopg.connect(empty_database_url) as conn:
        codes = [conn.execute("SELECT training_proof_code()").fetchone()[0] for _ in range(200)]
    assert all(re.fullmatch(r"[ABCDEFGHJKMNPQRSTVWXYZ2-9]{8}", code) for code in codes)
    assert len(set(codes)) == 200

    changed = tmp_path / "training" / "functions"
    changed.mkdir(parents=True)
    (changed / "training_proof_code.sql").write_text(
        "CREATE OR REPLACE FUNCTION training_proof_code() RETURNS text\n"
        "LANGUAGE sql VOLATILE AS $$ SELECT 'ABCDEFGH' $$;\n"
    )
    monkeypatch.setattr(migrations, "SQL_DIR", tmp_path)
    assert migrations.apply(empty_database_url) == 0
    with psycopg.connect(empty_database_url) as conn:
        assert conn.execute("SELECT training_proof_code()").fetchone()[0] == "ABCDEFGH"


def test_link_revocation_strips_the_signatures_of_recorded_links(empty_database_url):
    link = "https://ops.example/t/cmlkZXItMQ.c2lnbmF0dXJlLWJ5dGVz"
    with (
        before(empty_database_url, "0011.link-revocation"),
        psycopg.connect(empty_database_url) as conn,
    ):
        conn.execute(
            "INSERT INTO riders (rider_id, name, phone, market, city, vehicle_type,"
            " nationality, language, status) VALUES ('R1', 'Ali', '+9715', 'AE',"
            " 'Dubai', 'bicycle', 'PK', 'en', 'active')"
        )
        conn.execute(
            "INSERT INTO messages (rider_id, kind, body, link, status) VALUES"
            " ('R1', 'reminder', %s, %s, 'logged')",
            [f"Open {link} today", link],
        )
    with psycopg.connect(empty_database_url) as conn:
        body, stored = conn.execute("SELECT body, link FROM messages").fetchone()
    kept = "https://ops.example/t/cmlkZXItMQ.signature-removed"
    assert (body, stored) == (f"Open {kept} today", kept)
