"""argon2id password hashes, computed in a thread: a hash takes tens of milliseconds of CPU,
which would stall every request on the event loop."""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters

MIN_LENGTH = 12

# Verified when no account matches, so that an unknown email costs as long as a known one.
_UNMATCHED = _hasher.hash("no account has this password")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


def _verify(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _UNMATCHED, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether the password matches; None (no such account) never matches but costs the same."""
    return await asyncio.to_thread(_verify, password_hash, password)
