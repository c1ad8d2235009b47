"""An owner on a phone and at a desk resets a rider's PIN (the new PIN's page axe-clean at 360
and 1280 px) and finds who reset it in the audit log."""

from pathlib import Path

from tests.admin.riders_data import add_riders
from tests.admin.widths import fits_both_widths
from tests.web import PHONE, sign_in_page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


async def test_an_owner_finds_who_reset_a_pin_at_360_and_1280_px(
    live_server, database_url, db, make_admin, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await add_riders(db)
    account = await make_admin()
    await db.execute("UPDATE admins SET role = 'owner'")
    page = phone_page
    await sign_in_page(page, live_server, account.email, account.password)
    await page.goto(f"{live_server}/admin/riders/R-1")
    await page.click("text=Reset PIN…")
    await page.click("main button[type=submit]")
    assert await page.text_content("h1") == "New PIN for rider R-1"
    pin = await page.input_value("[data-secret]")
    assert len(pin) == 6 and pin.isdigit()
    await fits_both_widths(page, SCREENSHOTS, "rider-new-pin")
    await page.reload()
    assert pin not in await page.text_content("main")
    await page.click("a.button:text('Back to the rider')")
    assert page.url == f"{live_server}/admin/riders/R-1"

    await page.click("nav >> text=Audit log")
    assert page.url == f"{live_server}/admin/audit"
    row = page.locator("main tbody tr").first
    assert "rider.pin_reset" in await row.text_content()
    assert account.email in await row.text_content()
    # The page fits the phone: only the table's own region scrolls sideways.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.screenshot(path=str(SCREENSHOTS / "audit-360.png"), full_page=True)

    # Its action filters the list; a bad day is said beside its field.
    await page.click("main tbody tr >> text=rider.pin_reset")
    assert page.url.endswith("/admin/audit?action=rider.pin_reset")
    assert await page.input_value("#action") == "rider.pin_reset"
    await page.goto(f"{live_server}/admin/audit?from=2026-02-30")
    assert "Enter a date as YYYY-MM-DD." in await page.text_content("main")

    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.goto(f"{live_server}/admin/audit")
    assert await page.locator("main tbody tr").count() == 1
    await page.screenshot(path=str(SCREENSHOTS / "audit-1280.png"), full_page=True)
