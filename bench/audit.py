"""What the audit log costs a change: the panel's PIN reset transaction (set the PIN hash, end
the rider's sessions) timed with and without its audit event, on a table that already holds a
year of events (its three indexes to maintain), through the service's own pool.

The kinds alternate, one of each a round (and a `SELECT 1` in the event's place, to tell the
round trip from the insert), so that whatever else the machine does meanwhile falls on all
alike; the figure is the difference of their medians. The database's own work for an event is
timed apart, many inserts in one statement. It runs on uvloop, the web processes' loop.
"""

from __future__ import annotations

import statistics
import time

import uvloop

from app.admin.rider_page import set_rider_pin
from app.core import audit, database, sessions
from bench.harness import fresh_database, report, run_sql

RIDERS = 10_000
# A busy panel's year: about 2,700 changes a day.
EVENTS = 1_000_000
ROUNDS = 3_000
SERVER_EVENTS = 20_000
SERVER_INSERTS = f"""DO $$ BEGIN FOR i IN 1..{SERVER_EVENTS} LOOP
    INSERT INTO audit_events (actor, address, action, target, summary)
    VALUES ('bench@example.com', '203.0.113.7', 'rider.pin_reset', 'R' || i, 'new PIN shown once');
END LOOP; END $$"""
ACTOR = audit.Actor("bench@example.com", "203.0.113.7")

DATA_SET = (
    f"""INSERT INTO riders (rider_id, name, market, status)
        SELECT 'R' || i, 'Rider ' || i, 'AE', 'active' FROM generate_series(1, {RIDERS}) AS i""",
    f"""INSERT INTO audit_events (at, actor, address, action, target, summary)
        SELECT now() - make_interval(secs => i * 31.5), 'admin' || i % 20 || '@example.com',
               '203.0.113.' || i % 250, (ARRAY['rider.pin_reset', 'riders.exported',
               'path.updated', 'assignments.created'])[1 + i % 4], 'R' || i % {RIDERS},
               'market=AE, status=active; ' || i % 500 || ' rows'
        FROM generate_series(1, {EVENTS}) AS i""",
)


# The three kinds timed: the PIN reset alone, with a `SELECT 1` where the event goes (the
# round trip alone), and with its event.
KINDS = ("without the event", "with a SELECT 1", "with the event")


async def _reset_pin(pool, rider_id: str, kind: str) -> float:
    """One PIN reset as the handler makes it; its time in ms."""
    started = time.perf_counter()
    async with pool.acquire() as conn, conn.transaction():
        await set_rider_pin(conn, rider_id, "$argon2id$bench")
        await sessions.revoke_rider(conn, rider_id)
        if kind == KINDS[1]:
            await conn.fetchval("SELECT 1")
        elif kind == KINDS[2]:
            await audit.record(conn, ACTOR, "rider.pin_reset", rider_id, "new PIN shown once")
    return (time.perf_counter() - started) * 1000


async def measure(url: str) -> bool:
    pool = await database.create_pool(url)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    try:
        for n in range(300):  # warm the pool, the plans and the pages
            await _reset_pin(pool, f"R{n + 1}", KINDS[n % 3])
        for n in range(ROUNDS):
            rider_id = f"R{n % RIDERS + 1}"
            for i in range(3):  # each kind first, second and third in turn
                kind = KINDS[(n + i) % 3]
                times[kind].append(await _reset_pin(pool, rider_id, kind))
        # The database's own work for an event, without the round trip: many inserts in one
        # statement, each as record() makes it (its three indexes maintained).
        started = time.perf_counter()
        await pool.execute(SERVER_INSERTS)
        server_us = (time.perf_counter() - started) * 1e6 / SERVER_EVENTS
    finally:
        await pool.close()
    print(f"one event's INSERT inside the database: {server_us:.1f} µs", flush=True)
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    for label, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(
            f"PIN reset transaction {label:<18} median {medians[label]:.3f} ms, "
            f"p90 {p90:.3f} ms ({len(values):,} runs)",
            flush=True,
        )
    # In µs: the report prints one decimal place.
    cost = (medians[KINDS[2]] - medians[KINDS[0]]) * 1000
    round_trip = (medians[KINDS[1]] - medians[KINDS[0]]) * 1000
    print(f"of which one more round trip (a SELECT 1): {round_trip:.1f} µs", flush=True)
    return report("the audit event's cost to a PIN reset (p50 difference)", cost, 100, "µs")


def main() -> bool:
    url = fresh_database("bench_audit")
    started = time.perf_counter()
    run_sql(url, *DATA_SET)
    print(
        f"data set: {RIDERS:,} riders, {EVENTS:,} audit events in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )
    # On uvloop, as the web processes run (app/web_process.py): asyncio's own loop adds about
    # 20 µs to each round trip here (116 against 94 µs for a SELECT 1 in the transaction).
    return uvloop.run(measure(url))
