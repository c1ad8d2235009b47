"""CSV exports (`/admin/exports/*.csv`): columns, filters, parts, quoting, the formula guard,
and streaming (a client leaving, a database failing mid-stream)."""

import csv
import io

import pytest
from aiohttp import ClientPayloadError, ClientSession, CookieJar, web
from aiohttp.test_utils import unused_port

from app.admin import exports
from app.core.gates import Gate
from app.web import create_app
from tests.conftest import make_settings
from tests.streams import settled
from tests.web import sign_in

PATH = "00000000-0000-0000-0000-0000000000b1"
COURSE = "00000000-0000-0000-0000-0000000000c1"


def rows_of(body: bytes) -> list[list[str]]:
    assert body.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


async def export(client, path: str, status: int = 200) -> list[list[str]]:
    response = await client.get(path)
    assert response.status == status, await response.text()
    return rows_of(await response.read())


async def add_riders(db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type, nationality,"
        " language, status, created_at) VALUES"
        " ('R-1', 'Ada Lovelace', 'AE', '+971501234567', 'Dubai', 'car', 'Indian', 'en',"
        "  'active', '2026-03-01T08:00:00.5Z'),"
        " ('R-2', 'Bilal Khan', 'KW', '+96550001234', 'Kuwait City', 'motorbike', 'Pakistani',"
        "  'ur', 'onboarding', '2026-03-02T08:00:00Z'),"
        " ('R-3', 'Chen Adams', 'AE', NULL, 'Abu Dhabi', 'car', 'Indian', 'ar', 'suspended',"
        "  '2026-03-03T08:00:00Z'),"
        " ('ADA', 'Zed', 'QA', '+97455512345', NULL, NULL, NULL, 'en', 'active',"
        "  '2026-03-04T08:00:00Z')"
    )


async def test_riders_export_has_the_design_columns_and_utc_times(admin_client, db):
    await add_riders(db)
    response = await admin_client.get("/admin/exports/riders.csv")
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["X-Export-Parts"] == "1"
    assert response.headers["Content-Disposition"] == 'attachment; filename="riders.csv"'
    assert response.headers["Cache-Control"] == "no-store"
    rows = rows_of(await response.read())
    assert rows[0] == [
        "riderId",
        "name",
        "market",
        "phone",
        "city",
        "vehicleType",
        "nationality",
        "language",
        "status",
        "createdAt",
    ]
    assert rows[1:] == [
        [
            "ADA",
            "Zed",
            "QA",
            "+97455512345",
            "",
            "",
            "",
            "en",
            "active",
            "2026-03-04T08:00:00.000Z",
        ],
        [
            "R-1",
            "Ada Lovelace",
            "AE",
            "+971501234567",
            "Dubai",
            "car",
            "Indian",
            "en",
            "active",
            "2026-03-01T08:00:00.500Z",
        ],
        [
            "R-2",
            "Bilal Khan",
            "KW",
            "+96550001234",
            "Kuwait City",
            "motorbike",
            "Pakistani",
            "ur",
            "onboarding",
            "2026-03-02T08:00:00.000Z",
        ],
        [
            "R-3",
            "Chen Adams",
            "AE",
            "",
            "Abu Dhabi",
            "car",
            "Indian",
            "ar",
            "suspended",
            "2026-03-03T08:00:00.000Z",
        ],
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("q=R-2", ["R-2"]),
        ("q=ada", ["R-1", "R-3"]),  # a part of the name from 3 characters, any case
        ("q=ad", []),
        ("q=ADA", ["ADA", "R-1", "R-3"]),  # or the rider ID exactly
        ("q=%2B9655000", []),
        ("q=1234", ["R-2"]),  # the phone's last 4 or more digits
        ("q=%2B971501234567", ["R-1"]),
        ("q=123", []),
        ("market=AE", ["R-1", "R-3"]),
        ("market=AE&status=suspended", ["R-3"]),
        ("vehicle_type=car&nationality=Indian&city=Dubai", ["R-1"]),
        ("city=dubai", ["R-1"]),  # a city in any case
        ("market=&status=&q=", ["ADA", "R-1", "R-2", "R-3"]),  # empty means not given
    ],
)
async def test_riders_export_takes_the_riders_list_filters(admin_client, db, query, expected):
    await add_riders(db)
    rows = await export(admin_client, f"/admin/exports/riders.csv?{query}")
    assert [row[0] for row in rows[1:]] == expected


async def add_training(db):
    await add_riders(db)
    await db.execute(
        f"INSERT INTO paths (path_id, name, days_to_complete) VALUES ('{PATH}', 'Safety', 7)"
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, assigned_at, deadline, completed_at)"
        f" VALUES ('R-1', '{PATH}', 'api', '2026-03-05T10:00:00Z', '2026-03-12T10:00:00Z',"
        "          '2026-03-06T09:30:00.25Z'),"
        f"        ('R-2', '{PATH}', 'rule', '2026-03-05T10:00:00Z', '2026-03-12T10:00:00Z', NULL)"
    )
    await db.execute(f"INSERT INTO courses (course_id, title) VALUES ('{COURSE}', '=Safety 1')")
    await db.execute(
        "INSERT INTO course_results VALUES"
        f" ('R-1', '{COURSE}', 'ar', '2026-03-05T11:00:00Z', '2026-03-06T09:30:00.25Z', 87.5,"
        "  2, 600, 'ABCD2345'),"
        f" ('R-3', '{COURSE}', 'en', '2026-03-05T11:00:00Z', '2026-03-07T09:30:00Z', NULL,"
        "  0, 30, 'EFGH6789')"
    )
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error, created_at) VALUES"
        " ('R-1', 'reminder', 'x', 'sent', NULL, '2026-03-01T00:00:00Z'),"
        " ('R-2', 'flag', 'x', 'failed', '-Provider refused', '2026-03-02T23:59:59.999Z'),"
        " ('R-3', 'reminder', 'x', 'logged', NULL, '2026-03-03T00:00:00Z')"
    )


async def test_assignments_export(admin_client, db):
    await add_training(db)
    rows = await export(admin_client, "/admin/exports/assignments.csv")
    assert rows == [
        ["riderId", "pathId", "path", "why", "assignedAt", "deadline", "completedAt"],
        [
            "R-1",
            PATH,
            "Safety",
            "api",
            "2026-03-05T10:00:00.000Z",
            "2026-03-12T10:00:00.000Z",
            "2026-03-06T09:30:00.250Z",
        ],
        ["R-2", PATH, "Safety", "rule", "2026-03-05T10:00:00.000Z", "2026-03-12T10:00:00.000Z", ""],
    ]
    rows = await export(admin_client, "/admin/exports/assignments.csv?market=KW")
    assert [row[0] for row in rows[1:]] == ["R-2"]


async def test_completions_export_has_the_api_record_fields_in_order(admin_client, db):
    await add_training(db)
    rows = await export(admin_client, "/admin/exports/completions.csv")
    assert rows == [
        [
            "riderId",
            "market",
            "courseId",
            "course",
            "language",
            "startedAt",
            "completedAt",
            "score",
            "attempts",
            "timeSpentSeconds",
            "proofCode",
        ],
        [
            "R-1",
            "AE",
            COURSE,
            "'=Safety 1",
            "ar",
            "2026-03-05T11:00:00.000Z",
            "2026-03-06T09:30:00.250Z",
            "87.5",
            "2",
            "600",
            "ABCD2345",
        ],
        [
            "R-3",
            "AE",
            COURSE,
            "'=Safety 1",
            "en",
            "2026-03-05T11:00:00.000Z",
            "2026-03-07T09:30:00.000Z",
            "",
            "0",
            "30",
            "EFGH6789",
        ],
    ]
    rows = await export(admin_client, "/admin/exports/completions.csv?status=suspended")
    assert [row[0] for row in rows[1:]] == ["R-3"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["R-1", "R-2", "R-3"]),
        ("status=failed", ["R-2"]),
        ("kind=reminder", ["R-1", "R-3"]),
        ("from=2026-03-02", ["R-2", "R-3"]),
        ("to=2026-03-02", ["R-1", "R-2"]),  # both dates included, whole UTC days
        ("from=2026-03-02&to=2026-03-02", ["R-2"]),
        ("from=2026-03-04", []),
    ],
)
async def test_messages_export_takes_the_messages_page_filters(admin_client, db, query, expected):
    await add_training(db)
    rows = await export(admin_client, f"/admin/exports/messages.csv?{query}")
    assert rows[0] == ["riderId", "kind", "status", "createdAt", "error"]
    assert [row[0] for row in rows[1:]] == expected


async def test_messages_export_guards_the_error_text(admin_client, db):
    await add_training(db)
    rows = await export(admin_client, "/admin/exports/messages.csv?status=failed")
    assert rows[1] == ["R-2", "flag", "failed", "2026-03-02T23:59:59.999Z", "'-Provider refused"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("riders.csv?market=XX", "market: Must be one of: AE, KW"),
        ("riders.csv?status=Active", "status: Must be one of: onboarding"),
        ("riders.csv?city=" + "x" * 101, "city: Longer than maximum length 100."),
        ("riders.csv?part=0", "part: part must be a whole number from 1."),
        ("riders.csv?part=abc", "part: Not a valid integer."),
        ("riders.csv?part=%D9%A3", "part: Not a valid integer."),
        ("completions.csv?part=1.0", "part: Not a valid integer."),
        ("messages.csv?status=queued", "status: Must be one of"),
        ("messages.csv?kind=sms", "kind: Must be one of"),
        ("messages.csv?from=2026-13-01", "from: Enter a date as YYYY-MM-DD."),
        ("messages.csv?to=yesterday", "to: Enter a date as YYYY-MM-DD."),
        # The day after it would be past the calendar's end.
        ("messages.csv?to=9999-12-31", "to: Enter a date as YYYY-MM-DD."),
    ],
)
async def test_a_bad_filter_or_part_is_a_400_page(admin_client, db, path, message):
    response = await admin_client.get(f"/admin/exports/{path}")
    assert response.status == 400
    assert response.content_type == "text/html"
    assert message in await response.text()


async def test_a_part_the_export_does_not_have_is_a_404_page_with_the_way_back(admin_client, db):
    await add_training(db)
    response = await admin_client.get("/admin/exports/messages.csv?status=failed&part=99")
    assert response.status == 404
    page = await response.text()
    assert "<h1>This export cannot be made</h1>" in page
    assert "part: this export has 1 part." in page
    assert '<nav aria-label="Admin">' in page  # the panel's menu
    assert '<a href="/admin/messages?status=failed">Back to the messages</a>' in page
    link = '<a href="/admin/exports/messages.csv?status=failed&amp;part=1">Download part 1</a>'
    assert link in page
    response = await admin_client.get("/admin/exports/riders.csv?part=99")
    assert response.status == 404
    assert '<a href="/admin/riders">Back to the riders list</a>' in await response.text()
    # A bad filter keeps the panel and the way back too, as a 400.
    response = await admin_client.get("/admin/exports/riders.csv?market=XX")
    assert response.status == 400
    assert '<a href="/admin/riders?market=XX">Back to the riders list</a>' in (
        await response.text()
    )


async def test_an_export_of_no_such_list_is_a_404(admin_client):
    response = await admin_client.get("/admin/exports/admins.csv")
    assert response.status == 404


async def test_signed_out_an_export_sends_the_browser_to_sign_in(page_client):
    response = await page_client.get("/admin/exports/riders.csv", allow_redirects=False)
    assert response.status == 303


async def test_cells_are_quoted_as_rfc_4180_and_formulas_are_guarded(admin_client, db):
    names = {
        "F-1": '=HYPERLINK("http://evil","x")',
        "F-2": "+1+2",
        "F-3": "-2+3",
        "F-4": "@SUM(A1)",
        "F-5": "\tTabbed",
        "F-6": "\rReturn",
        "F-7": "-12.5",
        "F-8": "+971501234567",
        "F-9": 'Smith, "Jo"\nsecond line',
        "G-1": "1e5",
    }
    await db.executemany(
        "INSERT INTO riders (rider_id, name, market) VALUES ($1, $2, 'AE')", names.items()
    )
    response = await admin_client.get("/admin/exports/riders.csv")
    body = await response.read()
    assert b'"Smith, ""Jo""\nsecond line"' in body
    assert body.endswith(b"\r\n")
    exported = {row[0]: row[1] for row in rows_of(body)[1:]}
    assert exported == {
        "F-1": '\'=HYPERLINK("http://evil","x")',
        "F-2": "'+1+2",
        "F-3": "'-2+3",
        "F-4": "'@SUM(A1)",
        "F-5": "'\tTabbed",
        "F-6": "'\rReturn",
        "F-7": "-12.5",
        "F-8": "+971501234567",
        "F-9": 'Smith, "Jo"\nsecond line',
        "G-1": "1e5",
    }


async def test_big_exports_come_in_parts_each_with_its_header(admin_client, db, monkeypatch):
    monkeypatch.setattr(exports, "ROWS_PER_PART", 2)
    await add_riders(db)
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-4', 'Dee', 'OM')")
    parts = []
    for part in (1, 2, 3):
        response = await admin_client.get(f"/admin/exports/riders.csv?part={part}")
        assert response.headers["X-Export-Parts"] == "3"
        assert response.headers["Content-Disposition"] == (
            f'attachment; filename="riders-part-{part}-of-3.csv"'
        )
        rows = rows_of(await response.read())
        assert rows[0][0] == "riderId"
        parts.append([row[0] for row in rows[1:]])
    assert parts == [["ADA", "R-1"], ["R-2", "R-3"], ["R-4"]]
    response = await admin_client.get("/admin/exports/riders.csv?part=4")
    assert response.status == 404
    assert "this export has 3 parts" in await response.text()
    # Filters count: two riders in the UAE make one part.
    response = await admin_client.get("/admin/exports/riders.csv?market=AE")
    assert response.headers["X-Export-Parts"] == "1"


async def test_an_empty_export_is_its_header(admin_client):
    response = await admin_client.get("/admin/exports/completions.csv")
    assert response.headers["X-Export-Parts"] == "1"
    assert len(rows_of(await response.read())) == 1


async def test_a_long_export_is_written_in_many_chunks(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market)"
        " SELECT 'R-' || lpad(i::text, 6, '0'), 'Rider ' || i, 'AE'"
        " FROM generate_series(1, 30000) i"
    )
    response = await admin_client.get("/admin/exports/riders.csv")
    assert response.headers["Transfer-Encoding"] == "chunked"
    assert "Content-Length" not in response.headers
    body, chunks = bytearray(), 0
    async for data, end_of_chunk in response.content.iter_chunks():
        body += data
        chunks += end_of_chunk
    rows = rows_of(bytes(body))
    assert len(rows) == 30001
    assert rows[-1][0] == "R-030000"
    assert chunks >= 6


@pytest.fixture
async def many_riders(db):
    # ~20 MB of CSV: more than the socket buffers hold, so the server is still writing when
    # the client leaves.
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city)"
        " SELECT 'R-' || lpad(i::text, 7, '0'), 'Rider ' || i, 'AE', repeat('c', 100)"
        " FROM generate_series(1, 150000) i"
    )


@pytest.fixture
async def served(database_url, make_admin):
    """The app behind a runner as `python -m app serve` runs it (a client that leaves does not
    cancel the handler: only the next write can tell), with a signed-in session."""
    runner = web.AppRunner(create_app(make_settings(), database_url))
    await runner.setup()
    port = unused_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    # unsafe: keep the cookies of an IP address host.
    jar = CookieJar(unsafe=True)
    async with ClientSession(f"http://127.0.0.1:{port}", cookie_jar=jar) as session:
        assert (await sign_in(session, await make_admin())).status == 303
        yield runner.app, session
    await runner.cleanup()


async def test_a_client_leaving_mid_export_ends_the_query(served, db, many_riders):
    app, session = served
    response = await session.get("/admin/exports/riders.csv")
    first = await response.content.read(64 * 1024)
    assert first.startswith(b"\xef\xbb\xbfriderId,")
    response.close()
    assert await settled(app, db)
    again = await session.get("/admin/exports/riders.csv?q=R-0000001")
    assert [row[0] for row in rows_of(await again.read())] == ["riderId", "R-0000001"]


async def test_a_database_failure_mid_export_breaks_the_body(admin_client, db, many_riders):
    response = await admin_client.get("/admin/exports/riders.csv")
    assert response.status == 200
    await response.content.read(64 * 1024)
    terminated = await db.fetchval(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE application_name = 'rider-ops' AND state <> 'idle' AND pid <> pg_backend_pid()"
    )
    assert terminated == 1
    with pytest.raises(ClientPayloadError):
        await response.read()
    again = await admin_client.get("/admin/exports/riders.csv?q=R-0000001")
    assert again.status == 200


def test_the_export_links_partial_links_each_export_with_the_page_filters():
    from app.core.html import ENVIRONMENT

    template = ENVIRONMENT.from_string(
        '{% with export_query=filters, exports=("riders", "assignments") %}'
        '{% include "admin/export_links.html" ignore missing %}{% endwith %}'
    )
    page = template.render(filters={"market": "AE", "q": "Ada & <b>"})
    assert 'href="/admin/exports/riders.csv?market=AE&amp;q=Ada+%26+%3Cb%3E"' in page
    assert 'href="/admin/exports/assignments.csv?market=AE&amp;q=Ada+%26+%3Cb%3E"' in page
    assert '<input type="hidden" name="q" value="Ada &amp; &lt;b&gt;">' in page
    assert 'action="/admin/exports/assignments.csv"' in page
    assert "500,000 rows" in page
    assert "completions" not in page
    page = template.render(filters={})
    assert 'href="/admin/exports/riders.csv"' in page


async def test_exports_beyond_the_slots_wait_then_get_a_503_page(
    served, db, many_riders, monkeypatch
):
    monkeypatch.setattr(exports, "EXPORTS", Gate(1, 0.3, exports.EXPORTS.refusal))
    app, session = served
    reader = await session.get("/admin/exports/riders.csv")  # holds the slot: reads nothing
    try:
        assert reader.status == 200
        refused = await session.get("/admin/exports/messages.csv")
        assert refused.status == 503
        assert refused.content_type == "text/html"
    finally:
        reader.close()
    assert await settled(app, db)
    again = await session.get("/admin/exports/messages.csv")
    assert again.status == 200


async def test_the_part_picker_starts_at_part_1_and_is_not_the_pages_main_action(admin_client):
    page = await (await admin_client.get("/admin/riders")).text()
    assert 'name="part" type="number" min="1" value="1"' in page
    assert 'value="2"' not in page
    assert '<button class="secondary" type="submit">Download part</button>' in page
    assert "part 1 holds rows 1 to 500,000, part 2 rows 500,001 to 1,000,000" in page
