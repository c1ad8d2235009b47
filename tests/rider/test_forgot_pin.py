""" "Forgot your PIN?": a new PIN by message to the rider's stored phone, in the rider's
language, valid beside the old one until its first use; one answer whatever the ID; limited per
rider (whatever the address), per address (an IPv6 /64), in parallel and across instances."""

from __future__ import annotations

import asyncio
import re
import time

from app.web import create_app
from tests.conftest import make_settings
from tests.messaging.fake_provider import fake_provider  # noqa: F401 (a fixture)
from tests.rider.rows import add_rider, save_riders, sign_in
from tests.web import PageClient

ASKED = "If this rider ID belongs to an active rider, a new PIN is on its way"
PHONE = "+971501234567"


async def ask(client, rider_id: str, headers=None, **extra):
    token = await PageClient(client).csrf("/forgot-pin")
    response = await client.post(
        "/forgot-pin",
        data={"rider_id": rider_id, "csrf_token": token, **extra},
        headers=headers,
        allow_redirects=False,
    )
    return response.status, await response.text()


async def _messages(db, wanted: int = 1):
    """The recorded new-PIN messages, once `wanted` are there (the send follows the answer)."""
    deadline = time.monotonic() + 20
    while True:
        rows = await db.fetch(
            "SELECT rider_id, status, body, link FROM messages WHERE kind = 'pin_reset'"
            " ORDER BY message_id"
        )
        if len(rows) >= wanted:
            return rows
        assert time.monotonic() < deadline, f"{len(rows)} of {wanted} messages recorded"
        await asyncio.sleep(0.05)


def _pin_in(text: str) -> str:
    return re.search(r"\b([0-9]{6})\b", text).group(1)


async def test_the_sign_in_page_links_to_the_form_in_its_language(client):
    page = await (await client.get("/?lang=ar")).text()
    assert '<a href="/forgot-pin?lang=ar">نسيت الرمز السري؟</a>' in page
    form = await (await client.get("/forgot-pin?lang=ar")).text()
    assert '<html lang="ar" dir="rtl">' in form
    assert 'name="rider_id"' in form and 'name="lang" value="ar"' in form
    assert "pin" not in re.findall(r'name="(\w+)"', form)
    assert '<a href="/?lang=ar">العودة إلى تسجيل الدخول</a>' in form


async def test_a_new_pin_goes_to_the_stored_phone_in_the_riders_language(
    make_client,
    db,
    fake_provider,  # noqa: F811
):
    client = await make_client(**fake_provider.env)
    await add_rider(client, "R-1", phone=PHONE, language="ar")
    status, page = await ask(client, "R-1")
    assert status == 200 and ASKED in page
    assert PHONE not in page and PHONE[1:] not in page  # the phone is never shown
    [row] = await _messages(db)
    [request] = fake_provider.requests
    assert request["json"]["to"] == PHONE[1:]
    sent = request["json"]["text"]["body"]
    assert sent.startswith("تدريب السائقين: رمزك السري الجديد هو ")
    pin = _pin_in(sent)
    # Recorded for the team without the PIN: the list signs no one in.
    assert row["status"] == "sent" and row["rider_id"] == "R-1"
    assert pin not in row["body"] and "******" in row["body"]
    assert row["link"].endswith("/?lang=ar")


async def test_the_old_pin_works_until_the_new_one_is_used_then_only_the_new_one(
    make_client,
    db,
    fake_provider,  # noqa: F811
):
    client = await make_client(**fake_provider.env)
    await add_rider(client, "R-1", phone=PHONE)
    assert (await sign_in(client)).status == 303  # a session of the old PIN
    client.session.cookie_jar.clear()
    await ask(client, "r-1")  # the ID as sign-in finds it, whatever its case
    await _messages(db)
    pin = _pin_in(fake_provider.requests[0]["json"]["text"]["body"])
    assert (await sign_in(client, "R-1", "1234")).status == 303  # the old PIN still works
    client.session.cookie_jar.clear()
    assert (await sign_in(client, "R-1", pin)).status == 303  # the new one too: now the PIN
    assert await db.fetchval("SELECT count(*) FROM web_sessions WHERE rider_id = 'R-1'") == 1
    client.session.cookie_jar.clear()
    assert (await sign_in(client, "R-1", "1234")).status == 401
    assert (await sign_in(client, "R-1", pin)).status == 303
    assert await db.fetchval("SELECT count(*) FROM pin_resets") == 0


async def test_a_new_pin_stops_working_after_a_day_or_once_the_pin_changed(
    make_client,
    db,
    fake_provider,  # noqa: F811
):
    client = await make_client(**fake_provider.env)
    await add_rider(client, "R-1", phone=PHONE)
    await ask(client, "R-1")
    await _messages(db)
    pin = _pin_in(fake_provider.requests[0]["json"]["text"]["body"])
    await db.execute("UPDATE pin_resets SET expires_at = now() - interval '1 second'")
    assert (await sign_in(client, "R-1", pin)).status == 401
    await db.execute("UPDATE pin_resets SET expires_at = now() + interval '1 day'")
    await add_rider(client, "R-1", phone=PHONE, pin="5678")  # the team sets another PIN
    assert (await sign_in(client, "R-1", pin)).status == 401
    assert (await sign_in(client, "R-1", "5678")).status == 303


async def test_an_unknown_an_inactive_or_a_phoneless_rider_gets_the_same_answer_and_nothing(
    make_client,
    db,
    fake_provider,  # noqa: F811
):
    client = await make_client(**fake_provider.env)
    await add_rider(client, "R-1", phone=PHONE, status="inactive")
    await save_riders(client, {"riderId": "R-2", "name": "No Phone", "market": "AE", "pin": "1234"})
    await add_rider(client, "R-3", phone=PHONE)
    known = await ask(client, "R-3")
    for rider_id in ("R-404", "R-1", "R-2", "x" * 300):
        assert await ask(client, rider_id) == known, rider_id
    [row] = await _messages(db)
    assert row["rider_id"] == "R-3"
    assert await db.fetchval("SELECT array_agg(rider_id) FROM pin_resets") == ["R-3"]


async def test_not_connected_the_request_is_recorded_for_the_team_without_the_pin(client, db):
    await add_rider(client, "R-1", phone=PHONE, language="ur")
    status, page = await ask(client, "R-1")
    assert status == 200 and ASKED in page
    [row] = await _messages(db)
    assert row["status"] == "logged"
    assert row["body"].startswith("رائیڈر ٹریننگ: آپ کا نیا پن ****** ہے۔")
    assert not re.search(r"[0-9]{6}", row["body"])


async def test_a_missing_id_is_asked_for_again(client):
    status, page = await ask(client, " ", lang="ku")
    assert status == 400
    assert "ئەم خانەیە پێویستە." in page and '<html lang="ku" dir="rtl">' in page


async def test_three_requests_per_rider_even_in_parallel_then_429(client, db):
    await add_rider(client, "R-1", phone=PHONE)
    token = await PageClient(client).csrf("/forgot-pin")

    async def one(rider_id):
        data = {"rider_id": rider_id, "csrf_token": token}
        response = await client.post("/forgot-pin", data=data)
        return response.status, await response.text()

    answers = await asyncio.gather(*(one("R-1" if n % 2 else "r-1") for n in range(12)))
    statuses = [status for status, _ in answers]
    assert statuses.count(200) == 3 and statuses.count(429) == 9
    refused = next(page for status, page in answers if status == 429)
    assert "Too many requests for a new PIN. Try again in 15 minutes." in refused
    assert len(await _messages(db, 3)) == 3


async def test_at_most_three_new_pins_a_rider_a_day(client, db):
    await add_rider(client, "R-1", phone=PHONE)
    for _ in range(3):
        await ask(client, "R-1")
    await _messages(db, 3)
    kept = await db.fetchval("SELECT pin_hash FROM pin_resets")
    await db.execute("DELETE FROM sign_in_attempts")  # the 15 minutes have passed
    status, page = await ask(client, "R-1")
    assert status == 200 and ASKED in page  # the same answer, and no new PIN
    assert await db.fetchval("SELECT pin_hash FROM pin_resets") == kept
    assert len(await _messages(db)) == 3
    assert await db.fetchval("SELECT count(*) FROM sign_in_attempts") == 1


async def test_one_address_and_its_ipv6_64_ask_for_ten_riders_at_most(make_client):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    token = await PageClient(client).csrf("/forgot-pin")

    async def one(number: int) -> int:
        address = f"2001:db8:5:7::{number:x}"  # every one in the same /64
        data = {"rider_id": f"R-{number}", "csrf_token": token}
        response = await client.post("/forgot-pin", data=data, headers={"X-Forwarded-For": address})
        await response.read()
        return response.status

    statuses = await asyncio.gather(*(one(number) for number in range(1, 21)))
    assert statuses.count(200) == 10 and statuses.count(429) == 10
    other = {"X-Forwarded-For": "2001:db8:5:8::1"}
    assert (await ask(client, "R-99", headers=other))[0] == 200


async def test_the_limit_holds_across_two_instances_on_one_database(
    aiohttp_client, database_url, db
):
    first, second = [
        await aiohttp_client(create_app(make_settings(), database_url)) for _ in range(2)
    ]
    await add_rider(first, "R-1", phone=PHONE)
    tokens = [await PageClient(c).csrf("/forgot-pin") for c in (first, second)]

    async def one(client, token):
        response = await client.post("/forgot-pin", data={"rider_id": "R-1", "csrf_token": token})
        await response.read()
        return response.status

    statuses = await asyncio.gather(
        *(one(c, t) for c, t in zip((first, second), tokens, strict=True) for _ in range(6))
    )
    assert statuses.count(200) == 3 and statuses.count(429) == 9
    assert len(await _messages(db, 3)) == 3
