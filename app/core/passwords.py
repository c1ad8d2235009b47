"""argon2id password hashes, computed on a small pool of threads of their own: a hash takes
tens of milliseconds of CPU and 64 MiB, which would stall every request on the event loop, and
on the shared default pool a flood of sign-ins with random emails would queue the CSV import
and PDF parsing behind it (and them behind it). The sign-in limits (docs/security.md) bound how
many hashes a flood gets; this pool bounds how many run at once, and the hashes of one client
address take turns, so that a flood from one address holds one thread at most."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters

MIN_LENGTH = 12

# Hashes at once, per process: the rest wait their turn here, not on the default pool.
HASH_THREADS = 2
_threads = ThreadPoolExecutor(max_workers=HASH_THREADS, thread_name_prefix="argon2")
# The checks of known devices (a valid device cookie for the account: docs/security.md) run on
# a thread of their own: behind the two above, the 30 hashes a minute that a flood from 30
# addresses gets would queue ahead of the admin at their own desk. Each device has 5 checks in
# 15 minutes, and only a browser that signed in to the account has one.
_known_device_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="argon2-known")


@functools.cache
def _unmatched() -> str:
    """Verified when no account matches, so that an unknown email costs as long as a known
    one. Hashed when first needed: at import it cost every process (load-data, each web
    process) ~0.4 s of CPU."""
    return _hasher.hash("no account has this password")


async def _on_hash_threads(function, *args, threads=_threads):
    return await asyncio.get_running_loop().run_in_executor(threads, function, *args)


class _Turns:
    """One lock per client address while it has a hash running or waiting."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: Counter[str] = Counter()

    @contextlib.asynccontextmanager
    async def of(self, address: str):
        self._users[address] += 1
        lock = self._locks.setdefault(address, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            self._users[address] -= 1
            if not self._users[address]:
                del self._users[address], self._locks[address]


_turns = _Turns()


async def hash_password(password: str) -> str:
    return await _on_hash_threads(_hasher.hash, password)


def _verify(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _unmatched(), password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(
    password_hash: str | None, password: str, address: str, *, known_device: bool = False
) -> bool:
    """Whether the password matches; None (no such account) never matches but costs the same.
    `address` is the client's: its checks run one after the other; a known device's run on
    their own thread, ahead of every unknown device's."""
    if known_device:
        return await _on_hash_threads(
            _verify, password_hash, password, threads=_known_device_thread
        )
    async with _turns.of(address):
        return await _on_hash_threads(_verify, password_hash, password)
