"""load-data sections of the shop (DESIGN §6), written set-based in dependency order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import asyncpg

from app.core import sql
from app.core.loader import (
    RecordError,
    Section,
    column,
    columns,
    json_text,
    unique,
    validated,
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
    unique_pairs,
)
from app.shop.schemas import ADDRESS_FIELDS

SQL = sql.load(
    "shop",
    "missing_partners",
    "missing_products",
    "missing_users",
    "missing_orders",
    "load_partners",
    "load_products",
    "clear_product_partners",
    "load_product_partners",
    "load_partner_kits",
    "user_conflicts",
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


def missing_statement(kind: str) -> str:
    return {
        "partner": SQL.missing_partners,
        "product": SQL.missing_products,
        "user": SQL.missing_users,
        "order": SQL.missing_orders,
    }[kind]


async def require(
    conn: asyncpg.Connection, kind: str, refs: Iterable[tuple[int, str, Any]]
) -> None:
    """Raise for the first (index, field, value) whose value names no stored `kind`."""
    refs = [ref for ref in refs if ref[2] is not None]
    if not refs:
        return
    values = sorted({value for _, _, value in refs})
    missing = set(await conn.fetchval(missing_statement(kind), values))
    for index, field, value in refs:
        if value in missing:
            raise RecordError(index, field, f"unknown {kind} {value!r}")


async def require_fields(conn: asyncpg.Connection, records: list[Any], **kinds: str) -> None:
    """Every record's `field` (keyword) names a stored row of its kind (value)."""
    for field, kind in kinds.items():
        await require(conn, kind, ((i, field, r[field]) for i, r in enumerate(records)))


async def write_partners(conn: asyncpg.Connection, records: list[Any]) -> None:
    await conn.execute(SQL.load_partners, column(records, "name"))


async def write_products(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require(
        conn,
        "partner",
        (
            (i, f"partners[{j}]", name)
            for i, r in enumerate(records)
            for j, name in enumerate(r["partners"])
        ),
    )
    ids = column(records, "id")
    await conn.execute(
        SQL.load_products,
        ids,
        *columns(records, "product_name", "category_name", "is_branded", "available", "deleted"),
    )
    await conn.execute(SQL.clear_product_partners, ids)
    links = [(r["id"], name) for r in records for name in r["partners"]]
    await conn.execute(SQL.load_product_partners, [p for p, _ in links], [n for _, n in links])


async def write_partner_kits(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require_fields(conn, records, partner_name="partner", product_id="product")
    await conn.execute(
        SQL.load_partner_kits,
        *columns(records, "partner_name", "product_id", "quantity", "mandatory"),
    )


async def write_users(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require_fields(conn, records, partner_name="partner")
    ids = column(records, "id")
    emails = column(records, "email")
    ridehail_ids = column(records, "ridehail_id")
    agency_ids = column(records, "agency_id")
    conflict = await conn.fetchrow(SQL.user_conflicts, ids, emails, ridehail_ids, agency_ids)
    if conflict is not None:
        raise RecordError(
            conflict["ord"] - 1,
            conflict["field"],
            f"{conflict['field']} already belongs to a different user",
        )
    await conn.execute(
        SQL.load_users,
        ids,
        emails,
        ridehail_ids,
        agency_ids,
        *columns(records, "first_name", "last_name", "partner_name"),
        [r["active"] == 1 for r in records],
    )


async def write_user_kits(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require_fields(conn, records, user_id="user", product_id="product")
    await conn.execute(
        SQL.load_user_kits,
        *columns(records, "user_id", "product_id", "quantity", "mandatory"),
    )


async def write_user_products(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require_fields(conn, records, user_id="user", product_id="product", order_id="order")
    changed = await conn.fetchval(
        SQL.load_user_products,
        *columns(records, "id", "user_id", "product_id", "order_id", "assigned_at", "channel"),
    )
    await conn.execute(store.SQL.refresh_owned, changed)


async def write_currency_rates(conn: asyncpg.Connection, records: list[Any]) -> None:
    await conn.execute(
        SQL.load_currency_rates, column(records, "currency"), column(records, "eur_rate")
    )


async def write_tiers(conn: asyncpg.Connection, records: list[Any]) -> None:
    await conn.execute(
        SQL.load_tiers,
        *columns(records, "ridehail_tier", "name", "discount_percent"),
    )


def _epoch(moment) -> int:
    return int(moment.timestamp() // 1)


async def write_orders(conn: asyncpg.Connection, records: list[Any]) -> None:
    await require_fields(conn, records, user_id="user", partner_name="partner")
    await require(
        conn,
        "product",
        [
            *(
                (i, f"items[{j}].product_id", item["product_id"])
                for i, r in enumerate(records)
                for j, item in enumerate(r["items"])
            ),
            *(
                (i, f"exchange.products[{j}].product_id", product["product_id"])
                for i, r in enumerate(records)
                if r["exchange"]
                for j, product in enumerate(r["exchange"]["products"])
            ),
        ],
    )
    ids = column(records, "order_id")
    await conn.execute(
        SQL.load_orders,
        ids,
        *columns(
            records,
            "created_at",
            "user_id",
            "partner_name",
            "driver_id",
            "ridehail_tier",
            "order_type",
            "shipment",
            "currency",
            "delivery_subsidization",
        ),
        [
            json_text([{name: a[name] for name in ADDRESS_FIELDS} for a in r["addresses"]])
            for r in records
        ],
        [r["payment"]["plan"] for r in records],
        [r["payment"]["installments_total"] for r in records],
        [json_text(r["tracking_numbers"]) for r in records],
        [r["payment"]["installments_paid"] for r in records],
        [r["payment"]["failed"] for r in records],
        *columns(records, "subscription_status", "subscription_overdue"),
        [r["exchange"]["status"] if r["exchange"] else None for r in records],
        [
            json_text(
                [
                    {"timestamp": _epoch(f["timestamp"]), "reason": f["reason"]}
                    for f in r["delivery_failures"]
                ]
            )
            for r in records
        ],
    )
    await conn.execute(SQL.clear_order_children, ids)
    statuses = [
        (r["order_id"], j, s["status"], s["timestamp"])
        for r in records
        for j, s in enumerate(r["status_history"])
    ]
    await conn.execute(SQL.load_order_statuses, *map(list, zip(*statuses, strict=True)))
    items = [
        (
            r["order_id"],
            j,
            it["product_id"],
            it["quantity"],
            it["unit_price"],
            it["has_bag"],
            it["subsidization"],
            it["wyb_discount"],
        )
        for r in records
        for j, it in enumerate(r["items"])
    ]
    if items:
        await conn.execute(SQL.load_order_items, *map(list, zip(*items, strict=True)))
    exchanged = [
        (
            r["order_id"],
            j,
            p["product_id"],
            p["wrong_size"],
            p["warranty"],
            p["lost"],
            p["other"],
            p["reason"],
            p["timestamp"],
            json_text(p["images"]),
        )
        for r in records
        if r["exchange"]
        for j, p in enumerate(r["exchange"]["products"])
    ]
    if exchanged:
        await conn.execute(SQL.load_exchange_products, *map(list, zip(*exchanged, strict=True)))
    await conn.execute(store.SQL.refresh_orders, ids)


async def after_load(conn: asyncpg.Connection) -> None:
    """After a file: every user's kit counters, since kits, units or partners may have changed."""
    await conn.execute(store.SQL.refresh_kit_state, None)


SECTIONS = [
    Section("partners", validated(PartnerRecord, unique("name")), write_partners),
    Section("products", validated(ProductRecord, unique("id")), write_products),
    Section(
        "partner_kits",
        validated(PartnerKitRecord, unique_pairs("partner_name", "product_id")),
        write_partner_kits,
    ),
    Section(
        "users",
        validated(UserRecord, unique("id", "email", "ridehail_id", "agency_id")),
        write_users,
    ),
    Section(
        "user_kits",
        validated(UserKitRecord, unique_pairs("user_id", "product_id")),
        write_user_kits,
    ),
    Section(
        "currency_rates", validated(CurrencyRateRecord, unique("currency")), write_currency_rates
    ),
    Section("tiers", validated(TierRecord, unique("ridehail_tier")), write_tiers),
    Section("orders", validated(OrderRecord, unique("order_id")), write_orders),
    # After orders: a unit may name the order it came with.
    Section("user_products", validated(UserProductRecord, unique("id")), write_user_products),
]
