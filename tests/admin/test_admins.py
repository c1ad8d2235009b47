"""The admins page: add, disable (sessions end at once), never the last active admin."""

from tests.web import PageClient, confirm_page, sign_in


async def test_list_and_add_an_admin_who_can_sign_in(admin_client, page_client, db):
    response = await admin_client.submit(
        "/admin/admins",
        {"email": "bo@example.com", "name": "Bo <b>", "password": "another long one"},
    )
    assert response.status == 303
    page = await (await admin_client.get("/admin/admins")).text()
    assert "bo@example.com" in page and "Bo &lt;b&gt;" in page and "ada@example.com" in page
    response = await page_client.submit(
        "/admin/sign-in", {"email": "bo@example.com", "password": "another long one"}
    )
    assert response.status == 303


async def test_add_errors_keep_the_values(admin_client, db):
    response = await admin_client.submit(
        "/admin/admins", {"email": "not-an-email", "name": "Bo", "password": "short"}
    )
    assert response.status == 400
    page = await response.text()
    assert "Enter an email address like name@example.com." in page
    assert "Use at least 12 characters." in page
    assert 'value="not-an-email"' in page and 'value="Bo"' in page
    assert "short" not in page
    response = await admin_client.submit(
        "/admin/admins", {"email": "ADA@example.com", "name": "Ada 2", "password": "x" * 12}
    )
    assert response.status == 400
    assert "An admin with this email exists." in await response.text()
    assert await db.fetchval("SELECT count(*) FROM admins") == 1


async def test_disabling_ends_the_admins_sessions_at_once(client, make_client, make_admin, db):
    first = PageClient(client)
    await sign_in(first, await make_admin())
    second = PageClient(await make_client())
    bo = await make_admin(email="bo@example.com", name="Bo")
    await sign_in(second, bo)
    assert (await second.get("/admin", allow_redirects=False)).status == 200
    response = await first.submit(
        "/admin/admins/disable", {"email": "BO@example.com"}, form_page="/admin/admins"
    )
    assert response.status == 303
    response = await second.get("/admin", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/admin/sign-in"
    assert (
        await db.fetchval("SELECT count(*) FROM web_sessions WHERE admin_id = $1", bo.admin_id) == 0
    )
    page = await (await first.get("/admin/admins")).text()
    assert "disabled " in page


async def test_the_last_active_owner_cannot_be_disabled(admin_client, make_admin, db):
    await make_admin(email="old@example.com", disabled=True)
    response = await admin_client.submit(
        "/admin/admins/disable", {"email": "ada@example.com"}, form_page="/admin/admins"
    )
    assert response.status == 400
    page = await response.text()
    assert "This is the last active owner" in page
    assert 'id="disable-email"' in page and 'value="ada@example.com"' in page
    assert await db.fetchval("SELECT count(*) FROM admins WHERE disabled_at IS NULL") == 1
    assert (await admin_client.get("/admin", allow_redirects=False)).status == 200


async def test_disable_errors(admin_client, make_admin):
    await make_admin(email="old@example.com", disabled=True)
    for email, message in [
        ("nobody@example.com", "No admin has this email."),
        ("old@example.com", "This admin is already disabled."),
        ("", "This field is required."),
    ]:
        response = await admin_client.submit(
            "/admin/admins/disable", {"email": email}, form_page="/admin/admins"
        )
        assert response.status == 400, email
        assert message in await response.text()


async def test_an_admin_can_disable_themselves_when_another_is_active(admin_client, make_admin):
    await make_admin(email="bo@example.com", name="Bo")
    response = await admin_client.submit(
        "/admin/admins/disable", {"email": "ada@example.com"}, form_page="/admin/admins"
    )
    assert response.status == 303
    response = await admin_client.get("/admin/admins", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/admin/sign-in"


async def test_posts_without_csrf_token_are_403(admin_client, db):
    for path, data in [
        ("/admin/admins", {"email": "bo@example.com", "name": "Bo", "password": "x" * 12}),
        ("/admin/admins/disable", {"email": "ada@example.com"}),
    ]:
        response = await admin_client.post(path, data=data, allow_redirects=False)
        assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM admins WHERE disabled_at IS NULL") == 1


async def test_disabling_is_asked_on_a_page_of_its_own_first(admin_client, make_admin, db):
    await make_admin(email="bo@example.com", name="Bo")
    admins_page = await (await admin_client.get("/admin/admins")).text()
    assert '<form class="card" method="get" action="/admin/admins/disable">' in admins_page
    page = await confirm_page(
        admin_client, "/admin/admins/disable?email=BO@example.com", "/admin/admins/disable"
    )
    assert "Disable Bo (bo@example.com)?" in page and "their sessions end at once" in page
    assert '<input type="hidden" name="email" value="bo@example.com">' in page
    assert await db.fetchval("SELECT count(*) FROM admins WHERE disabled_at IS NULL") == 2
    page = await (await admin_client.get("/admin/admins/disable?email=ada@example.com")).text()
    assert "You are disabling yourself: you will be signed out." in page


async def test_the_confirm_page_refuses_what_the_disable_would(admin_client, make_admin):
    for email, message in [
        ("nobody@example.com", "No admin has this email."),
        ("ada@example.com", "This is the last active owner"),
        ("", "This field is required."),
    ]:
        response = await admin_client.get(f"/admin/admins/disable?email={email}")
        assert response.status == 400
        page = await response.text()
        assert message in page and "Disable Ada" not in page
    await make_admin(email="old@example.com", disabled=True)
    response = await admin_client.get("/admin/admins/disable?email=old@example.com")
    assert "This admin is already disabled." in await response.text()
