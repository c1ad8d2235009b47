"""The reports (`/admin/reports` and a course's item analysis) at 300,000 riders, 1,500,000
assignments and 2,000,000 completions: the admin benchmark's data set, made recent (a quarter
of the completions and of the completed assignments moved into the last 12 weeks, a third of
the open assignments past their deadline) and with 80,000 recorded quiz attempts of a
10-question course. The reports job's run (the recount of the summaries) is timed: it bounds
how stale a figure may be beyond its 10-minute schedule. Then each page is measured through
the real server, signed in as an admin.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import aiohttp
import psycopg

from app.core import database
from bench import admin
from bench.harness import Server, fresh_database, report, run_sql
from bench.training import RIDERS
from jobs import reports

TARGET_MS = 500
QUIZ_RIDERS = 60_000
QUESTIONS = 10
QUIZ_COURSE = "00000000-0000-4000-8000-000000000001"
RIDER = "'R' || lpad({n}::text, 7, '0')"

RECENT = [
    # The completions of the last quarter of the year they span move into the last 12 weeks.
    """UPDATE course_results SET started_at = started_at + interval '170 days',
                                 completed_at = completed_at + interval '170 days'
       WHERE completed_at >= '2026-03-01'""",
    # So do the completed assignments of the last months.
    """UPDATE assignments SET assigned_at = assigned_at + interval '130 days',
                              deadline = deadline + interval '130 days',
                              completed_at = completed_at + interval '130 days'
       WHERE completed_at IS NOT NULL AND assigned_at >= '2026-05-01'""",
    # A third of the open assignments were made 45 days ago and are past their deadline.
    """UPDATE assignments SET assigned_at = assigned_at - interval '45 days',
                              deadline = deadline - interval '45 days'
       WHERE completed_at IS NULL AND right(rider_id, 1) IN ('0', '3', '6')""",
    # Course 1 gets a quiz of 10 questions of 4 options (option 0 right).
    f"""UPDATE courses SET content = jsonb_build_object(
            'lessons', jsonb_build_array(jsonb_build_object('title', 'One', 'body', 'Text')),
            'quiz', (SELECT jsonb_agg(jsonb_build_object(
                        'question', 'Question ' || q, 'options',
                        jsonb_build_array('Right', 'Wrong A', 'Wrong B', 'Wrong C'),
                        'correct', jsonb_build_array(0)))
                     FROM generate_series(1, {QUESTIONS}) AS q))
        WHERE course_id = '{QUIZ_COURSE}'""",
    f"""INSERT INTO course_results (rider_id, course_id, language, started_at)
        SELECT {RIDER.format(n="i")}, '{QUIZ_COURSE}', 'en', now() - interval '30 days'
        FROM generate_series(1, {QUIZ_RIDERS}) AS i
        ON CONFLICT DO NOTHING""",
    # Every rider's first attempt, and a second for one in three.
    f"""INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed, recorded_at)
        SELECT '{QUIZ_COURSE}', {RIDER.format(n="i")}, a, s.score, s.score >= 70,
               now() - interval '1 day' * (i % 60)
        FROM generate_series(1, {QUIZ_RIDERS}) AS i,
             generate_series(1, CASE WHEN i % 3 = 0 THEN 2 ELSE 1 END) AS a,
             LATERAL (SELECT 10 * ((i * 7 + a * 3) % 11) AS score0) AS r,
             LATERAL (SELECT least(r.score0, 100)::float AS score) AS s""",
    f"""INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)
        SELECT qa.course_id, qa.rider_id, qa.attempt, q,
               ARRAY[((hashtext(qa.rider_id) + q * 7 + qa.attempt) % 4 + 4) % 4]::smallint[],
               ((hashtext(qa.rider_id) + q * 7 + qa.attempt) % 4 + 4) % 4 = 0
        FROM quiz_attempts qa, generate_series(0, {QUESTIONS - 1}) AS q""",
]

PAGES = {
    "reports, no filter": ("/admin/reports", {}),
    "reports, markets AE and KW": ("/admin/reports", [("markets", "AE"), ("markets", "KW")]),
    "reports, a city": ("/admin/reports", {"cities": "City 17"}),
    "reports, assigned in 2026": (
        "/admin/reports",
        {"assigned_from": "2026-01-01", "assigned_to": "2026-12-31"},
    ),
    "reports, market AE, city, assigned since March": (
        "/admin/reports",
        {"markets": "AE", "cities": "City 8", "assigned_from": "2026-03-01"},
    ),
    "item analysis, 10 questions, 80,000 attempts": (f"/admin/reports/courses/{QUIZ_COURSE}", {}),
    "item analysis, market AE": (f"/admin/reports/courses/{QUIZ_COURSE}", {"markets": "AE"}),
    "paths.csv": ("/admin/reports/paths.csv", {}),
    "weeks.csv": ("/admin/reports/weeks.csv", {}),
    "overdue.csv": ("/admin/reports/overdue.csv", {}),
}


def build(url: str) -> None:
    admin.build(url)
    started = time.perf_counter()
    run_sql(url, *RECENT)
    print(f"recent data and quiz attempts in {time.perf_counter() - started:.1f} s", flush=True)
    with psycopg.connect(url) as conn:
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM riders), (SELECT count(*) FROM assignments),"
            " (SELECT count(*) FROM course_results WHERE completed_at IS NOT NULL),"
            " (SELECT count(*) FROM quiz_attempts), (SELECT count(*) FROM quiz_answers)"
        ).fetchone()
    print(
        "riders {:,}, assignments {:,}, completions {:,}, quiz attempts {:,}, answers {:,}".format(
            *counts
        ),
        flush=True,
    )
    assert counts[0] >= RIDERS
    recount(url)


def recount(url: str) -> None:
    started = time.perf_counter()
    asyncio.run(_recount(url))
    print(f"reports job (recount of the summaries): {time.perf_counter() - started:.1f} s")
    run_sql(url)


async def _recount(url: str) -> None:
    async with database.connect(url) as conn:
        await reports.recount(conn)


async def measure(server: Server) -> bool:
    ok = True
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        await admin._sign_in(session, server.url)
        for name, (path, params) in PAGES.items():
            times, _ = await admin._times(session, f"{server.url}{path}", params)
            print(f"{name:<58} median {statistics.median(times):6.1f} ms", flush=True)
            ok &= report("  p95", admin._p95(times), TARGET_MS, "ms")
    return ok


def main() -> bool:
    url = fresh_database("bench_reports")
    build(url)
    with Server(url, SESSION_SECRET=admin.SESSION_SECRET) as server:
        return asyncio.run(measure(server))
