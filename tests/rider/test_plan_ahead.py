"""Before a web process serves, each of its warm connections runs the statements of the rider
pages riders open most, until PostgreSQL keeps their plans (app.web.plan_ahead with
app.rider.store.plan_ahead): the first burst after a start finds them planned. The runs are for
nobody and write nothing; behind a transaction pooler, where no statement stays prepared,
nothing runs."""

import contextlib
from urllib.parse import urlsplit

import pytest

from app.core.database import TURNS
from app.core.keys import POOL
from app.core.package import Package
from app.rider import store
from app.web import RUNS_TO_SETTLE, create_app, plan_ahead
from tests.conftest import make_settings, with_database
from tests.rider.rows import QUIZ, RIGHT, add_rider, course_for, form, signed_in
from tests.webhooks.rows import add_endpoint

# What a rider's quiz page, quiz answer and pass run (sql/rider/).
BUSIEST = (
    store.SQL.rider_session,
    store.SQL.my_training,
    store.SQL.view_course,
    store.SQL.answer_quiz,
    store.SQL.pass_course,
)


@pytest.fixture
def make_app(pg_server_url, database_url):
    """The app in pool mode `mode` on the test's database on the server itself (the session
    mode needs it: never PgBouncer's transaction pooling, which the suite may run through)."""
    direct = with_database(pg_server_url, urlsplit(database_url).path.lstrip("/"))
    return lambda mode="session": create_app(make_settings(DATABASE_POOL_MODE=mode), direct)


@contextlib.asynccontextmanager
async def _warm_connections(app):
    async with contextlib.AsyncExitStack() as held:
        yield [await held.enter_async_context(app[POOL].acquire()) for _ in range(TURNS)]


async def _generic_plans(conn) -> set[str]:
    rows = await conn.fetch("SELECT statement FROM pg_prepared_statements WHERE generic_plans > 0")
    return {row["statement"] for row in rows}


async def test_a_web_process_serves_with_the_busiest_rider_statements_planned(
    aiohttp_client, make_app
):
    app = make_app()
    plan_ahead(app)
    await aiohttp_client(app)
    async with _warm_connections(app) as warm:
        for conn in warm:
            assert set(BUSIEST) <= await _generic_plans(conn)


async def test_without_planning_ahead_a_fresh_process_has_planned_nothing(aiohttp_client, make_app):
    app = make_app()
    await aiohttp_client(app)
    async with _warm_connections(app) as warm:
        for conn in warm:
            assert not set(BUSIEST) & await _generic_plans(conn)


@pytest.mark.parametrize(
    ("mode", "runs"), [("session", TURNS * RUNS_TO_SETTLE), ("transaction", 0)]
)
async def test_each_warm_connection_runs_them_until_settled_unless_behind_a_pooler(
    aiohttp_client, make_app, monkeypatch, mode, runs
):
    app = make_app(mode)
    connections = []

    async def run(conn):
        connections.append(conn)

    monkeypatch.setattr("app.web.PACKAGES", [Package(routes=[], plan_ahead=run)])
    plan_ahead(app)
    await aiohttp_client(app)
    assert len(connections) == runs
    assert len(set(connections)) == (TURNS if runs else 0)


async def test_the_runs_for_nobody_write_nothing(client, db):
    # What they could touch: a rider midway through a course with a quiz, an endpoint taking
    # completion events (a pass would write one).
    await add_rider(client)
    course_id = await course_for(db)
    rider = await signed_in(client)
    await rider.get(f"/training/courses/{course_id}/quiz")
    await add_endpoint(db)
    async with db.transaction():
        for _ in range(RUNS_TO_SETTLE):
            await store.plan_ahead(db)
        assert await db.fetchval("SELECT pg_current_xact_id_if_assigned()") is None
    # The rider's own answers count and pass as before.
    page = await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert page.status == 200 and "proof-code" in await page.text()
    assert await db.fetchval("SELECT count(*) FROM quiz_answers") == len(QUIZ)
