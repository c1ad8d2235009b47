"""The webhooks pages: add (the secret shown once), refused input kept on the form (URLs
into the service's own network among them), disable, enable, delete after asking, test event,
deliveries with "Replay", an attempt's status shown and never the answer's body."""

import html
import re

import pytest

from app.admin.webhooks import ENABLED
from app.web import create_app
from app.webhooks import delivery
from tests.admin.notices import said_once
from tests.conftest import make_settings
from tests.web import PageClient, sign_in
from tests.webhooks.receiver import ANSWER, Receiver, until
from tests.webhooks.rows import add_endpoint

# A public address: no lookup is needed to accept it, and nothing is sent when it is added.
FORM = {"url": "https://93.184.215.14/rider-ops", "description": "Acme LMS"}
EVENTS = [("events", "completion.created"), ("events", "flag.created")]


def secret_of(page: str) -> str:
    match = re.search(r'<input[^>]* value="([^"]+)"[^>]*data-secret>', page)
    assert match, "no field with data-secret"
    return match.group(1)


async def test_add_shows_the_secret_once(admin_client, db):
    response = await admin_client.submit(
        "/admin/webhooks", [*FORM.items(), *EVENTS], form_page="/admin/webhooks"
    )
    assert response.status == 303
    shown = response.headers["Location"]
    assert re.fullmatch(r"/admin/shown-once/[0-9a-f-]{36}", shown)
    page = await admin_client.text(shown)
    assert "Signing secret of the new webhook endpoint" in page
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
    assert f'href="/admin/webhooks/{row["endpoint_id"]}"' in page
    refreshed = await admin_client.text(shown)
    assert secret not in refreshed and "cannot be shown again" in refreshed
    again = await (await admin_client.get(f"/admin/webhooks/{row['endpoint_id']}")).text()
    assert secret not in again and "data-secret" not in again
    listing = await (await admin_client.get("/admin/webhooks")).text()
    assert FORM["url"] in listing and secret not in listing


PUBLIC_ONLY = "webhooks go only to public addresses."
LOOPBACK = f"a loopback address (this machine): {PUBLIC_ONLY}"
PRIVATE = f"a private network address: {PUBLIC_ONLY}"
LINK_LOCAL = f"a link-local address (where cloud metadata services answer): {PUBLIC_ONLY}"
NOT_AN_IP = "Write an IP address as four numbers from 0 to 255, like 203.0.113.7."


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://hooks.example.com/x", "Enter an https:// URL."),
        ("http://localhost:8000/hook", "Enter an https:// URL."),
        ("ftp://hooks.example.com/x", "Enter an https:// URL."),
        ("https://", "Enter an https:// URL."),
        ("https://user:pw@hooks.example.com/x", "The URL must not hold a user name or password"),
        ("https://token@hooks.example.com/x", "The URL must not hold a user name or password"),
        ("https://hooks.example.com/" + "a" * 1980, "At most 2,000 characters."),
        ("https://10.0.0.5/", f"10.0.0.5 is {PRIVATE}"),
        ("https://172.20.1.1/", f"172.20.1.1 is {PRIVATE}"),
        ("https://192.168.0.10/", f"192.168.0.10 is {PRIVATE}"),
        ("https://127.0.0.1:8443/hook", f"127.0.0.1 is {LOOPBACK}"),
        ("https://[::1]/", f"::1 is {LOOPBACK}"),
        ("https://169.254.169.254/latest/meta-data/", f"169.254.169.254 is {LINK_LOCAL}"),
        ("https://[fe80::1]/", f"fe80::1 is {LINK_LOCAL}"),
        ("https://100.64.0.1/", "100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10)"),
        ("https://[fd00::1]/", f"fd00::1 is a unique-local IPv6 address (fc00::/7): {PUBLIC_ONLY}"),
        ("https://224.0.0.251/", f"224.0.0.251 is a multicast address: {PUBLIC_ONLY}"),
        ("https://0.0.0.0/", f"0.0.0.0 is an unspecified address: {PUBLIC_ONLY}"),
        ("https://255.255.255.255/", "255.255.255.255 is a reserved address"),
        ("https://[::ffff:10.0.0.5]/", f"(which leads to 10.0.0.5) is {PRIVATE}"),
        ("https://0x7f.1/", NOT_AN_IP),
        ("https://2130706433/", NOT_AN_IP),
        ("https://127.0.0.1./", NOT_AN_IP),
        # A name is looked up: every address it has is checked.
        ("https://localhost:8443/hook", f"localhost resolves to {LOOPBACK}"),
        ("https://admin:pw@localhost/", "The URL must not hold a user name or password"),
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
    assert html.escape(message, quote=False) in page
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


@pytest.fixture
def panel(aiohttp_client, database_url, session_env, make_admin):
    """`await panel(**env)`: an admin signed in to an app (a `serve` process, its delivery
    loop running) started with these settings."""

    async def start(**env) -> PageClient:
        app = create_app(make_settings(**session_env, **env), database_url)
        delivery.setup(app)
        client = await aiohttp_client(app)
        response = await sign_in(client, await make_admin())
        assert response.status == 303
        return PageClient(client)

    return start


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost:8000/hook",
        "http://127.0.0.1/hook",
        "http://[::1]:9000/",
        "https://10.0.0.5/hook",
        "http://192.168.1.20:8080/",
    ],
)
async def test_the_setting_allows_private_addresses_over_http_too(panel, db, url):
    admin = await panel(WEBHOOKS_ALLOW_PRIVATE="1")
    form = await (await admin.get("/admin/webhooks")).text()
    assert "URL (https://, or http:// to a private or loopback address)" in form
    response = await admin.submit(
        "/admin/webhooks", [("url", url), *EVENTS], form_page="/admin/webhooks"
    )
    assert response.status == 303
    assert await db.fetchval("SELECT url FROM webhook_endpoints") == url


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://93.184.215.14/x", "93.184.215.14 is a public address: enter an https:// URL."),
        ("https://169.254.169.254/", f"169.254.169.254 is {LINK_LOCAL}"),
        ("ftp://localhost/", "Enter an https:// URL (http:// only to a private or loopback"),
    ],
)
async def test_the_setting_still_refuses(panel, db, url, message):
    admin = await panel(WEBHOOKS_ALLOW_PRIVATE="1")
    response = await admin.submit(
        "/admin/webhooks", [("url", url), *EVENTS], form_page="/admin/webhooks"
    )
    assert response.status == 400
    assert html.escape(message, quote=False) in await response.text()
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 0


async def _attempted(db) -> bool:
    return await db.fetchval("SELECT bool_and(attempts > 0) FROM webhook_deliveries") is True


async def test_a_test_event_shows_the_status_and_never_the_answer(panel, db, aiohttp_server):
    admin = await panel(WEBHOOKS_ALLOW_PRIVATE="1")
    receiver = Receiver()
    receiver.answers = [500]
    server = await aiohttp_server(receiver.app())
    endpoint = await add_endpoint(db, f"http://127.0.0.1:{server.port}/hook")
    base = f"/admin/webhooks/{endpoint}"
    response = await admin.submit(f"{base}/test", {}, form_page=base)
    assert response.status == 303
    await until(lambda: _attempted(db))
    page = await (await admin.get(base)).text()
    assert "HTTP 500" in page and "webhook.test" in page
    assert ANSWER not in page and "internal-answer" not in page
    assert len(receiver.requests) == 1


async def test_a_test_event_to_a_private_address_is_not_sent_and_says_why(panel, db):
    """An endpoint saved before the rules (written to the database directly)."""
    admin = await panel()
    endpoint = await add_endpoint(db, "https://10.0.0.5/hook")
    base = f"/admin/webhooks/{endpoint}"
    response = await admin.submit(f"{base}/test", {}, form_page=base)
    assert response.status == 303
    await until(lambda: _attempted(db))
    page = await (await admin.get(base)).text()
    assert f"10.0.0.5 is {PRIVATE}" in page
    assert await db.fetchrow("SELECT status, last_status FROM webhook_deliveries") == (
        "pending",
        None,
    )


async def test_disable_enable_and_test_event(admin_client, db):
    endpoint = await add_endpoint(db, events=["flag.created"])
    base = f"/admin/webhooks/{endpoint}"
    response = await admin_client.submit(f"{base}/disable", {}, form_page=base)
    assert response.headers["Location"].startswith(f"{base}?notice=")
    assert await said_once(admin_client, response) == ENABLED[False]
    assert not await db.fetchval("SELECT enabled FROM webhook_endpoints")
    await db.execute("UPDATE webhook_endpoints SET disabled_why = 'The receiver answered 410.'")
    response = await admin_client.submit(f"{base}/enable", {}, form_page=base)
    assert await said_once(admin_client, response) == ENABLED[True]
    assert await db.fetchrow("SELECT enabled, disabled_why FROM webhook_endpoints") == (True, None)
    other = await add_endpoint(db)
    response = await admin_client.submit(f"{base}/test", {}, form_page=base)
    said = await said_once(admin_client, response)
    assert said == "A test event is on its way; it appears below."
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
    assert response.headers["Location"].startswith("/admin/webhooks?notice=")
    said = await said_once(admin_client, response)
    assert said == "The endpoint is deleted with its deliveries: nothing is sent to it any more."
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
        " VALUES ($1, 'flag.created', '{}', 'failed', 8, NULL, '<script>alert(1)</script>', now())"
        " RETURNING delivery_id",
        endpoint,
    )
    base = f"/admin/webhooks/{endpoint}"
    page = await (await admin_client.get(base)).text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert f"msg_{delivery_id}" in page and "failed" in page
    replay = f"{base}/deliveries/{delivery_id}/replay"
    response = await admin_client.submit(replay, {}, form_page=base)
    said = await said_once(admin_client, response)
    assert said == f"The delivery msg_{delivery_id} is sent again now."
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
