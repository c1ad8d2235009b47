"""One-tap links: signed, expiring, and the page that signs the rider in."""

import hashlib
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie

import pytest
import structlog

from app.core.sessions import RIDER
from app.messaging.links import (
    LINK_PURPOSE,
    ExpiredToken,
    InvalidToken,
    one_tap_link,
    revoke_links,
    sign,
    signature_removed,
    verify,
)
from tests.conftest import TEST_KEYS, make_settings
from tests.messaging.rows import add_path, add_rider, assign

SECRET = TEST_KEYS["SESSION_SECRET"]
SESSION_COOKIE = RIDER.cookie
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def _token(link: str) -> str:
    return link.rpartition("/t/")[2]


def test_link_is_under_the_public_base_url_and_valid_2_days():
    settings = make_settings(PUBLIC_BASE_URL="https://academy.example.com/")
    link = one_tap_link(settings, "R-1:x", NOW)
    assert link.startswith("https://academy.example.com/t/")
    token = _token(link)
    last_second = NOW + timedelta(days=2) - timedelta(seconds=1)
    assert verify(SECRET, LINK_PURPOSE, token, last_second) == "R-1:x"
    with pytest.raises(ExpiredToken):
        verify(SECRET, LINK_PURPOSE, token, NOW + timedelta(days=2))


def test_no_link_without_a_usable_secret():
    assert one_tap_link(make_settings(SESSION_SECRET="too-short"), "R-1", NOW) is None
    assert one_tap_link(make_settings(SESSION_SECRET=None), "R-1", NOW) is None


WEEK = NOW + timedelta(days=7)
LATER = NOW + timedelta(days=70)


def _payload(token):
    return token.split(".")[0]


def _mac(token):
    return token.split(".")[1]


FORGERIES = {
    "other secret": lambda t: sign("another-secret-0123456789", LINK_PURPOSE, "R-1", WEEK),
    "other purpose": lambda t: sign(SECRET, b"rider-session", "R-1", WEEK),
    "other rider": lambda t: f"{_payload(sign(SECRET, LINK_PURPOSE, 'R-2', WEEK))}.{_mac(t)}",
    "later expiry": lambda t: f"{_payload(sign(SECRET, LINK_PURPOSE, 'R-1', LATER))}.{_mac(t)}",
    "changed signature": lambda t: t[:-2] + ("BB" if t.endswith("AA") else "AA"),
    "no signature": _payload,
    "not base64": lambda t: f"%%%.{_mac(t)}",
}


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
def test_forged_tokens_are_refused(forge):
    genuine = sign(SECRET, LINK_PURPOSE, "R-1", WEEK)
    with pytest.raises(InvalidToken):
        verify(SECRET, LINK_PURPOSE, forge(genuine), NOW)


async def _rider_with_training(db):
    await add_rider(db, "R-1", name="Sam <Rider>")
    late = await add_path(db, "Road safety")
    soon = await add_path(db, "Food handling")
    done = await add_path(db, "Welcome")
    await assign(db, "R-1", soon, due_in_days=3)
    await assign(db, "R-1", late, due_in_days=-2)
    await assign(db, "R-1", done, due_in_days=1, completed=True)


async def test_link_signs_the_rider_in_and_opens_their_training(make_client, db):
    await _rider_with_training(db)
    client = await make_client(PUBLIC_BASE_URL="https://academy.example.com")
    settings = make_settings(PUBLIC_BASE_URL="https://academy.example.com")
    now = datetime.now(UTC)
    link = one_tap_link(settings, "R-1", now)
    with structlog.testing.capture_logs() as logs:
        response = await client.get(f"/t/{_token(link)}", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/training"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    cookie = SimpleCookie(response.headers["Set-Cookie"])[SESSION_COOKIE]
    assert cookie["httponly"] and cookie["secure"]
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/"
    assert int(cookie["max-age"]) == 7 * 24 * 3600
    # The cookie names a server-side session (only its hash is stored), not a signed token.
    stored = await db.fetchval("SELECT id_hash FROM web_sessions WHERE rider_id = 'R-1'")
    assert stored == hashlib.sha256(cookie.value.encode()).digest()
    with pytest.raises(InvalidToken):
        verify(SECRET, LINK_PURPOSE, cookie.value, now)
    # The token is a credential: the access log names the route, not the token.
    (access,) = [e for e in logs if e["event"] == "request"]
    assert access["path"] == "/t/{token}"
    assert _token(link) not in str(logs)
    # The session opens the rider's training (the test client speaks http: send it by hand).
    training = await client.get("/training", cookies={SESSION_COOKIE: cookie.value})
    page = await training.text()
    assert "Hi <bdi>Sam &lt;Rider&gt;</bdi>" in page
    # Each assignment says how far its deadline is, then the deadline itself.
    overdue = f"({(now - timedelta(days=2)):%Y-%m-%d})"
    due = f"({(now + timedelta(days=3)):%Y-%m-%d})"
    assert "Overdue by 2 days" in page
    assert page.index("Road safety") < page.index(overdue) < page.index("Food handling")
    assert page.index(due) < page.index("Finished training") < page.index("Welcome")


async def test_cookie_is_not_secure_over_plain_http(client, db):
    await add_rider(db, "R-1")
    link = one_tap_link(make_settings(), "R-1", datetime.now(UTC))
    response = await client.get(f"/t/{_token(link)}")
    assert response.status == 200
    assert "You have no open training" in await response.text()
    assert response.history[0].status == 303
    cookie = SimpleCookie(response.history[0].headers["Set-Cookie"])[SESSION_COOKIE]
    assert not cookie["secure"]


async def _refused(client, token, status, title):
    response = await client.get(f"/t/{token}")
    assert response.status == status
    assert response.content_type == "text/html"
    page = await response.text()
    assert f"<h1>{title}</h1>" in page
    assert "Traceback" not in page
    assert "Set-Cookie" not in response.headers
    return page


async def test_expired_link_is_a_clear_400_page(client, db):
    await add_rider(db, "R-1")
    token = sign(SECRET, LINK_PURPOSE, "R-1", datetime.now(UTC) - timedelta(seconds=1))
    page = await _refused(client, token, 400, "This link has expired")
    assert "new link" in page


@pytest.mark.parametrize("token", ["nonsense", "a.b", "%E2%82%AC.%E2%82%AC", "x" * 3000])
async def test_bad_link_is_a_clear_400_page(client, token):
    await _refused(client, token, 400, "This link is not valid")


async def test_link_of_an_unknown_rider_is_refused(client):
    token = _token(one_tap_link(make_settings(), "R-404", datetime.now(UTC)))
    await _refused(client, token, 400, "This link is not valid")


async def test_inactive_rider_cannot_sign_in(client, db):
    await add_rider(db, "R-1", status="inactive")
    token = _token(one_tap_link(make_settings(), "R-1", datetime.now(UTC)))
    await _refused(client, token, 403, "Your account is not active")


@pytest.mark.parametrize("secret", [None, "fifteen-chars.."])
async def test_sign_in_refused_without_a_session_secret_while_the_api_works(
    make_client, db, secret
):
    await add_rider(db, "R-1")
    token = _token(one_tap_link(make_settings(), "R-1", datetime.now(UTC)))
    client = await make_client(SESSION_SECRET=secret)
    with structlog.testing.capture_logs() as logs:
        await _refused(client, token, 503, "Sign-in is not available right now")
    assert any(e["event"] == "SESSION_SECRET must be set" for e in logs)
    api = await client.get(
        "/api/v1/completions",
        params={"limit": "1"},
        headers={"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]},
    )
    assert api.status == 200


async def test_database_down_is_a_clear_503_page(client, db, database_down):
    await add_rider(db, "R-1")
    token = _token(one_tap_link(make_settings(), "R-1", datetime.now(UTC)))
    async with database_down():
        await _refused(client, token, 503, "Your training cannot be shown right now")


@pytest.mark.parametrize(
    ("method", "path", "status"), [("POST", "/t/anything", 405), ("GET", "/t/a/b", 404)]
)
async def test_errors_under_the_link_path_are_pages_not_json(client, method, path, status):
    response = await client.request(method, path)
    assert response.status == status
    assert response.content_type == "text/html"
    assert "<h1>" in await response.text()


async def test_a_revoked_riders_links_are_refused_and_new_ones_work(client, db):
    await add_rider(db, "R-1", name="Sam")
    settings = make_settings()
    before = one_tap_link(settings, "R-1", datetime.now(UTC) - timedelta(seconds=5))
    assert (await client.get(f"/t/{_token(before)}", allow_redirects=False)).status == 303
    assert await revoke_links(db, "R-1") is True
    await _refused(client, _token(before), 400, "This link is not valid")
    after = one_tap_link(settings, "R-1", datetime.now(UTC) + timedelta(seconds=2))
    assert (await client.get(f"/t/{_token(after)}", allow_redirects=False)).status == 303
    assert await revoke_links(db, "R-unknown") is False


def test_a_stored_link_has_no_signature():
    settings = make_settings(PUBLIC_BASE_URL="https://academy.example.com")
    link = one_tap_link(settings, "R-1", NOW)
    stored = signature_removed(f"Open your training: {link}")
    assert stored == f"Open your training: {link.rpartition('.')[0]}.signature-removed"
    with pytest.raises(InvalidToken):
        verify(SECRET, LINK_PURPOSE, stored.rpartition("/t/")[2], NOW)
