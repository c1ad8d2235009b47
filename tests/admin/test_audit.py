"""The audit log: every change made in the panel writes exactly one event in its own
transaction (none when it fails), exports say what was downloaded, and `/admin/audit` (owners
only) lists, filters and pages the events, with a CSV."""

import asyncio
import csv
import io
import re
from datetime import UTC, datetime, timedelta

import orjson
import pytest
from aiohttp import FormData

from app.admin import audit
from app.core import database
from app.training import courses
from tests.admin.riders_data import COURSE_ID, PATH_ID, add_riders
from tests.admin.test_courses import TRANSLATION, course_form, translation_form
from tests.admin.test_import import upload
from tests.admin.test_setup import _run, _token
from tests.web import PageClient, sign_in

EMAIL = "ada@example.com"


async def events(db) -> list[dict]:
    rows = await db.fetch(
        "SELECT actor, address, action, target, summary FROM audit_events ORDER BY event_id"
    )
    return [dict(row) for row in rows]


async def actions(db) -> list[tuple[str, str | None]]:
    return [(e["action"], e["target"]) for e in await events(db)]


async def make_owner(db, email: str = EMAIL) -> None:
    await db.execute("UPDATE admins SET role = 'owner' WHERE lower(email) = lower($1)", email)


@pytest.fixture
async def owner_client(admin_client, db) -> PageClient:
    await make_owner(db)
    return admin_client


def csv_rows(body: bytes) -> list[list[str]]:
    assert body.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def listed(page: str) -> list[str]:
    """The actions of the events the audit page lists, top to bottom."""
    return re.findall(r'<a href="/admin/audit\?action=[^"]+">([a-z_.]+)</a>', page)


async def test_a_pin_reset_says_who_from_where_and_whom_and_never_the_pin(owner_client, db):
    await add_riders(db)
    response = await owner_client.submit("/admin/riders/R-1/pin", {}, form_page="/admin/riders/R-1")
    assert response.status == 303
    shown = await owner_client.text(response.headers["Location"])
    assert "New PIN for rider R-1" in shown
    pin = re.search(r'<input[^>]* value="([0-9]{6})"[^>]*data-secret>', shown).group(1)
    (event,) = await events(db)
    assert (event["actor"], event["address"], event["action"], event["target"]) == (
        EMAIL,
        "127.0.0.1",
        "rider.pin_reset",
        "R-1",
    )
    assert pin not in "".join(str(value) for value in event.values())
    page = await (await owner_client.get("/admin/audit")).text()
    assert listed(page) == ["rider.pin_reset"]
    assert EMAIL in page and "127.0.0.1" in page and ">R-1</a>" in page
    assert pin not in page
    listing = await (await owner_client.get("/admin/audit.csv")).read()
    assert pin not in listing.decode()


async def test_a_change_that_fails_writes_no_event(admin_client, db):
    await add_riders(db)
    # An unknown rider: the PIN reset's transaction is rolled back.
    response = await admin_client.submit(
        "/admin/riders/nobody/pin", {}, form_page="/admin/riders/R-1"
    )
    assert response.status == 404
    # A form error: nothing is written.
    response = await admin_client.submit(
        "/admin/riders/R-1/flags", {"type": "speeding"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 400
    response = await admin_client.submit("/admin/paths/new", {"name": ""}, form_page="/admin/paths")
    assert response.status == 400
    # A path that is gone: nothing assigned, nothing recorded.
    gone = "00000000-0000-0000-0000-0000000000ff"
    response = await admin_client.submit(
        "/admin/assign", {"path_id": gone, "markets": "AE", "confirm": "1"}
    )
    assert response.status == 400
    # A confirm whose count changed since its preview writes nothing.
    response = await admin_client.submit(
        "/admin/assign",
        {"path_id": PATH_ID, "markets": "AE", "confirm": "1", "expected_count": "7"},
    )
    assert response.status == 409
    # An export's part that does not exist sends nothing.
    assert (await admin_client.get("/admin/exports/riders.csv?part=2")).status == 404
    assert await events(db) == []


async def test_riders_export_records_filters_and_count_and_no_contact_details(admin_client, db):
    await add_riders(db)
    response = await admin_client.get("/admin/exports/riders.csv?market=AE&status=active")
    assert response.status == 200
    assert len(csv_rows(await response.read())) == 2  # the header and R-1
    response = await admin_client.get("/admin/exports/riders.csv?q=%2B971501234567")
    assert len(csv_rows(await response.read())) == 2
    by_market, by_phone = await events(db)
    assert (by_market["actor"], by_market["address"]) == (EMAIL, "127.0.0.1")
    assert by_market["action"] == "riders.exported" and by_market["target"] is None
    assert by_market["summary"] == "1 rows, part 1 of 1; market=AE, status=active"
    assert by_phone["summary"] == "1 rows, part 1 of 1; q=(a phone number)"
    written = repr(await events(db))
    for phone in ("971501234567", "971509990001", "96550001111"):
        assert phone not in written


async def test_each_export_is_recorded_once_with_its_filters(admin_client, db):
    await add_riders(db)
    for name in ("assignments", "completions"):
        assert (await admin_client.get(f"/admin/exports/{name}.csv?city=Dubai")).status == 200
    assert (await admin_client.get("/admin/exports/messages.csv?status=failed")).status == 200
    assert (await admin_client.get("/admin/exports/riders.csv")).status == 200
    assert [(e["action"], e["summary"]) for e in await events(db)] == [
        ("assignments.exported", "0 rows, part 1 of 1; city=Dubai"),
        ("completions.exported", "0 rows, part 1 of 1; city=Dubai"),
        ("messages.exported", "0 rows, part 1 of 1; status=failed"),
        ("riders.exported", "4 rows, part 1 of 1; no filters"),
    ]


async def _path_form(name: str) -> list[tuple[str, str]]:
    return [
        ("name", name),
        ("active", "on"),
        ("days_to_complete", "14"),
        ("rule", "manual"),
        ("courses", COURSE_ID),
    ]


# The rider page's changes: (action, rider, the page's action, its form).
RIDER_CHANGES = [
    ("rider.status_changed", "R-2", "status", {"status": "suspended"}),
    ("rider.pin_reset", "R-1", "pin", {}),
    ("links.revoked", "R-1", "links/revoke", {}),
    ("rider.flag_added", "R-1", "flags", {"type": "late_delivery"}),
    ("assignments.created", "R-1", "assignments", {"path_id": PATH_ID}),
]


async def on_rider_page(client, rider: str, change: str, form: dict):
    """POST the rider page's form for `change` (its CSRF token read from the rider page)."""
    page = f"/admin/riders/{rider}"
    return await client.submit(f"{page}/{change}", form, form_page=page)


async def test_each_change_in_the_panel_writes_exactly_one_event(make_client, make_admin, db):
    """A walk through the panel's changes: each adds one event, naming what it changed."""
    await add_riders(db)
    # A webhook to a receiver on this machine, as development allows.
    client = PageClient(await make_client(WEBHOOKS_ALLOW_PRIVATE="1"))
    client.admin = await make_admin()
    assert (await sign_in(client, client.admin)).status == 303
    steps = []

    def step(action, target):
        def decorate(run):
            steps.append((action, target, run))
            return run

        return decorate

    for action, rider, change, form in RIDER_CHANGES:

        @step(action, rider)
        async def _(rider=rider, change=change, form=form):
            return await on_rider_page(client, rider, change, form)

    @step("assignments.created", PATH_ID)
    async def _():
        return await client.submit(
            "/admin/assign", {"path_id": PATH_ID, "markets": "KW", "confirm": "1"}
        )

    @step("path.created", None)
    async def _():
        return await client.submit("/admin/paths/new", await _path_form("Night riding"))

    @step("path.updated", PATH_ID)
    async def _():
        form = await _path_form("Road basics, again")
        return await client.submit(f"/admin/paths/{PATH_ID}", form)

    @step("course.created", None)
    async def _():
        return await client.submit("/admin/courses/new", course_form())

    @step("course.saved", COURSE_ID)
    async def _():
        return await client.submit(f"/admin/courses/{COURSE_ID}", course_form())

    @step("translation.saved", COURSE_ID)
    async def _():
        return await client.submit(
            f"/admin/courses/{COURSE_ID}/translations/ar", translation_form()
        )

    @step("translation.reviewed", COURSE_ID)
    async def _():
        async with db.transaction():
            await courses.save_translation(db, COURSE_ID, "ur", dict(TRANSLATION))
        return await client.submit(
            f"/admin/courses/{COURSE_ID}/translations/ur/review",
            {},
            form_page=f"/admin/courses/{COURSE_ID}",
        )

    @step("riders.imported", None)
    async def _():
        return await upload(client, b"riderId,name,market\r\nR-9,Nadia,AE\r\nR-10,,AE\r\n")

    @step("admin.created", "bo@example.com")
    async def _():
        form = {"email": "bo@example.com", "name": "Bo", "password": "a long passphrase"}
        return await client.submit("/admin/admins", form)

    @step("admin.disabled", "bo@example.com")
    async def _():
        return await client.submit(
            "/admin/admins/disable", {"email": "bo@example.com"}, form_page="/admin/admins"
        )

    @step("webhook.created", None)
    async def _():
        form = [("url", "http://127.0.0.1/x?token=abc"), ("events", "flag.created")]
        return await client.submit("/admin/webhooks", form)

    async def on_endpoint(change: str):
        endpoint = await db.fetchval("SELECT endpoint_id FROM webhook_endpoints")
        page = f"/admin/webhooks/{endpoint}"
        return await client.submit(f"{page}/{change}", {}, form_page=page)

    for action, change in (
        ("webhook.disabled", "disable"),
        ("webhook.enabled", "enable"),
        ("webhook.test_sent", "test"),
    ):
        step(action, None)(lambda change=change: on_endpoint(change))

    @step("webhook.delivery_replayed", None)
    async def _():
        delivery = await db.fetchval("SELECT delivery_id FROM webhook_deliveries")
        return await on_endpoint(f"deliveries/{delivery}/replay")

    step("webhook.deleted", None)(lambda: on_endpoint("delete"))

    for action, target, run in steps:
        before = len(await events(db))
        response = await run()
        assert response.status in (200, 303), (action, response.status, await response.text())
        made = (await events(db))[before:]
        assert [e["action"] for e in made] == [action], (action, made)
        (event,) = made
        assert (event["actor"], event["address"]) == (EMAIL, "127.0.0.1")
        if target is not None:
            assert event["target"] == target, (action, event)
    recorded = {e["action"]: e for e in await events(db)}
    # Summaries say what changed, in counts and names, and never a secret.
    assert recorded["riders.imported"]["summary"] == "lines 2-3: 1 inserted, 0 updated, 1 rejected"
    assert recorded["rider.status_changed"]["summary"].startswith("status suspended")
    assert recorded["webhook.created"]["summary"] == "host=127.0.0.1, events=flag.created"
    secret = await db.fetchval("SELECT count(*) FROM audit_events WHERE summary LIKE '%abc%'")
    assert secret == 0
    assert "passphrase" not in repr(await events(db))


async def test_a_flag_that_notifies_records_the_message_sent(admin_client, db):
    await add_riders(db)
    flag = {"type": "unsafe_driving", "notify": "on"}
    assert (await on_rider_page(admin_client, "R-1", "flags", flag)).status == 303
    assert await actions(db) == [("rider.flag_added", "R-1"), ("message.sent", "R-1")]
    flag, message = await events(db)
    assert flag["summary"] == "type unsafe_driving, 1 paths assigned, notify"
    assert message["summary"] == "flag notification, logged"


async def test_run_now_records_the_job_run(admin_client, db):
    response = await admin_client.submit("/admin/jobs/reports/run", {}, form_page="/admin/jobs")
    assert response.status == 303
    # The run goes on in the background; its claim and event are one transaction.
    deadline = asyncio.get_running_loop().time() + 30
    while not await events(db):
        assert asyncio.get_running_loop().time() < deadline, "no job.run event"
        await asyncio.sleep(0.05)
    run_id = await db.fetchval("SELECT run_id FROM job_runs WHERE job = 'reports'")
    assert await actions(db) == [("job.run", "reports")]
    assert (await events(db))[0]["summary"] == f"run {run_id}"


async def test_knowledge_added_and_deleted(admin_client, db):
    token = await admin_client.csrf("/admin/knowledge")
    form = FormData()
    form.add_field("csrf_token", token)
    form.add_field("file", io.BytesIO(b"Fuel cards are topped up on Mondays."), filename="fuel.txt")
    response = await admin_client.post("/admin/knowledge", data=form, allow_redirects=False)
    assert response.status == 303
    document_id = await db.fetchval("SELECT document_id FROM knowledge_documents")
    delete = f"/admin/knowledge/{document_id}/delete"
    assert (await admin_client.submit(delete, {}, form_page=delete)).status == 303
    assert (await admin_client.submit(delete, {}, form_page="/admin/knowledge")).status == 404
    assert [(e["action"], e["target"], e["summary"]) for e in await events(db)] == [
        ("knowledge.added", str(document_id), "fuel.txt: 1 passages"),
        ("knowledge.deleted", str(document_id), "fuel.txt"),
    ]


async def test_the_rejected_rows_download_is_recorded(admin_client, db):
    response = await upload(admin_client, b"riderId,name,market\r\nR-1,,AE\r\nR-2,,XX\r\n")
    assert response.status == 200
    import_id = await db.fetchval("SELECT import_id FROM rider_imports")
    response = await admin_client.get(f"/admin/import/{import_id}/rejected.csv")
    assert response.status == 200
    assert (await events(db))[-1] == {
        "actor": EMAIL,
        "address": "127.0.0.1",
        "action": "rejected_rows.exported",
        "target": str(import_id),
        "summary": "2 rows",
    }


async def test_the_first_admin_by_the_setup_link_is_recorded_as_themselves(
    page_client, database_url, db
):
    token = await _token(database_url)
    form = {"token": token, "email": "first@example.com", "name": "First", "password": "x" * 12}
    response = await page_client.submit(
        "/admin/setup", form, form_page=f"/admin/setup?token={token}"
    )
    assert response.status == 303
    assert await events(db) == [
        {
            "actor": "first@example.com",
            "address": "127.0.0.1",
            "action": "admin.created",
            "target": "first@example.com",
            "summary": "name First, the first admin, by the setup link",
        }
    ]


# The audit page.


async def add_events(db, count: int, *, start: datetime, **columns) -> None:
    """`count` events a minute apart from `start` (target E<n>), with these columns."""
    await db.execute(
        "INSERT INTO audit_events (at, actor, address, action, target, summary)"
        " SELECT $1::timestamptz + make_interval(mins => n), $2, $3, $4, 'E' || n, $5"
        " FROM generate_series(1, $6) AS n",
        start,
        columns.get("actor", "cli"),
        columns.get("address"),
        columns.get("action", "links.revoked"),
        columns.get("summary", ""),
        count,
    )


DAY = datetime(2026, 3, 1, tzinfo=UTC)


async def test_the_page_is_for_owners_only(admin_client, db):
    await db.execute("UPDATE admins SET role = 'editor'")
    for address in ("/admin/audit", "/admin/audit.csv"):
        response = await admin_client.get(address)
        assert response.status == 403, address
        assert "Your role does not allow this." in await response.text()
    await make_owner(db)
    assert (await admin_client.get("/admin/audit")).status == 200


def targets(page: str) -> list[str]:
    return re.findall(r'<a href="/admin/audit\?target=([^"]+)">', page)


async def test_pages_go_back_in_time_without_gaps_or_repeats(owner_client, db):
    # 120 events; at the 50th and 51st places two at the very same time, which the keyset's
    # event_id tells apart.
    await add_events(db, 119, start=DAY)
    await db.execute(
        "INSERT INTO audit_events (at, actor, action, target)"
        " SELECT at, 'cli', 'job.run', 'twin' FROM audit_events WHERE target = 'E70'"
    )
    seen, address, pages = [], "/admin/audit", 0
    while address:
        page = await (await owner_client.get(address)).text()
        pages += 1
        seen += targets(page)
        found = re.search(r'rel="next" href="([^"]+)"', page)
        address = found.group(1).replace("&amp;", "&") if found else None
    expected = await db.fetchval(
        "SELECT array_agg(target ORDER BY at DESC, event_id DESC) FROM audit_events"
    )
    assert pages == 3
    assert seen == expected and len(set(seen)) == 120
    assert seen[49:51] == ["twin", "E70"]


async def test_filters_by_actor_action_target_and_days(owner_client, db):
    await add_events(db, 3, start=DAY, actor="ada@example.com", action="rider.pin_reset")
    await add_events(db, 2, start=DAY + timedelta(days=1), actor="cli", action="job.run")
    await add_events(db, 2, start=DAY + timedelta(days=3), actor="bo@example.com")

    async def listed_targets(query: str) -> list[str]:
        response = await owner_client.get(f"/admin/audit?{query}")
        assert response.status == 200, await response.text()
        return targets(await response.text())

    assert await listed_targets("actor=ada%40example.com") == ["E3", "E2", "E1"]
    assert await listed_targets("action=job.run") == ["E2", "E1"]
    assert await listed_targets("target=E2&actor=cli") == ["E2"]
    assert await listed_targets("from=2026-03-02&to=2026-03-02") == ["E2", "E1"]
    assert await listed_targets("from=2026-03-04") == ["E2", "E1"]
    assert await listed_targets("to=2026-03-01") == ["E3", "E2", "E1"]
    page = await (await owner_client.get("/admin/audit?actor=nobody")).text()
    assert "No event matches." in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("from=2026-02-30", "Enter a date as YYYY-MM-DD."),
        ("to=yesterday", "Enter a date as YYYY-MM-DD."),
        ("action=DROP TABLE", audit.ACTION_ERROR),
        ("before=%D9%A3-1", "Not a page of the audit log."),
        ("target=" + "x" * 201, "Longer than maximum length 200."),
    ],
)
async def test_bad_filters_are_a_400_page_with_the_message(owner_client, db, query, message):
    response = await owner_client.get(f"/admin/audit?{query}")
    assert response.status == 400
    page = await response.text()
    assert message in page and "Audit log" in page
    if not query.startswith("before="):  # the CSV holds every page: it takes no keyset
        response = await owner_client.get(f"/admin/audit.csv?{query}")
        assert response.status == 400
        assert message in await response.text()


async def test_the_csv_lists_the_filtered_events_with_the_cell_guard(owner_client, db):
    await add_events(db, 2, start=DAY, actor='=HYPERLINK("http://x")', summary='-2+3, "x"')
    await add_events(db, 1, start=DAY + timedelta(days=1), action="job.run")
    response = await owner_client.get("/admin/audit.csv?action=links.revoked")
    assert response.status == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="audit.csv"'
    rows = csv_rows(await response.read())
    assert rows == [
        ["at", "actor", "address", "action", "target", "summary"],
        [
            "2026-03-01T00:02:00.000Z",
            '\'=HYPERLINK("http://x")',
            "",
            "links.revoked",
            "E2",
            '\'-2+3, "x"',
        ],
        [
            "2026-03-01T00:01:00.000Z",
            '\'=HYPERLINK("http://x")',
            "",
            "links.revoked",
            "E1",
            '\'-2+3, "x"',
        ],
    ]
    # The download itself is recorded, with its filters and count.
    (event,) = await db.fetch("SELECT * FROM audit_events WHERE action = 'audit.exported'")
    assert (event["actor"], event["summary"]) == (
        EMAIL,
        "2 rows, part 1 of 1; action=links.revoked",
    )


async def test_a_long_target_or_summary_is_cut_not_refused(owner_client, db):
    """An admin's email of 254 characters is longer than a target may be: the change is made,
    its event holds the email cut to 200 characters."""
    email = "a" * 240 + "@example.com"
    form = {"email": email, "name": "Long", "password": "a long passphrase"}
    assert (await owner_client.submit("/admin/admins", form)).status == 303
    (event,) = await events(db)
    assert len(event["target"]) == 200 and event["target"].endswith("…")


async def test_two_apps_on_one_database_attribute_each_change(make_client, make_admin, db):
    """Two admins on one database: each change is attributed to the admin who made it."""
    await add_riders(db)
    clients = []
    for email in ("one@example.com", "two@example.com"):
        client = PageClient(await make_client())
        account = await make_admin(email=email)
        assert (await sign_in(client.client, account)).status == 303
        clients.append(client)
    for client, rider in zip(clients, ("R-1", "R-2"), strict=True):
        response = await client.submit(
            f"/admin/riders/{rider}/pin", {}, form_page=f"/admin/riders/{rider}"
        )
        assert response.status == 303
    assert [(e["actor"], e["target"]) for e in await events(db)] == [
        ("one@example.com", "R-1"),
        ("two@example.com", "R-2"),
    ]


# The command line.


async def test_the_command_line_records_its_changes_as_cli(database_url, session_env, db, tmp_path):
    env = {"DATABASE_URL": database_url, **session_env}

    async def command(*args, stdin=""):
        result = await asyncio.to_thread(_run, *args, stdin=stdin, env=env)
        return result.returncode, result.stderr

    password = "twelve chars or more"
    assert await command("create-admin", "ops@example.com", stdin=password + "\n") == (0, "")
    assert await command("create-admin", "ops@example.com", stdin=password + "!\n") == (0, "")
    document = tmp_path / "riders.json"
    document.write_bytes(
        orjson.dumps({"riders": [{"riderId": "R-1", "name": "Sam", "market": "AE"}]})
    )
    assert (await command("load-data", str(document)))[0] == 0
    assert (await command("revoke-links", "R-1"))[0] == 0
    assert (await command("revoke-links", "R-nobody"))[0] == 1  # refused: no event
    assert (await command("run-job", "reports"))[0] == 0
    recorded = await events(db)
    assert [(e["actor"], e["address"], e["action"], e["target"]) for e in recorded] == [
        ("cli", None, "admin.created", "ops@example.com"),
        ("cli", None, "admin.password_reset", "ops@example.com"),
        ("cli", None, "data.loaded", str(document)),
        ("cli", None, "links.revoked", "R-1"),
        ("cli", None, "job.run", "reports"),
    ]
    assert recorded[2]["summary"] == "riders=1"
    assert password not in repr(recorded)


async def test_migrate_records_the_migrations_it_applied(empty_database_url):
    result = await asyncio.to_thread(_run, "migrate", env={"DATABASE_URL": empty_database_url})
    assert result.returncode == 0, result.stderr
    async with database.connect(empty_database_url) as conn:
        rows = await conn.fetch("SELECT actor, action, summary FROM audit_events")
        applied = await conn.fetchval("SELECT count(*) FROM _yoyo_migration")
    assert [tuple(row) for row in rows] == [("cli", "migrations.applied", f"{applied} migrations")]
    # Nothing to apply the second time: nothing recorded.
    assert (
        await asyncio.to_thread(_run, "migrate", env={"DATABASE_URL": empty_database_url})
    ).returncode == 0
    async with database.connect(empty_database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM audit_events") == 1
