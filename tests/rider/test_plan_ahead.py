"""Before a web process serves, each of its warm connections runs the statements of the rider
pages riders open most, until PostgreSQL keeps their plans (app.web.plan_ahead with
app.rider.store.plan_ahead): the first burst after a start finds them planned. The runs are for
nobody and write nothing; behind a transaction pooler, where no statement stays prepared,
nothing runs."""

from urllib.parse import urlsplit

import asyncpg
import pytest
import structlog

from app.core.database import TURNS
from app.core.package import Package
from app.rider import store
from app.web import RUNS_TO_SETTLE, create_app, plan_ahead, warm_connections
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


async def _generic_plans(conn) -> set[str]:
    rows = await conn.fetch("SELECT statement FROM pg_prepared_statements WHERE generic_plans > 0")
    return {row["statement"] for row in rows}


async def test_a_web_process_serves_with_the_busiest_rider_statements_planned(
    aiohttp_client, make_app
):
    app = make_app()
    plan_ahead(app)
    await aiohttp_client(app)
    async with warm_connections(app) as warm:
        for conn in warm:
            assert set(BUSIEST) <= await _generic_plans(conn)


@pytest.fixture
def app_running(make_app, monkeypatch):
    """The app in pool mode `mode`, planning ahead with `run` as its one package's runs."""

    def make(run, mode="session"):
        app = make_app(mode)
        monkeypatch.setattr("app.web.PACKAGES", [Package(routes=[], plan_ahead=run)])
        plan_ahead(app)
        return app

    return make


async def test_without_planning_ahead_a_fresh_process_has_planned_nothing(aiohttp_client, make_app):
    app = make_app()
    await aiohttp_client(app)
    async with warm_connections(app) as warm:
        for conn in warm:
            assert not set(BUSIEST) & await _generic_plans(conn)


@pytest.mark.parametrize(
    ("mode", "runs"), [("session", TURNS * RUNS_TO_SETTLE), ("transaction", 0)]
)
async def test_each_warm_connection_runs_them_until_settled_unless_behind_a_pooler(
    aiohttp_client, app_running, mode, runs
):
    connections = []

    async def run(conn):
        connections.append(conn)

    await aiohttp_client(app_running(run, mode))
    assert len(connections) == runs
    assert len(set(connections)) == (TURNS if runs else 0)


async def test_a_database_gone_meanwhile_costs_only_the_head_start(aiohttp_client, app_running):
    async def run(conn):
        raise asyncpg.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"
        )

    with structlog.testing.capture_logs() as logs:
        client = await aiohttp_client(app_running(run))
    assert (await client.get("/healthz")).status == 200
    (warning,) = [line for line in logs if line["event"] == "statements not planned ahead"]
    assert warning["log_level"] == "warning"
    assert warning["error_class"] == "ConnectionDoesNotExistError"


async def test_a_statement_that_fails_stops_the_start(aiohttp_client, app_running):
    async def run(conn):
        await conn.fetchrow("SELECT * FROM no_such_function()")

    with pytest.raises(asyncpg.UndefinedFunctionError):
        await aiohttp_client(app_running(run))


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
