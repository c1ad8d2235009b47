"""Admin accounts: sign-in, the command line's create-admin, and the one-time setup link."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import asyncpg

from app.core import audit, sessions, sql, throttle
from app.core.database import Db
from app.core.passwords import hash_password, verify_password

THROTTLE = throttle.sign_in_limits("admin")

SQL = sql.load(
    "admin",
    "admin_by_email",
    "admin_by_id",
    "upsert_admin",
    "any_admin",
    "insert_setup_token",
    "setup_token_usable",
    "lock_first_admin_setup",
    "setup_first_admin",
)


@dataclass(frozen=True)
class Admin:
    admin_id: int
    email: str
    name: str
    # owner, editor or viewer (app/admin/roles.py)
    role: str
    # The market codes the admin sees and changes riders of; empty: every market.
    markets: tuple[str, ...]


async def credentials(db: Db, email: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.admin_by_email, email)


async def admin(db: Db, admin_id: int) -> Admin:
    row = await db.fetchrow(SQL.admin_by_id, admin_id)
    return Admin(**{**row, "markets": tuple(row["markets"])})


async def _upsert_admin(db: Db, email: str, name: str | None, password_hash: str):
    return await db.fetchrow(SQL.upsert_admin, email, name, password_hash)


async def _any_admin(db: Db) -> bool:
    return await db.fetchval(SQL.any_admin)


async def _add_setup_token(db: Db, token_hash: bytes) -> None:
    await db.execute(SQL.insert_setup_token, token_hash)


async def _setup_token_usable(db: Db, token_hash: bytes) -> bool:
    return await db.fetchval(SQL.setup_token_usable, token_hash)


async def _setup_first_admin(
    pool: asyncpg.Pool,
    token_hash: bytes,
    email: str,
    name: str,
    password_hash: str,
    address: str | None,
) -> int | None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_first_admin_setup)
        admin_id = await conn.fetchval(
            SQL.setup_first_admin, token_hash, email, name, password_hash
        )
        if admin_id is not None:
            # Made by whoever holds the link: the new admin, from their address.
            summary = f"name {name}, the first admin, by the setup link"
            await audit.record(conn, audit.Actor(email, address), "admin.created", email, summary)
        return admin_id


class WrongCredentials(Exception):
    pass


class SetupRefused(Exception):
    pass


async def sign_in(pool: asyncpg.Pool, email: str, password: str, address: str) -> str:
    """A new session id for the admin; WrongCredentials (the attempt stays counted) or
    throttle.TooManyAttempts (nothing checked) otherwise. A disabled admin cannot sign in."""
    attempt = await throttle.admit(pool, THROTTLE, email.lower(), address)
    row = await credentials(pool, email)
    usable = row is not None and row["disabled_at"] is None
    if not await verify_password(row["password_hash"] if usable else None, password, address):
        throttle.failed(THROTTLE)
        raise WrongCredentials
    await throttle.forget(pool, attempt)
    return await sessions.create(pool, sessions.ADMIN, admin_id=row["admin_id"])


async def create_or_reset(conn: asyncpg.Connection, email: str, name: str | None, password: str):
    """Creates the admin, or sets a new password (ending their sessions). Returns True when
    the admin is new."""
    password_hash = await hash_password(password)
    async with conn.transaction():
        row = await _upsert_admin(conn, email, name, password_hash)
        if not row["created"]:
            await sessions.revoke_admin(conn, row["admin_id"])
    return row["created"]


def _token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


async def new_setup_token(conn: asyncpg.Connection) -> str | None:
    """A one-time setup token while no admin exists; None once one does."""
    if await _any_admin(conn):
        return None
    token = secrets.token_urlsafe(32)
    await _add_setup_token(conn, _token_hash(token))
    return token


async def setup_token_usable(pool: asyncpg.Pool, token: str) -> bool:
    return await _setup_token_usable(pool, _token_hash(token))


async def set_up_first_admin(
    pool: asyncpg.Pool, token: str, email: str, name: str, password: str, address: str | None = None
) -> str:
    """Creates the first admin with a setup token (from `address`) and signs them in (a
    session id)."""
    password_hash = await hash_password(password)
    admin_id = await _setup_first_admin(
        pool, _token_hash(token), email, name, password_hash, address
    )
    if admin_id is None:
        raise SetupRefused
    return await sessions.create(pool, sessions.ADMIN, admin_id=admin_id)
