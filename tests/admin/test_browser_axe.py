"""axe-core on every page of the panel at 360 px and at 1280 px: one browser, one signed-in
context, a loop over the pages (each with rows in its lists, so its tables are checked too)."""

from app.core import database
from tests.admin.riders_data import PATH_ID, add_history, add_riders
from tests.rider.rows import add_course, add_translation
from tests.web import no_axe_violation, sign_in_page

WIDTHS = (360, 1280)
HEIGHT = 800


async def _add_rows(database_url, email: str) -> dict:
    """Riders with their history, a course with a quiz and an Arabic translation, a webhook
    endpoint, a knowledge document and an AI job: every list has a row."""
    async with database.connect(database_url) as conn:
        await add_riders(conn)
        await add_history(conn)
        course_id = await add_course(conn)
        await add_translation(conn, course_id)
        endpoint_id = await conn.fetchval(
            "INSERT INTO webhook_endpoints (url, events, description, secret) VALUES"
            " ('https://example.com/hooks', '{assignment.created}', 'HR system', 'whsec_x')"
            " RETURNING endpoint_id"
        )
        await conn.execute(
            "INSERT INTO knowledge_documents (name, size_bytes, characters) VALUES"
            " ('handbook.txt', 1200, 1180)"
        )
        job_id = await conn.fetchval(
            "INSERT INTO ai_jobs (kind, source_name, status, error, finished_at) VALUES"
            " ('generation', 'handbook.pdf', 'failed', 'The provider answered 500.', now())"
            " RETURNING job_id"
        )
        await conn.execute("INSERT INTO job_runs (job, slot) VALUES ('reminders', now())")
        # The audit log is the owners': the admins here are owners, with an event to list.
        await conn.execute("UPDATE admins SET role = 'owner'")
        await conn.execute(
            "INSERT INTO audit_events (actor, address, action, target, summary) VALUES"
            " ($1, '127.0.0.1', 'rider.pin_reset', 'R-1', 'new PIN shown once')",
            email,
        )
    return {
        "course": f"/admin/courses/{course_id}",
        "endpoint": f"/admin/webhooks/{endpoint_id}",
        "job": f"/admin/jobs/{job_id}",
        "other_admin": email,
    }


async def _check_both_widths(page) -> None:
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": HEIGHT})
        await no_axe_violation(page)


async def test_every_admin_page_has_no_axe_violation_at_360_and_1280_px(
    live_server, database_url, browser, make_admin
):
    account = await make_admin()
    other = await make_admin(email="bo@example.com", name="Bo Admin")
    at = await _add_rows(database_url, other.email)
    context = await browser.new_context(viewport={"width": WIDTHS[0], "height": HEIGHT})
    page = await context.new_page()
    await page.goto(f"{live_server}/admin/sign-in")
    await _check_both_widths(page)
    await page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
    await sign_in_page(page, live_server, account.email, account.password)
    addresses = [
        "/admin",
        "/admin/riders",
        "/admin/riders?q=Sam",
        "/admin/riders?q=ab",
        "/admin/riders/R-1",
        "/admin/riders/R-1/pin",
        "/admin/import",
        "/admin/paths",
        "/admin/paths/new",
        f"/admin/paths/{PATH_ID}",
        "/admin/assign",
        "/admin/courses",
        "/admin/courses/new",
        at["course"],
        f"{at['course']}/translations/ar",
        "/admin/courses/generate",
        f"{at['course']}/translate",
        "/admin/knowledge",
        "/admin/messages",
        "/admin/jobs",
        at["job"],
        "/admin/admins",
        f"/admin/admins/disable?email={at['other_admin']}",
        "/admin/webhooks",
        at["endpoint"],
        f"{at['endpoint']}/delete",
        "/admin/audit",
        "/admin/audit?from=2026-02-30",
        "/admin/no-such-page",
    ]
    for address in addresses:
        await page.goto(f"{live_server}{address}")
        await _check_both_widths(page)
    # Pages that answer a form: the assign preview and an import's result.
    await page.goto(f"{live_server}/admin/assign")
    await page.select_option("#path_id", label="Road basics")
    await page.check("input[name=markets][value=AE]")
    await page.click("text=Preview count")
    await _check_both_widths(page)
    await page.goto(f"{live_server}/admin/import")
    await page.set_input_files(
        "#file",
        files=[
            {
                "name": "riders.csv",
                "mimeType": "text/csv",
                "buffer": b"riderId,name,market\r\nR-9,Nia,AE\r\nR-10,,AE\r\n",
            }
        ],
    )
    await page.click("main button[type=submit]")
    assert "Rejected rows" in await page.text_content("main")
    await _check_both_widths(page)
