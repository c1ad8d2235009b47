"""A count of the reports' paths table, clicked in a real browser at 1280 and 360 px, lands on
the riders list with that path and state chosen, saying as many riders match (axe clean)."""

import re

from app.core import database
from jobs.reports import recount
from tests.admin.test_browser_reports import WIDE, _data, _fits_and_passes_axe
from tests.web import PHONE, sign_in_page


async def test_a_paths_count_lands_on_as_many_riders(
    live_server, database_url, make_admin, phone_page
):
    async with database.connect(database_url) as conn:
        await _data(conn)
        await recount(conn)
    admin = await make_admin(role="viewer")
    page = phone_page
    await sign_in_page(page, live_server, admin.email, admin.password)
    # Assigned, completed and overdue of the first path, on each screen.
    for size, column in ((WIDE, 2), (PHONE, 3), (WIDE, 5)):
        await page.set_viewport_size(size)
        await page.goto(f"{live_server}/admin/reports?markets=AE")
        count = page.locator(f"#paths tbody tr >> nth=0 >> td:nth-child({column}) a")
        number = int(await count.text_content())
        await count.click()
        await page.wait_for_url(re.compile(r"/admin/riders\?"))
        said = await page.text_content("p.result-count")
        assert said == f"{number} riders match these filters.", (column, said)
        assert await page.locator("tbody tr").count() == number
        assert await page.locator("#path option:checked").text_content() != "Any"
        assert await page.locator("#market option:checked").text_content() == "AE"
        await _fits_and_passes_axe(page, size["width"])
        await page.screenshot(path=f"/tmp/riders-by-path-{column}-{size['width']}.png")
