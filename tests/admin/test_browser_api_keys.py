"""The API keys page in a real browser, on a 360 px phone and a 1280 px desk: an owner creates
a key (refused input kept first), sees it once, the API takes it, a reload no longer shows it,
and revokes it after asking."""

import aiohttp
import pytest

from tests.web import PHONE, no_axe_violation, sign_in_page

SIZES = {"phone": PHONE, "desk": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", SIZES)
async def test_an_owner_creates_sees_once_and_revokes_a_key(
    live_server, make_admin, db, browser, screenshot_dir, size
):
    viewport = SIZES[size]
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    admin = await make_admin()
    await db.execute("UPDATE admins SET role = 'owner' WHERE admin_id = $1", admin.admin_id)
    await sign_in_page(page, live_server, admin.email, admin.password)
    await page.click("nav >> text=API keys")
    assert page.url == f"{live_server}/admin/api-keys"
    assert await page.locator("[data-environment-key]").count() == 4

    await page.fill("#name", "acme-lms")
    await page.click("text=Create key")
    assert "Choose at least one scope." in await page.text_content(".field-error")
    assert await page.input_value("#name") == "acme-lms"

    await page.check("input[value='training']")
    await page.fill("#expires_days", "30")
    await page.click("text=Create key")
    assert await page.text_content("h1") == "New API key acme-lms"
    key = await page.input_value("[data-secret]")
    assert key.startswith("rok_")
    assert "will not be shown again" in await page.text_content("main")
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    await no_axe_violation(page)
    await page.screenshot(path=screenshot_dir / f"admin-api-key-created-{size}.png", full_page=True)
    async with aiohttp.ClientSession() as session:
        url = f"{live_server}/api/v1/completions"
        async with session.get(url, headers={"x-api-key": key}) as response:
            assert response.status == 200
    await page.reload()
    assert await page.locator("[data-secret]").count() == 0
    assert "cannot be shown again" in await page.text_content(".alert")
    await no_axe_violation(page)
    await page.screenshot(path=screenshot_dir / f"admin-api-key-shown-{size}.png", full_page=True)

    await page.click("text=Back to the API keys")
    row = page.locator("tbody tr", has_text="acme-lms")
    assert key[:8] in await row.text_content() and "training" in await row.text_content()
    assert key not in await page.content()
    # Wider than a phone, the table scrolls in its own region.
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    await no_axe_violation(page)
    await page.screenshot(path=screenshot_dir / f"admin-api-keys-{size}.png", full_page=True)

    await row.locator("text=Revoke…").click()
    assert "Revoke the API key acme-lms?" in await page.text_content("h1")
    await page.click("text=Revoke the key")
    assert "The key acme-lms is revoked" in await page.text_content(".notice")
    assert "revoked" in await page.locator("tbody tr", has_text="acme-lms").text_content()
