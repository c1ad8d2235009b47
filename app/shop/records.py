"""Records of the shop's load-data sections (DESIGN §6) and their checks within a section."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from app.core.fields import Decimal, Integer, Text
from app.core.loader import RecordError
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
