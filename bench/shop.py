"""Shop benchmark: 100,000 users (5 kit entries each, mixed ownership) and 300,000 orders
(20% with an exchange request), built set-based in SQL; every target measured over HTTP
against the real server."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from urllib.parse import urlencode

from app.core import database
from app.shop.store import SQL
from bench.harness import BENCH_KEYS, Server, best_of, fresh_database, report, run_sql

USERS = 100_000
ORDERS = 300_000
PRODUCTS = 50
PARTNERS = 10
# Users the list shows: active (not every 25th) with a ridehail_id (not every 20th) or an
# agency_id (every 3rd); see the users statement below.
LISTED_USERS = sum(1 for i in range(1, USERS + 1) if i % 25 and (i % 20 or i % 3 == 0))

DATA = [
    f"""INSERT INTO shop_partners (id, name)
        SELECT i, 'Partner ' || i FROM generate_series(1, {PARTNERS}) i""",
    f"""INSERT INTO shop_products (id, product_name, category_name, is_branded)
        SELECT i, 'Product ' || i, 'Category ' || i % 5, i % 2 = 0
        FROM generate_series(1, {PRODUCTS}) i""",
    f"""INSERT INTO shop_product_partners (partner_id, product_id)
        SELECT p, i FROM generate_series(1, {PARTNERS}) p, generate_series(1, {PRODUCTS}) i
        WHERE (i + p) % 3 <> 0""",
    f"""INSERT INTO shop_partner_kits (partner_id, product_id, quantity, mandatory)
        SELECT p, (p * 7 + k * 10) % {PRODUCTS} + 1, 1 + k % 2, k < 2
        FROM generate_series(1, {PARTNERS}) p, generate_series(0, 4) k""",
    # Every 20th user has no ridehail_id, every 3rd an agency_id, every 25th is inactive.
    f"""INSERT INTO shop_users (id, email, ridehail_id, agency_id, first_name, last_name,
                                partner_id, active)
        SELECT i, 'user' || i || '@bench.example',
               CASE WHEN i % 20 <> 0 THEN (5000000 + i)::text END,
               CASE WHEN i % 3 = 0 THEN 'AG' || i END,
               'First' || i, 'Last' || i, i % {PARTNERS} + 1, i % 25 <> 0
        FROM generate_series(1, {USERS}) i""",
    "SELECT setval(pg_get_serial_sequence('shop_users', 'id'), (SELECT max(id) FROM shop_users))",
    # Even users' kits hold their partner kit's products, odd users' their own choice.
    f"""CREATE TEMPORARY VIEW bench_kits AS
        SELECT i, k, (CASE WHEN i % 2 = 0 THEN (i % {PARTNERS} + 1) * 7 ELSE i * 7 END
                      + k * 10) % {PRODUCTS} + 1 AS product_id,
               1 + (i + k) % 3 AS quantity, (i * (k + 3)) % 7 AS ownership
        FROM generate_series(1, {USERS}) i, generate_series(0, 4) k""",
    """INSERT INTO shop_user_kits (user_id, product_id, quantity, mandatory)
       SELECT i, product_id, quantity, k < 2 FROM bench_kits""",
    # Units per kit entry by `ownership`: 0-1 none, 2 one short (plus one unassigned), else full.
    """INSERT INTO shop_user_products (id, user_id, product_id, assigned_at, channel)
       SELECT row_number() OVER (), i, product_id,
              CASE WHEN ownership = 2 AND u = quantity THEN NULL
                   ELSE timestamptz '2025-01-01' + (i + u) * interval '1 minute' END,
              (ARRAY['app', 'eshop', 'oms'])[1 + (i + u) % 3]
       FROM bench_kits, generate_series(1, quantity) u
       WHERE ownership >= 2""",
    "INSERT INTO shop_currency_rates VALUES ('PLN', 0.2315), ('HUF', 0.00253), ('CZK', 0.0399)",
    "INSERT INTO shop_tiers VALUES ('gold', 'Gold', 10), ('silver', 'Silver', 5)",
    f"""INSERT INTO shop_orders (order_id, created_at, user_id, partner_id, driver_id,
                                 ridehail_tier,
                                 order_type, shipment, currency, delivery_subsidization, addresses,
                                 tracking_numbers, payment_plan, installments_total,
                                 installments_paid, payment_failed, exchange_status)
        SELECT i, timestamptz '2024-01-01' + i * interval '5 minutes',
               CASE WHEN i % 50 <> 0 THEN i % {USERS} + 1 END, i % {PARTNERS} + 1,
               (5000000 + i % {USERS} + 1)::text, (ARRAY['gold', 'silver', NULL])[1 + i % 3],
               CASE WHEN i % 9 = 0 THEN 'manual' ELSE 'normal' END,
               (ARRAY['standard', 'door_to_door', 'pickup'])[1 + i % 3],
               (ARRAY['EUR', 'PLN', 'HUF', 'CZK', 'RON'])[1 + i % 5], 2.5,
               json_build_array(json_build_object(
                   'type', 'shipping', 'first_name', 'F', 'last_name', 'L',
                   'country', (ARRAY['PL', 'HU', 'CZ', 'DE', 'RO', 'AT', 'SK'])[1 + i % 7],
                   'zip', '00-001', 'city', 'City ' || i % 300, 'street', 'Street',
                   'house_number', '1', 'floor', '', 'door', '', 'phone', '+48100200300')),
               ARRAY['TRK' || i, 'TRK-B' || i],
               (ARRAY['one_time', 'pay_later', 'installments', 'installments',
                      'installments'])[1 + i / 5 % 5],
               4, i / 5 % 5, i / 5 % 11 = 0,
               CASE WHEN i % 5 = 0 THEN (ARRAY['pending', 'approved', 'denied'])[1 + i / 5 % 3] END
        FROM generate_series(1, {ORDERS}) i""",
    f"""INSERT INTO shop_order_statuses (order_id, position, status, at)
        SELECT i, s - 1, (ARRAY['PROCESSING', 'PAID', 'SENT', 'DELIVERED', 'CANCELLED'])[
                   CASE WHEN i % 13 = 0 AND s = 1 + i % 4 THEN 5 ELSE s END],
               timestamptz '2024-01-01' + i * interval '5 minutes' + s * interval '1 day'
        FROM generate_series(1, {ORDERS}) i, generate_series(1, 1 + i % 4) s""",
    f"""INSERT INTO shop_order_items (order_id, position, product_id, quantity, unit_price, has_bag,
                                      subsidization, wyb_discount)
        SELECT i, n, (i + n) % {PRODUCTS} + 1, 1 + n, 10.5 + i % 40, (i + n) % 4 <> 0, 1.25, 0.5
        FROM generate_series(1, {ORDERS}) i, generate_series(0, 2) n""",
    f"""INSERT INTO shop_exchange_products (order_id, position, product_id, wrong_size, reason, at,
                                            images)
        SELECT i, 0, i % {PRODUCTS} + 1, true, 'Too small',
               timestamptz '2024-01-01' + i * interval '5 minutes' + interval '9 days',
               ARRAY['https://images.example/' || i || '.jpg']
        FROM generate_series(5, {ORDERS}, 5) i""",
]


async def _derive(url: str) -> None:
    """The columns the API keeps at write time, computed by the service's own statements."""
    async with database.connect(url) as conn:
        await conn.execute(SQL.refresh_owned, None)
        await conn.execute(SQL.refresh_kit_state, None)
        await conn.execute(SQL.refresh_orders, None)


def _get(url: str, key: str) -> float:
    """Milliseconds for one GET (the body is read and checked to be JSON)."""
    request = urllib.request.Request(url, headers={"api-key": key})
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        json.loads(response.read())
    return (time.perf_counter() - started) * 1000


def _import_batch(base: str, run: int) -> float:
    """Milliseconds for 1,000 records: 500 updates of existing users, 500 new users."""
    users = [
        {
            "id": 1000 * run + n,
            "email": f"user{1000 * run + n}@bench.example",
            "ridehail_id": 5000000 + 1000 * run + n,
            "first_name": "Renamed",
            "last_name": "L",
            "partner_name": "Partner 1",
            "active": 1,
        }
        for n in range(1, 501)
    ]
    users += [
        {
            "email": f"new{run}-{n}@bench.example",
            "ridehail_id": 9000000 + 1000 * run + n,
            "first_name": "New",
            "last_name": "User",
            "partner_name": "Partner 2",
            "active": 1,
        }
        for n in range(500)
    ]
    body = json.dumps({"users": users}).encode()
    request = urllib.request.Request(
        f"{base}/api/import/users",
        data=body,
        method="POST",
        headers={"api-key": BENCH_KEYS["SHOP_IMPORT_API_KEY"], "Content-Type": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        result = json.loads(response.read())["results"]
    elapsed = (time.perf_counter() - started) * 1000
    assert (result["created"], result["updated"]) == (500, 500), result["failed"][:3]
    return elapsed


USER_FILTERS = {
    "no filter": {},
    "existing_kit_empty=1": {"existing_kit_empty": "1"},
    "existing_kit_empty=0": {"existing_kit_empty": "0"},
    "available_kit_empty=1": {"available_kit_empty": "1"},
    "available_kit_empty=0": {"available_kit_empty": "0"},
    "existing_product_id": {"existing_product_id": "8"},
    "available_product_id": {"available_product_id": "8"},
    "partner_name": {"partner_name": "Partner 3"},
    "page 400 (deep)": {"page": "400"},
}

ORDER_FILTERS = {
    "no filter": {},
    "order_timestamp range": {
        "order_timestamp_from": "1717200000",
        "order_timestamp_to": "1719800000",
    },
    "status_timestamp range": {
        "status_timestamp_from": "1717200000",
        "status_timestamp_to": "1719800000",
    },
    "delivery_timestamp range": {"delivery_timestamp_from": "1717200000"},
    "status=delivered": {"status": "delivered"},
    "payment_status=failed": {"payment_status": "failed"},
    "order_type=manual": {"order_type": "manual"},
    "shipment=pickup": {"shipment": "pickup"},
    "exchange_status=denied": {"exchange_status": "denied"},
    "order_id": {"order_id": "50000"},
    "driver_id": {"driver_id": "5050001"},
    "tracking (older number)": {"tracking": "TRK-B50000"},
    "country=hu": {"country": "hu"},
    "city substring": {"city": "ity 29"},
    "partner_name": {"partner_name": "Partner 4"},
    "skip 10000": {"skip": "10000"},
}


def _measure_pages(
    base: str, path: str, cases: dict, key_name: str, target: float, note: str
) -> bool:
    """Best of 5 for a page of 200 under each case's parameters (after one warm-up call)."""
    ok, key = True, BENCH_KEYS[key_name]
    for name, query in cases.items():
        url = f"{base}{path}?{urlencode({'limit': 200, **query})}"
        _get(url, key)
        ok &= report(
            f"GET {path} ({name}{note})", best_of(5, lambda u=url: _get(u, key)), target, "ms"
        )
    return ok


def _measure_depths(base: str, path: str, key_name: str, rows: int) -> bool:
    """Best of 5 for the first, middle (50 %), 80 % and last page of 100 (after one warm-up
    call each); the last page must cost at most twice the first."""
    key, pages = BENCH_KEYS[key_name], -(-rows // 100)
    times = {}
    for name, number in [
        ("first", 1),
        ("middle", pages // 2),
        ("80 %", pages * 4 // 5),
        ("last", pages),
    ]:
        url = f"{base}{path}?{urlencode({'limit': 100, 'page': number})}"
        _get(url, key)
        times[name] = best_of(5, lambda u=url: _get(u, key))
        report(f"GET {path} page {number} of {pages} ({name})", times[name], 100, "ms")
    return report(f"GET {path}: last page / first page", times["last"] / times["first"], 2, "x")


def _post(url: str, body: dict) -> float:
    """Milliseconds for one POST with the Import key."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"api-key": BENCH_KEYS["SHOP_IMPORT_API_KEY"], "Content-Type": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        json.loads(response.read())
    return (time.perf_counter() - started) * 1000


def _measure_kits(base: str) -> bool:
    """A kit read and a kit write, after enough calls that a cached generic plan would be used."""
    key = BENCH_KEYS["SHOP_IMPORT_API_KEY"]
    users = iter(range(1000, 2000))
    for _ in range(20):  # more than 5 runs on each pooled connection
        _get(f"{base}/api/users/{next(users)}/kit", key)
        _post(
            f"{base}/api/users/{next(users)}/kit",
            {"product_id": 1, "quantity": 2, "mandatory": True},
        )
    read = best_of(5, lambda: _get(f"{base}/api/users/{next(users)}/kit", key))
    write = best_of(
        5,
        lambda: _post(
            f"{base}/api/users/{next(users)}/kit",
            {"product_id": 2, "quantity": 1, "mandatory": False},
        ),
    )
    return report("GET /api/users/{user}/kit", read, 100, "ms") & report(
        "POST /api/users/{user}/kit", write, 100, "ms"
    )


def main() -> bool:
    url = fresh_database("bench_shop")
    started = time.perf_counter()
    run_sql(url, *DATA)
    asyncio.run(_derive(url))
    run_sql(url)
    print(f"data set built in {time.perf_counter() - started:.1f} s", flush=True)
    ok = True
    for per_user in ("1", "0"):
        with Server(url, FEATURE_USER_PRODUCT_KIT=per_user, FEATURE_TIER_DISCOUNT="1") as server:
            ok &= _measure_pages(
                server.url,
                "/api/users",
                USER_FILTERS,
                "SHOP_IMPORT_API_KEY",
                100,
                f", user kits={per_user}",
            )
            ok &= _measure_depths(server.url, "/api/users", "SHOP_IMPORT_API_KEY", LISTED_USERS)
            if per_user == "0":
                continue
            ok &= _measure_depths(
                server.url, "/api/v1/exchanges/orders", "SHOP_ORDERS_API_KEY", ORDERS // 5
            )
            ok &= _measure_pages(
                server.url,
                "/api/v1/exchanges/orders",
                ORDER_FILTERS,
                "SHOP_ORDERS_API_KEY",
                150,
                "",
            )
            ok &= _measure_kits(server.url)
            runs = iter(range(1, 6))
            ok &= report(
                "POST /api/import/users 1,000 (half updates)",
                best_of(3, lambda runs=runs: _import_batch(server.url, next(runs))),
                1500,
                "ms",
            )
            ok &= report("server peak RSS", server.peak_rss_mb(), 1024, "MB")
    return ok
