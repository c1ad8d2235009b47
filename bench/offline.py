"""The rider app's offline copy (docs/rider-offline.md): a rider with one open path of 5 courses ×
10 lessons (and a quiz each) signs in in Debian's Chromium; the service worker keeps /training and
the 5 × 12 course pages, lessons and quiz pages. Measured: the bytes kept (pages and static files;
target under 5 MB) and the time from the sign-in until the copy is complete, on the local network
and on a throttled 3G profile (Chrome DevTools' "Fast 3G": 562.5 ms latency, 1.44 Mbit/s down, 675
kbit/s up, through `Network.emulateNetworkConditions` on a CDP session of the page and of the
worker)."""

from __future__ import annotations

import asyncio
import json
import time

import psycopg

from app.rider.guard import rider_key
from bench.harness import Server, fresh_database, report
from bench.rider import PIN, _pin_hash

COURSES = 5
LESSONS = 10
QUESTIONS = 5
PAGES = 1 + COURSES * (1 + LESSONS + 1)
RIDER = "R-OFFLINE"
SECRET = "bench-session-secret-0123456789"
CHROMIUM = "/usr/bin/chromium"
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
    "uploadThroughput": 750 * 1024 / 8 * 0.9,
}
KEPT_BYTES = """async () => {
  let bytes = 0, pages = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
      if (name.startsWith('rider-')) pages += 1;
    }
  }
  return [bytes, pages];
}"""


def _lesson_body(course: int, lesson: int) -> str:
    """About 2.5 KB of Markdown, a lesson of a few minutes' reading."""
    part = (
        "Keep the **hot bag** closed and clean; check the seal before every pick-up, and "
        "wipe it at the end of the shift. "
    ) * 5
    return "\n\n".join(f"## Part {p} of lesson {lesson}.{course}\n\n{part}" for p in range(4))


def build(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        courses = []
        for c in range(1, COURSES + 1):
            content = {
                "lessons": [
                    {"title": f"Course {c}: lesson {n}", "body": _lesson_body(c, n)}
                    for n in range(1, LESSONS + 1)
                ],
                "quiz": [
                    {
                        "question": f"Question {q} of course {c}?",
                        "options": ["Right", "Wrong", "Also wrong", "Never"],
                        "correct": [0],
                    }
                    for q in range(QUESTIONS)
                ],
            }
            courses.append(
                conn.execute(
                    "INSERT INTO courses (course_id, title, has_quiz, pass_mark, content,"
                    " published) VALUES (gen_random_uuid(), %s, true, 80, %s, true)"
                    " RETURNING course_id",
                    (f"Course {c}", json.dumps(content)),
                ).fetchone()[0]
            )
        conn.execute(
            "INSERT INTO riders (rider_id, name, market, language, status, pin_hash)"
            " VALUES (%s, 'Offline Rider', 'AE', 'en', 'active', %s)",
            (RIDER, _pin_hash()),
        )
        path_id = conn.execute(
            "INSERT INTO paths (path_id, name, days_to_complete)"
            " VALUES (gen_random_uuid(), 'Road', 14) RETURNING path_id"
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO path_courses (path_id, course_id, position)"
            " SELECT %s, c, p FROM unnest(%s::uuid[]) WITH ORDINALITY AS t(c, p)",
            (path_id, courses),
        )
        conn.execute(
            "INSERT INTO assignments (rider_id, path_id, why, deadline)"
            " VALUES (%s, %s, 'api', now() + interval '14 days')",
            (RIDER, path_id),
        )


async def _throttle(context, page, conditions: dict) -> None:
    """The page's network, and the worker's (its fetches are its own target's)."""
    session = await context.new_cdp_session(page)
    await session.send("Network.enable")
    await session.send("Network.emulateNetworkConditions", conditions)
    browser = await context.browser.new_browser_cdp_session()
    targets = (await browser.send("Target.getTargets"))["targetInfos"]
    for target in targets:
        if target["type"] == "service_worker":
            attached = await browser.send(
                "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False}
            )
            for number, method in enumerate(("Network.enable", "Network.emulateNetworkConditions")):
                message = {"id": number + 1, "method": method, "params": conditions}
                await browser.send(
                    "Target.sendMessageToTarget",
                    {"sessionId": attached["sessionId"], "message": json.dumps(message)},
                )


async def _copy_time(page, base: str) -> float:
    """Sign in, then wait until the copy holds every page; seconds from the sign-in."""
    name = f"rider-{rider_key(SECRET, RIDER)}"
    count = f"""async () => (await caches.has('{name}'))
        && (await (await caches.open('{name}')).keys()).length === {PAGES}"""
    await page.goto(f"{base}/")
    await page.fill("#rider_id", RIDER)
    await page.fill("#pin", PIN)
    started = time.perf_counter()
    await page.click("main button[type=submit]")
    while not await page.evaluate(count):
        if time.perf_counter() - started > 300:
            raise RuntimeError("the copy was not complete within 300 s")
        await asyncio.sleep(0.05)
    return time.perf_counter() - started


async def measure(base: str) -> bool:
    from playwright.async_api import async_playwright

    ok = True
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        context = await browser.new_context(viewport={"width": 360, "height": 740})
        page = await context.new_page()
        # The first visit installs the worker (its static files and offline pages too).
        first = await _copy_time(page, base)
        bytes_kept, pages = await page.evaluate(KEPT_BYTES)
        print(f"pages kept: {pages} (expected {PAGES})", flush=True)
        ok &= report(
            "kept copy, 5 courses x 10 lessons (with static files)", bytes_kept / 1e6, 5, "MB"
        )
        ok &= report("copy complete after sign-in, first visit, local", first, 10, "s")
        # A later visit: signed out (the copy goes), throttled, signed in again.
        await page.click("text=Sign out")
        local = await _copy_time(page, base)
        ok &= report("copy complete after sign-in, worker installed, local", local, 10, "s")
        await page.click("text=Sign out")
        await _throttle(context, page, FAST_3G)
        slow = await _copy_time(page, base)
        ok &= report("copy complete after sign-in, throttled 3G", slow, 60, "s")
        await browser.close()
    return ok


def main() -> bool:
    url = fresh_database("bench_offline")
    build(url)
    with Server(url, SESSION_SECRET=SECRET) as server:
        return asyncio.run(measure(server.url))


if __name__ == "__main__":
    main()
