"""AI settings (docs/ai.md#provider) and job claiming across processes."""

from __future__ import annotations

import asyncio

import pytest

from app.ai import store
from app.core import database
from app.core.config import ConfigError
from tests.conftest import POOL_MODE, make_settings


def test_ai_settings():
    settings = make_settings()
    assert settings.ai_base_url == "https://api.openai.com/v1"
    assert not settings.ai_configured
    assert not make_settings(AI_API_KEY="k").ai_configured
    configured = make_settings(
        AI_API_KEY="k", AI_MODEL="m", AI_BASE_URL="http://localhost:11434/v1/"
    )
    assert configured.ai_configured and configured.ai_base_url == "http://localhost:11434/v1"


@pytest.mark.parametrize("url", ["http://ai.example.com/v1", "ftp://localhost/v1", "nonsense"])
def test_a_base_url_that_would_send_the_key_in_clear_is_refused(url):
    with pytest.raises(ConfigError, match="AI_BASE_URL must be an https:// URL"):
        make_settings(AI_BASE_URL=url)


async def test_one_job_is_claimed_by_one_process(database_url):
    async with database.connect(database_url) as conn:
        await conn.execute("INSERT INTO ai_jobs (kind, source_name) VALUES ('generation', 'a.txt')")
    pools = [await database.create_pool(database_url, pool_mode=POOL_MODE) for _ in range(2)]
    try:
        claims = await asyncio.gather(
            *(store.claim_job(pool, f"web-{n}") for n, pool in enumerate(pools) for _ in range(3))
        )
    finally:
        for pool in pools:
            await pool.close()
    assert len([claim for claim in claims if claim is not None]) == 1
