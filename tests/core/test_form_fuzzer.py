"""A form fuzzer (issue 23, item 5): every form of the panel's and the rider app's pages, found
by reading the pages as a browser gets them, is sent random and hostile values (with its
csrf_token, and once more without a session): no answer is a 5xx. 2,000 cases in all, from a
fixed seed so that a failure repeats."""

from __future__ import annotations

import random
import re
from urllib.parse import urlencode, urljoin

import aiohttp

from tests.admin.riders_data import add_riders
from tests.rider.rows import add_rider, course_for, signed_in
from tests.web import csrf_of

CASES = 2_000
SEED = 23

ADMIN_PAGES = [
    "/admin",
    "/admin/riders",
    "/admin/riders/R-1",
    "/admin/paths",
    "/admin/paths/new",
    "/admin/assign",
    "/admin/courses",
    "/admin/courses/new",
    "/admin/admins",
    "/admin/messages",
    "/admin/jobs",
    "/admin/import",
    "/admin/knowledge",
    "/admin/courses/generate",
]
RIDER_PAGES = ["/", "/training", "/training/assistant"]

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "9" * 5_000,
    "1e999",
    "NaN",
    "9999-12-31",
    "0000-00-00",
    "\x00",
    "\ud800",
    "\u202e\u0627\u0644",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%ff%fe",
    "R" * 3_000,
    "a@b",
    "on",
    "00000000-0000-0000-0000-000000000000",
]

# Upload names: plain, in other scripts, with folders, without an extension.
FILE_NAMES = ["riders.csv", "курс.pdf", "دورة.zip", "C:\\temp\\x.md", "../../x.txt", "noext"]

_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S | re.I)
_FIELD = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"", re.I)
_ATTRIBUTE = re.compile(r'(\w[\w-]*)="([^"]*)"')


# Not fuzzed: signing out (the rest would run signed out) and running a job now (a backup).
SKIPPED = re.compile(r"/sign-out$|/admin/jobs/")


def forms_of(page: str, url: str) -> list[dict]:
    found = []
    for attributes, body in _FORM.findall(page):
        attrs = dict(_ATTRIBUTE.findall(attributes))
        if SKIPPED.search(attrs.get("action", "")):
            continue
        found.append(
            {
                "method": attrs.get("method", "get").lower(),
                "action": urljoin(url, attrs.get("action", url).replace("&amp;", "&")),
                "multipart": "multipart" in attrs.get("enctype", ""),
                "fields": sorted(set(_FIELD.findall(body)) - {"csrf_token"}),
            }
        )
    return found


def value(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(HOSTILE)
    alphabet = "abcXYZ019 -_.,;:/\\?&=%#@+*'\"<>\t\n\u00e9\u0634\U0001f600"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))


def filled(form: dict, rng: random.Random) -> list[tuple[str, str]]:
    fields = [name for name in form["fields"] if rng.random() < 0.9]
    fields += [rng.choice(["q" + "9" * 50, "up_lesson_1", "extra", "lang"])]
    return [(name, value(rng)) for name in fields for _ in range(rng.choice([1, 1, 2]))]


async def _send(client, form: dict, data: list[tuple[str, str]], token: str | None, rng) -> int:
    path = form["action"]
    if form["method"] == "get":
        response = await client.get(path, params=data, allow_redirects=False)
    elif form["multipart"]:
        body = aiohttp.FormData(quote_fields=False)
        if token:
            body.add_field("csrf_token", token)
        for name, given in data:
            filename = rng.choice(FILE_NAMES)
            body.add_field(name, given.encode("utf-8", "surrogatepass"), filename=filename)
        response = await client.post(path, data=body, allow_redirects=False)
    else:
        items = ([("csrf_token", token)] if token else []) + data
        body = urlencode(items, errors="surrogatepass")  # a lone surrogate too, as bytes
        response = await client.post(
            path,
            data=body.encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            allow_redirects=False,
        )
    await response.read()
    return response.status


async def _forms(client, pages: list[str]) -> list[tuple[dict, str | None]]:
    found = []
    for path in pages:
        response = await client.get(path)
        page = await response.text()
        token = csrf_of(page) if 'name="csrf_token"' in page else None
        found += [(form, token) for form in forms_of(page, path)]
    return found


async def test_no_page_form_answers_a_5xx(admin_client, client, make_client, db):
    await add_riders(db)
    await add_rider(client, "R-9")
    course_id = await course_for(db, "R-9")
    rider = await signed_in(client, "R-9")
    admin_forms = await _forms(admin_client, ADMIN_PAGES)
    rider_forms = await _forms(
        rider,
        [*RIDER_PAGES, f"/training/courses/{course_id}", f"/training/courses/{course_id}/quiz"],
    )
    assert len(admin_forms) > 10 and len(rider_forms) >= 2
    stranger = await make_client()
    everyone = [(admin_client, admin_forms), (rider, rider_forms), (stranger, admin_forms)]
    rng = random.Random(SEED)
    failures = []
    for case in range(CASES):
        who, forms = everyone[case % len(everyone)]
        form, token = rng.choice(forms)
        data = filled(form, rng)
        status = await _send(who, form, data, token if rng.random() < 0.9 else None, rng)
        if status >= 500:
            failures.append((form["method"], form["action"], data[:3], status))
    assert failures == []
