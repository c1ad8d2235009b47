"""Rider CSV import (`/admin/import`): header rules, encodings, quoting, row errors, batches,
the rejected rows' download, the size limit and a database failure midway."""

import asyncio
import csv
import html
import io
import re

import pytest
from aiohttp import FormData

from app.admin import rider_import
from app.admin.rider_csv_parser import ALL_UNKNOWN, NO_HEADER, NO_RIDER_ID, NO_ROWS, NOT_UTF8
from app.core import audit, database
from tests.conftest import POOL_MODE
from tests.web import PageClient, sign_in

PATH_ID = "00000000-0000-0000-0000-0000000000a1"


async def upload(client: PageClient, content: bytes, *, token: str | None = None):
    token = token or await client.csrf("/admin/import")
    form = FormData()
    form.add_field("csrf_token", token)  # first, as a browser sends the page's hidden field
    form.add_field("file", io.BytesIO(content), filename="riders.csv", content_type="text/csv")
    return await client.post("/admin/import", data=form)


def counts(page: str) -> dict[str, int]:
    return {name: int(value) for name, value in re.findall(r'data-count="(\w+)">(\d+)<', page)}


def rejected_lines(page: str) -> list[str]:
    return [html.unescape(item) for item in re.findall(r"<li>(line \d+: [^<]*)</li>", page)]


def problem(page: str) -> str:
    found = re.search(r'<p class="alert" role="alert">([^<]*)</p>', page)
    assert found, page
    return html.unescape(found.group(1))


async def riders(db) -> dict[str, dict]:
    rows = await db.fetch("SELECT * FROM riders ORDER BY rider_id")
    return {row["rider_id"]: dict(row) for row in rows}


async def nothing_written(db) -> bool:
    return not await db.fetchval(
        "SELECT (SELECT count(*) FROM riders) + (SELECT count(*) FROM rider_imports)"
    )


async def add_rule_path(db, market: str) -> None:
    """An automatic path for every rider of `market`."""
    await db.execute(
        "INSERT INTO paths (path_id, name, days_to_complete, rule, markets)"
        " VALUES ($1, 'Basics', 14, 'all_matching', ARRAY[$2])",
        PATH_ID,
        market,
    )


async def test_the_form_posts_its_token_first_then_the_file(admin_client):
    response = await admin_client.get("/admin/import")
    assert response.status == 200
    page = await response.text()
    assert 'enctype="multipart/form-data"' in page
    assert 'action="/admin/import"' in page and "csrf_token=" not in page
    assert page.index('name="csrf_token"') < page.index('name="file" type="file"')


async def test_the_sample_file_is_linked_and_imports_as_it_is(admin_client, db):
    page = await (await admin_client.get("/admin/import")).text()
    assert '<a href="/admin/import/sample.csv" download>' in page
    response = await admin_client.get("/admin/import/sample.csv")
    assert response.status == 200 and response.content_type == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="riders-sample.csv"'
    sample = await response.read()
    header = next(csv.reader(io.StringIO(sample.decode())))
    assert header == [
        "riderId", "name", "market", "phone", "city", "vehicleType", "nationality", "language",
        "status", "pin",
    ]  # fmt: skip
    result = await (await upload(admin_client, sample)).text()
    assert counts(result) == {"inserted": 2, "updated": 0, "enrollmentsCreated": 0, "rejected": 0}
    assert (await riders(db))["R-1002"]["status"] == "onboarding"


async def test_riders_are_saved_with_the_columns_in_any_order_and_case(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, phone, city, language)"
        " VALUES ('R-2', 'Old Name', 'KW', '+96550000000', 'Kuwait City', 'ar')"
    )
    content = (
        b"MARKET,riderid,Name,Phone,notes,vehicletype,CITY,status,pin,language\r\n"
        b"UAE,R-1,Ada Lovelace,+971 50 123 4567,likes tea,Motorbike,Dubai,onboarding,1234,EN\r\n"
        b"KW,R-2,Bilal Khan,,ignored,,,active,,\r\n"
    )
    response = await upload(admin_client, content)
    assert response.status == 200, await response.text()
    page = await response.text()
    assert counts(page) == {"inserted": 1, "updated": 1, "enrollmentsCreated": 0, "rejected": 0}
    saved = await riders(db)
    assert saved["R-1"]["name"] == "Ada Lovelace"
    assert saved["R-1"]["market"] == "AE"
    assert saved["R-1"]["phone"] == "+971501234567"
    assert saved["R-1"]["vehicle_type"] == "motorbike"
    assert saved["R-1"]["status"] == "onboarding"
    assert saved["R-1"]["pin_hash"]
    # An empty cell is an omitted field: the stored value stays.
    assert saved["R-2"]["name"] == "Bilal Khan"
    assert saved["R-2"]["phone"] == "+96550000000"
    assert saved["R-2"]["city"] == "Kuwait City"
    assert saved["R-2"]["language"] == "ar"


async def test_the_automatic_rules_run_for_the_riders_saved(admin_client, db):
    await add_rule_path(db, "AE")
    content = b"riderId,name,market\nR-1,Ada,AE\nR-2,Bilal,KW\nR-3,Chen,AE\n"
    page = await (await upload(admin_client, content)).text()
    assert counts(page)["enrollmentsCreated"] == 2
    assigned = await db.fetch("SELECT rider_id, why FROM assignments ORDER BY rider_id")
    assert [(row["rider_id"], row["why"]) for row in assigned] == [("R-1", "rule"), ("R-3", "rule")]


async def test_rejected_rows_are_listed_with_their_line_and_the_others_saved(admin_client, db):
    content = (
        "riderId,name,market,language,status,pin\n"
        "R-1,Ada,AE,en,active,1234\n"
        "R-2,Bilal,Atlantis,,,\n"
        "R-3,Chen,QA,fr,,\n"
        "R-4,Dana,QA,,Active,\n"
        "R-5,Eve,QA,,,12\n"
        f"{'x' * 65},Fay,QA,,,\n"
        ",Gus,QA,,,\n"
    ).encode()
    page = await (await upload(admin_client, content)).text()
    assert counts(page) == {"inserted": 1, "updated": 0, "enrollmentsCreated": 0, "rejected": 6}
    assert rejected_lines(page) == [
        "line 3: market must be one of AE, KW, QA, BH, OM, JO, EG, IQ "
        "(or the market name, e.g. Qatar)",
        "line 4: language must be en, ar, ur or ku",
        "line 5: status must be onboarding, active, suspended or inactive (small letters)",
        "line 6: pin must be 4 to 8 digits",
        "line 7: riderId is too long: at most 64 characters",
        "line 8: riderId is missing: every row needs one",
    ]
    assert list(await riders(db)) == ["R-1"]


async def test_a_quoted_field_with_line_breaks_is_one_field_and_lines_count_records(
    admin_client, db
):
    content = (
        b'riderId,name,market,city\r\nR-1,"Ada ""the first""\r\nLovelace",AE,"Abu Dhabi, AE"\r\n'
        b"R-2,,AE,\r\n"
    )
    page = await (await upload(admin_client, content)).text()
    assert counts(page)["inserted"] == 1
    assert rejected_lines(page) == ["line 3: name is missing: every row needs one"]
    saved = await riders(db)
    assert saved["R-1"]["name"] == 'Ada "the first"\r\nLovelace'
    assert saved["R-1"]["city"] == "Abu Dhabi, AE"


async def test_a_row_with_too_many_or_too_few_cells_is_that_rows_error(admin_client, db):
    content = b"riderId,name,market\nR-1,Ada,AE,extra\nR-2,Bilal\nR-3,Chen,AE\n\nR-4,Dana,KW\n"
    page = await (await upload(admin_client, content)).text()
    assert rejected_lines(page) == [
        "line 2: the row has 4 cells, the header has 3",
        "line 3: the row has 2 cells, the header has 3",
    ]
    # A blank line is skipped but still counted, as a spreadsheet numbers its rows.
    assert list(await riders(db)) == ["R-3", "R-4"]


async def test_a_duplicate_rider_id_keeps_the_last_valid_row(admin_client, db):
    content = b"riderId,name,market\nR-1,Ada,AE\nR-1,Bilal,KW\nR-1,Chen,Atlantis\n"
    page = await (await upload(admin_client, content)).text()
    assert counts(page) == {"inserted": 1, "updated": 0, "enrollmentsCreated": 0, "rejected": 1}
    assert rejected_lines(page)[0].startswith("line 4: market must be one of")
    saved = await riders(db)
    assert (saved["R-1"]["name"], saved["R-1"]["market"]) == ("Bilal", "KW")


async def test_a_byte_order_mark_is_allowed(admin_client, db):
    page = await (
        await upload(admin_client, b"\xef\xbb\xbfriderId,name,market\nR-1,Ada,AE\n")
    ).text()
    assert counts(page)["inserted"] == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("riderId,name,market\nR-1,Zoë,AE\n".encode("latin-1"), NOT_UTF8),
        ("riderId,name,market\nR-1,Ada,AE\n".encode("utf-16"), NOT_UTF8),
        (b"riderId,name,market\nR-1,Ada,AE\nR-2,Bad\xe2\x82", NOT_UTF8),
        (b"", NO_HEADER),
        (b"\r\n\r\n", NO_HEADER),
        (b"R-1,Ada,AE\nR-2,Bilal,KW\n", ALL_UNKNOWN),
        (b"id,full name,country\nR-1,Ada,AE\n", ALL_UNKNOWN),
        (b"name,market\nAda,AE\n", NO_RIDER_ID),
        (b"riderId,name,market\n", NO_ROWS),
        (
            b"riderId,name,RiderID\nR-1,Ada,R-1\n",
            "The first line names the riderId column twice; nothing was saved.",
        ),
    ],
    ids=[
        "latin-1",
        "utf-16",
        "cut-off",
        "empty",
        "blank",
        "no-header",
        "all-unknown",
        "no-rider-id",
        "no-rows",
        "twice",
    ],
)
async def test_a_file_that_cannot_be_read_is_one_message_and_nothing_is_written(
    admin_client, db, content, message
):
    response = await upload(admin_client, content)
    assert response.status == 400
    assert problem(await response.text()) == message
    assert await nothing_written(db)


async def test_a_post_without_a_file_asks_for_one(admin_client, db):
    token = await admin_client.csrf("/admin/import")
    form = FormData()
    form.add_field("csrf_token", token)
    form.add_field("file", b"", filename="", content_type="application/octet-stream")
    response = await admin_client.post("/admin/import", data=form)
    assert response.status == 400
    assert problem(await response.text()) == rider_import.CHOOSE_FILE
    response = await admin_client.post(f"/admin/import?csrf_token={token}", data={"x": "1"})
    assert response.status == 403  # a urlencoded POST carries its token in the body
    assert await nothing_written(db)


async def test_an_upload_without_a_valid_token_is_refused(admin_client, db):
    form = FormData()
    form.add_field("file", b"riderId,name,market\nR-1,Ada,AE\n", filename="r.csv")
    assert (await admin_client.post("/admin/import", data=form)).status == 403
    form = FormData()
    form.add_field("file", b"riderId,name,market\nR-1,Ada,AE\n", filename="r.csv")
    assert (await admin_client.post("/admin/import?csrf_token=forged", data=form)).status == 403
    # The token must come before the file: the file is not read to find it.
    token = await admin_client.csrf("/admin/import")
    form = FormData()
    form.add_field("file", b"riderId,name,market\nR-1,Ada,AE\n", filename="r.csv")
    form.add_field("csrf_token", token)
    assert (await admin_client.post("/admin/import", data=form)).status == 403
    assert await nothing_written(db)


async def test_signed_out_the_import_sends_the_browser_to_sign_in(page_client):
    response = await page_client.get("/admin/import", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/admin/sign-in"


def multipart(token, content_chunks, boundary="csvboundary"):
    """A multipart body sent chunked (no Content-Length), so only counting can stop it."""

    async def body():
        yield (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f"{token}\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n'
        ).encode()
        for chunk in content_chunks:
            yield chunk
        yield f"\r\n--{boundary}--\r\n".encode()

    return body(), {"Content-Type": f"multipart/form-data; boundary={boundary}"}


async def test_a_file_over_25_mb_is_refused_before_it_is_parsed(admin_client, db):
    row = b"R-1,Ada,AE\n" * 10_000
    big = b"riderId,name,market\n" + row * 240  # 26.4 MB
    assert len(big) > rider_import.MAX_FILE_BYTES
    token = await admin_client.csrf("/admin/import")
    response = await upload(admin_client, big, token=token)
    assert response.status == 413
    assert "larger than 25 MB" in await response.text()
    # Without Content-Length the server counts while it reads.
    body, headers = multipart(token, [b"riderId,name,market\n", *[row] * 240])
    response = await admin_client.post("/admin/import", data=body, headers=headers)
    assert response.status == 413
    assert await nothing_written(db)


async def test_a_multi_megabyte_file_is_saved_in_batches(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market)"
        " SELECT 'R-' || lpad(i::text, 6, '0'), 'Old ' || i, 'KW' FROM generate_series(1, 6000) i"
    )
    await add_rule_path(db, "QA")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "riderId",
            "name",
            "market",
            "phone",
            "city",
            "vehicleType",
            "nationality",
            "language",
            "status",
            "notes",
        ]
    )
    for i in range(1, 30_001):
        writer.writerow(
            [
                f"R-{i:06d}",
                f"Rider number {i}",
                "QA" if i % 2 else "AE",
                f"+97450{i:06d}",
                "Doha",
                "car",
                "Indian",
                "ar",
                "active",
                "a long free-text note that the import ignores " * 2,
            ]
        )
        if i % 7000 == 0:
            writer.writerow([f"R-{i:06d}", "", "QA", "", "", "", "", "", "", ""])
    content = out.getvalue().encode()
    assert len(content) > 3_000_000
    page = await (await upload(admin_client, content)).text()
    assert counts(page) == {
        "inserted": 24_000,
        "updated": 6_000,
        "enrollmentsCreated": 15_000,
        "rejected": 4,
    }
    assert rejected_lines(page)[0] == "line 7002: name is missing: every row needs one"
    assert await db.fetchval("SELECT count(*) FROM riders WHERE city = 'Doha'") == 30_000


async def test_the_rejected_rows_download_as_uploaded_with_their_error(admin_client, db):
    content = (
        b"riderId,Name,market,notes\r\n"
        b"R-1,Ada,AE,fine\r\n"
        b'R-2,"Bilal, the ""second""",Atlantis,"two\nlines"\r\n'
        b"R-3,Chen\r\n"
    )
    page = await (await upload(admin_client, content)).text()
    link = re.search(r'href="(/admin/import/[0-9a-f-]+/rejected\.csv)"', page).group(1)
    response = await admin_client.get(link)
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="rejected-rows.csv"' in response.headers["Content-Disposition"]
    text = (await response.read()).decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["riderId", "Name", "market", "notes", "error"],
        [
            "R-2",
            'Bilal, the "second"',
            "Atlantis",
            "two\nlines",
            "market must be one of AE, KW, QA, BH, OM, JO, EG, IQ (or the market name, e.g. Qatar)",
        ],
        ["R-3", "Chen", "", "", "the row has 2 cells, the header has 4"],
    ]
    # Fixed and uploaded again, the error column is ignored.
    fixed = text.replace("Atlantis", "Oman").replace("R-3,Chen,,", "R-3,Chen,KW,")
    page = await (await upload(admin_client, fixed.encode("utf-8-sig"))).text()
    assert counts(page) == {"inserted": 2, "updated": 0, "enrollmentsCreated": 0, "rejected": 0}
    assert set(await riders(db)) == {"R-1", "R-2", "R-3"}


async def test_only_the_admin_who_imported_can_download_the_rejected_rows(
    admin_client, make_admin, make_client, db
):
    page = await (await upload(admin_client, b"riderId,name,market\nR-1,Ada,XX\n")).text()
    link = re.search(r'href="(/admin/import/[0-9a-f-]+/rejected\.csv)"', page).group(1)
    other = await make_client()  # another browser, another app on the same database
    assert (await sign_in(other, await make_admin(email="bo@example.com"))).status == 303
    assert (await other.get(link)).status == 404
    assert (await admin_client.get("/admin/import/not-a-uuid/rejected.csv")).status == 404
    unknown = "/admin/import/00000000-0000-0000-0000-000000000000/rejected.csv"
    assert (await admin_client.get(unknown)).status == 404
    # Kept for a day: an older import is gone.
    await db.execute("UPDATE rider_imports SET created_at = now() - interval '25 hours'")
    assert (await admin_client.get(link)).status == 404


async def test_imports_older_than_a_day_are_removed_by_the_next_one(admin_client, db):
    await upload(admin_client, b"riderId,name,market\nR-1,Ada,XX\n")
    await db.execute("UPDATE rider_imports SET created_at = now() - interval '25 hours'")
    await upload(admin_client, b"riderId,name,market\nR-1,Ada,YY\n")
    assert await db.fetchval("SELECT count(*) FROM rider_imports") == 1
    assert await db.fetchval("SELECT count(*) FROM rider_import_rejects") == 1


async def test_a_rider_named_like_markup_is_shown_as_text(admin_client):
    page = await (await upload(admin_client, b"riderId,name,market\n<script>,x,<b>\n")).text()
    assert "<script>" not in page
    assert "<b>" not in page


FAILURES = {
    "statement refused": "RAISE EXCEPTION 'no space left' USING ERRCODE = 'disk_full'",
    "connection lost": "PERFORM pg_terminate_backend(pg_backend_pid())",
}


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
async def test_a_database_failure_midway_keeps_the_saved_batches_and_says_how_far(
    admin_client, db, monkeypatch, failure
):
    monkeypatch.setattr(rider_import, "BATCH_ROWS", 2)
    await db.execute(
        "CREATE FUNCTION fail_on_boom() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN IF NEW.rider_id = 'R-boom' THEN {failure}; END IF; RETURN NEW; END $$;"
        " CREATE TRIGGER fail_on_boom BEFORE INSERT ON riders"
        " FOR EACH ROW EXECUTE FUNCTION fail_on_boom()"
    )
    content = (
        b"riderId,name,market\nR-1,Ada,AE\nR-2,Bo,XX\nR-3,Chen,AE\nR-boom,Dee,AE\nR-5,Eve,AE\n"
    )
    response = await upload(admin_client, content)
    assert response.status == 200
    page = await response.text()
    assert problem(page) == rider_import.DATABASE_FAILED.format(first=4, last=5, saved=3)
    assert counts(page)["inserted"] == 1
    assert rejected_lines(page) == [
        "line 3: market must be one of AE, KW, QA, BH, OM, JO, EG, IQ "
        "(or the market name, e.g. Qatar)"
    ]
    assert list(await riders(db)) == ["R-1"]
    await db.execute("DROP TRIGGER fail_on_boom ON riders")
    page = await (await upload(admin_client, content)).text()
    assert counts(page) == {"inserted": 3, "updated": 1, "enrollmentsCreated": 0, "rejected": 1}
    assert list(await riders(db)) == ["R-1", "R-3", "R-5", "R-boom"]


# Five riders of AE, in batches of two (rules_wait_at_line_4): lines 2-3, 4-5 and 6.
FIVE_RIDERS = b"riderId,name,market\nR-1,Ada,AE\nR-2,Bo,AE\nR-3,Chen,AE\nR-4,Dee,AE\nR-5,Eve,AE\n"


async def rules_wait_at_line_4(db, monkeypatch, seconds: float, then: str = "NULL") -> None:
    """Batches of two, an automatic path for AE, and the assignment of line 4's rider held
    `seconds` in the database, then `then` (a PL/pgSQL statement) run: the batch of lines 4-5
    is still saving while the next one saves its riders."""
    monkeypatch.setattr(rider_import, "BATCH_ROWS", 2)
    await add_rule_path(db, "AE")
    await db.execute(
        "CREATE FUNCTION wait_at_r3() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN IF NEW.rider_id = 'R-3' THEN PERFORM pg_sleep({seconds}); {then}; END IF;"
        " RETURN NEW; END $$;"
        " CREATE TRIGGER wait_at_r3 BEFORE INSERT ON assignments"
        " FOR EACH ROW EXECUTE FUNCTION wait_at_r3()"
    )


async def riders_and_assignments(db) -> tuple[list[str], int]:
    return list(await riders(db)), await db.fetchval("SELECT count(*) FROM assignments")


async def test_a_batch_failing_after_its_riders_are_saved_takes_the_next_one_down_too(
    admin_client, db, monkeypatch
):
    # The next batch starts while this one's rules still run: the rules of line 4's rider
    # wait, then fail, and line 6's batch must not commit without the one before it.
    await rules_wait_at_line_4(
        db, monkeypatch, 0.5, "RAISE EXCEPTION 'no space left' USING ERRCODE = 'disk_full'"
    )
    page = await (await upload(admin_client, FIVE_RIDERS)).text()
    assert problem(page) == rider_import.DATABASE_FAILED.format(first=4, last=5, saved=3)
    assert counts(page) == {"inserted": 2, "updated": 0, "enrollmentsCreated": 2, "rejected": 0}
    assert await riders_and_assignments(db) == (["R-1", "R-2"], 2)


async def test_an_import_ended_midway_rolls_back_the_batches_it_still_saves(
    db, database_url, make_admin, monkeypatch
):
    # The request ends (the server shuts down) while line 4's rules wait in the database: the
    # batches in flight must end with it, rolled back, not go on to commit on their own.
    await rules_wait_at_line_4(db, monkeypatch, 3)
    sleeping = (
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event = 'PgSleep'"
    )
    saved = (["R-1", "R-2"], 2)
    admin = await make_admin()
    importer = rider_import.Importer(admin.admin_id, audit.Actor(admin.email), ())
    pool = await database.create_pool(database_url, pool_mode=POOL_MODE)
    try:
        importing = asyncio.create_task(
            rider_import.import_riders(pool, None, importer, io.BytesIO(FIVE_RIDERS))
        )
        # Until lines 2-3 are committed and line 4's rules wait.
        while not (await db.fetchval(sleeping) and await riders_and_assignments(db) == saved):
            await asyncio.sleep(0.02)
        importing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await importing
        assert await db.fetchval(sleeping) == 0
    finally:
        await pool.close()
    assert await riders_and_assignments(db) == saved


async def test_a_fault_of_the_service_in_a_batch_is_a_500_and_keeps_the_batches_before(
    admin_client, db, monkeypatch
):
    # Not the database's: a bug, which the import must not word as a database failure.
    monkeypatch.setattr(rider_import, "BATCH_ROWS", 2)
    checked = rider_import._within_markets

    async def faulty_at_line_4(conn, batch, markets):
        if batch.last_line >= 4:
            raise RuntimeError("a bug")
        return await checked(conn, batch, markets)

    monkeypatch.setattr(rider_import, "_within_markets", faulty_at_line_4)
    response = await upload(admin_client, FIVE_RIDERS)
    assert response.status == 500
    assert await riders_and_assignments(db) == (["R-1", "R-2"], 0)


async def test_a_rider_in_two_batches_keeps_the_later_row_and_its_rules(
    admin_client, db, monkeypatch
):
    monkeypatch.setattr(rider_import, "BATCH_ROWS", 2)
    await add_rule_path(db, "QA")
    content = (
        b"riderId,name,market\nR-1,Ada,KW\nR-2,Bo,KW\nR-1,Ada Q,QA\nR-3,Chen,KW\n"
        b"R-1,Ada Q,QA\nR-2,Bo Q,QA\n"
    )
    page = await (await upload(admin_client, content)).text()
    assert counts(page) == {"inserted": 3, "updated": 3, "enrollmentsCreated": 2, "rejected": 0}
    saved = await riders(db)
    assert [(rider, row["name"], row["market"]) for rider, row in saved.items()] == [
        ("R-1", "Ada Q", "QA"),
        ("R-2", "Bo Q", "QA"),
        ("R-3", "Chen", "KW"),
    ]
    assigned = await db.fetch("SELECT rider_id FROM assignments ORDER BY rider_id")
    assert [row["rider_id"] for row in assigned] == ["R-1", "R-2"]
    events = await db.fetch(
        "SELECT summary FROM audit_events WHERE action = 'riders.imported' ORDER BY event_id"
    )
    assert [row["summary"] for row in events] == [
        "lines 2-3: 2 inserted, 0 updated, 0 rejected",
        "lines 4-5: 1 inserted, 1 updated, 0 rejected",
        "lines 6-7: 0 inserted, 2 updated, 0 rejected",
    ]


async def test_a_nul_character_is_that_rows_error_and_shows_in_the_download(admin_client, db):
    content = b"riderId,name,market,notes\nR-1,Ada\x00,AE,x\nR-2,Bo,AE,y\x00\n"
    page = await (await upload(admin_client, content)).text()
    assert rejected_lines(page) == [
        "line 2: name holds a NUL character (U+0000) that cannot be stored"
    ]
    # A NUL in an ignored column does not matter.
    assert list(await riders(db)) == ["R-2"]
    link = re.search(r'href="(/admin/import/[0-9a-f-]+/rejected\.csv)"', page).group(1)
    text = (await (await admin_client.get(link)).read()).decode("utf-8-sig")
    assert (
        text.splitlines()[1]
        == "R-1,Ada\ufffd,AE,x,name holds a NUL character (U+0000) that cannot be stored"
    )


async def test_every_rejected_row_names_its_column_in_plain_words(admin_client, db):
    content = (
        "riderId,name,market,phone,status,city\n"
        "R-1,,AE,,,\n"
        "R-2,   ,AE,,,\n"
        "R-3,Cy,AE,0501234567,,\n"
        f"R-4,Di,AE,,,{'c' * 101}\n"
        "R-5,Ed,,,,\n"
    ).encode()
    page = await (await upload(admin_client, content)).text()
    assert rejected_lines(page) == [
        "line 2: name is missing: every row needs one",
        "line 3: name is blank: every row needs one",
        "line 4: phone must look like +971501234567 (a + and the country code)",
        "line 5: city is too long: at most 100 characters",
        "line 6: market is missing: every row needs one",
    ]


async def test_a_market_limited_editor_imports_only_riders_of_their_markets(
    make_client, make_admin, db
):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market) VALUES ('R-AE', 'Old', 'AE'),"
        " ('R-JO', 'Old', 'JO')"
    )
    account = await make_admin(email="jo@example.com", role="editor", markets=("JO",))
    editor = PageClient(await make_client())
    assert (await sign_in(editor, account)).status == 303
    content = (
        b"riderId,name,market\n"
        b"R-NEW,Ada,Jordan\n"
        b"R-AE,Moved,JO\n"
        b"R-JO,Renamed,JO\n"
        b"R-QA,Chen,QA\n"
        b"R-JO2,Dana,JO\n"
        b"R-JO2,Dana,AE\n"
    )
    page = await (await upload(editor, content)).text()
    assert counts(page) == {"inserted": 1, "updated": 1, "enrollmentsCreated": 0, "rejected": 3}
    assert rejected_lines(page) == [
        "line 3: this rider belongs to a market that is not one of yours",
        "line 5: market QA is not one of your markets",
        "line 7: market AE is not one of your markets",
    ]
    saved = await riders(db)
    assert {rider_id: (row["name"], row["market"]) for rider_id, row in saved.items()} == {
        "R-AE": ("Old", "AE"),
        "R-JO": ("Renamed", "JO"),
        "R-NEW": ("Ada", "JO"),
    }


async def test_fixed_lists_are_the_apis_and_vehicle_type_is_free_text(admin_client, db):
    content = (
        b"riderId,name,market,vehicleType,language,status\n"
        b"R-1,Ada,AE,Rocket,AR,active\n"
        b"R-2,Bilal,KW,car,de,\n"
        b"R-3,Chen,QA,car,,retired\n"
    )
    page = await (await upload(admin_client, content)).text()
    assert rejected_lines(page) == [
        "line 3: language must be en, ar, ur or ku",
        "line 4: status must be onboarding, active, suspended or inactive (small letters)",
    ]
    # The API takes any vehicle type (only five match the paths' filters), stored lower case.
    saved = await riders(db)
    assert list(saved) == ["R-1"]
    assert (saved["R-1"]["vehicle_type"], saved["R-1"]["language"]) == ("rocket", "ar")
    # Saved as the API saves it, and the result says no path will match it.
    notice = re.search(r'<p[^>]*id="unmatched-vehicles"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "no path's vehicle filter matches this vehicle type: <bdi>rocket</bdi> (1 row)" in notice
    assert "Paths match motorbike, car, bicycle, scooter, walker" in notice


async def test_known_vehicle_types_get_no_vehicle_notice(admin_client, db):
    content = b"riderId,name,market,vehicleType\nR-1,Ada,AE,Car\nR-2,Bilal,KW,\n"
    page = await (await upload(admin_client, content)).text()
    assert sorted(await riders(db)) == ["R-1", "R-2"]
    assert 'id="unmatched-vehicles"' not in page


async def test_the_upload_redirects_to_its_result_which_a_refresh_shows_without_importing(
    admin_client, db
):
    content = b"riderId,name,market,vehicleType\nR-1,Ada,AE,Rocket\nR-2,Bo,XX,\nR-3,Chen,QA,car\n"
    token = await admin_client.csrf("/admin/import")
    form = FormData()
    form.add_field("csrf_token", token)
    form.add_field("file", io.BytesIO(content), filename="riders.csv", content_type="text/csv")
    response = await admin_client.post("/admin/import", data=form, allow_redirects=False)
    assert response.status == 303
    location = response.headers["Location"]
    import_id = await db.fetchval("SELECT import_id FROM rider_imports")
    assert location == f"/admin/import/{import_id}"
    first = await admin_client.text(location)
    await db.execute("DELETE FROM riders")
    events = await db.fetchval("SELECT count(*) FROM audit_events")
    # A refresh: the same result, read from the database, and nothing imported again.
    again = await admin_client.text(location)
    assert again == first
    assert counts(again) == {"inserted": 2, "updated": 0, "enrollmentsCreated": 0, "rejected": 1}
    assert rejected_lines(again) == [
        "line 3: market must be one of AE, KW, QA, BH, OM, JO, EG, IQ "
        "(or the market name, e.g. Qatar)"
    ]
    assert "<bdi>rocket</bdi> (1 row)" in again
    assert f'href="/admin/import/{import_id}/rejected.csv"' in again
    assert await db.fetchval("SELECT count(*) FROM riders") == 0
    assert await db.fetchval("SELECT count(*) FROM audit_events") == events
    assert await db.fetchval("SELECT count(*) FROM rider_imports") == 1


async def test_more_rejected_rows_than_shown_are_counted_and_in_the_download(admin_client, db):
    rows = "".join(f"R-{n},Ada,XX\n" for n in range(rider_import.SHOWN_REJECTED + 3))
    page = await (await upload(admin_client, f"riderId,name,market\n{rows}".encode())).text()
    assert counts(page)["rejected"] == rider_import.SHOWN_REJECTED + 3
    assert len(rejected_lines(page)) == rider_import.SHOWN_REJECTED
    assert "and 3 more rejected rows in the download." in page


async def test_another_admins_an_unknown_or_an_old_import_result_is_a_404_page(
    admin_client, make_admin, make_client, db
):
    response = await upload(admin_client, b"riderId,name,market\nR-1,Ada,AE\n")
    location = str(response.url.relative())
    assert re.fullmatch(r"/admin/import/[0-9a-f-]{36}", location)
    other = PageClient(await make_client())
    assert (await sign_in(other, await make_admin(email="bo@example.com"))).status == 303
    refused = await other.get(location)
    assert refused.status == 404
    page = await refused.text()
    assert "Inserted" not in page and 'href="/admin/import">Back to the import' in page
    for address in ("/admin/import/00000000-0000-4000-8000-000000000000", "/admin/import/x1"):
        assert (await admin_client.get(address)).status == 404, address
    await db.execute("UPDATE rider_imports SET created_at = now() - interval '25 hours'")
    assert (await admin_client.get(location)).status == 404
