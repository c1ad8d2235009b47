"""load-data sections of the shop and its demo data."""

import copy
import random

import orjson
import pytest

from app.core.loader import (
    LoadError,
    RecordError,
    load_document,
    plain_first_loader,
    read_document,
    schema_loader,
)
from app.shop import PACKAGE
from app.shop.records import OrderRecord, plain_order
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


def _demo_file(tmp_path, change):
    """The demo document with `change` applied, written as a data file and read as load-data
    reads it (every section streamed from the file)."""
    document = PACKAGE.demo(random.Random(5), 0)
    change(document)
    path = tmp_path / "shop.json"
    path.write_bytes(orjson.dumps(document))
    streamed = {s.name: s.looked_up for s in PACKAGE.sections if s.streamed}
    return read_document(path, streamed), document


@pytest.mark.parametrize(
    ("change", "where"),
    [
        # A value the record's schema refuses, in the last record of the last section.
        (
            lambda d: d["user_products"][-1].update(channel="post"),
            r"user_products\[{last}\]\.channel: ",
        ),
        # A record that names what does not exist, found by the section's set-based check.
        (
            lambda d: d["user_products"][-1].update(product_id=999_999),
            r"user_products\[{last}\]\.product_id: unknown product 999999$",
        ),
        (
            lambda d: d["user_products"].append({**d["user_products"][0]}),
            r"user_products\[{last}\]\.id: duplicate id \d+ in this section$",
        ),
        (
            lambda d: d["orders"][-1]["items"].append(
                {**d["orders"][-1]["items"][0], "product_id": 0}
            ),
            r"orders\[{orders}\]\.items\[\d+\]\.product_id: unknown product 0$",
        ),
    ],
)
async def test_a_file_whose_last_record_is_bad_writes_nothing_and_names_it(
    shop, tmp_path, change, where
):
    before = await counts(shop)
    document, written = _demo_file(tmp_path, change)
    last, orders = len(written["user_products"]) - 1, len(written["orders"]) - 1
    with pytest.raises(LoadError, match="^shop.json: " + where.format(last=last, orders=orders)):
        await load_document(shop, document, PACKAGE.sections, PACKAGE.after_load, "shop.json")
    assert await counts(shop) == before


async def test_a_file_loads_as_its_document_does(shop, db, tmp_path):
    document, written = _demo_file(tmp_path, lambda d: None)
    loaded = await load_document(shop, document, PACKAGE.sections, PACKAGE.after_load)
    assert loaded == {name: len(records) for name, records in written.items()}
    from_file = await counts(shop)
    await load(shop, **written)
    assert await counts(shop) == from_file


def _odd_orders():
    """Orders in forms the plain reader leaves to the schema (accepted or not)."""
    base = order(1)
    changes = [
        lambda o: o.update(order_id="7"),
        lambda o: o.update(order_id=True),
        lambda o: o.update(created_at="2026-02-30T00:00:00Z"),
        lambda o: o.update(created_at="2026-01-01 00:00:00+00:00"),
        lambda o: o.update(created_at="2026-01-01T00:00:00"),
        lambda o: o.update(currency="EUR\n"),
        lambda o: o.update(delivery_subsidization=2.5),
        lambda o: o.update(delivery_subsidization="-1"),
        lambda o: o.update(driver_id="D\x00"),
        lambda o: o.update(unknown=1),
        lambda o: o.pop("addresses"),
        lambda o: o["addresses"][0].pop("city"),
        lambda o: o["addresses"][0].update(city=None),
        lambda o: o["items"][0].update(has_bag="true"),
        lambda o: o["items"][0].update(quantity=0),
        lambda o: o["items"][0].pop("subsidization"),
        lambda o: o["payment"].update(installments_total="2"),
        lambda o: o["payment"].pop("plan"),
        lambda o: o.update(status_history=[]),
        lambda o: o["exchange"]["products"][0].update(images=["https://-bad.example/x.png"]),
        lambda o: o["exchange"]["products"][0].update(images=["ftp://files.example/x.png"]),
        lambda o: o.update(exchange=None),
        lambda o: o.update(user_id=None, partner_name=None),
    ]
    for change in changes:
        variant = copy.deepcopy(base)
        change(variant)
        yield variant


@pytest.mark.parametrize("record", [order(1), *_odd_orders()])
def test_plain_orders_load_as_the_schema_loads_them(record):
    """The plain reader only decides speed: what it takes it loads as OrderRecord does, and
    what it leaves, OrderRecord accepts or names the field of."""
    outcomes = []
    for loader in (plain_first_loader(OrderRecord, plain_order), schema_loader(OrderRecord)):
        try:
            outcomes.append(loader(0, copy.deepcopy(record)))
        except RecordError as exc:
            outcomes.append((exc.field, exc.message))
    assert outcomes[0] == outcomes[1]


def test_an_order_of_the_usual_shape_is_read_without_the_schema():
    usual = order(1)
    usual["exchange"]["products"][0].update(wrong_size=True, warranty=False, lost=False)
    usual["exchange"]["products"][0].update(other=False, images=["https://img.example/1.jpg"])
    assert plain_order(usual) == OrderRecord().load(usual)
