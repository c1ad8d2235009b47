"""GET /api/v1/exchanges/orders: fields, derived values, filters, paging, 422s."""

import pytest

from tests.shop.conftest import ORDERS, address, load, order, unit, user


async def orders(client, query=""):
    response = await client.get(f"/api/v1/exchanges/orders{query}", headers=ORDERS)
    assert response.status == 200, await response.text()
    return await response.json()


async def order_ids(client, query=""):
    return [int(o["order_id"]) for o in await orders(client, query)]


@pytest.fixture
async def catalogue(shop):
    await load(
        shop,
        currency_rates=[{"currency": "PLN", "eur_rate": "0.25"}],
        tiers=[{"ridehail_tier": "gold", "name": "Gold", "discount_percent": "12.5"}],
        users=[user(1, agency_id="AG-1")],
    )
    return shop


FULL = order(
    10,
    user_id=1,
    partner_name="Fleet",
    ridehail_tier="gold",
    currency="PLN",
    delivery_subsidization="4.99",
    shipment="door_to_door",
    order_type="manual",
    addresses=[address(), address("billing", "DE", "Berlin")],
    status_history=[
        {"status": "PROCESSING", "timestamp": "2026-01-02T00:00:00Z"},
        {"status": "PAID", "timestamp": "2026-01-02T01:00:00.250Z"},
        {"status": "SENT", "timestamp": "2026-01-03T00:00:00Z"},
        {"status": "DELIVERED", "timestamp": "2026-01-04T00:00:00Z"},
        {"status": "MANUAL_DELIVERED", "timestamp": "2026-01-05T00:00:00Z"},
    ],
    tracking_numbers=["OLD1", "NEW2"],
    items=[
        {
            "product_id": 1,
            "quantity": 2,
            "unit_price": "10.25",
            "has_bag": True,
            "subsidization": "1.50",
            "wyb_discount": "0.75",
        },
        {
            "product_id": 2,
            "quantity": 3,
            "unit_price": "5",
            "has_bag": True,
            "subsidization": "0",
            "wyb_discount": "1",
        },
        {
            "product_id": 3,
            "quantity": 9,
            "unit_price": "100",
            "has_bag": False,
            "subsidization": "50",
            "wyb_discount": "50",
        },
    ],
    payment={
        "plan": "installments",
        "installments_total": 4,
        "installments_paid": 2,
        "failed": False,
    },
    subscription_status="active",
    subscription_overdue=True,
    delivery_failures=[{"timestamp": "2026-01-03T12:00:00Z", "reason": "Nobody home"}],
    exchange={
        "status": "approved",
        "products": [
            {
                "product_id": 2,
                "wrong_size": True,
                "warranty": 0,
                "lost": 0,
                "other": 1,
                "reason": "Too big",
                "timestamp": "2026-01-06T00:00:00Z",
                "images": ["https://img.example/1.jpg"],
            }
        ],
    },
)


async def test_every_field_with_tier_discount_on(make_client, catalogue):
    await load(
        catalogue,
        orders=[FULL],
        user_products=[
            unit(2, 1, 1, channel="oms", order_id=10),
            unit(1, 1, 2, channel="eshop", order_id=10),
        ],
    )
    client = await make_client(FEATURE_TIER_DISCOUNT="1")
    [body] = await orders(client)
    assert body == {
        "order_timestamp": 1767225600 + 10 * 60,
        "driver_id": "D10",
        "addresses": [address(), address("billing", "DE", "Berlin")],
        "status": "delivered",
        "status_timestamp": 1767571200,
        "status_history": [
            {"status_id": 1, "status": "PROCESSING", "timestamp": 1767312000},
            {"status_id": 2, "status": "PAID", "timestamp": 1767315600},
            {"status_id": 4, "status": "SENT", "timestamp": 1767398400},
            {"status_id": 5, "status": "DELIVERED", "timestamp": 1767484800},
            {"status_id": 6, "status": "MANUAL_DELIVERED", "timestamp": 1767571200},
        ],
        "tracking": "NEW2",
        "order_id": "10",
        "ordered_products": [
            {
                "category_name": "Gear",
                "is_branded": False,
                "product_name": "Bag",
                "quantity": 2,
                "has_bag": True,
            },
            {
                "category_name": "Gear",
                "is_branded": False,
                "product_name": "Jacket",
                "quantity": 3,
                "has_bag": True,
            },
        ],
        "payment_status": "In progress (2/4)",
        "local_currency": "PLN",
        "paid_in_local_currency": "35.50",
        "paid_in_eur": "8.88",
        "shipment": "Standard",
        "delivery_failures": [{"timestamp": 1767441600, "reason": "Nobody home"}],
        "delivery_date": 1767484800,
        "subscription_status": "active",
        "subscription_delay": "failed (30 day delay)",
        "loyalty_discount_percent": "12.5",
        "total_savings": "12.49",
        "amount_paid_total": "35.50",
        "subsidization": "7.99",
        "wyb_discount": "4.50",
        "ridehail_tier": "Gold",
        "has_bag": True,
        "ridehail_id": "1001",
        "partner_name": "Fleet",
        "channel": "eshop",
        "user_id": 1,
        "agency_id": "AG-1",
        "exchange_status": "Approved",
        "exchange_product_statuses": [
            {
                "product_name": "Jacket",
                "wrong_size": 1,
                "warranty": 0,
                "lost": 0,
                "other": 1,
                "status": "Too big",
                "exchange_timestamp": 1767657600,
                "images": ["https://img.example/1.jpg"],
            }
        ],
    }


async def test_tier_fields_with_tier_discount_off(client, catalogue):
    await load(catalogue, orders=[FULL])
    [body] = await orders(client)
    assert (body["loyalty_discount_percent"], body["total_savings"], body["ridehail_tier"]) == (
        "",
        "",
        "-",
    )
    assert body["subsidization"] == "7.99" and body["wyb_discount"] == "4.50"


async def test_empty_values_of_an_order_without_user_bag_rate_or_delivery(make_client, catalogue):
    await load(
        catalogue,
        orders=[
            order(
                1,
                currency="RON",
                items=[{"product_id": 1, "quantity": 1, "unit_price": "10", "has_bag": False}],
            )
        ],
    )
    client = await make_client(FEATURE_TIER_DISCOUNT="1")
    [body] = await orders(client)
    assert body["user_id"] == "" and body["ridehail_id"] == "" and body["agency_id"] == ""
    assert body["partner_name"] == "" and body["channel"] is None and body["tracking"] == ""
    assert (
        body["delivery_date"] == "" and body["has_bag"] is False and body["ordered_products"] == []
    )
    assert body["paid_in_local_currency"] == "0.00" and body["paid_in_eur"] == ""
    assert body["ridehail_tier"] == "" and body["loyalty_discount_percent"] == ""
    assert body["subscription_delay"] == "" and body["status"] == "processing"


async def test_eur_orders_convert_at_one(client, catalogue):
    await load(catalogue, orders=[order(1)])
    [body] = await orders(client)
    assert body["paid_in_eur"] == body["paid_in_local_currency"] == "10.00"


@pytest.mark.parametrize(
    ("payment", "text", "filter_value"),
    [
        ({"plan": "one_time"}, "Paid in 1", "paid_in_one"),
        ({"plan": "pay_later"}, "Pay later", None),
        (
            {"plan": "installments", "installments_total": 3, "installments_paid": 3},
            "Fully paid",
            "fully_paid",
        ),
        (
            {"plan": "installments", "installments_total": 3, "installments_paid": 1},
            "In progress (1/3)",
            "in_progress",
        ),
        (
            {
                "plan": "installments",
                "installments_total": 3,
                "installments_paid": 1,
                "failed": True,
            },
            "Failed (1/3)",
            "failed",
        ),
    ],
)
async def test_payment_status_strings_and_filter(client, catalogue, payment, text, filter_value):
    await load(catalogue, orders=[order(1, payment=payment), order(2)])
    bodies = await orders(client)
    assert bodies[0]["payment_status"] == text
    for value in ("paid_in_one", "fully_paid", "in_progress", "failed"):
        expected = ([1] if value == filter_value else []) + ([2] if value == "paid_in_one" else [])
        assert await order_ids(client, f"?payment_status={value}") == expected


def history(*statuses, day=2):
    return [
        {"status": s, "timestamp": f"2026-01-{day + n:02d}T00:00:00Z"}
        for n, s in enumerate(statuses)
    ]


@pytest.fixture
async def many(catalogue):
    """Seven exchange orders and one order without an exchange (never listed)."""
    await load(
        catalogue,
        users=[user(2, partner="Other", ridehail_id=77)],
        orders=[
            order(1, status_history=history("PROCESSING", "PAID"), tracking_numbers=["T1"]),
            order(
                2,
                status_history=history("PROCESSING", "FORWARDED", day=5),
                order_type="manual",
                addresses=[address(country="HU", city="Budapest")],
                tracking_numbers=["T2a", "T2b"],
            ),
            order(
                3,
                status_history=history("PROCESSING", "SENT", "DELIVERED", day=10),
                shipment="pickup",
                partner_name="Other",
                user_id=2,
                driver_id="77",
                exchange={**order(3)["exchange"], "status": "approved"},
            ),
            order(
                4,
                status_history=history("PROCESSING", "CANCELLED", day=3),
                addresses=[
                    address(country="de", city="Bad Homburg"),
                    address("billing", "PL", "Budapest"),
                ],
                exchange={**order(4)["exchange"], "status": "denied"},
            ),
            order(
                5,
                status_history=history("PROCESSING", "MANUAL_DELIVERED", day=20),
                shipment="door_to_door",
                partner_name="Fleet",
            ),
            order(6, created_at="2026-01-01T00:05:59.900Z"),
            order(7, created_at="2026-01-01T00:05:59.900Z"),
            order(8, exchange=None),
        ],
    )
    return catalogue


async def test_only_exchange_orders_ordered_by_timestamp_then_id(client, many):
    assert await order_ids(client) == [1, 2, 3, 4, 5, 6, 7]


FILTER_CASES = [
    ("order_timestamp_from=1767225840", [4, 5, 6, 7]),  # 00:04:00
    ("order_timestamp_to=1767225959", [1, 2, 3, 4, 5, 6, 7]),  # 00:05:59.9 is in second 00:05:59
    ("order_timestamp_to=1767225958", [1, 2, 3, 4, 5]),
    ("order_timestamp_to=1767225899", [1, 2, 3, 4]),  # 00:04:59
    ("order_timestamp_from=1767225660&order_timestamp_to=1767225780", [1, 2, 3]),
    ("status_timestamp_from=1767830400", [3, 5]),  # 2026-01-08
    ("status_timestamp_to=1767398400", [1, 6, 7]),  # 2026-01-03
    ("delivery_timestamp_from=1767225600", [3, 5]),
    ("delivery_timestamp_from=1768500000", [5]),  # 3 on 01-12, 5 on 01-21
    ("delivery_timestamp_to=1768500000", [3]),
    ("delivery_timestamp_to=1768176000", [3]),
    ("status=processing", [1, 6, 7]),
    ("status=sent", [2]),
    ("status=delivered", [3, 5]),
    ("status=cancelled", [4]),
    ("order_type=manual", [2]),
    ("order_type=normal", [1, 3, 4, 5, 6, 7]),
    ("shipment=pickup", [3]),
    ("shipment=door_to_door", [5]),
    ("shipment=standard", [1, 2, 4, 6, 7]),
    ("exchange_status=pending", [1, 2, 5, 6, 7]),
    ("exchange_status=approved", [3]),
    ("exchange_status=denied", [4]),
    ("order_id=3", [3]),
    ("order_id=8", []),
    ("driver_id=77", [3]),
    ("tracking=T2a", [2]),
    ("tracking=T2b", [2]),
    ("tracking=T2", []),
    ("country=hu", [2]),
    ("country=DE", [4]),
    ("city=buda", [2]),
    ("city=HOMB", [4]),
    ("city=%", []),
    ("partner_name=Other", [3]),
    ("partner_name=Fleet", [5]),
    ("status=processing&exchange_status=pending&country=PL", [1, 6, 7]),
    ("shipment=standard&order_type=manual&city=Budapest", [2]),
]


async def test_filters_alone_and_combined(client, many):
    for query, expected in FILTER_CASES:
        assert await order_ids(client, f"?{query}") == expected, query


async def test_limit_page_and_skip(client, many):
    assert await order_ids(client, "?limit=3") == [1, 2, 3]
    assert await order_ids(client, "?limit=3&page=3") == [7]
    assert await order_ids(client, "?limit=3&page=4") == []
    assert await order_ids(client, "?limit=2&skip=1&page=3") == [2, 3]
    assert await order_ids(client, "?limit=200&skip=6") == [7]
    assert await order_ids(client, "?page=1") == [1, 2, 3, 4, 5, 6, 7]


INVALID_CASES = [
    ("status=lost", {"status": ["The selected status is invalid."]}),
    ("payment_status=pay_later", {"payment_status": ["The selected payment status is invalid."]}),
    ("order_type=x", {"order_type": ["The selected order type is invalid."]}),
    ("shipment=air", {"shipment": ["The selected shipment is invalid."]}),
    ("exchange_status=Pending", {"exchange_status": ["The selected exchange status is invalid."]}),
    ("order_id=abc", {"order_id": ["The order id field must be an integer."]}),
    ("order_id=99999999999999999999", {"order_id": ["The order id field must be an integer."]}),
    (
        "order_timestamp_from=yesterday",
        {"order_timestamp_from": ["The order timestamp from field must be an integer."]},
    ),
    (
        "delivery_timestamp_to=-1",
        {
            "delivery_timestamp_to": [
                "The delivery timestamp to field must be between 0 and 253402300799."
            ]
        },
    ),
    ("limit=0", {"limit": ["The limit field must be between 1 and 200."]}),
    ("limit=201", {"limit": ["The limit field must be between 1 and 200."]}),
    ("limit=x", {"limit": ["The limit field must be an integer."]}),
    ("page=0", {"page": ["The page field must be at least 1."]}),
    ("skip=-1&limit=5", {"skip": ["The skip field must be at least 0."]}),
    ("skip=5", {"limit": ["The limit field is required when skip is present."]}),
]


async def test_invalid_values_are_422(client, many):
    for query, errors in INVALID_CASES:
        response = await client.get(f"/api/v1/exchanges/orders?{query}", headers=ORDERS)
        assert response.status == 422, query
        body = await response.json()
        assert body["success"] is False and body["errors"] == errors, query
        assert body["message"] == next(iter(errors.values()))[0], query


async def test_two_invalid_values_name_both(client, many):
    response = await client.get("/api/v1/exchanges/orders?status=x&limit=0", headers=ORDERS)
    body = await response.json()
    assert set(body["errors"]) == {"status", "limit"}
    assert body["message"].endswith("(and 1 more error)")
