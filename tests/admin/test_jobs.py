"""The jobs page: recent runs with outcome and result, and Run now for reminders and backup."""

import asyncio

from tests.admin.riders_data import PATH_ID, add_riders
from tests.web import PageClient, sign_in


async def test_run_reminders_now_records_the_run_with_who_started_it(admin_client, db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline) VALUES ('R-1', $1, 'api',"
        " now())",
        PATH_ID,
    )
    response = await admin_client.submit("/admin/jobs/reminders/run", {}, form_page="/admin/jobs")
    assert response.status == 303
    assert response.headers["Location"] == "/admin/jobs"
    run = await db.fetchrow("SELECT job, slot, outcome, result, started_by FROM job_runs")
    assert run["job"] == "reminders" and run["slot"] is None
    assert run["outcome"] == "succeeded"
    assert run["result"] == "1 riders reminded of 1 assignments: 0 sent, 0 failed, 1 logged"
    assert run["started_by"] == admin_client.admin.admin_id
    page = await (await admin_client.get("/admin/jobs")).text()
    assert "<td>reminders</td>" in page and "<td>Ada Admin</td>" in page
    assert "1 riders reminded of 1 assignments" in page and "succeeded" in page
    assert await db.fetchval("SELECT status FROM messages") == "logged"


async def test_run_backup_now(make_client, make_admin, tmp_path, db):
    client = PageClient(await make_client(BACKUP_DIR=str(tmp_path / "b")))
    await sign_in(client, await make_admin())
    response = await client.submit("/admin/jobs/backup/run", {}, form_page="/admin/jobs")
    assert response.status == 303
    for _ in range(100):
        if await db.fetchval("SELECT outcome FROM job_runs WHERE job = 'backup'"):
            break
        await asyncio.sleep(0.2)
    run = await db.fetchrow("SELECT outcome, result FROM job_runs WHERE job = 'backup'")
    assert run["outcome"] == "succeeded", run["result"]
    assert run["result"].startswith("rider-ops-") and "0 expired deleted" in run["result"]
    assert len(list((tmp_path / "b").glob("rider-ops-*.dump"))) == 1


async def test_a_job_already_running_is_a_409_page(admin_client, db):
    # Another instance's run: unfinished, its heartbeat fresh.
    await db.execute("INSERT INTO job_runs (job, slot) VALUES ('reminders', NULL)")
    response = await admin_client.submit("/admin/jobs/reminders/run", {}, form_page="/admin/jobs")
    assert response.status == 409
    assert "job reminders is already running in another process" in await response.text()
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 1


async def test_unknown_job_is_404_and_csrf_is_required(admin_client, db):
    response = await admin_client.submit("/admin/jobs/vacuum/run", {}, form_page="/admin/jobs")
    assert response.status == 404
    response = await admin_client.post("/admin/jobs/reminders/run", allow_redirects=False)
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0


async def test_scheduled_and_command_line_runs_are_named(admin_client, db):
    await db.execute(
        "INSERT INTO job_runs (job, slot, outcome, result, finished_at) VALUES"
        " ('backup', '2026-11-22 02:30+00', 'failed', 'backup failed: <disk> full', now()),"
        " ('reminders', NULL, NULL, NULL, NULL)"
    )
    page = await (await admin_client.get("/admin/jobs")).text()
    assert "<td>schedule</td>" in page and "<td>command line</td>" in page
    assert "backup failed: &lt;disk&gt; full" in page
    assert ">running</td>" in page
