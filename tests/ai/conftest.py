"""Fixtures of the AI tests: the fake provider, the app connected to it (with the AI job
runner, as `serve` runs it), a signed-in admin, a signed-in rider."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

import pytest
from aiohttp import web

from app.ai import runner
from app.core import database, sessions
from app.web import create_app
from tests.ai.fake_ai import FakeAI
from tests.conftest import make_settings
from tests.web import PageClient, sign_in

STATUS = re.compile(r'data-job-status="(\w+)"')


@pytest.fixture
async def fake_ai(aiohttp_server):
    fake = FakeAI()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", fake.handle)
    server = await aiohttp_server(app)
    fake.url = str(server.make_url("/v1"))
    return fake


@pytest.fixture
def ai_app(database_url, fake_ai):
    """`ai_app(**env)`: the app connected to the fake provider, running AI jobs."""

    def build(**env):
        app = create_app(make_settings(**{**fake_ai.env, **env}), database_url)
        runner.setup(app)
        return app

    return build


@pytest.fixture
def ai_client(aiohttp_client, ai_app):
    async def start(**env) -> PageClient:
        return PageClient(await aiohttp_client(ai_app(**env)))

    return start


@pytest.fixture
async def ai_admin(ai_client, make_admin) -> PageClient:
    """An admin signed in to the app connected to the fake provider."""
    client = await ai_client()
    response = await sign_in(client.client, await make_admin())
    assert response.status == 303
    return client


@pytest.fixture
async def unconfigured_admin(ai_client, make_admin) -> PageClient:
    client = await ai_client(AI_API_KEY=None, AI_MODEL=None)
    response = await sign_in(client.client, await make_admin())
    assert response.status == 303
    return client


@dataclass
class Rider:
    rider_id: str
    session_id: str


@pytest.fixture
def make_rider(database_url):
    """`await make_rider(language="en")`: a rider with a live session (its cookie value)."""

    async def make(rider_id="R-1", language="en", name="Sam Rider") -> Rider:
        async with database.connect(database_url) as conn:
            await conn.execute(
                "INSERT INTO riders (rider_id, name, market, language) VALUES ($1, $2, 'AE', $3)",
                rider_id,
                name,
                language,
            )
            session_id = await sessions.create(
                conn, sessions.RIDER, rider_id=rider_id, language=language
            )
        return Rider(rider_id, session_id)

    return make


def as_rider(client: PageClient, rider: Rider) -> PageClient:
    client.session.cookie_jar.update_cookies({"rider_session": rider.session_id})
    return client


async def job_status(client: PageClient, location: str) -> tuple[str, str]:
    response = await client.get(location)
    assert response.status == 200, location
    page = await response.text()
    return STATUS.search(page).group(1), page


async def wait_for_job(
    client: PageClient, location: str, timeout: float = 30, logs: list | None = None
) -> str:
    """The job page once the job has ended (asserts it does within `timeout` seconds). With
    the `logs` of a capture, a failed job's line is waited for too: the runner writes it just
    after the row says `failed`, which the page may show first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status, page = await job_status(client, location)
        if status != "running":
            break
        assert loop.time() < deadline, "the job did not end"
        await asyncio.sleep(0.05)
    if status == "failed" and logs is not None:
        while not any(line["event"] in runner.FAILED.values() for line in logs):
            assert loop.time() < deadline, "the failed job logged no line"
            await asyncio.sleep(0.01)
    return page
