"""The session secret kept for the embedded default (app/core/kept_secret.py), and what the
service says and does when sign-in is off."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import psycopg

from app.core import kept_secret
from app.core.config import Settings
from tests.web import PageClient

PREPARE = (
    "import sys; from app.commands import prepare_serve; from app.core.config import Settings; "
    "assert prepare_serve(Settings.from_env(), sys.argv[1]) is None"
)


def test_the_embedded_default_generates_a_secret_once_and_keeps_it(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SESSION_SECRET", raising=False)
    first = kept_secret.kept(Settings.from_env({"DATA_DIR": str(tmp_path)}))
    assert first.session_secret_ok
    path = tmp_path / "session-secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert f"generated one, kept in {path}" in capsys.readouterr().err
    again = kept_secret.kept(Settings.from_env({"DATA_DIR": str(tmp_path)}))
    assert again.session_secret == first.session_secret
    assert capsys.readouterr().err == ""


def test_a_set_secret_or_database_is_left_as_it_is(tmp_path, monkeypatch):
    monkeypatch.delenv("SESSION_SECRET", raising=False)
    for env in (
        {"SESSION_SECRET": "short"},
        {"SESSION_SECRET": "set-by-the-operator-0123"},
        {"DATABASE_URL": "postgresql://u@127.0.0.1/ops"},
    ):
        settings = Settings.from_env({"DATA_DIR": str(tmp_path), **env})
        assert kept_secret.kept(settings) == settings
    assert not (tmp_path / "session-secret").exists()


def test_without_a_secret_no_setup_link_is_made(database_url):
    # serve's start as its own process does it (it sets up the logging of the process).
    environment = {k: v for k, v in os.environ.items() if k != "SESSION_SECRET"}
    result = subprocess.run(
        [sys.executable, "-c", PREPARE, database_url],
        env={**environment, "MIGRATE_ON_START": "0", "LOG_FORMAT": "json"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "sign-in to the panel and the rider app is off" in result.stdout
    assert "create the first admin" not in result.stderr + result.stdout
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM admin_setup_tokens").fetchone() == (0,)


async def test_the_sign_in_page_says_why_sign_in_is_off_and_how_to_turn_it_on(make_client):
    client = PageClient(await make_client(SESSION_SECRET=None))
    response = await client.get("/admin/sign-in")
    assert response.status == 200
    assert "Sign-in is off: this server has no SESSION_SECRET" in await response.text()
