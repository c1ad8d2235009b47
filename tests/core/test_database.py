"""The pool and planned_per_call: a freed connection goes to the request that arrived first,
a transaction per call that commits, rolls back on failure, plans each statement for its
values, and a connection that comes back to the pool clean.

In the suite's pool mode; run directly too (`direct`), where the pool keeps a statement cache
and a connection is one server session throughout."""

import asyncio
import contextlib
import time

import asyncpg
import pytest

from app.core import database, gates, turns
from app.core.keys import POOL
from app.web import long_hold_gates
from tests.conftest import POOL_MODE

pytestmark = pytest.mark.direct


@pytest.fixture
async def pool(database_url, db):
    await db.execute("CREATE TABLE notes (id int PRIMARY KEY)")
    pool = await database.create_pool(database_url, pool_mode=POOL_MODE, min_size=1, max_size=1)
    yield pool
    await pool.close()


async def test_a_planned_call_commits_and_plans_for_the_values(pool, db):
    async with database.planned_per_call(pool) as conn:
        assert conn.is_in_transaction()
        assert await conn.fetchval("SHOW plan_cache_mode") == "force_custom_plan"
        await conn.execute("INSERT INTO notes VALUES (1)")
    assert await db.fetchval("SELECT count(*) FROM notes") == 1
    async with pool.acquire() as conn:  # the same (only) connection: the setting was local
        assert await conn.fetchval("SHOW plan_cache_mode") == "auto"


async def test_a_failing_call_writes_nothing_and_leaves_the_connection_usable(pool, db):
    with pytest.raises(asyncpg.UniqueViolationError):
        async with database.planned_per_call(pool) as conn:
            await conn.execute("INSERT INTO notes VALUES (2)")
            await conn.execute("INSERT INTO notes VALUES (2)")
    assert await db.fetchval("SELECT count(*) FROM notes") == 0
    assert await pool.fetchval("SELECT 1") == 1


async def test_read_only_and_repeatable_read(pool):
    async with database.planned_per_call(pool, readonly=True, isolation="repeatable_read") as conn:
        assert await conn.fetchval("SHOW transaction_read_only") == "on"
        assert await conn.fetchval("SHOW transaction_isolation") == "repeatable read"
        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await conn.execute("INSERT INTO notes VALUES (3)")


async def test_a_transaction_left_open_is_rolled_back_on_release(pool, db):
    async with pool.acquire() as conn:
        await conn.execute("BEGIN")
        await conn.execute("INSERT INTO notes VALUES (4)")
    async with pool.acquire() as conn:
        assert not conn.is_in_transaction()
    assert await db.fetchval("SELECT count(*) FROM notes") == 0


async def _when_served(pool, arrival: float | None, served: list) -> None:
    turns.ARRIVAL.set(arrival)  # the request's own context: this task's
    async with pool.acquire(timeout=5) as conn:
        served.append(arrival)
        await conn.fetchval("SELECT 1")


async def test_a_freed_connection_goes_to_the_request_that_arrived_first(pool):
    served: list[float] = []
    async with pool.acquire() as held:
        waiting = []
        for arrival in (30.0, 10.0, 20.0):  # asked in this order; arrived 10, 20, 30
            waiting.append(asyncio.create_task(_when_served(pool, arrival, served)))
            await asyncio.sleep(0.01)
        await held.fetchval("SELECT 1")
    await asyncio.gather(*waiting)
    assert served == [10.0, 20.0, 30.0]


async def test_work_outside_a_request_waits_behind_the_requests_already_waiting(pool):
    served: list = []
    async with pool.acquire():
        request = asyncio.create_task(_when_served(pool, time.perf_counter(), served))
        await asyncio.sleep(0.01)
        job = asyncio.create_task(_when_served(pool, None, served))  # no arrival: asks now
        await asyncio.sleep(0.01)
    await asyncio.gather(request, job)
    assert served[1] is None  # the request was served first


async def test_an_acquire_that_gives_up_leaves_the_pool_its_size(pool):
    async with pool.acquire():
        for _ in range(3):
            with pytest.raises(TimeoutError):
                await pool.acquire(timeout=0.05)
    async with pool.acquire(timeout=1):
        with pytest.raises(TimeoutError):  # still one connection: none was made up
            await pool.acquire(timeout=0.05)
    assert await pool.fetchval("SELECT 3") == 3


async def test_requests_use_the_turns_and_a_gates_holder_a_connection_beside_them(database_url, db):
    pool = await database.create_pool(
        database_url, pool_mode=POOL_MODE, min_size=1, max_size=2, turns=1
    )
    stream = gates.Gate(1, 0.1, RuntimeError)
    try:
        async with pool.acquire():
            with pytest.raises(TimeoutError):  # one turn, taken: the second connection is not one
                await pool.acquire(timeout=0.1)
            async with stream.slot(), pool.acquire(timeout=1) as held:
                assert await held.fetchval("SELECT 2") == 2
        async with pool.acquire(timeout=1):  # the turn came back, and only it
            with pytest.raises(TimeoutError):
                await pool.acquire(timeout=0.1)
    finally:
        await pool.close()


async def test_parallel_requests_hold_no_more_connections_than_the_turns(database_url, db):
    # The turns are a process's own (its pool's): two instances share no pool, nothing to count.
    pool = await database.create_pool(
        database_url, pool_mode=POOL_MODE, min_size=1, max_size=4, turns=2
    )
    holding, most = 0, 0

    async def request() -> None:
        nonlocal holding, most
        async with pool.acquire(timeout=5) as conn:
            holding += 1
            most = max(most, holding)
            await conn.fetchval("SELECT pg_sleep(0.01)")
            holding -= 1

    try:
        await asyncio.gather(*(request() for _ in range(30)))
    finally:
        await pool.close()
    assert most == 2


async def test_requests_get_connections_while_every_gate_is_full(client):
    # Every stream, export and bulk load a web process admits holds its connections (a rider
    # CSV import two); the requests' turns are still free: readiness answers, four at once.
    pool, release = client.app[POOL], asyncio.Event()
    process_gates = long_hold_gates()
    held = 0

    async def holder(gate: gates.Gate) -> None:
        nonlocal held
        async with gate.slot(), contextlib.AsyncExitStack() as connections:
            for _ in range(gate.connections):
                await connections.enter_async_context(pool.acquire(timeout=1))
                held += 1
            await release.wait()

    holders = [asyncio.create_task(holder(g)) for g in process_gates for _ in range(g.size)]
    try:
        while held < sum(gate.connections_held for gate in process_gates):
            for task in holders:
                if task.done():
                    task.result()  # a holder that got no connection raises here
            await asyncio.sleep(0.01)
        answers = await asyncio.gather(*(client.get("/readyz") for _ in range(database.TURNS)))
        assert [answer.status for answer in answers] == [200] * database.TURNS
    finally:
        release.set()
        await asyncio.gather(*holders, return_exceptions=True)
