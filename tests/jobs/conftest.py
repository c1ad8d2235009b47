"""Fixtures of the jobs tests: the context a job runs with, and the shared fixtures."""

import pytest

from app.core import database
from jobs import JobContext
from tests.conftest import make_settings
from tests.jobs import s3
from tests.messaging.fixtures import fake_provider, pool  # noqa: F401 - fixtures


@pytest.fixture
def job_context(pool, database_url, session_env, tmp_path):  # noqa: F811 - imported fixture
    """`job_context(**env)`: the context of a run with these variables (BACKUP_DIR in tmp).

    With DATABASE_URL among them, the job is pointed at that database, as `serve` would.
    """

    def build(**env):
        # A DATABASE_URL of the test's own is reached directly, as an operator's direct URL.
        direct = (
            {"DATABASE_DIRECT_URL": env["DATABASE_URL"]} if "DATABASE_URL" in env else session_env
        )
        settings = make_settings(**{"BACKUP_DIR": str(tmp_path / "backups"), **direct, **env})
        url = database.session_url(settings, settings.database_url or database_url)
        return JobContext(settings=settings, pool=pool, database_url=url)

    return build


@pytest.fixture(scope="session")
def s3_endpoint():
    """An S3-compatible server on loopback for the whole run (each test has its own bucket)."""
    with s3.running() as endpoint:
        yield endpoint


@pytest.fixture
async def s3_store(s3_endpoint) -> s3.Store:
    return await s3.new_store(s3_endpoint)
