"""Runs the shop's SQL (sql/shop/*.sql)."""

from __future__ import annotations

from typing import Any

import asyncpg

from app.core import database, sql
from app.shop.schemas import email_key

SQL = sql.load(
    "shop",
    "import_users",
    "refresh_kit_state",
    "refresh_owned",
    "refresh_orders",
    "find_by_email",
    "products",
    "user_exists",
    "lock_user",
    "product_exists",
    "kit",
    "upsert_kit_entry",
    "users_page_keys",
    "users_page",
    "exchange_orders",
    "review_exchange",
)


async def import_users(pool: asyncpg.Pool, records: list[dict[str, Any]]) -> list[asyncpg.Record]:
    """Save the records (each in its own savepoint), refresh the saved users' kit counters."""
    async with database.planned_per_call(pool) as conn:
        rows = await conn.fetch(SQL.import_users, records)
        saved = [row["user_id"] for row in rows if row["user_id"] is not None]
        if saved:
            await conn.execute(SQL.refresh_kit_state, saved)
    return rows


async def find_by_email(pool: asyncpg.Pool, email: str) -> asyncpg.Record | None:
    return await pool.fetchrow(SQL.find_by_email, email_key(email))


async def products(pool: asyncpg.Pool, partner_name: str | None) -> list[dict[str, Any]]:
    return [dict(row) for row in await pool.fetch(SQL.products, partner_name)]


async def kit(pool: asyncpg.Pool, user_id: int, per_user: bool) -> list[dict[str, Any]] | None:
    """The user's kit entries, or None for an unknown user."""
    async with database.planned_per_call(pool) as conn:
        if not await conn.fetchval(SQL.user_exists, user_id):
            return None
        return await conn.fetchval(SQL.kit, per_user, user_id)


async def user_exists(pool: asyncpg.Pool, user_id: int) -> bool:
    return await pool.fetchval(SQL.user_exists, user_id)


async def product_exists(pool: asyncpg.Pool, product_id: int) -> bool:
    return await pool.fetchval(SQL.product_exists, product_id)


async def save_kit_entry(
    pool: asyncpg.Pool, user_id: int, product_id: int, quantity: int, mandatory: bool
) -> list[dict[str, Any]]:
    """Upsert the entry, refresh the user's kit counters; the user's whole kit after it."""
    async with database.planned_per_call(pool) as conn:
        await conn.execute(SQL.lock_user, user_id)
        await conn.execute(SQL.upsert_kit_entry, user_id, product_id, quantity, mandatory)
        await conn.execute(SQL.refresh_kit_state, [user_id])
        return await conn.fetchval(SQL.kit, True, user_id)


USER_FILTERS = (
    "partner_name",
    "agency_id",
    "ridehail_id",
    "email",
    "id",
    "existing_product_id",
    "available_product_id",
    "existing_kit_empty",
    "available_kit_empty",
)


async def users_page(
    pool: asyncpg.Pool, per_user: bool, limit: int, offset: int, filters: dict[str, Any]
) -> tuple[int, list[dict[str, Any]]]:
    """(total of matching users, the page's users with their kits). The page's IDs come
    first, from an index-only walk; only those users are then built, in the same snapshot."""
    if filters.get("email") is not None:
        filters = {**filters, "email": email_key(filters["email"])}
    async with database.planned_per_call(pool, isolation="repeatable_read") as conn:
        total, ids = await conn.fetchrow(
            SQL.users_page_keys,
            per_user,
            limit,
            offset,
            *(filters.get(name) for name in USER_FILTERS),
        )
        users = await conn.fetchval(SQL.users_page, per_user, ids) if ids else []
    return total, users


ORDER_FILTERS = (
    "order_timestamp_from",
    "order_timestamp_to",
    "status_timestamp_from",
    "status_timestamp_to",
    "delivery_timestamp_from",
    "delivery_timestamp_to",
    "status",
    "payment_status",
    "order_type",
    "shipment",
    "exchange_status",
    "order_id",
    "driver_id",
    "tracking",
    "country",
    "city",
    "partner_name",
)


async def exchange_orders(
    pool: asyncpg.Pool, tier_discount: bool, limit: int, offset: int, filters: dict[str, Any]
) -> list[dict[str, Any]]:
    async with database.planned_per_call(pool) as conn:
        return await conn.fetchval(
            SQL.exchange_orders,
            tier_discount,
            limit,
            offset,
            *(filters.get(name) for name in ORDER_FILTERS),
        )


async def review_exchange(pool: asyncpg.Pool, order_id: int, status: str) -> str | None:
    """The exchange status after the review, or None when the order has no exchange request."""
    return await pool.fetchval(SQL.review_exchange, order_id, status)
