"""A viewer on a phone and an owner at a desk, in the real browser: the viewer reads the rider,
path and course pages with no button of a change, and the owner sets an admin's role."""

from pathlib import Path

from tests.admin.riders_data import COURSE_ID, PATH_ID, add_history, add_riders
from tests.web import PHONE, sign_in_page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


async def _fits(page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def _change_controls(page) -> list[str]:
    """The texts of the buttons and links of changes the page shows (sign-out aside)."""
    return await page.evaluate(
        """() => [...document.querySelectorAll(
                'main button, main a.button, main form[method=post], main input[type=submit]')]
              .filter(e => e.offsetParent !== null)
              .map(e => e.textContent.trim() || e.outerHTML.slice(0, 80))"""
    )


async def test_a_viewer_on_a_phone_sees_no_button_of_a_change(
    live_server, db, make_admin, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await add_riders(db)
    await add_history(db)
    viewer = await make_admin(email="viewer@example.com", role="viewer", markets=("AE",))
    page = phone_page
    await sign_in_page(page, live_server, viewer.email, viewer.password)
    nav = await page.inner_text("nav")
    assert "Riders" in nav and "Reports" in nav
    for hidden in ("Import", "Assign", "Admins", "Webhooks"):
        assert hidden not in nav
    for name, address in [
        ("rider", "/admin/riders/R-1"),
        ("riders", "/admin/riders"),
        ("path", f"/admin/paths/{PATH_ID}"),
        ("course", f"/admin/courses/{COURSE_ID}"),
        ("paths", "/admin/paths"),
        ("courses", "/admin/courses"),
        ("knowledge", "/admin/knowledge"),
        ("jobs", "/admin/jobs"),
    ]:
        await page.goto(live_server + address)
        assert await page.locator("h1").count() == 1, address
        await _fits(page)
        controls = await _change_controls(page)
        # The list pages keep their search and filter buttons (GET forms), nothing else.
        assert [c for c in controls if c not in ("Search", "Show", "Filter")] == [], (
            address,
            controls,
        )
        await page.screenshot(path=SCREENSHOTS / f"viewer-{name}-360.png", full_page=True)
    # The rider page shows the rider, without its actions; a KW rider is not found.
    await page.goto(f"{live_server}/admin/riders/R-1")
    assert "Sam Rivers" in await page.inner_text("main")
    assert "Actions" not in await page.inner_text("main")
    response = await page.goto(f"{live_server}/admin/riders/R-3")
    assert response.status == 404
    # A course's fields are there to read, and disabled.
    await page.goto(f"{live_server}/admin/courses/{COURSE_ID}")
    assert await page.locator("#title").is_disabled()
    # An address of a change typed in answers 403, with the navigation.
    response = await page.goto(f"{live_server}/admin/assign")
    assert response.status == 403
    assert "Your role does not allow this" in await page.inner_text("main")
    assert await page.locator("nav >> text=Riders").count() == 1
    await page.screenshot(path=SCREENSHOTS / "viewer-forbidden-360.png", full_page=True)


async def test_an_owner_sets_an_admins_role_and_markets(live_server, db, make_admin, browser):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    owner = await make_admin(email="owner@example.com")
    await make_admin(email="bo@example.com", name="Bo", role="editor")
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await sign_in_page(page, live_server, owner.email, owner.password)
    await page.click("nav >> text=Admins")
    await page.fill("#role-email", "bo@example.com")
    await page.select_option("#role-role", "viewer")
    await page.check("form[action='/admin/admins/role'] input[value=JO]")
    await page.click("text=Set role and markets")
    assert page.url.startswith(f"{live_server}/admin/admins?notice=")
    assert "is now" in await page.inner_text("p.done")
    row = await page.inner_text("tr:has-text('bo@example.com')")
    assert "viewer" in row and "JO" in row
    await page.screenshot(path=SCREENSHOTS / "admins-roles-1280.png", full_page=True)
    # The last owner cannot take the owner role from themselves.
    await page.fill("#role-email", owner.email)
    await page.select_option("#role-role", "editor")
    await page.click("text=Set role and markets")
    assert "This is the last active owner" in await page.inner_text("main")
