"""The reports job recounts the summaries the reports read; the pages say how old they are."""

import uuid

from jobs import JOBS


async def test_the_reports_show_what_the_last_run_of_the_job_counted(db, job_context, admin_client):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city) VALUES ('R-1', 'A', 'AE', 'Dubai')"
    )
    path_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO paths (path_id, name, days_to_complete) VALUES ($1, 'Basics', 7)", path_id
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " VALUES ('R-1', $1, 'api', now() - interval '1 day')",
        path_id,
    )
    before = await (await admin_client.get("/admin/reports")).text()
    assert "Not counted yet" in before
    assert "No assignment matches these filters." in before

    result = await JOBS["reports"].run(job_context())
    assert result.startswith("reports recounted as of ")
    page = await (await admin_client.get("/admin/reports")).text()
    assert "Figures as of " in page and "recounted every 10 minutes" in page
    dubai = '<a href="/admin/riders?market=AE&amp;city=Dubai&amp;overdue=1"'
    overdue_row = f'{dubai}>Dubai</a></td><td>AE</td><td>{dubai} aria-label="1 overdue'
    assert overdue_row in page

    # A change is seen at the next run, not before.
    await db.execute("UPDATE assignments SET completed_at = now()")
    assert overdue_row in await (await admin_client.get("/admin/reports")).text()
    await JOBS["reports"].run(job_context())
    assert "No assignment is overdue." in await (await admin_client.get("/admin/reports")).text()
