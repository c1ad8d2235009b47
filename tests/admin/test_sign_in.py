"""Admin sign-in, sign-out, the guard and the throttle, as a browser sees them."""

from tests.web import PHONE, PageClient, csrf_of, sign_in, sign_in_page

DESK = {"width": 1280, "height": 800}


async def test_sign_in_page_has_a_form_with_a_csrf_token(page_client):
    response = await page_client.get("/admin/sign-in")
    assert response.status == 200
    assert response.content_type == "text/html"
    page = await response.text()
    assert 'name="email"' in page and 'name="password"' in page
    assert 'name="csrf_token"' in page
    assert "csrf_presession" in response.cookies


async def test_right_password_signs_in_and_opens_the_dashboard(page_client, make_admin):
    admin = await make_admin()
    response = await sign_in(page_client, admin)
    assert response.status == 303
    assert response.headers["Location"] == "/admin"
    cookie = response.cookies["admin_session"]
    assert cookie["path"] == "/admin"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert not cookie["secure"]
    assert int(cookie["max-age"]) == 12 * 3600
    dashboard = await page_client.get("/admin")
    assert dashboard.status == 200
    assert "Ada Admin" in await dashboard.text()


async def test_a_sign_in_gives_the_browser_a_device_cookie_of_the_panel(page_client, make_admin):
    admin = await make_admin()
    cookie = (await sign_in(page_client, admin)).cookies["admin_device"]
    assert cookie["path"] == "/admin"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert not cookie["secure"]
    assert int(cookie["max-age"]) == 365 * 24 * 3600


async def test_a_desk_stays_known_after_signing_out(make_client, make_admin):
    desk, stranger = [PageClient(await make_client()) for _ in range(2)]
    admin = await make_admin()
    assert (await sign_in(desk, admin)).status == 303
    response = await desk.submit("/admin/sign-out", {}, form_page="/admin")
    assert response.status == 303 and "admin_device" not in response.cookies
    for _ in range(5):
        response = await stranger.submit(
            "/admin/sign-in", {"email": admin.email, "password": "wrong password!"}
        )
        assert response.status == 401
    assert (await sign_in(stranger, admin)).status == 429
    assert (await sign_in(desk, admin)).status == 303


async def test_email_is_matched_whatever_its_case(page_client, make_admin):
    admin = await make_admin(email="Ada@Example.com")
    response = await page_client.submit(
        "/admin/sign-in", {"email": "ada@EXAMPLE.com", "password": admin.password}
    )
    assert response.status == 303


async def test_cookie_is_secure_when_the_service_is_reached_over_https(make_client, make_admin):
    client = await make_client(PUBLIC_BASE_URL="https://ops.example.com")
    admin = await make_admin()
    form = await client.get("/admin/sign-in")
    pre_session = form.cookies["csrf_presession"]
    assert pre_session["secure"] is True
    assert pre_session["httponly"] is True
    # The test client speaks http, so it keeps Secure cookies to itself: send them by hand.
    response = await client.post(
        "/admin/sign-in",
        data={
            "email": admin.email,
            "password": admin.password,
            "csrf_token": csrf_of(await form.text()),
        },
        cookies={"csrf_presession": pre_session.value},
        allow_redirects=False,
    )
    assert response.status == 303
    assert response.cookies["admin_session"]["secure"] is True
    assert response.cookies["admin_device"]["secure"] is True


async def test_wrong_password_unknown_email_and_disabled_admin_get_the_same_401(
    page_client, make_admin
):
    await make_admin()
    await make_admin(email="gone@example.com", disabled=True)
    for email, password in [
        ("ada@example.com", "not the password"),
        ("nobody@example.com", "correct horse battery"),
        ("gone@example.com", "correct horse battery"),
    ]:
        response = await page_client.submit(
            "/admin/sign-in", {"email": email, "password": password}
        )
        assert response.status == 401
        page = await response.text()
        assert "Wrong email or password" in page
        assert f'value="{email}"' in page  # the entered email is kept
        assert "admin_session" not in response.cookies
        assert "admin_device" not in response.cookies


async def test_missing_fields_are_shown_on_the_form(page_client):
    response = await page_client.submit("/admin/sign-in", {"email": "  "})
    assert response.status == 400
    page = await response.text()
    assert page.count("This field is required.") == 2


async def test_sixth_attempt_is_429_even_with_the_right_password(page_client, make_admin, db):
    admin = await make_admin()
    for _ in range(5):
        response = await page_client.submit(
            "/admin/sign-in", {"email": "ADA@example.com", "password": "wrong password!"}
        )
        assert response.status == 401
    response = await sign_in(page_client, admin)
    assert response.status == 429
    assert "Too many sign-in attempts. Try again in 15 minutes." in await response.text()
    assert "admin_session" not in response.cookies
    assert "admin_device" not in response.cookies
    # Counted in PostgreSQL: once the failures are older than 15 minutes, sign-in works again.
    await db.execute("UPDATE sign_in_attempts SET at = at - interval '15 minutes 1 second'")
    assert (await sign_in(page_client, admin)).status == 303


async def test_throttle_names_the_minutes_left(page_client, make_admin, db):
    admin = await make_admin()
    await db.execute(
        "INSERT INTO sign_in_attempts (kind, subject, address, at)"
        " SELECT 'admin', 'ada@example.com', '127.0.0.1', now() - interval '12 minutes 30 seconds'"
        " FROM generate_series(1, 5)"
    )
    response = await sign_in(page_client, admin)
    assert response.status == 429
    assert "Try again in 3 minutes." in await response.text()


async def test_post_without_csrf_token_is_a_403_page(page_client, make_admin):
    admin = await make_admin()
    await page_client.get("/admin/sign-in")  # the pre-session cookie is set
    for data in [
        {"email": admin.email, "password": admin.password},
        {"email": admin.email, "password": admin.password, "csrf_token": "forged"},
    ]:
        response = await page_client.post("/admin/sign-in", data=data, allow_redirects=False)
        assert response.status == 403
        assert response.content_type == "text/html"
        assert "admin_session" not in response.cookies


async def test_token_without_its_cookie_is_refused(make_client, page_client, make_admin):
    admin = await make_admin()
    token = await page_client.csrf("/admin/sign-in")
    stranger = await make_client()  # another browser: no pre-session cookie
    response = await stranger.post(
        "/admin/sign-in",
        data={"email": admin.email, "password": admin.password, "csrf_token": token},
        allow_redirects=False,
    )
    assert response.status == 403


async def test_sign_in_page_renders_while_the_database_is_down(page_client, database_down):
    async with database_down():
        response = await page_client.get("/admin/sign-in")
        assert response.status == 200
        assert 'name="csrf_token"' in await response.text()


async def test_sign_in_while_the_database_is_down_is_503(page_client, make_admin, database_down):
    admin = await make_admin()
    token = await page_client.csrf("/admin/sign-in")
    async with database_down():
        response = await page_client.post(
            "/admin/sign-in",
            data={"email": admin.email, "password": admin.password, "csrf_token": token},
            allow_redirects=False,
        )
        assert response.status == 503
        assert "Sign-in is not available right now" in await response.text()


async def test_sign_in_is_refused_without_session_secret(make_client, make_admin):
    client = PageClient(await make_client(SESSION_SECRET=None))
    admin = await make_admin()
    response = await sign_in(client, admin)
    assert response.status == 503
    assert "Set SESSION_SECRET to a random value of at least 16 characters" in (
        await response.text()
    )


async def test_pages_without_a_session_redirect_to_sign_in(page_client):
    for path in ["/admin", "/admin/riders", "/admin/anything/at/all"]:
        response = await page_client.get(path, allow_redirects=False)
        assert response.status == 303, path
        assert response.headers["Location"] == "/admin/sign-in"
    response = await page_client.get(
        "/admin", cookies={"admin_session": "made-up"}, allow_redirects=False
    )
    assert response.status == 303


async def test_sign_out_ends_the_session(admin_client, db):
    cookie = admin_client.session.cookie_jar.filter_cookies(admin_client.make_url("/admin"))
    stolen = cookie["admin_session"].value
    response = await admin_client.submit("/admin/sign-out", {}, form_page="/admin")
    assert response.status == 303
    assert response.headers["Location"] == "/admin/sign-in"
    assert await db.fetchval("SELECT count(*) FROM web_sessions") == 0
    again = await admin_client.get(
        "/admin", cookies={"admin_session": stolen}, allow_redirects=False
    )
    assert again.status == 303


async def test_sign_out_without_csrf_token_is_403(admin_client, db):
    response = await admin_client.post("/admin/sign-out", allow_redirects=False)
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM web_sessions") == 1


async def test_a_disabled_admins_session_is_refused_at_once(admin_client, db):
    await db.execute("UPDATE admins SET disabled_at = now()")
    response = await admin_client.get("/admin", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/admin/sign-in"


async def test_session_slides_and_expires(admin_client, db):
    await db.execute("UPDATE web_sessions SET expires_at = now() + interval '1 minute'")
    assert (await admin_client.get("/admin")).status == 200
    left = await db.fetchval("SELECT expires_at - now() FROM web_sessions")
    assert left.total_seconds() > 11.9 * 3600
    await db.execute("UPDATE web_sessions SET expires_at = now() - interval '1 second'")
    response = await admin_client.get("/admin", allow_redirects=False)
    assert response.status == 303


async def test_pages_within_a_minute_do_not_write_the_session(admin_client, db):
    # A page load costs no write (and no WAL flush) for its session: the row's version stays.
    version = await db.fetchval("SELECT xmin::text FROM web_sessions")
    for _ in range(3):
        assert (await admin_client.get("/admin")).status == 200
    assert await db.fetchval("SELECT xmin::text FROM web_sessions") == version


async def test_only_the_hash_of_the_session_id_is_stored(admin_client, db):
    cookie = admin_client.session.cookie_jar.filter_cookies(admin_client.make_url("/admin"))
    session_id = cookie["admin_session"].value
    stored = await db.fetchval("SELECT id_hash FROM web_sessions")
    assert session_id.encode() not in stored
    assert len(stored) == 32


def _max_age(response) -> int:
    return int(response.cookies["admin_session"]["max-age"])


async def test_each_visit_renews_the_cookie_for_the_sliding_12_hours(admin_client, db):
    response = await admin_client.get("/admin")
    assert 11.9 * 3600 < _max_age(response) <= 12 * 3600
    response = await admin_client.submit("/admin/sign-out", {}, form_page="/admin")
    assert response.cookies["admin_session"].value == ""  # sign-out's clearing stands


async def test_a_session_ends_7_days_after_sign_in_however_often_visited(admin_client, db):
    await db.execute(
        "UPDATE web_sessions SET created_at = now() - interval '7 days' + interval '1 minute'"
    )
    response = await admin_client.get("/admin")
    assert response.status == 200
    assert _max_age(response) <= 60
    left = await db.fetchval("SELECT expires_at - now() FROM web_sessions")
    assert left.total_seconds() <= 60
    await db.execute(
        "UPDATE web_sessions SET created_at = now() - interval '7 days 1 second',"
        " expires_at = now() + interval '12 hours'"
    )
    response = await admin_client.get("/admin", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/admin/sign-in"


async def _try_in_browser(page, base_url: str, email: str, password: str) -> None:
    await page.goto(f"{base_url}/admin/sign-in")
    await page.fill("#email", email)
    await page.fill("#password", password)
    await page.click("button[type=submit]")


async def test_a_browser_keeps_its_desk_known_through_sign_out_and_an_attack(
    live_server, browser, make_admin
):
    admin = await make_admin()
    desk, elsewhere = [await browser.new_context(viewport=size) for size in (DESK, PHONE)]
    try:
        page, stranger = await desk.new_page(), await elsewhere.new_page()
        await sign_in_page(page, live_server, admin.email, admin.password)
        await page.click("text=Sign out")
        assert page.url == f"{live_server}/admin/sign-in"
        for _ in range(5):
            await _try_in_browser(stranger, live_server, admin.email, "wrong password!")
            assert "Wrong email or password" in await stranger.content()
        await _try_in_browser(stranger, live_server, admin.email, admin.password)
        assert "Too many sign-in attempts" in await stranger.content()
        await sign_in_page(page, live_server, admin.email, admin.password)
    finally:
        await desk.close()
        await elsewhere.close()
