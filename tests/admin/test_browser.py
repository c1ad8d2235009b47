"""The panel in a real browser (Debian's Chromium through Playwright) on a 360 px phone."""

from tests.web import PHONE


async def test_first_admin_signs_in_on_a_phone_and_sees_the_dashboard(
    live_server, make_admin, phone_page, screenshot_dir
):
    admin = await make_admin(name="Ada Admin")
    page = phone_page
    await page.goto(f"{live_server}/admin")
    assert page.url == f"{live_server}/admin/sign-in"
    await page.screenshot(path=screenshot_dir / "admin-sign-in-360.png", full_page=True)
    await page.fill("#email", admin.email)
    await page.fill("#password", "a wrong password")
    await page.click("button[type=submit]")
    assert await page.text_content(".alert") == "Wrong email or password"
    await page.fill("#password", admin.password)
    await page.click("button[type=submit]")
    assert page.url == f"{live_server}/admin"
    assert await page.text_content("h1") == "Dashboard"
    # Usable at 360 px: nothing wider than the window, the style sheet applied (CSP allows it).
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    background = await page.evaluate(
        "getComputedStyle(document.querySelector('.topbar')).backgroundColor"
    )
    assert background == "rgb(22, 50, 79)"
    await page.screenshot(path=screenshot_dir / "admin-dashboard-360.png", full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.screenshot(path=screenshot_dir / "admin-dashboard-1280.png", full_page=True)
    await page.click("text=Sign out")
    assert page.url == f"{live_server}/admin/sign-in"
    await page.goto(f"{live_server}/admin")
    assert page.url == f"{live_server}/admin/sign-in"
