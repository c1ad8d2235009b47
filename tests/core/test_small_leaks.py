"""Small leaks (issue 23, item 8): HSTS over https, no version in the Server header, the API
docs page's headers and script file, and sign-in POSTs through the outage line."""

from __future__ import annotations

import re

import pytest
import structlog

from app.core import middleware
from tests.rider.rows import add_rider
from tests.web import PageClient

HTTPS = "https://academy.example.com"


async def test_hsts_when_the_public_base_url_is_https(make_client):
    secure = await make_client(PUBLIC_BASE_URL=HTTPS)
    for path in ("/", "/admin/sign-in", "/api/v1/completions", "/api/docs"):
        response = await secure.get(path)
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000", path
    plain = await make_client(PUBLIC_BASE_URL="http://localhost:8080")
    assert "Strict-Transport-Security" not in (await plain.get("/")).headers


@pytest.mark.parametrize("path", ["/", "/admin", "/api/v1/completions", "/nothing", "/api/docs"])
async def test_the_server_header_names_no_version(client, path):
    response = await client.get(path, allow_redirects=False)
    assert response.headers["Server"] == "rider-ops"


async def test_the_api_docs_page_has_the_pages_headers_and_no_inline_script(client):
    response = await client.get("/api/docs")
    page = await response.text()
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all("src=" in attributes and not body for attributes, body in scripts)
    script = await client.get("/static/api-docs.js")
    assert script.status == 200 and "SwaggerUIBundle" in await script.text()


@pytest.mark.parametrize(
    ("path", "form_page", "data"),
    [
        ("/admin/sign-in", "/admin/sign-in", {"email": "a@example.com", "password": "x" * 12}),
        ("/sign-in", "/", {"rider_id": "R-1", "pin": "1234"}),
    ],
)
async def test_sign_in_posts_during_an_outage_log_the_outage_line(
    client, database_down, monkeypatch, path, form_page, data
):
    await add_rider(client)
    monkeypatch.setattr(middleware, "OUTAGES", middleware.OutageLog())
    token = await PageClient(client).csrf(form_page)
    with structlog.testing.capture_logs() as logs:
        async with database_down():
            for _ in range(5):
                response = await client.post(path, data={**data, "csrf_token": token})
                assert response.status == 503
    assert not [line for line in logs if "exc_info" in line]
    outages = [line for line in logs if line["event"] == "database unavailable"]
    assert 1 <= len(outages) <= 2
