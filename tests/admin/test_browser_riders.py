"""A training team member on a phone: first admin through the setup link, a rider found by
search, a path assigned with the city filter, the assignment on the rider page (why admin)."""

from pathlib import Path

from app.admin import accounts
from app.core import database
from tests.admin.riders_data import add_riders
from tests.web import PHONE

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


async def _fits(page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_assign_a_path_by_city_and_see_it_on_the_rider_page(
    live_server, database_url, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with database.connect(database_url) as conn:
        await add_riders(conn)
        token = await accounts.new_setup_token(conn)
    page = phone_page

    await page.goto(f"{live_server}/admin/setup?token={token}")
    await page.fill("#email", "lead@example.com")
    await page.fill("#name", "Training Lead")
    await page.fill("#password", "a long passphrase")
    await page.click("button[type=submit]")
    assert page.url == f"{live_server}/admin"

    await page.click("nav >> text=Riders")
    await page.fill("#q", "rivers")
    await page.click("form.filters button[type=submit]")
    assert await page.locator("tbody tr").count() == 1
    await _fits(page)
    await page.screenshot(path=SCREENSHOTS / "riders-search-360.png", full_page=True)
    await page.click("tbody >> text=R-1")
    assert page.url == f"{live_server}/admin/riders/R-1"
    assert "No assignment." in await page.text_content("main")

    await page.click("nav >> text=Assign")
    await page.select_option("#path_id", label="Road basics")
    await page.check("input[name=cities][value=Dubai]")
    await page.click("text=Preview count")
    assert "1 riders would be assigned." in await page.text_content(".notice")
    await _fits(page)
    await page.screenshot(path=SCREENSHOTS / "assign-preview-360.png", full_page=True)
    await page.click("text=Assign to 1 riders")
    assert "1 assignments created (why: admin)." in await page.text_content(".notice")

    await page.goto(f"{live_server}/admin/riders/R-1")
    row = page.locator("tbody tr", has_text="Road basics")
    assert await row.locator("td").all_text_contents() == [
        "Road basics",
        "admin",
        *(await row.locator("td").all_text_contents())[2:4],
        "open",
    ]
    await _fits(page)
    await page.screenshot(path=SCREENSHOTS / "rider-page-360.png", full_page=True)


async def test_messages_jobs_and_admins_fit_a_phone(
    live_server, make_admin, database_url, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    admin = await make_admin()
    async with database.connect(database_url) as conn:
        await add_riders(conn)
        await conn.execute(
            "INSERT INTO messages (rider_id, kind, body, status, error) VALUES ('R-1', 'reminder',"
            " 'Hi', 'failed', 'no answer from the provider within 10 s (3 attempts)')"
        )
    page = phone_page
    await page.goto(f"{live_server}/admin/sign-in")
    await page.fill("#email", admin.email)
    await page.fill("#password", admin.password)
    await page.click("button[type=submit]")
    await page.goto(f"{live_server}/admin/jobs")
    await page.click("text=Run reminders now")
    assert page.url == f"{live_server}/admin/jobs"
    assert "succeeded" in await page.text_content("tbody")
    for name in ("messages", "jobs", "admins"):
        await page.goto(f"{live_server}/admin/{name}")
        await _fits(page)
        await page.screenshot(path=SCREENSHOTS / f"{name}-360.png", full_page=True)
