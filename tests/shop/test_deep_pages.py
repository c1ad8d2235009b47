"""Deep pages of the users list and the exchange orders: the page's keys are found by an
index-only walk, then only those rows are built. Every page must hold exactly the rows a plain
ORDER BY … LIMIT … OFFSET query over the same tables returns."""

import pytest

from tests.shop.conftest import IMPORT, ORDERS, address, kit_entry, load, order, unit, user

USERS = 240
EXCHANGE_ORDERS = 150


def crowd_user(n: int) -> dict:
    """Every 9th user inactive, every 11th without ridehail_id or agency_id (both never
    listed), every 4th of partner Other, every 5th with an agency ID only."""
    fields = {"active": int(n % 9 != 0), "partner": "Other" if n % 4 == 0 else "Fleet"}
    if n % 11 == 0:
        fields |= {"ridehail_id": None, "agency_id": None}
    elif n % 5 == 0:
        fields |= {"ridehail_id": None, "agency_id": f"AG-{n}"}
    return user(n, **fields)


@pytest.fixture
async def crowd(shop):
    """USERS users with mixed kits, EXCHANGE_ORDERS exchange orders (created in threes at the
    same instant, so the order_id tie-break decides) and some orders without an exchange."""
    orders = []
    for n in range(1, EXCHANGE_ORDERS + 40):
        minute = n // 3
        fields = {
            "created_at": f"2026-01-{1 + minute // 1440:02d}T{minute // 60 % 24:02d}:"
            f"{minute % 60:02d}:00Z"
        }
        if n % 5 == 0:
            fields["order_type"] = "manual"
        if n % 7 == 0:
            fields["addresses"] = [address(country="HU", city="Budapest")]
        if n > EXCHANGE_ORDERS:
            fields["exchange"] = None
        orders.append(order(n, **fields))
    await load(
        shop,
        users=[crowd_user(n) for n in range(1, USERS + 1)],
        user_kits=[kit_entry(n, 1 + n % 2, 1 + n % 3) for n in range(1, USERS + 1, 2)]
        + [kit_entry(n, 1, 2) for n in range(2, USERS + 1, 4)],
        user_products=[unit(n, n, 1 + n % 2) for n in range(1, USERS + 1, 6)],
        orders=orders,
    )
    await shop.execute("VACUUM ANALYZE")  # as in production: the walks are index-only
    return shop


USERS_BY_OFFSET = """
    SELECT u.id, u.ridehail_id, u.agency_id, u.email, pa.name AS partner_name,
           coalesce((SELECT array_agg(k.product_id ORDER BY k.product_id)
                     FROM shop_user_kits k WHERE k.user_id = u.id), '{}') AS kit
    FROM shop_users u LEFT JOIN shop_partners pa ON pa.id = u.partner_id
    WHERE u.active AND (u.ridehail_id IS NOT NULL OR u.agency_id IS NOT NULL)
      AND ($3::text IS NULL OR pa.name = $3)
      AND ($4::boolean IS NULL OR (u.user_kit_owed = 0) = $4)
    ORDER BY u.id LIMIT $1 OFFSET $2"""

USERS_TOTAL = """
    SELECT count(*) FROM shop_users u LEFT JOIN shop_partners pa ON pa.id = u.partner_id
    WHERE u.active AND (u.ridehail_id IS NOT NULL OR u.agency_id IS NOT NULL)
      AND ($1::text IS NULL OR pa.name = $1)
      AND ($2::boolean IS NULL OR (u.user_kit_owed = 0) = $2)"""


@pytest.mark.parametrize(
    ("query", "partner", "nothing_owed"),
    [
        ("", None, None),
        ("&partner_name=Other", "Other", None),
        ("&available_kit_empty=0", None, False),
    ],
)
async def test_every_users_page_holds_the_rows_of_an_offset_query(
    client, crowd, query, partner, nothing_owed
):
    limit = 7
    total = await crowd.fetchval(USERS_TOTAL, partner, nothing_owed)
    assert total > 3 * limit
    for number in range(1, total // limit + 3):  # to one page past the last
        response = await client.get(
            f"/api/users?limit={limit}&page={number}{query}", headers=IMPORT
        )
        assert response.status == 200
        body = await response.json()
        expected = await crowd.fetch(
            USERS_BY_OFFSET, limit, (number - 1) * limit, partner, nothing_owed
        )
        got = [
            (
                u["id"],
                u["ridehail_id"],
                u["agency_id"],
                u["email"],
                u["partner_name"],
                [entry["product_id"] for entry in u["kit"]],
            )
            for u in body["data"]
        ]
        assert got == [tuple(row) for row in expected], number
        assert body["total"] == total


ORDERS_BY_OFFSET = """
    SELECT o.order_id::text AS id, o.driver_id FROM shop_orders o
    WHERE exchange_status IS NOT NULL
      AND ($3::text IS NULL OR order_type = $3)
      AND ($4::text IS NULL OR shipping_country = $4)
    ORDER BY o.created_at, o.order_id LIMIT $1 OFFSET $2"""


@pytest.mark.parametrize(
    ("query", "order_type", "country"),
    [("", None, None), ("&order_type=manual", "manual", None), ("&country=HU", None, "hu")],
)
async def test_every_orders_page_holds_the_rows_of_an_offset_query(
    client, crowd, query, order_type, country
):
    limit = 9
    for number in range(1, EXCHANGE_ORDERS // limit + 3):
        response = await client.get(
            f"/api/v1/exchanges/orders?limit={limit}&page={number}{query}", headers=ORDERS
        )
        assert response.status == 200
        expected = await crowd.fetch(
            ORDERS_BY_OFFSET, limit, (number - 1) * limit, order_type, country
        )
        got = [(o["order_id"], o["driver_id"]) for o in await response.json()]
        assert got == [tuple(row) for row in expected], number
        assert len(got) == 0 or got[0][1] == f"D{got[0][0]}"
