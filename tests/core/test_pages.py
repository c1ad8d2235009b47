"""Pages for people: HTML error pages outside /api, static files, security headers."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from aiohttp.test_utils import unused_port

from app.core import html
from app.core.pages import render
from app.web import create_app
from tests.conftest import TEST_KEYS, make_settings

ROOT = Path(__file__).resolve().parents[2]


async def test_unknown_page_is_an_html_404(client):
    response = await client.get("/no/such/page")
    assert response.status == 404
    assert response.content_type == "text/html"
    page = await response.text()
    assert "<h1>Not found</h1>" in page
    assert 'href="/static/app.css"' in page
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


async def test_api_paths_keep_json_errors(client):
    response = await client.get("/api/v1/no-such-thing")
    assert response.status == 404
    assert response.content_type == "application/json"
    assert "Content-Security-Policy" not in response.headers


async def test_wrong_method_on_a_page_is_an_html_405(client):
    response = await client.delete("/admin/sign-in")
    assert response.status == 405
    assert response.content_type == "text/html"
    assert "Method not allowed" in await response.text()


async def test_a_form_too_large_is_an_html_413(client):
    response = await client.post(
        "/admin/sign-in",
        data=b"x" * (33 * 1024 * 1024),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status == 413
    assert response.content_type == "text/html"


async def test_an_unexpected_failure_on_a_page_is_an_html_500(aiohttp_client, database_url):
    async def broken(request):
        raise RuntimeError("boom")

    app = create_app(make_settings(), database_url)
    app.router.add_get("/broken", broken)
    client = await aiohttp_client(app)
    response = await client.get("/broken")
    assert response.status == 500
    assert response.content_type == "text/html"
    page = await response.text()
    assert "Internal server error" in page and "boom" not in page


async def test_render_escapes_values(aiohttp_client, database_url):
    async def hello(request):
        return render(request, "page.html", {"title": "<i>x</i>", "paragraphs": ["a & b"]})

    app = create_app(make_settings(), database_url)
    app.router.add_get("/hello", hello)
    client = await aiohttp_client(app)
    page = await (await client.get("/hello")).text()
    assert "<h1>&lt;i&gt;x&lt;/i&gt;</h1>" in page
    assert "<p>a &amp; b</p>" in page


async def test_style_sheet_is_served_by_the_app(client):
    response = await client.get("/static/app.css")
    assert response.status == 200
    assert response.content_type == "text/css"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    css = await response.text()
    assert "margin-inline" in css and "@import" not in css and "http" not in css


async def test_missing_static_file_is_a_404_page(client):
    response = await client.get("/static/nothing.css")
    assert response.status == 404
    assert response.content_type == "text/html"


async def test_one_tap_link_pages_keep_no_referrer(client):
    response = await client.get("/t/not-a-token")
    assert response.content_type == "text/html"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"


async def test_post_to_an_unknown_page_is_404_not_403(client):
    response = await client.post("/no/such/form")
    assert response.status == 404
    assert response.content_type == "text/html"


def test_every_template_of_every_area_compiles():
    html.compile_templates()


def test_a_web_process_with_a_template_that_does_not_compile_does_not_start(
    database_url, session_env, tmp_path
):
    """serve's web processes compile every template at start: a template that does not compile
    stops the start, with one line naming it, instead of failing its page later."""
    # The service's code with one broken template beside the others, run from there.
    shutil.copytree(ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ("sql", "migrations", "jobs"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    (tmp_path / "app" / "admin" / "templates" / "admin" / "broken.html").write_text("{% if %}")
    env = {
        **os.environ,
        **TEST_KEYS,
        **session_env,
        "DATABASE_URL": database_url,
        "PORT": str(unused_port()),
        "WEB_CONCURRENCY": "1",
        "LOG_FORMAT": "json",
        "PYTHONPATH": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--no-worker"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    # The web process's traceback names the template and what is wrong with it; serve ends
    # with its one-line error.
    assert 'app/admin/templates/admin/broken.html", line 1' in result.stderr
    lines = result.stderr.strip().splitlines()
    assert "jinja2.exceptions.TemplateSyntaxError: Expected an expression" in lines[-2]
    assert (
        lines[-1] == "error: a web process or the worker stopped on its own (see `worker stopped`)"
    )
