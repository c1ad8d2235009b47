"""Integrators' API keys (docs/security.md, "API keys"): made, kept as a hash, revoked, and
recognised on a request.

A key is `rok_` and 43 random characters; the database keeps its SHA-256 and its first 8
characters. Any number of keys may hold a scope, so a key is rotated with no restart: create
one, switch the client, revoke the old one. The key of a scope set in the environment (the
settings of `SCOPES`) keeps working beside them, as the caller "from the environment".

Each process keeps what it read of a key for `FRESH` seconds (`KeyCache`), so a key seen
within that time costs a request no database round trip, and a revoked key is refused on every
instance within `FRESH` seconds. An expiry is checked at every request.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import time
from dataclasses import dataclass

import asyncpg
from aiohttp import web

from app.core import sql, tokens
from app.core.database import Db

SQL = sql.load("core", "use_api_key", "api_key_scope_live", "create_api_key", "revoke_api_key")

# Each scope, and the setting (environment variable in lower case) of its environment key.
SCOPES = {
    "training": "integration_api_key",
    "checks": "checks_api_key",
    "shop-import": "shop_import_api_key",
    "shop-orders": "shop_orders_api_key",
}
PREFIX = "rok_"
# Random bytes of a key: 256 bits, 43 characters of base64url.
RANDOM_BYTES = 32
KEY_LENGTH = len(PREFIX) + 43
# The characters of a key the database keeps and the pages show.
SHOWN = 8
# A name: it labels the metrics and appears in the audit log, so it is short and plain.
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"
NAME_RULE = "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
MAX_EXPIRY_DAYS = 3650

# How long a process trusts what it read of a key: the longest a revoked key still works.
FRESH = 5.0
# How long it trusts that a key is unknown. Shorter: a key is random, so nobody presents one
# before it exists, but a scope's first key should end a 503 at once.
MISS_FRESH = 1.0
# Keys a process remembers; past that it forgets them all (a flood of wrong keys costs memory
# no longer than until then).
MAX_REMEMBERED = 10_000

ENV_NAME = "from the environment"
# The metrics' `key` label of an environment key.
ENV_LABEL = "env"


@dataclass(frozen=True)
class Caller:
    """Who called: `name` (a key's, or ENV_NAME), `label` (the metrics' `key`), and
    `fingerprint`, what scopes the caller's Idempotency-Keys (never the key itself)."""

    name: str
    label: str
    fingerprint: str


CALLER = web.RequestKey("api_caller", Caller)


@functools.lru_cache(maxsize=16)
def env_caller(key: str) -> Caller:
    # The fingerprint the Idempotency-Keys of an environment key had before keys were named.
    return Caller(ENV_NAME, ENV_LABEL, tokens.derive(key, b"idempotency")[:16])


def digest(key: str) -> bytes:
    # aiohttp keeps a header's non-UTF-8 bytes as lone surrogates: hashed as they are.
    return hashlib.sha256(key.encode(errors="surrogatepass")).digest()


def new_key() -> str:
    return PREFIX + secrets.token_urlsafe(RANDOM_BYTES)


@dataclass(frozen=True)
class _Read:
    caller: Caller | None
    scopes: frozenset[str]
    expires: float | None  # UNIX seconds
    until: float  # monotonic seconds: trusted until then


class KeyCache:
    """What this process read of the keys presented to it and of each scope, each trusted for
    a few seconds. One a web process (`CACHE`), so two apps in one test are two instances."""

    def __init__(self) -> None:
        self._keys: dict[bytes, _Read] = {}
        self._live: dict[str, tuple[bool, float]] = {}

    async def caller(self, pool: asyncpg.Pool, key: str, scope: str) -> Caller | None:
        """The caller whose key `key` may call `scope` now; None otherwise."""
        hashed, now = digest(key), time.monotonic()
        read = self._keys.get(hashed)
        if read is None or read.until <= now:
            row = await pool.fetchrow(SQL.use_api_key, hashed)
            read = _read(row, now)
            if len(self._keys) >= MAX_REMEMBERED:
                self._keys.clear()
            self._keys[hashed] = read
        if read.caller is None or scope not in read.scopes:
            return None
        if read.expires is not None and read.expires <= time.time():
            return None
        return read.caller

    async def scope_live(self, pool: asyncpg.Pool, scope: str) -> bool:
        """Whether a key of the database may call `scope` now (not revoked nor expired)."""
        now = time.monotonic()
        live, until = self._live.get(scope, (False, 0.0))
        if until <= now:
            live = await pool.fetchval(SQL.api_key_scope_live, scope)
            self._live[scope] = (live, now + MISS_FRESH)
        return live


def _read(row: asyncpg.Record | None, now: float) -> _Read:
    if row is None:
        return _Read(None, frozenset(), None, now + MISS_FRESH)
    caller = Caller(row["name"], row["name"], f"key-{row['id']}")
    expires = None if row["expires_at"] is None else row["expires_at"].timestamp()
    return _Read(caller, frozenset(row["scopes"]), expires, now + FRESH)


CACHE = web.AppKey("api_key_cache", KeyCache)


_NAME = re.compile(NAME_PATTERN)


def name_problem(name: str) -> str | None:
    if not _NAME.fullmatch(name):
        return f"A key's name is {NAME_RULE}."
    return None


def scopes_problem(scopes: list[str]) -> str | None:
    if not scopes:
        return "Choose at least one scope."
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown:
        return f"Unknown scope {unknown[0]!r}: one of {', '.join(SCOPES)}."
    return None


def expiry_days(text: str) -> int:
    """The days of `--expires-days` or the panel's field: ASCII digits, 1 to MAX_EXPIRY_DAYS;
    ValueError with the message otherwise."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_EXPIRY_DAYS:
        raise ValueError(f"The expiry is a whole number of days from 1 to {MAX_EXPIRY_DAYS}.")
    return int(text)


@dataclass(frozen=True)
class NewKey:
    key: str
    key_id: int


async def create(db: Db, name: str, scopes: list[str], expires_days: int | None) -> NewKey | None:
    """A new key named `name` (checked by the caller against NAME_PATTERN and SCOPES); None
    when the name is taken."""
    key, scopes = new_key(), list(dict.fromkeys(scopes))
    key_id = await db.fetchval(
        SQL.create_api_key, name, scopes, digest(key), key[:SHOWN], expires_days
    )
    return None if key_id is None else NewKey(key, key_id)


async def revoke(db: Db, name: str) -> list[str] | None:
    """Revoke the key `name`: its scopes; None when no unrevoked key has that name."""
    return await db.fetchval(SQL.revoke_api_key, name)


def summary(scopes: list[str], expires_days: int | None = None) -> str:
    """The audit event's summary of a key: its scopes and expiry, never the key."""
    expiry = "" if expires_days is None else f", expires in {expires_days} days"
    return "scopes " + ", ".join(scopes) + expiry
