"""The rider app on the road, in a real browser (Debian's Chromium through Playwright) on a
360 px phone (docs/rider-offline.md): the service worker keeps the open training, lessons open and a
quiz is answered against a stopped server, the answer counts once when the server is back, a session
that ended meanwhile asks the rider to sign in and loses nothing, sign-out and another rider's
sign-in leave no kept page of the rider before. Two riders sharing one phone:
tests/rider/test_shared_phone.py."""

import asyncio
import json
import urllib.request

import aiohttp
import pytest

from app.rider.guard import rider_key
from app.rider.texts import LANGUAGES, TEXTS, translator
from tests.conftest import TEST_KEYS
from tests.rider.rows import API_KEY, add_course, add_path, assign, course_for
from tests.rider.test_browser import SCREENSHOTS, _fits_the_phone
from tests.served import serving
from tests.web import PHONE, no_axe_violation, service_worker_controls

# A page's kept pages (every cache but the static files), and whether one holds /training.
KEPT = """async () => {
  const names = (await caches.keys()).filter(name => name.startsWith('rider-'));
  const kept = {};
  for (const name of names) kept[name] = (await (await caches.open(name)).keys()).length;
  return kept;
}"""
KEEPS_TRAINING = """async () => {
  const holding = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (await cache.match('/training', {ignoreSearch: true})) holding.push(name);
  }
  return holding;
}"""
WAITING = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open('rider-offline', 1);
  opening.onsuccess = () => {
    const read = opening.result.transaction('answers').objectStore('answers').getAll();
    read.onsuccess = () => { opening.result.close(); resolve(read.result); };
  };
  opening.onerror = () => reject(opening.error);
})"""
KEEP_AGAIN = """answer => new Promise(resolve => {
  const opening = indexedDB.open('rider-offline', 1);
  opening.onsuccess = () => {
    const adding = opening.result.transaction('answers', 'readwrite').objectStore('answers');
    adding.add({rider: answer.rider, path: answer.path, body: answer.body}).onsuccess = () => {
      opening.result.close();
      navigator.serviceWorker.controller.postMessage({type: 'send'});
      resolve();
    };
  };
})"""
RIGHT_ANSWERS = (("q0", "0"), ("q1", "0"), ("q1", "2"), ("q2", "1"))


def key_of(rider_id: str) -> str:
    """The rider's key on the phone, as the served app makes it."""
    return rider_key(TEST_KEYS["SESSION_SECRET"], rider_id)


def _api(base: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{base}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={**API_KEY, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def _completions(base: str) -> dict[str, dict]:
    return {c["courseId"]: c for c in _api(base, "GET", "/api/v1/completions")["data"]}


async def _eventually(check, what: str, seconds: float = 20):
    """`check()`'s value once it is truthy (polled; the worker works in the background)."""
    for _ in range(int(seconds * 10)):
        if value := await check():
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"never happened: {what}")


async def _sign_in(page, base: str, rider_id: str) -> None:
    await page.goto(f"{base}/")
    await page.fill("#rider_id", rider_id)
    await page.fill("#pin", "2468")
    await page.click("main button[type=submit]")
    assert page.url == f"{base}/training", page.url


async def _copy_kept(page, rider_id: str, pages: int) -> None:
    """Wait until the rider's copy holds `pages` pages and no other rider's copy is left."""
    name = f"rider-{key_of(rider_id)}"
    # The worker keeps them in the background, slowly on a busy machine.
    await _eventually(
        lambda: _kept_is(page, {name: pages}), f"{pages} pages kept for {rider_id}", seconds=60
    )


async def _kept_is(page, expected: dict) -> bool:
    return await page.evaluate(KEPT) == expected


async def _answer_quiz(page) -> None:
    for name, value in RIGHT_ANSWERS:
        await page.check(f"input[name={name}][value='{value}']")
    await page.click("main button[type=submit]")


async def _screens(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in (PHONE["width"], 1280):
        await page.set_viewport_size({"width": width, "height": PHONE["height"]})
        await page.screenshot(path=SCREENSHOTS / f"{name}-{width}.png", full_page=True)
    await page.set_viewport_size(PHONE)


async def test_a_rider_learns_and_passes_offline_and_each_answer_counts_once(
    database_url, db, session_env, browser, tmp_path
):
    ar = {key: text["ar"] for key, text in TEXTS.items()}
    log = tmp_path / "serve.log"
    with serving(database_url, log, **session_env) as server:
        base = server.base
        port = int(base.rsplit(":", 1)[1])
        riders = [
            {"riderId": rider, "name": name, "market": "AE", "pin": "2468", "language": "ar"}
            for rider, name in (("R-7", "Layla Hassan"), ("R-8", "Omar Saleh"))
        ]
        _api(base, "POST", "/api/v1/riders", {"riders": riders})
        # English only: shown in English inside the Arabic pages.
        first = await add_course(db, "Food safety")
        second = await add_course(db, "Road safety")
        path_id = await add_path(db, "Starter", [first, second])
        for rider in ("R-7", "R-8"):
            await assign(db, rider, path_id)
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await _sign_in(page, base, "R-7")
        await service_worker_controls(page)
        # /training, and for each course its page, 2 lessons and the quiz.
        await _copy_kept(page, "R-7", 1 + 2 * 4)
        # Keeping the copy is no page view.
        assert await db.fetchval("SELECT count(*) FROM course_results") == 0

    # The server is stopped: the kept lessons open, with the offline line.
    lesson = f"{base}/training/courses/{first}/lessons/2"
    await page.goto(lesson)
    assert await page.is_visible("#offline-line")
    assert await page.text_content("#offline-line") == ar["offline_line"]
    assert await page.get_attribute("h1", "lang") == "en"
    assert await page.text_content("h1") == "Lesson 2"
    await _fits_the_phone(page)
    await _screens(page, "rider-offline-lesson-ar")
    await page.goto(f"{base}/training/proofs/ABCDEFGH")  # never kept
    assert await page.text_content("h1") == ar["offline_title"]
    await page.goto(f"{base}/training/courses/{first}/quiz")
    assert await page.get_attribute(".question-text", "lang") == "en"
    await _answer_quiz(page)
    assert await page.text_content("h1") == ar["answers_saved_title"]
    waiting_line = ar["answers_waiting"].format(count=1)
    # The page's script writes the line once it has counted the kept answers.
    await _eventually(lambda: _text_is(page, "#answers-waiting", waiting_line), "the line")
    await _fits_the_phone(page)
    await _screens(page, "rider-offline-saved-ar")
    (kept,) = await page.evaluate(WAITING)
    assert kept["rider"] == key_of("R-7")

    with serving(database_url, log, port=port, **session_env):
        # Back online: the next page sends the kept answer, once.
        await page.goto(f"{base}/training")
        await _eventually(lambda: page.is_hidden("#answers-waiting"), "the answer is sent")
        # The line hides once the server has the answer; the kept copy goes right after.
        await _eventually(lambda: _nothing_waits(page), "the kept answer removed")
        (completion,) = _completions(base).values()
        assert completion["courseId"] == str(first) and completion["attempts"] == 1
        # Sent again, as when the phone lost the server's answer: counted nothing twice.
        await page.evaluate(KEEP_AGAIN, kept)
        await _eventually(lambda: _nothing_waits(page), "the repeat is sent")
        assert _completions(base)[str(first)]["attempts"] == 1
        assert await db.fetchval("SELECT count(*) FROM quiz_attempt_ids") == 1

        # The second quiz offline, then the session ends before the phone is back online.
        await _copy_kept(page, "R-7", 1 + 2 * 4)
        await context.set_offline(True)
        await page.goto(f"{base}/training/courses/{second}/quiz")
        await _answer_quiz(page)
        assert await page.text_content("h1") == ar["answers_saved_title"]
        await db.execute("DELETE FROM web_sessions WHERE rider_id = 'R-7'")
        await context.set_offline(False)
        await page.goto(f"{base}/training")
        assert page.url == f"{base}/"
        # The sign-in page is in English until a language is chosen on it.
        sign_in_line = TEXTS["answers_sign_in"]["en"].format(count=1)
        await _eventually(
            lambda: _text_is(page, "#answers-waiting", sign_in_line), "the sign-in line"
        )
        await _screens(page, "rider-answers-sign-in")
        await _sign_in(page, base, "R-7")
        await _eventually(lambda: _nothing_waits(page), "the answer sent after sign-in")
        assert _completions(base)[str(second)]["attempts"] == 1

        # A shared phone: an answer waits, the rider signs out offline and confirms.
        await _copy_kept(page, "R-7", 1)  # the assignment is finished: nothing open to keep
        await page.goto(f"{base}/training/courses/{second}/quiz")  # a retake
        await context.set_offline(True)
        await _answer_quiz(page)
        await page.goto(f"{base}/training")
        asked = []
        page.once("dialog", lambda dialog: asked.append(dialog.message) or dialog.accept())
        await page.click("text=" + ar["sign_out"])
        await page.wait_for_selector(f"h1:text-is('{ar['offline_title']}')")
        assert await _no_training_kept(page)
        assert asked == [ar["sign_out_unsent"].format(count=1)]
        # Back online, the sign-out reaches the server before anything else; the answer
        # stays on the phone for its rider.
        await context.set_offline(False)
        await page.goto(f"{base}/")
        sessions = "SELECT count(*) FROM web_sessions WHERE rider_id = 'R-7'"
        await _eventually(lambda: _zero(db, sessions), "the session ended")
        assert len(await page.evaluate(WAITING)) == 1
        # The next rider signs in: they keep their own copy, and R-7's answer is neither sent
        # nor counted on their pages.
        await _sign_in(page, base, "R-8")
        await _copy_kept(page, "R-8", 1 + 2 * 4)
        assert await page.is_hidden("#answers-waiting")
        assert len(await page.evaluate(WAITING)) == 1
        assert _completions(base)[str(second)]["attempts"] == 1
        # They leave without signing out, their session ends: the next rider's sign-in
        # removes their copy, and R-7's answer goes once R-7 is signed in.
        await context.clear_cookies()
        await _sign_in(page, base, "R-7")
        await _eventually(lambda: _nothing_waits(page), "R-7's answer sent")
        assert _completions(base)[str(second)]["attempts"] == 2
        await _copy_kept(page, "R-7", 1)
        await page.click("text=" + ar["sign_out"])
        assert page.url == f"{base}/?lang=ar"  # the sign-in page in the rider's language
        await _eventually(lambda: _no_training_kept(page), "the copy removed at sign-out")


async def _zero(db, query: str) -> bool:
    return await db.fetchval(query) == 0


async def _nothing_waits(page) -> bool:
    return await page.evaluate(WAITING) == []


async def _text_is(page, selector: str, text: str) -> bool:
    return await page.is_visible(selector) and await page.text_content(selector) == text


async def _no_training_kept(page) -> bool:
    return await page.evaluate(KEEPS_TRAINING) == []


class ClaimWhileLoading:
    """The phone's network as a route of the browser context: the worker's install waits
    until `/training`'s document has asked for its script, and that script waits until the
    worker has claimed the page. So the worker controls a `/training` it did not serve: the
    race a first sign-in can meet when the worker happens to activate mid-load."""

    def __init__(self, page):
        self.page = page
        self.loading = asyncio.Event()

    async def route(self, route):
        request = route.request
        if request.service_worker is not None:
            await self.loading.wait()
        elif request.url.endswith("/static/offline.js") and request.frame.url.endswith("/training"):
            self.loading.set()
            await _eventually(self._controlled, "the worker claims the loading page", 60)
        await route.continue_()

    async def _controlled(self) -> bool:
        return await self.page.evaluate("navigator.serviceWorker.controller !== null")


async def test_a_training_page_the_worker_claimed_while_loading_asks_for_the_copy(
    live_server, db, browser
):
    rider = {"riderId": "R-7", "name": "Layla Hassan", "market": "AE", "pin": "2468"}
    async with aiohttp.ClientSession(live_server, headers=API_KEY) as api:
        assert (await api.post("/api/v1/riders", json={"riders": [rider]})).status == 200
    await course_for(db, "R-7")
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await context.route("**/*", ClaimWhileLoading(page).route)
    await _sign_in(page, live_server, "R-7")
    await page.wait_for_load_state()  # its script ran, once the worker had claimed it
    # Controlled, yet its navigation never went through the worker.
    assert await page.evaluate("navigator.serviceWorker.controller !== null")
    assert await page.evaluate('performance.getEntriesByType("navigation")[0].workerStart') == 0
    await _copy_kept(page, "R-7", 1 + 4)


async def test_the_worker_and_the_offline_pages(client):
    worker = await client.get("/sw.js")
    assert worker.status == 200 and worker.content_type == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert json.dumps(list(LANGUAGES)) in await worker.text()
    for path, key in (("/offline", "offline_not_kept"), ("/offline/saved", "answers_saved")):
        for language in LANGUAGES:
            page = await client.get(f"{path}?lang={language}")
            assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
            assert TEXTS[key][language] in await page.text()


async def test_the_offline_pages_have_no_axe_violation_in_four_languages(live_server, phone_page):
    page = phone_page
    for language in LANGUAGES:
        for path in ("/offline", "/offline/saved"):
            await page.goto(f"{live_server}{path}?lang={language}")
            assert await page.get_attribute("html", "lang") == language
            await _fits_the_phone(page)
            await no_axe_violation(page)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_in_flight_mode_every_lesson_opens_and_the_quiz_counts_once_on_landing(
    live_server, db, browser, language
):
    texts = {key: text[language] for key, text in TEXTS.items()}
    rider = {"riderId": "R-9", "name": "Sara Ali", "market": "AE", "pin": "2468"}
    async with aiohttp.ClientSession(live_server, headers=API_KEY) as api:
        saved = await api.post("/api/v1/riders", json={"riders": [{**rider, "language": language}]})
        assert saved.status == 200
        course = await add_course(db, "Food safety", lessons=3)
        await assign(db, "R-9", await add_path(db, "Starter", [course]))
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await _sign_in(page, live_server, "R-9")
        await service_worker_controls(page)
        await _copy_kept(page, "R-9", 1 + 1 + 3 + 1)  # /training, the course, 3 lessons, quiz

        await context.set_offline(True)
        for lesson in (1, 2, 3):
            await page.goto(f"{live_server}/training/courses/{course}/lessons/{lesson}")
            assert await page.text_content("h1") == f"Lesson {lesson}"
            assert await page.text_content("#offline-line") == texts["offline_line"]
        await _fits_the_phone(page)
        await page.screenshot(path=SCREENSHOTS / f"rider-flight-mode-lesson-{language}.png")
        await page.goto(f"{live_server}/training/courses/{course}/quiz")
        await _answer_quiz(page)
        assert await page.text_content("h1") == texts["answers_saved_title"]
        waiting = texts["answers_waiting"].format(count=1)
        await _eventually(lambda: _text_is(page, "#answers-waiting", waiting), "the line")

        await context.set_offline(False)  # landed: the answer goes, and My training shows it
        await page.wait_for_url(f"{live_server}/training")
        await page.wait_for_selector("#answers-sent:visible")
        assert await page.text_content("#answers-sent") == texts["answers_sent"]
        await _eventually(lambda: _nothing_waits(page), "the answer is sent")
        completions = await (await api.get("/api/v1/completions")).json()
        (completion,) = completions["data"]
        assert completion["courseId"] == str(course) and completion["attempts"] == 1


async def test_answers_sent_on_reconnecting_are_told_with_the_new_results_in_place(
    live_server, db, browser
):
    ar = {key: text["ar"] for key, text in TEXTS.items()}
    t = translator("ar")
    rider = {"riderId": "R-5", "name": "Layla Hassan", "market": "AE", "pin": "2468"}
    async with aiohttp.ClientSession(live_server, headers=API_KEY) as api:
        saved = await api.post("/api/v1/riders", json={"riders": [{**rider, "language": "ar"}]})
        assert saved.status == 200
    first = await add_course(db, "Food safety")
    second = await add_course(db, "Road safety")
    await assign(db, "R-5", await add_path(db, "Starter", [first, second]))
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await _sign_in(page, live_server, "R-5")
    await service_worker_controls(page)
    await _copy_kept(page, "R-5", 1 + 2 * 4)
    # The path's title is English inside the Arabic page, marked so.
    assert await page.get_attribute("h3 span", "lang") == "en"
    assert await page.text_content("h3 span") == "Starter"

    # Offline: the first quiz is answered, then My training is the kept copy.
    await context.set_offline(True)
    await page.goto(f"{live_server}/training/courses/{first}/quiz")
    await _answer_quiz(page)
    assert await page.text_content("h1") == ar["answers_saved_title"]
    await page.goto(f"{live_server}/training")
    assert await page.is_visible("#offline-line")
    assert await page.text_content(".progress label") == t("progress", done=0, total=2)
    await page.evaluate("window.notReloaded = true")

    # Back online: the answer goes, and the same page says so and shows the new count.
    await context.set_offline(False)
    await page.wait_for_selector("#answers-sent:visible")
    assert await page.text_content("#answers-sent") == ar["answers_sent"]
    passed = t("progress", done=1, total=2)
    await _eventually(lambda: _text_is(page, ".progress label", passed), "the new count")
    assert await page.is_hidden("#offline-line")
    assert await page.evaluate("window.notReloaded") is True
    assert await page.get_attribute("a.badge", "href") is not None  # the course shows passed
    sql = "SELECT attempts FROM course_results WHERE rider_id = 'R-5' AND course_id = $1"
    assert await db.fetchval(sql, first) == 1
    await _fits_the_phone(page)
    await page.screenshot(path=SCREENSHOTS / "rider-answers-sent-ar-360.png", full_page=True)
    await no_axe_violation(page)

    # The second quiz offline; back online on the "saved" page: My training shows it.
    await _copy_kept(page, "R-5", 1 + 2 * 4)
    await context.set_offline(True)
    await page.goto(f"{live_server}/training/courses/{second}/quiz")
    await _answer_quiz(page)
    assert await page.text_content("h1") == ar["answers_saved_title"]
    await context.set_offline(False)
    await page.wait_for_url(f"{live_server}/training")
    await page.wait_for_selector("#answers-sent:visible")
    assert await page.is_visible(f"h2:text-is('{ar['finished_training']}')")
    assert await page.is_visible(f"p.notice:text-is('{ar['no_open_training']}')")
    assert await page.is_hidden("#offline-line")
