"""The first admin: the setup link logged by serve, and the command line's create-admin."""

import asyncio
import os
import socket
import subprocess
import sys

import orjson
import pytest

from app.admin import accounts
from app.core import database
from tests.conftest import POOL_MODE
from tests.waiting import until, waits_for_a_lock
from tests.web import PageClient, csrf_of

FORM = {"email": "first@example.com", "name": "First Admin", "password": "a long passphrase"}


async def _token(database_url) -> str:
    async with database.connect(database_url) as conn:
        return await accounts.new_setup_token(conn)


async def test_a_setup_link_older_than_24_hours_is_refused(page_client, database_url, db):
    token = await _token(database_url)
    await db.execute("UPDATE admin_setup_tokens SET created_at = now() - interval '24 hours 1 s'")
    page = f"/admin/setup?token={token}"
    assert (await page_client.get(page)).status == 403
    await db.execute("UPDATE admin_setup_tokens SET created_at = now() - interval '23 hours'")
    token_page = await page_client.get(page)
    assert token_page.status == 200
    await db.execute("UPDATE admin_setup_tokens SET created_at = now() - interval '25 hours'")
    response = await page_client.post(
        "/admin/setup",
        data={**FORM, "token": token, "csrf_token": csrf_of(await token_page.text())},
        allow_redirects=False,
    )
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM admins") == 0


async def test_setup_link_creates_the_first_admin_once(page_client, database_url, db):
    token = await _token(database_url)
    page = f"/admin/setup?token={token}"
    response = await page_client.submit("/admin/setup", {**FORM, "token": token}, form_page=page)
    assert response.status == 303
    assert response.headers["Location"] == "/admin"
    assert "admin_session" in response.cookies
    assert (await page_client.get("/admin")).status == 200
    row = await db.fetchrow("SELECT email, name, password_hash FROM admins")
    assert (row["email"], row["name"]) == ("first@example.com", "First Admin")
    assert row["password_hash"].startswith("$argon2id$")
    # Used once: the page and the form refuse it now.
    assert (await page_client.get(page)).status == 403
    again = await page_client.post(
        "/admin/setup",
        data={
            **FORM,
            "email": "second@example.com",
            "token": token,
            "csrf_token": await page_client.csrf("/admin"),
        },
        allow_redirects=False,
    )
    assert again.status == 403
    assert await db.fetchval("SELECT count(*) FROM admins") == 1


async def test_two_setup_links_used_at_once_create_one_admin(database_url):
    first, second = await _token(database_url), await _token(database_url)
    pool = await database.create_pool(database_url, pool_mode=POOL_MODE)
    try:
        # The first setup is mid-flight: its admin is written, its transaction not yet committed.
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(accounts.SQL.lock_first_admin_setup)
            await conn.fetchval(
                accounts.SQL.setup_first_admin,
                accounts._token_hash(first),
                "first@example.com",
                "First",
                "hash",
            )
            racing = asyncio.create_task(
                accounts.set_up_first_admin(
                    pool, second, "second@example.com", "Second", "a long passphrase"
                )
            )
            # The second setup waits on the first one's lock, and goes no further.
            await until(lambda: waits_for_a_lock(pool), "the second setup waits for the lock")
            assert not racing.done()
        with pytest.raises(accounts.SetupRefused):
            await racing
        assert await pool.fetchval("SELECT array_agg(email) FROM admins") == ["first@example.com"]
    finally:
        await pool.close()


async def test_setup_link_is_refused_once_any_admin_exists(page_client, database_url, make_admin):
    token = await _token(database_url)
    await make_admin()
    response = await page_client.get(f"/admin/setup?token={token}")
    assert response.status == 403
    assert "setup link has been used or is not valid" in await response.text()
    async with database.connect(database_url) as conn:
        assert await accounts.new_setup_token(conn) is None


async def test_unknown_or_missing_token_is_refused(page_client):
    for path in ["/admin/setup", "/admin/setup?token=made-up"]:
        assert (await page_client.get(path)).status == 403


async def test_setup_form_errors_keep_the_values(page_client, database_url, db):
    token = await _token(database_url)
    response = await page_client.submit(
        "/admin/setup",
        {"token": token, "email": "not-an-email", "name": "<b>Me</b>", "password": "short"},
        form_page=f"/admin/setup?token={token}",
    )
    assert response.status == 400
    page = await response.text()
    assert "Enter an email address like name@example.com." in page
    assert "Use at least 12 characters." in page
    assert 'value="not-an-email"' in page
    assert "&lt;b&gt;Me&lt;/b&gt;" in page and "<b>Me</b>" not in page
    assert await db.fetchval("SELECT count(*) FROM admins") == 0


def _run(*args, stdin="", env=None):
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        check=False,
    )


async def test_create_admin_reads_the_password_from_stdin(database_url, make_client, db):
    env = {"DATABASE_URL": database_url}
    result = await asyncio.to_thread(
        _run,
        "create-admin",
        "Ops@Example.com",
        "--name",
        "Ops Lead",
        stdin="twelve chars or more\n",
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "created" in result.stdout
    assert "twelve chars" not in result.stdout + result.stderr
    client = PageClient(await make_client())
    response = await client.submit(
        "/admin/sign-in", {"email": "ops@example.com", "password": "twelve chars or more"}
    )
    assert response.status == 303
    # Run again: a new password, the admin's sessions end.
    result = await asyncio.to_thread(
        _run, "create-admin", "ops@example.com", stdin="another long password\n", env=env
    )
    assert result.returncode == 0, result.stderr
    assert await db.fetchval("SELECT count(*) FROM web_sessions") == 0
    assert await db.fetchval("SELECT name FROM admins") == "Ops Lead"
    assert (await client.get("/admin", allow_redirects=False)).status == 303


async def test_create_admin_refuses_a_short_password_or_bad_email(database_url, db):
    env = {"DATABASE_URL": database_url}
    for args, stdin, expected in [
        (("create-admin", "ops@example.com"), "short\n", "at least 12 characters"),
        (("create-admin", "not an email"), "long enough password\n", "not an email address"),
    ]:
        result = await asyncio.to_thread(_run, *args, stdin=stdin, env=env)
        assert result.returncode == 1
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], result.stderr
    assert await db.fetchval("SELECT count(*) FROM admins") == 0


def _serve_log_lines(database_url: str, port: int) -> list[dict]:
    """Start `serve`, read its log until it serves, then stop it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={
            **os.environ,
            "DATABASE_URL": database_url,
            "PORT": str(port),
            "HOST": "127.0.0.1",
            "LOG_FORMAT": "json",
            "PUBLIC_BASE_URL": "https://ops.example.com",
            "SESSION_SECRET": "a-secret-for-the-setup-link",
        },
    )
    lines = []
    try:
        for line in process.stdout:
            if line.startswith("{"):
                lines.append(orjson.loads(line))
                if lines[-1]["event"] == "serving":
                    break
    finally:
        process.terminate()
        process.wait(timeout=30)
    return lines


async def test_serve_logs_a_setup_link_while_no_admin_exists(page_client, database_url, make_admin):
    port = _free_port()
    lines = await asyncio.to_thread(_serve_log_lines, database_url, port)
    (link,) = [line for line in lines if line["event"] == "admin setup link"]
    prefix = "https://ops.example.com/admin/setup?token="
    assert link["url"].startswith(prefix)
    page = await page_client.get("/admin/setup?token=" + link["url"].removeprefix(prefix))
    assert page.status == 200
    await make_admin()
    lines = await asyncio.to_thread(_serve_log_lines, database_url, port)
    assert "admin setup link" not in [line["event"] for line in lines]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
