"""The webhooks pages: add (the secret shown once), refused input kept on the form, disable,
enable, delete after asking, test event, deliveries with "Replay"."""

import re

import pytest

from tests.webhooks.rows import add_endpoint

FORM = {"url": "https://hooks.example.com/rider-ops", "description": "Acme LMS"}
EVENTS = [("events", "completion.created"), ("events", "flag.created")]


def secret_of(page: str) -> str:
    match = re.search(r"<code[^>]*data-webhook-secret[^>]*>([^<]+)</code>", page)
    assert match, "no element with data-webhook-secret"
    return match.group(1)


async def test_add_shows_the_secret_once(admin_client, db):
    response = await admin_client.submit(
        "/admin/webhooks", [*FORM.items(), *EVENTS], form_page="/admin/webhooks"
    )
    assert response.status == 200
    page = await response.text()
    secret = secret_of(page)
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{43}=", secret)
    row = await db.fetchrow("SELECT * FROM webhook_endpoints")
    assert (row["url"], row["events"], row["description"], row["secret"], row["enabled"]) == (
        FORM["url"],
        ["completion.created", "flag.created"],
        "Acme LMS",
        secret,
        True,
    )
    again = await (await admin_client.get(f"/admin/webhooks/{row['endpoint_id']}")).text()
    assert secret not in again and "data-webhook-secret" not in again
    listing = await (await admin_client.get("/admin/webhooks")).text()
    assert FORM["url"] in listing and secret not in listing


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://hooks.example.com/x", "Enter an https:// URL (plain http:// only for localhost)."),
        ("ftp://hooks.example.com/x", "Enter an https:// URL (plain http:// only for localhost)."),
        ("https://", "Enter an https:// URL (plain http:// only for localhost)."),
        ("https://user:pw@hooks.example.com/x", "The URL must not hold a user name or password"),
        ("https://token@hooks.example.com/x", "The URL must not hold a user name or password"),
        ("https://hooks.example.com/" + "a" * 1980, "At most 2,000 characters."),
    ],
)
async def test_a_refused_url_keeps_the_values(admin_client, db, url, message):
    response = await admin_client.submit(
        "/admin/webhooks",
        [("url", url), ("description", "Acme <LMS>"), *EVENTS],
        form_page="/admin/webhooks",
    )
    assert response.status == 400
    page = await response.text()
    assert message in page
    assert 'value="Acme &lt;LMS&gt;"' in page
    assert 'value="completion.created" checked' in page and 'value="flag.created" checked' in page
    assert 'value="assignment.created">' in page
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 0


async def test_no_event_is_refused(admin_client, db):
    response = await admin_client.submit("/admin/webhooks", FORM, form_page="/admin/webhooks")
    assert response.status == 400
    page = await response.text()
    assert "Choose at least one event." in page and f'value="{FORM["url"]}"' in page
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 0


async def test_an_unknown_event_is_refused(admin_client, db):
    response = await admin_client.submit(
        "/admin/webhooks",
        [*FORM.items(), ("events", "rider.deleted")],
        form_page="/admin/webhooks",
    )
    assert response.status == 400
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 0


@pytest.mark.parametrize(
    "url", ["http://localhost:8000/hook", "http://127.0.0.1/hook", "http://[::1]:9000/"]
)
async def test_plain_http_is_for_localhost(admin_client, db, url):
    response = await admin_client.submit(
        "/admin/webhooks", [("url", url), *EVENTS], form_page="/admin/webhooks"
    )
    assert response.status == 200
    assert await db.fetchval("SELECT url FROM webhook_endpoints") == url


async def test_disable_enable_and_test_event(admin_client, db):
    endpoint = await add_endpoint(db, events=["flag.created"])
    base = f"/admin/webhooks/{endpoint}"
    response = await admin_client.submit(f"{base}/disable", {}, form_page=base)
    assert (response.status, response.headers["Location"]) == (303, f"{base}?done=disabled")
    assert not await db.fetchval("SELECT enabled FROM webhook_endpoints")
    page = await (await admin_client.get(f"{base}?done=disabled")).text()
    assert "The endpoint is disabled" in page
    await db.execute("UPDATE webhook_endpoints SET disabled_why = 'The receiver answered 410.'")
    await admin_client.submit(f"{base}/enable", {}, form_page=base)
    assert await db.fetchrow("SELECT enabled, disabled_why FROM webhook_endpoints") == (True, None)
    other = await add_endpoint(db)
    response = await admin_client.submit(f"{base}/test", {}, form_page=base)
    assert response.status == 303
    assert await db.fetch("SELECT endpoint_id, event_type FROM webhook_deliveries") == [
        (endpoint, "webhook.test")
    ]
    assert other != endpoint


async def test_delete_asks_on_a_page_of_its_own(admin_client, db):
    endpoint = await add_endpoint(db)
    await add_endpoint(db)
    await db.execute(
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data)"
        " SELECT endpoint_id, 'flag.created', '{}' FROM webhook_endpoints"
    )
    base = f"/admin/webhooks/{endpoint}"
    page = await (await admin_client.get(base)).text()
    assert f'href="{base}/delete"' in page
    confirm = await (await admin_client.get(f"{base}/delete")).text()
    assert "Delete this endpoint?" in confirm and f'action="{base}/delete"' in confirm
    response = await admin_client.submit(f"{base}/delete", {}, form_page=f"{base}/delete")
    assert (response.status, response.headers["Location"]) == (303, "/admin/webhooks")
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 1
    assert (
        await db.fetchval(
            "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1", endpoint
        )
        == 0
    )
    assert await db.fetchval("SELECT count(*) FROM webhook_deliveries") == 1
    assert (await admin_client.get(base)).status == 404


async def test_deliveries_are_listed_escaped_and_replayed(admin_client, db):
    endpoint = await add_endpoint(db)
    delivery_id = await db.fetchval(
        "INSERT INTO webhook_deliveries (endpoint_id, event_type, data, status, attempts,"
        " last_status, last_answer, last_attempt_at)"
        " VALUES ($1, 'flag.created', '{}', 'failed', 8, 500, '<script>alert(1)</script>', now())"
        " RETURNING delivery_id",
        endpoint,
    )
    base = f"/admin/webhooks/{endpoint}"
    page = await (await admin_client.get(base)).text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert f"msg_{delivery_id}" in page and "failed" in page
    replay = f"{base}/deliveries/{delivery_id}/replay"
    response = await admin_client.submit(replay, {}, form_page=base)
    assert (response.status, response.headers["Location"]) == (303, f"{base}?done=replay")
    row = await db.fetchrow(
        "SELECT status, attempts, next_attempt_at <= now() AS due FROM webhook_deliveries"
    )
    assert tuple(row) == ("pending", 0, True)


@pytest.mark.parametrize(
    "path",
    [
        "/admin/webhooks/not-a-uuid",
        "/admin/webhooks/00000000-0000-4000-8000-000000000000",
        "/admin/webhooks/00000000-0000-4000-8000-000000000000/delete",
    ],
)
async def test_unknown_endpoints_are_404_pages(admin_client, path):
    response = await admin_client.get(path)
    assert response.status == 404
    assert "text/html" in response.headers["Content-Type"]


async def test_replay_of_an_unknown_delivery_is_404(admin_client, db):
    endpoint = await add_endpoint(db)
    base = f"/admin/webhooks/{endpoint}"
    response = await admin_client.submit(f"{base}/deliveries/99/replay", {}, form_page=base)
    assert response.status == 404


async def test_the_pages_need_a_signed_in_admin(page_client):
    response = await page_client.get("/admin/webhooks", allow_redirects=False)
    assert (response.status, response.headers["Location"]) == (303, "/admin/sign-in")
