"""The admin panel's SQL."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import asyncpg

from app.core import sql

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
    "dashboard",
    "last_job_runs",
)

Db = asyncpg.Connection | asyncpg.Pool


@dataclass(frozen=True)
class Admin:
    admin_id: int
    email: str
    name: str


async def credentials(db: Db, email: str) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.admin_by_email, email)


async def admin(db: Db, admin_id: int) -> Admin:
    return Admin(**await db.fetchrow(SQL.admin_by_id, admin_id))


async def upsert_admin(db: Db, email: str, name: str | None, password_hash: str):
    return await db.fetchrow(SQL.upsert_admin, email, name, password_hash)


async def any_admin(db: Db) -> bool:
    return await db.fetchval(SQL.any_admin)


async def add_setup_token(db: Db, token_hash: bytes) -> None:
    await db.execute(SQL.insert_setup_token, token_hash)


async def setup_token_usable(db: Db, token_hash: bytes) -> bool:
    return await db.fetchval(SQL.setup_token_usable, token_hash)


async def setup_first_admin(
    pool: asyncpg.Pool, token_hash: bytes, email: str, name: str, password_hash: str
) -> int | None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(SQL.lock_first_admin_setup)
        return await conn.fetchval(SQL.setup_first_admin, token_hash, email, name, password_hash)


async def dashboard(db: Db) -> dict:
    counts = dict(await db.fetchrow(SQL.dashboard))
    return {"counts": counts, "job_runs": await db.fetch(SQL.last_job_runs)}


# Learning paths and courses (app/admin/paths.py, app/admin/courses.py).
CONTENT_SQL = sql.load(
    "admin",
    "path_list",
    "path_by_id",
    "path_assignments",
    "course_choices",
    "course_list",
)


async def path_list(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(CONTENT_SQL.path_list)


async def path(db: Db, path_id: uuid.UUID) -> asyncpg.Record | None:
    return await db.fetchrow(CONTENT_SQL.path_by_id, path_id)


async def path_assignments(db: Db, path_id: uuid.UUID) -> asyncpg.Record:
    return await db.fetchrow(CONTENT_SQL.path_assignments, path_id)


async def course_choices(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(CONTENT_SQL.course_choices)


async def course_list(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(CONTENT_SQL.course_list)
