"""Records of the shop's load-data sections (docs/data-load.md) and their checks within a
section."""

from __future__ import annotations

import decimal
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from app.core.fields import Decimal, Integer, Text
from app.shop.schemas import (
    ADDRESS_FIELDS,
    CHANNELS,
    EXCHANGE_STATUSES,
    ORDER_TYPES,
    SHIPMENTS,
    RidehailId,
    email_key,
)

STATUSES = ("PROCESSING", "PAID", "FORWARDED", "SENT", "DELIVERED", "MANUAL_DELIVERED", "CANCELLED")
Time = fields.AwareDateTime


def Quantity() -> Integer:  # noqa: N802 - used like a field class
    return Integer(required=True, validate=validate.Range(1, 1000))


def Money() -> Decimal:  # noqa: N802 - used like a field class
    return Decimal(load_default=0, validate=validate.Range(min=0))


class PartnerRecord(Schema):
    name = Text(required=True, validate=validate.Length(min=1))


class ProductRecord(Schema):
    id = Integer(required=True, validate=validate.Range(min=1))
    product_name = Text(required=True, validate=validate.Length(min=1))
    category_name = Text(load_default="")
    is_branded = fields.Boolean(load_default=False)
    available = fields.Boolean(load_default=True)
    deleted = fields.Boolean(load_default=False)
    partners = fields.List(Text(), load_default=list)


class KitRecord(Schema):
    product_id = Integer(required=True)
    quantity = Quantity()
    mandatory = fields.Boolean(required=True)


class PartnerKitRecord(KitRecord):
    partner_name = Text(required=True)


class UserRecord(Schema):
    id = Integer(required=True, validate=validate.Range(min=1))
    email = fields.Email(required=True)
    ridehail_id = RidehailId(load_default=None, allow_none=True)
    agency_id = Text(load_default=None, allow_none=True, validate=validate.Length(min=1))
    first_name = Text(required=True, validate=validate.Length(min=1))
    last_name = Text(required=True, validate=validate.Length(min=1))
    partner_name = Text(required=True)
    active = Integer(required=True, validate=validate.OneOf((0, 1)))

    @post_load
    def fold_email(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {**data, "email": email_key(data["email"])}


class UserKitRecord(KitRecord):
    user_id = Integer(required=True)


class UserProductRecord(Schema):
    id = Integer(required=True, validate=validate.Range(min=1))
    user_id = Integer(required=True)
    product_id = Integer(required=True)
    order_id = Integer(load_default=None, allow_none=True)
    assigned_at = Time(required=True, allow_none=True)
    channel = Text(required=True, allow_none=True, validate=validate.OneOf(CHANNELS))


class CurrencyRateRecord(Schema):
    currency = Text(required=True, validate=validate.Regexp(r"^[A-Z]{3}$"))
    eur_rate = Decimal(required=True, validate=validate.Range(min=0, min_inclusive=False))


class TierRecord(Schema):
    ridehail_tier = Text(required=True, validate=validate.Length(min=1))
    name = Text(required=True)
    discount_percent = Decimal(required=True, validate=validate.Range(0, 100))


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
    product_id = Integer(required=True)
    quantity = Integer(required=True, validate=validate.Range(min=1))
    unit_price = Decimal(required=True, validate=validate.Range(min=0))
    has_bag = fields.Boolean(required=True)
    subsidization = Money()
    wyb_discount = Money()


class PaymentRecord(Schema):
    plan = Text(required=True, validate=validate.OneOf(("one_time", "pay_later", "installments")))
    installments_total = Integer(load_default=0, validate=validate.Range(min=0))
    installments_paid = Integer(load_default=0, validate=validate.Range(min=0))
    failed = fields.Boolean(load_default=False)


class DeliveryFailureRecord(Schema):
    timestamp = Time(required=True)
    reason = Text(load_default="")


class ExchangeProductRecord(Schema):
    product_id = Integer(required=True)
    wrong_size = fields.Boolean(load_default=False)
    warranty = fields.Boolean(load_default=False)
    lost = fields.Boolean(load_default=False)
    other = fields.Boolean(load_default=False)
    reason = Text(load_default="")
    timestamp = Time(required=True)
    images = fields.List(fields.Url(), load_default=list)


class ExchangeRecord(Schema):
    status = Text(required=True, validate=validate.OneOf(EXCHANGE_STATUSES))
    products = fields.List(
        fields.Nested(ExchangeProductRecord), required=True, validate=validate.Length(min=1)
    )


class OrderRecord(Schema):
    order_id = Integer(required=True, validate=validate.Range(min=1))
    created_at = Time(required=True)
    user_id = Integer(load_default=None, allow_none=True)
    partner_name = Text(load_default=None, allow_none=True)
    driver_id = Text(required=True)
    ridehail_tier = Text(load_default=None, allow_none=True)
    order_type = Text(required=True, validate=validate.OneOf(ORDER_TYPES))
    shipment = Text(required=True, validate=validate.OneOf(SHIPMENTS))
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


# Orders of the usual shape, read without marshmallow: OrderRecord costs ~0.2 ms an order (ten
# nested schemas), a minute of a 300,000-order load. `plain_order` takes a record only when every
# value has the plain form the schema accepts unchanged, and returns what the schema would; for
# anything else it returns None and the record goes through OrderRecord, which accepts it or
# names the field at fault. So it decides speed only, never what is valid nor any message.
_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{6})?(?:Z|[+-][0-9]{2}:[0-9]{2})\Z"
)
_MONEY = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?\Z")
_CURRENCY = re.compile(r"[A-Z]{3}\Z")
_ORDER_FIELDS = frozenset(OrderRecord().fields)
_ORDER_REQUIRED = frozenset(
    ("order_id", "created_at", "driver_id", "order_type", "shipment", "currency", "status_history")
) | {"payment"}
_ADDRESS_FIELDS = frozenset(ADDRESS_FIELDS)
_ITEM_FIELDS = frozenset(ItemRecord().fields)
_ITEM_REQUIRED = frozenset(("product_id", "quantity", "unit_price", "has_bag"))
_PAYMENT_FIELDS = frozenset(PaymentRecord().fields)
_EXCHANGE_PRODUCT_FIELDS = frozenset(ExchangeProductRecord().fields)
# A narrower form of what fields.Url accepts (https, a plain host name, a path of printable ASCII).
_COMMON_URL = re.compile(
    r"https://(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?:/[!-~]+)?\Z"
)


class _NotPlain(Exception):
    """The record needs the schema."""


def _plain(ok: bool) -> None:
    if not ok:
        raise _NotPlain


def _text(value: Any) -> str:
    _plain(type(value) is str and "\x00" not in value)
    return value


def _int(value: Any, least: int | None = None) -> int:
    _plain(type(value) is int and (least is None or value >= least))
    return value


def _bool(value: Any) -> bool:
    _plain(type(value) is bool)
    return value


def _time(value: Any) -> datetime:
    _plain(type(value) is str and _TIME.match(value) is not None)
    try:
        return datetime.fromisoformat(value)
    except ValueError:  # e.g. 2026-02-30: the schema says so
        raise _NotPlain from None


def _money(value: Any) -> decimal.Decimal:
    _plain(type(value) is str and _MONEY.match(value) is not None)
    return decimal.Decimal(value)


def _one_of(value: Any, choices: tuple[str, ...]) -> str:
    _plain(type(value) is str and value in choices)
    return value


def _object(value: Any, allowed: frozenset, required: frozenset = frozenset()) -> dict:
    _plain(type(value) is dict and required <= value.keys() <= allowed)
    return value


def _list(value: Any) -> list:
    _plain(type(value) is list)
    return value


def _item(item: Any) -> dict:
    _object(item, _ITEM_FIELDS, _ITEM_REQUIRED)
    return {
        "product_id": _int(item["product_id"]),
        "quantity": _int(item["quantity"], 1),
        "unit_price": _money(item["unit_price"]),
        "has_bag": _bool(item["has_bag"]),
        "subsidization": _money(item["subsidization"]) if "subsidization" in item else 0,
        "wyb_discount": _money(item["wyb_discount"]) if "wyb_discount" in item else 0,
    }


def _exchange_product(product: Any) -> dict:
    _object(product, _EXCHANGE_PRODUCT_FIELDS, frozenset(("product_id", "timestamp")))
    images = _list(product.get("images", []))
    for image in images:
        _plain(type(image) is str and _COMMON_URL.match(image) is not None)
    return {
        "product_id": _int(product["product_id"]),
        **{
            flag: _bool(product.get(flag, False))
            for flag in ("wrong_size", "warranty", "lost", "other")
        },
        "reason": _text(product.get("reason", "")),
        "timestamp": _time(product["timestamp"]),
        "images": images,
    }


def _exchange(exchange: Any) -> dict | None:
    if exchange is None:
        return None
    _object(exchange, frozenset(("status", "products")), frozenset(("status", "products")))
    products = _list(exchange["products"])
    _plain(len(products) > 0)
    return {
        "status": _one_of(exchange["status"], EXCHANGE_STATUSES),
        "products": [_exchange_product(p) for p in products],
    }


def _order(record: Any) -> dict:
    _object(record, _ORDER_FIELDS, _ORDER_REQUIRED)
    get = record.get
    history = _list(record["status_history"])
    _plain(len(history) > 0)
    payment = _object(record["payment"], _PAYMENT_FIELDS, frozenset(("plan",)))
    currency = _text(record["currency"])
    _plain(_CURRENCY.match(currency) is not None)
    user_id, partner, tier = get("user_id"), get("partner_name"), get("ridehail_tier")
    return {
        "order_id": _int(record["order_id"], 1),
        "created_at": _time(record["created_at"]),
        "user_id": None if user_id is None else _int(user_id),
        "partner_name": None if partner is None else _text(partner),
        "driver_id": _text(record["driver_id"]),
        "ridehail_tier": None if tier is None else _text(tier),
        "order_type": _one_of(record["order_type"], ORDER_TYPES),
        "shipment": _one_of(record["shipment"], SHIPMENTS),
        "currency": currency,
        "delivery_subsidization": _money(record["delivery_subsidization"])
        if "delivery_subsidization" in record
        else 0,
        "addresses": [
            {
                "type": _one_of(a.get("type"), ("shipping", "billing")),
                **{name: _text(a.get(name, "")) for name in ADDRESS_FIELDS[1:]},
            }
            for a in map(
                lambda a: _object(a, _ADDRESS_FIELDS, frozenset(("type",))),
                _list(get("addresses", [])),
            )
        ],
        "status_history": [
            {"status": _one_of(s["status"], STATUSES), "timestamp": _time(s["timestamp"])}
            for s in (
                _object(s, frozenset(("status", "timestamp")), frozenset(("status", "timestamp")))
                for s in history
            )
        ],
        "tracking_numbers": [_text(t) for t in _list(get("tracking_numbers", []))],
        "items": [_item(item) for item in _list(get("items", []))],
        "payment": {
            "plan": _one_of(payment["plan"], ("one_time", "pay_later", "installments")),
            "installments_total": _int(payment.get("installments_total", 0), 0),
            "installments_paid": _int(payment.get("installments_paid", 0), 0),
            "failed": _bool(payment.get("failed", False)),
        },
        "subscription_status": _text(get("subscription_status", "")),
        "subscription_overdue": _bool(get("subscription_overdue", False)),
        "delivery_failures": [
            {"timestamp": _time(f["timestamp"]), "reason": _text(f.get("reason", ""))}
            for f in (
                _object(f, frozenset(("timestamp", "reason")), frozenset(("timestamp",)))
                for f in _list(get("delivery_failures", []))
            )
        ],
        "exchange": _exchange(get("exchange")),
    }


_USER_KIT_FIELDS = frozenset(("user_id", "product_id", "quantity", "mandatory"))
_UNIT_FIELDS = frozenset(UserProductRecord().fields)
_UNIT_REQUIRED = _UNIT_FIELDS - {"order_id"}


def _user_kit(record: Any) -> dict:
    _object(record, _USER_KIT_FIELDS, _USER_KIT_FIELDS)
    quantity = _int(record["quantity"], 1)
    _plain(quantity <= 1000)
    return {
        "user_id": _int(record["user_id"]),
        "product_id": _int(record["product_id"]),
        "quantity": quantity,
        "mandatory": _bool(record["mandatory"]),
    }


def _unit(record: Any) -> dict:
    _object(record, _UNIT_FIELDS, _UNIT_REQUIRED)
    order_id, assigned_at, channel = (
        record.get("order_id"),
        record["assigned_at"],
        record["channel"],
    )
    return {
        "id": _int(record["id"], 1),
        "user_id": _int(record["user_id"]),
        "product_id": _int(record["product_id"]),
        "order_id": None if order_id is None else _int(order_id),
        "assigned_at": None if assigned_at is None else _time(assigned_at),
        "channel": None if channel is None else _one_of(channel, CHANNELS),
    }


def plain(read: Callable[[Any], dict]) -> Callable[[Any], dict | None]:
    """A reader of records of the usual shape: what the section's schema would load, or None
    when the record needs the schema (which loads it or words its error). The big sections
    of a family's bench file took most of load-data's time in schema loads."""

    def load(record: Any) -> dict | None:
        try:
            return read(record)
        except _NotPlain:
            return None

    return load


plain_order = plain(_order)
plain_user_kit = plain(_user_kit)
plain_unit = plain(_unit)
