"""The rider app in a real browser (Debian's Chromium through Playwright) on a 360x740 phone:
the riders' journey, Arabic right to left, and the sign-in page with the database down.
Screenshots land in var/screenshots/ for a person to look at."""

from pathlib import Path

import aiohttp
import pytest

from app.rider.texts import TEXTS
from tests.rider.rows import API_KEY, add_translation, course_for
from tests.web import PHONE, no_axe_violation

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


async def _api(live_server, method, path, **kwargs):
    async with aiohttp.ClientSession() as session:
        async with session.request(
            method, f"{live_server}{path}", headers=API_KEY, **kwargs
        ) as response:
            assert response.status == 200, await response.text()
            return await response.json()


async def _add_rider(live_server, **fields):
    rider = {"riderId": "R-7", "name": "Layla Hassan", "market": "AE", "pin": "2468", **fields}
    await _api(live_server, "POST", "/api/v1/riders", json={"riders": [rider]})


_SMALL_TAP_TARGETS = """() => [...document.querySelectorAll(
    'a, button, label.option, input:not([type=hidden]):not([type=radio]):not([type=checkbox])'
)].filter(e => !e.closest('.lesson'))
  .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44).map(([html, r]) => [html, r.width, r.height])"""


async def _fits_the_phone(page):
    """No sideways scrolling, and every tap target (but links in a lesson's running text) is
    at least 44 x 44 CSS px."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert await page.evaluate(_SMALL_TAP_TARGETS) == []


async def _sign_in(page, live_server, pin="2468"):
    await page.goto(f"{live_server}/")
    await page.fill("#rider_id", "R-7")
    await page.fill("#pin", pin)
    await page.click("main button[type=submit]")


async def test_a_rider_signs_in_learns_fails_passes_and_the_proof_verifies(
    live_server, db, phone_page, browser, screenshots
):
    await _add_rider(live_server)
    course_id = await course_for(db, "R-7", title="Food safety")
    page = phone_page
    await page.goto(f"{live_server}/training")
    assert page.url == f"{live_server}/"  # signed out: sent to sign-in
    await _sign_in(page, live_server, pin="0000")
    assert await page.text_content(".alert") == "Wrong rider ID or PIN"
    await page.screenshot(path=screenshots / "rider-sign-in-360.png", full_page=True)
    await page.fill("#pin", "2468")
    await page.click("main button[type=submit]")
    assert page.url == f"{live_server}/training"
    assert await page.text_content("h1") == "Hi Layla Hassan"
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-training-360.png", full_page=True)

    await page.click("text=Food safety")
    await page.click("text=Start the first lesson")
    assert await page.text_content("h1") == "Lesson 1"
    assert await page.text_content("article strong") == "lesson 1"
    await page.click("text=Next")
    assert await page.text_content("h1") == "Lesson 2"
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-lesson-360.png", full_page=True)
    await page.click("text=Take the quiz")
    assert page.url == f"{live_server}/training/courses/{course_id}/quiz"

    # A wrong set of answers fails, then the right one passes.
    await page.check("#q0 input[value='1']")
    await page.check("#q1 input[value='0']")
    await page.check("#q2 input[value='0']")
    await page.screenshot(path=screenshots / "rider-quiz-360.png", full_page=True)
    await page.click("main button[type=submit]")
    assert await page.text_content(".score") == "Your score: 0%"
    assert "Not passed yet" in await page.text_content(".alert")
    assert (await page.text_content(".wrong-questions")).count("Question") == 3
    await _fits_the_phone(page)
    await page.click("a.button:has-text('Retake the quiz')")
    await page.check("#q0 input[value='0']")
    await page.check("#q1 input[value='0']")
    await page.check("#q1 input[value='2']")
    await page.check("#q2 input[value='1']")
    await page.click("main button[type=submit]")
    assert await page.text_content("h1") == "You passed!"
    code = await page.text_content(".proof-code")
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-passed-360.png", full_page=True)
    await page.click("text=View your proof of completion")
    assert page.url == f"{live_server}/training/proofs/{code}"
    assert await page.text_content("dd.proof-code") == code
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-proof-360.png", full_page=True)
    await page.click("text=Sign out")
    assert page.url == f"{live_server}/"

    # Anyone can verify it, signed out, in a fresh browser.
    context = await browser.new_context(viewport=PHONE)
    stranger = await context.new_page()
    await stranger.goto(f"{live_server}/verify/{code}")
    assert await stranger.text_content(".notice") == "Valid: this course was completed."
    details = await stranger.text_content("dl")
    assert "Food safety" in details and "Layla H." in details and "Hassan" not in details
    await _fits_the_phone(stranger)
    await stranger.screenshot(path=screenshots / "rider-verify-360.png", full_page=True)

    completions = (await _api(live_server, "GET", "/api/v1/completions"))["data"]
    (record,) = completions
    assert record["riderId"] == "R-7" and record["courseId"] == str(course_id)
    assert record["proofCode"] == code and record["score"] == 100 and record["attempts"] == 2


async def test_an_arabic_rider_gets_right_to_left_pages_in_arabic(
    live_server, db, phone_page, screenshots
):
    await _add_rider(live_server, language="ar")
    course_id = await course_for(db, "R-7")
    await add_translation(db, course_id, "ar")
    page = phone_page
    await _sign_in(page, live_server)
    assert await page.get_attribute("html", "dir") == "rtl"
    assert await page.get_attribute("html", "lang") == "ar"
    assert await page.text_content("h2") == "التدريب المفتوح"
    assert "تسجيل الخروج" in await page.text_content("header")
    # The layout mirrors: the brand sits at the right edge.
    brand = await page.eval_on_selector(".brand", "e => e.getBoundingClientRect().right")
    assert brand > PHONE["width"] / 2
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-training-ar-360.png", full_page=True)
    await page.click("text=سلامة الغذاء")
    assert await page.text_content(".notice") == "هذه الترجمة آلية."
    await page.click("text=الدرس 1")
    await _fits_the_phone(page)
    await page.screenshot(path=screenshots / "rider-lesson-ar-360.png", full_page=True)
    await page.click("text=English")
    assert await page.get_attribute("html", "dir") == "ltr"
    assert await page.text_content("h1") == "Lesson 1"


@pytest.mark.parametrize("language", ["en", "ar", "ur", "ku"])
async def test_rider_pages_have_no_axe_violation_at_360_px(
    live_server, db, phone_page, screenshots, language
):
    """axe-core on every rider page of a course shown in English (no translation), with a
    failed quiz's result, in each of the four languages."""
    await _add_rider(live_server, language=language)
    course_id = await course_for(db, "R-7")
    page = phone_page
    await page.goto(f"{live_server}/?lang={language}")
    await no_axe_violation(page)
    await _sign_in(page, live_server)
    base = f"{live_server}/training/courses/{course_id}"
    for address in (f"{live_server}/training", base, f"{base}/lessons/1", f"{base}/quiz"):
        await page.goto(address)
        await _fits_the_phone(page)
        await no_axe_violation(page)
    if language == "ar":
        await page.goto(base)
        assert await page.get_attribute("h1", "lang") == "en"
        await page.screenshot(path=screenshots / "rider-english-course-ar-360.png", full_page=True)
        await page.goto(f"{base}/quiz")
    await page.check("#q0 input[value='1']")
    await page.check("#q1 input[value='0']")
    await page.check("#q2 input[value='0']")
    await page.click("main button[type=submit]")
    assert await page.query_selector(".wrong-questions")
    await _fits_the_phone(page)
    await no_axe_violation(page)


async def test_the_sign_in_page_loads_with_the_database_stopped(
    live_server, phone_page, database_down, screenshots
):
    page = phone_page
    async with database_down():
        response = await page.goto(f"{live_server}/")
        assert response.status == 200
        await page.fill("#rider_id", "R-7")
        await page.fill("#pin", "2468")
        await page.click("main button[type=submit]")
        assert await page.text_content(".alert") == "Sign-in is not available right now"
        await _fits_the_phone(page)
        await page.screenshot(path=screenshots / "rider-sign-in-db-down-360.png", full_page=True)


async def test_forgot_pin_in_arabic_at_360_px(live_server, phone_page, screenshots):
    await _add_rider(live_server, language="ar", phone="+971501234567")
    page = phone_page
    await page.goto(f"{live_server}/?lang=ar")
    await _fits_the_phone(page)
    await page.click("text=نسيت الرمز السري؟")
    assert page.url == f"{live_server}/forgot-pin?lang=ar"
    assert await page.get_attribute("html", "dir") == "rtl"
    await _fits_the_phone(page)
    await no_axe_violation(page)
    await page.fill("#rider_id", "r-7")  # the ID as sign-in finds it
    await page.click("main button[type=submit]")
    assert await page.text_content("p.notice") == TEXTS["new_pin_asked"]["ar"]
    assert "971501234567" not in await page.content()
    await _fits_the_phone(page)
    await no_axe_violation(page)
    await page.screenshot(path=screenshots / "rider-forgot-pin-ar-360.png", full_page=True)
    await page.set_viewport_size({"width": 1280, "height": PHONE["height"]})
    await no_axe_violation(page)
    await page.screenshot(path=screenshots / "rider-forgot-pin-ar-1280.png", full_page=True)
    await page.set_viewport_size(PHONE)
    await page.click("text=العودة إلى تسجيل الدخول")
    assert await page.get_attribute("html", "lang") == "ar"
    await _sign_in(page, live_server)  # the old PIN still works
    assert page.url == f"{live_server}/training"
