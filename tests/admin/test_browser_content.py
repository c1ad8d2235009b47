"""Courses and paths in a real browser (Debian's Chromium through Playwright) on a phone."""

import re
from pathlib import Path

from tests.web import PHONE, fill_new_course, sign_in_page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
# A one-time notice's reference in an address.
UUID = "[0-9a-f-]{36}"


async def _fits_the_phone(page):
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_a_course_and_a_path_that_assigns_it_on_a_phone(
    live_server, make_admin, db, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, status) VALUES"
        " ('R1', 'Qatar one', 'QA', 'active'), ('R2', 'Qatar two', 'QA', 'onboarding'),"
        " ('R3', 'Qatar gone', 'QA', 'inactive'), ('R4', 'Dubai', 'AE', 'active')"
    )
    admin = await make_admin()
    page = phone_page
    await sign_in_page(page, live_server, admin.email, admin.password)

    # A course with two lessons and a one-question quiz, published.
    await fill_new_course(
        page,
        title="Night riding",
        lessons=[
            ("Lights", "Switch your **lights** on."),
            ("Visibility", "Wear the reflective vest."),
        ],
        question="When are lights on?",
        options=["At night", "Never"],
    )
    await _fits_the_phone(page)
    await page.click("button[value=save] >> nth=0")
    assert re.fullmatch(rf"{live_server}/admin/courses/[0-9a-f-]{{36}}\?notice={UUID}", page.url)
    assert await page.text_content(".notice") == "Course “Night riding” created."
    assert await page.is_checked("#published")
    await page.click("summary >> text=Lesson 1: Lights")
    assert await page.text_content(".preview strong") == "lights"
    await page.screenshot(path=SCREENSHOTS / "admin-course-editor-360.png", full_page=True)
    await _fits_the_phone(page)

    # Its Arabic translation, written by hand: reviewed at once.
    course_page = page.url.split("?")[0]
    await page.click(f"a[href='{course_page[len(live_server) :]}/translations/ar']")
    await page.fill("#title", "القيادة ليلا")
    await page.fill("#lesson_title_0", "الأضواء")
    await page.fill("#lesson_body_0", "شغل **الأضواء**.")
    await page.fill("#lesson_title_1", "الرؤية")
    await page.fill("#lesson_body_1", "البس السترة العاكسة.")
    await page.fill("#question_0", "متى تكون الأضواء مضاءة؟")
    await page.fill("#option_0_0", "في الليل")
    await page.fill("#option_0_1", "أبدا")
    await _fits_the_phone(page)
    await page.screenshot(path=SCREENSHOTS / "admin-course-translation-360.png", full_page=True)
    await page.click("text=Save translation")
    assert page.url.startswith(f"{course_page}?notice=")
    assert await page.text_content(".notice") == "The Arabic translation is saved, as reviewed."
    assert await page.text_content("[data-state]") == "reviewed"

    # An active path for every rider in Qatar with that course.
    await page.click("nav >> text=Paths")
    await page.click("text=New path")
    await page.fill("#name", "Qatar night riders")
    assert await page.is_checked("#active")
    await page.fill("#days_to_complete", "10")
    await page.select_option("#rule", "all_matching")
    await page.check("input[name=markets][value=QA]")
    await page.select_option("#course-1", label="Night riding")
    await _fits_the_phone(page)
    await page.click("text=Create path")
    assert re.fullmatch(rf"{live_server}/admin/paths/[0-9a-f-]{{36}}\?notice={UUID}", page.url)
    said = "Path “Qatar night riders” saved; 2 riders assigned."
    assert await page.text_content(".notice") == said
    assert await page.text_content("dd[data-riders]") == "2"
    await page.screenshot(path=SCREENSHOTS / "admin-path-saved-360.png", full_page=True)
    await _fits_the_phone(page)

    await page.click("nav >> text=Paths")
    assert await page.text_content("td[data-open]") == "2"
    await page.screenshot(path=SCREENSHOTS / "admin-paths-list-360.png", full_page=True)
