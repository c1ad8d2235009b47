"""Secrets shown once (app/admin/reveal.py; docs/security.md, "Shown once"): a new API key, a
new webhook endpoint's signing secret and a rider's new PIN are each shown once, on the page
their POST redirects to; a refresh says they were shown, another admin's session finds nothing
there, and the database never holds the secret to be shown again."""

import re
from http.cookies import SimpleCookie

import pytest

from app.admin import reveal
from tests.admin.riders_data import add_riders
from tests.web import PageClient, sign_in

SECRET = re.compile(r'<input[^>]* value="([^"]+)"[^>]*data-secret>')
SHOWN_ONCE = re.compile(r"/admin/shown-once/[0-9a-f-]{36}")

# Each kind: the form that makes the secret, the form's page, what the page says it is, the
# way back, and what the secret looks like.
KINDS = {
    "api key": (
        "/admin/api-keys",
        [("name", "acme-lms"), ("scopes", "training")],
        "/admin/api-keys",
        "New API key acme-lms",
        "/admin/api-keys",
        r"rok_[A-Za-z0-9_-]{43}",
    ),
    "webhook secret": (
        "/admin/webhooks",
        [("url", "https://93.184.215.14/hook"), ("events", "flag.created")],
        "/admin/webhooks",
        "Signing secret of the new webhook endpoint",
        "/admin/webhooks/",
        r"whsec_[A-Za-z0-9+/]{43}=",
    ),
    "rider pin": (
        "/admin/riders/R-1/pin",
        [],
        "/admin/riders/R-1/pin",
        "New PIN for rider R-1",
        "/admin/riders/R-1",
        r"[0-9]{6}",
    ),
}

# Every table a secret shown once could rest in, were it kept to be shown.
TABLES = ("admin_reveals", "admin_notices", "audit_events", "api_keys", "riders")


async def _make(client: PageClient, db, kind: str):
    address, form, form_page, *_ = KINDS[kind]
    await add_riders(db)
    response = await client.submit(address, form, form_page=form_page)
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    assert SHOWN_ONCE.fullmatch(location), location
    return response, location


async def _rests_anywhere(db, secret: str) -> list[str]:
    """The tables whose rows hold `secret` as text or as its bytes (a PIN as a number of its
    own, not six digits inside a phone number)."""
    alone = re.compile(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])")
    found = []
    for table in TABLES:
        rows = await db.fetchval(f"SELECT string_agg(t::text, ' ') FROM {table} t") or ""
        if alone.search(rows) or secret.encode().hex() in rows:
            found.append(table)
    return found


@pytest.mark.parametrize("kind", KINDS)
async def test_shown_once_then_said_shown_and_never_kept(admin_client, db, kind):
    _, _, _, title, back, pattern = KINDS[kind]
    response, location = await _make(admin_client, db, kind)
    cookie = response.cookies[reveal.COOKIE]
    assert cookie["path"] == location and cookie["httponly"] and cookie["samesite"] == "Strict"
    shown = await admin_client.get(location)
    assert shown.status == 200 and shown.headers["Cache-Control"] == "no-store"
    page = await shown.text()
    (secret,) = SECRET.findall(page)
    assert re.fullmatch(pattern, secret)
    assert title in page and "will not be shown again" in page and f'href="{back}' in page
    assert secret not in cookie.value
    # Neither the pad's row nor any other keeps the secret (the webhook's signing secret is
    # the endpoint's own, kept to sign with, and never shown again).
    assert await _rests_anywhere(db, secret) == []
    assert await db.fetchval("SELECT pad FROM admin_reveals") is None
    again = await admin_client.get(location)
    assert again.status == 200
    text = await again.text()
    assert secret not in text and "cannot be shown again" in text and title in text


@pytest.mark.parametrize("kind", KINDS)
async def test_another_admin_session_finds_nothing_and_spends_nothing(
    admin_client, db, make_client, make_admin, kind
):
    response, location = await _make(admin_client, db, kind)
    other = PageClient(await make_client())
    await sign_in(other, await make_admin(email="other@example.com"))
    # Even with the cookie: the pad is the session's that made it.
    other.session.cookie_jar.update_cookies(response.cookies)
    refused = await other.get(location)
    assert refused.status == 404
    page = await refused.text()
    assert "Nothing to show" in page and not SECRET.findall(page)
    assert 'href="/admin"' in page  # the navigation stays
    (secret,) = SECRET.findall(await admin_client.text(location))
    assert secret


async def test_an_unknown_or_malformed_reveal_is_a_404(admin_client):
    for address in (
        "/admin/shown-once/00000000-0000-4000-8000-000000000001",
        "/admin/shown-once/x",
    ):
        response = await admin_client.get(address)
        assert response.status == 404, address
        assert "Nothing to show" in await response.text() or "Not found" in await response.text()


async def test_an_expired_reveal_shows_nothing(admin_client, db):
    _, location = await _make(admin_client, db, "rider pin")
    await db.execute("UPDATE admin_reveals SET expires_at = now() - interval '1 second'")
    page = await admin_client.text(location)
    assert not SECRET.findall(page) and "cannot be shown again" in page


async def test_a_damaged_cookie_shows_nothing(admin_client, db):
    _, location = await _make(admin_client, db, "api key")
    jar = admin_client.session.cookie_jar
    jar.clear(lambda cookie: cookie.key == reveal.COOKIE)
    damaged = SimpleCookie()
    damaged[reveal.COOKIE] = "not-a-masked-key"
    damaged[reveal.COOKIE]["path"] = location
    jar.update_cookies(damaged)
    page = await admin_client.text(location)
    assert not SECRET.findall(page) and "cannot be shown again" in page


async def test_signing_out_removes_the_pad(admin_client, db):
    await _make(admin_client, db, "rider pin")
    await admin_client.submit("/admin/sign-out", {}, form_page="/admin")
    assert await db.fetchval("SELECT count(*) FROM admin_reveals") == 0
