"""Sign-in under attack: the security review's live reproductions, against the
real server over HTTP on localhost, now showing the bounds hold.

- 120 parallel wrong passwords for one admin: at most 5 checked (401), the rest 429 unchecked
  (the review: 64 checked).
- 30 parallel wrong PINs for one rider: at most 5 checked (the review: 11).
- A flood of 120 sign-ins with random emails from one address while the real admin signs in
  from another: at most 20 of them hashed (the per-address limit), on two argon2 threads of
  their own where one address's hashes take turns, and the real sign-in's time beside its time
  alone (the review: 0.13 s alone, 2.9 s during 60 random emails).
- The same flood from 120 addresses: at most 30 hashed in the minute (the ceiling); the rest
  are slowed, then refused. The real admin signs in meanwhile from their desk (a browser that
  signed in before: its device cookie), and is neither slowed nor refused; a browser that
  never signed in is slowed at the ceiling, then refused.

The server trusts one proxy hop (TRUSTED_PROXY_HOPS=1), so X-Forwarded-For names each
request's client address.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import statistics
import time

import aiohttp

from app.admin import accounts
from app.core import database
from bench.harness import Server, fresh_database, report, run_sql

EMAIL = "admin@bench.example"
PASSWORD = "bench admin password"
SESSION_SECRET = "bench-session-secret-0123456789"
FLOOD = 120
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


async def _token(session: aiohttp.ClientSession, url: str) -> str:
    async with session.get(url) as page:
        return _CSRF.search(await page.text()).group(1)


async def _post(session, url: str, data: dict, address: str) -> int:
    headers = {"X-Forwarded-For": address}
    async with session.post(url, data=data, headers=headers, allow_redirects=False) as answer:
        await answer.read()
        return answer.status


def _session() -> aiohttp.ClientSession:
    # Cookies for 127.0.0.1 (an IP address) are kept only by an unsafe jar; no connection cap.
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True), connector=aiohttp.TCPConnector(limit=0)
    )


async def _admin_sign_in(
    base: str, address: str, desk: aiohttp.ClientSession | None = None
) -> tuple[int, float]:
    """The real admin's sign-in from `address`: its status and seconds (form POST only); from
    the browser `desk` (its cookies kept), else from a browser that never signed in."""
    async with contextlib.nullcontext(desk) if desk else _session() as session:
        token = await _token(session, f"{base}/admin/sign-in")
        data = {"email": EMAIL, "password": PASSWORD, "csrf_token": token}
        started = time.perf_counter()
        status = await _post(session, f"{base}/admin/sign-in", data, address)
        return status, time.perf_counter() - started


async def _parallel(base: str, path: str, form_page: str, forms, addresses) -> list[int]:
    async with _session() as session:
        token = await _token(session, f"{base}{form_page}")
        return await asyncio.gather(
            *(
                _post(session, f"{base}{path}", {**form, "csrf_token": token}, address)
                for form, address in zip(forms, addresses, strict=True)
            )
        )


def _random_emails(count: int) -> list[dict]:
    return [
        {"email": f"{secrets.token_hex(6)}@flood.example", "password": "guess"}
        for _ in range(count)
    ]


async def _flood_while_signing_in(
    base: str, addresses: list[str], desk: aiohttp.ClientSession | None = None
) -> tuple[list[int], tuple]:
    flood = asyncio.create_task(
        _parallel(base, "/admin/sign-in", "/admin/sign-in", _random_emails(FLOOD), addresses)
    )
    await asyncio.sleep(0.05)
    real = await _admin_sign_in(base, "198.51.100.1", desk)
    return await flood, real


def _checked(statuses: list[int]) -> str:
    return f"{statuses.count(401)} checked, {statuses.count(429)} refused"


async def measure(server: Server, url: str) -> bool:
    base, ok = server.url, True
    forget = "DELETE FROM sign_in_attempts"
    statuses = await _parallel(
        base,
        "/admin/sign-in",
        "/admin/sign-in",
        [{"email": EMAIL, "password": "wrong password"}] * FLOOD,
        ["203.0.113.7"] * FLOOD,
    )
    print(f"{FLOOD} parallel wrong passwords, one admin: {_checked(statuses)}", flush=True)
    ok &= report("  passwords checked", statuses.count(401), 5, "")
    statuses = await _parallel(
        base, "/sign-in", "/", [{"rider_id": "R-1", "pin": "0000"}] * 30, ["203.0.113.8"] * 30
    )
    print(f"30 parallel wrong PINs, one rider: {_checked(statuses)}", flush=True)
    ok &= report("  PINs checked", statuses.count(401), 5, "")

    run_sql(url, forget)
    alone = []
    for _ in range(3):
        status, seconds = await _admin_sign_in(base, "198.51.100.1")
        assert status == 303, status
        alone.append(seconds * 1000)
    median = statistics.median(alone)
    print(f"real admin sign-in alone: median {median:.0f} ms", flush=True)
    statuses, (status, seconds) = await _flood_while_signing_in(base, ["203.0.113.9"] * FLOOD)
    print(f"{FLOOD} random emails from one address: {_checked(statuses)}", flush=True)
    ok &= report("  hashed for the flood", statuses.count(401), 20, "")
    print(f"  real sign-in meanwhile: {status} in {seconds * 1000:.0f} ms", flush=True)
    # Its turn comes after at most one of the flood's hashes (one address, one turn at once).
    ok &= report("  real sign-in meanwhile / alone", seconds * 1000 / median, 4, "x")

    run_sql(url, forget)
    addresses = [f"10.0.{n // 250}.{n % 250 + 1}" for n in range(FLOOD)]
    async with _session() as desk:
        status, _ = await _admin_sign_in(base, "198.51.100.1", desk)
        assert status == 303, status
        started = time.perf_counter()
        statuses, (status, seconds) = await _flood_while_signing_in(base, addresses, desk)
        print(
            f"{FLOOD} random emails from {FLOOD} addresses: {_checked(statuses)} "
            f"in {time.perf_counter() - started:.1f} s; real sign-in from the desk meanwhile "
            f"{status} in {seconds * 1000:.0f} ms",
            flush=True,
        )
    ok &= report("  hashed for the flood in its minute", statuses.count(401), 30, "")
    ok &= report("  real sign-in from the desk refused", int(status != 303), 0, "")
    ok &= report("  real sign-in from the desk / alone", seconds * 1000 / median, 4, "x")
    status, seconds = await _admin_sign_in(base, "198.51.100.2")
    print(f"  then from a browser that never signed in: {status} in {seconds * 1000:.0f} ms")
    ok &= report("  sign-in of an unknown browser let in", int(status != 429), 0, "")
    return ok


async def _setup(url: str) -> None:
    async with database.connect(url) as conn:
        await accounts.create_or_reset(conn, EMAIL, "Bench Admin", PASSWORD)


def main() -> bool:
    url = fresh_database("bench_sign_in")
    asyncio.run(_setup(url))
    with Server(url, SESSION_SECRET=SESSION_SECRET, TRUSTED_PROXY_HOPS="1") as server:
        return asyncio.run(measure(server, url))
