"""Family C at scale: 300,000 riders, 20 paths (5 automatic), 60 courses and 2,000,000
completion records, built set-based in SQL; then each target measured through the
real server over HTTP.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import aiohttp
import psycopg

from app.core import database
from app.training import cursor, store
from bench.harness import BENCH_KEYS, Server, fresh_database, report, run_sql

RIDERS = 300_000
RESULTS = 2_000_000
WRITE_RUNS = 7
KEY = BENCH_KEYS["INTEGRATION_API_KEY"]
HEADERS = {"x-api-key": KEY}
ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"

MARKETS = "ARRAY['AE','KW','QA','BH','OM','JO','EG','IQ']"
VEHICLES = "ARRAY['motorbike','car','bicycle','scooter','walker']"
NATIONALITIES = "ARRAY['Pakistani','Indian','Egyptian','Jordanian','Bangladeshi','Nepali']"

# Course n (1..60) and path n (1..20) get fixed UUIDs, so the statements can refer to them.
COURSE = "('00000000-0000-4000-8000-' || lpad(to_hex({n}), 12, '0'))::uuid"
PATH = "('00000000-0000-4000-9000-' || lpad(to_hex({n}), 12, '0'))::uuid"
# A unique proof code for record g: an affine bijection of 0 .. 30^8-1, written in base 30.
PROOF = " || ".join(
    f"substr('{ALPHABET}', 1 + ((g * 48271 + 12345) % 656100000000 / {30**i} % 30)::int, 1)"
    for i in range(8)
)

DATA_SET = [
    f"""INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type, nationality,
                            language, status)
        SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, ({MARKETS})[1 + i % 8],
               '+9715' || lpad(i::text, 8, '0'), 'City ' || i % 40, ({VEHICLES})[1 + i % 5],
               ({NATIONALITIES})[1 + i % 6], (ARRAY['en','ar','ur','ku'])[1 + i % 4],
               CASE WHEN i % 50 = 0 THEN 'inactive' WHEN i % 20 = 0 THEN 'onboarding'
                    ELSE 'active' END
        FROM generate_series(1, {RIDERS}) AS i""",
    f"""INSERT INTO courses (course_id, title, has_quiz, pass_mark)
        SELECT {COURSE.format(n="n")}, 'Course ' || n, n % 3 <> 0, 70
        FROM generate_series(1, 60) AS n""",
    # Paths 1-3 auto-assign matching riders, 4-5 onboarding riders, 6-10 follow flags,
    # 11-20 are manual. Each has four courses.
    f"""INSERT INTO paths (path_id, name, active, days_to_complete, rule, flag_types, markets,
                           vehicle_types, nationalities)
        SELECT {PATH.format(n="n")}, 'Path ' || n, true, 7 + n,
               CASE WHEN n <= 3 THEN 'all_matching' WHEN n <= 5 THEN 'onboarding'
                    WHEN n <= 10 THEN 'flag' ELSE 'manual' END,
               CASE WHEN n BETWEEN 6 AND 10 THEN ARRAY['late_delivery'] ELSE '{{}}' END,
               CASE n WHEN 1 THEN ARRAY['AE','QA'] WHEN 4 THEN ARRAY['EG'] ELSE '{{}}' END,
               CASE n WHEN 2 THEN ARRAY['motorbike','scooter'] ELSE '{{}}' END,
               CASE n WHEN 3 THEN ARRAY['Indian','Nepali'] ELSE '{{}}' END
        FROM generate_series(1, 20) AS n""",
    f"""INSERT INTO path_courses (path_id, course_id, position)
        SELECT {PATH.format(n="n")}, {COURSE.format(n="1 + (n * 3 + k) % 60")}, k
        FROM generate_series(1, 20) AS n, generate_series(1, 4) AS k""",
]
# Record g: rider g mod 300,000, its (g div 300,000)-th of seven distinct courses,
# completed at a millisecond spread over a year (with many shared seconds).
RESULTS_SET = f"""INSERT INTO course_results (rider_id, course_id, language, started_at,
                                    completed_at, score, attempts, time_spent_seconds,
                                    proof_code)
        SELECT 'R' || lpad((1 + g % {RIDERS})::text, 7, '0'),
               {COURSE.format(n=f"1 + ((g / {RIDERS}) * 9 + g % {RIDERS} % 5) % 60")},
               (ARRAY['en','ar','ur','ku'])[1 + g % 4],
               t - interval '25 minutes', t, 60 + g % 41, 1 + g % 3, 300 + g % 2000, {PROOF}
        FROM generate_series(0::bigint, {RESULTS - 1}) AS g,
             LATERAL (SELECT timestamptz '2025-06-01' + (g * 7919 % 31536000) * interval '1 s'
                             + (g % 7) * interval '1 ms' AS t) AS moment"""


def _insert_then_index(url: str, table: str, statement: str) -> None:
    """Run a bulk insert with the table's indexes dropped, then rebuild them from their own
    catalog definitions: three times faster than maintaining four indexes row by row. The
    foreign keys of other tables that reference it (their tables are empty here) go and come
    back with its key."""
    with psycopg.connect(url, autocommit=True) as conn:
        references = conn.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE confrelid = %s::regclass AND contype = 'f'",
            (table,),
        ).fetchall()
        for referencing, name, _ in references:
            conn.execute(f"ALTER TABLE {referencing} DROP CONSTRAINT {name}")
        constraints = conn.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = %s::regclass AND contype IN ('p', 'u')",
            (table,),
        ).fetchall()
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname"
            " NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass)",
            (table, table),
        ).fetchall()
        for name, _ in constraints:
            conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        for name, _ in indexes:
            conn.execute(f"DROP INDEX {name}")
        conn.execute("SET session_replication_role = replica")  # consistent by construction
        conn.execute(statement)
        conn.execute("SET maintenance_work_mem = '256MB'")
        for name, definition in constraints:
            conn.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
        for _, definition in indexes:
            conn.execute(definition)
        for referencing, name, definition in references:
            conn.execute(f"ALTER TABLE {referencing} ADD CONSTRAINT {name} {definition}")


async def _rules_for_everyone(url: str) -> int:
    async with database.connect(url) as conn:
        return await store.run_rules(conn, None)


def build(url: str) -> None:
    started = time.perf_counter()
    run_sql(url, *DATA_SET)
    _insert_then_index(url, "course_results", RESULTS_SET)
    run_sql(url)
    built = time.perf_counter() - started
    started = time.perf_counter()
    created = asyncio.run(_rules_for_everyone(url))
    run_sql(url)  # statistics of the new assignments
    print(
        f"data set: {RIDERS:,} riders, {RESULTS:,} completions in {built:.1f} s; "
        f"automatic rules for everyone: {created:,} assignments in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )


def _last_page_cursor(url: str, size: int) -> str:
    """The cursor whose page is the feed's last full page."""
    with psycopg.connect(url) as conn:
        completed_at, rider_id, course_id = conn.execute(
            "SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
            " rider_id, course_id FROM course_results WHERE completed_at IS NOT NULL"
            " ORDER BY completed_at DESC, rider_id DESC, course_id DESC OFFSET %s LIMIT 1",
            (size,),
        ).fetchone()
    return cursor.encode(completed_at, rider_id, str(course_id), KEY)


async def _timed(session: aiohttp.ClientSession, method: str, url: str, **kwargs) -> float:
    started = time.perf_counter()
    async with session.request(method, url, headers=HEADERS, **kwargs) as response:
        body = await response.read()
        elapsed = time.perf_counter() - started
        if response.status != 200:
            raise RuntimeError(f"{method} {url}: {response.status} {body[:200]!r}")
    return elapsed


def _riders(first: int, count: int, status: str, pin: bool = True) -> dict:
    """Riders `first`… with a PIN (salted anew on each save, so always written) or without."""
    return {
        "riders": [
            {
                "riderId": f"R{i:07d}",
                "name": f"Rider {i} ({status})",
                "market": "Qatar",
                "vehicleType": "Motorbike",
                "nationality": "Indian",
                "status": status,
                "phone": "+974 5512 3456",
                **({"pin": "1234"} if pin else {}),
            }
            for i in range(first, first + count)
        ]
    }


async def measure(server: Server, url: str) -> bool:
    """Writes: the slowest of 7 calls (PostgreSQL may switch a statement to a generic plan
    from its sixth call on one connection, so the best call alone could hide a slow plan).
    Pages: the median of 10, first and last alternating so both see the same machine load."""
    base = server.url
    ok = True
    async with aiohttp.ClientSession() as session:
        times = [
            await _timed(
                session,
                "POST",
                f"{base}/api/v1/riders",
                json=_riders(RIDERS + 1 + run * 5000, 5000, "onboarding"),
            )
            for run in range(WRITE_RUNS)
        ]
        ok &= report(
            "POST /riders, 5,000 new riders (rules included)", max(times) * 1000, 1000, "ms"
        )
        times = [
            await _timed(
                session,
                "POST",
                f"{base}/api/v1/riders",
                json=_riders(1 + run * 5000, 5000, "onboarding"),
            )
            for run in range(WRITE_RUNS)
        ]
        ok &= report(
            "POST /riders, 5,000 updated riders (rules included)", max(times) * 1000, 1000, "ms"
        )
        # The same riders again without their PIN: all as stored, the daily sync's usual call.
        times = [
            await _timed(
                session,
                "POST",
                f"{base}/api/v1/riders",
                json=_riders(1 + run * 5000, 5000, "onboarding", pin=False),
            )
            for run in range(WRITE_RUNS)
        ]
        ok &= report("POST /riders, 5,000 riders re-sent as stored", max(times) * 1000, 1000, "ms")
        ids = [f"R{i:07d}" for i in range(1, 250_001)]
        times = []
        for path in range(11, 11 + WRITE_RUNS):  # a fresh manual path each run
            path_id = f"00000000-0000-4000-9000-{path:012x}"
            times.append(
                await _timed(
                    session,
                    "POST",
                    f"{base}/api/v1/assignments",
                    json={"pathId": path_id, "riderIds": ids},
                )
            )
        ok &= report("POST /assignments, 250,000 riderIds", max(times) * 1000, 3000, "ms")
        last_cursor = _last_page_cursor(url, 5000)
        firsts, lasts = [], []
        for _ in range(10):
            firsts.append(
                await _timed(session, "GET", f"{base}/api/v1/completions", params={"limit": "5000"})
            )
            lasts.append(
                await _timed(
                    session,
                    "GET",
                    f"{base}/api/v1/completions",
                    params={"limit": "5000", "cursor": last_cursor},
                )
            )
        first, last = statistics.median(firsts), statistics.median(lasts)
        ok &= report("GET /completions, first page of 5,000", first * 1000, 100, "ms")
        ok &= report("GET /completions, last page of 5,000", last * 1000, 100, "ms")
        ok &= report("GET /completions, last page / first page", last / first, 1.2, "x")
        ok &= report("server peak RSS (whole run)", server.peak_rss_mb(), 300, "MB")
    return ok


def main() -> bool:
    url = fresh_database("bench_training")
    build(url)
    with Server(url) as server:
        return asyncio.run(measure(server, url))
