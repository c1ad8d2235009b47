"""Admin roles and markets (docs/security.md): what an owner, an editor and a viewer may do
in the panel, and what an admin limited to markets sees and changes, through the panel's
pages as a person uses them."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import subprocess
import sys
import uuid

from aiohttp import web

from app.admin.guard import PUBLIC_PATHS
from app.admin.layout import FORBIDDEN_HINT
from app.admin.roles import ROLES
from app.web import create_app
from jobs.reports import recount
from tests.admin.riders_data import COURSE_ID, PATH_ID, add_history, add_riders
from tests.conftest import make_settings
from tests.web import PageClient, csrf_of, sign_in

# A value each of the panel's address parameters matches, so that a walk reaches every route.
SAMPLE_PARAMETERS = {
    "rider_id": "R-1",
    "path_id": PATH_ID,
    "course_id": COURSE_ID,
    "language": "ar",
    "job": "reports",
    "name": "riders",
    "delivery_id": "1",
    "key_id": "1",
    "message_id": "1",
}
PARAMETER = re.compile(r"\{(\w+)\}")


def _signed_in_routes(app: web.Application) -> list[tuple[str, str, object]]:
    """(method, address, handler) of every route of the panel a session is needed for."""
    found = []
    for route in app.router.routes():
        resource = route.resource
        canonical = resource.canonical if resource is not None else ""
        if not (canonical == "/admin" or canonical.startswith("/admin/")):
            continue
        if canonical in PUBLIC_PATHS or route.method == "HEAD":
            continue
        address = PARAMETER.sub(
            lambda m: SAMPLE_PARAMETERS.get(m.group(1), str(uuid.UUID(int=1))), canonical
        )
        found.append((route.method, address, route.handler))
    return found


async def _client_as(make_client, make_admin, role: str, markets=(), email=None) -> PageClient:
    email = email or f"{role}-{'-'.join(markets) or 'all'}@example.com"
    account = await make_admin(email=email, name=role.title(), role=role, markets=markets)
    client = PageClient(await make_client())
    response = await sign_in(client, account)
    assert response.status == 303, await response.text()
    client.admin = account
    return client


async def _post(client: PageClient, address: str, data=()) -> web.Response:
    """A form POST with the session's token (read from the dashboard's sign-out form)."""
    token = csrf_of(await (await client.get("/admin")).text())
    return await client.post(address, data=[*data, ("csrf_token", token)], allow_redirects=False)


# Every table but the sessions (a request renews its own), the sign-in throttle and yoyo's.
TABLES = """
SELECT quote_ident(table_name) FROM information_schema.tables
WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
  AND table_name NOT IN ('web_sessions', 'sign_in_failures') AND table_name NOT LIKE '%yoyo%'
ORDER BY table_name
"""


async def _database_state(db) -> dict[str, str]:
    """Each table's rows, as a digest."""
    state = {}
    for (table,) in await db.fetch(TABLES):
        state[table] = await db.fetchval(
            f"SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM {table} t"
        )
    return state


def test_every_route_of_the_panel_declares_its_role():
    from app.admin import PACKAGE

    app = web.Application()
    app.add_routes(PACKAGE.routes)
    routes = _signed_in_routes(app)
    assert len(routes) > 50
    undeclared = [(m, a) for m, a, handler in routes if getattr(handler, "role", None) not in ROLES]
    assert undeclared == []


async def test_a_route_that_declares_no_role_is_refused(
    aiohttp_client, database_url, session_env, make_admin
):
    app = create_app(make_settings(**session_env), database_url)

    async def undeclared(request: web.Request) -> web.Response:
        return web.Response(text="open to everyone")

    app.router.add_get("/admin/undeclared", undeclared)
    client = await aiohttp_client(app)
    await sign_in(client, await make_admin())
    response = await client.get("/admin/undeclared")
    assert response.status == 403
    assert "open to everyone" not in await response.text()
    # An address with no route still answers its own 404.
    assert (await client.get("/admin/no-such-page")).status == 404


async def test_a_viewer_changes_nothing_anywhere(make_client, make_admin, db):
    await add_riders(db)
    await add_history(db)
    viewer = await _client_as(make_client, make_admin, "viewer")
    before = await _database_state(db)
    changing = [
        (method, address)
        for method, address, _ in _signed_in_routes(viewer.app)
        if method != "GET" and address != "/admin/sign-out"
    ]
    assert len(changing) > 25
    for method, address in changing:
        response = await _post(viewer, address, [("status", "inactive"), ("email", "x@y.z")])
        assert response.status == 403, (method, address, response.status)
        page = await response.text()
        assert FORBIDDEN_HINT in page and 'aria-label="Admin"' in page, address
    assert await _database_state(db) == before


async def test_a_viewer_reads_pages_and_reports_but_exports_no_riders(make_client, make_admin, db):
    await add_riders(db)
    await add_history(db)
    await recount(db)
    viewer = await _client_as(make_client, make_admin, "viewer")
    for address in (
        "/admin",
        "/admin/riders",
        "/admin/riders/R-1",
        "/admin/paths",
        f"/admin/paths/{PATH_ID}",
        "/admin/courses",
        f"/admin/courses/{COURSE_ID}",
        "/admin/messages",
        "/admin/jobs",
        "/admin/knowledge",
        "/admin/reports",
    ):
        response = await viewer.get(address)
        assert response.status == 200, address
        page = await response.text()
        # The forms and buttons of changes are not shown (only the sign-out form posts).
        assert page.count('method="post"') == 1, address
    for name in ("paths", "weeks", "overdue"):
        response = await viewer.get(f"/admin/reports/{name}.csv")
        assert response.status == 200 and response.content_type == "text/csv"
    riders_page = await (await viewer.get("/admin/riders")).text()
    assert "/admin/exports/" not in riders_page
    nav = await (await viewer.get("/admin")).text()
    for hidden in (
        'href="/admin/import"',
        'href="/admin/assign"',
        'href="/admin/admins"',
        'href="/admin/webhooks"',
    ):
        assert hidden not in nav
    for address in (
        "/admin/exports/riders.csv",
        "/admin/exports/messages.csv",
        "/admin/assign",
        "/admin/import",
        "/admin/paths/new",
        "/admin/riders/R-1/pin",
    ):
        response = await viewer.get(address)
        assert response.status == 403, address
        assert FORBIDDEN_HINT in await response.text()


async def test_an_editor_may_not_use_what_is_the_owners(make_client, make_admin, db):
    editor = await _client_as(make_client, make_admin, "editor")
    for address in ("/admin/admins", "/admin/webhooks", "/admin/admins/disable?email=a@b.c"):
        response = await editor.get(address)
        assert response.status == 403, address
    for address in (
        "/admin/jobs/reports/run",
        "/admin/admins/role",
        "/admin/admins",
        "/admin/webhooks",
    ):
        response = await _post(editor, address, [("email", editor.admin.email), ("role", "owner")])
        assert response.status == 403, address
    assert await db.fetchval("SELECT role FROM admins WHERE email = $1", editor.admin.email) == (
        "editor"
    )
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0
    jobs = await (await editor.get("/admin/jobs")).text()
    assert "/admin/jobs/reports/run" not in jobs
    # What is theirs, they may: a rider's flag.
    await add_riders(db)
    response = await _post(editor, "/admin/riders/R-1/flags", [("type", "late_delivery")])
    assert response.status == 303


async def _add_jo_riders(db) -> None:
    """J-1 (active, a course passed this week, an open assignment past its deadline, a failed
    message) and J-2 (onboarding) in JO, beside the AE, KW and QA riders of riders_data."""
    await add_riders(db)
    await add_history(db)
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, phone, city, status) VALUES"
        " ('J-1', 'Jana Haddad', 'JO', '+962791234567', 'Amman', 'active'),"
        " ('J-2', 'Jamil Odeh', 'JO', '+962797654321', 'Irbid', 'onboarding')"
    )
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, proof_code) VALUES ('J-1', $1, 'en', now(), now(), 95, 1, 'ABCE2345')",
        COURSE_ID,
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline) VALUES"
        " ('J-1', $1, 'api', now() - interval '2 days')",
        PATH_ID,
    )
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error) VALUES"
        " ('J-1', 'reminder', 'Hi Jana', 'logged', NULL)"
    )


def _csv(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


async def test_a_market_limited_editor_sees_and_touches_only_their_markets(
    make_client, make_admin, db
):
    await _add_jo_riders(db)
    await recount(db)
    editor = await _client_as(make_client, make_admin, "editor", markets=("JO",))

    page = await (await editor.get("/admin/riders")).text()
    assert "J-1" in page and "J-2" in page
    assert not re.search(r">R-[1-4]<", page)
    # A later page counts the matches: JO's riders only.
    page = await (await editor.get("/admin/riders?after=J-1")).text()
    assert "J-2" in page and "2 riders match." in page
    page = await (await editor.get("/admin/riders?market=AE")).text()
    assert "R-1" not in page and "J-1" not in page
    assert (await editor.get("/admin/riders/J-1")).status == 200

    # Another market's rider is not found, nor is any action on them done.
    assert (await editor.get("/admin/riders/R-1")).status == 404
    assert (await editor.get("/admin/riders/R-1/pin")).status == 404
    pin_before = await db.fetchval("SELECT pin_hash FROM riders WHERE rider_id = 'R-1'")
    for action, data in [
        ("status", [("status", "suspended")]),
        ("pin", []),
        ("links/revoke", []),
        ("flags", [("type", "late_delivery")]),
        ("assignments", [("path_id", PATH_ID)]),
    ]:
        response = await _post(editor, f"/admin/riders/R-1/{action}", data)
        assert response.status == 404, action
    row = await db.fetchrow(
        "SELECT status, pin_hash, links_revoked_at FROM riders WHERE rider_id = 'R-1'"
    )
    assert row["status"] == "active" and row["pin_hash"] == pin_before
    assert row["links_revoked_at"] is None
    assert await db.fetchval("SELECT count(*) FROM flags WHERE rider_id = 'R-1'") == 1
    assert await db.fetchval("SELECT count(*) FROM assignments WHERE rider_id = 'R-1'") == 0

    # The assign page offers their markets; pasted IDs of others' riders match nothing.
    page = await (await editor.get("/admin/assign")).text()
    assert 'value="JO"' in page and 'value="AE"' not in page
    pasted = [("path_id", PATH_ID), ("rider_ids", "R-1\nR-3\nJ-2")]
    response = await _post(editor, "/admin/assign", pasted)
    assert response.status == 200
    assert "1 rider would be assigned" in await response.text()
    response = await _post(
        editor, "/admin/assign", [*pasted, ("confirm", "1"), ("expected_count", "1")]
    )
    assert response.status == 303
    assigned = await db.fetch("SELECT rider_id FROM assignments WHERE why = 'admin'")
    assert [r["rider_id"] for r in assigned] == ["J-2"]
    response = await _post(editor, "/admin/assign", [("path_id", PATH_ID), ("markets", "AE")])
    assert response.status == 400
    assert "You see only riders of JO: AE is not one of them." in await response.text()
    # Every rider of theirs, by a filter alone: J-1 and J-2 have the path now (J-1 by the API).
    response = await _post(editor, "/admin/assign", [("path_id", PATH_ID), ("statuses", "active")])
    assert "0 riders would be assigned (1 already has this path)" in await response.text()

    # Exports.
    for name, key in [
        ("riders", "riderId"),
        ("assignments", "riderId"),
        ("completions", "riderId"),
        ("messages", "riderId"),
    ]:
        response = await editor.get(f"/admin/exports/{name}.csv")
        assert response.status == 200, name
        rows = _csv(await response.text())
        assert rows and {row[key][:2] for row in rows} == {"J-"}, (name, rows)

    # Messages.
    page = await (await editor.get("/admin/messages")).text()
    assert "Jana Haddad" in page and "Sam Rivers" not in page

    # Reports and their CSVs: JO's overdue and completions alone.
    overdue = _csv(await (await editor.get("/admin/reports/overdue.csv")).text())
    assert [(row["market"], row["overdue"]) for row in overdue] == [("JO", "1")]
    weeks = _csv(await (await editor.get("/admin/reports/weeks.csv")).text())
    assert sum(int(row["completions"]) for row in weeks) == 1
    paths = _csv(await (await editor.get("/admin/reports/paths.csv")).text())
    assert [(row["path"], row["assigned"]) for row in paths] == [("Road basics", "1")]
    response = await editor.get("/admin/reports?markets=AE")
    assert response.status == 400
    assert "You see only riders of JO" in await response.text()
    assert (await editor.get("/admin/reports/overdue.csv?markets=AE")).status == 400
    page = await (await editor.get("/admin/reports")).text()
    assert 'value="JO"' in page and 'value="AE"' not in page

    # The dashboard's counts.
    page = await (await editor.get("/admin")).text()
    counts = dict(re.findall(r"<dt>([^<]+)</dt><dd><a [^>]+>(\d+)</a>", page))
    assert counts["Active"] == "1" and counts["Onboarding"] == "1"
    assert counts["Overdue assignments"] == "1"
    assert counts["Completions this week"] == "1"
    assert counts["Messages to contact by hand"] == "1"

    # An admin of every market sees them all.
    owner = await _client_as(make_client, make_admin, "owner")
    page = await (await owner.get("/admin")).text()
    counts = dict(re.findall(r"<dt>([^<]+)</dt><dd><a [^>]+>(\d+)</a>", page))
    assert counts["Active"] == "3" and counts["Completions this week"] == "2"


async def test_the_owner_sets_role_and_markets_counted_from_the_next_request(
    make_client, make_admin, db
):
    owner = await _client_as(make_client, make_admin, "owner")
    editor = await _client_as(make_client, make_admin, "editor")
    assert (await editor.get("/admin/riders")).status == 200
    page = await (await owner.get("/admin/admins")).text()
    assert "editor-all@example.com" in page and "every market" in page
    response = await owner.submit(
        "/admin/admins/role",
        [
            ("email", "EDITOR-all@example.com"),
            ("role", "viewer"),
            ("markets", "JO"),
            ("markets", "AE"),
            ("markets", "JO"),
        ],
        form_page="/admin/admins",
    )
    assert response.status == 303
    page = await owner.text(response.headers["Location"])
    assert "EDITOR-all@example.com is now viewer of JO, AE, from their next page." in page
    row = await db.fetchrow("SELECT role, markets FROM admins WHERE email = $1", editor.admin.email)
    assert row["role"] == "viewer" and row["markets"] == ["JO", "AE"]
    # The editor, still signed in, is a viewer from their next request.
    assert (await editor.get("/admin/assign")).status == 403
    page = await (await editor.get("/admin/riders")).text()
    assert 'value="JO"' in page and 'value="KW"' not in page
    event = await db.fetchrow("SELECT actor, action, target, summary FROM audit_events")
    assert dict(event) == {
        "actor": "owner-all@example.com",
        "action": "admin.role_changed",
        "target": "EDITOR-all@example.com",
        "summary": "editor of every market → viewer of JO, AE",
    }
    page = await (await owner.get("/admin/admins")).text()
    assert "JO, AE" in page


async def test_role_and_markets_errors(make_client, make_admin, db):
    owner = await _client_as(make_client, make_admin, "owner")
    for data, message in [
        ([("email", "owner-all@example.com"), ("role", "boss")], "Choose owner, editor or viewer."),
        (
            [("email", "owner-all@example.com"), ("role", "editor"), ("markets", "XX")],
            "XX is not a market code.",
        ),
        ([("email", "nobody@example.com"), ("role", "editor")], "No admin has this email."),
        ([("email", "owner-all@example.com")], "This field is required."),
    ]:
        response = await owner.submit("/admin/admins/role", data, form_page="/admin/admins")
        assert response.status == 400, data
        assert message in await response.text(), data
    response = await owner.submit(
        "/admin/admins",
        [("email", "new@example.com"), ("name", "New"), ("password", "x" * 12), ("role", "god")],
        form_page="/admin/admins",
    )
    assert response.status == 400
    assert "Choose owner, editor or viewer." in await response.text()
    response = await owner.submit(
        "/admin/admins",
        [
            ("email", "new@example.com"),
            ("name", "New"),
            ("password", "x" * 12),
            ("role", "viewer"),
            ("markets", "EG"),
        ],
        form_page="/admin/admins",
    )
    assert response.status == 303
    row = await db.fetchrow("SELECT role, markets FROM admins WHERE email = 'new@example.com'")
    assert row["role"] == "viewer" and row["markets"] == ["EG"]
    assert await db.fetchval("SELECT count(*) FROM admins") == 2
    event = await db.fetchrow("SELECT actor, action, target, summary FROM audit_events")
    assert dict(event) == {
        "actor": "owner-all@example.com",
        "action": "admin.created",
        "target": "new@example.com",
        "summary": "viewer of EG",
    }


async def test_the_last_active_owner_keeps_the_role(make_client, make_admin, db):
    owner = await _client_as(make_client, make_admin, "owner")
    await make_admin(email="old-owner@example.com", role="owner", disabled=True)
    response = await owner.submit(
        "/admin/admins/role",
        [("email", owner.admin.email), ("role", "editor")],
        form_page="/admin/admins",
    )
    assert response.status == 400
    assert "This is the last active owner" in await response.text()
    assert await db.fetchval("SELECT role FROM admins WHERE email = $1", owner.admin.email) == (
        "owner"
    )
    # With another owner, an owner may step down; the admins page is then not theirs.
    await make_admin(email="second@example.com", role="owner")
    response = await owner.submit(
        "/admin/admins/role",
        [("email", owner.admin.email), ("role", "editor")],
        form_page="/admin/admins",
    )
    assert response.status == 303
    assert response.headers["Location"].startswith("/admin?notice=")
    assert (await owner.get("/admin/admins")).status == 403


async def test_two_owners_demoting_each_other_at_once_leave_an_owner(make_client, make_admin, db):
    first = await _client_as(make_client, make_admin, "owner", email="first@example.com")
    second = await _client_as(make_client, make_admin, "owner", email="second@example.com")
    tokens = [csrf_of(await (await c.get("/admin/admins")).text()) for c in (first, second)]
    for _ in range(5):
        responses = await asyncio.gather(
            first.post(
                "/admin/admins/role",
                allow_redirects=False,
                data={"email": "second@example.com", "role": "viewer", "csrf_token": tokens[0]},
            ),
            second.post(
                "/admin/admins/role",
                allow_redirects=False,
                data={"email": "first@example.com", "role": "viewer", "csrf_token": tokens[1]},
            ),
        )
        statuses = sorted(r.status for r in responses)
        owners = await db.fetchval("SELECT count(*) FROM admins WHERE role = 'owner'")
        # One demotion wins; the other is refused (400), or, done by an admin who was already
        # demoted by then, refused for their role (403).
        assert owners == 1 and statuses in ([303, 400], [303, 403]), statuses
        await db.execute("UPDATE admins SET role = 'owner'")


async def test_disabling_an_owner_keeps_an_active_owner(make_client, make_admin, db):
    owner = await _client_as(make_client, make_admin, "owner")
    await make_admin(email="editor@example.com", role="editor")
    response = await owner.submit(
        "/admin/admins/disable", {"email": owner.admin.email}, form_page="/admin/admins"
    )
    assert response.status == 400
    assert "This is the last active owner" in await response.text()
    response = await owner.get(f"/admin/admins/disable?email={owner.admin.email}")
    assert response.status == 400
    # An editor can be disabled while an owner stays.
    response = await owner.submit(
        "/admin/admins/disable", {"email": "editor@example.com"}, form_page="/admin/admins"
    )
    assert response.status == 303


def _create_admin(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "create-admin", *args],
        input="a long enough password\n",
        capture_output=True,
        text=True,
        env={**os.environ, "DATABASE_URL": database_url},
        timeout=60,
        check=False,
    )


async def test_create_admin_takes_a_role_and_markets(database_url, db):
    async def admin(email):
        row = await db.fetchrow("SELECT role, markets FROM admins WHERE email = $1", email)
        return row["role"], row["markets"]

    result = await asyncio.to_thread(_create_admin, database_url, "first@example.com")
    assert result.returncode == 0, result.stderr
    assert "created: owner of every market" in result.stdout
    assert await admin("first@example.com") == ("owner", [])
    result = await asyncio.to_thread(_create_admin, database_url, "second@example.com")
    assert await admin("second@example.com") == ("editor", [])
    result = await asyncio.to_thread(
        _create_admin, database_url, "jo@example.com", "--role", "viewer", "--markets", "jo, AE"
    )
    assert result.returncode == 0, result.stderr
    assert "created: viewer of JO, AE" in result.stdout
    assert await admin("jo@example.com") == ("viewer", ["JO", "AE"])
    # Run again without them: a new password, the role and markets stay; with them, they change.
    result = await asyncio.to_thread(_create_admin, database_url, "jo@example.com")
    assert await admin("jo@example.com") == ("viewer", ["JO", "AE"])
    result = await asyncio.to_thread(
        _create_admin, database_url, "jo@example.com", "--role", "editor", "--markets", "all"
    )
    assert result.returncode == 0, result.stderr
    assert await admin("jo@example.com") == ("editor", [])
    event = await db.fetchrow(
        "SELECT actor, action, target, summary FROM audit_events"
        " WHERE action = 'admin.role_changed'"
    )
    assert dict(event) == {
        "actor": "cli",
        "action": "admin.role_changed",
        "target": "jo@example.com",
        "summary": "viewer of JO, AE → editor of every market",
    }


async def test_create_admin_errors_are_one_line_and_change_nothing(database_url, db):
    await asyncio.to_thread(_create_admin, database_url, "first@example.com")
    for args, expected in [
        (("new@example.com", "--role", "boss"), "--role: 'boss' is not one of owner, editor"),
        (("new@example.com", "--markets", "AE,XX"), "--markets: XX is not a market code"),
        (("first@example.com", "--role", "viewer"), "first@example.com is the last active owner"),
    ]:
        result = await asyncio.to_thread(_create_admin, database_url, *args)
        assert result.returncode == 1, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], result.stderr
    rows = await db.fetch("SELECT email, role FROM admins")
    assert [tuple(row) for row in rows] == [("first@example.com", "owner")]
