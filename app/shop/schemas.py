"""Request and response schemas of the shop (also the OpenAPI document's source)."""

from __future__ import annotations

import re

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from app.core.openapi import ANY_JSON
from app.shop import laravel as lv

MAX_IMPORT = 5000
MAX_PAGE = 200
MAX_UNIX_TIME = 253402300799  # 9999-12-31T23:59:59Z
DIGITS = re.compile(r"[0-9]{1,19}")
STATUS_FILTERS = ("processing", "sent", "delivered", "cancelled")
PAYMENT_FILTERS = ("paid_in_one", "fully_paid", "in_progress", "failed")
ORDER_TYPES = ("normal", "manual")
SHIPMENTS = ("standard", "door_to_door", "pickup")
EXCHANGE_STATUSES = ("pending", "approved", "denied")
CHANNELS = ("app", "eshop", "oms")


def email_key(email: str) -> str:
    """How the shop stores and compares emails, in one place: lower-cased by Python
    (PostgreSQL's lower() differs for a few letters, e.g. U+0130)."""
    return email.lower()


class RidehailId(fields.Field):
    """An integer or a string of digits, kept as the string of its integer value."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**19:
            return str(value)
        if isinstance(value, str) and DIGITS.fullmatch(value):
            return str(int(value))
        raise ValidationError("The ridehail id field must be an integer.")


class ImportRecordSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    id = lv.integer("id", validate=lv.at_least("id", 1), allow_none=True)
    email = lv.email("email")
    ridehail_id = RidehailId(allow_none=True, metadata={"type": "integer"})
    first_name = lv.string("first_name", required=True, validate=lv.filled("first_name"))
    last_name = lv.string("last_name", required=True, validate=lv.filled("last_name"))
    partner_name = lv.string("partner_name", required=True, validate=lv.filled("partner_name"))
    agency_id = lv.string("agency_id", allow_none=True, validate=lv.filled("agency_id"))
    active = lv.integer(
        "active",
        required=True,
        validate=validate.OneOf((0, 1), error="The selected active is invalid."),
    )


class ImportRequestSchema(Schema):
    """The documented request; the handler validates each record on its own."""

    class Meta:
        unknown = EXCLUDE

    users = fields.List(
        fields.Nested(ImportRecordSchema),
        required=True,
        metadata={
            "description": f"1 to {MAX_IMPORT} records (else 422). Each is processed on its "
            "own: a record that is not a valid ImportRecord, any JSON value, fails "
            "alone and is listed in `results.failed` with its error.",
            "minItems": 1,
            "maxItems": MAX_IMPORT,
            "json_schema": {
                "items": {"anyOf": [{"$ref": "#/components/schemas/ImportRecord"}, *ANY_JSON]}
            },
        },
    )


class ImportedUserSchema(Schema):
    index = fields.Integer()
    id = fields.Integer()
    ridehail_id = fields.String(allow_none=True)
    email = fields.String()
    action = fields.String(metadata={"enum": ["created", "updated"]})


class FailedRecordSchema(Schema):
    index = fields.Integer()
    id = fields.Integer(allow_none=True)
    ridehail_id = fields.String(allow_none=True)
    email = fields.String(allow_none=True)
    error = fields.String()


class ImportResultsSchema(Schema):
    created = fields.Integer()
    updated = fields.Integer()
    failed = fields.List(fields.Nested(FailedRecordSchema))
    users = fields.List(fields.Nested(ImportedUserSchema))


class ImportResultSchema(Schema):
    success = fields.Boolean()
    results = fields.Nested(ImportResultsSchema)


class ShopQuery(Schema):
    """A shop query: unknown parameters are ignored and an empty one counts as not sent (as
    Laravel reads a query); `app.core.query` reads it, the OpenAPI document says the same."""

    BLANK_IS_ABSENT = True

    class Meta:
        unknown = EXCLUDE


class FindByEmailQuerySchema(ShopQuery):
    email = lv.string("email", required=True, validate=lv.filled("email"))


class FoundUserSchema(Schema):
    success = fields.Boolean()
    user_id = fields.Integer()
    ridehail_id = fields.String(allow_none=True)
    agency_id = fields.String(allow_none=True)


class ProductsQuerySchema(ShopQuery):
    partner_name = lv.string("partner_name", metadata={"description": "Exact partner name."})


class ProductSchema(Schema):
    id = fields.Integer()
    product_name = fields.String()


class KitEntrySchema(Schema):
    user_id = fields.Integer()
    product_id = fields.Integer()
    quantity = fields.Integer()
    mandatory = fields.Boolean()
    product = fields.Nested(ProductSchema)
    channel = fields.String(allow_none=True, metadata={"enum": [*CHANNELS, None]})


class KitSchema(Schema):
    success = fields.Boolean()
    kit = fields.List(fields.Nested(KitEntrySchema))


class KitWriteSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    product_id = lv.integer("product_id", required=True, json_only=True)
    quantity = lv.integer(
        "quantity", required=True, json_only=True, validate=lv.between("quantity", 1, 1000)
    )
    mandatory = lv.boolean("mandatory", required=True, strict=True)


_SIGNED_DIGITS = re.compile(r"[+-]?[0-9]+")


class _PageSize(fields.Field):
    """The users list's `limit`: an integer, which the handler clamps into 1-200; any other
    value (`abc`, `1.5`) means the default, 200, as a non-numeric limit always has."""

    def __init__(self, **kwargs):
        super().__init__(error_messages=lv.field_messages("limit", "an integer"), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        # ASCII digits only: int() would also read other scripts' digits ("٣").
        matched = isinstance(value, str) and _SIGNED_DIGITS.fullmatch(value)
        return int(value) if matched else MAX_PAGE


class UsersQuerySchema(ShopQuery):
    """Filters and paging of the users list; the handler clamps `limit` and `page`."""

    partner_name = lv.string("partner_name")
    agency_id = lv.string("agency_id")
    ridehail_id = lv.string("ridehail_id")
    email = lv.string("email")
    id = lv.integer("id")
    existing_product_id = lv.integer("existing_product_id")
    available_product_id = lv.integer("available_product_id")
    existing_kit_empty = lv.boolean("existing_kit_empty")
    available_kit_empty = lv.boolean("available_kit_empty")
    limit = _PageSize(
        metadata={
            "description": "1 to 200 (clamped), default 200; a value that is not an integer"
            " (`abc`, `1.5`) means 200.",
            "anyOf": [{"type": "integer"}, {"type": "string"}],
        }
    )
    page = lv.integer("page", metadata={"description": "Default 1; below 1 means 1."})


class ListedKitEntrySchema(KitEntrySchema):
    class Meta:
        exclude = ("channel",)


class ListedUserSchema(Schema):
    id = fields.Integer()
    ridehail_id = fields.String(allow_none=True)
    agency_id = fields.String(allow_none=True)
    email = fields.String()
    partner_name = fields.String(allow_none=True)
    kit = fields.List(fields.Nested(ListedKitEntrySchema))
    existing_kit = fields.List(fields.Nested(KitEntrySchema))
    available_kit = fields.List(fields.Nested(ListedKitEntrySchema))


class UserPageSchema(Schema):
    current_page = fields.Integer()
    data = fields.List(fields.Nested(ListedUserSchema))
    first_page_url = fields.String()
    from_ = fields.Integer(data_key="from", allow_none=True)
    last_page = fields.Integer()
    last_page_url = fields.String()
    next_page_url = fields.String(allow_none=True)
    path = fields.String()
    per_page = fields.Integer()
    prev_page_url = fields.String(allow_none=True)
    to = fields.Integer(allow_none=True)
    total = fields.Integer()


class OrdersQuerySchema(ShopQuery):
    order_timestamp_from = lv.integer(
        "order_timestamp_from", validate=lv.between("order_timestamp_from", 0, MAX_UNIX_TIME)
    )
    order_timestamp_to = lv.integer(
        "order_timestamp_to", validate=lv.between("order_timestamp_to", 0, MAX_UNIX_TIME)
    )
    status_timestamp_from = lv.integer(
        "status_timestamp_from", validate=lv.between("status_timestamp_from", 0, MAX_UNIX_TIME)
    )
    status_timestamp_to = lv.integer(
        "status_timestamp_to", validate=lv.between("status_timestamp_to", 0, MAX_UNIX_TIME)
    )
    delivery_timestamp_from = lv.integer(
        "delivery_timestamp_from", validate=lv.between("delivery_timestamp_from", 0, MAX_UNIX_TIME)
    )
    delivery_timestamp_to = lv.integer(
        "delivery_timestamp_to", validate=lv.between("delivery_timestamp_to", 0, MAX_UNIX_TIME)
    )
    status = lv.string("status", validate=lv.one_of("status", STATUS_FILTERS))
    payment_status = lv.string(
        "payment_status", validate=lv.one_of("payment_status", PAYMENT_FILTERS)
    )
    order_type = lv.string("order_type", validate=lv.one_of("order_type", ORDER_TYPES))
    shipment = lv.string("shipment", validate=lv.one_of("shipment", SHIPMENTS))
    exchange_status = lv.string(
        "exchange_status", validate=lv.one_of("exchange_status", EXCHANGE_STATUSES)
    )
    order_id = lv.integer("order_id")
    driver_id = lv.string("driver_id")
    tracking = lv.string("tracking")
    country = lv.string("country")
    city = lv.string("city")
    partner_name = lv.string("partner_name")
    limit = lv.integer("limit", validate=lv.between("limit", 1, MAX_PAGE))
    page = lv.integer("page", validate=lv.at_least("page", 1))
    skip = lv.integer(
        "skip",
        validate=lv.at_least("skip", 0),
        metadata={"description": "Records to skip; only together with `limit` (else 422)."},
    )

    @validates_schema
    def skip_needs_limit(self, data, **_):
        if "skip" in data and "limit" not in data:
            raise ValidationError("The limit field is required when skip is present.", "limit")


ADDRESS_FIELDS = (
    "type",
    "first_name",
    "last_name",
    "country",
    "zip",
    "city",
    "street",
    "house_number",
    "floor",
    "door",
    "phone",
)
AddressSchema = Schema.from_dict(
    {name: fields.String() for name in ADDRESS_FIELDS}, name="AddressSchema"
)


class StatusEntrySchema(Schema):
    status_id = fields.Integer()
    status = fields.String()
    timestamp = fields.Integer()


class OrderedProductSchema(Schema):
    category_name = fields.String()
    is_branded = fields.Boolean()
    product_name = fields.String()
    quantity = fields.Integer()
    has_bag = fields.Boolean()


class ExchangeProductSchema(Schema):
    product_name = fields.String()
    wrong_size = fields.Integer()
    warranty = fields.Integer()
    lost = fields.Integer()
    other = fields.Integer()
    status = fields.String()
    exchange_timestamp = fields.Integer()
    images = fields.List(fields.String())


class DeliveryFailureSchema(Schema):
    timestamp = fields.Integer()
    reason = fields.String()


class ExchangeOrderSchema(Schema):
    order_timestamp = fields.Integer()
    driver_id = fields.String()
    addresses = fields.List(fields.Nested(AddressSchema))
    status = fields.String(metadata={"enum": list(STATUS_FILTERS)})
    status_timestamp = fields.Integer()
    status_history = fields.List(fields.Nested(StatusEntrySchema))
    tracking = fields.String()
    order_id = fields.String()
    ordered_products = fields.List(fields.Nested(OrderedProductSchema))
    payment_status = fields.String()
    local_currency = fields.String()
    paid_in_local_currency = fields.String()
    paid_in_eur = fields.String()
    shipment = fields.String()
    delivery_failures = fields.List(fields.Nested(DeliveryFailureSchema))
    delivery_date = fields.Raw(metadata={"type": ["integer", "string"]})
    subscription_status = fields.String()
    subscription_delay = fields.String()
    loyalty_discount_percent = fields.String()
    total_savings = fields.String()
    amount_paid_total = fields.String()
    subsidization = fields.String()
    wyb_discount = fields.String()
    ridehail_tier = fields.String()
    has_bag = fields.Boolean()
    ridehail_id = fields.String()
    partner_name = fields.String()
    channel = fields.String(allow_none=True)
    user_id = fields.Raw(metadata={"type": ["integer", "string"]})
    agency_id = fields.String()
    exchange_status = fields.String(metadata={"enum": ["Pending", "Approved", "Denied"]})
    exchange_product_statuses = fields.List(fields.Nested(ExchangeProductSchema))


class ReviewSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    order_id = lv.integer("order_id", required=True, json_only=True)
    status = lv.string(
        "status", required=True, validate=lv.one_of("status", ("approved", "denied"))
    )


class ReviewResultSchema(Schema):
    success = fields.Boolean()
    order_id = fields.Integer()
    exchange_status = fields.String(metadata={"enum": ["Approved", "Denied"]})
