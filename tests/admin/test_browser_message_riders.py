"""A training team member at 360 and 1280 px ticks two riders on the riders list, writes them
a message, confirms the count and sees the notice on the messages list; axe-core clean at each
step."""

import pytest

from app.core import database
from tests.admin.riders_data import add_riders
from tests.web import no_axe_violation, sign_in_page


@pytest.mark.parametrize("width", [360, 1280])
async def test_tick_two_riders_write_confirm_and_see_the_notice(
    live_server, database_url, browser, make_admin, width
):
    account = await make_admin()
    async with database.connect(database_url) as conn:
        await add_riders(conn)
    context = await browser.new_context(viewport={"width": width, "height": 800})
    page = await context.new_page()
    await sign_in_page(page, live_server, account.email, account.password)

    await page.goto(f"{live_server}/admin/riders")
    await page.check("input[name=rider_ids][value=R-1]")
    await page.check("input[name=rider_ids][value=R-4]")
    await page.click("text=Message the riders ticked")
    main = page.locator("main")
    await main.filter(has_text="1 rider of the 2 riders ticked would get this message.").wait_for()
    assert "1 rider skipped: inactive, or without a phone." in await main.text_content()
    await no_axe_violation(page)
    await page.fill("#body", "Helmets on today, please.")
    await page.screenshot(path=f"/tmp/message-riders-form-{width}.png", full_page=True)
    await page.click("text=Review before sending")

    await page.locator("h1", has_text="Send this message to 1 rider?").wait_for()
    await no_axe_violation(page)
    await page.screenshot(path=f"/tmp/message-riders-confirm-{width}.png", full_page=True)
    await page.click("text=Send to 1 rider")

    notice = page.locator(".notice")
    await notice.filter(has_text="1 message recorded: 0 sent, 0 failed, 1 logged.").wait_for()
    assert "Helmets on today, please." in await page.text_content("tbody")
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    await no_axe_violation(page)
    await page.screenshot(path=f"/tmp/message-riders-sent-{width}.png", full_page=True)
