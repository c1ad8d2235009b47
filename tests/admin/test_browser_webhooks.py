"""The webhooks pages in a real browser on a 360 px phone: an endpoint added with its secret
shown once, a test event that reaches a receiver on localhost (WEBHOOKS_ALLOW_PRIVATE=1)
signed with that secret and shows its status, a refused URL kept on the form with the rule
that refused it, disable, replay, delete after asking."""

import standardwebhooks

from app.web import create_app
from app.webhooks import delivery
from tests.admin.widths import fits_both_widths
from tests.conftest import make_settings
from tests.web import PHONE, sign_in_page
from tests.webhooks.receiver import Receiver, until


async def test_an_admin_adds_an_endpoint_tests_it_and_deletes_it(
    aiohttp_server, database_url, make_admin, phone_page, screenshot_dir, db
):
    app = create_app(make_settings(WEBHOOKS_ALLOW_PRIVATE="1"), database_url)
    delivery.setup(app)  # as `serve` does: the test event is really sent
    base = str((await aiohttp_server(app)).make_url("")).rstrip("/")
    receiver = Receiver()
    hook = f"http://127.0.0.1:{(await aiohttp_server(receiver.app())).port}/hook"
    admin = await make_admin()
    page = phone_page
    await sign_in_page(page, base, admin.email, admin.password)
    await page.click("nav >> text=Webhooks")
    assert page.url == f"{base}/admin/webhooks"

    # The cloud metadata service's address: refused, with the rule; what was typed is kept.
    await page.fill("#url", "https://169.254.169.254/latest/meta-data/")
    await page.check("input[value='completion.created']")
    await page.fill("#description", "Acme LMS")
    await page.click("text=Add endpoint")
    assert "169.254.169.254 is a link-local address" in await page.text_content(".field-error")
    assert await page.input_value("#url") == "https://169.254.169.254/latest/meta-data/"
    assert await page.is_checked("input[value='completion.created']")
    assert await page.input_value("#description") == "Acme LMS"
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.screenshot(path=screenshot_dir / "admin-webhooks-refused-360.png", full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.screenshot(path=screenshot_dir / "admin-webhooks-refused-1280.png", full_page=True)
    await page.set_viewport_size(PHONE)

    await page.fill("#url", hook)
    await page.click("text=Add endpoint")
    assert await page.text_content("h1") == "Signing secret of the new webhook endpoint"
    secret = await page.input_value("[data-secret]")
    assert secret.startswith("whsec_")
    await fits_both_widths(page, screenshot_dir, "admin-webhook-secret")
    await page.reload()
    assert await page.locator("[data-secret]").count() == 0
    assert "cannot be shown again" in await page.text_content(".alert")
    await page.click("a.button:text('Back to the endpoint')")

    await page.click("text=Send test event")
    assert "A test event is on its way" in await page.text_content(".notice")
    assert await page.locator("[data-secret]").count() == 0
    await until(lambda: _received(receiver))
    headers, body = receiver.requests[0]
    event = standardwebhooks.Webhook(secret).verify(body, headers)
    assert event["type"] == "webhook.test"
    await until(lambda: _succeeded(db))
    await page.reload()
    row = await page.locator("tbody tr").first.text_content()
    assert "webhook.test" in row and "succeeded" in row and "HTTP 204" in row
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.click("text=Replay")
    assert "sent again" in await page.text_content(".notice")
    await until(lambda: _received(receiver, 2))
    assert receiver.ids[0] == receiver.ids[1]

    await page.click("button:text('Disable')")
    assert "disabled" in await page.text_content(".profile")
    await page.screenshot(path=screenshot_dir / "admin-webhook-endpoint-360.png", full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.screenshot(path=screenshot_dir / "admin-webhook-endpoint-1280.png", full_page=True)

    await page.click("text=Delete…")
    assert await page.text_content("h1") == "Delete this endpoint?"
    await page.click("text=Keep it")
    await page.click("text=Delete…")
    await page.click("button:text('Delete endpoint')")
    assert page.url.startswith(f"{base}/admin/webhooks?notice=")
    assert "The endpoint is deleted" in await page.text_content(".notice")
    assert "No endpoint yet." in await page.text_content("main")
    assert await db.fetchval("SELECT count(*) FROM webhook_endpoints") == 0


async def _received(receiver: Receiver, count: int = 1) -> bool:
    return len(receiver.requests) >= count


async def _succeeded(db) -> bool:
    return await db.fetchval("SELECT status = 'succeeded' FROM webhook_deliveries") is True
