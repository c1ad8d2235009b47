"""Two real `serve` instances on one database behave as one service (docs/scale.md#many-instances):
a session made on one is valid on the other, throttles count across them, a scheduled job runs (and
its messages go out) once a slot, an AI job is claimed once. With TEST_PGBOUNCER=1 both reach the
database through PgBouncer in transaction mode."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import aiohttp
import pytest

from tests.ai.fake_ai import FakeAI
from tests.ai.test_generation import upload
from tests.conftest import TEST_KEYS
from tests.messaging.fake_provider import fake_provider  # noqa: F401 - a fixture
from tests.messaging.rows import add_path, add_rider, assign
from tests.served import serving
from tests.web import PageClient

SIGN_IN = "/admin/sign-in"


class Instance:
    """A served instance as PageClient's `client`: paths are sent to its base URL, with the
    cookies of `session` (one browser: its cookies go to every instance of the host)."""

    def __init__(self, session: aiohttp.ClientSession, base: str):
        self.session, self.base = session, base

    def get(self, path: str, **kwargs):
        return self.session.get(self.base + path, **kwargs)

    def post(self, path: str, **kwargs):
        return self.session.post(self.base + path, **kwargs)


@pytest.fixture
def two_instances(database_url, tmp_path):
    """`with two_instances(**env) as (a, b)`: two `serve` processes on the test's database."""

    @contextlib.contextmanager
    def start(**env):
        with (
            serving(database_url, tmp_path / "a.log", **env) as a,
            serving(database_url, tmp_path / "b.log", **env) as b,
        ):
            yield a, b

    return start


@pytest.fixture
async def browser():
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


async def test_a_session_made_on_one_instance_is_valid_on_the_other(
    two_instances, make_admin, browser
):
    account = await make_admin()
    with two_instances() as (a, b):
        on_a, on_b = PageClient(Instance(browser, a.base)), PageClient(Instance(browser, b.base))
        response = await on_a.submit(
            SIGN_IN, {"email": account.email, "password": account.password}
        )
        assert response.status == 303
        response = await on_b.get("/admin", allow_redirects=False)
        assert response.status == 200
        assert account.name in await response.text()
        # Signed out on B: the session is gone on A too.
        response = await on_b.submit("/admin/sign-out", {}, form_page="/admin")
        assert response.status == 303
        response = await on_a.get("/admin", allow_redirects=False)
        assert response.status == 303
        assert response.headers["Location"].startswith(SIGN_IN)


async def test_failed_sign_ins_count_across_instances(two_instances, make_admin, browser):
    account = await make_admin()
    wrong = {"email": account.email, "password": "not the password"}
    with two_instances() as (a, b):
        on_a, on_b = PageClient(Instance(browser, a.base)), PageClient(Instance(browser, b.base))
        token = await on_a.csrf(SIGN_IN)
        form = [*wrong.items(), ("csrf_token", token)]
        # Five failures at once, three on A and two on B.
        answers = await asyncio.gather(
            *(
                instance.post(SIGN_IN, data=form, allow_redirects=False)
                for instance in (on_a, on_b, on_a, on_b, on_a)
            )
        )
        assert [answer.status for answer in answers] == [401] * 5
        right = {"email": account.email, "password": account.password}
        for instance in (on_a, on_b):
            response = await instance.submit(SIGN_IN, right)
            assert response.status == 429
            assert "Too many sign-in attempts" in await response.text()


async def test_a_scheduled_reminder_run_happens_once_a_slot_and_sends_each_message_once(
    database_url,
    db,
    fake_provider,  # noqa: F811 - the imported fixture
):
    path = await add_path(db, "Road safety")
    riders = [f"R-{n}" for n in range(1, 6)]
    for n, rider in enumerate(riders, start=1):
        await add_rider(db, rider, phone=f"+97150000000{n}")
        await assign(db, rider, path, due_in_days=n)
    env = {**os.environ, **TEST_KEYS, **fake_provider.env, "DATABASE_URL": database_url}
    # Two instances whose schedules fire for the same minute at the same moment.
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.run_slot",
            "reminders",
            "2026-11-25T09:00:00+00:00",
            env=env,
            stdout=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    # The log lines come first; the last line says what the process did.
    outcomes = [(await process.communicate())[0].decode().splitlines()[-1] for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    assert sorted(outcome.split(":")[0] for outcome in outcomes) == ["ran", "skipped"]
    assert sorted(r["json"]["to"] for r in fake_provider.requests) == [
        f"97150000000{n}" for n in range(1, 6)
    ]
    assert await db.fetchval("SELECT count(*) FROM messages WHERE kind = 'reminder'") == 5
    assert await db.fetchval("SELECT count(*) FROM job_runs WHERE job = 'reminders'") == 1


@pytest.fixture
async def fake_ai(aiohttp_server):
    fake = FakeAI()
    app = aiohttp.web.Application()
    app.router.add_post("/v1/chat/completions", fake.handle)
    server = await aiohttp_server(app, host="127.0.0.1")
    fake.url = str(server.make_url("/v1"))
    return fake


async def test_each_ai_job_is_claimed_by_one_instance(
    two_instances, make_admin, browser, fake_ai, db
):
    account = await make_admin()
    with two_instances(**fake_ai.env) as (a, b):
        on_a, on_b = PageClient(Instance(browser, a.base)), PageClient(Instance(browser, b.base))
        response = await on_a.submit(
            SIGN_IN, {"email": account.email, "password": account.password}
        )
        assert response.status == 303
        # Six jobs started on both instances at once; both instances' runners claim.
        answers = await asyncio.gather(
            *(
                upload(instance, f"notes-{n}.txt", b"Wear a helmet.")
                for n, instance in enumerate((on_a, on_b) * 3)
            )
        )
        assert [answer.status for answer in answers] == [303] * 6
        for _ in range(300):
            running = await db.fetchval("SELECT count(*) FROM ai_jobs WHERE status = 'running'")
            if running == 0:
                break
            await asyncio.sleep(0.1)
    statuses = await db.fetch("SELECT status, count(*) FROM ai_jobs GROUP BY status")
    assert [tuple(row) for row in statuses] == [("succeeded", 6)]
    assert len(fake_ai.requests) == 6
    assert await db.fetchval("SELECT count(*) FROM courses") == 6
