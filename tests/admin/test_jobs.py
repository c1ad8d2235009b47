"""The jobs page: recent runs with outcome and result, and Run now for reminders and backup."""

import asyncio

from tests.admin.riders_data import PATH_ID, add_riders
from tests.web import PageClient, confirm_page, sign_in


async def test_run_reminders_now_records_the_run_with_who_started_it(admin_client, db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline) VALUES ('R-1', $1, 'api',"
        " now())",
        PATH_ID,
    )
    jobs = await admin_client.text("/admin/jobs")
    assert 'action="/admin/jobs/reminders/run"' not in jobs
    assert '<a class="button" href="/admin/jobs/reminders/run">Run reminders now…</a>' in jobs
    page = await confirm_page(
        admin_client, "/admin/jobs/reminders/run", "/admin/jobs/reminders/run"
    )
    assert "Send reminders to 1 riders now?" in page
    assert '<input type="hidden" name="expected_count" value="1">' in page
    assert '<a class="button secondary" href="/admin/jobs">Cancel</a>' in page
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0
    response = await admin_client.submit(
        "/admin/jobs/reminders/run", {"expected_count": "1"}, form_page="/admin/jobs"
    )
    assert response.status == 303
    assert response.headers["Location"].startswith("/admin/jobs?notice=")
    said = await admin_client.text(response.headers["Location"])
    assert "The reminders run finished: see its result below." in said
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


async def test_reminders_are_asked_first_and_a_stale_count_sends_nothing(admin_client, db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " SELECT rider_id, $1, 'api', now() FROM riders WHERE status <> 'inactive'",
        PATH_ID,
    )
    riders = await db.fetchval("SELECT count(*) FROM assignments")
    assert riders > 1
    # Without the count it was asked with (a form of an older page): asked, nothing sent.
    response = await admin_client.submit("/admin/jobs/reminders/run", {}, form_page="/admin/jobs")
    assert response.status == 200
    assert f"Send reminders to {riders} riders now?" in await response.text()
    # The count shown before a rider finished: refused, with the new count to confirm.
    for stale in ("1", "9999", "x"):
        response = await admin_client.submit(
            "/admin/jobs/reminders/run", {"expected_count": stale}, form_page="/admin/jobs"
        )
        assert response.status in (409, 200), stale
        page = await response.text()
        assert f'name="expected_count" value="{riders}"' in page
    assert response.status == 200  # not a number: asked again, as without one
    response = await admin_client.submit(
        "/admin/jobs/reminders/run", {"expected_count": "1"}, form_page="/admin/jobs"
    )
    assert response.status == 409
    assert (
        f"Nothing was sent: the riders to remind changed; {riders} riders would now get one."
        in await response.text()
    )
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0
    assert await db.fetchval("SELECT count(*) FROM messages") == 0


async def test_a_job_already_running_is_a_409_page(admin_client, db):
    # Another instance's run: unfinished, its heartbeat fresh.
    await db.execute("INSERT INTO job_runs (job, slot) VALUES ('reminders', NULL)")
    response = await admin_client.submit(
        "/admin/jobs/reminders/run", {"expected_count": "0"}, form_page="/admin/jobs"
    )
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
