"""argon2 hashes on threads of their own (issue 23, item 3): a default thread pool that is
busy (CSV import, PDF parsing) does not hold up a sign-in, and a sign-in flood does not take
the default pool."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import argon2

from app.core import passwords
from tests.web import sign_in


@contextlib.asynccontextmanager
async def busy_default_pool():
    """The loop's default thread pool, all of its threads taken for the block."""
    loop = asyncio.get_running_loop()
    release = threading.Event()
    default = loop._default_executor  # the loop's own (None until first used): put back after
    busy = ThreadPoolExecutor(max_workers=2)
    loop.set_default_executor(busy)
    taken = [loop.run_in_executor(None, release.wait) for _ in range(2)]
    try:
        yield
    finally:
        release.set()
        await asyncio.gather(*taken)
        loop._default_executor = default
        busy.shutdown(wait=True)


async def test_a_sign_in_does_not_wait_for_the_default_thread_pool(page_client, make_admin):
    admin = await make_admin()
    await page_client.get("/admin/sign-in")
    async with busy_default_pool():
        response = await asyncio.wait_for(sign_in(page_client, admin), timeout=10)
    assert response.status == 303


async def test_an_unknown_email_costs_as_long_as_a_known_one(monkeypatch):
    # The same work: one argon2 verification of a hash made with the same parameters (the
    # times side by side: `python -m bench bounds`).
    known = await passwords.hash_password("correct horse battery")
    verified = []
    hasher = passwords._hasher

    class Recording:
        def __getattr__(self, name):
            return getattr(hasher, name)

        def verify(self, password_hash, password):
            verified.append(password_hash)
            return hasher.verify(password_hash, password)

    monkeypatch.setattr(passwords, "_hasher", Recording())
    assert not await passwords.verify_password(known, "wrong password", "192.0.2.1")
    assert not await passwords.verify_password(None, "wrong password", "192.0.2.2")
    assert len(verified) == 2 and verified[0] == known
    assert argon2.extract_parameters(verified[1]) == argon2.extract_parameters(known)


def _count_checks_at_once(monkeypatch) -> dict:
    """From here on, `counts["most"]` is the most hash checks that ran at once."""
    counts = {"running": 0, "most": 0}
    lock = threading.Lock()
    verify = passwords._verify

    def counted(*args):
        with lock:
            counts["running"] += 1
            counts["most"] = max(counts["most"], counts["running"])
        try:
            return verify(*args)
        finally:
            with lock:
                counts["running"] -= 1

    monkeypatch.setattr(passwords, "_verify", counted)
    return counts


async def test_at_most_two_hashes_run_at_once(monkeypatch):
    counts = _count_checks_at_once(monkeypatch)
    addresses = [f"192.0.2.{n}" for n in range(12)]
    await asyncio.gather(*(passwords.verify_password(None, "guess", a) for a in addresses))
    assert counts["most"] == passwords.HASH_THREADS == 2


async def test_the_checks_of_one_address_take_turns(monkeypatch):
    counts = _count_checks_at_once(monkeypatch)
    await asyncio.gather(*(passwords.verify_password(None, "guess", "192.0.2.1") for _ in range(4)))
    assert counts["most"] == 1


async def test_a_known_devices_check_does_not_wait_for_the_unknown_ones():
    known = await passwords.hash_password("correct horse battery")
    loop = asyncio.get_running_loop()
    release = threading.Event()
    # Both hash threads held, as a flood from many addresses holds them.
    taken = [loop.run_in_executor(passwords._threads, release.wait) for _ in range(2)]
    try:
        flood = asyncio.ensure_future(passwords.verify_password(None, "guess", "192.0.2.9"))
        desk = passwords.verify_password(
            known, "correct horse battery", "192.0.2.1", known_device=True
        )
        assert await asyncio.wait_for(desk, timeout=30) is True
        assert not flood.done()  # the unknown device's check still waits for a thread
    finally:
        release.set()
        await asyncio.gather(*taken)
    assert await flood is False
