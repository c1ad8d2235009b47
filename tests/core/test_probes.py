"""GET /healthz and GET /readyz as a platform's router polls them
(docs/operations.md#probes-and-metrics)."""

import pytest
import structlog

from app.core import database, migrations
from app.core.keys import POOL
from tests.webhooks.receiver import until


async def test_healthz_answers_without_the_database(client, database_down):
    async with database_down():
        response = await client.get("/healthz")
    assert response.status == 200
    assert await response.json() == {"status": "ok"}


async def test_readyz_is_ready_with_the_database_up_and_migrated(client):
    response = await client.get("/readyz")
    assert response.status == 200
    assert await response.json() == {"status": "ready"}


# A server that drops its sessions looks otherwise to the service directly than behind a pooler.
@pytest.mark.direct
async def test_readyz_is_unavailable_while_the_database_is_down(client, database_down):
    async with database_down():
        response = await client.get("/readyz")
        body = await response.json()
    assert response.status == 503
    assert body["status"] == "unavailable"
    assert "database" in body["reason"]

    async def ready():
        return (await client.get("/readyz")).status == 200

    # Back without a restart: at once directly, behind PgBouncer once it logs in to the server
    # again (it waits server_login_retry, a second, after a refused login).
    await until(ready, seconds=5)


async def test_readyz_answers_within_a_second_when_no_connection_comes(client):
    # Every pooled connection is busy: the probe waits 1 s for one, not the requests' 5 s.
    pool = client.app[POOL]
    holders = [await pool.acquire() for _ in range(database.TURNS)]  # every turn requests have
    try:
        response = await client.get("/readyz")
        body = await response.json()
    finally:
        for conn in holders:
            await pool.release(conn)
    assert response.status == 503
    assert body == {"status": "unavailable", "reason": "the database did not answer within 1 s"}


async def test_readyz_names_pending_migrations_and_follows_migrate_at_once(client, db):
    last = max(migrations.known_ids())
    await db.execute("DELETE FROM _yoyo_migration WHERE migration_id = $1", last)
    response = await client.get("/readyz")
    assert response.status == 503
    assert await response.json() == {
        "status": "unavailable",
        "reason": "1 migration(s) pending: run `python -m app migrate`",
    }
    await db.execute(
        "INSERT INTO _yoyo_migration (migration_hash, migration_id, applied_at_utc)"
        " VALUES ('restored', $1, now())",
        last,
    )
    assert (await client.get("/readyz")).status == 200


async def test_readyz_on_a_database_no_migration_ran_on(aiohttp_client, empty_database_url):
    from app.web import create_app
    from tests.conftest import make_settings

    client = await aiohttp_client(create_app(make_settings(), empty_database_url))
    response = await client.get("/readyz")
    assert response.status == 503
    pending = len(migrations.known_ids())
    assert (await response.json())["reason"].startswith(f"{pending} migration(s) pending")


async def test_probes_stay_out_of_the_access_log_at_info(client):
    with structlog.testing.capture_logs() as logs:
        assert (await client.get("/healthz")).status == 200
        assert (await client.get("/readyz")).status == 200
        assert (await client.get("/api/v1/nothing")).status == 404
    paths = [line["path"] for line in logs if line["event"] == "request"]
    assert paths == ["/api/v1/nothing"]
