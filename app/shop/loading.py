"""load-data sections of the shop (DESIGN §6), written set-based in dependency order."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import asyncpg
import orjson
from marshmallow import Schema, fields, validate

from app.core import sql
from app.core.loader import RecordError, Section, schema_validator
from app.shop import store
from app.shop.schemas import ADDRESS_FIELDS, RidehailId

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

STATUSES = ("PROCESSING", "PAID", "FORWARDED", "SENT", "DELIVERED", "MANUAL_DELIVERED", "CANCELLED")
Text = fields.String
Time = fields.AwareDateTime


def Quantity() -> fields.Integer:  # noqa: N802 - used like a field class
    return fields.Integer(required=True, validate=validate.Range(1, 1000))


def Money() -> fields.Decimal:  # noqa: N802 - used like a field class
    return fields.Decimal(load_default=0, validate=validate.Range(min=0))


class PartnerRecord(Schema):
    name = Text(required=True, validate=validate.Length(min=1))


class ProductRecord(Schema):
    id = fields.Integer(required=True, validate=validate.Range(min=1))
    product_name = Text(required=True, validate=validate.Length(min=1))
    category_name = Text(load_default="")
    is_branded = fields.Boolean(load_default=False)
    available = fields.Boolean(load_default=True)
    deleted = fields.Boolean(load_default=False)
    partners = fields.List(Text(), load_default=list)


class KitRecord(Schema):
    product_id = fields.Integer(required=True)
    quantity = Quantity()
    mandatory = fields.Boolean(required=True)


class PartnerKitRecord(KitRecord):
    partner_name = Text(required=True)


class UserRecord(Schema):
    id = fields.Integer(required=True, validate=validate.Range(min=1))
    email = fields.Email(required=True)
    ridehail_id = RidehailId(load_default=None, allow_none=True)
    agency_id = Text(load_default=None, allow_none=True, validate=validate.Length(min=1))
    first_name = Text(required=True, validate=validate.Length(min=1))
    last_name = Text(required=True, validate=validate.Length(min=1))
    partner_name = Text(required=True)
    active = fields.Integer(required=True, validate=validate.OneOf((0, 1)))


class UserKitRecord(KitRecord):
    user_id = fields.Integer(required=True)


class UserProductRecord(Schema):
    id = fields.Integer(required=True, validate=validate.Range(min=1))
    user_id = fields.Integer(required=True)
    product_id = fields.Integer(required=True)
    order_id = fields.Integer(load_default=None, allow_none=True)
    assigned_at = Time(required=True, allow_none=True)
    channel = Text(required=True, allow_none=True, validate=validate.OneOf(("app", "eshop", "oms")))


class CurrencyRateRecord(Schema):
    currency = Text(required=True, validate=validate.Regexp(r"^[A-Z]{3}$"))
    eur_rate = fields.Decimal(required=True, validate=validate.Range(min=0, min_inclusive=False))


class TierRecord(Schema):
    ridehail_tier = Text(required=True, validate=validate.Length(min=1))
    name = Text(required=True)
    discount_percent = fields.Decimal(required=True, validate=validate.Range(0, 100))


AddressRecord = Schema.from_dict(
    {
        "type": Text(required=True, validate=validate.OneOf(("shipping", "billing"))),
        **{name: Text(load_default="") for name in ADDRESS_FIELDS[1:]},
    },
    name="AddressRecord",
)


class StatusRecord(Schema):
    status = Text(required=True, validate=validate.OneOf(STATUSES))
    timestamp = Time(required=True)


class ItemRecord(Schema):
    product_id = fields.Integer(required=True)
    quantity = fields.Integer(required=True, validate=validate.Range(min=1))
    unit_price = fields.Decimal(required=True, validate=validate.Range(min=0))
    has_bag = fields.Boolean(required=True)
    subsidization = Money()
    wyb_discount = Money()


class PaymentRecord(Schema):
    plan = Text(required=True, validate=validate.OneOf(("one_time", "pay_later", "installments")))
    installments_total = fields.Integer(load_default=0, validate=validate.Range(min=0))
    installments_paid = fields.Integer(load_default=0, validate=validate.Range(min=0))
    failed = fields.Boolean(load_default=False)


class DeliveryFailureRecord(Schema):
    timestamp = Time(required=True)
    reason = Text(load_default="")


class ExchangeProductRecord(Schema):
    product_id = fields.Integer(required=True)
    wrong_size = fields.Boolean(load_default=False)
    warranty = fields.Boolean(load_default=False)
    lost = fields.Boolean(load_default=False)
    other = fields.Boolean(load_default=False)
    reason = Text(load_default="")
    timestamp = Time(required=True)
    images = fields.List(fields.Url(), load_default=list)


class ExchangeRecord(Schema):
    status = Text(required=True, validate=validate.OneOf(("pending", "approved", "denied")))
    products = fields.List(
        fields.Nested(ExchangeProductRecord), required=True, validate=validate.Length(min=1)
    )


class OrderRecord(Schema):
    order_id = fields.Integer(required=True, validate=validate.Range(min=1))
    created_at = Time(required=True)
    user_id = fields.Integer(load_default=None, allow_none=True)
    partner_name = Text(load_default=None, allow_none=True)
    driver_id = Text(required=True)
    ridehail_tier = Text(load_default=None, allow_none=True)
    order_type = Text(required=True, validate=validate.OneOf(("normal", "manual")))
    shipment = Text(required=True, validate=validate.OneOf(("standard", "door_to_door", "pickup")))
    currency = Text(required=True, validate=validate.Regexp(r"^[A-Z]{3}$"))
    delivery_subsidization = Money()
    addresses = fields.List(fields.Nested(AddressRecord), load_default=list)
    status_history = fields.List(
        fields.Nested(StatusRecord), required=True, validate=validate.Length(min=1)
    )
    tracking_numbers = fields.List(Text(), load_default=list)
    items = fields.List(fields.Nested(ItemRecord), load_default=list)
    payment = fields.Nested(PaymentRecord, required=True)
    subscription_status = Text(load_default="")
    subscription_overdue = fields.Boolean(load_default=False)
    delivery_failures = fields.List(fields.Nested(DeliveryFailureRecord), load_default=list)
    exchange = fields.Nested(ExchangeRecord, load_default=None, allow_none=True)


def unique(key: str, *fields_: str) -> Callable[[list[Any]], list[Any]]:
    """A validator step: no two records of the section share a value of these fields."""

    def check(records: list[Any]) -> list[Any]:
        for name in (key, *fields_):
            seen: set[Any] = set()
            for index, record in enumerate(records):
                value = record.get(name)
                if value is None:
                    continue
                if name == "email":
                    value = value.lower()
                if value in seen:
                    raise RecordError(index, name, f"duplicate {name} {value!r} in this section")
                seen.add(value)
        return records

    return check


def validated(schema: type[Schema], *checks: Callable[[list[Any]], list[Any]]):
    load = schema_validator(schema)

    def validate_records(records: list[Any]) -> list[Any]:
        records = load(records)
        for check in checks:
            records = check(records)
        return records

    return validate_records


def unique_pairs(first: str, second: str) -> Callable[[list[Any]], list[Any]]:
    def check(records: list[Any]) -> list[Any]:
        seen: set[tuple[Any, Any]] = set()
        for index, record in enumerate(records):
            pair = (record[first], record[second])
            if pair in seen:
                raise RecordError(index, second, f"duplicate entry {pair!r} in this section")
            seen.add(pair)
        return records

    return check


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


def column(records: list[Any], name: str) -> list[Any]:
    return [record[name] for record in records]


def columns(records: list[Any], *names: str) -> list[list[Any]]:
    """The records as one array per field, for `unnest`."""
    return [column(records, name) for name in names]


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
    emails = [r["email"].lower() for r in records]
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


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


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
            _json([{name: a[name] for name in ADDRESS_FIELDS} for a in r["addresses"]])
            for r in records
        ],
        [r["payment"]["plan"] for r in records],
        [r["payment"]["installments_total"] for r in records],
        [_json(r["tracking_numbers"]) for r in records],
        [r["payment"]["installments_paid"] for r in records],
        [r["payment"]["failed"] for r in records],
        *columns(records, "subscription_status", "subscription_overdue"),
        [r["exchange"]["status"] if r["exchange"] else None for r in records],
        [
            _json(
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
    await conn.execute(SQL.load_order_statuses, *map(list, zip(*statuses)))
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
        await conn.execute(SQL.load_order_items, *map(list, zip(*items)))
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
            _json(p["images"]),
        )
        for r in records
        if r["exchange"]
        for j, p in enumerate(r["exchange"]["products"])
    ]
    if exchanged:
        await conn.execute(SQL.load_exchange_products, *map(list, zip(*exchanged)))
    await conn.execute(store.SQL.refresh_orders, ids)


async def refresh_kit_state(conn: asyncpg.Connection) -> None:
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
