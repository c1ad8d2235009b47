"""Fixtures shared by the messaging and jobs tests (imported by both conftests)."""

import pytest

from app.core import database
from tests.conftest import POOL_MODE
from tests.messaging.fake_provider import fake_provider

__all__ = ["fake_provider", "pool"]


@pytest.fixture
async def pool(database_url):
    """An asyncpg pool on the test's database, as the app or a job run holds one."""
    pool = await database.create_pool(database_url, pool_mode=POOL_MODE, min_size=1, max_size=4)
    yield pool
    await pool.close()
