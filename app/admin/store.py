"""The admin panel's SQL."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import asyncpg

from app.core import database, sql

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


# Riders, rider page, assign, messages, jobs, admins (issue 10: panel-riders).

RIDERS_SQL = sql.load(
    "admin",
    "riders_page",
    "rider_profile",
    "rider_assignments",
    "rider_flags",
    "rider_passed_courses",
    "rider_messages",
    "path_choices",
    "rider_choices",
    "set_rider_status",
    "set_rider_pin",
    "messages_page",
    "job_runs_page",
    "admins_list",
    "add_admin",
    "lock_admins",
    "disable_admin",
)

RIDER_PAGE_MESSAGES = 20


@dataclass(frozen=True)
class RiderSearch:
    """The riders list's `q` as the statement's parameters (README, riders list)."""

    rider_id: str | None
    name_pattern: str | None
    phone_pattern: str | None


async def riders_page(
    pool: asyncpg.Pool, after: str, search: RiderSearch, filters: dict, limit: int
) -> list[asyncpg.Record]:
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(
            RIDERS_SQL.riders_page,
            after,
            search.rider_id,
            search.name_pattern,
            search.phone_pattern,
            filters.get("market"),
            filters.get("status"),
            filters.get("vehicle_type"),
            filters.get("city"),
            filters.get("nationality"),
            limit,
        )


async def rider_page(pool: asyncpg.Pool, rider_id: str) -> dict | None:
    """Everything the rider page shows, or None for an unknown rider."""
    async with pool.acquire() as conn:
        profile = await conn.fetchrow(RIDERS_SQL.rider_profile, rider_id)
        if profile is None:
            return None
        return {
            "rider": profile,
            "assignments": await conn.fetch(RIDERS_SQL.rider_assignments, rider_id),
            "flags": await conn.fetch(RIDERS_SQL.rider_flags, rider_id),
            "passed": await conn.fetch(RIDERS_SQL.rider_passed_courses, rider_id),
            "messages": await conn.fetch(RIDERS_SQL.rider_messages, rider_id, RIDER_PAGE_MESSAGES),
            "paths": await conn.fetch(RIDERS_SQL.path_choices),
        }


async def path_choices(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(RIDERS_SQL.path_choices)


async def rider_choices(db: Db) -> dict[str, list[str]]:
    """The vehicle types and cities riders have, for the assign form's choices."""
    choices: dict[str, list[str]] = {"city": [], "vehicle_type": []}
    for row in await db.fetch(RIDERS_SQL.rider_choices):
        choices[row["kind"]].append(row["value"])
    return choices


async def set_rider_status(conn: asyncpg.Connection, rider_id: str, status: str) -> bool:
    return await conn.fetchval(RIDERS_SQL.set_rider_status, rider_id, status) is not None


async def set_rider_pin(conn: asyncpg.Connection, rider_id: str, pin_hash: str) -> bool:
    return await conn.fetchval(RIDERS_SQL.set_rider_pin, rider_id, pin_hash) is not None


async def messages_page(
    pool: asyncpg.Pool, before: int | None, filters: dict, limit: int
) -> list[asyncpg.Record]:
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(
            RIDERS_SQL.messages_page,
            before,
            filters.get("status"),
            filters.get("kind"),
            filters.get("since"),
            filters.get("until"),
            limit,
        )


async def job_runs(db: Db, limit: int) -> list[asyncpg.Record]:
    return await db.fetch(RIDERS_SQL.job_runs_page, limit)


async def admins(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(RIDERS_SQL.admins_list)


async def add_admin(db: Db, email: str, name: str, password_hash: str) -> int | None:
    """The new admin's id, or None when an admin has that email."""
    return await db.fetchval(RIDERS_SQL.add_admin, email, name, password_hash)


async def disable_admin(conn: asyncpg.Connection, email: str) -> asyncpg.Record | None:
    """Disables the admin unless it is the last active one, in the caller's transaction (see
    sql/admin/disable_admin.sql for the answer)."""
    await conn.execute(RIDERS_SQL.lock_admins)
    return await conn.fetchrow(RIDERS_SQL.disable_admin, email)
