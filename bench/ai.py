"""AI: retrieval over a 20 MB knowledge base, the assistant's first byte after the
provider's first token, a course from a 200-page PDF outside the provider, and the event loop's
lag during a 20 MB PDF upload. The provider is a fake OpenAI-compatible server in this process
(the service's real client talks to it over HTTP).
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

from app.admin import accounts
from app.ai import assistant, sources, store
from app.ai import runner as ai_runner
from app.ai.client import Provider
from app.core import database, sessions
from app.core.config import Settings
from app.web import create_app, freeze_startup_objects
from bench.harness import BENCH_KEYS, Server, fresh_database, report
from tests.ai.fake_ai import FakeAI, chunk
from tests.ai.files import make_pdf

KNOWLEDGE_BYTES = 20 * 1024 * 1024
QUESTIONS = [
    "Where do I pay the cash from my orders?",
    "What should I do when my scooter breaks down on the road?",
    "How often must I check the brakes of my motorbike?",
    "Who tops up the fuel card and when?",
    "What do I wear when it rains?",
    "Can I carry a passenger on the bike?",
    "How long may I wait at a restaurant before I call support?",
    "What do I do after an accident with a car?",
    "How do I keep food hot in the delivery bag?",
    "What is the rule for drinking water in the heat?",
]
AI_ENV = {"AI_API_KEY": "bench-ai-key", "AI_MODEL": "bench-model"}
SECRET = {"SESSION_SECRET": "bench-session-secret-0123456789"}


FACTS = [
    "Cash from orders is paid to the hub before 22:00 every day.",
    "If your scooter breaks down on the road, call the roadside number on the key tag.",
    "Check the brakes of your motorbike every morning before the first order.",
    "The fleet team tops up the fuel card every Monday.",
    "When it rains, wear the rain jacket and slow down on painted lines.",
    "Never carry a passenger on the bike.",
    "After ten minutes of waiting at a restaurant, call support from the app.",
    "After an accident, make the place safe, call the police, then call the hub.",
    "Keep food hot by closing the delivery bag between orders.",
    "In the heat, drink water every hour and rest in the shade.",
]


def _vocabulary(rng: random.Random) -> list[str]:
    common = "the a to of and in you your is for on at with when do not be it this that".split()
    made = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
        for _ in range(8_000)
    ]
    return common + made


def _knowledge_text(rng: random.Random, size: int) -> str:
    """About `size` characters of paragraphs whose word frequencies fall off like prose's; one
    in fifty holds one of the handbook's facts the questions ask about."""
    words = _vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    parts, length = [], 0
    while length < size:
        paragraph = " ".join(rng.choices(words, weights, k=rng.randint(40, 160))) + "."
        if rng.random() < 0.02:
            paragraph += " " + rng.choice(FACTS)
        parts.append(paragraph)
        length += len(paragraph) + 2
    return "\n\n".join(parts)


async def _retrieval(url: str) -> bool:
    rng = random.Random(13)
    text = _knowledge_text(rng, KNOWLEDGE_BYTES)
    passages = sources.pieces(text, 1_500)
    pool = await database.create_pool(url)
    try:
        started = time.perf_counter()
        await store.add_knowledge(
            pool, "handbook.txt", len(text.encode()), len(text), None, passages
        )
        stored = time.perf_counter() - started
        await pool.execute("ANALYZE knowledge_passages")
        print(
            f"knowledge base: {len(text.encode()) / 1e6:.1f} MB, {len(passages):,} passages, "
            f"stored and indexed in {stored:.1f} s"
        )
        for question in QUESTIONS:  # warm the cache, as a running server has it
            await assistant.references(pool, "R-1", question, "en")
        relevant = 0
        for question in QUESTIONS:
            best = await store.search_knowledge(pool, question, 1)
            relevant += bool(best) and any(fact in best[0]["body"] for fact in FACTS)
        print(f"questions whose best passage holds a handbook fact: {relevant}/{len(QUESTIONS)}")
        timings = []
        for _ in range(3):
            for question in QUESTIONS:
                started = time.perf_counter()
                found = await assistant.references(pool, "R-1", question, "en")
                timings.append((time.perf_counter() - started) * 1000)
                assert found, question
    finally:
        await pool.close()
    timings.sort()
    print(
        f"retrieval, {len(timings)} questions: median {statistics.median(timings):.1f} ms, "
        f"max {timings[-1]:.1f} ms"
    )
    return report(
        "retrieval over the 20 MB knowledge base (p95)",
        timings[int(len(timings) * 0.95) - 1],
        50,
        "ms",
    )


class _FirstToken:
    """A provider that sends one token, notes when, waits, then sends the rest."""

    def __init__(self):
        self.sent_at: float | None = None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(chunk(""))
        await response.write(chunk("Pay"))
        self.sent_at = time.perf_counter()
        await asyncio.sleep(0.2)
        await response.write(chunk(" at the hub."))
        await response.write(b"data: [DONE]\n\n")
        return response


async def _serve(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}"


async def _rider_session(url: str, rider_id: str) -> tuple[str, str]:
    async with database.connect(url) as conn:
        await conn.execute(
            "INSERT INTO riders (rider_id, name, market) VALUES ($1, 'Bench Rider', 'AE')"
            " ON CONFLICT DO NOTHING",
            rider_id,
        )
        session_id = await sessions.create(conn, sessions.RIDER, rider_id=rider_id)
        secret = await conn.fetchval(
            "SELECT csrf_secret FROM web_sessions ORDER BY created_at DESC LIMIT 1"
        )
    return session_id, secret


async def _first_byte(url: str) -> bool:
    provider = _FirstToken()
    fake = web.Application()
    fake.router.add_post("/v1/chat/completions", provider.handle)
    fake_runner, fake_url = await _serve(fake)
    delays = []
    try:
        with Server(url, AI_BASE_URL=f"{fake_url}/v1", **AI_ENV, **SECRET) as server:
            session_id, secret = await _rider_session(url, "R-1")
            jar = aiohttp.CookieJar(unsafe=True)
            jar.update_cookies({"rider_session": session_id})
            async with aiohttp.ClientSession(cookie_jar=jar) as client:
                for question in QUESTIONS * 3:
                    async with client.post(
                        f"{server.url}/training/assistant",
                        data={"question": question, "csrf_token": secret},
                        headers={"Accept": "text/event-stream"},
                    ) as response:
                        assert response.status == 200, response.status
                        async for line in response.content:
                            if line.startswith(b"data: Pay"):
                                delays.append((time.perf_counter() - provider.sent_at) * 1000)
                                break
                        await response.read()
    finally:
        await fake_runner.cleanup()
    delays.sort()
    print(
        f"first byte after the provider's first token, {len(delays)} questions: median "
        f"{statistics.median(delays):.1f} ms, max {delays[-1]:.1f} ms"
    )
    return report(
        "assistant: first byte after the provider's first token (p95)",
        delays[int(len(delays) * 0.95) - 1],
        50,
        "ms",
    )


def _pages(rng: random.Random, count: int) -> list[str]:
    words = _vocabulary(rng)[:2000]
    return ["\n".join(" ".join(rng.choices(words, k=11)) for _ in range(45)) for _ in range(count)]


class _TimedProvider(Provider):
    """The real client, timing what it waits for: the time during which at least one call is
    in flight (the runner sends parts side by side: a sum of their waits counted overlaps
    twice, and the time "outside the provider" came out negative)."""

    waited = 0.0
    _in_flight = 0
    _since = 0.0

    async def document(self, *args, **kwargs):
        if self._in_flight == 0:
            self._since = time.perf_counter()
        self._in_flight += 1
        try:
            return await super().document(*args, **kwargs)
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self.waited += time.perf_counter() - self._since


async def _generation(url: str) -> bool:
    rng = random.Random(7)
    pdf = make_pdf(_pages(rng, 200))
    fake = FakeAI()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", fake.handle)
    fake_runner, fake_url = await _serve(app)
    settings = Settings.from_env({**AI_ENV, "AI_BASE_URL": f"{fake_url}/v1", **SECRET})
    provider = _TimedProvider(settings)
    pool = await database.create_pool(url)
    try:
        async with pool.acquire() as conn, conn.transaction():
            job_id = await store.add_generation_job(conn, None, pdf, "handbook.pdf")
        job = await store.claim_job(pool, "bench")
        started = time.perf_counter()
        await ai_runner.run(pool, provider, job)
        total = time.perf_counter() - started
        status = await pool.fetchval("SELECT status FROM ai_jobs WHERE job_id = $1", job_id)
        assert status == "succeeded", status
    finally:
        await pool.close()
        await provider.close()
        await fake_runner.cleanup()
    print(
        f"200-page PDF ({len(pdf) / 1e6:.1f} MB): {len(fake.requests)} parts sent, "
        f"{total:.2f} s in all, {provider.waited:.2f} s waiting for the provider"
    )
    return report(
        "generation from a 200-page PDF, outside the provider", total - provider.waited, 10, "s"
    )


def _big_pdf(size: int) -> bytes:
    """A 200-page PDF padded to `size` bytes by a binary stream (as scanned figures make real
    handbooks large)."""
    pages = _pages(random.Random(3), 200)
    text_only = len(make_pdf(pages))
    return make_pdf(pages, random.Random(5).randbytes(size - text_only - 100))


async def _curl_upload(url: str, path: Path, cookie: str, token: str) -> tuple[int, str]:
    """Upload with curl, another process: the probed loop does only the server's work. The
    CSRF token is the form's first part, as a browser sends it (app/core/csrf.py)."""
    process = await asyncio.create_subprocess_exec(
        "curl",
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{redirect_url}",
        "-H",
        f"Cookie: admin_session={cookie}",
        "-F",
        f"csrf_token={token}",
        "-F",
        f"file=@{path}",
        url,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    status, _, location = out.decode().partition(" ")
    return int(status), location


async def _upload_and_wait(base: str, pdf: Path, marks: list) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        page = await (await client.get(f"{base}/admin/sign-in")).text()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        await client.post(
            f"{base}/admin/sign-in",
            data={
                "email": "bench@example.com",
                "password": "bench password 123",
                "csrf_token": token,
            },
        )
        page = await (await client.get(f"{base}/admin/knowledge")).text()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        cookie = client.cookie_jar.filter_cookies(f"{base}/admin")["admin_session"].value
        for path in ("/admin/knowledge", "/admin/courses/generate"):
            marks.append((time.perf_counter(), f"upload to {path}"))
            status, location = await _curl_upload(f"{base}{path}", pdf, cookie, token)
            assert status == 303, (path, status)
        marks.append((time.perf_counter(), "waiting for the job"))
        while 'data-job-status="running"' in await (await client.get(location)).text():
            await asyncio.sleep(0.1)
        marks.append((time.perf_counter(), "job ended"))


async def _loop_lag(url: str) -> bool:
    pdf = Path(tempfile.mkdtemp(prefix="bench-ai-")) / "handbook.pdf"
    pdf.write_bytes(_big_pdf(20 * 1024 * 1024 - 70_000))
    fake = FakeAI()
    fake_app = web.Application()
    fake_app.router.add_post("/v1/chat/completions", fake.handle)
    fake_runner, fake_url = await _serve(fake_app)
    settings = Settings.from_env(
        {**BENCH_KEYS, **AI_ENV, **SECRET, "AI_BASE_URL": f"{fake_url}/v1"}
    )
    app = create_app(settings, url)
    ai_runner.setup(app)
    freeze_startup_objects(app)  # as `serve` does
    runner, base = await _serve(app)
    async with database.connect(url) as conn:
        await accounts.create_or_reset(conn, "bench@example.com", "Bench", "bench password 123")
    lags: list[tuple[float, float]] = []
    marks: list[tuple[float, str]] = []
    client = asyncio.create_task(asyncio.to_thread(asyncio.run, _upload_and_wait(base, pdf, marks)))
    try:
        while not client.done():
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((started, (time.perf_counter() - started - 0.005) * 1000))
        await client
    finally:
        await runner.cleanup()
        await fake_runner.cleanup()
    for at, lag in lags:
        if lag > 20:
            phase = [label for mark, label in marks if mark <= at]
            print(f"  lag {lag:.0f} ms during: {phase[-1] if phase else 'sign-in'}")
    print(
        f"20 MB PDF uploaded as knowledge and as a course source, the job run: "
        f"{len(lags):,} probes, median lag {statistics.median(lag for _, lag in lags):.1f} ms"
    )
    return report(
        "event loop lag during a 20 MB PDF upload (max)", max(lag for _, lag in lags), 50, "ms"
    )


async def _main() -> bool:
    url = fresh_database("bench_ai")
    results = [
        await _retrieval(url),
        await _first_byte(url),
        await _generation(url),
        await _loop_lag(url),
    ]
    return all(results)


def main() -> bool:
    return asyncio.run(_main())


if __name__ == "__main__":
    main()
