"""Sign-in limits under parallel requests (issue 23): an attempt is counted before its secret is
checked, so N parallel wrong attempts get at most the allowance checked (401) and the rest
refused unchecked (429), on one instance or several sharing the database. A browser that signed
in to an account before (its device cookie) is counted on its own and is never held back by
what unknown devices did (docs/security.md)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import structlog

from app.core import throttle, tokens
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


# Each area's sign-in: where its form is posted, the page that has the form, its two fields.
FORMS = {
    "admin": ("/admin/sign-in", "/admin/sign-in", "email", "password"),
    "rider": ("/sign-in", "/", "rider_id", "pin"),
}


async def _attempt(client, area: str, account: str, secret: str, address: str, cookies=None):
    """One sign-in through the area's form from `address`; the read response."""
    path, form_page, account_field, secret_field = FORMS[area]
    token = await PageClient(client).csrf(form_page)
    response = await client.post(
        path,
        data={account_field: account, secret_field: secret, "csrf_token": token},
        headers=_from(address),
        cookies=cookies,
        allow_redirects=False,
    )
    await response.read()
    return response


async def _pin(client, rider_id: str, pin: str, address: str, cookies=None) -> int:
    return (await _attempt(client, "rider", rider_id, pin, address, cookies)).status


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


TOO_MANY = "Too many sign-in attempts. Try again in 15 minutes."


async def _guesses(clients, area: str, guesses: list[tuple[str, str]], cookies=None) -> list:
    """Every (account, secret) of `guesses` at once, each from an address of its own, spread
    over the `clients` (instances of the service on one database); their statuses."""
    path, form_page, account_field, secret_field = FORMS[area]
    tokens = [await PageClient(client).csrf(form_page) for client in clients]

    async def post(number: int, account: str, secret: str) -> int:
        which = number % len(clients)
        response = await clients[which].post(
            path,
            data={account_field: account, secret_field: secret, "csrf_token": tokens[which]},
            headers=_from(f"198.18.{number // 200}.{number % 200 + 1}"),
            cookies=cookies,
            allow_redirects=False,
        )
        await response.read()
        return response.status

    return await asyncio.gather(*(post(n, *guess) for n, guess in enumerate(guesses)))


async def _browsers(make_client, count: int) -> list:
    """`count` browsers, each on an instance of its own (one database), behind one router."""
    return [await make_client(TRUSTED_PROXY_HOPS="1") for _ in range(count)]


def _device_cookie(client, name: str = "rider_device", path: str = "/") -> str:
    return client.session.cookie_jar.filter_cookies(client.make_url(path))[name].value


async def test_five_failures_from_five_addresses_lock_the_rider_for_every_unknown_device(
    make_client,
):
    client = await make_client(TRUSTED_PROXY_HOPS="1")
    await add_rider(client, "R-1", pin="123456")
    for number in range(5):
        assert await _pin(client, "R-1", "000000", f"203.0.113.{number + 1}") == 401
    response = await _attempt(client, "rider", "R-1", "123456", "198.51.100.9")
    assert response.status == 429
    assert TOO_MANY in await response.text()
    assert "rider_session" not in response.cookies


async def test_parallel_guesses_from_many_addresses_on_two_instances_check_at_most_5(
    make_client,
):
    first, second, rider = await _browsers(make_client, 3)
    await add_rider(first, "R-1", pin="123456")
    statuses = await _guesses([first, second], "rider", [("R-1", "000000")] * 30)
    assert statuses.count(401) <= 5
    assert statuses.count(401) + statuses.count(429) == 30
    assert await _pin(rider, "R-1", "123456", "192.0.2.77") == 429


async def _ceiling_reached(attackers, area: str, account: str, secret: str) -> None:
    """40 failures within a minute from 40 addresses, a quarter on `account`, the rest on
    other accounts: the account is locked and the area's ceiling (30) reached."""
    guesses = [(account if n % 4 == 0 else f"x-{n}@example.com", secret) for n in range(40)]
    statuses = await _guesses(attackers, area, guesses)
    # 5 on the account and 25 others are checked; the rest wait at the ceiling, refused.
    assert statuses.count(401) == 30 and statuses.count(429) == 10


@pytest.fixture
def short_slowdown(monkeypatch):
    """The ceiling's wait shortened, and every time it is reached logged."""
    monkeypatch.setattr(throttle, "SLOWDOWN_SECONDS", 0.3)
    every_time = Sampled(throttle.log, "sign-in ceiling reached", interval=0)
    monkeypatch.setattr(throttle, "CEILING_LOG", every_time)


def _ceiling_lines(logs) -> int:
    return sum(line["event"] == "sign-in ceiling reached" for line in logs)


async def test_a_riders_own_phone_gets_in_while_an_attack_holds_every_unknown_device_back(
    make_client, short_slowdown
):
    phone, first, second, stranger = await _browsers(make_client, 4)
    await add_rider(phone, "R-1", pin="123456")
    await add_rider(phone, "R-2", pin="654321")
    assert await _pin(phone, "R-1", "123456", "192.0.2.10") == 303
    await _ceiling_reached([first, second], "rider", "R-1", "000000")
    with structlog.testing.capture_logs() as logs:
        statuses = await asyncio.gather(
            _pin(phone, "R-1", "123456", "192.0.2.10"),
            _guesses([first, second], "rider", [("R-1", "000000"), ("R-9", "0000")] * 5),
        )
    assert statuses[0] == 303
    assert (await phone.get("/training", allow_redirects=False)).status == 200
    # Another phone with the right PIN: the rider's lock holds it back at once ...
    with structlog.testing.capture_logs() as logs:
        response = await _attempt(stranger, "rider", "R-1", "123456", "192.0.2.20")
    assert response.status == 429 and TOO_MANY in await response.text()
    assert _ceiling_lines(logs) == 0
    # ... and an unknown device of a rider nobody guessed is slowed at the ceiling, refused.
    with structlog.testing.capture_logs() as logs:
        assert await _pin(stranger, "R-2", "654321", "192.0.2.21") == 429
    assert _ceiling_lines(logs) == 1


async def test_an_admins_own_desk_gets_in_while_an_attack_holds_every_unknown_device_back(
    make_client, make_admin, short_slowdown
):
    desk, first, second, stranger = await _browsers(make_client, 4)
    admin = await make_admin()
    other = await make_admin(email="bo@example.com")
    response = await _attempt(desk, "admin", admin.email, admin.password, "192.0.2.10")
    assert response.status == 303
    await _ceiling_reached([first, second], "admin", "ADA@example.com", "wrong password!")
    with structlog.testing.capture_logs() as logs:
        response = await _attempt(desk, "admin", admin.email, admin.password, "192.0.2.10")
    assert response.status == 303 and _ceiling_lines(logs) == 0
    assert (await desk.get("/admin")).status == 200
    response = await _attempt(stranger, "admin", admin.email, admin.password, "192.0.2.20")
    assert response.status == 429 and TOO_MANY in await response.text()
    with structlog.testing.capture_logs() as logs:
        response = await _attempt(stranger, "admin", other.email, other.password, "192.0.2.21")
    assert response.status == 429 and _ceiling_lines(logs) == 1


async def test_five_failures_on_a_known_phone_lock_that_phone_only(make_client):
    phone, other_phone, stranger = await _browsers(make_client, 3)
    await add_rider(phone, "R-1", pin="123456")
    for browser in (phone, other_phone):
        assert await _pin(browser, "R-1", "123456", "192.0.2.10") == 303
    for _ in range(5):
        assert await _pin(phone, "R-1", "000000", "192.0.2.10") == 401
    response = await _attempt(phone, "rider", "R-1", "123456", "192.0.2.10")
    assert response.status == 429 and TOO_MANY in await response.text()
    # The rider's other phone, and a phone it never signed in on, are not held back by these.
    assert await _pin(other_phone, "R-1", "123456", "192.0.2.10") == 303
    assert await _pin(stranger, "R-1", "123456", "192.0.2.10") == 303
    # Nor does the account's lock for unknown devices hold the known phones back.
    for number in range(5):
        assert await _pin(stranger, "R-1", "000000", f"203.0.113.{number + 1}") == 401
    assert await _pin(stranger, "R-1", "123456", "192.0.2.30") == 429
    assert await _pin(other_phone, "R-1", "123456", "192.0.2.10") == 303
    assert await _pin(phone, "R-1", "123456", "192.0.2.10") == 429


async def test_parallel_guesses_with_one_device_cookie_on_two_instances_check_at_most_5(
    make_client,
):
    phone, other_instance, stranger = await _browsers(make_client, 3)
    await add_rider(phone, "R-1", pin="123456")
    assert await _pin(phone, "R-1", "123456", "192.0.2.10") == 303
    cookie = {"rider_device": _device_cookie(phone)}
    statuses = await _guesses([phone, other_instance], "rider", [("R-1", "000000")] * 30, cookie)
    assert statuses.count(401) <= 5
    assert statuses.count(401) + statuses.count(429) == 30
    assert await _pin(other_instance, "R-1", "123456", "192.0.2.10", cookie) == 429
    # Unknown devices were not counted: the rider signs in on another phone.
    assert await _pin(stranger, "R-1", "123456", "192.0.2.10") == 303


def _tampered(token: str) -> str:
    payload, _, mac = token.partition(".")
    flipped = "A" if payload[5] != "A" else "B"
    return f"{payload[:5]}{flipped}{payload[6:]}.{mac}"


async def test_a_cookie_for_another_account_area_or_time_or_forged_counts_as_none(
    make_client, make_admin, settings
):
    phone, attacker = await _browsers(make_client, 2)
    await add_rider(phone, "R-1", pin="111111")
    await add_rider(phone, "R-2", pin="222222")
    admin = await make_admin()
    assert await _pin(phone, "R-1", "111111", "192.0.2.10") == 303
    desk = await _attempt(attacker, "admin", admin.email, admin.password, "192.0.2.11")
    genuine = _device_cookie(phone)
    expired = tokens.seal(
        tokens.derive(settings.session_secret, b"device cookies"),
        b"device cookie: rider",
        json.dumps([["R-1", "an-old-nonce", int(time.time()) - 1]]).encode(),
    )
    for rider_id in ("R-1", "R-2"):
        for number in range(5):
            assert await _pin(attacker, rider_id, "000000", f"203.0.113.{number + 1}") == 401
    # R-1's phone is no known device of R-2.
    assert await _pin(phone, "R-2", "222222", "192.0.2.10") == 429
    for cookie in (
        _tampered(genuine),
        f"{genuine}x",
        "not a token",
        desk.cookies["admin_device"].value,  # the panel's, for the rider app
        expired,
    ):
        assert await _pin(attacker, "R-1", "111111", "192.0.2.12", {"rider_device": cookie}) == 429
    assert await _pin(attacker, "R-1", "111111", "192.0.2.12", {"rider_device": genuine}) == 303


async def test_a_shared_phone_is_known_for_each_rider_who_signed_in_on_it(make_client):
    phone, attacker = await _browsers(make_client, 2)
    for number in range(1, 7):
        await add_rider(phone, f"R-{number}", pin="123456")
        assert await _pin(phone, f"R-{number}", "123456", "192.0.2.10") == 303
    for number in range(1, 7):
        for guess in range(5):
            address = f"203.0.113.{guess + 1}"
            assert await _pin(attacker, f"R-{number}", "000000", address) == 401
    # The five riders who signed in last get in; the sixth from the end is no longer kept.
    for number in range(2, 7):
        assert await _pin(phone, f"R-{number}", "123456", "192.0.2.10") == 303
    assert await _pin(phone, "R-1", "123456", "192.0.2.10") == 429


async def test_ipv6_addresses_of_one_64_share_the_address_limit(make_client):
    first, second = await _browsers(make_client, 2)
    token = [await PageClient(client).csrf("/") for client in (first, second)]

    async def guess(number: int) -> int:
        response = await (first, second)[number % 2].post(
            "/sign-in",
            data={"rider_id": f"R-{number}", "pin": "0000", "csrf_token": token[number % 2]},
            headers=_from(f"2001:db8:1:2:{number:x}::{number + 1:x}"),
            allow_redirects=False,
        )
        await response.read()
        return response.status

    statuses = await asyncio.gather(*(guess(number) for number in range(40)))
    assert statuses.count(401) == 20 and statuses.count(429) == 20
    assert await _pin(first, "R-99", "0000", "2001:db8:1:2:ffff:ffff:ffff:ffff") == 429
    # The next /64, or an IPv4 address, is another address.
    assert await _pin(first, "R-99", "0000", "2001:db8:1:3::1") == 401
    assert await _pin(first, "R-99", "0000", "192.0.2.1") == 401


async def _unknown_device(client, area: str, account: str, secret: str) -> int:
    client.session.cookie_jar.clear()  # no device cookie, nor any earlier session
    return (await _attempt(client, area, account, secret, "192.0.2.1")).status


async def _limit_follows_the_lookup(client, db, area, account, secret, wrong, spellings):
    """For each spelling of `account`: it signs in as the account exactly when the failures
    of either spelling hold the other back. Returns the spellings that are the account."""
    same = []
    for spelling in spellings:
        await db.execute("DELETE FROM sign_in_attempts")
        if await _unknown_device(client, area, spelling, secret) == 303:
            same.append(spelling)
        for guessed, then in [(account, spelling), (spelling, account)]:
            await db.execute("DELETE FROM sign_in_attempts")
            for _ in range(5):
                assert await _unknown_device(client, area, guessed, wrong) == 401
            expected = 429 if spelling in same else (401 if then == spelling else 303)
            assert await _unknown_device(client, area, then, secret) == expected, spelling
    return same


async def test_the_admin_limit_counts_every_spelling_the_lookup_takes_for_the_email(
    client, make_admin, db
):
    admin = await make_admin(email="kim@example.com")
    spellings = [
        "KIM@EXAMPLE.COM",
        "KİM@example.com",  # capital I with dot: Python's lower() gives "i" + U+0307
        "\u212aim@example.com",  # KELVIN SIGN
        "kım@example.com",  # dotless i, whose upper case is I
    ]
    same = await _limit_follows_the_lookup(
        client, db, "admin", admin.email, admin.password, "wrong password!", spellings
    )
    assert "KIM@EXAMPLE.COM" in same and "kım@example.com" not in same


async def test_the_rider_limit_counts_every_spelling_the_lookup_takes_for_the_rider_id(client, db):
    await add_rider(client, "KİM-1", pin="123456")
    spellings = ["KİM-1", "kim-1", "KIM-1", "ki\u0307m-1", "KI\u0307M-1"]
    same = await _limit_follows_the_lookup(
        client, db, "rider", "KİM-1", "123456", "000000", spellings
    )
    assert "KİM-1" in same
