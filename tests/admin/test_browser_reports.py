"""The reports in a real browser (Chromium through Playwright), on a 360 px phone and a 1280 px
screen: the charts are drawn without JavaScript beside their tables, nothing is wider than
the window, axe-core finds no violation, and an overdue city leads to its riders."""

from axe_playwright_python.async_playwright import Axe

from app.core import database
from jobs.reports import recount
from tests.rider.rows import QUIZ, add_course, add_path
from tests.web import PHONE, sign_in_page

PATHS_HEADINGS = [
    "Path",
    "Assigned",
    "Completed",
    "Completion rate",
    "Overdue",
    "Median days to complete",
]
QUESTION_HEADINGS = [
    "Question",
    "Answered",
    "Right at the first attempt",
    "Right over all attempts (facility index)",
    "Discrimination index",
    "Wrong option chosen most",
]

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
    for name in (
        "Road safety basics",
        "Food handling for riders on motorbikes, in the summer heat and at night",
    ):
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


# Every table heading of the page shown, or reachable by scrolling its table's own region
# sideways; at `all_shown` none may need scrolling. Returns the headings' texts.
HEADINGS = """(allShown) => {
  const problems = [];
  const texts = [];
  for (const th of document.querySelectorAll("main th")) {
    const region = th.closest(".table-wrap");
    const scrolls = region && region.scrollWidth > region.clientWidth;
    if (allShown && scrolls) problems.push("scrolls: " + th.textContent);
    if (scrolls) th.scrollIntoView({inline: "nearest", block: "nearest"});
    const box = th.getBoundingClientRect();
    const inside = region ? region.getBoundingClientRect() : {left: 0, right: innerWidth};
    if (box.width === 0 || box.left < inside.left - 1 || box.right > inside.right + 1
        || box.right > innerWidth + 1) problems.push("hidden: " + th.textContent);
    if (region) region.scrollLeft = 0;
    texts.push(th.textContent);
  }
  return {problems, texts};
}"""

# Every text of the charts: drawn at 12 px or more, inside its chart, never cut with "…".
CHART_TEXTS = """() => {
  const problems = [];
  for (const text of document.querySelectorAll("svg.chart text")) {
    const box = text.getBBox();
    const px = text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize);
    if (px < 12) problems.push(`${text.textContent}: ${px.toFixed(1)} px`);
    // Inside the chart's view box (in its own units), so not clipped.
    const outside = box.x < 0 || box.x + box.width > text.ownerSVGElement.viewBox.baseVal.width;
    if (outside) problems.push("outside: " + text.textContent);
    if (text.textContent.includes("…")) problems.push("cut: " + text.textContent);
  }
  return problems;
}"""


async def _every_column_and_label_shows(page, width: int, headings: list[str]) -> None:
    found = await page.evaluate(HEADINGS, width >= WIDE["width"])
    assert found["problems"] == [], (width, found["problems"])
    assert all(heading in found["texts"] for heading in headings), found["texts"]
    assert await page.evaluate(CHART_TEXTS) == [], width


async def _screenshots(page, name: str, width: int) -> None:
    """The page and each of its report sections, for a person to look at."""
    await page.screenshot(path=f"/tmp/reports-{name}-{width}.png", full_page=True)
    for section in await page.eval_on_selector_all("main section", "ss => ss.map(s => s.id)"):
        await page.locator(f"#{section}").screenshot(path=f"/tmp/reports-{section}-{width}.png")


async def _fits_and_passes_axe(page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    results = await Axe().run(page)
    assert results.violations_count == 0, f"{page.url}\n{results.generate_report()}"


async def test_the_reports_on_a_phone_and_a_wide_screen(
    live_server, database_url, make_admin, phone_page
):
    async with database.connect(database_url) as conn:
        course_id = await _data(conn)
        await recount(conn)
    admin = await make_admin(role="editor")
    page = phone_page
    await sign_in_page(page, live_server, admin.email, admin.password)
    await page.click("nav >> text=Reports")
    assert await page.text_content("h1") == "Reports"
    # Drawn on the server: an SVG with its title per chart, and the numbers in a table.
    titles = await page.eval_on_selector_all("svg.chart title", "ts => ts.map(t => t.textContent)")
    assert titles == [
        "Completion rate per path, in percent",
        "Completions per week, last 12 weeks, on a scale of its own",
        "New assignments per week, last 12 weeks, on a scale of its own",
        "Overdue assignments per city",
    ]
    # Each weekly line has its own value axis, with more ticks than 0 and the top.
    for key in ("completions", "assignments"):
        ticks = await page.locator(f"#weeks-{key}-chart .chart-axis[text-anchor=end]").count()
        assert ticks >= 3, key
    assert await page.locator("#paths-title + p + .report table tbody tr").count() == 2
    for width in (PHONE["width"], WIDE["width"]):
        await page.set_viewport_size(PHONE if width == PHONE["width"] else WIDE)
        await _every_column_and_label_shows(page, width, PATHS_HEADINGS)
        await _fits_and_passes_axe(page, width)
        await _screenshots(page, "page", width)

    # Recount now, as an editor: back on the reports, which say when.
    await page.click("text=Recount now")
    assert "/admin/reports?notice=" in page.url
    assert (await page.text_content("[role=status]")).startswith("Recounted at ")

    # The item analysis of the quiz course, from the reports page.
    await page.click("text=Food safety")
    assert await page.text_content("h1") == "Item analysis: Food safety"
    assert await page.locator("svg.chart").count() == 3
    for width in (WIDE["width"], PHONE["width"]):
        await page.set_viewport_size(PHONE if width == PHONE["width"] else WIDE)
        await _every_column_and_label_shows(page, width, QUESTION_HEADINGS)
        await _fits_and_passes_axe(page, width)
        await _screenshots(page, "course", width)
    assert course_id in page.url

    # An overdue city's bar leads to the riders there with overdue training.
    await page.click("nav >> text=Reports")
    await page.click("#overdue-title ~ .report table a >> nth=0")
    assert "overdue=1" in page.url
    assert await page.is_checked("input[name=overdue]")
    assert await page.locator("tbody tr").count() > 0
