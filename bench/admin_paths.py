"""Admin panel, learning paths at scale: 300,000 riders and 2,000,000 completion records
(Family C's data set), then saving an active `all_matching` path that matches 250,000 riders
through the real page (`POST /admin/paths/new`, signed in, with its csrf_token).
"""

from __future__ import annotations

import asyncio
import re
import time

import aiohttp
import psycopg

from app.admin import accounts
from app.core import database
from bench import training
from bench.harness import Server, fresh_database, report, run_sql

RIDERS = 300_000
MATCHING = 250_000
SAVE_RUNS = 3
EMAIL, PASSWORD = "bench@example.com", "bench password 0123"
# Markets by rider number: one rider in six is in AE, the rest in the path's five markets.
MARKETS = "ARRAY['AE','KW','QA','BH','OM','JO']"
PATH_MARKETS = ("KW", "QA", "BH", "OM", "JO")
# Courses 1, 10, 19 and 28: every fifth rider has passed all four (Family C's completions),
# so a fifth of the new assignments are completed at once.
PATH_COURSES = [f"00000000-0000-4000-8000-{n:012x}" for n in (1, 10, 19, 28)]

RIDERS_SET = f"""INSERT INTO riders (rider_id, name, market, city, vehicle_type, nationality,
                                     status)
    SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, ({MARKETS})[1 + i % 6],
           'City ' || i % 40, ({training.VEHICLES})[1 + i % 5],
           ({training.NATIONALITIES})[1 + i % 6], 'active'
    FROM generate_series(1, {RIDERS}) AS i"""
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


async def _create_admin(url: str) -> None:
    async with database.connect(url) as conn:
        await accounts.create_or_reset(conn, EMAIL, "Bench Admin", PASSWORD)


def build(url: str) -> None:
    started = time.perf_counter()
    # Family C's courses and 20 paths (5 automatic), with their assignments, so the new path's
    # "never had it" check runs against a full assignments table.
    run_sql(url, RIDERS_SET, *training.DATA_SET[1:])
    training._insert_then_index(url, "course_results", training.RESULTS_SET)
    asyncio.run(training._rules_for_everyone(url))
    run_sql(url)
    asyncio.run(_create_admin(url))
    print(
        f"data set: {RIDERS:,} riders, {training.RESULTS:,} completions in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )


async def _csrf(session: aiohttp.ClientSession, url: str) -> str:
    async with session.get(url) as response:
        return _CSRF.search(await response.text()).group(1)


async def measure(server: Server, url: str) -> bool:
    ok = True
    # unsafe: keep the cookies of an IP address (the server is 127.0.0.1).
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        token = await _csrf(session, f"{server.url}/admin/sign-in")
        async with session.post(
            f"{server.url}/admin/sign-in",
            allow_redirects=False,
            data={"email": EMAIL, "password": PASSWORD, "csrf_token": token},
        ) as response:
            assert response.status == 303, response.status
        times = []
        for run in range(SAVE_RUNS):  # a new path each run: every run assigns 250,000 riders
            form = [
                ("name", f"Everyone outside AE {run}"),
                ("active", "on"),
                ("days_to_complete", "30"),
                ("rule", "all_matching"),
                *[("markets", market) for market in PATH_MARKETS],
                *[("courses", course) for course in PATH_COURSES],
                ("csrf_token", await _csrf(session, f"{server.url}/admin/paths/new")),
            ]
            started = time.perf_counter()
            async with session.post(
                f"{server.url}/admin/paths/new", data=form, allow_redirects=False
            ) as response:
                await response.read()
                times.append(time.perf_counter() - started)
                if response.status != 303:
                    raise RuntimeError(f"POST /admin/paths/new: {response.status}")
                path_id = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
            with psycopg.connect(url) as conn:
                assigned = conn.execute(
                    "SELECT count(*) FROM assignments WHERE path_id = %s", (path_id,)
                ).fetchone()[0]
            if assigned != MATCHING:
                raise RuntimeError(f"the path was assigned to {assigned:,} riders")
        print("runs: " + ", ".join(f"{t * 1000:.0f} ms" for t in times), flush=True)
        ok &= report(
            f"POST /admin/paths/new, all_matching, {MATCHING:,} riders (slowest of {SAVE_RUNS})",
            max(times) * 1000,
            5000,
            "ms",
        )
    return ok


def main() -> bool:
    url = fresh_database("bench_admin_paths")
    build(url)
    with Server(url, SESSION_SECRET="bench-session-secret-0123456789") as server:
        return asyncio.run(measure(server, url))
