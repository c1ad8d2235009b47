"""The rider app at scale: 300,000 riders with PINs, 900,000 assignments, 20 courses with
lessons, quizzes and Arabic translations, 600,000 course records; then, through the real
server over HTTP on localhost: PIN sign-in, `/training` and a lesson page (each ≤ 30 ms), and
200 riders taking their quiz at once (a fail, then a pass; p99 ≤ 200 ms, no error); then,
with two web processes, 200 other riders taking it in the same instant (p99 ≤ 300 ms), with
the CPU each request cost the web processes and PostgreSQL.

Times are measured by the client on localhost, so they include the server's time and a
little more: a figure within its target means the server time is too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import time
from urllib.parse import urlencode, urlsplit

import aiohttp
import psycopg

from app.core.config import Settings
from app.training import pins
from bench.harness import (
    BENCH_KEYS,
    CpuMeter,
    Server,
    copy_database,
    fresh_database,
    report,
    run_sql,
)
from bench.training import PROOF

RIDERS = 300_000
COURSES = 20
PATHS = 10
LESSONS = 5
QUESTIONS = 5
SAMPLES = 25
QUIZ_RIDERS = 200
# The 200 riders start their quiz within this window (a bounded load: riders do not all
# press "Submit" in the same millisecond); the burst figure sends 200 others all at once.
WINDOW_SECONDS = 10
PIN = "2468"
SECRET = "bench-session-secret-0123456789"

COURSE = "('00000000-0000-4000-8000-' || lpad(to_hex({n}), 12, '0'))::uuid"
PATH = "('00000000-0000-4000-9000-' || lpad(to_hex({n}), 12, '0'))::uuid"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _document(title: str) -> dict:
    body = "\n\n".join(
        f"## Part {p}\n\nKeep the **hot bag** closed and clean; check the seal before every "
        f"pick-up. " * 4
        for p in range(1, 4)
    )
    return {
        "title": title,
        "lessons": [{"title": f"{title}: lesson {n}", "body": body} for n in range(1, 6)],
        "quiz": [
            {
                "question": f"Question {q} of {title}?",
                "options": ["Right", "Wrong", "Also wrong", "Never"],
                "correct": [0],
            }
            for q in range(QUESTIONS)
        ],
    }


def _pepper() -> bytes | None:
    """The server's pepper: it runs with BENCH_KEYS."""
    return pins.pepper_of(Settings.from_env({**BENCH_KEYS, "DATA_DIR": "var"}))


def _pin_hash() -> str:
    return pins.hash_pin(_pepper(), PIN)


def build(url: str) -> None:
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        for n in range(1, COURSES + 1):
            document = _document(f"Course {n}")
            content = {"lessons": document["lessons"], "quiz": document["quiz"]}
            conn.execute(
                f"INSERT INTO courses (course_id, title, has_quiz, pass_mark, content, published)"
                f" VALUES ({COURSE.format(n='%s::int')}, %s, true, 80, %s, true)",
                (n, document["title"], json.dumps(content)),
            )
            translation = {
                **content,
                "title": f"الدورة {n}",
                "quiz": [{k: q[k] for k in ("question", "options")} for q in content["quiz"]],
            }
            conn.execute(
                f"INSERT INTO course_translations (course_id, language, document)"
                f" VALUES ({COURSE.format(n='%s::int')}, 'ar', %s)",
                (n, json.dumps(translation)),
            )
    run_sql(
        url,
        f"""INSERT INTO riders (rider_id, name, market, language, status, pin_hash)
            SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, 'AE',
                   (ARRAY['en','ar','ur','ku'])[1 + i % 4],
                   CASE WHEN i % 50 = 0 THEN 'inactive' ELSE 'active' END, '{_pin_hash()}'
            FROM generate_series(1, {RIDERS}) AS i""",
        f"""INSERT INTO paths (path_id, name, days_to_complete)
            SELECT {PATH.format(n="n")}, 'Path ' || n, 14 FROM generate_series(1, {PATHS}) n""",
        f"""INSERT INTO path_courses (path_id, course_id, position)
            SELECT {PATH.format(n="n")}, {COURSE.format(n="2 * n - 2 + k")}, k
            FROM generate_series(1, {PATHS}) n, generate_series(1, 2) k""",
        # Three paths a rider, deadlines from 10 days ago to 20 days ahead.
        f"""INSERT INTO assignments (rider_id, path_id, why, deadline)
            SELECT 'R' || lpad(i::text, 7, '0'), {PATH.format(n=f"1 + (i + 3 * j) % {PATHS}")},
                   'api', now() + ((i % 30) - 10) * interval '1 day'
            FROM generate_series(1, {RIDERS}) i, generate_series(0, 2) j""",
        # The first course of each rider's first path passed, the second one opened.
        f"""INSERT INTO course_results (rider_id, course_id, language, started_at,
                                        completed_at, score, attempts, time_spent_seconds,
                                        proof_code, last_viewed_at, furthest_lesson)
            SELECT 'R' || lpad(i::text, 7, '0'),
                   {COURSE.format(n=f"2 * ((1 + i % {PATHS}) - 1) + 1 + k")}, 'en',
                   now() - interval '2 days',
                   CASE WHEN k = 0 THEN now() - interval '1 day' END,
                   CASE WHEN k = 0 THEN 100 END, 1 - k, 600,
                   CASE WHEN k = 0 THEN {PROOF.replace("g *", "i::bigint *")} END,
                   now() - interval '1 day', 5 - 3 * k
            FROM generate_series(1, {RIDERS}) i, generate_series(0, 1) k""",
    )
    print(
        f"data set: {RIDERS:,} riders, {3 * RIDERS:,} assignments, {2 * RIDERS:,} course "
        f"records, {COURSES} courses in {time.perf_counter() - started:.1f} s",
        flush=True,
    )


def rider_id(i: int) -> str:
    return f"R{i:07d}"


def second_course(i: int) -> str:
    """The course rider i has opened but not passed (the second of their first path)."""
    return f"00000000-0000-4000-8000-{2 * (i % PATHS) + 2:012x}"


async def timed(session: aiohttp.ClientSession, method: str, url: str, **kwargs):
    started = time.perf_counter()
    async with session.request(method, url, allow_redirects=False, **kwargs) as response:
        body = await response.text()
        elapsed = time.perf_counter() - started
    if response.status not in (200, 303):
        raise RuntimeError(f"{method} {url}: {response.status} {body[:200]!r}")
    return elapsed, body


async def _signed_in(base: str, connector, i: int) -> aiohttp.ClientSession:
    """A client of its own (cookies) signed in as rider i; returns it and the sign-in time."""
    # unsafe: keep cookies of an IP address (the server's 127.0.0.1).
    session = aiohttp.ClientSession(
        connector=connector, connector_owner=False, cookie_jar=aiohttp.CookieJar(unsafe=True)
    )
    _, page = await timed(session, "GET", f"{base}/")
    token = CSRF.search(page).group(1)
    elapsed, _ = await timed(
        session,
        "POST",
        f"{base}/sign-in",
        data={"rider_id": rider_id(i), "pin": PIN, "csrf_token": token},
    )
    session.sign_in_ms = elapsed * 1000
    return session


def quiz_answers(right: bool, token: str) -> list[tuple[str, str]]:
    return [(f"q{q}", "0" if right else "1") for q in range(QUESTIONS)] + [("csrf_token", token)]


def _through(base: str, session: aiohttp.ClientSession):
    """`send` for `_take_quiz` through an aiohttp session."""
    return lambda method, path, form=None: timed(session, method, base + path, data=form)


async def _take_quiz(send, i: int, delay: float, times: list[float]) -> None:
    """Rider i's quiz page, a failed attempt and a pass; `send(method, path, form)` answers
    (seconds, page)."""
    await asyncio.sleep(delay)
    quiz = f"/training/courses/{second_course(i)}/quiz"
    elapsed, page = await send("GET", quiz)
    times.append(elapsed)
    token = CSRF.search(page).group(1)
    for right in (False, True):
        elapsed, page = await send("POST", quiz, quiz_answers(right, token))
        times.append(elapsed)
        if right and "proof-code" not in page:
            raise RuntimeError(f"rider {i} did not pass")


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98] * 1000


async def measure(server: Server) -> bool:
    base = server.url
    ok = True
    connector = aiohttp.TCPConnector(limit=0)
    try:
        riders = [i for i in range(1001, 300_000, 11_993) if i % 50][:SAMPLES]
        sessions = [await _signed_in(base, connector, i) for i in riders]
        sign_ins = [s.sign_in_ms for s in sessions]
        ok &= report(
            "POST /sign-in (PIN), median of 25 riders", statistics.median(sign_ins), 30, "ms"
        )
        training, lessons = [], []
        for i, session in zip(riders, sessions, strict=True):
            training.append((await timed(session, "GET", f"{base}/training"))[0] * 1000)
            lesson = f"{base}/training/courses/{second_course(i)}/lessons/3"
            lessons.append((await timed(session, "GET", lesson))[0] * 1000)
        ok &= report("GET /training, median of 25 riders", statistics.median(training), 30, "ms")
        ok &= report("GET a lesson page, median of 25 riders", statistics.median(lessons), 30, "ms")
        for session in sessions:
            await session.close()

        quiz_riders = [i for i in range(150_001, 160_000) if i % 50][:QUIZ_RIDERS]
        sessions = [await _signed_in(base, connector, i) for i in quiz_riders]
        rng = random.Random(11)
        times: list[float] = []
        started = time.perf_counter()
        results = await asyncio.gather(
            *[
                _take_quiz(_through(base, s), i, rng.uniform(0, WINDOW_SECONDS), times)
                for i, s in zip(quiz_riders, sessions, strict=True)
            ],
            return_exceptions=True,
        )
        errors = [r for r in results if isinstance(r, Exception)]
        print(
            f"200 riders: {len(times)} requests in {time.perf_counter() - started:.1f} s, "
            f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms",
            flush=True,
        )
        ok &= report("200 riders' quiz (page, fail, pass) within 10 s, p99", p99(times), 200, "ms")
        ok &= report("  errors", len(errors), 0, "")
        for error in errors[:3]:
            print(f"  {error!r}")
        for session in sessions:
            await session.close()

    finally:
        await connector.close()
    return ok


def _pin_check_cost() -> None:
    pepper = _pepper()
    stored = pins.hash_pin(pepper, PIN)
    runs = 20_000
    started = time.perf_counter()
    for _ in range(runs):
        pins.pin_matches(pepper, stored, PIN)
    print(f"PIN hash check: {(time.perf_counter() - started) / runs * 1e6:.1f} µs each", flush=True)


class PlainRider:
    """A signed-in rider's own keep-alive HTTP/1.1 connection, for the burst: the server's
    figure, not the client's. On the same 2 cores aiohttp's client spent about 0.7 ms of CPU on
    each of the burst's requests (its cookie jar, URL and header objects), a fifth of all the
    CPU the burst had; this one writes the request and reads a `Content-Length` answer,
    keeping the cookies the server sets. It connects at its first request, as a phone would."""

    def __init__(self, base: str, session: aiohttp.ClientSession):
        address = urlsplit(base)
        self.host, self.port = address.hostname, address.port
        self.cookies = {cookie.key: cookie.coded_value for cookie in session.cookie_jar}
        self.streams = None

    async def request(self, method: str, path: str, form=None) -> tuple[float, str]:
        started = time.perf_counter()
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        body = urlencode(form).encode() if form else b""
        cookies = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        kind = "Content-Type: application/x-www-form-urlencoded\r\n" if form else ""
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nCookie: {cookies}"
            f"\r\n{kind}Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        status = int((await reader.readline()).split()[1])
        length = None
        while (line := await reader.readline()) != b"\r\n":
            name, _, value = line.decode().partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                key, _, rest = value.strip().partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        if length is None:
            raise RuntimeError(f"{method} {path}: an answer without Content-Length")
        page = (await reader.readexactly(length)).decode()
        elapsed = time.perf_counter() - started
        if status not in (200, 303):
            raise RuntimeError(f"{method} {path}: {status} {page[:200]!r}")
        return elapsed, page

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


async def burst(server: Server) -> bool:
    """The 200 riders' quizzes sent in the same instant, served by two web processes; the
    CPU each request cost the web processes, PostgreSQL and this client (read from /proc and
    the process's own clock around it)."""
    base = server.url
    connector = aiohttp.TCPConnector(limit=0)
    try:
        riders = [i for i in range(200_001, 210_000) if i % 50][:QUIZ_RIDERS]
        sessions = [await _signed_in(base, connector, i) for i in riders]
        plain = [PlainRider(base, session) for session in sessions]
        for session in sessions:
            await session.close()
    finally:
        await connector.close()
    times: list[float] = []
    meter = CpuMeter(server)
    before, client_before = meter.read(), time.process_time()
    results = await asyncio.gather(
        *[_take_quiz(r.request, i, 0, times) for i, r in zip(riders, plain, strict=True)],
        return_exceptions=True,
    )
    client = time.process_time() - client_before
    web, database = meter.spent(before, meter.read())
    for rider in plain:
        rider.close()
    errors = [r for r in results if isinstance(r, Exception)]
    print(
        f"burst: {len(times)} requests, median {statistics.median(times) * 1000:.1f} ms; CPU a "
        f"request: web {web / len(times) * 1000:.2f} ms, database "
        f"{database / len(times) * 1000:.2f} ms, client {client / len(times) * 1000:.2f} ms; "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    ok = report("200 riders' quiz at the same instant, 2 processes, p99", p99(times), 300, "ms")
    ok &= report("  errors", len(errors), 0, "")
    for error in errors[:3]:
        print(f"  {error!r}")
    return ok


def main() -> bool:
    url = fresh_database("bench_rider")
    build(url)
    # Kept for `--burst-only`: the data set as built, before any rider signs in.
    copy_database("bench_rider", BUILT)
    _pin_check_cost()
    with Server(url, SESSION_SECRET=SECRET) as server:
        ok = asyncio.run(measure(server))
    return _burst(url) and ok


def _burst(url: str) -> bool:
    with Server(url, SESSION_SECRET=SECRET, WEB_CONCURRENCY="2") as server:
        return asyncio.run(burst(server))


# The built data set, copied before each `--burst-only` run.
BUILT = "bench_rider_built"


def burst_only(runs: int) -> bool:
    """The burst alone, `runs` times, each on a fresh copy of the data set `main` built."""
    ok = True
    for _ in range(runs):
        ok &= _burst(copy_database(BUILT, "bench_rider"))
    return ok


if __name__ == "__main__":
    arguments = argparse.ArgumentParser(
        prog="python -m bench.rider",
        description="The rider benchmark (python -m bench rider), or its burst alone.",
    )
    arguments.add_argument(
        "--burst-only",
        action="store_true",
        help="only the 200 riders at one instant, on a copy of the data set the last full "
        "run built (run `python -m bench rider` once first)",
    )
    arguments.add_argument("--runs", type=int, default=1, help="times the burst runs (default 1)")
    options = arguments.parse_args()
    sys.exit(0 if (burst_only(options.runs) if options.burst_only else main()) else 1)
