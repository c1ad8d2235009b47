"""Admin accounts: sign-in, the command line's create-admin, and the one-time setup link."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from app.core import audit, devices, sessions, sql, throttle
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
    "lock_admins",
    "active_owners",
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


async def credentials(db: Db, email: str) -> asyncpg.Record:
    return await db.fetchrow(SQL.admin_by_email, email)


async def admin(db: Db, admin_id: int) -> Admin:
    row = await db.fetchrow(SQL.admin_by_id, admin_id)
    return Admin(**{**row, "markets": tuple(row["markets"])})


async def _upsert_admin(db: Db, email: str, name: str | None, password_hash: str, role, markets):
    return await db.fetchrow(SQL.upsert_admin, email, name, password_hash, role, markets)


class LastOwner(Exception):
    """The change would leave the panel without an active owner: nothing was changed."""


async def lock_admins(conn: asyncpg.Connection) -> None:
    """Serialises the changes that could leave no active owner (disabling, roles), for the
    caller's transaction."""
    await conn.execute(SQL.lock_admins)


async def keep_an_owner(conn: asyncpg.Connection, old_role: str, role: str) -> None:
    """LastOwner, so that the caller's transaction (which took `lock_admins` before its change)
    rolls back, when its change took the owner role from the last active owner."""
    if old_role == "owner" and role != "owner" and not await conn.fetchval(SQL.active_owners):
        raise LastOwner


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


async def sign_in(
    pool: asyncpg.Pool, email: str, password: str, address: str, known: devices.Known
) -> tuple[str, str]:
    """A new session id for the admin and the account its device cookie names (the admin's
    id); WrongCredentials (the attempt stays counted) or throttle.TooManyAttempts (nothing
    checked) otherwise. A disabled admin cannot sign in. The limits count the email as the
    lookup folds it, and a device `known` for this very admin by its own limit alone."""
    row = await credentials(pool, email)
    account = None if row["admin_id"] is None else str(row["admin_id"])
    device = known.device(account)
    attempt = await throttle.admit(pool, THROTTLE, row["subject"], address, device)
    usable = account is not None and row["disabled_at"] is None
    hashed = row["password_hash"] if usable else None
    right = await verify_password(
        hashed, password, throttle.counted_address(address), known_device=device is not None
    )
    if not right:
        throttle.failed(THROTTLE)
        raise WrongCredentials
    await throttle.forget(pool, attempt)
    return await sessions.create(pool, sessions.ADMIN, admin_id=row["admin_id"]), account


async def create_or_reset(
    conn: asyncpg.Connection,
    email: str,
    name: str | None,
    password: str,
    *,
    role: str | None = None,
    markets: Sequence[str] | None = None,
    actor: audit.Actor = audit.CLI,
) -> asyncpg.Record:
    """Creates the admin, or sets a new password (ending their sessions), and the role and
    markets given (None: an existing admin's stay; a new admin is an owner when the first, else
    an editor, of every market). Returns upsert_admin's row (created, role, markets, old_…);
    LastOwner, changing nothing, when it would take the role of the last active owner. A
    changed role or markets of an existing admin is audited as `actor`'s."""
    password_hash = await hash_password(password)
    async with conn.transaction():
        await lock_admins(conn)
        row = await _upsert_admin(conn, email, name, password_hash, role, markets)
        await keep_an_owner(conn, row["old_role"], row["role"])
        if not row["created"]:
            await sessions.revoke_admin(conn, row["admin_id"])
            was = (row["old_role"], list(row["old_markets"]))
            now = (row["role"], list(row["markets"]))
            if now != was:
                await audit.record(
                    conn, actor, "admin.role_changed", email, role_change(*was, *now)
                )
    return row


def role_text(role: str, markets: Sequence[str]) -> str:
    """A role and markets as the audit log and the admins page say them: `editor of JO, AE`."""
    return f"{role} of {', '.join(markets) or 'every market'}"


def role_change(old_role, old_markets, role, markets) -> str:
    return f"{role_text(old_role, old_markets)} → {role_text(role, markets)}"


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
