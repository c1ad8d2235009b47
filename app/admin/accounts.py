"""Admin accounts: sign-in, the command line's create-admin, and the one-time setup link."""

from __future__ import annotations

import hashlib
import secrets

import asyncpg

from app.admin import store
from app.core import sessions, throttle
from app.core.passwords import hash_password, verify_password

THROTTLE = throttle.sign_in_limits("admin")


class WrongCredentials(Exception):
    pass


class SetupRefused(Exception):
    pass


async def sign_in(pool: asyncpg.Pool, email: str, password: str, address: str) -> str:
    """A new session id for the admin; WrongCredentials (the attempt stays counted) or
    throttle.TooManyAttempts (nothing checked) otherwise. A disabled admin cannot sign in."""
    attempt = await throttle.admit(pool, THROTTLE, email.lower(), address)
    row = await store.credentials(pool, email)
    usable = row is not None and row["disabled_at"] is None
    if not await verify_password(row["password_hash"] if usable else None, password, address):
        raise WrongCredentials
    await throttle.forget(pool, attempt)
    return await sessions.create(pool, sessions.ADMIN, admin_id=row["admin_id"])


async def create_or_reset(conn: asyncpg.Connection, email: str, name: str | None, password: str):
    """Creates the admin, or sets a new password (ending their sessions). Returns True when
    the admin is new."""
    password_hash = await hash_password(password)
    async with conn.transaction():
        row = await store.upsert_admin(conn, email, name, password_hash)
        if not row["created"]:
            await sessions.revoke_admin(conn, row["admin_id"])
    return row["created"]


def _token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


async def new_setup_token(conn: asyncpg.Connection) -> str | None:
    """A one-time setup token while no admin exists; None once one does."""
    if await store.any_admin(conn):
        return None
    token = secrets.token_urlsafe(32)
    await store.add_setup_token(conn, _token_hash(token))
    return token


async def setup_token_usable(pool: asyncpg.Pool, token: str) -> bool:
    return await store.setup_token_usable(pool, _token_hash(token))


async def set_up_first_admin(
    pool: asyncpg.Pool, token: str, email: str, name: str, password: str
) -> str:
    """Creates the first admin with a setup token and signs them in (a session id)."""
    password_hash = await hash_password(password)
    admin_id = await store.setup_first_admin(pool, _token_hash(token), email, name, password_hash)
    if admin_id is None:
        raise SetupRefused
    return await sessions.create(pool, sessions.ADMIN, admin_id=admin_id)
