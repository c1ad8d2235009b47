"""The AI pages in a real browser (Debian's Chromium through Playwright) on a 360x740 phone:
the assistant streams its answer into the page; an admin generates a course from a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ai import fake_ai as fake
from tests.ai.files import make_pdf
from tests.web import PHONE, sign_in_page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
async def ai_server(aiohttp_server, ai_app):
    server = await aiohttp_server(ai_app())
    return str(server.make_url("")).rstrip("/")


def watch_errors(page) -> list[str]:
    """Console errors (a CSP violation, a script error) collected while the test runs."""
    errors: list[str] = []

    def console(message):
        # A failed load is checked by its response below (the browser's own favicon is none).
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def response(answer):
        if answer.status >= 400 and not answer.url.endswith("/favicon.ico"):
            errors.append(f"{answer.status} {answer.url}")

    page.on("console", console)
    page.on("response", response)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


async def test_the_assistant_streams_its_answer_on_a_phone(
    ai_server, make_rider, fake_ai, phone_page, screenshots
):
    rider = await make_rider(language="en")
    page = phone_page
    errors = watch_errors(page)
    await page.context.add_cookies(
        [{"name": "rider_session", "value": rider.session_id, "url": ai_server}]
    )
    pieces = ["Pay cash orders ", "at the hub ", "before 22:00.\n", "Keep the receipt."]
    fake_ai.script.append(fake.stream(pieces, pause=0.4))
    await page.goto(f"{ai_server}/training/assistant")
    assert await page.text_content("h1") == "Assistant"
    assert await page.is_hidden("#assistant-answer")
    await page.fill("#question", "Where do I pay cash orders?")
    await page.click(".assistant-form button[type=submit]")
    # The first words show while the rest is still coming.
    await page.wait_for_selector("#answer-text:has-text('Pay cash orders')")
    assert await page.get_attribute("#assistant-answer", "data-done") is None
    await page.wait_for_selector("#assistant-answer[data-done]")
    assert await page.text_content("#answer-text") == "".join(pieces)
    assert await page.is_hidden("#answer-problem")
    assert await page.input_value("#question") == "Where do I pay cash orders?"
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert errors == []
    await page.screenshot(path=screenshots / "ai-assistant-360.png", full_page=True)


async def test_a_mid_stream_failure_shows_a_clear_message(
    ai_server, make_rider, fake_ai, phone_page, screenshots
):
    rider = await make_rider(language="ar")
    page = phone_page
    await page.context.add_cookies(
        [{"name": "rider_session", "value": rider.session_id, "url": ai_server}]
    )
    fake_ai.script.append(fake.stream(["ادفع في "], cut=True))
    await page.goto(f"{ai_server}/training/assistant")
    assert await page.get_attribute("html", "dir") == "rtl"
    await page.fill("#question", "أين أدفع؟")
    await page.click(".assistant-form button[type=submit]")
    await page.wait_for_selector("#assistant-answer[data-done]")
    assert await page.text_content("#answer-text") == "ادفع في "
    assert "توقفت الإجابة" in await page.text_content("#answer-problem")
    await page.screenshot(path=screenshots / "ai-assistant-failure-ar-360.png", full_page=True)


async def test_an_admin_generates_a_course_then_translates_it(
    ai_server, make_admin, fake_ai, phone_page, screenshots, tmp_path
):
    admin = await make_admin()
    page = phone_page
    errors = watch_errors(page)
    await sign_in_page(page, ai_server, admin.email, admin.password)
    await page.goto(f"{ai_server}/admin/courses")
    await page.click("text=Generate with AI")
    source = tmp_path / "helmets.pdf"
    source.write_bytes(make_pdf(["Wear your helmet on every ride."]))
    await page.set_input_files("#ai-source", str(source))
    await page.click("text=Generate a draft course")
    assert "/admin/jobs/" in page.url
    # The page refreshes itself until the job ends.
    await page.wait_for_selector('[data-job-status="succeeded"]', timeout=15_000)
    assert "Helmet safety" in await page.text_content("main")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    await page.screenshot(path=screenshots / "ai-job-360.png", full_page=True)
    await page.click("text=Helmet safety")
    await page.click("text=Translate with AI >> nth=0")  # the first row: Arabic
    await page.wait_for_selector('[data-job-status="succeeded"]', timeout=15_000)
    assert "Translation into Arabic" in await page.text_content("h1")
    assert errors == []
    await page.click("text=Helmet safety")
    await page.screenshot(path=screenshots / "ai-course-translated-360.png", full_page=True)
    assert "machine" in await page.text_content("main")
