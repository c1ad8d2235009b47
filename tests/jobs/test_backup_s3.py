"""Backups off the machine: the archive and its manifest in an S3 store (moto's server on
loopback, the service's real client), retention there, and failures that delete nothing."""

import hashlib
import json
import tempfile
from datetime import UTC, datetime, timedelta

import pytest

from jobs import JOBS, JobFailed, archives
from jobs.archives import archive_name, manifest_name
from jobs.scheduler import run_locked
from tests.jobs import s3

backup = JOBS["backup"].run


async def fill(db, megabytes: int) -> None:
    """Rows of hexadecimal noise, about `megabytes` MB in the archive (it compresses to half)."""
    await db.execute(
        "INSERT INTO job_runs (job, finished_at, outcome, result)"
        " SELECT 'filler', now(), 'succeeded',"
        "  (SELECT string_agg(md5(random()::text || i::text), '') FROM generate_series(1, 32768) i)"
        " FROM generate_series(1, $1) g",
        megabytes * 2,
    )


@pytest.fixture
def small_parts(monkeypatch):
    # S3's smallest part but the last: a 12 MB archive goes in three.
    monkeypatch.setattr(archives, "PART_BYTES", 5 * 1024 * 1024)


@pytest.fixture
def private_tmp(monkeypatch, tmp_path):
    """Where the backup's temporary files go, to see that none is left behind."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.mark.direct
async def test_an_archive_goes_up_in_parts_and_no_local_copy_is_kept(
    job_context, db, s3_store, small_parts, private_tmp
):
    await fill(db, 12)
    context = job_context(BACKUP_DIR="", BACKUP_S3_URL=s3_store.url)
    assert context.settings.backup_dir is None

    result = await backup(context)

    name, manifest_key = await s3_store.keys()
    archive = name.removeprefix("nightly/db/")
    assert archive.startswith("rider-ops-") and archive.endswith(".dump")
    assert manifest_key == f"nightly/db/{manifest_name(archive)}"
    assert result.startswith(f"{archive} written to s3://{s3_store.bucket}/nightly/db/")
    stored = await s3_store.get(name)
    manifest = json.loads(await s3_store.get(manifest_key))
    assert manifest["bytes"] == len(stored) > 10 * 1024 * 1024
    assert manifest["sha256"] == hashlib.sha256(stored).hexdigest()
    assert manifest["tables"]["job_runs"] == 24
    # A multipart object's ETag ends with its number of parts.
    assert (await s3_store.head(name))["ETag"].strip('"').endswith("-3")
    # No copy on this machine: the temporary one is gone.
    assert list(private_tmp.iterdir()) == []


async def test_credentials_and_endpoint_come_from_the_aws_variables(
    job_context, s3_store, monkeypatch
):
    monkeypatch.setenv("AWS_ENDPOINT_URL", s3_store.endpoint)
    monkeypatch.setenv("AWS_REGION", s3.REGION)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "from-the-environment")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "its-secret")
    await backup(
        job_context(BACKUP_S3_URL=f"s3://{s3_store.bucket}/{s3_store.prefix}", BACKUP_DIR="")
    )
    assert len(await s3_store.keys()) == 2


async def test_retention_deletes_only_expired_archives_of_the_prefix(job_context, s3_store):
    now = datetime.now(UTC)
    prefix = "nightly/db/"
    kept = [archive_name(now - timedelta(days=d)) for d in (1, 13)]
    expired = [archive_name(now - timedelta(days=d)) for d in (15, 40)]
    expired += [manifest_name(name) for name in expired]
    old = archive_name(now - timedelta(days=30))
    others = [
        f"{prefix}notes.txt",
        f"{prefix}rider-ops-old-copy.dump",
        f"{prefix}older/{old}",  # under the prefix, in a folder of its own
        f"elsewhere/{old}",  # another prefix
        old,  # the bucket's root
    ]
    for key in [prefix + name for name in kept + expired] + others:
        await s3_store.put(key)

    await backup(job_context(BACKUP_S3_URL=s3_store.url))

    remaining = await s3_store.keys()
    assert not {prefix + name for name in expired} & set(remaining)
    assert {prefix + name for name in kept} | set(others) <= set(remaining)
    assert len(remaining) == len(kept) + len(others) + 2


async def _old_archives(folder, s3_store) -> list[str]:
    """An expired archive in the folder and in the store, which a failed run must keep."""
    old = archive_name(datetime.now(UTC) - timedelta(days=30))
    folder.mkdir()
    (folder / old).write_bytes(b"x")
    if s3_store is not None:
        await s3_store.put(f"nightly/db/{old}")
    return [old]


async def test_a_missing_bucket_fails_the_job_and_deletes_nothing(job_context, s3_endpoint, db):
    missing = await s3.new_store(s3_endpoint, create=False)
    context = job_context(BACKUP_S3_URL=missing.url)
    folder = context.settings.backup_dir
    old = await _old_archives(folder, None)

    with pytest.raises(JobFailed) as failure:
        await run_locked(JOBS["backup"], context)

    message = str(failure.value)
    assert message.startswith(f"backup failed: s3://{missing.bucket}/nightly/db/: NoSuchBucket")
    assert "test-secret" not in message
    # The local archive of this run stays, as the expired one; the run is recorded failed.
    names = sorted(p.name for p in folder.iterdir())
    assert names[0] == old[0] and len(names) == 3
    row = await db.fetchrow("SELECT outcome, result FROM job_runs WHERE job = 'backup'")
    assert (row["outcome"], row["result"]) == ("failed", message)
    assert await db.fetchval("SELECT count(*) FROM backups") == 0


async def test_a_store_that_stopped_answering_fails_the_job_and_deletes_nothing(
    job_context, s3_store
):
    with s3.running() as endpoint:
        gone = s3.Store(endpoint, s3_store.bucket, s3_store.prefix)
    # The server is stopped now: nothing listens at its address.
    context = job_context(BACKUP_S3_URL=gone.url)
    old = await _old_archives(context.settings.backup_dir, s3_store)

    with pytest.raises(JobFailed, match=r"^backup failed: s3://.*Could not connect to the end"):
        await backup(context)

    assert old[0] in {p.name for p in context.settings.backup_dir.iterdir()}
    assert await s3_store.keys() == [f"nightly/db/{old[0]}"]


def test_a_bucket_url_is_checked_at_start():
    from app.core.config import ConfigError
    from tests.conftest import make_settings

    for url, problem in [
        ("https://bucket/prefix", "must be s3://BUCKET/PREFIX"),
        ("s3:///prefix", "must be s3://BUCKET/PREFIX"),
        ("s3://bucket/p?endpoint=http://store.example", "must be an https:// URL"),
        ("s3://bucket/p?zone=1", "unknown parameter 'zone'"),
    ]:
        with pytest.raises(ConfigError, match=problem):
            make_settings(BACKUP_S3_URL=url)
    with pytest.raises(ConfigError, match="BACKUP_DIR is empty .* backups would go nowhere"):
        make_settings(BACKUP_DIR="")
    settings = make_settings(BACKUP_S3_URL="s3://k:s%2F@bucket/a/b/?region=eu-west-1")
    location = settings.backup_s3
    assert (location.bucket, location.prefix, location.region) == ("bucket", "a/b/", "eu-west-1")
    assert (location.access_key, location.secret_key) == ("k", "s/")
    assert str(location) == "s3://bucket/a/b/"
