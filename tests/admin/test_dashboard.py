"""The dashboard's counts, navigation and the headers of signed-in pages."""

import re

from tests.web import sign_in

NAVIGATION = [
    "/admin/riders",
    "/admin/import",
    "/admin/paths",
    "/admin/assign",
    "/admin/courses",
    "/admin/knowledge",
    "/admin/messages",
    "/admin/jobs",
    "/admin/admins",
]


def _stat(page: str, label: str) -> str:
    found = re.search(rf"<dt>{label}</dt><dd>(?:<a [^>]*>)?(\d+)", page)
    assert found, label
    return found.group(1)


async def test_dashboard_counts(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, status)"
        " SELECT 'R' || i, 'Rider ' || i, 'AE',"
        "        (ARRAY['onboarding','active','active','suspended','inactive'])[i]"
        " FROM generate_series(1, 5) i"
    )
    await db.execute(
        "INSERT INTO paths (path_id, name, active, days_to_complete, rule)"
        " VALUES ('00000000-0000-0000-0000-000000000001', 'Basics', true, 7, 'manual')"
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at) VALUES"
        " ('R1', '00000000-0000-0000-0000-000000000001', 'api', now() - interval '1 day', NULL),"
        " ('R2', '00000000-0000-0000-0000-000000000001', 'api', now() + interval '1 day', NULL),"
        " ('R3', '00000000-0000-0000-0000-000000000001', 'api', now(), now())"
    )
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error) VALUES"
        " ('R1', 'reminder', 'x', 'failed', 'refused'), ('R2', 'reminder', 'x', 'logged', NULL),"
        " ('R3', 'reminder', 'x', 'sent', NULL)"
    )
    await db.execute("INSERT INTO job_runs (job, slot) VALUES ('reminders', now())")
    response = await admin_client.get("/admin")
    assert response.status == 200
    page = await response.text()
    assert [_stat(page, label) for label in ["Onboarding", "Active", "Suspended", "Inactive"]] == [
        "1",
        "2",
        "1",
        "1",
    ]
    assert _stat(page, "Open assignments") == "2"
    assert _stat(page, "Overdue assignments") == "1"
    assert _stat(page, "Completions this week") == "0"
    assert _stat(page, "Messages to contact by hand") == "2"
    assert "<td>reminders</td>" in page


async def test_navigation_names_every_panel_page(admin_client):
    page = await (await admin_client.get("/admin")).text()
    for href in NAVIGATION:
        assert f'href="{href}"' in page
    assert 'href="/admin" aria-current="page"' in page
    assert 'action="/admin/sign-out"' in page


async def test_signed_in_pages_are_not_cached_and_cannot_be_framed(admin_client):
    response = await admin_client.get("/admin")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    page = await response.text()
    assert "<script" not in page and "style=" not in page
    assert not re.search(r"\son[a-z]+=", page)


async def test_names_are_escaped(page_client, make_admin):
    admin = await make_admin(name="<script>alert(1)</script>")
    await sign_in(page_client, admin)
    page = await (await page_client.get("/admin")).text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


async def test_dashboard_while_the_database_is_down_is_a_503_page(admin_client, database_down):
    async with database_down():
        response = await admin_client.get("/admin", allow_redirects=False)
        assert response.status == 503
        assert response.content_type == "text/html"
        assert "not available right now" in await response.text()


async def test_a_404_in_the_panel_keeps_the_navigation(admin_client, make_client, db):
    for address in ("/admin/no-such-page", "/admin/riders/nobody"):
        response = await admin_client.get(address)
        assert response.status == 404
        page = await response.text()
        assert "<h1>Not found</h1>" in page
        assert '<nav aria-label="Admin">' in page and 'href="/admin/riders"' in page
        assert '<a href="/admin">Go to the dashboard</a>' in page
    # Signed out, the way back is the sign-in page, before any page is looked for.
    signed_out = await make_client()
    response = await signed_out.get("/admin/no-such-page", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/admin/sign-in"
