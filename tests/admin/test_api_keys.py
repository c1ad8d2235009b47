"""The API keys page (owners only): create (the key shown once, on the page the creation
redirects to, then never again), refused input kept on the form, revoke after asking, the
environment's keys listed without their secret, the audit events; editors and viewers 403."""

from __future__ import annotations

import hashlib
import re

import pytest

from app.admin import reveal
from app.core import api_keys
from tests.conftest import TEST_KEYS
from tests.web import PageClient, confirm_page, sign_in

PAGE = "/admin/api-keys"
FORM = [("name", "acme-lms"), ("scopes", "training"), ("scopes", "checks")]


async def signed_in(client, make_admin, db, role: str, email: str) -> PageClient:
    account = await make_admin(email=email)
    await db.execute("UPDATE admins SET role = $1 WHERE admin_id = $2", role, account.admin_id)
    assert (await sign_in(client, account)).status == 303
    page_client = PageClient(client)
    page_client.admin = account
    return page_client


@pytest.fixture
async def owner(client, make_admin, db) -> PageClient:
    return await signed_in(client, make_admin, db, "owner", "olga@example.com")


def key_of(page: str) -> str | None:
    match = re.search(r'<input[^>]* value="([^"]+)"[^>]*data-secret>', page)
    return match and match.group(1)


async def create(owner: PageClient, form=FORM):
    return await owner.submit(PAGE, form)


async def test_owner_creates_a_key_shown_once(owner, db):
    response = await create(owner, [*FORM, ("expires_days", "90")])
    assert response.status == 303
    row = await db.fetchrow("SELECT * FROM api_keys")
    location = response.headers["Location"]
    assert re.fullmatch(r"/admin/shown-once/[0-9a-f-]{36}", location)
    # The cookie alone is not the key.
    assert not re.search(r"rok_[A-Za-z0-9_-]{43}", response.headers["Set-Cookie"])
    shown = await owner.get(location)
    assert shown.status == 200 and shown.headers["Cache-Control"] == "no-store"
    page = await shown.text()
    key = key_of(page)
    assert key and re.fullmatch(r"rok_[A-Za-z0-9_-]{43}", key)
    assert row["key_hash"] == hashlib.sha256(key.encode()).digest()
    assert row["scopes"] == ["training", "checks"] and row["key_start"] == key[:8]
    assert "New API key acme-lms" in page and "will not be shown again" in page
    assert await db.fetchval("SELECT pad FROM admin_reveals") is None
    again = await (await owner.get(location)).text()
    assert key_of(again) is None and "cannot be shown again" in again
    listing = await (await owner.get(PAGE)).text()
    assert "acme-lms" in listing and f"{key[:8]}…" in listing and key not in listing
    assert "training, checks" in listing
    event = await db.fetchrow("SELECT actor, address, action, target, summary FROM audit_events")
    assert event["actor"] == owner.admin.email and event["address"]
    assert tuple(event)[2:] == (
        "api_key.created",
        "acme-lms",
        "scopes training, checks, expires in 90 days",
    )
    assert key not in event["summary"]
    api = await owner.get("/api/v2/checks", headers={"x-api-key": key})
    assert api.status == 200


async def test_the_key_is_not_shown_without_the_creating_browser_cookie(owner, db):
    response = await create(owner)
    owner.session.cookie_jar.clear(lambda cookie: cookie.key == reveal.COOKIE)
    # Another browser gets nothing, and the pad is spent: the key is not shown anywhere now.
    page = await (await owner.get(response.headers["Location"])).text()
    assert key_of(page) is None and "cannot be shown again" in page
    assert await db.fetchval("SELECT pad FROM admin_reveals") is None


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ([("name", "acme")], "scopes", "Choose at least one scope."),
        ([("name", "acme"), ("scopes", "billing")], "scopes", "Must be one of"),
        ([("name", "a b"), ("scopes", "checks")], "name", "A key&#39;s name is"),
        ([("scopes", "checks")], "name", "This field is required."),
        (
            [("name", "acme"), ("scopes", "checks"), ("expires_days", "٣")],
            "expires_days",
            "whole number of days",
        ),
        (
            [("name", "acme"), ("scopes", "checks"), ("expires_days", "0")],
            "expires_days",
            "whole number of days",
        ),
        ([("name", "taken"), ("scopes", "checks")], "name", "exists already"),
    ],
)
async def test_refused_input_keeps_the_values_and_creates_nothing(owner, db, form, field, message):
    await api_keys.create(db, "taken", ["training"], None)
    response = await create(owner, form)
    assert response.status == 400
    page = await response.text()
    assert message in page and f'id="{field}-error"' in page
    assert key_of(page) is None
    assert await db.fetchval("SELECT count(*) FROM api_keys") == 1
    assert await db.fetchval("SELECT count(*) FROM audit_events") == 0


async def test_owner_revokes_a_key_after_asking(owner, db):
    key = (await api_keys.create(db, "acme", ["training"], None)).key
    key_id = await db.fetchval("SELECT id FROM api_keys")
    address = f"{PAGE}/{key_id}/revoke"
    listing = await (await owner.get(PAGE)).text()
    assert f'href="{address}"' in listing
    page = await confirm_page(owner, address, address)
    assert "Revoke the API key acme?" in page and key[:8] in page
    assert await db.fetchval("SELECT revoked_at FROM api_keys") is None
    response = await owner.submit(address, {}, form_page=address)
    assert response.status == 303 and response.headers["Location"].startswith(f"{PAGE}?notice=")
    assert await db.fetchval("SELECT revoked_at IS NOT NULL FROM api_keys")
    listing = await owner.text(response.headers["Location"])
    said = "The key acme is revoked: every instance refuses it within 5 seconds."
    assert said in listing and "revoked 20" in listing
    assert f'href="{address}"' not in listing
    event = await db.fetchrow("SELECT actor, action, target, summary FROM audit_events")
    assert tuple(event) == (owner.admin.email, "api_key.revoked", "acme", "scopes training")
    assert (await owner.get(address, allow_redirects=False)).status == 303
    refused = await owner.get("/api/v1/completions", headers={"x-api-key": key})
    assert refused.status == 401


@pytest.mark.parametrize("path", ["/admin/api-keys/999/revoke", "/admin/api-keys/x/revoke"])
async def test_revoking_an_unknown_key_is_404(owner, path):
    assert (await owner.get(path)).status == 404


async def test_the_environment_keys_are_listed_without_their_secret(owner):
    page = await (await owner.get(PAGE)).text()
    assert page.count("data-environment-key") == 4
    assert 'from the environment<br><span class="muted">INTEGRATION_API_KEY</span>' in page
    for variable in ("INTEGRATION_API_KEY", "CHECKS_API_KEY", "SHOP_IMPORT_API_KEY"):
        assert TEST_KEYS[variable] not in page
    nav = page.split("</nav>")[0]
    assert 'href="/admin/api-keys"' in nav


@pytest.mark.parametrize("role", ["editor", "viewer"])
async def test_editors_and_viewers_are_refused(client, make_admin, db, role):
    await api_keys.create(db, "acme", ["training"], None)
    key_id = await db.fetchval("SELECT id FROM api_keys")
    other = await signed_in(client, make_admin, db, role, f"{role}@example.com")
    for path in (PAGE, f"{PAGE}/{key_id}/revoke"):
        response = await other.get(path)
        assert response.status == 403, path
        assert "Your role does not allow this." in await response.text()
    token = await other.csrf("/admin")
    for path in (PAGE, f"{PAGE}/{key_id}/revoke"):
        response = await other.post(
            path, data=[*FORM, ("csrf_token", token)], allow_redirects=False
        )
        assert response.status == 403, path
    assert await db.fetchval("SELECT count(*) FROM api_keys WHERE revoked_at IS NULL") == 1
    assert await db.fetchval("SELECT count(*) FROM audit_events") == 0
