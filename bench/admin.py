"""The admin panel's rider pages at scale: 300,000 riders and 2,000,000 completions (the
training benchmark's data set, with varied names, flags and messages, and 1,200,000 completed
assignments of earlier months), built set-based in SQL; then the riders list (50 rows, several
filters and searches), the rider page and the paths list measured through the real server,
signed in as an admin.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time

import aiohttp

from app.admin import accounts
from app.core import database
from bench.harness import Server, fresh_database, report, run_sql
from bench.training import (
    DATA_SET,
    MARKETS,
    NATIONALITIES,
    PATH,
    RESULTS,
    RESULTS_SET,
    RIDERS,
    VEHICLES,
    _insert_then_index,
    _rules_for_everyone,
)

REQUESTS = 40
WARM_UP = 3
LIST_TARGET_MS = 100
RIDER_TARGET_MS = 50
EMAIL = "bench@example.com"
PASSWORD = "bench admin password"
# Admin sessions and their forms' tokens need the secret.
SESSION_SECRET = "bench-session-secret-0123456789"

FIRST = "ARRAY['Ahmed','Sara','Omar','Fatima','Ali','Aisha','Hassan','Mariam','Yusuf','Layla',"
FIRST += "'Ravi','Priya','Imran','Noor','Bilal','Zainab','Kareem','Huda','Tariq','Salma']"
LAST = "ARRAY['Khan','Haddad','Rahman','Nasser','Sharma','Farouk','Saleh','Qureshi','Aziz',"
LAST += "'Mansour','Iqbal','Darwish','Patel','Hamdan','Sultan','Yousef','Hakim','Bakr']"
# Riders as the training benchmark's, with names drawn from 20 x 18 first and last names.
RIDERS_SET = f"""INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type,
                                     nationality, language, status)
    SELECT 'R' || lpad(i::text, 7, '0'),
           ({FIRST})[1 + i % 20] || ' ' || ({LAST})[1 + (i / 20) % 18],
           ({MARKETS})[1 + i % 8], '+9715' || lpad(i::text, 8, '0'), 'City ' || i % 40,
           ({VEHICLES})[1 + i % 5], ({NATIONALITIES})[1 + i % 6],
           (ARRAY['en','ar','ur','ku'])[1 + i % 4],
           CASE WHEN i % 50 = 0 THEN 'inactive' WHEN i % 20 = 0 THEN 'onboarding'
                ELSE 'active' END
    FROM generate_series(1, {RIDERS}) AS i"""
HISTORY = [
    # A flag for every 5th rider, a reminder for every 2nd (failed or logged for some).
    """INSERT INTO flags (rider_id, type, note, source)
       SELECT 'R' || lpad(i::text, 7, '0'), 'late_delivery', 'Late ' || i,
              CASE WHEN i % 2 = 0 THEN 'api' ELSE 'admin' END
       FROM generate_series(5, 300000, 5) AS i""",
    """INSERT INTO messages (rider_id, kind, body, status, error)
       SELECT 'R' || lpad(i::text, 7, '0'), 'reminder', 'Hi, you have unfinished training',
              CASE WHEN i % 10 = 0 THEN 'failed' WHEN i % 7 = 0 THEN 'logged' ELSE 'sent' END,
              CASE WHEN i % 10 = 0 THEN 'provider answered 400: bad number' END
       FROM generate_series(2, 300000, 2) AS i""",
    # Every rider completed four of the manual paths (11 to 14) in earlier months.
    f"""INSERT INTO assignments (rider_id, path_id, why, assigned_at, deadline, completed_at)
       SELECT 'R' || lpad((1 + g % {RIDERS})::text, 7, '0'), {PATH.format(n=f"11 + g / {RIDERS}")},
              'api', t, t + interval '14 days', t + interval '3 days'
       FROM generate_series(0, 4 * {RIDERS} - 1) AS g,
            LATERAL (SELECT timestamptz '2026-01-01' + g % 200 * interval '1 day' AS t) AS day""",
]

LIST_QUERIES = {
    "no filter": {},
    "q: rider ID": {"q": "R0123457"},
    "q: name, common (Ahmed)": {"q": "ahmed"},
    "q: name, full (Omar Saleh)": {"q": "Omar Saleh"},
    "q: name, no match": {"q": "Zzyzx"},
    "q: phone, last 6 digits": {"q": "234567"},
    "q: phone, last 4 digits": {"q": "+4567"},
    "city": {"city": "City 17"},
    "city, market, status": {"city": "City 17", "market": "OM", "status": "active"},
    "market, vehicle type, nationality": {
        "market": "AE",
        "vehicle_type": "car",
        "nationality": "Indian",
    },
    "status inactive, market KW": {"status": "inactive", "market": "KW"},
    "city, no match": {"city": "Atlantis"},
    "q name + city": {"q": "fatima", "city": "City 3"},
    "page 200 (after=R0010000)": {"after": "R0010000"},
}
RIDER_PAGES = ("R0000010", "R0150000", "R0299990")


def build(url: str) -> None:
    started = time.perf_counter()
    run_sql(url, RIDERS_SET, *DATA_SET[1:], *HISTORY)
    _insert_then_index(url, "course_results", RESULTS_SET)
    run_sql(url)
    created = asyncio.run(_rules_for_everyone(url))
    run_sql(url)
    asyncio.run(_admin(url))
    print(
        f"data set: {RIDERS:,} riders, {RESULTS:,} completions, {created:,} assignments in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )


async def _admin(url: str) -> None:
    async with database.connect(url) as conn:
        await accounts.create_or_reset(conn, EMAIL, "Bench Admin", PASSWORD)


async def _sign_in(session: aiohttp.ClientSession, base: str) -> None:
    page = await (await session.get(f"{base}/admin/sign-in")).text()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"email": EMAIL, "password": PASSWORD, "csrf_token": token}
    async with session.post(f"{base}/admin/sign-in", data=data, allow_redirects=False) as answer:
        if answer.status != 303:
            raise RuntimeError(f"sign-in answered {answer.status}")


async def _times(session, url: str, params: dict) -> tuple[list[float], str]:
    """Wall-clock times of REQUESTS GETs after WARM_UP (an upper bound of server time: the
    client is on the same machine), and the last page."""
    times = []
    for n in range(WARM_UP + REQUESTS):
        started = time.perf_counter()
        async with session.get(url, params=params, allow_redirects=False) as response:
            body = await response.text()
            elapsed = time.perf_counter() - started
            if response.status != 200:
                raise RuntimeError(f"GET {url} {params}: {response.status}")
        if n >= WARM_UP:
            times.append(elapsed * 1000)
    return times, body


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


async def measure(server: Server) -> bool:
    ok = True
    base = server.url
    # Cookies for 127.0.0.1 (an IP address) are kept only by an unsafe jar.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        await _sign_in(session, base)
        for name, params in LIST_QUERIES.items():
            times, page = await _times(session, f"{base}/admin/riders", params)
            rows = page.count('<td><a href="/admin/riders/')
            label = f"riders list, {name} ({rows} rows)"
            print(f"{label:<58} median {statistics.median(times):6.1f} ms", flush=True)
            ok &= report("  p95", _p95(times), LIST_TARGET_MS, "ms")
        for rider_id in RIDER_PAGES:
            times, page = await _times(session, f"{base}/admin/riders/{rider_id}", {})
            passed = page.count("<code>")
            label = f"rider page {rider_id} ({passed} passed courses)"
            print(f"{label:<58} median {statistics.median(times):6.1f} ms", flush=True)
            ok &= report("  p95", _p95(times), RIDER_TARGET_MS, "ms")
        # No target of its own: how the list of paths scales with the assignments.
        times, page = await _times(session, f"{base}/admin/paths", {})
        paths = page.count('<td><a href="/admin/paths/')
        print(
            f"{f'paths list ({paths} paths)':<58} median {statistics.median(times):6.1f} ms, "
            f"p95 {_p95(times):.1f} ms",
            flush=True,
        )
    return ok


def main() -> bool:
    url = fresh_database("bench_admin")
    build(url)
    with Server(url, SESSION_SECRET=SESSION_SECRET) as server:
        return asyncio.run(measure(server))
