"""`demo-data --admin EMAIL`: a demo admin only when asked, its password printed once."""

import re

import psycopg

from app.core.passwords import verify_password
from tests.core.test_cli import _assert_one_clear_line, run


def _admins(url: str) -> list[tuple[str, str]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT email, password_hash FROM admins").fetchall()


async def test_demo_data_makes_an_admin_only_when_asked(empty_database_url, database_url):
    result = run("demo-data", "--riders", "5", env={"DATABASE_URL": database_url}, timeout=180)
    assert result.returncode == 0, result.stderr
    assert _admins(database_url) == []
    result = run(
        "demo-data",
        "--riders",
        "5",
        "--admin",
        "demo@example.com",
        env={"DATABASE_URL": empty_database_url},
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    password = re.search(r"demo admin demo@example.com, password (\S+) \(shown once", result.stdout)
    ((email, stored),) = _admins(empty_database_url)
    assert email == "demo@example.com"
    assert await verify_password(stored, password.group(1), "127.0.0.1")


def test_demo_data_refuses_a_bad_admin_email(database_url):
    result = run("demo-data", "--admin", "nobody", env={"DATABASE_URL": database_url})
    _assert_one_clear_line(result, "not an email address: 'nobody'")
    assert _admins(database_url) == []
