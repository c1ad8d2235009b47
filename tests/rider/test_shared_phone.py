"""Shared phones (docs/rider-offline.md, "Shared phones"): a phone passed between riders keeps each
rider's training to that rider. The server's part through the test client (the `rider_key`
cookie, a session ended by the server or marked signed out on the phone, answers of another
rider refused); then two riders on one phone in Debian's Chromium (one browser context is one
phone), online, offline (`set_offline`) and on a slow network (a route that holds every page
past the worker's 3 s)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from http.cookies import SimpleCookie

import aiohttp
import pytest

from app.core.sessions import RIDER
from app.messaging.links import one_tap_link
from app.rider.guard import KEY_COOKIE, SIGNED_OUT, rider_key
from app.rider.texts import TEXTS
from tests.conftest import TEST_KEYS, make_settings
from tests.rider.rows import (
    API_KEY,
    RIGHT,
    add_course,
    add_path,
    add_rider,
    assign,
    course_for,
    form,
    sign_in,
    signed_in,
)
from tests.rider.test_browser import SCREENSHOTS, _fits_the_phone
from tests.rider.test_offline import (
    WAITING,
    _answer_quiz,
    _copy_kept,
    _eventually,
    _kept_is,
    _sign_in,
    key_of,
)
from tests.web import PHONE, service_worker_controls

SECRET = TEST_KEYS["SESSION_SECRET"]
WEEK = 7 * 24 * 3600
SESSIONS = "SELECT count(*) FROM web_sessions WHERE rider_id = $1"


def _set_cookies(response) -> dict[str, SimpleCookie]:
    """The response's Set-Cookie headers by cookie name."""
    cookies = {}
    for header in response.headers.getall("Set-Cookie", []):
        for name, morsel in SimpleCookie(header).items():
            cookies[name] = morsel
    return cookies


def _phone_key(client, value: str | None) -> None:
    """The client's rider_key cookie, as a worker or a server left it (None: none)."""
    client.session.cookie_jar.clear(lambda cookie: cookie.key == KEY_COOKIE)
    if value is not None:
        client.session.cookie_jar.update_cookies({KEY_COOKIE: value}, client.make_url("/"))


def _cleared(morsel) -> bool:
    return morsel.value == "" and morsel["max-age"] == "0"


# ---- the server's part


async def test_sign_in_gives_the_phone_an_opaque_key_of_the_rider(client, db):
    await add_rider(client, "R-1", name="Amal Haddad")
    await add_rider(client, "R-2", name="Bilal Khan")
    response = await sign_in(client, "R-1")
    assert response.status == 303
    key = _set_cookies(response)[KEY_COOKIE]
    # Readable by the service worker, as long-lived as the session, sent only to this site.
    assert not key["httponly"] and key["path"] == "/" and key["samesite"] == "Lax"
    assert int(key["max-age"]) == WEEK
    assert len(key.value) == 32 and int(key.value, 16) >= 0
    assert key.value == rider_key(SECRET, "R-1")
    assert "R-1" not in key.value and "Amal" not in key.value
    # The same rider has the same key in every session; another rider, or another secret,
    # another key.
    again = await sign_in(client, "R-1")
    assert _set_cookies(again)[KEY_COOKIE].value == key.value
    assert rider_key(SECRET, "R-2") != key.value
    assert rider_key("another-secret-0123456789", "R-1") != key.value
    # The page says it too: the worker keeps the copy under that key, the quiz form marks the
    # answers with it.
    course_id = await course_for(db, "R-1")
    quiz = await (await client.get(f"/training/courses/{course_id}/quiz")).text()
    assert f'<meta name="rider" content="{key.value}">' in quiz
    assert f'<input type="hidden" name="rider_key" value="{key.value}">' in quiz


async def test_the_key_alone_signs_no_one_in(client):
    await add_rider(client, "R-1")
    _phone_key(client, rider_key(SECRET, "R-1"))
    response = await client.get("/training", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/"


async def test_a_one_tap_link_gives_the_phone_the_key(client, db):
    await add_rider(client, "R-1")
    link = one_tap_link(make_settings(), "R-1", datetime.now(UTC))
    response = await client.get(link[link.index("/t/") :], allow_redirects=False)
    assert response.status == 303
    assert _set_cookies(response)[KEY_COOKIE].value == rider_key(SECRET, "R-1")


async def test_sign_out_removes_both_cookies(client):
    await add_rider(client, "R-1")
    rider = await signed_in(client, "R-1")
    response = await rider.submit("/sign-out", {}, form_page="/training")
    assert response.status == 303
    cookies = _set_cookies(response)
    assert _cleared(cookies[KEY_COOKIE]) and _cleared(cookies[RIDER.cookie])


async def _end_by_pin(client, db):
    await add_rider(client, "R-1", pin="9753")


async def _end_by_revoking_links(client, db):
    from app.messaging.links import revoke_links

    assert await revoke_links(db, "R-1")


@pytest.mark.parametrize(
    "end",
    [
        lambda client, db: db.execute("DELETE FROM web_sessions WHERE rider_id = 'R-1'"),
        lambda client, db: db.execute(
            "UPDATE web_sessions SET expires_at = now() - interval '1 second'"
        ),
        _end_by_pin,
        _end_by_revoking_links,
    ],
    ids=["revoked", "expired", "new PIN", "links revoked"],
)
async def test_a_session_the_server_ended_leaves_the_phone_without_its_cookies(client, db, end):
    await add_rider(client, "R-1")
    await signed_in(client, "R-1")
    await end(client, db)
    response = await client.get("/training", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/"
    cookies = _set_cookies(response)
    assert _cleared(cookies[KEY_COOKIE]) and _cleared(cookies[RIDER.cookie])


async def test_a_phone_marked_signed_out_ends_its_session_at_the_next_request(client, db):
    await add_rider(client, "R-1")
    rider = await signed_in(client, "R-1")
    course_id = await course_for(db, "R-1")
    # What the worker writes at a sign-out made offline; the request that reaches the server
    # first, through the worker or not, is any page (here a quiz answer).
    _phone_key(client, SIGNED_OUT)
    response = await client.post(
        f"/training/courses/{course_id}/quiz", data=form(RIGHT), allow_redirects=False
    )
    assert response.status == 303 and response.headers["Location"] == "/"
    assert _cleared(_set_cookies(response)[RIDER.cookie])
    assert await db.fetchval(SESSIONS, "R-1") == 0
    assert await db.fetchval("SELECT count(*) FROM course_results") == 0
    assert (await rider.get("/training", allow_redirects=False)).status == 303


async def test_a_session_without_the_key_gets_it_back(client):
    await add_rider(client, "R-1")
    await add_rider(client, "R-2")
    await signed_in(client, "R-1")
    # A session from before the cookie, or a key of another rider (SESSION_SECRET changed):
    # the page is shown and the phone is given the session's key.
    for phone_key in (None, rider_key(SECRET, "R-2")):
        _phone_key(client, phone_key)
        response = await client.get("/training", allow_redirects=False)
        assert response.status == 200
        key = _set_cookies(response)[KEY_COOKIE]
        assert key.value == rider_key(SECRET, "R-1")
        assert WEEK - 60 < int(key["max-age"]) <= WEEK
    # With the right key the page sets no cookie.
    assert KEY_COOKIE not in _set_cookies(await client.get("/training"))


async def test_answers_marked_for_another_rider_are_refused_and_nothing_is_stored(client, db):
    await add_rider(client, "R-1", name="Amal Haddad")
    await add_rider(client, "R-2", name="Bilal Khan", language="ar")
    course_id = await course_for(db, "R-2")
    rider = await signed_in(client, "R-2")
    quiz = f"/training/courses/{course_id}/quiz"
    answers = [*form(RIGHT), ("attempt_id", "0b6f3c1e-2f55-4d8e-9a51-3b2f2c7d9e10")]
    refused = await rider.submit(quiz, [*answers, ("rider_key", rider_key(SECRET, "R-1"))])
    assert refused.status == 409
    page = await refused.text()
    assert TEXTS["answers_not_yours"]["ar"] in page
    # (The quiz page was opened for its form: a view, no attempt.)
    assert await db.fetchval("SELECT sum(attempts) FROM course_results") == 0
    assert await db.fetchval("SELECT count(*) FROM quiz_attempt_ids") == 0
    # The same answers marked with the session's own key, or unmarked (scripts), count.
    own = await rider.submit(quiz, [*answers, ("rider_key", rider_key(SECRET, "R-2"))])
    assert own.status == 200
    unmarked = await rider.submit(quiz, form(RIGHT))
    assert unmarked.status == 200
    rows = await db.fetch("SELECT rider_id, attempts FROM course_results")
    assert [tuple(row) for row in rows] == [("R-2", 2)]


# ---- two riders, one phone

# Every URL Cache Storage holds, by cache.
CACHED = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map(request => new URL(request.url).pathname);
  }
  return kept;
}"""
# What the worker answers to "send": the answers waiting, by rider key, once it has tried.
SEND = """() => new Promise(async resolve => {
  const worker = (await navigator.serviceWorker.ready).active;
  const channel = new MessageChannel();
  channel.port1.onmessage = event => resolve(event.data.waiting);
  worker.postMessage({type: 'send'}, [channel.port2]);
})"""
PIN = "2468"


class Network:
    """The phone's network as a route of the browser context (the pages' and the worker's
    requests): `slow` holds every request but static files past the worker's wait; `log`
    lists the requests that left, each with the rider's live sessions when it left."""

    def __init__(self, db, rider_id: str):
        self.slow = False
        self.log: list[tuple[str, str, int]] | None = None
        self._db = db
        self._rider_id = rider_id
        self._reading = asyncio.Lock()  # one statement at a time on the test's connection

    async def route(self, route):
        request = route.request
        path = request.url.split("//", 1)[1].partition("/")[2]
        if self.log is not None:
            entry = len(self.log)
            self.log.append((request.method, f"/{path}", -1))
            async with self._reading:
                sessions = await self._db.fetchval(SESSIONS, self._rider_id)
            self.log[entry] = (request.method, f"/{path}", sessions)
        if self.slow and not path.startswith(("static/", "manifest")):
            await asyncio.sleep(4)
        await route.continue_()


class Documents:
    """Every page the phone showed (the server's or the worker's), from `watch()` on."""

    def __init__(self, page):
        self.shown: list[str] = []
        self._watching = False
        page.on("response", self._seen)

    def watch(self, watching: bool = True):
        self._watching = watching

    async def _seen(self, response):
        if self._watching and response.request.resource_type == "document":
            if response.status < 300 or response.status >= 400:
                self.shown.append(await response.text())


async def _phone_sign_in(page, base: str, rider_id: str) -> None:
    """Sign in on a network of any speed."""
    await page.goto(f"{base}/")
    await page.fill("#rider_id", rider_id)
    await page.fill("#pin", PIN)
    await page.click("main button[type=submit]")
    await page.wait_for_url(f"{base}/training")


async def _sign_out(page) -> None:
    await page.click(".topbar button[type=submit]")


async def _no_rider_copy(page) -> bool:
    cached = await page.evaluate(CACHED)
    return not any(
        name.startswith("rider-") or any(path.startswith("/training") for path in paths)
        for name, paths in cached.items()
    )


async def _waiting(page) -> list[dict]:
    return await page.evaluate(WAITING)


async def test_two_riders_share_one_phone(live_server, db, browser):
    base = live_server
    a_texts = {
        "name": "Amal Haddad",
        "path": "Night deliveries",
        "courses": ("Night riding", "Cold chain"),
    }
    ar = {key: text["ar"] for key, text in TEXTS.items()}
    async with aiohttp.ClientSession(base, headers=API_KEY) as api:
        riders = [
            {"riderId": "R-1", "name": a_texts["name"], "market": "AE", "pin": PIN},
            {"riderId": "R-2", "name": "Bilal Khan", "market": "AE", "pin": PIN, "language": "ar"},
        ]
        assert (await api.post("/api/v1/riders", json={"riders": riders})).status == 200
    a_first = await add_course(db, a_texts["courses"][0])
    a_second = await add_course(db, a_texts["courses"][1])
    await assign(db, "R-1", await add_path(db, a_texts["path"], [a_first, a_second]))
    b_course = await add_course(db, "Road safety")
    await assign(db, "R-2", await add_path(db, "Starter", [b_course]))
    a_pages = 1 + 2 * 4  # /training, and each course's page, 2 lessons and quiz
    b_pages = 1 + 4

    context = await browser.new_context(viewport=PHONE)
    network = Network(db, "R-1")
    await context.route("**/*", network.route)
    page = await context.new_page()
    documents = Documents(page)

    # Rider A signs in, passes a course (a proof link on /training), opens the other: kept.
    await _sign_in(page, base, "R-1")
    await service_worker_controls(page)
    await page.goto(f"{base}/training/courses/{a_first}/quiz")
    await _answer_quiz(page)
    proof = await page.get_attribute("a[href^='/training/proofs/']", "href")
    await page.goto(f"{base}/training")
    assert await page.is_visible(f"a[href='{proof}']")
    await _copy_kept(page, "R-1", a_pages)
    await page.goto(f"{base}/training/courses/{a_second}")
    await _sign_out(page)
    await page.wait_for_url(f"{base}/")
    # None of A's pages stay on the phone, nor the key.
    assert await _no_rider_copy(page)
    assert KEY_COOKIE not in {cookie["name"] for cookie in await context.cookies()}

    # Rider B signs in: online, offline and on a slow network, never a page of A's.
    documents.watch()
    await _sign_in(page, base, "R-2")
    await _copy_kept(page, "R-2", b_pages)
    await context.set_offline(True)
    await page.goto(f"{base}/training")
    assert await page.is_visible("#offline-line")
    assert await page.text_content("h1") == ar["hello"].format(name="Bilal Khan")
    for address in (f"/training/courses/{a_second}", proof):
        await page.goto(f"{base}{address}")
        assert await page.text_content("h1") == ar["offline_title"]
    await _fits_the_phone(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=SCREENSHOTS / "rider-shared-phone-offline-ar-360.png")
    await context.set_offline(False)
    network.slow = True
    await page.goto(f"{base}/training")  # B's own copy after the worker's wait
    assert await page.is_visible("#offline-line")
    await page.goto(f"{base}/training/courses/{a_second}")  # not B's: the server's 404
    assert await page.text_content("h1") != a_texts["courses"][1]
    network.slow = False
    await page.goto(f"{base}/training")
    await _sign_out(page)
    await page.wait_for_url(f"{base}/?lang=ar")  # B reads Arabic: the sign-in page too
    documents.watch(False)

    # A signs in again and leaves without signing out; B signs in over A's session on a slow
    # network: B waits for the server, A's copy is neither shown nor left.
    await _sign_in(page, base, "R-1")
    await _copy_kept(page, "R-1", a_pages)
    documents.watch()
    network.slow = True
    await _phone_sign_in(page, base, "R-2")
    assert await page.text_content("h1") == ar["hello"].format(name="Bilal Khan")
    network.slow = False
    await _copy_kept(page, "R-2", b_pages)
    documents.watch(False)
    for shown in documents.shown:
        assert a_texts["name"] not in shown and a_texts["path"] not in shown
        assert proof not in shown and not any(title in shown for title in a_texts["courses"])
    # The pages B saw were read, the worker's kept ones too (their offline line shown).
    assert any('<p id="offline-line" class' in shown for shown in documents.shown)

    # A's session ends at the server (it expires) while A's copy is on the phone: on a slow
    # network the server's answer replaces the copy and removes it; offline nothing of A's.
    await _sign_out(page)
    await page.wait_for_url(f"{base}/?lang=ar")
    await _sign_in(page, base, "R-1")
    await _copy_kept(page, "R-1", a_pages)
    await db.execute("UPDATE web_sessions SET expires_at = now() WHERE rider_id = 'R-1'")
    network.slow = True
    await page.goto(f"{base}/training")
    await page.wait_for_url(f"{base}/")
    network.slow = False
    await _eventually(lambda: _no_rider_copy(page), "A's copy removed")
    await context.set_offline(True)
    await page.goto(f"{base}/training")
    assert await page.text_content("h1") == TEXTS["offline_title"]["en"]
    assert a_texts["name"] not in await page.content()
    await context.set_offline(False)
    # Revoked the same.
    await _sign_in(page, base, "R-1")
    await _copy_kept(page, "R-1", a_pages)
    await db.execute("DELETE FROM web_sessions WHERE rider_id = 'R-1'")
    await page.goto(f"{base}/training")
    assert page.url == f"{base}/"
    await _eventually(lambda: _no_rider_copy(page), "A's copy removed")
    await context.set_offline(True)
    await page.goto(f"{base}/training")
    assert await page.text_content("h1") == TEXTS["offline_title"]["en"]
    await context.set_offline(False)

    # A answers a quiz offline and signs out offline: the copy goes at once, the phone's key
    # says signed out, and the session ends at the server before any other request once the
    # phone is back online. A's answer stays on the phone, for A.
    await _sign_in(page, base, "R-1")
    await _copy_kept(page, "R-1", a_pages)
    await context.set_offline(True)
    await page.goto(f"{base}/training/courses/{a_second}/quiz")
    await _answer_quiz(page)
    await page.goto(f"{base}/training")
    page.once("dialog", lambda dialog: dialog.accept())
    await _sign_out(page)
    await page.wait_for_selector(f"h1:text-is('{TEXTS['offline_title']['en']}')")
    assert await _no_rider_copy(page)
    cookies = {cookie["name"]: cookie["value"] for cookie in await context.cookies()}
    assert cookies[KEY_COOKIE] == SIGNED_OUT
    assert await db.fetchval(SESSIONS, "R-1") == 1
    network.log = []
    await context.set_offline(False)
    await page.goto(f"{base}/")
    # (The browser fetches the page's icon itself, not through the worker: a static file.)
    (first, after, *_) = [entry for entry in network.log if not entry[1].startswith("/static/")]
    network.log = None
    assert first == ("POST", "/sign-out", 1)
    assert after[2] == 0  # the session had ended when the next request left
    await page.goto(f"{base}/training")
    assert page.url == f"{base}/"
    (kept,) = await _waiting(page)
    assert kept["rider"] == key_of("R-1")

    # B signs in: A's answer is not sent under B's session. B answers offline: B's attempt.
    await _sign_in(page, base, "R-2")
    await _copy_kept(page, "R-2", b_pages)
    assert await page.evaluate(SEND) == {key_of("R-1"): 1}
    assert await page.is_hidden("#answers-waiting")  # B's pages count B's answers only
    await context.set_offline(True)
    await page.goto(f"{base}/training/courses/{b_course}/quiz")
    await _answer_quiz(page)
    assert await page.text_content("h1") == ar["answers_saved_title"]
    assert {answer["rider"] for answer in await _waiting(page)} == {key_of("R-1"), key_of("R-2")}
    await context.set_offline(False)
    # B's answer goes, and the "saved" page goes on to B's training, which says so.
    await page.wait_for_url(f"{base}/training")
    await page.wait_for_selector("#answers-sent:visible")
    await _eventually(lambda: _only_a_waits(page), "B's answer sent")
    attempts = await db.fetch("SELECT rider_id, course_id FROM quiz_attempt_ids ORDER BY 1")
    assert [tuple(row) for row in attempts] == [("R-1", a_first), ("R-2", b_course)]
    results = "SELECT attempts FROM course_results WHERE rider_id = $1 AND course_id = $2"
    assert await db.fetchval(results, "R-2", b_course) == 1
    assert await db.fetchval(results, "R-1", a_second) == 0

    # B signs out: nothing of either rider's training stays in Cache Storage.
    await _sign_out(page)
    await page.wait_for_url(f"{base}/?lang=ar")
    assert await _no_rider_copy(page)
    assert await _kept_is(page, {})


async def _only_a_waits(page) -> bool:
    return [answer["rider"] for answer in await _waiting(page)] == [key_of("R-1")]


async def test_no_session_means_no_kept_page(live_server, db, browser):
    """A phone whose cookies were cleared (the browser's own settings, a session cookie
    lost): the worker shows no kept page, not even after its wait on a slow network."""
    async with aiohttp.ClientSession(live_server, headers=API_KEY) as api:
        rider = {"riderId": "R-1", "name": "Amal Haddad", "market": "AE", "pin": PIN}
        assert (await api.post("/api/v1/riders", json={"riders": [rider]})).status == 200
    await course_for(db, "R-1", title="Night riding")
    context = await browser.new_context(viewport=PHONE)
    network = Network(db, "R-1")
    await context.route("**/*", network.route)
    page = await context.new_page()
    await _sign_in(page, live_server, "R-1")
    await service_worker_controls(page)
    await _copy_kept(page, "R-1", 1 + 4)
    await context.clear_cookies()
    network.slow = True
    await page.goto(f"{live_server}/training")  # the server's answer: sign in
    assert page.url == f"{live_server}/"
    network.slow = False
    assert await _no_rider_copy(page)
    await context.set_offline(True)
    await page.goto(f"{live_server}/training")
    assert await page.text_content("h1") == TEXTS["offline_title"]["en"]
