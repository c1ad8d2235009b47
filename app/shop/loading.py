"""load-data sections of the shop: each staged by COPY as it is read, then written set-based
in dependency order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncpg
import orjson
from marshmallow import Schema

from app.core import sql
from app.core.loader import (
    Staging,
    first_fault,
    plain_first_loader,
    record_rows,
    schema_loader,
    staged,
)
from app.shop import store
from app.shop.records import (
    CurrencyRateRecord,
    OrderRecord,
    PartnerKitRecord,
    PartnerRecord,
    ProductRecord,
    TierRecord,
    UserKitRecord,
    UserProductRecord,
    UserRecord,
    plain_order,
    plain_unit,
    plain_user_kit,
)
from app.shop.schemas import ADDRESS_FIELDS

SECTION_NAMES = (
    "partners",
    "products",
    "partner_kits",
    "users",
    "user_kits",
    "currency_rates",
    "tiers",
    "orders",
    "user_products",
)
# Each section has its staging table (stage_), its duplicates (check_) and, where it names
# other rows, the first it names that does not exist (unknown_in_).
REFERRING = ("products", "partner_kits", "users", "user_kits", "orders", "user_products")
SQL = sql.load(
    "shop",
    *(f"stage_{name}" for name in SECTION_NAMES),
    *(f"check_{name}" for name in SECTION_NAMES),
    *(f"unknown_in_{name}" for name in REFERRING),
    "load_partners",
    "load_products",
    "clear_product_partners",
    "load_product_partners",
    "load_partner_kits",
    "load_users",
    "load_user_kits",
    "load_user_products",
    "load_currency_rates",
    "load_tiers",
    "load_orders",
    "clear_order_children",
    "load_order_statuses",
    "load_order_items",
    "load_exchange_products",
)


def _staging(name: str, schema: type[Schema], row: Callable[[int, dict], tuple], *columns: str):
    """Section `name`'s staging: each record loaded with `schema`, its row made by `row`."""
    return _loaded_staging(name, schema_loader(schema), row, *columns)


def _loaded_staging(
    name: str, load: Callable[[int, Any], dict], row: Callable[[int, dict], tuple], *columns: str
) -> Staging:
    return Staging(
        getattr(SQL, f"stage_{name}"),
        f"staged_{name}",
        ("ord", *columns),
        record_rows(load, row),
        (getattr(SQL, f"check_{name}"),),
    )


async def _require(conn: asyncpg.Connection, name: str) -> None:
    """Raise for the first record of staged section `name` naming a row that does not exist."""
    await first_fault(conn, getattr(SQL, f"unknown_in_{name}"))


def _json(value: Any) -> str:
    """JSON text of a record's part (decimals as their text, times in ISO 8601)."""
    return orjson.dumps(value, default=str).decode()


def _columns(names: tuple[str, ...]) -> Callable[[int, dict], tuple]:
    return lambda index, r: (index, *(r[name] for name in names))


PARTNERS = _staging("partners", PartnerRecord, _columns(("name",)), "name")


async def write_partners(conn: asyncpg.Connection, _count: int) -> None:
    await conn.execute(SQL.load_partners)


PRODUCT_COLUMNS = ("id", "product_name", "category_name", "is_branded", "available", "deleted")
PRODUCTS = _staging(
    "products",
    ProductRecord,
    lambda index, r: (index, *(r[name] for name in PRODUCT_COLUMNS), _json(r["partners"])),
    *PRODUCT_COLUMNS,
    "partners",
)


async def write_products(conn: asyncpg.Connection, _count: int) -> None:
    await _require(conn, "products")
    await conn.execute(SQL.load_products)
    await conn.execute(SQL.clear_product_partners)
    await conn.execute(SQL.load_product_partners)


KIT_COLUMNS = ("product_id", "quantity", "mandatory")
PARTNER_KITS = _staging(
    "partner_kits",
    PartnerKitRecord,
    _columns(("partner_name", *KIT_COLUMNS)),
    "partner_name",
    *KIT_COLUMNS,
)


async def write_partner_kits(conn: asyncpg.Connection, _count: int) -> None:
    await _require(conn, "partner_kits")
    await conn.execute(SQL.load_partner_kits)


USER_COLUMNS = ("id", "email", "ridehail_id", "agency_id", "first_name", "last_name")
USERS = _staging(
    "users",
    UserRecord,
    lambda index, r: (
        index,
        *(r[name] for name in USER_COLUMNS),
        r["partner_name"],
        r["active"] == 1,
    ),
    *USER_COLUMNS,
    "partner_name",
    "active",
)


async def write_users(conn: asyncpg.Connection, _count: int) -> None:
    await _require(conn, "users")
    await conn.execute(SQL.load_users)


USER_KITS = _loaded_staging(
    "user_kits",
    plain_first_loader(UserKitRecord, plain_user_kit),
    _columns(("user_id", *KIT_COLUMNS)),
    "user_id",
    *KIT_COLUMNS,
)


async def write_user_kits(conn: asyncpg.Connection, _count: int) -> None:
    await _require(conn, "user_kits")
    await conn.execute(SQL.load_user_kits)


UNIT_COLUMNS = ("id", "user_id", "product_id", "order_id", "assigned_at", "channel")
USER_PRODUCTS = _loaded_staging(
    "user_products",
    plain_first_loader(UserProductRecord, plain_unit),
    _columns(UNIT_COLUMNS),
    *UNIT_COLUMNS,
)


async def write_user_products(conn: asyncpg.Connection, _count: int) -> None:
    """Units, then every user's owned counts (a load may move units between any users)."""
    await _require(conn, "user_products")
    await conn.execute(SQL.load_user_products)
    await conn.execute(store.SQL.refresh_owned, None)


CURRENCY_RATES = _staging(
    "currency_rates",
    CurrencyRateRecord,
    _columns(("currency", "eur_rate")),
    "currency",
    "eur_rate",
)


async def write_currency_rates(conn: asyncpg.Connection, _count: int) -> None:
    await conn.execute(SQL.load_currency_rates)


TIER_COLUMNS = ("ridehail_tier", "name", "discount_percent")
TIERS = _staging("tiers", TierRecord, _columns(TIER_COLUMNS), *TIER_COLUMNS)


async def write_tiers(conn: asyncpg.Connection, _count: int) -> None:
    await conn.execute(SQL.load_tiers)


def _epoch(moment) -> int:
    return int(moment.timestamp() // 1)


ORDER_COLUMNS = (
    "order_id",
    "created_at",
    "user_id",
    "partner_name",
    "driver_id",
    "ridehail_tier",
    "order_type",
    "shipment",
    "currency",
    "delivery_subsidization",
)


def _order_row(index: int, r: dict) -> tuple:
    payment, exchange = r["payment"], r["exchange"]
    return (
        index,
        *(r[name] for name in ORDER_COLUMNS),
        _json([{name: a[name] for name in ADDRESS_FIELDS} for a in r["addresses"]]),
        payment["plan"],
        payment["installments_total"],
        payment["installments_paid"],
        payment["failed"],
        _json(r["tracking_numbers"]),
        r["subscription_status"],
        r["subscription_overdue"],
        exchange["status"] if exchange else None,
        _json(
            [
                {"timestamp": _epoch(f["timestamp"]), "reason": f["reason"]}
                for f in r["delivery_failures"]
            ]
        ),
        _json(r["status_history"]),
        _json(r["items"]),
        _json(exchange["products"] if exchange else []),
    )


ORDERS = _loaded_staging(
    "orders",
    plain_first_loader(OrderRecord, plain_order),
    _order_row,
    *ORDER_COLUMNS,
    "addresses",
    "payment_plan",
    "installments_total",
    "installments_paid",
    "payment_failed",
    "tracking",
    "subscription_status",
    "subscription_overdue",
    "exchange_status",
    "delivery_failures",
    "statuses",
    "items",
    "exchange_products",
)


async def write_orders(conn: asyncpg.Connection, _count: int) -> None:
    """Orders, their children replaced, then every order's derived columns (recomputed for
    all: a list of the file's order ids would grow with the file)."""
    await _require(conn, "orders")
    await conn.execute(SQL.load_orders)
    await conn.execute(SQL.clear_order_children)
    await conn.execute(SQL.load_order_statuses)
    await conn.execute(SQL.load_order_items)
    await conn.execute(SQL.load_exchange_products)
    await conn.execute(store.SQL.refresh_orders, None)


async def after_load(conn: asyncpg.Connection) -> None:
    """After a file: every user's kit counters, since kits, units or partners may have changed."""
    await conn.execute(store.SQL.refresh_kit_state, None)


SECTIONS = [
    staged("partners", PARTNERS, write_partners),
    staged("products", PRODUCTS, write_products),
    staged("partner_kits", PARTNER_KITS, write_partner_kits),
    staged("users", USERS, write_users),
    staged("user_kits", USER_KITS, write_user_kits),
    staged("currency_rates", CURRENCY_RATES, write_currency_rates),
    staged("tiers", TIERS, write_tiers),
    staged("orders", ORDERS, write_orders),
    # After orders: a unit may name the order it came with.
    staged("user_products", USER_PRODUCTS, write_user_products),
]
