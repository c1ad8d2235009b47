"""The weekly restore drill: the latest archive restored into a scratch database and its row
counts compared with those recorded at backup time; its outcome on the jobs page and in the
metrics, and one run across instances."""

import asyncio
import json

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core import database
from jobs import JOBS, JobContext, JobFailed
from jobs.scheduler import JobLocked, run_locked
from tests.web import PageClient, sign_in

TOKEN = "metrics-token-0123456789"
DRILL = JOBS["restore-drill"]


async def gauges(client) -> dict[str, float]:
    response = await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status == 200
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(await response.text())
        for sample in family.samples
        if not sample.labels
    }


async def scratch_databases(db) -> list[str]:
    return await db.fetchval(
        "SELECT array_agg(datname) FROM pg_database WHERE datname LIKE 'rider_ops_restore_drill%'"
    )


@pytest.mark.direct
async def test_a_drill_restores_the_latest_archive_and_reports_it(
    job_context, db, s3_store, make_client, make_admin
):
    await db.execute(
        "INSERT INTO job_runs (job, finished_at, outcome) SELECT 'demo', now(), 'succeeded'"
        " FROM generate_series(1, 5)"
    )
    context = job_context(BACKUP_S3_URL=s3_store.url, BACKUP_DIR="")
    client = await make_client(METRICS_TOKEN=TOKEN, BACKUP_S3_URL=s3_store.url, BACKUP_DIR="")
    before = await gauges(client)
    # Before the first of each: 0, which an alert on "too long ago" fires for.
    for name in (
        "backup_last_success_timestamp_seconds",
        "backup_size_bytes",
        "backup_duration_seconds",
        "restore_drill_last_success_timestamp_seconds",
    ):
        assert before[name] == 0, name

    await run_locked(JOBS["backup"], context)
    result = await run_locked(DRILL, context)

    (archive,) = [k.rsplit("/", 1)[1] for k in await s3_store.keys() if k.endswith(".dump")]
    assert result.startswith(f"{archive} from s3://{s3_store.bucket}/nightly/db/ restored: ")
    assert result.endswith(" rows, as at backup time")
    assert await scratch_databases(db) is None
    runs = await db.fetch(
        "SELECT job, outcome, extract(epoch FROM finished_at)::float8 AS at FROM job_runs"
        " WHERE job IN ('backup', 'restore-drill') ORDER BY run_id"
    )
    assert [(r["job"], r["outcome"]) for r in runs] == [
        ("backup", "succeeded"),
        ("restore-drill", "succeeded"),
    ]
    after = await gauges(client)
    assert after["restore_drill_last_success_timestamp_seconds"] == runs[1]["at"]
    recorded = await db.fetchrow("SELECT * FROM backups")
    assert recorded["archive"] == archive
    assert after["backup_last_success_timestamp_seconds"] == recorded["finished_at"].timestamp()
    manifest = json.loads(await s3_store.get(f"nightly/db/{archive.replace('.dump', '.json')}"))
    assert after["backup_size_bytes"] == manifest["bytes"]
    assert after["backup_duration_seconds"] == recorded["seconds"] > 0

    # The jobs page lists the drill's run with its line.
    page_client = PageClient(client)
    await sign_in(page_client, await make_admin())
    page = await (await page_client.get("/admin/jobs")).text()
    assert "<td>restore-drill</td>" in page and result in page


async def test_a_drill_whose_counts_differ_fails_and_says_where(job_context, db, s3_store):
    context = job_context(BACKUP_S3_URL=s3_store.url, BACKUP_DIR="")
    await run_locked(JOBS["backup"], context)
    (key,) = [k for k in await s3_store.keys() if k.endswith(".json")]
    manifest = json.loads(await s3_store.get(key))
    real = manifest["tables"]["riders"]
    manifest["tables"]["riders"] = real + 3
    await s3_store.put(key, json.dumps(manifest).encode())

    with pytest.raises(JobFailed) as failure:
        await run_locked(DRILL, context)

    archive = manifest["archive"]
    assert str(failure.value) == (
        f"restore drill failed: {archive}: riders: {real} restored, {real + 3} at backup time"
    )
    row = await db.fetchrow("SELECT outcome, result FROM job_runs WHERE job = 'restore-drill'")
    assert (row["outcome"], row["result"]) == ("failed", str(failure.value))
    assert await scratch_databases(db) is None


async def test_a_drill_without_an_archive_fails(job_context, s3_store, db):
    with pytest.raises(JobFailed) as failure:
        await run_locked(DRILL, job_context(BACKUP_S3_URL=s3_store.url, BACKUP_DIR=""))
    assert str(failure.value) == (
        f"restore drill failed: no archive in s3://{s3_store.bucket}/nightly/db/"
    )
    assert await scratch_databases(db) is None


async def test_a_drill_runs_once_across_two_instances(job_context, database_url, s3_store, db):
    context = job_context(BACKUP_S3_URL=s3_store.url)
    await run_locked(JOBS["backup"], context)
    # Another instance: a pool of its own on the same database.
    other_pool = await database.create_pool(
        database_url, pool_mode=context.settings.database_pool_mode, min_size=1, max_size=2
    )
    try:
        other = JobContext(context.settings, other_pool, context.database_url)
        outcomes = await asyncio.gather(
            run_locked(DRILL, context), run_locked(DRILL, other), return_exceptions=True
        )
    finally:
        await other_pool.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["JobLocked", "str"]
    assert [o for o in outcomes if isinstance(o, JobLocked)][0].args[0] == (
        "job restore-drill is already running in another process"
    )
    assert await db.fetchval("SELECT count(*) FROM job_runs WHERE job = 'restore-drill'") == 1
