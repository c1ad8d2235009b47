"""Sign-in limits under parallel requests (issue 23): an attempt is counted before its secret is
checked, so N parallel wrong attempts get at most the allowance checked (401) and the rest
refused unchecked (429), on one instance or several sharing the database."""

from __future__ import annotations

import asyncio
import time

import structlog

from app.core import throttle
from app.core.logs import Sampled
from app.web import create_app
from tests.conftest import make_settings
from tests.rider.rows import add_rider
from tests.web import PageClient

WRONG_PASSWORD = {"email": "ada@example.com", "password": "not the password"}


async def _posts(client, path: str, form_page: str, data: dict, count: int, headers=None):
    """`count` POSTs of `data` at once with one pre-session token; their statuses."""
    token = await PageClient(client).csrf(form_page)
    body = {**data, "csrf_token": token}

    async def post():
        response = await client.post(path, data=body, headers=headers, allow_redirects=False)
        await response.read()
        return response.status

    return await asyncio.gather(*(post() for _ in range(count)))


async def test_120_parallel_wrong_passwords_check_at_most_5(page_client, make_admin):
    await make_admin()
    statuses = await _posts(page_client, "/admin/sign-in", "/admin/sign-in", WRONG_PASSWORD, 120)
    assert statuses.count(401) <= 5
    assert statuses.count(401) + statuses.count(429) == 120


async def test_30_parallel_wrong_pins_check_at_most_5(client):
    await add_rider(client, "R-1")
    statuses = await _posts(client, "/sign-in", "/", {"rider_id": "R-1", "pin": "0000"}, 30)
    assert statuses.count(401) <= 5
    assert statuses.count(401) + statuses.count(429) == 30


async def test_the_allowance_holds_across_two_instances_on_one_database(
    aiohttp_client, database_url, make_admin
):
    await make_admin()
    first, second = [
        PageClient(await aiohttp_client(create_app(make_settings(), database_url)))
        for _ in range(2)
    ]
    statuses = await asyncio.gather(
        _posts(first, "/admin/sign-in", "/admin/sign-in", WRONG_PASSWORD, 30),
        _posts(second, "/admin/sign-in", "/admin/sign-in", WRONG_PASSWORD, 30),
    )
    every = statuses[0] + statuses[1]
    assert every.count(401) <= 5
    assert every.count(401) + every.count(429) == 60


def _from(address: str) -> dict:
    """The header a router (TRUSTED_PROXY_HOPS=1) adds for a client at `address`."""
    return {"X-Forwarded-For": address}


async def _pin(client, rider_id: str, pin: str, address: str) -> int:
    token = await PageClient(client).csrf("/")
    response = await client.post(
        "/sign-in",
        data={"rider_id": rider_id, "pin": pin, "csrf_token": token},
        headers=_from(address),
        allow_redirects=False,
    )
    await response.read()
    return response.status


async def test_one_address_gets_20_checks_over_all_riders_even_in_parallel(make_client):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    token = await PageClient(client).csrf("/")

    async def guess(number: int) -> int:
        data = {"rider_id": f"R-{number}", "pin": "0000", "csrf_token": token}
        headers = _from("203.0.113.7")
        response = await client.post("/sign-in", data=data, headers=headers)
        await response.read()
        return response.status

    statuses = await asyncio.gather(*(guess(number) for number in range(40)))
    assert statuses.count(401) == 20 and statuses.count(429) == 20
    # Another address is not held back by this one.
    assert await _pin(client, "R-99", "0000", "198.51.100.9") == 401


async def test_failures_from_elsewhere_do_not_lock_the_rider_out(make_client, db):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    await add_rider(client, "R-1", pin="123456")
    for _ in range(5):
        assert await _pin(client, "R-1", "000000", "203.0.113.7") == 401
    # The guessing address is held back, even with the right PIN.
    assert await _pin(client, "R-1", "123456", "203.0.113.7") == 429
    # The rider, from an address with no failures on R-1, signs in.
    assert await _pin(client, "R-1", "123456", "198.51.100.9") == 303
    # Each other address gets one check on the locked rider ID, then is held back too.
    assert await _pin(client, "R-1", "999999", "192.0.2.55") == 401
    assert await _pin(client, "R-1", "123456", "192.0.2.55") == 429
    rows = await db.fetch("SELECT address FROM sign_in_attempts WHERE subject = 'R-1'")
    assert sorted(row["address"] for row in rows) == ["192.0.2.55"] + ["203.0.113.7"] * 5


async def _thirty_failures_a_minute(client, db, seconds_ago: float) -> None:
    """30 failed rider sign-ins from two addresses on 30 rider IDs, `seconds_ago`."""
    for number in range(30):
        address = "203.0.113.7" if number % 2 else "203.0.113.8"
        assert await _pin(client, f"X-{number}", "0000", address) == 401
    await db.execute(
        "UPDATE sign_in_attempts SET at = now() - make_interval(secs => $1)", seconds_ago
    )


async def test_past_30_failures_a_minute_every_sign_in_is_slowed_then_refused(
    make_client, db, monkeypatch
):
    monkeypatch.setattr(throttle, "SLOWDOWN_SECONDS", 0.3)
    monkeypatch.setattr(throttle, "CEILING_LOG", Sampled(throttle.log, "sign-in ceiling reached"))
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    await add_rider(client, "R-1")
    await _thirty_failures_a_minute(client, db, 10)
    started = time.monotonic()
    with structlog.testing.capture_logs() as logs:
        status = await _pin(client, "R-1", "1234", "198.51.100.9")
    assert status == 429 and time.monotonic() - started >= 0.3
    lines = [line for line in logs if line["event"] == "sign-in ceiling reached"]
    assert [(line["kind"], line["per_minute"]) for line in lines] == [("rider", 30)]
    # Refused attempts are not counted: the ceiling frees as the failures age.
    assert await db.fetchval("SELECT count(*) FROM sign_in_attempts") == 30


async def test_at_the_ceiling_a_sign_in_waits_for_the_minute_to_free(make_client, db):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    await add_rider(client, "R-1")
    await _thirty_failures_a_minute(client, db, 59.2)
    started = time.monotonic()
    assert await _pin(client, "R-1", "1234", "198.51.100.9") == 303
    assert time.monotonic() - started >= 0.5
