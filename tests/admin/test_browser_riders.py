"""A training team member on a phone: the journey (first admin through the setup link,
a course with a quiz, a path with it, assigned with the city filter, seen on the rider page), then
the messages, jobs and admins pages."""

from datetime import date
from pathlib import Path

from app.admin import accounts
from app.core import database
from tests.admin.riders_data import add_rider_rows, add_riders
from tests.web import PHONE, fill_new_course, sign_in_page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


async def _fits(page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_first_admin_to_an_assignment_by_city_on_the_rider_page(
    live_server, database_url, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Riders come from outside the panel (the API or the CSV import): R-1 in Dubai and R-2 in
    # Abu Dhabi, both in market AE, so only the city tells them apart.
    async with database.connect(database_url) as conn:
        await add_rider_rows(conn)
        token = await accounts.new_setup_token(conn)
    page = phone_page

    # The first admin, through the one-time setup link `serve` logs while no admin exists.
    await page.goto(f"{live_server}/admin/setup?token={token}")
    await page.fill("#email", "lead@example.com")
    await page.fill("#name", "Training Lead")
    await page.fill("#password", "a long passphrase")
    await page.click("button[type=submit]")
    assert page.url == f"{live_server}/admin"
    await page.click("text=Sign out")
    await sign_in_page(page, live_server, "lead@example.com", "a long passphrase")

    # A published course with a lesson and a one-question quiz.
    await fill_new_course(
        page,
        title="Dubai road rules",
        lessons=[("Roundabouts", "Give way to traffic **already on** the roundabout.")],
        question="Who goes first at a roundabout?",
        options=["Traffic already on it", "The fastest rider"],
    )
    await page.click("button[value=save] >> nth=0")
    assert await page.text_content(".notice") == "Course “Dubai road rules” created."
    assert await page.is_checked("#published")

    # A manual path with that course: nobody has it until the team assigns it.
    await page.click("nav >> text=Paths")
    await page.click("text=New path")
    await page.fill("#name", "Dubai starters")
    await page.fill("#days_to_complete", "10")
    await page.select_option("#course-1", label="Dubai road rules")
    await page.click("text=Create path")
    assert await page.text_content(".notice") == "Path “Dubai starters” saved; 0 riders assigned."

    # The market alone matches both riders; the city filter narrows it to R-1.
    await page.click("nav >> text=Assign")
    await page.select_option("#path_id", label="Dubai starters")
    await page.check("input[name=markets][value=AE]")
    await page.click("text=Preview count")
    assert "2 riders would be assigned." in await page.text_content(".notice")
    await page.check("input[name=cities][value=Dubai]")
    await page.click("text=Preview count")
    assert "1 rider would be assigned." in await page.text_content(".notice")
    await _fits(page)
    await page.screenshot(path=SCREENSHOTS / "assign-preview-360.png", full_page=True)
    await page.click("text=Assign to 1 rider")
    assert "1 rider assigned, 0 already had this path (why: admin)." in await page.text_content(
        ".notice"
    )

    # The Abu Dhabi rider got nothing; found by search, the Dubai rider has the path (why admin).
    await page.goto(f"{live_server}/admin/riders/R-2")
    assert "No assignment." in await page.text_content("main")
    await page.click("nav >> text=Riders")
    await page.fill("#q", "rivers")
    await page.click("form.filters button[type=submit]")
    assert await page.locator("tbody tr").count() == 1
    await _fits(page)
    await page.screenshot(path=SCREENSHOTS / "riders-search-360.png", full_page=True)
    await page.click("tbody >> text=R-1")
    assert page.url == f"{live_server}/admin/riders/R-1"
    rows = page.locator("[aria-label=Assignments] tbody tr", has_text="Dubai starters")
    assert await rows.count() == 1
    path, why, assigned, deadline, state = await rows.locator("td").all_text_contents()
    assert (path, why, state) == ("Dubai starters", "admin", "open")
    assert (date.fromisoformat(deadline) - date.fromisoformat(assigned)).days == 10
    # Its course, not passed yet, is in the path's progress.
    progress = page.locator("[aria-label='Course progress'] tbody tr", has_text="Dubai starters")
    assert (await progress.locator("td").all_text_contents())[1:4] == [
        "Dubai road rules",
        "not yet",
        "0",
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
    await sign_in_page(page, live_server, admin.email, admin.password)
    await page.goto(f"{live_server}/admin/jobs")
    await page.click("text=Run reminders now")
    await page.click("button.danger")  # asked first, with the count
    assert page.url.startswith(f"{live_server}/admin/jobs?notice=")
    assert "succeeded" in await page.text_content("tbody")
    for name in ("messages", "jobs", "admins"):
        await page.goto(f"{live_server}/admin/{name}")
        await _fits(page)
        await page.screenshot(path=SCREENSHOTS / f"{name}-360.png", full_page=True)


async def test_the_riders_list_on_a_phone_shows_the_results_first_with_a_count(
    live_server, make_admin, database_url, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    admin = await make_admin()
    async with database.connect(database_url) as conn:
        await conn.execute(
            "INSERT INTO riders (rider_id, name, market, city, vehicle_type, status)"
            " SELECT 'R-' || lpad(i::text, 3, '0'), 'Rider ' || i, 'AE', 'Dubai', 'car', 'active'"
            " FROM generate_series(1, 60) AS i"
        )
    page = phone_page
    await sign_in_page(page, live_server, admin.email, admin.password)
    await page.goto(f"{live_server}/admin/riders")
    assert await page.text_content(".result-count") == "60 riders match."
    first = await page.locator("tbody tr").first.bounding_box()
    assert first["y"] + first["height"] <= PHONE["height"], first
    # The filters are folded: one tap opens them.
    assert not await page.is_visible("#market")
    await page.click("summary")
    await page.select_option("#status", "onboarding")
    await page.click("form[role=search] button[type=submit]")
    assert await page.text_content(".result-count") == "0 riders match these filters."
    assert await page.is_visible("#status")
    await _fits(page)
    await page.goto(f"{live_server}/admin/riders")
    await page.screenshot(path=SCREENSHOTS / "riders-360.png")
    # Two letters cannot search names: the page says so instead of "No rider matches."
    await page.fill("#q", "Ri")
    await page.click("form[role=search] button[type=submit]")
    assert "is too short to search names or phones" in await page.text_content("[role=alert]")
    await page.screenshot(path=SCREENSHOTS / "riders-short-search-360.png")
    # From 600 px the filters are shown open.
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.goto(f"{live_server}/admin/riders?city=Dubai")
    assert await page.is_visible("#market")
    assert await page.text_content(".result-count") == "60 riders match these filters."
    await page.screenshot(path=SCREENSHOTS / "riders-1280.png")
