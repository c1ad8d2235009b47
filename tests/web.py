"""Fixtures for web pages: admins, a signed-in admin client, a live server and a browser.

Imported by tests/conftest.py, so every test can ask for them by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

from app.admin import accounts
from app.core import database, passwords
from tests.waiting import until

CHROMIUM = "/usr/bin/chromium"
# The longest a browser context may take to close after its test.
CLOSE_SECONDS = 30
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(page: str) -> str:
    """The csrf_token of the first form on an HTML page."""
    found = _CSRF.search(page)
    assert found, "the page has no form with a csrf_token"
    return found.group(1)


@dataclass(frozen=True)
class AdminAccount:
    admin_id: int
    email: str
    name: str
    password: str


# One argon2 hash a password for the run: a hash costs about 0.2 s of CPU and a few hundred
# tests make an admin. Each is a real hash of the service's hasher; the admins made with one
# password share its salt. Signing in still verifies it as it would any other.
_HASHES: dict[str, str] = {}


async def _kept_hash(password: str) -> str:
    if password not in _HASHES:
        _HASHES[password] = await passwords.hash_password(password)
    return _HASHES[password]


@pytest.fixture
def make_admin(database_url):
    """`await make_admin(email=..., password=..., name=..., disabled=False, role="owner",
    markets=())`: an admin in the test database (an owner of every market unless told)."""

    async def make(
        email="ada@example.com",
        password="correct horse battery",
        name="Ada Admin",
        disabled=False,
        role="owner",
        markets=(),
    ) -> AdminAccount:
        async with database.connect(database_url) as conn:
            with mock.patch.object(accounts, "hash_password", _kept_hash):
                await accounts.create_or_reset(
                    conn, email, name, password, role=role, markets=list(markets)
                )
            admin_id = await conn.fetchval(
                "SELECT admin_id FROM admins WHERE lower(email) = lower($1)", email
            )
            if disabled:
                await conn.execute(
                    "UPDATE admins SET disabled_at = now() WHERE admin_id = $1", admin_id
                )
        return AdminAccount(admin_id, email, name, password)

    return make


class PageClient:
    """A pytest-aiohttp client with form helpers; every other attribute is the client's."""

    def __init__(self, client):
        self.client = client

    def __getattr__(self, name):
        return getattr(self.client, name)

    async def csrf(self, path: str) -> str:
        """The csrf_token of the page at `path`."""
        response = await self.client.get(path)
        assert response.status == 200, (path, response.status)
        return csrf_of(await response.text())

    async def text(self, path: str) -> str:
        """The page at `path` (200), as text: a redirect's page, with its one-time notice."""
        response = await self.client.get(path)
        assert response.status == 200, (path, response.status)
        return await response.text()

    async def submit(self, path: str, data: dict | list, *, form_page: str | None = None):
        """POST a form to `path` with the csrf_token read from `form_page` (default: `path`
        itself); redirects are not followed, so a 303 can be checked."""
        token = await self.csrf(form_page or path)
        items = list(data.items()) if isinstance(data, dict) else list(data)
        return await self.client.post(
            path, data=[*items, ("csrf_token", token)], allow_redirects=False
        )


async def confirm_page(client, address: str, action: str) -> str:
    """A risky action's confirm page at `address`: 200, with a form that POSTs to `action`
    with the CSRF token; its text."""
    response = await client.get(address)
    assert response.status == 200, (address, response.status)
    page = await response.text()
    assert f'<form method="post" action="{action}">' in page and 'name="csrf_token"' in page
    return page


async def sign_in(client, account: AdminAccount):
    return await PageClient(client).submit(
        "/admin/sign-in", {"email": account.email, "password": account.password}
    )


@pytest.fixture
async def page_client(client) -> PageClient:
    """The app's client, not signed in, with the form helpers."""
    return PageClient(client)


@pytest.fixture
async def admin_client(client, make_admin) -> PageClient:
    """A client signed in as an admin (`admin_client.admin` is the AdminAccount)."""
    account = await make_admin()
    response = await sign_in(client, account)
    assert response.status == 303, await response.text()
    signed_in = PageClient(client)
    signed_in.admin = account
    return signed_in


@pytest.fixture
async def live_server(aiohttp_server, database_url):
    """The app served on 127.0.0.1 on a free port; the value is its base URL (no slash)."""
    from app.web import create_app
    from tests.conftest import make_settings

    server = await aiohttp_server(create_app(make_settings(), database_url))
    return str(server.make_url("")).rstrip("/")


@pytest.fixture(scope="session")
async def chromium():
    """Debian's Chromium driven by Playwright (its own browser download is not reachable): one
    for the whole run, as starting it costs seconds; tests use it through `browser`."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        # An abandoned context may hold the close too; leaving the block ends the driver and it.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(launched.close(), CLOSE_SECONDS)


@pytest.fixture
async def browser(chromium):
    """The run's Chromium, for one test: each test opens contexts of its own (cookies,
    storage, service workers), and any it leaves open are closed after it, so no test sees
    another's. Closing is also done before, for a test cut short before its teardown (a
    timeout): its failure is its own, never a cascade into every browser test after it."""
    await _close_contexts(chromium)
    yield chromium
    await _close_contexts(chromium)


# Contexts whose close hung: Chromium can fail to answer the close of a context whose service
# worker is being fetched (a teardown of 10 minutes was seen), so one that did not close in
# time is left to the browser's exit instead of costing every later test the wait again.
_abandoned: set = set()


async def _close_contexts(chromium) -> None:
    for context in list(chromium.contexts):
        if context in _abandoned:
            continue
        try:
            await asyncio.wait_for(context.close(), CLOSE_SECONDS)
        except TimeoutError:
            _abandoned.add(context)
        except Exception:  # already closing, or its page crashed
            pass


@pytest.fixture
async def phone_page(browser):
    """A page in a 360x740 phone window (its context closed by `browser`)."""
    context = await browser.new_context(viewport=PHONE)
    return await context.new_page()


@pytest.fixture(scope="session")
def screenshot_dir():
    """Screenshots of the browser tests, kept for a person to look at (path printed)."""
    folder = Path(tempfile.mkdtemp(prefix="rider-ops-screens-"))
    yield folder
    print(f"\nscreenshots: {folder}")
    if not any(folder.iterdir()):
        shutil.rmtree(folder, ignore_errors=True)


async def no_axe_violation(page) -> None:
    """axe-core's WCAG checks on the page as it is now (its viewport included)."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    width = page.viewport_size["width"]
    assert results.violations_count == 0, f"{page.url} at {width} px\n{results.generate_report()}"


async def sign_in_page(page, base_url: str, email: str, password: str) -> None:
    """Sign in to the panel in the browser, as a person does on the sign-in page."""
    await page.goto(f"{base_url}/admin/sign-in")
    await page.fill("#email", email)
    await page.fill("#password", password)
    await page.click("button[type=submit]")
    assert page.url == f"{base_url}/admin", page.url


async def fill_new_course(
    page, *, title: str, lessons: list[tuple[str, str]], question: str, options: list[str]
) -> None:
    """From the panel's navigation, open a new course and fill it (not saved yet): the lessons
    (title, Markdown body), one quiz question whose first option is the correct one, a pass
    mark of 100, Published ticked."""
    await page.click("nav >> text=Courses")
    await page.click("text=New course")
    await page.fill("#title", title)
    await page.fill("#pass_mark", "100")
    for index, (lesson_title, body) in enumerate(lessons):
        await page.fill(f"#lesson_title_{index}", lesson_title)
        await page.fill(f"#lesson_body_{index}", body)
    await page.fill("#question_0", question)
    for index, option in enumerate(options):
        await page.fill(f"#option_0_{index}", option)
    await page.check("input[name=correct_0][value='0']")
    await page.check("#published")


async def service_worker_controls(page) -> None:
    """Wait until the rider app's service worker controls `page`. Polled from here, not with
    `page.wait_for_function`: its in-page polling evaluates a string, which the pages' CSP
    (no 'unsafe-eval') refuses whenever the first check is not already true."""
    await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not await page.evaluate("navigator.serviceWorker.controller !== null"):
        # The worker claimed its clients while this page's navigation was under way: the
        # document that came of it is controlled only from its next load, as for a person.
        await page.reload()
    await until(
        lambda: page.evaluate("navigator.serviceWorker.controller !== null"),
        "the service worker controls the page",
        seconds=60,
    )
