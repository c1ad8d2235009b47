"""Fixtures of the jobs tests: a pool on the test's database and the context a job runs with."""

import pytest

from app.core import database
from jobs import JobContext
from tests.conftest import make_settings
from tests.messaging.fake_provider import fake_provider  # noqa: F401 - a fixture


@pytest.fixture
async def pool(database_url):
    pool = await database.create_pool(database_url, min_size=1, max_size=4)
    yield pool
    await pool.close()


@pytest.fixture
def job_context(pool, database_url, tmp_path):
    """`job_context(**env)`: the context of a run with these variables (BACKUP_DIR in tmp).

    With DATABASE_URL among them, the job is pointed at that database, as `serve` would.
    """

    def build(**env):
        settings = make_settings(BACKUP_DIR=str(tmp_path / "backups"), **env)
        url = settings.database_url or database_url
        return JobContext(settings=settings, pool=pool, database_url=url)

    return build
