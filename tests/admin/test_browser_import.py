"""The rider import in a real browser on a 360 px phone: upload a file with a bad row, see the
result on its own page (a reload imports nothing again; axe-clean at 360 and 1280 px),
download the rejected rows, fix them and upload only those again."""

from pathlib import Path

from tests.admin.widths import fits_both_widths

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

FILE = (
    "riderId,name,market,phone,city\r\n"
    "R-1,Ada Lovelace,AE,+971501234567,Dubai\r\n"
    "R-2,Bilal Khan,Atlantis,+96550001234,Kuwait City\r\n"
    "R-3,<script>alert(1)</script>,QA,,Doha\r\n"
)


async def test_import_fix_the_rejected_rows_and_upload_them_again(
    live_server, make_admin, phone_page, db
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    admin = await make_admin()
    page = phone_page
    await page.goto(f"{live_server}/admin/import")
    await page.fill("#email", admin.email)
    await page.fill("#password", admin.password)
    await page.click("button[type=submit]")
    await page.goto(f"{live_server}/admin/import")
    assert await page.text_content("h1") == "Import riders"

    await page.set_input_files(
        "#file", files=[{"name": "riders.csv", "mimeType": "text/csv", "buffer": FILE.encode()}]
    )
    await page.click("button:has-text('Import')")
    assert await page.text_content("h1") == "Import result"
    assert await page.text_content("[data-count=inserted]") == "2"
    assert await page.text_content("[data-count=rejected]") == "1"
    assert (await page.text_content(".rejected-rows")).strip() == (
        "line 3: market must be one of AE, KW, QA, BH, OM, JO, EG, IQ "
        "(or the market name, e.g. Qatar)"
    )
    # The result has its own address: a reload shows it again and imports nothing again.
    import_id = await db.fetchval("SELECT import_id FROM rider_imports")
    assert page.url == f"{live_server}/admin/import/{import_id}"
    events = await db.fetchval("SELECT count(*) FROM audit_events")
    await page.reload()
    assert await page.text_content("[data-count=inserted]") == "2"
    assert await db.fetchval("SELECT count(*) FROM audit_events") == events
    await fits_both_widths(page, SCREENSHOTS, "admin-import-result")

    async with page.expect_download() as download_info:
        await page.click("text=Download the rejected rows")
    download = await download_info.value
    assert download.suggested_filename == "rejected-rows.csv"
    rejected = Path(await download.path()).read_text(encoding="utf-8-sig")
    assert rejected.splitlines()[0] == "riderId,name,market,phone,city,error"
    assert rejected.splitlines()[1].startswith("R-2,Bilal Khan,Atlantis,+96550001234,")

    await page.click("text=Import another file")
    fixed = rejected.replace("Atlantis", "Kuwait")
    await page.set_input_files(
        "#file",
        files=[{"name": "fixed.csv", "mimeType": "text/csv", "buffer": fixed.encode("utf-8-sig")}],
    )
    await page.click("button:has-text('Import')")
    assert await page.text_content("[data-count=inserted]") == "1"
    assert await page.text_content("[data-count=rejected]") == "0"
    await page.screenshot(path=SCREENSHOTS / "admin-import-fixed-360.png", full_page=True)
    assert await db.fetchval("SELECT market FROM riders WHERE rider_id = 'R-2'") == "KW"
    assert await db.fetchval("SELECT name FROM riders WHERE rider_id = 'R-3'") == (
        "<script>alert(1)</script>"
    )

    await page.goto(f"{live_server}/admin/import")
    await page.screenshot(path=SCREENSHOTS / "admin-import-form-360.png", full_page=True)
