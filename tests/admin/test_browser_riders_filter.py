"""A training team member at 360 and 1280 px: a city chosen from the riders' own values
(typed in another case elsewhere), riders ticked in the list and sent to the assign page,
whose count follows the form as it changes, then the rider page's course progress; axe-core
clean at each step."""

import pytest

from app.core import database
from tests.admin.riders_data import add_history, add_riders
from tests.web import no_axe_violation, sign_in_page


async def _add_rows(database_url) -> None:
    async with database.connect(database_url) as conn:
        await add_riders(conn)
        await add_history(conn)
        await conn.execute(
            "INSERT INTO riders (rider_id, name, market, city, vehicle_type) SELECT 'H-' || i,"
            " 'Hawalli rider ' || i, 'KW', CASE WHEN i = 4 THEN 'HAWALLI' ELSE 'Hawalli' END,"
            " 'motorbike' FROM generate_series(1, 4) i"
        )


async def _fits(page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [360, 1280])
async def test_choose_a_city_tick_riders_assign_with_a_live_count_and_see_progress(
    live_server, database_url, browser, make_admin, width
):
    account = await make_admin()
    await _add_rows(database_url)
    context = await browser.new_context(viewport={"width": width, "height": 800})
    page = await context.new_page()
    await sign_in_page(page, live_server, account.email, account.password)

    # The city is chosen among the values riders have; "Hawalli" finds "HAWALLI" too.
    await page.goto(f"{live_server}/admin/riders")
    if width < 600:  # the filters fold away below 600 px
        await page.click("summary")
    await page.select_option("#city", "Hawalli")
    await page.click("button:has-text('Search')")
    assert await page.text_content(".result-count") == "4 riders match these filters."
    rows = page.locator("tbody tr")
    assert await rows.count() == 4
    await _fits(page, width)
    await no_axe_violation(page)
    await page.screenshot(path=f"/tmp/riders-list-{width}.png", full_page=True)

    # Two riders ticked go to the assign page as pasted IDs.
    await page.check("input[name=rider_ids][value=H-1]")
    await page.check("input[name=rider_ids][value=H-4]")
    await page.click("text=Assign a path to the riders ticked")
    assert await page.input_value("#rider_ids") == "H-1\nH-4"

    # The count follows the form as it changes, before any preview.
    count = page.locator("#assign-count")
    await page.select_option("#path_id", label="Road basics")
    await count.filter(has_text="2 riders would be assigned").wait_for()
    await page.check("input[name=markets][value=AE]")
    await count.filter(has_text="0 riders would be assigned").wait_for()
    await page.uncheck("input[name=markets][value=AE]")
    await count.filter(has_text="2 riders would be assigned").wait_for()
    await _fits(page, width)
    await no_axe_violation(page)
    await page.screenshot(path=f"/tmp/riders-assign-{width}.png", full_page=True)
    await page.click("text=Preview count")
    await page.click("text=Assign to 2 riders")
    assert "2 riders assigned, 0 already had this path" in await page.text_content(".notice")

    # The rider page shows the path's course, not passed yet, and no attempt.
    await page.goto(f"{live_server}/admin/riders/H-4")
    progress = page.locator("[aria-label='Course progress'] tbody tr")
    assert await progress.count() == 1
    assert (await progress.first.text_content()).startswith("Road basicsRoad safetynot yet0")
    assert "No quiz attempt recorded." in await page.text_content("main")
    await _fits(page, width)
    await no_axe_violation(page)
    await page.screenshot(path=f"/tmp/riders-rider-{width}.png", full_page=True)
