"""The reports in a real browser (Chromium through Playwright), on a 360 px phone and a 1280 px
screen: the charts are drawn without JavaScript beside their tables, nothing is wider than
the window, axe-core finds no violation, and an overdue city leads to its riders."""

from pathlib import Path

from axe_playwright_python.async_playwright import Axe

from jobs.reports import recount
from app.core import database
from tests.rider.rows import QUIZ, add_course, add_path
from tests.web import PHONE, sign_in_page

SCREENSHOTS = Path("/tmp/reports-screenshots")
WIDE = {"width": 1280, "height": 900}


async def _data(conn) -> str:
    """Riders in two cities with open, overdue and completed assignments of two paths, and a
    quiz course with recorded attempts; returns the course ID."""
    await conn.execute(
        "INSERT INTO riders (rider_id, name, market, city)"
        " SELECT 'R-' || i, 'Rider ' || i, (ARRAY['AE','KW'])[1 + i % 2],"
        "        (ARRAY['Dubai','Kuwait City','Abu Dhabi'])[1 + i % 3]"
        " FROM generate_series(1, 30) i"
    )
    course_id = await add_course(conn, "Food safety", quiz=QUIZ)
    for name in ("Road safety basics", "Food handling for riders"):
        path_id = await add_path(conn, name, [course_id])
        await conn.execute(
            "INSERT INTO assignments (rider_id, path_id, why, assigned_at, deadline, completed_at)"
            " SELECT 'R-' || i, $1, 'api', now() - interval '1 day' * (i * 2),"
            "        now() - interval '1 day' * (i * 2) + interval '10 days',"
            "        CASE WHEN i % 3 = 0 THEN now() - interval '1 day' * i END"
            " FROM generate_series(1, 30) i",
            path_id,
        )
    await conn.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, proof_code)"
        " SELECT 'R-' || i, $1, 'en', now() - interval '1 day' * i, now() - interval '1 day' * i,"
        "        100, 1 + i % 2, training_proof_code()"
        " FROM generate_series(1, 30) i",
        course_id,
    )
    await conn.execute(
        "INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)"
        " SELECT $1, 'R-' || i, a, CASE WHEN a = 1 + i % 2 THEN 100 ELSE 33.33 END, a = 1 + i % 2"
        " FROM generate_series(1, 30) i, generate_series(1, 1 + i % 2) a",
        course_id,
    )
    await conn.execute(
        "INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)"
        " SELECT course_id, rider_id, attempt, q,"
        "        CASE WHEN passed OR q = 0 THEN (ARRAY['{0}','{0,2}','{1}'])[q + 1]::smallint[]"
        "             ELSE '{1}' END, passed OR q = 0"
        " FROM quiz_attempts, generate_series(0, 2) q"
    )
    return str(course_id)


async def _fits_and_passes_axe(page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    results = await Axe().run(page)
    assert results.violations_count == 0, f"{page.url}\n{results.generate_report()}"


async def test_the_reports_on_a_phone_and_a_wide_screen(
    live_server, database_url, make_admin, phone_page
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with database.connect(database_url) as conn:
        course_id = await _data(conn)
        await recount(conn)
    admin = await make_admin()
    page = phone_page
    await sign_in_page(page, live_server, admin.email, admin.password)
    await page.click("nav >> text=Reports")
    assert await page.text_content("h1") == "Reports"
    # Drawn on the server: an SVG with its title per chart, and the numbers in a table.
    titles = await page.eval_on_selector_all("svg.chart title", "ts => ts.map(t => t.textContent)")
    assert titles == [
        "Completion rate per path, in percent",
        "Completions and new assignments per week, last 12 weeks",
        "Overdue assignments per city",
    ]
    assert await page.locator("#paths-title + p + .report table tbody tr").count() == 2
    await _fits_and_passes_axe(page, PHONE["width"])
    await page.screenshot(path=SCREENSHOTS / "reports-360.png", full_page=True)
    await page.set_viewport_size(WIDE)
    await _fits_and_passes_axe(page, WIDE["width"])
    await page.screenshot(path=SCREENSHOTS / "reports-1280.png", full_page=True)

    # The item analysis of the quiz course, from the reports page.
    await page.click("text=Food safety")
    assert await page.text_content("h1") == "Item analysis: Food safety"
    assert await page.locator("svg.chart").count() == 3
    await _fits_and_passes_axe(page, WIDE["width"])
    await page.screenshot(path=SCREENSHOTS / "report-course-1280.png", full_page=True)
    await page.set_viewport_size(PHONE)
    await _fits_and_passes_axe(page, PHONE["width"])
    await page.screenshot(path=SCREENSHOTS / "report-course-360.png", full_page=True)
    assert course_id in page.url

    # An overdue city's bar leads to the riders there with overdue training.
    await page.click("nav >> text=Reports")
    await page.click("#overdue-title ~ .report table a >> nth=0")
    assert "overdue=1" in page.url
    assert await page.is_checked("input[name=overdue]")
    assert await page.locator("tbody tr").count() > 0
