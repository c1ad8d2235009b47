"""load-data sections of the shop and its demo data."""

import random

import pytest

from app.core.loader import LoadError
from app.shop import PACKAGE
from tests.shop.conftest import IMPORT, ORDERS, kit_entry, load, order, product, unit, user

TABLES = (
    "shop_partners",
    "shop_products",
    "shop_users",
    "shop_user_kits",
    "shop_orders",
    "shop_order_items",
    "shop_user_products",
    "shop_owned",
)


async def counts(db):
    return {t: await db.fetchval(f"SELECT count(*) FROM {t}") for t in TABLES}


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ({"partners": [{"name": "A"}, {"name": "A"}]}, r"partners\[1\]\.name: duplicate name 'A'"),
        (
            {"products": [product(1, partners=["Nobody"])]},
            r"products\[0\]\.partners\[0\]: unknown partner 'Nobody'",
        ),
        (
            {"users": [user(1), {**user(2), "email": "nope"}]},
            r"users\[1\]\.email: Not a valid email",
        ),
        (
            {"users": [user(1), user(2, email="USER1@example.com")]},
            r"users\[1\]\.email: duplicate email",
        ),
        (
            {"users": [user(1, partner="Nobody")]},
            r"users\[0\]\.partner_name: unknown partner 'Nobody'",
        ),
        ({"user_kits": [kit_entry(1, 1)]}, r"user_kits\[0\]\.user_id: unknown user 1"),
        (
            {
                "partner_kits": [
                    {"partner_name": "Fleet", "product_id": 1, "quantity": 0, "mandatory": True}
                ]
            },
            r"partner_kits\[0\]\.quantity: ",
        ),
        (
            {
                "orders": [
                    order(1),
                    order(
                        2, status_history=[{"status": "LOST", "timestamp": "2026-01-01T00:00:00Z"}]
                    ),
                ]
            },
            r"orders\[1\]\.status_history\[0\]\.status: ",
        ),
        (
            {
                "orders": [
                    order(
                        1,
                        items=[
                            {"product_id": 1, "quantity": 1, "unit_price": "1", "has_bag": True},
                            {"product_id": 9, "quantity": 1, "unit_price": "1", "has_bag": True},
                        ],
                    )
                ]
            },
            r"orders\[0\]\.items\[1\]\.product_id: unknown product 9",
        ),
        ({"orders": [order(1, created_at="2026-01-01T00:00:00")]}, r"orders\[0\]\.created_at: "),
        ({"user_products": [unit(1, 1, 1)]}, r"user_products\[0\]\.user_id: unknown user 1"),
        (
            {"currency_rates": [{"currency": "PLN", "eur_rate": "0"}]},
            r"currency_rates\[0\]\.eur_rate: ",
        ),
    ],
)
async def test_invalid_records_name_section_index_and_field_and_write_nothing(
    shop, document, where
):
    before = await counts(shop)
    with pytest.raises(LoadError, match=where):
        # A valid earlier section proves that the failure rolls back what was written before it.
        await load(shop, **{"users": [user(5)], **document})
    assert await counts(shop) == before


async def test_a_user_conflicting_with_a_stored_one_is_named(shop):
    await load(shop, users=[user(1)])
    with pytest.raises(LoadError, match=r"users\[1\]\.ridehail_id: ridehail_id already belongs"):
        await load(shop, users=[user(2), user(3, ridehail_id=1001)])


async def test_loading_twice_changes_nothing(shop):
    document = PACKAGE.demo(random.Random(3), 0)
    await load(shop, **document)
    first = await counts(shop)
    owned = await shop.fetch("SELECT * FROM shop_owned ORDER BY user_id, product_id")
    await load(shop, **document)
    assert await counts(shop) == first
    assert await shop.fetch("SELECT * FROM shop_owned ORDER BY user_id, product_id") == owned


async def test_a_unit_moved_to_another_user_is_recounted_for_both(shop):
    await load(
        shop,
        users=[user(1), user(2)],
        user_kits=[kit_entry(1, 1), kit_entry(2, 1)],
        user_products=[unit(1, 1, 1)],
    )
    await load(shop, user_products=[unit(1, 2, 1)])
    owned = await shop.fetch("SELECT user_id, owned FROM shop_owned ORDER BY user_id")
    assert [tuple(r) for r in owned] == [(2, 1)]
    counters = await shop.fetch(
        "SELECT id, user_kit_owned, user_kit_owed FROM shop_users ORDER BY id"
    )
    assert [tuple(r) for r in counters] == [(1, 0, 1), (2, 1, 0)]


async def test_reloading_an_order_replaces_its_history_and_items(client, shop):
    await load(shop, orders=[order(1)])
    await load(
        shop,
        orders=[
            order(
                1,
                status_history=[
                    {"status": "PROCESSING", "timestamp": "2026-01-02T00:00:00Z"},
                    {"status": "DELIVERED", "timestamp": "2026-01-03T00:00:00Z"},
                ],
                items=[],
            )
        ],
    )
    [body] = await (await client.get("/api/v1/exchanges/orders", headers=ORDERS)).json()
    assert [s["status"] for s in body["status_history"]] == ["PROCESSING", "DELIVERED"]
    assert (
        body["status"] == "delivered"
        and body["has_bag"] is False
        and body["amount_paid_total"] == "0.00"
    )


async def test_imported_users_get_ids_after_the_loaded_ones(client, shop):
    await load(shop, users=[user(500)])
    response = await client.post(
        "/api/import/users",
        headers=IMPORT,
        json={
            "users": [
                {
                    "email": "new@example.com",
                    "first_name": "A",
                    "last_name": "B",
                    "partner_name": "Fleet",
                    "active": 1,
                }
            ]
        },
    )
    assert (await response.json())["results"]["users"][0]["id"] == 501


async def test_demo_data_covers_every_state(client, db):
    await load(db, **PACKAGE.demo(random.Random(20261122), 0))
    listed = await (await client.get("/api/v1/exchanges/orders", headers=ORDERS)).json()
    assert {o["exchange_status"] for o in listed} == {"Pending", "Approved", "Denied"}
    assert {o["payment_status"].split(" (")[0] for o in listed} == {
        "Paid in 1",
        "Pay later",
        "Fully paid",
        "In progress",
        "Failed",
    }
    assert {o["status"] for o in listed} == {"processing", "sent", "delivered", "cancelled"}
    page = await (await client.get("/api/users", headers=IMPORT)).json()
    assert any(u["existing_kit"] for u in page["data"]) and any(
        u["available_kit"] for u in page["data"]
    )
