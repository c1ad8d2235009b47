"""In the real browser at 360 and 1280 px: Run now of reminders asked first with its count, a
rider's one-tap links revoked after asking, and Mark called on the call list; each action's
page says once what was done, and axe-core finds nothing on those pages."""

import pytest

from tests.admin.riders_data import PATH_ID, add_riders
from tests.web import no_axe_violation, sign_in_page

WIDTHS = [360, 1280]


async def _fits(page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


async def _done(page) -> str:
    return (await page.locator("p.done[role=status]").inner_text()).strip()


@pytest.mark.parametrize("width", WIDTHS)
async def test_confirm_then_the_message_after_the_redirect(
    live_server, db, make_admin, browser, width
):
    await add_riders(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " SELECT rider_id, $1, 'api', now() FROM riders WHERE status <> 'inactive'",
        PATH_ID,
    )
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error) VALUES"
        " ('R-2', 'flag', 'Hi Alia, take Safe driving.', 'failed', 'provider said 400')"
    )
    riders = await db.fetchval("SELECT count(*) FROM assignments")
    admin = await make_admin()
    context = await browser.new_context(viewport={"width": width, "height": 800})
    page = await context.new_page()
    await sign_in_page(page, live_server, admin.email, admin.password)

    # Run now of reminders: asked with the count; Cancel sends nothing.
    await page.goto(f"{live_server}/admin/jobs")
    await page.click("text=Run reminders now…")
    assert await page.inner_text("h1") == f"Send reminders to {riders} riders now?"
    await _fits(page, width)
    await page.screenshot(path=f"/tmp/actions-reminders-confirm-{width}.png", full_page=True)
    await no_axe_violation(page)
    await page.click("text=Cancel")
    assert page.url == f"{live_server}/admin/jobs"
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0
    await page.click("text=Run reminders now…")
    await page.click(f"text=Remind {riders} riders")
    await page.wait_for_selector("p.done[role=status]")
    assert (await _done(page)).startswith("The reminders run ")
    await page.screenshot(path=f"/tmp/actions-reminders-done-{width}.png", full_page=True)
    assert await db.fetchval("SELECT count(*) FROM job_runs WHERE job = 'reminders'") == 1

    # Revoke one-tap links: asked, then the rider page says it, once.
    await page.goto(f"{live_server}/admin/riders/R-1")
    await page.click("text=Revoke one-tap links…")
    assert await page.inner_text("h1") == "Revoke the one-tap links of Sam Rivers (R-1)?"
    await no_axe_violation(page)
    await page.click("text=Revoke the links")
    assert await _done(page) == (
        "The one-tap links sent to R-1 until now no longer work; their sessions ended."
    )
    await _fits(page, width)
    await page.screenshot(path=f"/tmp/actions-links-done-{width}.png", full_page=True)
    await no_axe_violation(page)
    await page.reload()
    assert await page.locator("p.done").count() == 0  # a refresh sends nothing, says nothing

    # The call list: the phone to tap, the text, Mark called.
    await page.goto(f"{live_server}/admin/messages?status=failed")
    assert await page.get_attribute("a[href^='tel:']", "href") == "tel:+971509990001"
    # The number, the text and the button are on the screen without scrolling sideways.
    for shown in ("a[href^='tel:']", "text=Hi Alia, take Safe driving.", "button.small"):
        box = await page.locator(shown).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, shown
    await no_axe_violation(page)
    await page.click("button:has-text('Mark called')")
    assert await _done(page) == "Marked called: Alia Stone (R-2)."
    assert page.url.startswith(f"{live_server}/admin/messages?status=failed&notice=")
    assert f"Called by {admin.email}" in await page.inner_text("main")
    await page.screenshot(path=f"/tmp/actions-called-{width}.png", full_page=True)
    await no_axe_violation(page)

    # A rider that is not there: the panel, and the way back to the list.
    response = await page.goto(f"{live_server}/admin/riders/nobody")
    assert response.status == 404
    await page.screenshot(path=f"/tmp/actions-rider-404-{width}.png", full_page=True)
    await no_axe_violation(page)
    await page.click("text=Back to the riders list")
    assert page.url == f"{live_server}/admin/riders"
