"""DATABASE_REPLICA_URL (docs/scale.md#read-replica): the completions feed, the checks stream and
the CSV exports read from a real streaming replica; other reads stay on the primary; a stopped
replica costs those reads at most a second (they fall back to the primary), logged once a minute."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from urllib.parse import urlsplit

import orjson
import structlog

from app.core import database
from tests.checks.data import AUTH as CHECKS_AUTH
from tests.checks.data import check, load, question
from tests.training.conftest import AUTH as TRAINING_AUTH
from tests.training.helpers import add_course, add_result, add_rider
from tests.web import sign_in

FEED = "/api/v1/completions"


async def _feed(client) -> list[str]:
    response = await client.get(FEED, headers=TRAINING_AUTH)
    assert response.status == 200
    return [record["proofCode"] for record in (await response.json())["data"]]


async def _checks(client, query: str = "") -> list[int]:
    response = await client.get(f"/api/v2/checks{query}", headers=CHECKS_AUTH)
    assert response.status == 200
    return [c["ID"] for c in orjson.loads(await response.read())]


async def _exported_riders(client) -> list[str]:
    response = await client.get("/admin/exports/riders.csv")
    assert response.status == 200
    return [line.split(",")[0] for line in (await response.text()).splitlines()[1:]]


async def _caught_up(replica_url: str, db) -> None:
    """Wait until the replica has replayed everything the primary has written so far."""
    target = await db.fetchval("SELECT pg_current_wal_lsn()")
    async with database.connect(replica_url) as replica:
        for _ in range(100):
            if await replica.fetchval("SELECT pg_last_wal_replay_lsn() >= $1", target):
                return
            await asyncio.sleep(0.05)
    raise AssertionError("the replica did not catch up")


async def _eventually(read, expected, seconds: float = 10.0) -> None:
    """The replica's answer once it shows what the primary wrote (its lag is not zero)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while (got := await read()) != expected:
        assert asyncio.get_running_loop().time() < deadline, got
        await asyncio.sleep(0.1)


async def test_the_lagging_reads_come_from_the_replica_and_fall_back_to_the_primary(
    make_client, make_standby, make_admin, database_url, db
):
    course = await add_course(db, "Safe riding")
    await add_rider(db, "R-1")
    await add_result(db, "R-1", course, datetime(2026, 3, 1, tzinfo=UTC), "KPQRSTV2")
    await load(db, questions=[question(1)], checks=[check(1)])
    admin = await make_admin()
    with make_standby() as standby:
        replica_url = standby.url(urlsplit(database_url).path.lstrip("/"))
        client = await make_client(DATABASE_REPLICA_URL=replica_url)
        assert (await sign_in(client, admin)).status == 303
        assert await _feed(client) == ["KPQRSTV2"]

        # The replica stops replaying: what the primary writes now is not on it.
        async with database.connect(replica_url) as replica:
            assert await replica.fetchval("SELECT pg_is_in_recovery()")
            await replica.execute("SELECT pg_wal_replay_pause()")
        await add_rider(db, "R-2")
        await add_result(db, "R-2", course, datetime(2026, 3, 2, tzinfo=UTC), "KPQRSTV3")
        await load(db, checks=[check(2)])
        assert await _feed(client) == ["KPQRSTV2"]
        assert await _checks(client) == [1]
        assert await _checks(client, f"?rider_id={check(2)['rider_id']}") == []
        assert await _exported_riders(client) == ["R-1"]
        # Every other read stays on the primary: the rider list page shows the new rider.
        response = await client.get("/admin/riders")
        assert "R-2" in await response.text()

        async with database.connect(replica_url) as replica:
            await replica.execute("SELECT pg_wal_replay_resume()")
        await _caught_up(replica_url, db)
        await _eventually(lambda: _feed(client), ["KPQRSTV2", "KPQRSTV3"])

        # The replica stops: the same reads come from the primary (how fast: `python -m bench
        # bounds`).
        await add_result(
            db, "R-1", await add_course(db), datetime(2026, 3, 3, tzinfo=UTC), "KPQRSTV4"
        )
        standby.stop()
        with structlog.testing.capture_logs() as logs:
            for _ in range(3):
                assert await _feed(client) == ["KPQRSTV2", "KPQRSTV3", "KPQRSTV4"]
            assert await _checks(client) == [1, 2]
            assert await _checks(client, f"?rider_id={check(2)['rider_id']}") == [2]
            assert await _exported_riders(client) == ["R-1", "R-2"]
        warnings = [
            e for e in logs if e["event"] == "replica unavailable, reading from the primary"
        ]
        assert len(warnings) == 1
        assert warnings[0]["log_level"] == "warning"
        assert warnings[0]["replica"].endswith(urlsplit(database_url).path)
