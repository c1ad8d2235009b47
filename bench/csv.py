"""Rider CSV import and CSV exports, measured through the real server over HTTP.

Data set: 125,000 riders with the assignments of the automatic rules, 60 courses, 5 automatic
paths (3 for every matching rider, 2 for riders in onboarding) and 500,000 completion records. Then:
- import of a ~25 MB file of 250,000 riders (the 125,000 stored ones updated, 125,000 new,
  one in ten onboarding) with the automatic rules on: time and server RSS growth;
- export of the 500,000 completions: first byte, rows a second, server RSS growth.
Each measurement gets its own server process, so its RSS growth is its own.

`python -m bench.csv 62500` imports a file of that many riders instead and skips the export:
the import holds a batch at a time, so its RSS growth must not grow with the file (a file 4
times as large as 25 MB is over the import's size limit, a quarter of it is not).
"""

from __future__ import annotations

import asyncio
import csv
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from app.admin import accounts
from app.core import database
from app.training import store as training_store
from bench.harness import Server, fresh_database, report, run_sql

STORED = 125_000
FILE_RIDERS = 250_000
COURSES = 60
RESULTS = 500_000  # 4 courses for each stored rider
SECRET = {"SESSION_SECRET": "bench-session-secret-0123456789"}
ADMIN = ("bench@example.com", "bench password 0123")
ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"

MARKETS = "ARRAY['AE','KW','QA','BH','OM','JO','EG','IQ']"
COURSE = "('00000000-0000-4000-8000-' || lpad(to_hex({n}), 12, '0'))::uuid"
PROOF = " || ".join(
    f"substr('{ALPHABET}', 1 + ((g * 48271 + 12345) % 656100000000 / {30**i} % 30)::int, 1)"
    for i in range(8)
)

DATA_SET = [
    f"""INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type, nationality)
        SELECT 'R' || lpad(i::text, 7, '0'), 'Rider ' || i, ({MARKETS})[1 + i % 8],
               '+9715' || lpad(i::text, 8, '0'), 'City ' || i % 40, 'car', 'Indian'
        FROM generate_series(1, {STORED}) AS i""",
    f"""INSERT INTO courses (course_id, title, has_quiz, pass_mark)
        SELECT {COURSE.format(n="n")}, 'Course ' || n, true, 70
        FROM generate_series(1, {COURSES}) AS n""",
    """INSERT INTO paths (path_id, name, active, days_to_complete, rule, markets, vehicle_types)
        SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, 'Path ' || n,
               true, 14, CASE WHEN n <= 3 THEN 'all_matching' ELSE 'onboarding' END,
               CASE n WHEN 1 THEN ARRAY['AE','QA'] ELSE '{}' END,
               CASE n WHEN 2 THEN ARRAY['motorbike'] ELSE '{}' END
        FROM generate_series(1, 5) AS n""",
    f"""INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,
                                    score, attempts, time_spent_seconds, proof_code)
        SELECT 'R' || lpad((1 + g % {STORED})::text, 7, '0'),
               {COURSE.format(n=f"1 + (g / {STORED} * 7 + g % {STORED} % 5) % {COURSES}")},
               (ARRAY['en','ar','ur','ku'])[1 + g % 4], t - interval '25 minutes', t,
               60 + g % 41, 1 + g % 3, 300 + g % 2000, {PROOF}
        FROM generate_series(0::bigint, {RESULTS - 1}) AS g,
             LATERAL (SELECT timestamptz '2025-06-01' + (g * 7919 % 31536000) * interval '1 s'
                             + (g % 7) * interval '1 ms' AS t) AS moment""",
]


def write_file(path: Path, riders: int) -> int:
    """The import file: stored riders updated (every other field sent), new riders whole."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(
            [
                "riderId",
                "name",
                "market",
                "phone",
                "city",
                "vehicleType",
                "nationality",
                "language",
                "status",
                "employer notes",
            ]
        )
        for i in range(1, riders + 1):
            writer.writerow(
                [
                    f"R{i:07d}",
                    f"Rider number {i} (fleet)",
                    ("UAE", "KW", "Qatar", "BH", "OM", "JO", "EG", "IQ")[i % 8],
                    f"+974 55{i:07d}",
                    f"City {i % 40}",
                    ("Motorbike", "car", "bicycle")[i % 3],
                    "Indian",
                    "ar",
                    "onboarding" if i % 10 == 0 else "active",
                    "ignored note",
                ]
            )
    return path.stat().st_size


async def _prepare(url: str) -> int:
    """The stored riders got their automatic paths when they were saved; and an admin."""
    async with database.connect(url) as conn:
        await accounts.create_or_reset(conn, ADMIN[0], "Bench Admin", ADMIN[1])
        return await training_store.run_rules(conn, None)


async def _signed_in(base: str) -> aiohttp.ClientSession:
    session = aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get("/admin/sign-in") as page:
        token = _token(await page.text())
    async with session.post(
        "/admin/sign-in",
        data={"email": ADMIN[0], "password": ADMIN[1], "csrf_token": token},
        allow_redirects=False,
    ) as response:
        assert response.status == 303, response.status
    return session


def _reset_peak_rss(server: Server) -> float:
    """The server's RSS now, with its peak reset to it: signing in hashes a password with
    argon2 (64 MiB), which must not count as the measured request's."""
    for pid in server.web_pids():
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    return server.rss_mb()


def _token(page: str) -> str:
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


async def measure_import(server: Server, path: Path, size: int, riders: int) -> bool:
    async with await _signed_in(server.url) as session:
        async with session.get("/admin/import") as page:
            token = _token(await page.text())
        before = _reset_peak_rss(server)
        form = aiohttp.FormData()
        form.add_field("csrf_token", token)  # first, as the page's form sends it
        with path.open("rb") as upload:
            form.add_field("file", upload, filename="riders.csv", content_type="text/csv")
            started = time.perf_counter()
            async with session.post("/admin/import", data=form) as response:
                page = await response.text()
            elapsed = time.perf_counter() - started
        if response.status != 200 or 'data-count="rejected">0<' not in page:
            raise RuntimeError(f"import: {response.status} {page[:2000]}")
        counts = {
            name: page.split(f'data-count="{name}">', 1)[1].split("<", 1)[0]
            for name in ("inserted", "updated", "enrollmentsCreated")
        }
    growth = server.peak_rss_mb() - before
    print(f"import file: {size / 1e6:.1f} MB, {riders:,} riders; result {counts}", flush=True)
    if riders != FILE_RIDERS:
        print(
            f"import of the {size / 1e6:.0f} MB file (rules included): {elapsed:.1f} s", flush=True
        )
        return report("server RSS growth during the import", growth, 100, "MB")
    ok = report("import of the 25 MB file (rules included)", elapsed, 10, "s")
    ok &= report("server RSS growth during the import", growth, 100, "MB")
    return ok


async def measure_export(server: Server) -> bool:
    async with await _signed_in(server.url) as session:
        async with session.get("/admin/exports/completions.csv?part=2") as warm:
            await warm.read()  # a first request warms the pool and the templates
        before = _reset_peak_rss(server)
        started = time.perf_counter()
        async with session.get("/admin/exports/completions.csv") as response:
            first = await response.content.readany()
            first_byte = time.perf_counter() - started
            lines = first.count(b"\n")
            async for chunk in response.content.iter_any():
                lines += chunk.count(b"\n")
            elapsed = time.perf_counter() - started
            parts = response.headers["X-Export-Parts"]
    growth = server.peak_rss_mb() - before
    rows = lines - 1
    if rows != RESULTS or parts != "1":
        raise RuntimeError(f"export: {rows} rows, {parts} parts")
    print(f"export: {rows:,} rows in {elapsed:.2f} s", flush=True)
    ok = report("export of 500,000 completions: first byte", first_byte * 1000, 200, "ms")
    ok &= report(
        "export of 500,000 completions: rows a second",
        rows / elapsed,
        200_000,
        "rows/s",
        higher_is_better=True,
    )
    ok &= report("server RSS growth during the export", growth, 50, "MB")
    return ok


def main(riders: int = FILE_RIDERS) -> bool:
    url = fresh_database("bench_csv")
    started = time.perf_counter()
    run_sql(url, *DATA_SET)
    assigned = asyncio.run(_prepare(url))
    run_sql(url)
    print(
        f"data set: {STORED:,} riders ({assigned:,} assignments by the rules), "
        f"{RESULTS:,} completions, 5 automatic paths in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "riders.csv"
        size = write_file(path, riders)
        with Server(url, **SECRET) as server:
            ok = asyncio.run(measure_import(server, path, size, riders))
    if riders != FILE_RIDERS:
        return ok
    run_sql(url)  # statistics after the import, as autovacuum would
    with Server(url, **SECRET) as server:
        ok &= asyncio.run(measure_export(server))
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(int(sys.argv[1]) if len(sys.argv) > 1 else FILE_RIDERS) else 1)
